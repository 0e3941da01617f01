// A single-node engine session's run-time settings (SET, RESET, SHOW), with PostgreSQL's transaction
// rules: a SET inside a transaction block is undone by its ROLLBACK, and one after a savepoint by a
// ROLLBACK TO it (RELEASE keeps it; the session keeps each savepoint's `snapshot`); a SET LOCAL lasts
// until the block ends (outside one it is a WARNING and changes nothing). TimeZone is checked and shown as PostgreSQL
// does (sql/session-zone.ts) and is the zone the session's statements run in; the other settings are
// kept as given and shown back. (The gateway keeps its own settings: client/gateway/session-settings.ts.)

import { SqlError, SqlState } from './errors.ts';
import { timeZoneSetting, UTC_ZONE, type SessionZone } from './session-zone.ts';

const defaults: Readonly<Record<string, string>> = {
  transaction_isolation: 'serializable', default_transaction_isolation: 'serializable', server_version: '15.0',
  server_encoding: 'UTF8', client_encoding: 'UTF8', datestyle: 'ISO, MDY', timezone: 'UTC', search_path: '"$user", public',
  standard_conforming_strings: 'on', integer_datetimes: 'on', application_name: '', max_identifier_length: '63',
};

const SET_LOCAL_OUTSIDE_BLOCK = 'SET LOCAL can only be used in transaction blocks';

/** The settings when a savepoint was taken, which a ROLLBACK TO it restores. */
export interface SettingsSnapshot {
  readonly values: ReadonlyMap<string, string>;
  readonly local: ReadonlyMap<string, string>;
}

export class EngineSettings {
  readonly #values = new Map<string, string>();
  /** In a transaction block: the values at its start (for ROLLBACK) and its SET LOCAL values. */
  #block: { readonly before: Map<string, string>; readonly local: Map<string, string> } | null = null;
  #zone: SessionZone = UTC_ZONE;

  /** The zone the session's statements run in now. */
  get zone(): SessionZone {
    return this.#zone;
  }

  get(name: string): string | undefined {
    return this.#block?.local.get(name) ?? this.#values.get(name) ?? defaults[name];
  }

  /** SET [LOCAL] name = value, or RESET / SET ... TO DEFAULT (value null); name '' with value null: RESET ALL. The WARNING to send, if any. */
  set(name: string, value: string | null, local: boolean): string | null {
    if (local && this.#block === null) return SET_LOCAL_OUTSIDE_BLOCK;
    let stored = value;
    if (name === 'timezone' && value !== null) {
      const z = timeZoneSetting(value);
      if (!('zone' in z)) throw new SqlError(SqlState.invalidParameterValue, z.error, z.detail);
      stored = z.name;
    }
    if (local) {
      this.#block?.local.set(name, stored ?? defaults[name] ?? '');
    } else {
      if (name === '' && value === null) this.#values.clear();
      else if (stored === null) this.#values.delete(name);
      else this.#values.set(name, stored);
      // A SET after a SET LOCAL in the same block replaces it.
      if (name === '') this.#block?.local.clear();
      else this.#block?.local.delete(name);
    }
    this.#refreshZone();
    return null;
  }

  /** BEGIN. */
  begin(): void {
    this.#block = { before: new Map(this.#values), local: new Map() };
  }

  /** SAVEPOINT: the settings now (SET and SET LOCAL values). */
  snapshot(): SettingsSnapshot {
    return { values: new Map(this.#values), local: new Map(this.#block?.local ?? []) };
  }

  /** ROLLBACK TO: the settings as the savepoint found them. */
  restore(s: SettingsSnapshot): void {
    this.#values.clear();
    for (const [k, v] of s.values) this.#values.set(k, v);
    const local = this.#block?.local;
    local?.clear();
    for (const [k, v] of s.local) local?.set(k, v);
    this.#refreshZone();
  }

  /** The block ends: its SET LOCAL values go, and a rollback undoes its SETs. */
  end(committed: boolean): void {
    const block = this.#block;
    if (block === null) return;
    this.#block = null;
    if (!committed) {
      this.#values.clear();
      for (const [k, v] of block.before) this.#values.set(k, v);
    }
    this.#refreshZone();
  }

  #refreshZone(): void {
    const z = timeZoneSetting(this.get('timezone') ?? 'UTC');
    this.#zone = 'zone' in z ? z : UTC_ZONE;
  }
}
