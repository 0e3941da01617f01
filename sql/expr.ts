// The structured expression tree shared by the planner, the executor and the replication layer. A scan's
// filter is an `Expr` whose parameters and outer references have been replaced by constants
// (`bindExpr`), so a replica can store it as a predicate and later evaluate it against any row of the
// same table with `evalPredicate` (eval.ts). `exprToJson`/`exprFromJson` give it a stable serialised form
// (constants travel as PostgreSQL text, which round-trips every supported type exactly).
//
// Column references (`col`) index into the row the expression is evaluated on: for a scan predicate
// that is the table row in catalog column order. `outer` references a row of an enclosing context
// (a correlated subquery's parent, or the left side of an index-lookup join) by absolute nesting level.

import type { Plan } from './plan.ts';
import type { SqlType, SqlValue } from './types.ts';
import { SqlEnum, parseEnum, type EnumTypeDef } from './enum-types.ts';
import { formatText, parseText } from './value-text.ts';
import { InvariantError } from './errors.ts';

export type ArithOp = '+' | '-' | '*' | '/' | '%' | '||';
export type CmpOp = '=' | '<>' | '<' | '<=' | '>' | '>=';

export type Expr =
  /** `typmod`: an explicit cast's modifier folded into the constant (`1.5::numeric(4,1)`), which a result column reports. */
  | { readonly k: 'const'; readonly v: SqlValue; readonly t: SqlType; readonly typmod?: number }
  | { readonly k: 'param'; readonly i: number; readonly t: SqlType }
  | { readonly k: 'col'; readonly i: number; readonly t: SqlType }
  | { readonly k: 'outer'; readonly level: number; readonly i: number; readonly t: SqlType }
  | { readonly k: 'arith'; readonly op: ArithOp; readonly l: Expr; readonly r: Expr; readonly t: SqlType }
  | { readonly k: 'neg'; readonly e: Expr; readonly t: SqlType }
  /** Operands have been coerced to one comparison type `ct`. */
  | { readonly k: 'cmp'; readonly op: CmpOp; readonly l: Expr; readonly r: Expr; readonly ct: SqlType; readonly t: 'bool' }
  | { readonly k: 'and'; readonly args: readonly Expr[]; readonly t: 'bool' }
  | { readonly k: 'or'; readonly args: readonly Expr[]; readonly t: 'bool' }
  | { readonly k: 'not'; readonly e: Expr; readonly t: 'bool' }
  | { readonly k: 'isnull'; readonly e: Expr; readonly neg: boolean; readonly t: 'bool' }
  /** IS [NOT] TRUE / FALSE / UNKNOWN. */
  | { readonly k: 'booltest'; readonly e: Expr; readonly test: 'true' | 'false' | 'unknown'; readonly neg: boolean; readonly t: 'bool' }
  | { readonly k: 'distinct'; readonly l: Expr; readonly r: Expr; readonly neg: boolean; readonly ct: SqlType; readonly t: 'bool' }
  | { readonly k: 'in'; readonly e: Expr; readonly list: readonly Expr[]; readonly neg: boolean; readonly ct: SqlType; readonly t: 'bool' }
  /** `e op ANY (arr)` / `e op ALL (arr)` over an array value; `ct` is the element comparison type. */
  | { readonly k: 'anyarr'; readonly e: Expr; readonly arr: Expr; readonly op: CmpOp; readonly all: boolean; readonly ct: SqlType; readonly t: 'bool' }
  /** ARRAY[...]: the items, coerced to the element type of `t`. */
  | { readonly k: 'array'; readonly items: readonly Expr[]; readonly t: SqlType }
  | { readonly k: 'like'; readonly e: Expr; readonly pat: Expr; readonly neg: boolean; readonly ci: boolean; readonly t: 'bool' }
  | { readonly k: 'case'; readonly whens: readonly CaseWhen[]; readonly els: Expr | null; readonly t: SqlType }
  | { readonly k: 'func'; readonly fn: string; readonly args: readonly Expr[]; readonly t: SqlType }
  /** To an enum (`t` 'enum'): `enumType` is the enum (typmod its oid), whose labels the value is read against. */
  | { readonly k: 'cast'; readonly e: Expr; readonly t: SqlType; readonly typmod: number; readonly explicit: boolean; readonly enumType?: EnumTypeDef }
  /** An aggregate call of the current query level; only exists between binding and the grouping rewrite. */
  | { readonly k: 'aggref'; readonly i: number; readonly t: SqlType }
  /** A window function call of the current query level; only exists between binding and the window rewrite. */
  | { readonly k: 'winref'; readonly i: number; readonly t: SqlType }
  | SubqueryExpr;

export interface CaseWhen {
  readonly when: Expr;
  readonly then: Expr;
}

/** A subquery; never part of a scan predicate (it stays in a filter above the scan). */
export interface SubqueryExpr {
  readonly k: 'subquery';
  /** 'array': ARRAY(SELECT ...), the column's values as an array (t is its array type). */
  readonly mode: 'scalar' | 'exists' | 'in' | 'any' | 'all' | 'array';
  readonly plan: Plan;
  /** Left operand for IN / ANY / ALL. */
  readonly e: Expr | null;
  readonly op: CmpOp;
  readonly ct: SqlType;
  readonly t: SqlType;
  /** True when the subquery references enclosing rows (re-run per row, never cached). */
  readonly correlated: boolean;
  /** The nesting level at which the row being evaluated is published for the subquery's outer references. */
  readonly level: number;
  /**
   * Set when the subquery is evaluated over an aggregate's output (HAVING, grouped select list): the
   * published row is rebuilt in FROM-row layout from the group-key columns (`from` output -> `to` FROM position).
   */
  readonly publish?: { readonly width: number; readonly map: readonly { readonly from: number; readonly to: number }[] };
}

export const TRUE: Expr = { k: 'const', v: true, t: 'bool' };

export function constant(v: SqlValue, t: SqlType): Expr {
  return { k: 'const', v, t };
}

export function andOf(parts: readonly Expr[]): Expr | null {
  if (parts.length === 0) return null;
  if (parts.length === 1) return parts[0] ?? null;
  return { k: 'and', args: parts, t: 'bool' };
}

/** Splits a conjunction into its conjuncts. */
export function conjuncts(e: Expr | null): Expr[] {
  if (e === null) return [];
  if (e.k === 'and') return e.args.flatMap((a) => conjuncts(a));
  return [e];
}

/** Rebuilds an expression bottom-up; `f` may replace a node (return undefined to keep recursing). */
export function mapExpr(e: Expr, f: (e: Expr) => Expr | undefined): Expr {
  const r = f(e);
  if (r !== undefined) return r;
  const m = (x: Expr): Expr => mapExpr(x, f);
  switch (e.k) {
    case 'const':
    case 'param':
    case 'col':
    case 'outer':
    case 'aggref':
    case 'winref':
      return e;
    case 'arith':
      return { ...e, l: m(e.l), r: m(e.r) };
    case 'cmp':
      return { ...e, l: m(e.l), r: m(e.r) };
    case 'distinct':
      return { ...e, l: m(e.l), r: m(e.r) };
    case 'neg':
      return { ...e, e: m(e.e) };
    case 'not':
      return { ...e, e: m(e.e) };
    case 'isnull':
      return { ...e, e: m(e.e) };
    case 'booltest':
      return { ...e, e: m(e.e) };
    case 'cast':
      return { ...e, e: m(e.e) };
    case 'and':
      return { ...e, args: e.args.map(m) };
    case 'or':
      return { ...e, args: e.args.map(m) };
    case 'func':
      return { ...e, args: e.args.map(m) };
    case 'in':
      return { ...e, e: m(e.e), list: e.list.map(m) };
    case 'like':
      return { ...e, e: m(e.e), pat: m(e.pat) };
    case 'anyarr':
      return { ...e, e: m(e.e), arr: m(e.arr) };
    case 'array':
      return { ...e, items: e.items.map(m) };
    case 'case':
      return { ...e, whens: e.whens.map((w) => ({ when: m(w.when), then: m(w.then) })), els: e.els === null ? null : m(e.els) };
    case 'subquery':
      return { ...e, e: e.e === null ? null : m(e.e) };
  }
}

/** The first node, depth first, for which `p` holds (subquery plans are not entered). */
export function findExpr(e: Expr, p: (e: Expr) => boolean): Expr | undefined {
  let found: Expr | undefined;
  mapExpr(e, (x) => {
    if (found !== undefined) return x;
    if (p(x)) {
      found = x;
      return x;
    }
    return undefined;
  });
  return found;
}

/** Whether some node satisfies `p` (subquery plans are not entered). */
export function someExpr(e: Expr, p: (e: Expr) => boolean): boolean {
  return findExpr(e, p) !== undefined;
}

export function exprEquals(a: Expr, b: Expr): boolean {
  return JSON.stringify(a, jsonReplacer) === JSON.stringify(b, jsonReplacer);
}

function jsonReplacer(_k: string, v: unknown): unknown {
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'object' && v !== null && 'k' in v && (v as { k: unknown }).k === 'subquery') return '<subquery>';
  if (typeof v === 'object' && v !== null && !Array.isArray(v) && v.constructor !== Object) return String(v);
  return v;
}

/** A JSON-safe form of a bound predicate (no params, outer refs or subqueries). */
export type ExprJson = unknown;

/**
 * `typmods`: constants keep their type modifiers (`typmod`), which only a result column reports: a
 * catalog image keeps them (sql/catalog-image.ts), predicates leave them out.
 */
export function exprToJson(e: Expr, typmods = false): ExprJson {
  return mapJson(e, typmods);
}

function mapJson(e: Expr, typmods: boolean): unknown {
  if (e.k === 'subquery') throw new InvariantError('a subquery cannot be serialised as a predicate');
  const typmod = typmods && e.k === 'const' && e.typmod !== undefined ? { typmod: e.typmod } : {};
  // An enum constant travels with its type, so a replica reads it as the same label of the same enum.
  if (e.k === 'const' && e.v instanceof SqlEnum) return { k: 'const', v: e.v.label, t: e.t, enumType: e.v.type, ...typmod };
  if (e.k === 'const') return { k: 'const', v: e.v === null ? null : formatText(e.v, e.t), t: e.t, ...typmod };
  const out: Record<string, unknown> = {};
  for (const [key, val] of Object.entries(e)) {
    if (Array.isArray(val)) out[key] = val.map((x: unknown) => (isExpr(x) ? mapJson(x, typmods) : mapWhen(x, typmods)));
    else out[key] = isExpr(val) ? mapJson(val, typmods) : val;
  }
  return out;
}

function mapWhen(x: unknown, typmods: boolean): unknown {
  const w = x as CaseWhen;
  return { when: mapJson(w.when, typmods), then: mapJson(w.then, typmods) };
}

function isExpr(x: unknown): x is Expr {
  return typeof x === 'object' && x !== null && 'k' in x;
}

export function exprFromJson(j: ExprJson): Expr {
  return revive(j) as Expr;
}

function revive(j: unknown): unknown {
  if (Array.isArray(j)) return j.map(revive);
  if (typeof j !== 'object' || j === null) return j;
  const o = j as Record<string, unknown>;
  if (o['k'] === 'const') {
    const t = o['t'] as SqlType;
    const typmod = typeof o['typmod'] === 'number' ? { typmod: o['typmod'] } : {};
    if (o['enumType'] !== undefined) return { k: 'const', v: parseEnum(o['enumType'] as EnumTypeDef, o['v'] as string), t, ...typmod };
    return { k: 'const', v: o['v'] === null ? null : parseText(o['v'] as string, t), t, ...typmod };
  }
  const out: Record<string, unknown> = {};
  for (const [key, val] of Object.entries(o)) out[key] = revive(val);
  return out;
}
