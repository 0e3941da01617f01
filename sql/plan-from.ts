// Plans the FROM clause: relations are joined left-deep in FROM order. Conjuncts of WHERE (and ON of
// inner joins) are pushed to the earliest relation that completes their references: single-relation
// conjuncts become that relation's scan predicate; conjuncts linking a relation to earlier ones make an
// index-lookup join when they pin a key prefix of its primary key or an index (the scan is re-run per
// left row with the left row as an outer row), else a hash join on the equalities, else a nested loop.
// LEFT JOIN only uses its ON conjuncts at the join; WHERE conjuncts over its right side stay above it.
// Conjuncts with subqueries are evaluated last, over the full FROM row. A LATERAL item is re-run per
// left row (a nested loop publishing the left row at its level).

import type { Expr } from './expr.ts';
import { andOf, mapExpr, someExpr } from './expr.ts';
import type { JoinKind, Plan } from './plan.ts';
import type { TableDef } from './catalog.ts';
import type { Rel, Scope } from './bind-context.ts';
import type { ScanMode } from './row-source.ts';
import { accessPlan, usesOuterKey } from './plan-access.ts';
import { InvariantError } from './errors.ts';

export interface FromItem {
  readonly rel: Rel;
  readonly source: { readonly k: 'table'; readonly table: TableDef } | { readonly k: 'plan'; readonly plan: Plan };
  readonly join: JoinKind;
  /** ON conjuncts of a LEFT JOIN (FROM-row positions). */
  readonly on: readonly Expr[];
  /**
   * A LATERAL item that reads earlier FROM items (lower-from.ts): the level its plan reads the left row
   * at; it is re-run per left row by a nested-loop join.
   */
  readonly lateral: number | null;
}

const ALL = -1;

/** Bit set of the relations an expression reads (ALL when it contains a subquery or aggregate). */
function relsOf(e: Expr, items: readonly FromItem[]): number {
  let mask = 0;
  let all = false;
  mapExpr(e, (x) => {
    if (x.k === 'subquery' || x.k === 'aggref') all = true;
    if (x.k === 'col') {
      const k = items.findIndex((it) => x.i >= it.rel.offset && x.i < it.rel.offset + it.rel.columns.length);
      if (k < 0) throw new InvariantError(`column ${x.i} outside the FROM row`);
      mask |= 1 << k;
    }
    return undefined;
  });
  return all ? ALL : mask;
}

/** Rewrites FROM-row columns of relation `rel` to its own row; earlier columns to outer refs (or fails). */
function localize(e: Expr, rel: Rel, level: number | null): Expr | null {
  let ok = true;
  const r = mapExpr(e, (x) => {
    if (x.k !== 'col') return undefined;
    if (x.i >= rel.offset && x.i < rel.offset + rel.columns.length) return { k: 'col', i: x.i - rel.offset, t: x.t };
    if (x.i < rel.offset && level !== null) return { k: 'outer', level, i: x.i, t: x.t };
    ok = false;
    return x;
  });
  return ok ? r : null;
}

function sourcePlan(item: FromItem, local: readonly Expr[], mode: ScanMode): Plan {
  if (item.source.k === 'table') return accessPlan(item.source.table, local, mode);
  const pred = andOf(local);
  return pred === null ? item.source.plan : { k: 'filter', input: item.source.plan, pred };
}

export function planFrom(scope: Scope, items: readonly FromItem[], where: readonly Expr[], mode: ScanMode): Plan {
  if (items.length > 30) throw new InvariantError('too many relations in FROM');
  // With a RIGHT or FULL join, WHERE conjuncts must see null-extended rows: all of them wait until the end.
  const outer = items.some((it) => it.join === 'right' || it.join === 'full');
  const pool = where.map((e) => ({ e, rels: outer ? ALL : relsOf(e, items), used: false }));
  let plan: Plan | null = null;
  for (let k = 0; k < items.length; k++) {
    const item = items[k] as FromItem;
    const bit = 1 << k;
    const upto = (1 << (k + 1)) - 1;
    let cands: Expr[];
    if (item.join !== 'inner' && k > 0) {
      cands = [...item.on];
    } else {
      cands = [];
      for (const p of pool) {
        if (p.used || p.rels === ALL || (p.rels & ~upto) !== 0) continue;
        if ((p.rels & bit) !== 0 || (k === 0 && p.rels === 0)) {
          cands.push(p.e);
          p.used = true;
        }
      }
    }
    const local: Expr[] = [];
    const cross: Expr[] = [];
    for (const c of cands) {
      const m = relsOf(c, items);
      if (m === ALL) cross.push(c);
      else if ((m & ~bit) === 0) local.push(localize(c, item.rel, null) as Expr);
      else cross.push(c);
    }
    if (plan === null) {
      plan = sourcePlan(item, local, mode);
      if (cross.length > 0) plan = { k: 'filter', input: plan, pred: andOf(cross) as Expr };
      continue;
    }
    const rightWidth = item.rel.columns.length;
    const leftWidth = item.rel.offset;
    if (item.lateral !== null) {
      // The left row is the FROM row up to this item: the lateral plan's outer references index it directly.
      plan = { k: 'nljoin', kind: item.join, left: plan, right: sourcePlan(item, local, mode), on: andOf(cross), rightWidth, leftWidth, level: item.lateral };
      continue;
    }
    // Index-lookup join?
    if (item.source.k === 'table' && cross.length > 0 && (item.join === 'inner' || item.join === 'left')) {
      const level = scope.ctx.allocLevel();
      const crossLocal = cross.filter((c) => !someExpr(c, (x) => x.k === 'subquery')).map((c) => localize(c, item.rel, level));
      if (crossLocal.every((c) => c !== null)) {
        const scan = accessPlan(item.source.table, [...local, ...(crossLocal as Expr[])], mode);
        if (usesOuterKey(scan)) {
          const rest = cross.filter((c) => someExpr(c, (x) => x.k === 'subquery'));
          plan = { k: 'nljoin', kind: item.join, left: plan, right: scan, on: andOf(rest), rightWidth, leftWidth, level };
          continue;
        }
      }
    }
    // Hash join on equalities between this relation and earlier ones.
    const leftKeys: Expr[] = [];
    const rightKeys: Expr[] = [];
    const keyTypes: Expr['t'][] = [];
    const residual: Expr[] = [];
    for (const c of cross) {
      if (c.k === 'cmp' && c.op === '=') {
        const lm = relsOf(c.l, items);
        const rm = relsOf(c.r, items);
        if (lm !== ALL && rm !== ALL) {
          if (lm !== 0 && (lm & bit) === 0 && rm === bit) {
            leftKeys.push(c.l);
            rightKeys.push(localize(c.r, item.rel, null) as Expr);
            keyTypes.push(c.ct);
            continue;
          }
          if (rm !== 0 && (rm & bit) === 0 && lm === bit) {
            leftKeys.push(c.r);
            rightKeys.push(localize(c.l, item.rel, null) as Expr);
            keyTypes.push(c.ct);
            continue;
          }
        }
      }
      residual.push(c);
    }
    const right = sourcePlan(item, local, mode);
    if (leftKeys.length > 0) {
      plan = { k: 'hashjoin', kind: item.join, left: plan, right, leftKeys, rightKeys, keyTypes, residual: andOf(residual), rightWidth, leftWidth };
    } else {
      plan = { k: 'nljoin', kind: item.join, left: plan, right, on: andOf(cross), rightWidth, leftWidth, level: null };
    }
  }
  if (plan === null) plan = { k: 'one' };
  const rest = pool.filter((p) => !p.used).map((p) => p.e);
  const pred = andOf(rest);
  return pred === null ? plan : { k: 'filter', input: plan, pred };
}
