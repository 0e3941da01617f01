// FOREIGN KEY enforcement in DML, as PostgreSQL 15's RI triggers do it: every check runs at the end of
// the statement, over the rows the statement left, except those of a deferred constraint, which queue
// for COMMIT (foreign-key-deferred.ts) and run there through `runDeferredChecks`.
//
// A DML statement hands `enforceForeignKeys` the rows it changed (old and new row each). For a changed
// or deleted referenced key, the referencing table's action runs: CASCADE deletes or updates the
// referencing rows, SET NULL / SET DEFAULT updates them (their own constraints and keys checked as any
// update's), RESTRICT fails if any remain, NO ACTION fails if any remain once the statement is done
// and no other row holds the key. Every row those actions change joins the list (a cascade cascades).
// Then every inserted row, or updated row whose key columns changed, must find its referenced key
// (MATCH SIMPLE: a NULL in any column skips it; MATCH FULL: all NULL skips it, some NULL fails).
//
// The checks are reads through the statement's row source, so they are what makes them serializable:
// the referenced key is a point read by primary key (or a unique-index probe), and the referencing rows
// are a scan of the referencing table by the key columns (an index scan when an index leads with them,
// else a scan of the table with that predicate), recorded as a predicate. On the cluster the client
// runs DML over a FetchingSource (client/sql/sql-txn.ts): the point read is a row fetch and the scan a
// reconnaissance range read at the referencing table's shard (scan-fetch.ts, decision 0013), whose
// predicate SemanticCC validates; so a transaction adding a referencing row and one deleting its
// referenced row cannot both commit. The single-node engine records the same reads for its OCC.

import type { Catalog, ForeignKeyDef, IndexDef, TableDef } from './catalog.ts';
import { castValue } from './cast.ts';
import { evalExpr, type Env } from './eval.ts';
import { pointGet, type ExecContext } from './exec-context.ts';
import { andOf, type Expr } from './expr.ts';
import { castKey, keyState, missingKeyError, sameSet, stillReferencedError } from './foreign-keys.ts';
import type { SqlError } from './errors.ts';
import type { DeferredCheck } from './foreign-key-deferred.ts';
import { encodeKey, prefixEnd } from './key-encoding.ts';
import { indexEntryPrefix, primaryKeyOf } from './memory-store.ts';
import type { ScannedRow } from './row-source.ts';
import type { Row, SqlValue } from './types.ts';
import { isPlainIndex } from './index-keys.ts';

/** One foreign key with both its tables as the catalog defines them now. */
export interface ForeignKeyLink {
  readonly fk: ForeignKeyDef;
  readonly child: TableDef;
  readonly parent: TableDef;
}

/** The foreign keys of a catalog version by referencing and by referenced table id. */
export class ForeignKeyGraph {
  readonly #outgoing = new Map<number, ForeignKeyLink[]>();
  readonly #incoming = new Map<number, ForeignKeyLink[]>();

  constructor(catalog: Catalog) {
    for (const child of catalog.list()) {
      for (const fk of child.foreignKeys ?? []) {
        const parent = catalog.get(fk.refTable);
        if (parent === undefined) continue;
        const link = { fk, child, parent };
        this.#outgoing.set(child.id, [...(this.#outgoing.get(child.id) ?? []), link]);
        this.#incoming.set(parent.id, [...(this.#incoming.get(parent.id) ?? []), link]);
      }
    }
  }

  outgoing(tableId: number): readonly ForeignKeyLink[] {
    return this.#outgoing.get(tableId) ?? [];
  }

  incoming(tableId: number): readonly ForeignKeyLink[] {
    return this.#incoming.get(tableId) ?? [];
  }

  /** Whether a change to table `tableId` may need a check or an action. */
  touches(tableId: number): boolean {
    return this.#outgoing.has(tableId) || this.#incoming.has(tableId);
  }
}

const graphs = new WeakMap<Catalog, { readonly version: number; readonly graph: ForeignKeyGraph | null }>();

/** The catalog's foreign keys (null when it has none: DML then does no foreign key work). */
export function foreignKeyGraph(catalog: Catalog): ForeignKeyGraph | null {
  const cached = graphs.get(catalog);
  if (cached !== undefined && cached.version === catalog.version) return cached.graph;
  const graph = catalog.list().some((t) => (t.foreignKeys ?? []).length > 0) ? new ForeignKeyGraph(catalog) : null;
  graphs.set(catalog, { version: catalog.version, graph });
  return graph;
}

/** A row a statement changed: inserted (old null), deleted (new null) or updated. */
export interface RowChange {
  readonly table: TableDef;
  readonly old: Row | null;
  readonly new: Row | null;
}

/** How actions write rows, supplied by the DML executor (dml.ts): with its constraint and uniqueness checks. */
export interface RowWriter {
  /** Stores `nw` in place of `old`; returns the row stored (typmods applied). */
  update(table: TableDef, old: Row, nw: Row): Row;
  delete(table: TableDef, old: Row): void;
}

function sameValues(table: TableDef, cols: readonly number[], a: Row, b: Row): boolean {
  const types = cols.map((c) => table.columns[c]!.type);
  return encodeKey(cols.map((c) => a[c] ?? null), types) === encodeKey(cols.map((c) => b[c] ?? null), types);
}

/**
 * The first violation found, kept while the remaining checks still run: over a client's fetching
 * source (client/sql/sql-txn.ts) a row not fetched yet reads as absent, so a check may fail only
 * because its read is missing; running every check records every missing read in one pass (the
 * statement then runs again with them) instead of one per pass. Once a violation is found no further
 * action writes anything (the statement fails; what it reports is the first violation, as in
 * PostgreSQL).
 */
interface Violations {
  first: SqlError | null;
}

/** A statement's (or an action's) changed rows, and how far their actions and checks have run. */
interface Frame {
  readonly changes: readonly RowChange[];
  row: number;
  /** The next incoming foreign key of the current row whose action runs. */
  link: number;
}

/**
 * Runs the referential actions and checks of one statement's `changes` (see the module comment), in
 * PostgreSQL's order: row by row, for each row the actions of the keys referencing it (constraints in
 * creation order), then its own references' checks. An action's writes are a statement of their own
 * whose actions and checks run when it is done, before the next row's (PostgreSQL runs them through
 * SPI, each query firing its own triggers at its end). A stack of frames, not recursion: a cascade
 * down a self-referencing chain of any length runs in constant stack.
 */
export function enforceForeignKeys(graph: ForeignKeyGraph, env: Env, ctx: ExecContext, changes: readonly RowChange[], writer: RowWriter): void {
  const found: Violations = { first: null };
  const stack: Frame[] = [{ changes, row: 0, link: 0 }];
  while (stack.length > 0) {
    const f = stack[stack.length - 1]!;
    const c = f.changes[f.row];
    if (c === undefined) {
      stack.pop();
      continue;
    }
    const incoming = c.old === null ? [] : graph.incoming(c.table.id);
    const link = incoming[f.link];
    if (link !== undefined) {
      f.link++;
      const done = act(env, ctx, link, c.old!, c.new, writer, found);
      if (done.length > 0) stack.push({ changes: done, row: 0, link: 0 });
      continue;
    }
    if (c.new !== null) for (const out of graph.outgoing(c.table.id)) if (c.old === null || !sameValues(c.table, out.fk.columns, c.old, c.new)) check(env, ctx, out, c.new, found);
    f.row++;
    f.link = 0;
  }
  if (found.first !== null) throw found.first;
}

/** The action of `link` for a referenced row `old` deleted (`nw` null) or updated to `nw`: the referencing rows it changed. */
function act(env: Env, ctx: ExecContext, link: ForeignKeyLink, old: Row, nw: Row | null, writer: RowWriter, found: Violations): readonly RowChange[] {
  const { fk, child, parent } = link;
  const key = fk.refColumns.map((col) => old[col] ?? null);
  if (key.some((v) => v === null)) return [];
  if (nw !== null && sameValues(parent, fk.refColumns, old, nw)) return [];
  const action = nw === null ? fk.onDelete : fk.onUpdate;
  if (action === 'no action') {
    if (ctx.deferred?.isDeferred(fk) === true) {
      ctx.deferred.queued.push({ k: 'no action', table: parent.name, fk: fk.name, child: child.name, values: key });
      return [];
    }
    return noActionCheck(env, ctx, link, key, found);
  }
  const refs = referencingRows(env, ctx, link, key);
  if (action === 'restrict') {
    if (refs.length > 0) found.first ??= stillReferencedError(parent, child, fk, key);
    return [];
  }
  if (found.first !== null) return [];
  const done: RowChange[] = [];
  for (const r of refs) {
    if (action === 'cascade' && nw === null) {
      writer.delete(child, r.row);
      done.push({ table: child, old: r.row, new: null });
      continue;
    }
    const next = r.row.slice();
    fk.columns.forEach((col, j) => {
      const column = child.columns[col]!;
      if (action === 'set null') next[col] = null;
      else if (action === 'set default') next[col] = column.default === null ? null : evalExpr(column.default, [], env);
      else {
        const refCol = fk.refColumns[j]!;
        const v = nw![refCol] ?? null;
        next[col] = v === null ? null : castValue(v, parent.columns[refCol]!.type, column.type, column.typmod, false);
      }
    });
    done.push({ table: child, old: r.row, new: writer.update(child, r.row, next) });
  }
  return done;
}

/** NO ACTION for referenced key `key` gone: no referencing row may remain. */
function noActionCheck(env: Env, ctx: ExecContext, link: ForeignKeyLink, key: readonly SqlValue[], found: Violations): readonly RowChange[] {
  // Another row holding the key (re-inserted, or moved onto it) keeps the references valid.
  if (matchingRows(env, ctx, link.parent, link.fk.refColumns, key, true).length > 0) return [];
  if (referencingRows(env, ctx, link, key).length > 0) found.first ??= stillReferencedError(link.parent, link.child, link.fk, key);
  return [];
}

/** A new or changed referencing row must find its referenced key (at COMMIT when the constraint is deferred). */
function check(env: Env, ctx: ExecContext, link: ForeignKeyLink, row: Row, found: Violations): void {
  const state = keyState(link.fk, row);
  if (state === 'skip') return;
  if (!stillStored(ctx, link.child, row)) return; // changed again or deleted later in the statement
  if (ctx.deferred?.isDeferred(link.fk) === true) {
    ctx.deferred.queued.push({ k: 'reference', table: link.child.name, fk: link.fk.name, key: primaryKeyOf(link.child, row) });
    return;
  }
  checkReference(env, ctx, link, row, state, found);
}

function checkReference(env: Env, ctx: ExecContext, link: ForeignKeyLink, row: Row, state: 'mixed' | 'check', found: Violations): void {
  if (state === 'mixed') {
    found.first ??= missingKeyError(link.child, link.fk, row);
    return;
  }
  const key = castKey(link.fk.columns.map((c) => row[c] ?? null), link.fk.columns.map((c) => link.child.columns[c]!.type), link.fk.refColumns.map((c) => link.parent.columns[c]!.type));
  if (key === null || matchingRows(env, ctx, link.parent, link.fk.refColumns, key, true).length === 0) found.first ??= missingKeyError(link.child, link.fk, row);
}

/**
 * Runs deferred checks (foreign-key-deferred.ts) over the rows the transaction holds now, with the
 * reads an immediate check makes; throws the first violation. A check of a constraint or table gone
 * since (dropped in the transaction) is void, as PostgreSQL drops its trigger events.
 */
export function runDeferredChecks(graph: ForeignKeyGraph | null, catalog: Catalog, env: Env, ctx: ExecContext, checks: readonly DeferredCheck[]): void {
  const found: Violations = { first: null };
  for (const c of checks) {
    if (graph === null) return;
    if (c.k === 'reference') {
      const child = catalog.get(c.table);
      const link = child === undefined ? undefined : graph.outgoing(child.id).find((l) => l.fk.name === c.fk);
      if (link === undefined) continue;
      const r = pointGet(ctx, link.child, c.key);
      if (r === null) continue;
      const state = keyState(link.fk, r.row);
      if (state !== 'skip') checkReference(env, ctx, link, r.row, state, found);
    } else {
      const parent = catalog.get(c.table);
      const link = parent === undefined ? undefined : graph.incoming(parent.id).find((l) => l.fk.name === c.fk && l.child.name === c.child);
      if (link !== undefined) noActionCheck(env, ctx, link, c.values, found);
    }
  }
  if (found.first !== null) throw found.first;
}

/** Whether `row` is still the table's row at its key (a later action in the statement may have changed or deleted it). */
function stillStored(ctx: ExecContext, table: TableDef, row: Row): boolean {
  if (table.hiddenPk) return true;
  const r = ctx.source.get(table, primaryKeyOf(table, row));
  return r !== null && r.own && (r.row === row || table.columns.every((c, i) => c.dropped === true || sameValues(table, [i], r.row, row)));
}

/** The rows of the referencing table whose key columns hold `key` (the referenced columns' values). */
function referencingRows(env: Env, ctx: ExecContext, link: ForeignKeyLink, key: readonly SqlValue[]): readonly ScannedRow[] {
  const { fk, child, parent } = link;
  const values = castKey(key, fk.refColumns.map((c) => parent.columns[c]!.type), fk.columns.map((c) => child.columns[c]!.type));
  return values === null ? [] : matchingRows(env, ctx, child, fk.columns, values, false);
}

/**
 * The rows of `table` whose columns `cols` equal `values` (of those columns' types), read through the
 * context's source and recorded: a point read when `cols` are the primary key, else a scan of an index
 * over exactly those columns, or of the whole table, with the equality predicate.
 */
function matchingRows(env: Env, ctx: ExecContext, table: TableDef, cols: readonly number[], values: readonly SqlValue[], first: boolean): readonly ScannedRow[] {
  const probe: SqlValue[] = new Array<SqlValue>(table.columns.length).fill(null);
  cols.forEach((c, j) => (probe[c] = values[j] ?? null));
  if (!table.hiddenPk && sameSet(cols, table.pk)) {
    const r = pointGet(ctx, table, primaryKeyOf(table, probe));
    return r === null ? [] : [r];
  }
  const index: IndexDef | null = table.indexes.find((i) => isPlainIndex(i) && sameSet(i.columns, cols)) ?? null;
  const predicate = andOf(cols.map((c) => {
    const t = table.columns[c]!.type;
    return { k: 'cmp', op: '=', ct: t, t: 'bool', l: { k: 'col', i: c, t }, r: { k: 'const', v: probe[c] ?? null, t } } satisfies Expr;
  }));
  const lo = index === null ? '' : indexEntryPrefix(index, probe)!; // a plain index: every row has an entry
  const hi = index === null ? null : prefixEnd(lo);
  ctx.recorder?.predicates.push({ tableId: table.id, indexId: index?.id ?? null, lo, hi, predicate });
  const out: ScannedRow[] = [];
  for (const r of ctx.source.scan({ table, index, lo, hi, predicate, mode: 'read', reverse: false })) {
    if (predicate !== null && evalExpr(predicate, r.row, env) !== true) continue;
    if (ctx.recorder !== null && !r.own) ctx.recorder.reads.push({ tableId: table.id, key: r.key, version: r.version });
    out.push(r);
    if (first) break;
  }
  return out;
}
