// What an UPDATE or DELETE reads: its target, and for UPDATE ... FROM and DELETE ... USING the FROM
// list joined with it (PostgreSQL 15's rules). The FROM items bind first, in a scope where the target
// is named but cannot be referenced (a reference to it in an ON clause, a subquery or a LATERAL item is
// PostgreSQL's 42P01/42703/42P10, bind-context.ts); the target joins them last, so its name repeated in
// the list is 42712, and SET, WHERE and RETURNING see every relation. The join is planned like a
// SELECT's with the target last: a join condition on the target's key or an index looks each target
// row up (UPDATE t ... FROM small WHERE small.k = t.k reads the target rows it writes, not the whole
// table); when WHERE restricts the target by itself to a key range, the target comes first instead
// (`targetFirst`). On a cluster that join is the statement's reconnaissance read: replicas execute it, its scans
// of every table record their read sets and predicates, and SemanticCC validates them as any range
// read's, so a concurrent write into a FROM table's range conflicts with the statement.
//
// A target row the join yields with several FROM rows is written once (PostgreSQL: with "an
// unspecified one" of them). Here it is always the first the join yields, in the plan's deterministic
// order: the FROM items left to right, their rows in the order of the scans that read them (primary
// key or index order; a VALUES list as written); sql/dml.ts skips the later ones.

import type { Node, RangeVar } from 'libpg-query';
import { andOf, conjuncts, mapExpr, someExpr, type Expr } from './expr.ts';
import { Scope, type Rel } from './bind-context.ts';
import type { BindContext } from './bind-context.ts';
import type { DmlFrom, OutputColumn, Plan } from './plan.ts';
import type { TableDef } from './catalog.ts';
import { SqlError, SqlState } from './errors.ts';
import { bindExpr, strOf, toBool } from './lower-expr.ts';
import { bindFrom } from './lower-from.ts';
import { planFrom, type FromItem } from './plan-from.ts';
import { accessPlan } from './plan-access.ts';

/** The scope an UPDATE or DELETE binds in: FROM items first, the target last. */
export interface DmlScope {
  readonly scope: Scope;
  readonly target: Rel;
  readonly items: readonly FromItem[];
  /** ON conditions of inner joins in the FROM list (WHERE conjuncts). */
  readonly joinWhere: readonly Expr[];
}

export function dmlScope(ctx: BindContext, rv: RangeVar, table: TableDef, from: readonly Node[] | undefined): DmlScope {
  const alias = rv.alias?.aliasname ?? table.name;
  const scope = new Scope(ctx, null);
  const items: FromItem[] = [];
  const joinWhere: Expr[] = [];
  if (from !== undefined && from.length > 0) {
    const saved = ctx.hiddenTarget;
    ctx.hiddenTarget = { alias, table };
    try {
      const r = bindFrom(scope, from);
      items.push(...r.items);
      joinWhere.push(...r.where);
    } finally {
      ctx.hiddenTarget = saved;
    }
    if (scope.rels.some((r) => r.alias === alias)) throw new SqlError('42712', `table name "${alias}" specified more than once`);
  }
  const target = scope.addRel(alias, table.columns.map((c) => ({ name: c.name, type: c.type, typmod: c.typmod, hidden: c.hidden })), table);
  items.push({ rel: target, source: { k: 'table', table }, join: 'inner', on: [], lateral: null });
  return { scope, target, items, joinWhere };
}

/** The statement's source plan (its reconnaissance read) under WHERE, and how its rows hold the target row. */
export function dmlSource(d: DmlScope, where: Node | undefined): { source: Plan; from: DmlFrom | null } {
  const { scope, target } = d;
  const conj = [...d.joinWhere];
  if (where !== undefined) {
    scope.aggForbidden = 'WHERE';
    conj.push(...conjuncts(toBool(scope, bindExpr(scope, where), 'WHERE')));
    scope.aggForbidden = null;
  }
  const source = targetFirst(d, conj) ?? planFrom(scope, d.items, conj, 'update');
  if (d.items.length === 1) return { source, from: null };
  const columns: OutputColumn[] = scope.rels.flatMap((r) => r.columns.map((c) => ({ name: c.name, type: c.type, typmod: c.typmod })));
  return { source, from: { targetAt: target.offset, columns } };
}

/**
 * The source planned with the target joined first, when WHERE restricts the target by itself to a key
 * range (`WHERE t.id = $1 AND s.k = t.k` reads that target row and the FROM rows it joins, not the
 * whole FROM table); null otherwise, or when a FROM item is LATERAL (it reads the row before it) or
 * on the preserved side of a RIGHT or FULL join (the target may not be null-extended). The rows are
 * projected back to the scope's layout (FROM items, then the target) for SET, RETURNING and the
 * conjuncts with subqueries, which are checked on them last as planFrom would.
 */
function targetFirst(d: DmlScope, conj: readonly Expr[]): Plan | null {
  const { scope, target } = d;
  const table = target.table;
  const from = d.items.slice(0, -1);
  if (table === null || from.length === 0 || from.some((it) => it.lateral !== null || it.join === 'right' || it.join === 'full')) return null;
  const fromWidth = target.offset;
  const width = target.columns.length;
  const inTarget = (i: number): boolean => i >= fromWidth && i < fromWidth + width;
  const plain = conj.filter((c) => !someExpr(c, (x) => x.k === 'subquery' || x.k === 'outer'));
  const own = plain.filter((c) => !someExpr(c, (x) => x.k === 'col' && !inTarget(x.i)));
  const scan = accessPlan(table, own.map((c) => moveCols(c, (i) => i - fromWidth)), 'update');
  if (scan.eq.length === 0 && scan.lo === null && scan.hi === null) return null;
  // The plan's row: the target, then the FROM items.
  const toPlan = (i: number): number => (inTarget(i) ? i - fromWidth : i + width);
  const items: FromItem[] = [
    { rel: { ...target, offset: 0 }, source: { k: 'table', table }, join: 'inner', on: [], lateral: null },
    ...from.map((it) => ({ ...it, rel: { ...it.rel, offset: it.rel.offset + width }, on: it.on.map((c) => moveCols(c, toPlan)) })),
  ];
  const joined = planFrom(scope, items, plain.map((c) => moveCols(c, toPlan)), 'update');
  const types = scope.rels.flatMap((r) => r.columns.map((c) => c.type));
  const back: Plan = { k: 'project', input: joined, exprs: types.map((t, i) => ({ k: 'col', i: toPlan(i), t })) };
  const rest = andOf(conj.filter((c) => !plain.includes(c)));
  return rest === null ? back : { k: 'filter', input: back, pred: rest };
}

function moveCols(e: Expr, to: (i: number) => number): Expr {
  return mapExpr(e, (x) => (x.k === 'col' ? { ...x, i: to(x.i) } : undefined));
}

/**
 * RETURNING: `*` is the target's columns and then the FROM items' (as PostgreSQL lists them), `x.*`
 * one relation's; everything else binds over the source row.
 */
export function bindReturning(scope: Scope, target: Rel, list: readonly Node[] | undefined): { exprs: Expr[] | null; columns: OutputColumn[] } {
  if (list === undefined || list.length === 0) return { exprs: null, columns: [] };
  const exprs: Expr[] = [];
  const columns: OutputColumn[] = [];
  for (const n of list) {
    if (!('ResTarget' in n)) continue;
    const rt = n.ResTarget;
    const v = rt.val;
    const fields = v !== undefined && 'ColumnRef' in v ? v.ColumnRef.fields ?? [] : [];
    if (fields.some((f) => 'A_Star' in f)) {
      const relName = fields.length > 1 ? strOf(fields[fields.length - 2]) : null;
      const rels = relName !== null ? scope.rels.filter((r) => r.alias === relName) : [target, ...scope.rels.filter((r) => r !== target)];
      if (rels.length === 0) throw new SqlError(SqlState.undefinedTable, `missing FROM-clause entry for table "${relName ?? ''}"`);
      for (const rel of rels) {
        rel.columns.forEach((c, i) => {
          if (c.hidden || (relName === null && scope.usingHidden.has(rel.offset + i))) return;
          exprs.push({ k: 'col', i: rel.offset + i, t: c.type });
          columns.push({ name: c.name, type: c.type, typmod: c.typmod });
        });
      }
      continue;
    }
    const e = bindExpr(scope, v as Node);
    exprs.push(e);
    const name = rt.name ?? (fields.length > 0 ? strOf(fields[fields.length - 1]) : '?column?');
    columns.push({ name, type: e.t === 'unknown' ? 'text' : e.t, typmod: -1 });
  }
  return { exprs, columns };
}
