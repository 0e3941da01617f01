// Executes DML plans against the context's row source, writing full new rows to the context's write sink.
// Constraint checks follow PostgreSQL: NOT NULL (23502), column length and numeric precision (22001,
// 22003), primary-key and unique-index uniqueness (23505) checked by reading through the source, so the
// read set records the probed keys (an INSERT's absent key is recorded as version null, which is what
// makes concurrent inserts of one key conflict, PROTOCOL §3). `computeUpdatedRow` is the pure
// old-row -> new-row function a client applies to its reconnaissance-read rows.

import type { DeletePlan, DmlPlan, InsertPlan, MergePlan, UpdatePlan } from './plan.ts';
import type { TableDef } from './catalog.ts';
import { andOf, type Expr } from './expr.ts';
import { evalExpr, type Env } from './eval.ts';
import { runPlan } from './executor.ts';
import { applyTypmod } from './typmod.ts';
import { encodeKey, prefixEnd } from './key-encoding.ts';
import { primaryKeyOf } from './memory-store.ts';
import { indexColumnsRead, indexKeyList, indexKeyValues, isPlainIndex } from './index-keys.ts';
import { SqlError, SqlState, InvariantError } from './errors.ts';
import { formatText } from './value-text.ts';
import { pointGet, type ExecContext } from './exec-context.ts';
import type { Row, SqlType, SqlValue } from './types.ts';
import type { ScannedRow } from './row-source.ts';
import { computeGenerated, hasGenerated } from './generated-columns.ts';
import { enforceForeignKeys, type RowChange, type RowWriter } from './foreign-key-checks.ts';

export interface DmlOutcome {
  readonly count: number;
  readonly returned: Row[];
}

function context(env: Env): ExecContext & { writes: NonNullable<ExecContext['writes']> } {
  const ctx = env.ctx;
  if (ctx === null || ctx.writes === null) throw new InvariantError('DML without a write sink');
  return ctx as ExecContext & { writes: NonNullable<ExecContext['writes']> };
}

function rowText(table: TableDef, row: Row): string {
  return table.columns.filter((c) => !c.hidden).map((c) => {
    const v = row[table.columns.indexOf(c)] ?? null;
    return v === null ? 'null' : formatText(v, c.type);
  }).join(', ');
}

/**
 * Computes the row's stored generated columns, then applies column typmods, NOT NULL and CHECK
 * constraints (NULL passes, as in PostgreSQL); returns the row to store.
 */
export function checkRow(table: TableDef, row: Row, env: Env): Row {
  if (hasGenerated(table)) {
    // As PostgreSQL: the values given take their typmods first, and generation expressions read them so.
    for (let i = 0; i < table.columns.length; i++) {
      const c = table.columns[i]!;
      const v = row[i] ?? null;
      if (v !== null && c.typmod >= 0 && c.generated === undefined) row[i] = applyTypmod(v, c.type, c.typmod, false);
    }
    computeGenerated(table, row, env);
  }
  for (let i = 0; i < table.columns.length; i++) {
    const c = table.columns[i];
    if (c === undefined) continue;
    const v = row[i] ?? null;
    if (v === null) {
      if (c.notNull) {
        throw new SqlError(SqlState.notNullViolation,
          `null value in column "${c.name}" of relation "${table.name}" violates not-null constraint`,
          `Failing row contains (${rowText(table, row)}).`);
      }
      continue;
    }
    if (c.typmod >= 0) row[i] = applyTypmod(v, c.type, c.typmod, false);
  }
  // An expression index's keys are computed as the row is written (an error in one fails the statement, as in PostgreSQL).
  for (const idx of table.indexes) if (!isPlainIndex(idx)) indexKeyValues(idx, row);
  if (table.checks !== undefined) {
    for (const k of table.checks) {
      if (evalExpr(k.expr, row, env) === false) {
        throw new SqlError(SqlState.checkViolation, `new row for relation "${table.name}" violates check constraint "${k.name}"`,
          `Failing row contains (${rowText(table, row)}).`);
      }
    }
  }
  return row;
}

/** The new row of an UPDATE: every assignment is evaluated over the source row (the old row, or with FROM the joined row). */
export function computeUpdatedRow(set: UpdatePlan['set'], old: Row, env: Env, source: Row = old): Row {
  const nw = old.slice();
  for (const a of set) nw[a.col] = evalExpr(a.e, source, env);
  return nw;
}

/**
 * The target rows of an UPDATE or DELETE with their source rows. With a FROM list a target row the join
 * yields again is skipped: it is written once, with its first source row (lower-dml-from.ts).
 */
function targetRows(p: UpdatePlan | DeletePlan, sources: readonly Row[]): { old: Row; key: string; source: Row }[] {
  const from = p.from;
  if (from === null) return sources.map((old) => ({ old, key: primaryKeyOf(p.table, old), source: old }));
  const out: { old: Row; key: string; source: Row }[] = [];
  const seen = new Set<string>();
  for (const source of sources) {
    const old = source.slice(from.targetAt, from.targetAt + p.table.columns.length);
    const key = primaryKeyOf(p.table, old);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ old, key, source });
  }
  return out;
}

function pkConstraint(table: TableDef): string {
  return `${table.name}_pkey`;
}

function keyDetail(names: string, vals: readonly SqlValue[], types: readonly SqlType[]): string {
  const text = vals.map((v, j) => (v === null ? 'null' : formatText(v, types[j] ?? 'text'))).join(', ');
  return `Key (${names})=(${text}) already exists.`;
}

interface Conflict {
  readonly existing: ScannedRow;
  /** The primary key's or unique index's name (an ON CONFLICT arbiter's). */
  readonly constraint: string;
  /** The 23505's DETAIL. */
  readonly detail: string;
}

/** Whether an UPDATE from `old` to `row` changes what a unique index of `table` reads (its key or predicate). */
function uniqueKeyChanged(table: TableDef, old: Row, row: Row): boolean {
  return table.indexes.some((i) => i.unique && [...indexColumnsRead(i)].some((c) => old[c] !== row[c]));
}

/**
 * Finds a row other than `selfKey` that `row` would duplicate on the primary key or a unique index
 * (`only`: on those of these names, ON CONFLICT's arbiters, which are checked first as PostgreSQL's
 * speculative insertion does).
 */
function findConflict(ctx: ExecContext, table: TableDef, row: Row, key: string, selfKey: string | null, checkPk: boolean, only: readonly string[] | null = null): Conflict | null {
  if (checkPk && key !== selfKey && (only === null || only.includes(pkConstraint(table)))) {
    const existing = pointGet(ctx, table, key);
    if (existing !== null) {
      const vals = table.pk.map((c) => row[c] ?? null);
      return { existing, constraint: pkConstraint(table), detail: keyDetail(table.pk.map((c) => table.columns[c]?.name ?? '?').join(', '), vals, table.pkTypes) };
    }
  }
  for (const idx of table.indexes) {
    if (!idx.unique || (only !== null && !only.includes(idx.name))) continue;
    const vals = indexKeyValues(idx, row);
    if (vals === null || vals.includes(null)) continue; // not in a partial index, or a NULL key: no conflict
    const prefix = encodeKey(vals, idx.types);
    // The rows with this key (a key expression's value, not its columns'), within a partial index's predicate.
    const predicate = andOf([...idx.columns.map((c, j) => ({
      k: 'cmp', op: '=', ct: idx.types[j] ?? 'text', t: 'bool',
      l: idx.exprs?.[j]?.expr ?? { k: 'col', i: c, t: idx.types[j] ?? 'text' }, r: { k: 'const', v: vals[j] ?? null, t: idx.types[j] ?? 'text' },
    }) satisfies Expr), ...(idx.predicate === undefined ? [] : [idx.predicate.expr])]);
    // The probe is a predicate read: a concurrent insert of the same unique value must conflict with it.
    ctx.recorder?.predicates.push({ tableId: table.id, indexId: idx.id, lo: prefix, hi: prefixEnd(prefix), predicate });
    // The source gets the predicate too: a client that fetches the probe from replicas asks for it.
    for (const r of ctx.source.scan({ table, index: idx, lo: prefix, hi: prefixEnd(prefix), predicate, mode: 'read', reverse: false })) {
      if (ctx.recorder !== null && !r.own) ctx.recorder.reads.push({ tableId: table.id, key: r.key, version: r.version });
      // The row under the new row's own key conflicts on the primary key, checked above (unless only arbiters are asked for).
      if (r.key !== selfKey && (only !== null || r.key !== key)) {
        const names = isPlainIndex(idx) ? idx.columns.map((c) => table.columns[c]?.name ?? '?').join(', ') : indexKeyList(table, idx, true) ?? '?';
        return { existing: r, constraint: idx.name, detail: keyDetail(names, vals, idx.types) };
      }
    }
  }
  return null;
}

function uniqueError(c: Conflict): SqlError {
  return new SqlError(SqlState.uniqueViolation, `duplicate key value violates unique constraint "${c.constraint}"`, c.detail);
}

function returning(exprs: readonly Expr[] | null, row: Row, env: Env, out: Row[]): void {
  if (exprs !== null) out.push(exprs.map((e) => evalExpr(e, row, env)));
}

/**
 * The full new table row for one source row of an INSERT: provided columns, defaults (now() and serials
 * from the context), the hidden row id, column typmods and NOT NULL applied. Clients use it to build the
 * rows they buffer; `runInsert` then adds the uniqueness checks.
 */
export function buildInsertRow(p: Pick<InsertPlan, 'table' | 'columns'>, source: Row, env: Env): Row {
  const ctx = env.ctx;
  if (ctx === null) throw new InvariantError('INSERT without an execution context');
  const table = p.table;
  const row: SqlValue[] = new Array<SqlValue>(table.columns.length);
  for (let i = 0; i < table.columns.length; i++) {
    const c = table.columns[i];
    if (c === undefined) continue;
    if (c.dropped === true) row[i] = null;
    else if (c.hidden) row[i] = ctx.nextRowId();
    else if (!p.columns.includes(i)) row[i] = c.default === null ? null : evalExpr(c.default, [], env);
    else row[i] = null;
  }
  for (let j = 0; j < p.columns.length; j++) row[p.columns[j] as number] = source[j] ?? null;
  return checkRow(table, row, env);
}

/** The rows a statement changed, for its foreign key checks and actions (null: the catalog's foreign keys do not involve the table). */
function changeLog(p: DmlPlan): RowChange[] | null {
  return p.fks !== null && p.fks.touches(p.table.id) ? [] : null;
}

/** Writes the new version `nw` of row `old` (at `oldKey`): constraints, typmods, uniqueness; returns the row stored. */
function writeUpdated(ctx: ReturnType<typeof context>, table: TableDef, old: Row, oldKey: string, nw: Row, env: Env): Row {
  const row = checkRow(table, nw, env);
  const newKey = primaryKeyOf(table, row);
  if (newKey !== oldKey || uniqueKeyChanged(table, old, row)) {
    const c = findConflict(ctx, table, row, newKey, oldKey, newKey !== oldKey);
    if (c !== null) throw uniqueError(c);
  }
  if (newKey !== oldKey) ctx.writes.delete(table, oldKey);
  ctx.writes.put(table, newKey, row);
  return row;
}

/** Writes a new row: 23505 when it duplicates a key (its own primary key's row included). */
function writeInserted(ctx: ReturnType<typeof context>, table: TableDef, row: Row): void {
  const key = primaryKeyOf(table, row);
  const c = findConflict(ctx, table, row, key, null, true);
  if (c !== null) throw uniqueError(c);
  ctx.writes.put(table, key, row);
}

/** Foreign key actions write rows as an UPDATE or DELETE does: constraints, typmods, uniqueness. */
function actionWriter(ctx: ReturnType<typeof context>, env: Env): RowWriter {
  return {
    update: (table, old, nw) => writeUpdated(ctx, table, old, primaryKeyOf(table, old), nw, env),
    delete: (table, old) => ctx.writes.delete(table, primaryKeyOf(table, old)),
  };
}

/** At the end of the statement: its foreign key actions and checks (foreign-key-checks.ts). */
function finishStatement(p: DmlPlan, env: Env, changes: readonly RowChange[] | null): void {
  if (p.fks === null || changes === null || changes.length === 0) return;
  const ctx = context(env);
  enforceForeignKeys(p.fks, env, ctx, changes, actionWriter(ctx, env));
}

export function runInsert(p: InsertPlan, env: Env): DmlOutcome {
  const ctx = context(env);
  const table = p.table;
  const changes = changeLog(p);
  const src = runPlan(p.source, env);
  const out: Row[] = [];
  let count = 0;
  const written = new Set<string>();
  if (p.clear !== undefined) for (const old of runPlan(p.clear, env)) ctx.writes.delete(table, primaryKeyOf(table, old));
  for (const s of src) {
    const row = buildInsertRow(p, s, env);
    const key = primaryKeyOf(table, row);
    const oc = p.onConflict;
    const arbiters = oc?.target ?? null;
    const conflict = (arbiters === null ? null : findConflict(ctx, table, row, key, null, true, arbiters)) ?? findConflict(ctx, table, row, key, null, true);
    if (conflict !== null) {
      if (oc === null || (arbiters !== null && !arbiters.includes(conflict.constraint))) {
        throw uniqueError(conflict);
      }
      if (oc.k === 'nothing') continue;
      if (written.has(conflict.existing.key)) {
        throw new SqlError(SqlState.cardinalityViolation, 'ON CONFLICT DO UPDATE command cannot affect row a second time',
          'Ensure that no rows proposed for insertion within the same command have duplicate constrained values.');
      }
      const old = conflict.existing.row;
      const both = old.concat(row);
      if (oc.where !== null && evalExpr(oc.where, both, env) !== true) continue;
      const nw = old.slice();
      for (const a of oc.set) nw[a.col] = evalExpr(a.e, both, env);
      checkRow(table, nw, env);
      const oldKey = conflict.existing.key;
      const newKey = primaryKeyOf(table, nw);
      const c2 = findConflict(ctx, table, nw, newKey, oldKey, newKey !== oldKey);
      if (c2 !== null) throw uniqueError(c2);
      if (newKey !== oldKey) ctx.writes.delete(table, oldKey);
      ctx.writes.put(table, newKey, nw);
      changes?.push({ table, old, new: nw });
      written.add(newKey);
      returning(p.returning, nw, env, out);
      count++;
      continue;
    }
    ctx.writes.put(table, key, row);
    changes?.push({ table, old: null, new: row });
    written.add(key);
    returning(p.returning, row, env, out);
    count++;
  }
  finishStatement(p, env, changes);
  return { count, returned: out };
}

export function runUpdate(p: UpdatePlan, env: Env): DmlOutcome {
  const ctx = context(env);
  const table = p.table;
  const olds = targetRows(p, runPlan(p.source, env));
  const out: Row[] = [];
  // Generated columns change with the columns they read: count them as set.
  const setCols = [...p.set.map((a) => a.col), ...table.columns.flatMap((c, i) => (c.generated !== undefined ? [i] : []))];
  const pkTouched = setCols.some((c) => table.pk.includes(c));
  const uniqueTouched = table.indexes.some((i) => {
    if (!i.unique) return false;
    const read = indexColumnsRead(i);
    return setCols.some((c) => read.has(c));
  });
  const changes = changeLog(p);
  const at = p.from?.targetAt ?? 0;
  for (const { old, key: oldKey, source } of olds) {
    const nw = checkRow(table, computeUpdatedRow(p.set, old, env, source), env);
    const newKey = pkTouched ? primaryKeyOf(table, nw) : oldKey;
    if (pkTouched || uniqueTouched) {
      const c = findConflict(ctx, table, nw, newKey, oldKey, newKey !== oldKey);
      if (c !== null) throw uniqueError(c);
    }
    if (newKey !== oldKey) ctx.writes.delete(table, oldKey);
    ctx.writes.put(table, newKey, nw);
    changes?.push({ table, old, new: nw });
    // RETURNING reads the new target row beside the FROM items' columns.
    returning(p.returning, p.from === null ? nw : [...source.slice(0, at), ...nw, ...source.slice(at + nw.length)], env, out);
  }
  finishStatement(p, env, changes);
  return { count: olds.length, returned: out };
}

export function runDelete(p: DeletePlan, env: Env): DmlOutcome {
  const ctx = context(env);
  const olds = targetRows(p, runPlan(p.source, env));
  const out: Row[] = [];
  const changes = changeLog(p);
  for (const { old, key, source } of olds) {
    ctx.writes.delete(p.table, key);
    changes?.push({ table: p.table, old, new: null });
    returning(p.returning, source, env, out);
  }
  finishStatement(p, env, changes);
  return { count: olds.length, returned: out };
}

/**
 * MERGE (lower-merge.ts): each row of the source join runs the first action of its kind (WHEN MATCHED
 * when the target part holds a row, its primary key not NULL; else WHEN NOT MATCHED) whose condition
 * holds. A target row that an UPDATE or DELETE of this statement already wrote is 21000 when another
 * source row's action would write it again (PostgreSQL's check; DO NOTHING and no action are not
 * writes). The count is the rows inserted, updated and deleted.
 */
export function runMerge(p: MergePlan, env: Env): DmlOutcome {
  const ctx = context(env);
  const table = p.table;
  const at = p.from.targetAt;
  const matchedAt = at + (table.pk[0] ?? 0);
  const changes = changeLog(p);
  const written = new Set<string>();
  let count = 0;
  for (const source of runPlan(p.source, env)) {
    const matched = source[matchedAt] !== null;
    const a = p.actions.find((x) => x.matched === matched && (x.when === null || evalExpr(x.when, source, env) === true));
    if (a === undefined || a.k === 'nothing') continue;
    count++;
    if (a.k === 'insert') {
      const row = buildInsertRow(a, a.values.map((e) => evalExpr(e, source, env)), env);
      writeInserted(ctx, table, row);
      changes?.push({ table, old: null, new: row });
      continue;
    }
    const old = source.slice(at, at + table.columns.length);
    const key = primaryKeyOf(table, old);
    if (written.has(key)) {
      throw new SqlError(SqlState.cardinalityViolation, 'MERGE command cannot affect row a second time', undefined, undefined,
        'Ensure that not more than one source row matches any one target row.');
    }
    written.add(key);
    if (a.k === 'delete') {
      ctx.writes.delete(table, key);
      changes?.push({ table, old, new: null });
    } else {
      const row = writeUpdated(ctx, table, old, key, computeUpdatedRow(a.set, old, env, source), env);
      changes?.push({ table, old, new: row });
    }
  }
  finishStatement(p, env, changes);
  return { count, returned: [] };
}

export function runDml(p: DmlPlan, env: Env): DmlOutcome {
  switch (p.k) {
    case 'insert':
      return runInsert(p, env);
    case 'update':
      return runUpdate(p, env);
    case 'delete':
      return runDelete(p, env);
    case 'merge':
      return runMerge(p, env);
  }
}

