// Deferred FOREIGN KEY checks, as PostgreSQL 15 defers its RI triggers. A DEFERRABLE constraint's
// checks wait for COMMIT when it is INITIALLY DEFERRED or SET CONSTRAINTS ... DEFERRED names it (or
// ALL); SET CONSTRAINTS ... IMMEDIATE runs its pending checks at once. Only the checks PostgreSQL
// defers are deferred: a new or changed referencing row's (the referenced key must exist) and NO
// ACTION's (a referenced key gone must not be referenced); RESTRICT, CASCADE, SET NULL and SET DEFAULT
// always act at the end of the statement.
//
// A pending check names its tables, constraint and row, not rows themselves: when it runs, it reads
// the rows the transaction holds then (a referencing row changed again or deleted since is checked as
// it is, or not at all; a referenced key inserted again satisfies NO ACTION), so checks queued by
// statements a ROLLBACK TO SAVEPOINT undid are harmless. Running them is foreign-key-checks.ts's
// `runDeferredChecks`: the same reads as immediate checks, through the transaction's row source, so
// on the cluster they are fetched (and validated) like every other read, before the prepare.

import type { ForeignKeyDef } from './catalog.ts';
import type { Catalog } from './catalog.ts';
import { SqlError, SqlState } from './errors.ts';
import type { SqlValue } from './types.ts';

/** A check waiting for COMMIT (or SET CONSTRAINTS ... IMMEDIATE). */
export type DeferredCheck =
  /** The referencing row of `table` at primary key `key` must find its referenced key. */
  | { readonly k: 'reference'; readonly table: string; readonly fk: string; readonly key: string }
  /** NO ACTION: referenced key `values` of `table` went away; `child`'s rows must not reference it. */
  | { readonly k: 'no action'; readonly table: string; readonly fk: string; readonly child: string; readonly values: readonly SqlValue[] };

/** What one statement's checks consult and queue (queued checks join the transaction when it succeeds). */
export interface StatementDeferrals {
  isDeferred(fk: ForeignKeyDef): boolean;
  readonly queued: DeferredCheck[];
}

/** A transaction's SET CONSTRAINTS state and pending checks. */
export class DeferredConstraints {
  /** SET CONSTRAINTS ALL; null: each constraint's INITIALLY mode. */
  #all: boolean | null = null;
  /** SET CONSTRAINTS name, after the last ALL (by constraint name). */
  readonly #named = new Map<string, boolean>();
  #pending: DeferredCheck[] = [];

  isDeferred(fk: ForeignKeyDef): boolean {
    if (fk.deferrable !== true) return false;
    return this.#named.get(fk.name) ?? this.#all ?? fk.initiallyDeferred === true;
  }

  statement(): StatementDeferrals {
    return { isDeferred: (fk) => this.isDeferred(fk), queued: [] };
  }

  /** A statement succeeded: its deferred checks wait for COMMIT. */
  absorb(s: StatementDeferrals): void {
    for (const c of s.queued) this.#pending.push(c);
  }

  get hasPending(): boolean {
    return this.#pending.length > 0;
  }

  /** Every pending check (COMMIT runs them); none remain. */
  takeAll(): DeferredCheck[] {
    const out = this.#pending;
    this.#pending = [];
    return out;
  }

  /**
   * SET CONSTRAINTS (`names` null: ALL; names already checked by `constraintsNamed`): the new modes,
   * and the pending checks of constraints now IMMEDIATE, which run at once.
   */
  set(names: readonly string[] | null, deferred: boolean, catalog: Catalog): DeferredCheck[] {
    if (names === null) {
      this.#all = deferred;
      this.#named.clear();
    } else {
      for (const n of names) this.#named.set(n, deferred);
    }
    if (deferred) return [];
    const keys = new Map<string, ForeignKeyDef>();
    for (const t of catalog.list()) for (const fk of t.foreignKeys ?? []) keys.set(`${t.name}.${fk.name}`, fk);
    const now: DeferredCheck[] = [];
    const later: DeferredCheck[] = [];
    for (const c of this.#pending) {
      const fk = keys.get(`${c.k === 'reference' ? c.table : c.child}.${c.fk}`);
      (fk !== undefined && this.isDeferred(fk) ? later : now).push(c);
    }
    this.#pending = later;
    return now;
  }
}

/** PostgreSQL's WARNING (25P01) for SET CONSTRAINTS outside a transaction block, which then changes nothing. */
export const SET_CONSTRAINTS_OUTSIDE_BLOCK = 'SET CONSTRAINTS can only be used in transaction blocks';

/**
 * The constraint names of SET CONSTRAINTS checked as PostgreSQL checks them: each names a constraint
 * (42704), and to defer it every constraint of that name is DEFERRABLE (42809). Only foreign keys can
 * be DEFERRABLE here, so a primary key, unique or check constraint is not deferrable.
 */
export function constraintsNamed(catalog: Catalog, names: readonly { readonly schema: string | null; readonly name: string }[], deferred: boolean): string[] {
  const out: string[] = [];
  for (const { schema, name } of names) {
    const tables = schema === null || schema === 'public' ? catalog.list() : [];
    const fks = tables.flatMap((t) => (t.foreignKeys ?? []).filter((f) => f.name === name));
    const others = tables.some((t) => (t.checks ?? []).some((c) => c.name === name) || t.indexes.some((i) => i.name === name && i.unique) || (!t.hiddenPk && `${t.name}_pkey` === name));
    if (fks.length === 0 && !others) throw new SqlError(SqlState.undefinedObject, `constraint "${name}" does not exist`);
    if (deferred && (others || fks.some((f) => f.deferrable !== true))) throw new SqlError(SqlState.wrongObjectType, `constraint "${name}" is not deferrable`);
    out.push(name);
  }
  return out;
}
