// Run-time settings a gateway session keeps for itself (SET, RESET, SHOW, current_setting, set_config):
// the engine has no pg_settings, and the cluster backend should not see session cosmetics. Values that
// change what the gateway sends are validated (only UTF8, only ISO dates, since that is all the engine
// writes); the rest of the settings drivers and tools send are accepted and echoed back by SHOW.
// TimeZone is checked as PostgreSQL checks it and handed to the backend, which binds and runs statements
// in it (sql/session-zone.ts). Settings PostgreSQL reports with ParameterStatus are reported on change
// too. As there, the startup packet's values are what RESET goes back to (one PostgreSQL refuses, 22023,
// ends the connection: `startupError`; names and values it takes that are not kept here are ignored),
// a SET in a transaction block is undone by its rollback, and one after a savepoint by a ROLLBACK TO it
// (RELEASE keeps it), and SET LOCAL lasts until the block ends. The savepoints are the backend's: the
// session tells this one of each it took, released or rolled back to.

import { timeZoneSetting, UTC_ZONE, type SessionZone } from '../../sql/session-zone.ts';
import type { SavepointOp } from '../../sql/lower-statement.ts';
import { GatewayState } from './protocol-error.ts';
import type { BackendColumn, BackendError, BackendResult } from './sql-backend.ts';

export const SERVER_VERSION = '15.0';
export const SERVER_VERSION_NUM = '150000';

interface SettingDef {
  /** Name as PostgreSQL spells it in SHOW and ParameterStatus. */
  readonly name: string;
  readonly initial: string;
  readonly reported?: boolean;
  readonly readOnly?: boolean;
  /** Returns the value to store, or an error message (SQLSTATE 22023 unless given). */
  readonly check?: (v: string) => string | { readonly error: string; readonly code?: string; readonly detail?: string | undefined };
}

const onOff = (v: string): string | { error: string } => {
  const t = v.toLowerCase();
  if (['on', 'true', 'yes', '1'].includes(t)) return 'on';
  if (['off', 'false', 'no', '0'].includes(t)) return 'off';
  return { error: `parameter requires a Boolean value` };
};

const defs: readonly SettingDef[] = [
  { name: 'application_name', initial: '', reported: true },
  {
    name: 'client_encoding', initial: 'UTF8', reported: true,
    check: (v) => (/^(utf-?8|unicode)$/i.test(v) ? 'UTF8' : { error: `conversion between ${v} and UTF8 is not supported`, code: GatewayState.featureNotSupported }),
  },
  {
    name: 'DateStyle', initial: 'ISO, MDY', reported: true,
    check: (v) => {
      const parts = v.split(',').map((p) => p.trim().toUpperCase());
      if (parts.some((p) => !['ISO', 'MDY', 'DMY', 'YMD', 'US', 'EURO', 'EUROPEAN', 'NONEURO', 'NONEUROPEAN', 'DEFAULT', 'SQL', 'POSTGRES', 'GERMAN'].includes(p))) {
        return { error: `invalid value for parameter "DateStyle": "${v}"` }; // 22023, as PostgreSQL
      }
      const style = parts.find((p) => p === 'SQL' || p === 'POSTGRES' || p === 'GERMAN');
      if (style !== undefined) return { error: `DateStyle ${style} is not supported: dates are written in ISO style`, code: GatewayState.featureNotSupported };
      // Dates of numbers ('1/8/1999') are read month first where statements run (sql/datetime-input.ts),
      // which know no session's order: another order is refused rather than taken and not applied.
      const order = parts.find((p) => p === 'DMY' || p === 'YMD' || p === 'EURO' || p === 'EUROPEAN');
      if (order !== undefined) return { error: `DateStyle ${order} is not supported: dates are read in MDY order`, code: GatewayState.featureNotSupported };
      return 'ISO, MDY';
    },
  },
  {
    // The zone timestamptz values are read and written in (sql/session-zone.ts), as PostgreSQL checks it.
    name: 'TimeZone', initial: 'UTC', reported: true,
    check: (v) => {
      const z = timeZoneSetting(v);
      return 'zone' in z ? z.name : z;
    },
  },
  { name: 'IntervalStyle', initial: 'postgres', reported: true },
  { name: 'integer_datetimes', initial: 'on', reported: true, readOnly: true },
  { name: 'server_encoding', initial: 'UTF8', reported: true, readOnly: true },
  { name: 'server_version', initial: SERVER_VERSION, reported: true, readOnly: true },
  { name: 'server_version_num', initial: SERVER_VERSION_NUM, readOnly: true },
  { name: 'is_superuser', initial: 'on', reported: true, readOnly: true },
  { name: 'session_authorization', initial: '', reported: true, readOnly: true },
  { name: 'default_transaction_read_only', initial: 'off', reported: true, check: onOff },
  { name: 'in_hot_standby', initial: 'off', reported: true, readOnly: true },
  {
    name: 'standard_conforming_strings', initial: 'on', reported: true,
    check: (v) => (onOff(v) === 'on' ? 'on' : { error: 'standard_conforming_strings off is not supported', code: GatewayState.featureNotSupported }),
  },
  {
    name: 'extra_float_digits', initial: '1',
    check: (v) => (/^\s*[+-]?\d+\s*$/.test(v) && Math.abs(Number(v)) <= 15 ? String(Number(v)) : { error: `invalid value for parameter "extra_float_digits": "${v}"` }),
  },
  { name: 'search_path', initial: '"$user", public' },
  { name: 'transaction_isolation', initial: 'serializable' },
  { name: 'default_transaction_isolation', initial: 'serializable' },
  { name: 'transaction_read_only', initial: 'off' },
  { name: 'default_transaction_deferrable', initial: 'off' },
  { name: 'session_replication_role', initial: 'origin' },
  { name: 'statement_timeout', initial: '0' },
  { name: 'lock_timeout', initial: '0' },
  { name: 'idle_in_transaction_session_timeout', initial: '0' },
  { name: 'idle_session_timeout', initial: '0' },
  { name: 'synchronous_commit', initial: 'on' },
  { name: 'client_min_messages', initial: 'notice' },
  {
    // bytea is written in the hex format only (sql/bytea.ts): 'escape' is refused rather than taken and not applied.
    name: 'bytea_output', initial: 'hex',
    check: (v) => {
      const t = v.toLowerCase();
      if (t === 'hex') return 'hex';
      if (t === 'escape') return { error: 'bytea_output escape is not supported: bytea values are written in the hex format', code: GatewayState.featureNotSupported };
      return { error: `invalid value for parameter "bytea_output": "${v}"` };
    },
  },
  { name: 'row_security', initial: 'on' },
  { name: 'escape_string_warning', initial: 'on' },
  { name: 'max_identifier_length', initial: '63', readOnly: true },
  { name: 'lc_messages', initial: 'C' },
  { name: 'lc_monetary', initial: 'C' },
  { name: 'lc_numeric', initial: 'C' },
  { name: 'lc_time', initial: 'C' },
  { name: 'work_mem', initial: '4MB' },
  { name: 'maintenance_work_mem', initial: '64MB' },
  { name: 'jit', initial: 'off' },
  { name: 'max_parallel_workers_per_gather', initial: '0' },
  { name: 'enable_seqscan', initial: 'on' },
  { name: 'enable_indexscan', initial: 'on' },
  { name: 'enable_bitmapscan', initial: 'on' },
  { name: 'enable_hashjoin', initial: 'on' },
  { name: 'enable_mergejoin', initial: 'on' },
  { name: 'enable_nestloop', initial: 'on' },
  { name: 'geqo', initial: 'on' },
  { name: 'xmloption', initial: 'content' },
  // What pg_dump's scripts set before their statements.
  { name: 'check_function_bodies', initial: 'on', check: onOff },
  { name: 'default_tablespace', initial: '', check: (v) => (v === '' || v === 'pg_default' ? v : { error: `invalid value for parameter "default_tablespace": "${v}"` }) },
  { name: 'default_table_access_method', initial: 'heap', check: (v) => (v === 'heap' ? v : { error: `invalid value for parameter "default_table_access_method": "${v}"` }) },
  { name: 'default_toast_compression', initial: 'pglz' },
  { name: 'temp_tablespaces', initial: '' },
  { name: 'quote_all_identifiers', initial: 'off', check: onOff },
  { name: 'vacuum_cost_delay', initial: '0' },
  // What pg_dump sets before it reads (scans here are never synchronized: 'off' is what they are).
  { name: 'synchronize_seqscans', initial: 'on', check: onOff },
];

const byLowerName = new Map(defs.map((d) => [d.name.toLowerCase(), d]));

export type SetOutcome =
  | { readonly ok: true; /** ParameterStatus to send: [name, value]. */ readonly report: readonly [string, string] | null; readonly warning?: string }
  | { readonly ok: false; readonly error: BackendError };

export class SessionSettings {
  private values = new Map<string, string>();
  private readonly custom = new Map<string, string>();
  /** What RESET goes back to: the startup packet's values. */
  private readonly resetValues = new Map<string, string>();
  /**
   * In a transaction block: the values at its start (for its rollback), its SET LOCAL values, and its
   * savepoints (innermost last, a name may repeat) with the values and SET LOCAL values a ROLLBACK TO restores.
   */
  private block: {
    readonly before: Map<string, string>;
    readonly local: Map<string, string>;
    readonly savepoints: { readonly name: string; readonly values: Map<string, string>; readonly local: Map<string, string> }[];
  } | null = null;
  #zone: SessionZone = UTC_ZONE;
  #onZone: ((zone: SessionZone) => void) | null = null;
  /** The database the startup packet named (the user's name when it named none, as libpq does). */
  readonly database: string;
  /**
   * The first startup setting whose value PostgreSQL refuses (22023: TimeZone 'Nowhere/Zone'), where it
   * ends the connection with FATAL; null when none.
   */
  readonly startupError: BackendError | null;

  constructor(
    readonly user: string,
    startup: ReadonlyMap<string, string>,
  ) {
    this.database = startup.get('database') ?? user;
    this.values.set('session_authorization', user);
    let refused: BackendError | null = null;
    for (const [k, v] of startup) {
      if (k === 'user' || k === 'database' || k === 'options' || k === 'replication') continue;
      const r = this.set(k, v);
      if (!r.ok && r.error.code === GatewayState.invalidParameterValue) refused ??= r.error;
    }
    this.startupError = refused;
    for (const [k, v] of this.values) this.resetValues.set(k, v);
  }

  /** The session's TimeZone now. */
  get zone(): SessionZone {
    return this.#zone;
  }

  /** Calls `listener` with the TimeZone now and after each change (the backend session runs statements in it). */
  watchZone(listener: (zone: SessionZone) => void): void {
    this.#onZone = listener;
    listener(this.#zone);
  }

  /** BEGIN (of a block the client opened). */
  begin(): void {
    this.block = { before: new Map(this.values), local: new Map(), savepoints: [] };
  }

  /** The block ends: its SET LOCAL values go and a rollback undoes its SETs; the ParameterStatus messages to send. */
  end(committed: boolean): [string, string][] {
    const block = this.block;
    if (block === null) return [];
    return this.reporting(() => {
      this.block = null;
      if (!committed) this.values = block.before;
    });
  }

  /**
   * A savepoint statement the backend ran: SAVEPOINT keeps the settings a ROLLBACK TO it goes back to;
   * RELEASE forgets it and the later ones (the SETs made since stay); ROLLBACK TO restores its settings
   * (it stays, the later ones go). The ParameterStatus messages to send.
   */
  followSavepoint(op: SavepointOp, name: string): [string, string][] {
    const block = this.block;
    if (block === null) return [];
    if (op === 'savepoint') {
      block.savepoints.push({ name, values: new Map(this.values), local: new Map(block.local) });
      return [];
    }
    // The innermost savepoint of that name.
    const i = block.savepoints.findLastIndex((s) => s.name === name);
    const s = block.savepoints[i];
    if (s === undefined) return [];
    block.savepoints.length = op === 'release' ? i : i + 1;
    if (op === 'release') return [];
    return this.reporting(() => {
      this.values = new Map(s.values);
      block.local.clear();
      for (const [k, v] of s.local) block.local.set(k, v);
    });
  }

  /** Applies `change`; the reported parameters whose values it changed. */
  private reporting(change: () => void): [string, string][] {
    const before = this.reported();
    change();
    this.changed();
    const after = this.reported();
    return after.filter(([k, v], i) => before[i]?.[0] === k && before[i]?.[1] !== v);
  }

  private changed(): void {
    const z = timeZoneSetting(this.get('TimeZone') ?? 'UTC');
    const zone = 'zone' in z ? z : UTC_ZONE;
    if (zone === this.#zone) return;
    this.#zone = zone;
    this.#onZone?.(zone);
  }

  /** Every reported parameter with its current value, for the startup sequence. */
  reported(): [string, string][] {
    return defs.filter((d) => d.reported === true).map((d) => [d.name, this.get(d.name) ?? '']);
  }

  /** The name as PostgreSQL spells it ('datestyle' -> 'DateStyle'), for SHOW's column. */
  canonicalName(name: string): string {
    return byLowerName.get(name.toLowerCase())?.name ?? name.toLowerCase();
  }

  get(name: string): string | undefined {
    const lower = name.toLowerCase();
    const def = byLowerName.get(lower);
    if (def === undefined) return this.custom.get(lower);
    return this.block?.local.get(def.name) ?? this.values.get(def.name) ?? this.resetValues.get(def.name) ?? def.initial;
  }

  /** SET [LOCAL] name = value, or RESET name (value null). */
  set(name: string, value: string | null, local = false): SetOutcome {
    if (local && this.block === null) return { ok: true, report: null, warning: 'SET LOCAL can only be used in transaction blocks' };
    const lower = name.toLowerCase();
    const def = byLowerName.get(lower);
    // SET ROLE and SET SESSION AUTHORIZATION would change the session's role (sql/roles.ts), which the gateway does not do yet.
    if (lower === 'role' || (lower === 'session_authorization' && value !== null && value !== this.get('session_authorization'))) {
      if (value === null || (lower === 'role' && value.toLowerCase() === 'none')) return { ok: true, report: null };
      return { ok: false, error: { code: '0A000', message: `SET ${lower === 'role' ? 'ROLE' : 'SESSION AUTHORIZATION'} is not supported` } };
    }
    if (def === undefined) {
      if (!lower.includes('.')) {
        return { ok: false, error: { code: GatewayState.undefinedObject, message: `unrecognized configuration parameter "${name}"` } };
      }
      if (value === null) this.custom.delete(lower);
      else this.custom.set(lower, value);
      return { ok: true, report: null };
    }
    if (def.readOnly === true) {
      if (value === null || value === this.get(def.name)) return { ok: true, report: null };
      return { ok: false, error: { code: '55P02', message: `parameter "${def.name}" cannot be changed` } };
    }
    let stored: string | null = value;
    if (value !== null && def.check !== undefined) {
      const c = def.check(value);
      if (typeof c !== 'string') return { ok: false, error: { code: c.code ?? GatewayState.invalidParameterValue, message: c.error, detail: c.detail } };
      stored = c;
    }
    const before = this.get(def.name);
    if (local) this.block?.local.set(def.name, stored ?? this.resetValues.get(def.name) ?? def.initial);
    else {
      if (stored === null) this.values.delete(def.name);
      else this.values.set(def.name, stored);
      this.block?.local.delete(def.name); // a SET after a SET LOCAL in the block replaces it
    }
    this.changed();
    const after = this.get(def.name) ?? '';
    return { ok: true, report: def.reported === true && after !== before ? [def.name, after] : null };
  }

  /** RESET ALL: the ParameterStatus messages to send. */
  resetAll(): [string, string][] {
    const reports: [string, string][] = [];
    for (const d of defs) {
      if (d.readOnly === true || !this.values.has(d.name)) continue;
      const r = this.set(d.name, null);
      if (r.ok && r.report !== null) reports.push([r.report[0], r.report[1]]);
    }
    this.custom.clear();
    return reports;
  }

  /** Every setting with its current and initial value (pg_settings' rows), in definition order. */
  listed(): { name: string; setting: string; boot: string; changed: boolean }[] {
    return defs.map((d) => ({ name: d.name, setting: this.get(d.name) ?? '', boot: d.initial, changed: this.values.has(d.name) }));
  }

  /** SHOW's result columns: one named for the setting, or SHOW ALL's name, setting and description. */
  showColumns(name: string): BackendColumn[] {
    return name.toLowerCase() === 'all' ? ['name', 'setting', 'description'].map(textColumn) : [textColumn(this.canonicalName(name))];
  }

  /** SHOW name | ALL. */
  show(name: string): BackendResult {
    const columns = this.showColumns(name);
    if (name.toLowerCase() === 'all') {
      return { ok: true, tag: 'SHOW', returnsRows: true, columns, rows: defs.map((d) => [d.name, this.get(d.name) ?? '', '']), notices: [] };
    }
    const v = this.get(name);
    if (v === undefined) return { ok: false, error: { code: GatewayState.undefinedObject, message: `unrecognized configuration parameter "${name}"` } };
    return { ok: true, tag: 'SHOW', returnsRows: true, columns, rows: [[v]], notices: [] };
  }
}

const textColumn = (name: string): BackendColumn => ({ name, type: 'text', typmod: -1 });
