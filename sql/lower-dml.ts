// Lowers INSERT, UPDATE and DELETE into DML plans. INSERT's source is VALUES (each value coerced to its
// target column, DEFAULT allowed) or any query; missing columns take their defaults. UPDATE and DELETE
// read their target rows with a scan planned like a single-table SELECT (FOR UPDATE mode), joined with
// their FROM (USING) list when they have one (lower-dml-from.ts): that read is the reconnaissance read a
// client runs, and `set` computes each new row from its source row.

import type { Node, InsertStmt, UpdateStmt, DeleteStmt, ResTarget, RangeVar } from 'libpg-query';
import type { Expr } from './expr.ts';
import type { BindContext} from './bind-context.ts';
import { Scope } from './bind-context.ts';
import type { Assignment, DmlPlan, OnConflict, OutputColumn, Plan } from './plan.ts';
import type { ColumnDef, TableDef } from './catalog.ts';
import { columnIndex } from './catalog.ts';
import { SqlError, SqlState, locate } from './errors.ts';
import { bindExpr, toBool, unsupported } from './lower-expr.ts';
import { bindQuery, bindWith } from './lower-select.ts';
import { bindReturning, dmlScope, dmlSource } from './lower-dml-from.ts';
import { coerceAssign } from './coerce.ts';
import { bindSubscriptAssignment } from './lower-array.ts';
import { foreignKeyGraph } from './foreign-key-checks.ts';
import { constraintArbiter, inferArbiters } from './index-keys.ts';
import { multiAssignValue, type BoundSources } from './multi-assign.ts';

export interface DmlResult {
  readonly plan: DmlPlan;
  readonly columns: OutputColumn[];
}

function tableScope(ctx: BindContext, table: TableDef, alias: string): Scope {
  const scope = new Scope(ctx, null);
  scope.addRel(alias, table.columns.map((c) => ({ name: c.name, type: c.type, typmod: c.typmod, hidden: c.hidden })), table);
  return scope;
}

function returningNodes(s: { returningList?: Node[]; returningClause?: { exprs?: Node[] } }): Node[] | undefined {
  return s.returningClause?.exprs ?? s.returningList;
}

export function bindAssignments(scope: Scope, table: TableDef, targets: readonly Node[]): Assignment[] {
  const out: Assignment[] = [];
  const subscriptedCols = new Set<number>();
  const sources: BoundSources = new Map();
  for (const t of targets) {
    if (!('ResTarget' in t)) continue;
    const rt: ResTarget = t.ResTarget;
    const col = locate(rt.location, [SqlState.undefinedColumn], () => columnIndex(table, rt.name ?? ''));
    const c = table.columns[col];
    if (c === undefined) continue;
    // SET (a, b) = ROW(...) or (SELECT ...): this column's part of it (sql/multi-assign.ts).
    const multi = rt.val !== undefined && 'MultiAssignRef' in rt.val ? multiAssignValue(scope, rt.val.MultiAssignRef, sources) : null;
    const bound = multi?.k === 'expr' ? multi.e : null;
    const v = multi?.k === 'node' ? multi.v : rt.val as Node;
    const subscripted = rt.indirection !== undefined && rt.indirection.length > 0;
    const prior = out.findIndex((a) => a.col === col);
    // Several subscripted assignments to one column apply in order (SET a[1] = x, a[2] = y).
    if (prior >= 0 && !(subscripted && subscriptedCols.has(col))) throw new SqlError(SqlState.syntaxError, `multiple assignments to same column "${c.name}"`);
    if (bound !== null && subscripted) throw unsupported('a subscripted column in a multiple-column assignment from a sub-SELECT');
    if (c.generated !== undefined && (subscripted || bound !== null || !('SetToDefault' in v))) {
      throw new SqlError('428C9', `column "${c.name}" can only be updated to DEFAULT`, `Column "${c.name}" is a generated column.`);
    }
    let e: Expr;
    if (subscripted) {
      const base = prior >= 0 ? out[prior]!.e : bindExpr(scope, { ColumnRef: { fields: [{ String: { sval: c.name } }] } });
      e = bindSubscriptAssignment(scope, base, rt.indirection ?? [], v, c.name);
      subscriptedCols.add(col);
    } else if (bound === null && 'SetToDefault' in v) e = c.default ?? { k: 'const', v: null, t: c.type };
    else if (c.identity === 'a') {
      throw new SqlError('428C9', `column "${c.name}" can only be updated to DEFAULT`, `Column "${c.name}" is an identity column defined as GENERATED ALWAYS.`);
    } else e = coerceAssign(scope.ctx, bound ?? bindExpr(scope, v), c.type, c.name, c.typmod);
    if (prior >= 0) out[prior] = { col, e };
    else out.push({ col, e });
  }
  return out;
}

/**
 * What an INSERT stores in identity column `c` instead of the value given (PostgreSQL's rules): its
 * default under OVERRIDING USER VALUE; 428C9 for GENERATED ALWAYS without OVERRIDING SYSTEM VALUE;
 * undefined: the value given. A stored generated column takes no value at all (428C9; DEFAULT only).
 */
export function identityValue(override: InsertStmt['override'], c: ColumnDef): Expr | undefined {
  if (c.generated !== undefined) throw new SqlError('428C9', `cannot insert a non-DEFAULT value into column "${c.name}"`, `Column "${c.name}" is a generated column.`);
  if (c.identity === undefined || c.default === null) return undefined;
  if (override === 'OVERRIDING_USER_VALUE') return c.default;
  if (c.identity === 'a' && override !== 'OVERRIDING_SYSTEM_VALUE') {
    throw new SqlError('428C9', `cannot insert a non-DEFAULT value into column "${c.name}"`, `Column "${c.name}" is an identity column defined as GENERATED ALWAYS.`,
      undefined, 'Use OVERRIDING SYSTEM VALUE to override.');
  }
  return undefined;
}

/** The table an INSERT, UPDATE or DELETE writes: 42P01 when none, 42809 for a sequence (PostgreSQL's words). */
function dmlTarget(ctx: BindContext, rv: RangeVar): TableDef {
  const name = rv.relname ?? '';
  if (ctx.catalog.sequence(name) !== undefined) throw new SqlError('42809', `cannot change sequence "${name}"`);
  return locate(rv.location, [SqlState.undefinedTable], () => ctx.catalog.require(name));
}

export function lowerInsert(ctx: BindContext, s: InsertStmt): DmlResult {
  if (s.withClause !== undefined) {
    const { withClause, ...rest } = s;
    return bindWith(ctx, withClause, null, () => lowerInsert(ctx, rest)).value;
  }
  const rv = s.relation ?? {};
  const table = dmlTarget(ctx, rv);
  const alias = rv.alias?.aliasname ?? table.name;
  const explicitCols = s.cols !== undefined && s.cols.length > 0;
  if ((s.cols ?? []).some((c) => 'ResTarget' in c && (c.ResTarget.indirection ?? []).length > 0)) throw unsupported('INSERT into a subscript or field of a column');
  let columns = explicitCols
    ? (s.cols ?? []).map((c) => ('ResTarget' in c ? locate(c.ResTarget.location, [SqlState.undefinedColumn], () => columnIndex(table, c.ResTarget.name ?? '')) : -1))
    : table.columns.map((c, i) => (c.hidden ? -1 : i)).filter((i) => i >= 0);
  if (!explicitCols && s.selectStmt !== undefined && 'SelectStmt' in s.selectStmt) {
    // Without a column list, fewer values than columns fill the leading columns (the rest take defaults).
    // A UNION (INTERSECT, EXCEPT) has the columns of its leftmost SELECT.
    let arm = s.selectStmt.SelectStmt;
    while (arm.op !== undefined && arm.op !== 'SETOP_NONE' && arm.larg !== undefined) arm = arm.larg;
    const first = arm.valuesLists?.[0];
    const n = first !== undefined && 'List' in first ? (first.List.items ?? []).length : (arm.targetList ?? []).length;
    if (n < columns.length && !(arm.targetList ?? []).some((t) => 'ResTarget' in t && t.ResTarget.val !== undefined && 'ColumnRef' in t.ResTarget.val && (t.ResTarget.val.ColumnRef.fields ?? []).some((f) => 'A_Star' in f))) {
      columns = columns.slice(0, n);
    }
  }
  if (new Set(columns).size !== columns.length) throw new SqlError(SqlState.duplicateColumn, `column "${table.columns[columns.find((c, i) => columns.indexOf(c) !== i) ?? 0]?.name ?? ''}" specified more than once`);
  let source: Plan;
  const sel = s.selectStmt;
  const valueScope = new Scope(ctx, null);
  if (sel === undefined) {
    // INSERT ... DEFAULT VALUES: every column takes its default.
    return finishInsert(ctx, s, table, alias, [], { k: 'values', rows: [[]] });
  } else if ('SelectStmt' in sel && sel.SelectStmt.valuesLists !== undefined && sel.SelectStmt.op === 'SETOP_NONE' && sel.SelectStmt.sortClause === undefined && sel.SelectStmt.limitCount === undefined) {
    const rows = sel.SelectStmt.valuesLists.map((l) => {
      const items = 'List' in l ? (l.List.items ?? []) : [];
      if (items.length > columns.length) throw new SqlError(SqlState.syntaxError, 'INSERT has more expressions than target columns');
      if (items.length < columns.length) throw new SqlError(SqlState.syntaxError, 'INSERT has more target columns than expressions');
      return items.map((n, i) => {
        const c = table.columns[columns[i] as number];
        if (c === undefined) throw new SqlError(SqlState.undefinedColumn, 'bad column');
        if ('SetToDefault' in n) return c.default ?? ({ k: 'const', v: null, t: c.type } as Expr);
        return identityValue(s.override, c) ?? coerceAssign(ctx, bindExpr(valueScope, n), c.type, c.name, c.typmod);
      });
    });
    source = { k: 'values', rows };
  } else {
    const q = bindQuery(ctx, sel, null);
    if (q.columns.length > columns.length) throw new SqlError(SqlState.syntaxError, 'INSERT has more expressions than target columns');
    if (q.columns.length < columns.length) throw new SqlError(SqlState.syntaxError, 'INSERT has more target columns than expressions');
    source = {
      k: 'project', input: q.plan,
      exprs: q.columns.map((qc, i) => {
        const c = table.columns[columns[i] as number];
        if (c === undefined) throw new SqlError(SqlState.undefinedColumn, 'bad column');
        return identityValue(s.override, c) ?? coerceAssign(ctx, { k: 'col', i, t: qc.type }, c.type, c.name, c.typmod);
      }),
    };
  }
  return finishInsert(ctx, s, table, alias, columns, source);
}

function finishInsert(ctx: BindContext, s: InsertStmt, table: TableDef, alias: string, columns: number[], source: Plan): DmlResult {
  let onConflict: OnConflict | null = null;
  const oc = s.onConflictClause;
  if (oc !== undefined) {
    const elems = oc.infer?.indexElems;
    const target = oc.infer?.conname !== undefined ? constraintArbiter(table, oc.infer.conname)
      : elems === undefined ? null : inferArbiters(ctx.catalog, table, elems, oc.infer?.whereClause);
    if (oc.action === 'ONCONFLICT_NOTHING') onConflict = { k: 'nothing', target };
    else {
      if (target === null) throw new SqlError(SqlState.syntaxError, 'ON CONFLICT DO UPDATE requires inference specification or constraint name');
      const scope = tableScope(ctx, table, alias);
      scope.addRel('excluded', table.columns.map((c) => ({ name: c.name, type: c.type, typmod: c.typmod, hidden: c.hidden })), table);
      const set = bindAssignments(scope, table, oc.targetList ?? []);
      const where = oc.whereClause !== undefined ? toBool(scope, bindExpr(scope, oc.whereClause), 'WHERE') : null;
      onConflict = { k: 'update', target, set, where };
    }
  }
  const scope = tableScope(ctx, table, alias);
  const ret = bindReturning(scope, scope.rels[0]!, returningNodes(s));
  return { plan: { k: 'insert', table, fks: foreignKeyGraph(ctx.catalog), columns, source, onConflict, returning: ret.exprs }, columns: ret.columns };
}

export function lowerUpdate(ctx: BindContext, s: UpdateStmt): DmlResult {
  if (s.withClause !== undefined) {
    const { withClause, ...rest } = s;
    return bindWith(ctx, withClause, null, () => lowerUpdate(ctx, rest)).value;
  }
  const rv = s.relation ?? {};
  const table = dmlTarget(ctx, rv);
  const d = dmlScope(ctx, rv, table, s.fromClause);
  const set = bindAssignments(d.scope, table, s.targetList ?? []);
  const { source, from } = dmlSource(d, s.whereClause);
  const ret = bindReturning(d.scope, d.target, returningNodes(s));
  return { plan: { k: 'update', table, fks: foreignKeyGraph(ctx.catalog), source, set, returning: ret.exprs, from }, columns: ret.columns };
}

export function lowerDelete(ctx: BindContext, s: DeleteStmt): DmlResult {
  if (s.withClause !== undefined) {
    const { withClause, ...rest } = s;
    return bindWith(ctx, withClause, null, () => lowerDelete(ctx, rest)).value;
  }
  const rv = s.relation ?? {};
  const table = dmlTarget(ctx, rv);
  const d = dmlScope(ctx, rv, table, s.usingClause);
  const { source, from } = dmlSource(d, s.whereClause);
  const ret = bindReturning(d.scope, d.target, returningNodes(s));
  return { plan: { k: 'delete', table, fks: foreignKeyGraph(ctx.catalog), source, returning: ret.exprs, from }, columns: ret.columns };
}
