// Lowers SELECT (and VALUES, UNION/INTERSECT/EXCEPT) into a plan. Order of operations, as in
// PostgreSQL: FROM and WHERE (plan-from.ts), GROUP BY / aggregates / HAVING, the select list, DISTINCT,
// ORDER BY (by output name, ordinal or expression; NULLS LAST for ASC by default), LIMIT/OFFSET. When a
// single-table query's ORDER BY follows the chosen key order, the sort is dropped and LIMIT is pushed into
// the scan, which then stops early (TPC-C's "ORDER BY o_id DESC LIMIT 1").

import { enumTypmod } from './lower-enum.ts';
import type { Node, SelectStmt, ResTarget, SortBy, WithClause } from 'libpg-query';
import type { Expr } from './expr.ts';
import { conjuncts, exprEquals, mapExpr } from './expr.ts';
import type { BindContext} from './bind-context.ts';
import { Scope } from './bind-context.ts';
import type { OutputColumn, Plan, ScanNode, SortKey } from './plan.ts';
import { SqlError, SqlState } from './errors.ts';
import { bindExpr, strOf, toBool, unsupported, nodeKind } from './lower-expr.ts';
import { bindFrom } from './lower-from.ts';
import { planFrom } from './plan-from.ts';
import { windowDefinitions, windowNode } from './lower-window.ts';
import { coerce, commonType, unifyAll } from './coerce.ts';
import { distinctOnExtraKeys, type TargetItem } from './lower-distinct-on.ts';
import { expandGroupBy, groupingPlan } from './lower-grouping.ts';
import { checkDirectArgs } from './lower-ordered-set.ts';
import type { ScanMode } from './row-source.ts';
import { typeDisplayName, type SqlType } from './types.ts';

export interface QueryResult {
  readonly plan: Plan;
  readonly columns: OutputColumn[];
  readonly correlated: boolean;
}

export function bindSubquery(scope: Scope, n: Node): QueryResult {
  return bindQuery(scope.ctx, n, scope);
}

export function bindQuery(ctx: BindContext, n: Node, parent: Scope | null): QueryResult {
  if (!('SelectStmt' in n)) throw unsupported(`${nodeKind(n)} as a subquery`);
  return bindSelect(ctx, n.SelectStmt, parent);
}

function nameOf(t: ResTarget): string {
  if (t.name !== undefined) return t.name;
  return deriveName(t.val);
}

function deriveName(v: Node | undefined): string {
  return figureName(v)[0];
}

/** PostgreSQL's FigureColname: a name and its strength (2 = a real name, 1 = a type or keyword fallback). */
function figureName(v: Node | undefined): [string, number] {
  if (v === undefined) return ['?column?', 0];
  if ('ColumnRef' in v) {
    const f = v.ColumnRef.fields ?? [];
    const n = strOf(f[f.length - 1]);
    return n === '' ? ['?column?', 0] : [n, 2];
  }
  if ('FuncCall' in v) {
    const f = v.FuncCall.funcname ?? [];
    const n = strOf(f[f.length - 1]);
    return n === '' ? ['?column?', 0] : [n, 2];
  }
  if ('TypeCast' in v) {
    const inner = figureName(v.TypeCast.arg);
    if (inner[1] > 1) return inner;
    const names = v.TypeCast.typeName?.names ?? [];
    return [strOf(names[names.length - 1]), 1];
  }
  // A subscript (`indkey[0]`) is named after what it subscripts.
  if ('A_Indirection' in v) return figureName(v.A_Indirection.arg);
  if ('CaseExpr' in v) return ['case', 1];
  if ('GroupingFunc' in v) return ['grouping', 2];
  if ('CoalesceExpr' in v) return ['coalesce', 2];
  if ('MinMaxExpr' in v) return [v.MinMaxExpr.op === 'IS_GREATEST' ? 'greatest' : 'least', 2];
  if ('A_Expr' in v && v.A_Expr.kind === 'AEXPR_NULLIF') return ['nullif', 2];
  if ('SQLValueFunction' in v) return [(v.SQLValueFunction.op ?? '').replace('SVFOP_', '').replace(/_N$/, '').toLowerCase(), 2];
  if ('SubLink' in v) {
    if (v.SubLink.subLinkType === 'EXISTS_SUBLINK') return ['exists', 2];
    if (v.SubLink.subLinkType === 'ARRAY_SUBLINK') return ['array', 2];
    if (v.SubLink.subLinkType === 'EXPR_SUBLINK') {
      const s = v.SubLink.subselect;
      if (s !== undefined && 'SelectStmt' in s) {
        const t = s.SelectStmt.targetList?.[0];
        if (t !== undefined && 'ResTarget' in t) {
          if (t.ResTarget.name !== undefined) return [t.ResTarget.name, 2];
          return figureName(t.ResTarget.val);
        }
      }
    }
  }
  return ['?column?', 0];
}

function lockMode(stmt: SelectStmt): ScanMode {
  const lc = stmt.lockingClause ?? [];
  for (const c of lc) {
    if ('LockingClause' in c) {
      const s = c.LockingClause.strength ?? '';
      return s === 'LCS_FORUPDATE' || s === 'LCS_FORNOKEYUPDATE' ? 'update' : 'share';
    }
  }
  return 'read';
}

function intConst(n: Node | undefined): number | null {
  if (n !== undefined && 'A_Const' in n && n.A_Const.ival !== undefined) return n.A_Const.ival.ival ?? 0;
  return null;
}

function limitExpr(scope: Scope, n: Node | undefined): Expr | null {
  if (n === undefined) return null;
  const e = bindExpr(scope, n);
  if (e.k === 'const' && e.v === null) return null;
  return coerce(scope.ctx, e, 'int8');
}

interface Output {
  e: Expr;
  name: string;
  typmod: number;
}

function bindValues(ctx: BindContext, stmt: SelectStmt, parent: Scope | null): QueryResult {
  const scope = new Scope(ctx, parent);
  const rows = (stmt.valuesLists ?? []).map((l) => ('List' in l ? (l.List.items ?? []) : []).map((x) => bindExpr(scope, x)));
  const width = rows[0]?.length ?? 0;
  if (rows.some((r) => r.length !== width)) throw new SqlError(SqlState.syntaxError, 'VALUES lists must all be the same length');
  const types: SqlType[] = [];
  const cols: Expr[][] = rows.map(() => []);
  for (let c = 0; c < width; c++) {
    const [typed, t] = unifyAll(ctx, rows.map((r) => r[c] as Expr), 'VALUES');
    types.push(t);
    typed.forEach((e, i) => cols[i]?.push(e));
  }
  let plan: Plan = { k: 'values', rows: cols };
  const columns = types.map((t, i) => ({ name: `column${i + 1}`, type: t, typmod: -1 }));
  plan = applySortLimit(scope, stmt, plan, columns);
  return { plan, columns, correlated: scope.correlated };
}

/** ORDER BY / LIMIT over a finished result (VALUES and set operations): output names and ordinals only. */
function applySortLimit(scope: Scope, stmt: SelectStmt, plan: Plan, columns: readonly OutputColumn[]): Plan {
  const keys: SortKey[] = [];
  for (const s of stmt.sortClause ?? []) {
    if (!('SortBy' in s)) continue;
    const sb = s.SortBy;
    const ord = intConst(sb.node);
    let col: number;
    if (ord !== null) col = ord - 1;
    else if (sb.node !== undefined && 'ColumnRef' in sb.node && (sb.node.ColumnRef.fields ?? []).length === 1) {
      const name = strOf(sb.node.ColumnRef.fields?.[0]);
      col = columns.findIndex((c) => c.name === name);
      if (col < 0) throw new SqlError(SqlState.undefinedColumn, `column "${name}" does not exist`);
    } else throw unsupported('ORDER BY expressions on a set operation');
    const c = columns[col];
    if (c === undefined) throw new SqlError(SqlState.invalidColumnReference, `ORDER BY position ${col + 1} is not in select list`);
    keys.push(sortKey(sb, col, c.type));
  }
  if (keys.length > 0) plan = { k: 'sort', input: plan, keys };
  const limit = limitExpr(scope, stmt.limitCount);
  const offset = limitExpr(scope, stmt.limitOffset);
  if (limit !== null || offset !== null) plan = { k: 'limit', input: plan, limit, offset };
  return plan;
}

/** json and void have neither equality nor ordering operators (PostgreSQL: 42883 at parse analysis, rows or not). */
export function requireOperators(t: SqlType, what: 'equality' | 'ordering'): void {
  if (t === 'json' || t === '_json' || t === 'void') {
    throw new SqlError(SqlState.undefinedFunction, `could not identify an ${what} operator for type ${typeDisplayName[t]}`);
  }
}

function sortKey(sb: SortBy, col: number, t: SqlType): SortKey {
  if (sb.useOp !== undefined) throw unsupported('ORDER BY ... USING');
  requireOperators(t, 'ordering');
  const desc = sb.sortby_dir === 'SORTBY_DESC';
  const nullsFirst = sb.sortby_nulls === 'SORTBY_NULLS_FIRST' ? true : sb.sortby_nulls === 'SORTBY_NULLS_LAST' ? false : desc;
  return { col, desc, nullsFirst, t };
}

function bindSetOp(ctx: BindContext, stmt: SelectStmt, parent: Scope | null): QueryResult {
  const l = bindSelect(ctx, stmt.larg as SelectStmt, parent, true);
  const r = bindSelect(ctx, stmt.rarg as SelectStmt, parent, true);
  const opName = stmt.op === 'SETOP_UNION' ? 'union' : stmt.op === 'SETOP_INTERSECT' ? 'intersect' : 'except';
  if (l.columns.length !== r.columns.length) {
    throw new SqlError(SqlState.syntaxError, `each ${opName.toUpperCase()} query must have the same number of columns`);
  }
  const types: SqlType[] = l.columns.map((c, i) => {
    const t = commonType(c.type, r.columns[i]?.type ?? 'unknown');
    if (t === null) {
      throw new SqlError(SqlState.datatypeMismatch, `${opName.toUpperCase()} types ${c.type} and ${r.columns[i]?.type ?? ''} cannot be matched`);
    }
    return t === 'unknown' ? 'text' : t;
  });
  // Only UNION ALL keeps rows without comparing them.
  if (opName !== 'union' || stmt.all !== true) for (const t of types) requireOperators(t, 'equality');
  const cast = (q: QueryResult): Plan => {
    if (q.columns.every((c, i) => c.type === types[i])) return q.plan;
    return { k: 'project', input: q.plan, exprs: q.columns.map((c, i) => coerce(ctx, { k: 'col', i, t: c.type }, types[i] as SqlType)) };
  };
  let plan: Plan = { k: 'setop', op: opName, all: stmt.all === true, left: cast(l), right: cast(r), types };
  const columns = l.columns.map((c, i) => ({ name: c.name, type: types[i] as SqlType, typmod: -1 }));
  const scope = new Scope(ctx, parent);
  plan = applySortLimit(scope, stmt, plan, columns);
  return { plan, columns, correlated: l.correlated || r.correlated || scope.correlated };
}

/**
 * Binds `body` with the common table expressions of a WITH clause visible (a SELECT's, an UPDATE's, a
 * DELETE's); `correlated`: a CTE reads an enclosing query's row, which makes the query correlated as
 * its references do.
 */
export function bindWith<T>(ctx: BindContext, w: WithClause, parent: Scope | null, body: () => T): { value: T; correlated: boolean } {
  const frame = new Map<string, { plan: Plan; columns: readonly OutputColumn[] }>();
  let cteCorrelated = false;
  ctx.ctes.push(frame);
  try {
    for (const c of w.ctes ?? []) {
      if (!('CommonTableExpr' in c)) continue;
      const cte = c.CommonTableExpr;
      const names = (cte.aliascolnames ?? []).map(strOf);
      const rename = (cols: readonly OutputColumn[]): OutputColumn[] => cols.map((col, i) => ({ ...col, name: names[i] ?? col.name }));
      const cq = cte.ctequery as Node;
      if (w.recursive && 'SelectStmt' in cq && cq.SelectStmt.op === 'SETOP_UNION' && cq.SelectStmt.larg !== undefined && cq.SelectStmt.rarg !== undefined) {
        const base = bindSelect(ctx, cq.SelectStmt.larg, parent);
        cteCorrelated ||= base.correlated;
        const columns = rename(base.columns.map((col) => (col.type === 'unknown' ? { ...col, type: 'text' as const } : col)));
        const slot = ctx.allocLevel();
        frame.set(cte.ctename ?? '', { plan: { k: 'worktable', slot }, columns });
        const step = bindSelect(ctx, cq.SelectStmt.rarg, parent);
        cteCorrelated ||= step.correlated;
        if (step.columns.length !== columns.length) {
          throw new SqlError(SqlState.syntaxError, 'each UNION query must have the same number of columns');
        }
        const types = columns.map((col) => col.type);
        const stepPlan: Plan = step.columns.every((col, i) => col.type === types[i]) ? step.plan : {
          k: 'project', input: step.plan, exprs: step.columns.map((col, i) => coerce(ctx, { k: 'col', i, t: col.type }, types[i] as SqlType)),
        };
        frame.set(cte.ctename ?? '', { plan: { k: 'recursive', base: base.plan, step: stepPlan, slot, all: cq.SelectStmt.all === true, types }, columns });
        continue;
      }
      if ('MergeStmt' in cq) throw new SqlError(SqlState.featureNotSupported, 'MERGE not supported in WITH query');
      const q = bindQuery(ctx, cq, parent);
      cteCorrelated ||= q.correlated;
      frame.set(cte.ctename ?? '', { plan: q.plan, columns: rename(q.columns) });
    }
    return { value: body(), correlated: cteCorrelated };
  } finally {
    ctx.ctes.pop();
  }
}

export function bindSelect(ctx: BindContext, stmt: SelectStmt, parent: Scope | null, keepUnknown = false): QueryResult {
  if (stmt.withClause !== undefined) {
    const { withClause, ...rest } = stmt;
    const { value: r, correlated } = bindWith(ctx, withClause, parent, () => bindSelect(ctx, rest, parent));
    return correlated ? { ...r, correlated: true } : r;
  }
  if (stmt.intoClause !== undefined) throw unsupported('SELECT INTO');
  if (stmt.op !== undefined && stmt.op !== 'SETOP_NONE') return bindSetOp(ctx, stmt, parent);
  if (stmt.valuesLists !== undefined) return bindValues(ctx, stmt, parent);
  const scope = new Scope(ctx, parent);
  scope.windowDefs = windowDefinitions(stmt);
  const from = bindFrom(scope, stmt.fromClause ?? []);
  let where = from.where;
  if (stmt.whereClause !== undefined) {
    scope.aggForbidden = 'WHERE';
    where = [...where, ...conjuncts(toBool(scope, bindExpr(scope, stmt.whereClause), 'WHERE'))];
    scope.aggForbidden = null;
  }
  const mode = lockMode(stmt);
  let plan = planFrom(scope, from.items, where, mode);

  // Select list; its set-returning functions become columns after the FROM row (lower-srf.ts).
  const outputs: Output[] = [];
  scope.srfs = [];
  scope.windows = [];
  for (const t of stmt.targetList ?? []) {
    if (!('ResTarget' in t)) continue;
    const rt = t.ResTarget;
    const v = rt.val;
    if (v !== undefined && 'ColumnRef' in v && (v.ColumnRef.fields ?? []).some((f) => 'A_Star' in f)) {
      const fields = v.ColumnRef.fields ?? [];
      const relName = fields.length > 1 ? strOf(fields[0]) : null;
      const rels = relName === null ? scope.rels : scope.rels.filter((r) => r.alias === relName);
      if (relName !== null && rels.length === 0) throw new SqlError(SqlState.undefinedTable, `missing FROM-clause entry for table "${relName}"`);
      if (relName === null && scope.rels.length === 0) throw new SqlError(SqlState.syntaxError, 'SELECT * with no tables specified is not valid');
      const expanded: (readonly [string, string])[] = [];
      for (const rel of rels) {
        rel.columns.forEach((c, i) => {
          if (c.hidden || (relName === null && scope.usingHidden.has(rel.offset + i))) return;
          outputs.push({ e: { k: 'col', i: rel.offset + i, t: c.type }, name: c.name, typmod: c.typmod });
          expanded.push([rel.alias, c.name]);
        });
      }
      ctx.starExpansions?.set(t, expanded);
      continue;
    }
    const e = bindExpr(scope, v as Node);
    outputs.push({ e, name: nameOf(rt), typmod: enumTypmod(scope, e, e.k === 'col' ? typmodAt(scope, e.i) : e.k === 'cast' ? e.typmod : e.k === 'const' ? e.typmod ?? -1 : -1) });
  }
  const srfs = scope.srfs;
  scope.srfs = null;
  if (srfs.length > 0) {
    if ((scope.aggs ?? []).length > 0 || (stmt.groupClause ?? []).length > 0 || stmt.havingClause !== undefined) {
      throw unsupported('set-returning functions in a select list with aggregates or GROUP BY');
    }
    plan = { k: 'projectset', input: plan, srfs };
  }
  // Unknown-typed outputs (string literals, untyped parameters) become text, as in PostgreSQL.
  if (!keepUnknown) for (const o of outputs) if (o.e.t === 'unknown') o.e = coerce(ctx, o.e, 'text');

  scope.windowBan = 'HAVING';
  const having = stmt.havingClause !== undefined ? toBool(scope, bindExpr(scope, stmt.havingClause), 'HAVING') : null;
  scope.windowBan = null;

  // ORDER BY and DISTINCT ON: output name, ordinal, or an expression (hidden column when not in the select list).
  const distinct = stmt.distinctClause !== undefined;
  const onNodes = (stmt.distinctClause ?? []).filter((d) => Object.keys(d).length > 0);
  const distinctOn = onNodes.map((d) => ({ ...resolveTargetItem(scope, outputs, d, 'DISTINCT ON'), location: (Object.values(d)[0] as { location?: number }).location }));
  const sortExprs: { e: Expr; sb: SortBy; col: number }[] = [];
  for (const s of stmt.sortClause ?? []) {
    if (!('SortBy' in s)) continue;
    const item = resolveTargetItem(scope, outputs, s.SortBy.node as Node, 'ORDER BY');
    if (item.col < 0 && distinct && distinctOn.length === 0) {
      throw new SqlError(SqlState.invalidColumnReference, 'for SELECT DISTINCT, ORDER BY expressions must appear in select list');
    }
    sortExprs.push({ ...item, sb: s.SortBy });
  }
  // DISTINCT ON sorts by ORDER BY, then by the DISTINCT ON expressions it does not name.
  for (const x of distinctOnExtraKeys(sortExprs, distinctOn)) sortExprs.push({ ...x, sb: {} });

  const windows = scope.windows;
  scope.windows = null;
  if (windows.length > 0 && srfs.length > 0) throw unsupported('set-returning functions in a select list with window functions');

  // GROUP BY (grouping sets: lower-grouping.ts).
  scope.aggForbidden = 'GROUP BY';
  const groupBy = expandGroupBy(stmt.groupClause ?? [], stmt.groupDistinct === true, (g) => groupItem(scope, outputs, g));
  const groups = groupBy.groups;
  scope.aggForbidden = null;
  for (const g of groups) requireOperators(g.t, 'equality');

  const aggs = scope.aggs ?? [];
  const grouped = groups.length > 0 || aggs.length > 0 || having !== null || groupBy.sets !== null;
  const hidden: Expr[] = [];
  let outExprs = outputs.map((o) => o.e);
  const post = grouped ? (e: Expr): Expr => toPostAgg(scope, e, groups) : (e: Expr): Expr => e;
  if (grouped) {
    plan = groupingPlan(plan, groupBy, aggs);
    if (having !== null) plan = { k: 'filter', input: plan, pred: post(having) };
    checkDirectArgs(aggs, post);
  }
  // Window functions run over the grouped rows (or the FROM rows) and append their values to them.
  let resolve = (e: Expr): Expr => e;
  if (windows.length > 0) {
    const w = windowNode(plan, grouped ? groups.length + aggs.length : scope.width, windows, post);
    plan = w.plan;
    resolve = w.resolve;
  }
  outExprs = outExprs.map((e) => resolve(post(e)));
  const colOf = (s: TargetItem): number => {
    if (s.col >= 0) return s.col;
    hidden.push(resolve(post(s.e)));
    return outExprs.length + hidden.length - 1;
  };
  const sortCols = sortExprs.map(colOf);
  const onCols = distinctOn.map(colOf);
  const keys = sortExprs.map((s, i) => sortKey(s.sb, sortCols[i] as number, s.e.t));
  const limit = limitExpr(scope, stmt.limitCount);
  const offset = limitExpr(scope, stmt.limitOffset);
  if (stmt.limitOption === 'LIMIT_OPTION_WITH_TIES') throw unsupported('FETCH ... WITH TIES');

  // A single-table scan already in ORDER BY order: no sort, and LIMIT stops the scan.
  let sorted = keys.length === 0;
  if (!grouped && !distinct && keys.length > 0 && plan.k === 'scan') {
    const scan = plan;
    const allExprs = [...outExprs, ...hidden];
    const dir = scanOrder(scan, keys.map((k) => ({ e: allExprs[k.col] as Expr, k })));
    if (dir !== null) {
      plan = { ...scan, reverse: dir === 'desc', limit: limit !== null && offset === null ? limit : null };
      sorted = true;
    }
  } else if (!grouped && !distinct && keys.length === 0 && plan.k === 'scan' && limit !== null && offset === null) {
    plan = { ...plan, limit };
  }
  plan = { k: 'project', input: plan, exprs: [...outExprs, ...hidden] };
  if (distinct && distinctOn.length === 0) {
    for (const e of outExprs) requireOperators(e.t, 'equality');
    plan = { k: 'distinct', input: plan, types: outExprs.map((e) => e.t) };
  }
  if (!sorted) plan = { k: 'sort', input: plan, keys };
  if (distinctOn.length > 0) {
    for (const d of distinctOn) requireOperators(d.e.t, 'equality');
    plan = { k: 'distinct', input: plan, types: distinctOn.map((d) => d.e.t), on: onCols };
  }
  if (limit !== null || offset !== null) plan = { k: 'limit', input: plan, limit, offset };
  if (hidden.length > 0) plan = { k: 'trim', input: plan, width: outExprs.length };
  const columns = outputs.map((o, i) => ({ name: o.name, type: (outExprs[i] as Expr).t, typmod: o.typmod }));
  return { plan, columns, correlated: scope.correlated };
}

/** A GROUP BY item: an ordinal, an output name that is not a FROM column, or an expression. */
function groupItem(scope: Scope, outputs: readonly Output[], g: Node): Expr {
  const ord = intConst(g);
  if (ord !== null) {
    const o = outputs[ord - 1];
    if (o === undefined) throw new SqlError(SqlState.invalidColumnReference, `GROUP BY position ${ord} is not in select list`);
    return o.e;
  }
  if ('ColumnRef' in g && (g.ColumnRef.fields ?? []).length === 1) {
    const name = strOf(g.ColumnRef.fields?.[0]);
    const inFrom = scope.rels.some((r) => r.columns.some((c) => c.name === name));
    const out = outputs.find((o) => o.name === name);
    if (!inFrom && out !== undefined) return out.e;
  }
  return bindExpr(scope, g);
}

/** A DISTINCT ON or ORDER BY item (PostgreSQL's findTargetlistEntrySQL92): output name, ordinal, or an expression. */
function resolveTargetItem(scope: Scope, outputs: readonly Output[], n: Node, clause: 'ORDER BY' | 'DISTINCT ON'): TargetItem {
  const ord = intConst(n);
  if (ord !== null) {
    const o = outputs[ord - 1];
    if (o === undefined) throw new SqlError(SqlState.invalidColumnReference, `${clause} position ${ord} is not in select list`);
    return { e: o.e, col: ord - 1 };
  }
  if ('ColumnRef' in n && (n.ColumnRef.fields ?? []).length === 1) {
    const name = strOf(n.ColumnRef.fields?.[0]);
    const hits = outputs.map((o, i) => ({ o, i })).filter((x) => x.o.name === name);
    if (hits.length > 1 && !hits.every((h) => exprEquals(h.o.e, (hits[0] as (typeof hits)[number]).o.e))) {
      throw new SqlError(SqlState.ambiguousColumn, `${clause} "${name}" is ambiguous`);
    }
    const h = hits[0];
    if (h !== undefined) return { e: h.o.e, col: h.i };
  }
  const e = bindExpr(scope, n);
  return { e, col: outputs.findIndex((o) => exprEquals(o.e, e)) };
}

function typmodAt(scope: Scope, i: number): number {
  for (const r of scope.rels) if (i >= r.offset && i < r.offset + r.columns.length) return r.columns[i - r.offset]?.typmod ?? -1;
  return -1;
}

function columnName(scope: Scope, i: number): string {
  for (const r of scope.rels) {
    if (i >= r.offset && i < r.offset + r.columns.length) return `${r.alias}.${r.columns[i - r.offset]?.name ?? '?'}`;
  }
  return '?';
}

/** Rewrites an expression over the FROM row into one over the aggregate's output (groups ++ aggregates). */
function toPostAgg(scope: Scope, e: Expr, groups: readonly Expr[]): Expr {
  return mapExpr(e, (x) => {
    const g = groups.findIndex((y) => exprEquals(x, y));
    if (g >= 0) return { k: 'col', i: g, t: x.t };
    if (x.k === 'aggref') return { k: 'col', i: groups.length + x.i, t: x.t };
    if (x.k === 'col') {
      throw new SqlError(SqlState.groupingError,
        `column "${columnName(scope, x.i)}" must appear in the GROUP BY clause or be used in an aggregate function`);
    }
    if (x.k === 'subquery' && x.correlated) {
      const map: { from: number; to: number }[] = [];
      groups.forEach((gr, i) => {
        if (gr.k === 'col') map.push({ from: i, to: gr.i });
      });
      const aggCount = scope.aggs?.length ?? 0;
      for (let a = 0; a < aggCount; a++) map.push({ from: groups.length + a, to: scope.width + a });
      return { ...x, e: x.e === null ? null : toPostAgg(scope, x.e, groups), publish: { width: scope.width + aggCount, map } };
    }
    return undefined;
  });
}

/** 'asc' / 'desc' when the sort keys follow the scan's key order after its equality prefix, else null. */
function scanOrder(scan: ScanNode, keys: readonly { e: Expr; k: SortKey }[]): 'asc' | 'desc' | null {
  const keyCols = scan.index === null ? scan.table.pk : scan.index.columns;
  let pos = scan.eq.length;
  const pinned = new Set(keyCols.slice(0, pos));
  let dir: 'asc' | 'desc' | null = null;
  for (const { e, k } of keys) {
    if (e.k !== 'col') return null;
    if (pinned.has(e.i)) continue;
    if (keyCols[pos] !== e.i) return null;
    const d = k.desc ? 'desc' : 'asc';
    if (k.nullsFirst !== k.desc) return null;
    if (dir !== null && dir !== d) return null;
    dir = d;
    pos++;
  }
  return dir ?? 'asc';
}
