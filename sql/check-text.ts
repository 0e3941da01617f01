// A CHECK constraint's expression as PostgreSQL 15's pg_get_constraintdef(oid, true) prints it (psql's
// `\d`): ruleutils.c's pretty deparse of the analyzed expression, built at CREATE/ALTER time from the raw
// parse tree and the types the binder gives its parts, so every replica derives the same text. The bound
// Expr cannot serve: it folds constant coercions ('-1000'::integer::numeric becomes one numeric).
// The tree is kept (`CheckSource`, column references as ordinals) and printed on demand, pretty or
// not, with the columns' current names, so RENAME COLUMN shows in the text as it does in PostgreSQL.
//
// Implicit casts print as ::type where PostgreSQL's operators and functions would cast: an integer
// against numeric, a number against double precision, character varying to text (PostgreSQL has no
// varchar operators), an unknown literal as a constant of the type it takes. Integers of different
// widths, floats of different widths and date/timestamp/timestamptz compare without casts
// (PostgreSQL's cross-type operators).
// Parentheses follow ruleutils' isSimpleNode. Covered: comparisons and arithmetic, AND/OR/NOT, IS [NOT]
// NULL, IS [NOT] TRUE/FALSE/UNKNOWN, [NOT] IN (constants: = ANY (ARRAY[...]); else an OR of =),
// [NOT] BETWEEN, [NOT] LIKE/ILIKE (~~), IS DISTINCT FROM, COALESCE, function calls, explicit casts.
// Prints differently from PostgreSQL: a function whose argument PostgreSQL would cast other than
// varchar to text or as the binder does (e.g. round(int)); % between integers of different widths;
// IS NOT DISTINCT FROM; arithmetic between date and timestamp types; a timestamptz constant, printed in
// UTC (PostgreSQL prints it in the session's TimeZone). Other forms (CASE, subscripts, ...) have
// no text: the constraint works, its definition shows as NULL.

import { scanSync, type Node, type A_Expr } from 'libpg-query';
import type { Scope } from './bind-context.ts';
import { SqlError } from './errors.ts';
import { bindExpr, strOf } from './lower-expr.ts';
import { commonType } from './coerce.ts';
import { castValue } from './cast.ts';
import { resolveTypeName } from './lower-type.ts';
import { formatText } from './value-text.ts';
import { arrayElementType, formatTypeSpec, isArrayType, typeDisplayName, type SqlType } from './types.ts';

/**
 * The analyzed expression as data (D below): the nodes ruleutils prints, column references as ordinals
 * into the table's columns. Opaque outside this module.
 */
export type CheckSource = object;

/** The analyzed expression's nodes that print differently (ruleutils' node kinds). */
type D =
  | { readonly k: 'var'; readonly i: number }
  | { readonly k: 'const'; readonly text: string }
  | { readonly k: 'op'; readonly op: string; readonly l: D | null; readonly r: D }
  | { readonly k: 'cast'; readonly e: D; readonly type: string }
  | { readonly k: 'func'; readonly name: string; readonly args: readonly D[] }
  | { readonly k: 'bool'; readonly op: 'AND' | 'OR' | 'NOT'; readonly args: readonly D[] }
  | { readonly k: 'test'; readonly e: D; readonly what: string }
  | { readonly k: 'distinct'; readonly l: D; readonly r: D }
  | { readonly k: 'saop'; readonly l: D; readonly op: string; readonly all: boolean; readonly arr: D }
  | { readonly k: 'array'; readonly items: readonly D[] };

/** An analyzed part: its node, its type, and for an untyped literal its text (still to take a type). */
interface A {
  readonly d: D;
  readonly t: SqlType;
  readonly literal: string | null;
}

class NoText extends Error {}

/** The CHECK expression's text, or null for a form not covered above. */
export function checkSource(scope: Scope, raw: Node): CheckSource | null {
  try {
    return analyze(scope, raw).d;
  } catch (e) {
    // A part the binder refuses alone (the whole bound): no text rather than a failed CREATE.
    if (e instanceof NoText || e instanceof SqlError) return null;
    throw e;
  }
}

/** The expression's text with the table's current column names, pretty (psql's `\d`) or as pg_dump has it. */
export function checkText(source: CheckSource, columnName: (i: number) => string, pretty: boolean): string {
  return print(source as D, { pretty, name: columnName });
}

/** `source` with every column ordinal `i` replaced by `at(i)` (a definition copied into another table: CREATE TABLE ... LIKE). */
export function remapCheckSource(source: CheckSource, at: (i: number) => number): CheckSource {
  const m = (d: D): D => {
    switch (d.k) {
      case 'var': return { k: 'var', i: at(d.i) };
      case 'const': return d;
      case 'op': return { ...d, l: d.l === null ? null : m(d.l), r: m(d.r) };
      case 'cast': return { ...d, e: m(d.e) };
      case 'func': return { ...d, args: d.args.map(m) };
      case 'array': return { ...d, items: d.items.map(m) };
      case 'bool': return { ...d, args: d.args.map(m) };
      case 'test': return { ...d, e: m(d.e) };
      case 'distinct': return { ...d, l: m(d.l), r: m(d.r) };
      case 'saop': return { ...d, l: m(d.l), arr: m(d.arr) };
    }
  };
  return m(source as D);
}

/** quote_identifier: quoted unless lower-case letters, digits and _, and not a keyword other than an unreserved one. */
function quoteName(s: string): string {
  if (/^[a-z_][a-z0-9_$]*$/.test(s) && (scanSync(s).tokens[0]?.keywordKind ?? 0) <= 1) return s;
  return `"${s.replace(/"/g, '""')}"`;
}

/** format_type's name of a type without modifier (bpchar as PostgreSQL prints an unsized one). */
const typeName = (t: SqlType): string => (t === 'bpchar' ? 'bpchar' : typeDisplayName[t]);

/** A constant of type `t` as get_const_expr prints it: labelled unless it reads back as that type. */
function constText(v: unknown, t: SqlType): string {
  if (v === null) return `NULL::${typeName(t)}`;
  if (t === 'bool') return v === true ? 'true' : 'false';
  const s = formatText(v as never, t);
  if (t === 'int4') return s.startsWith('-') ? `'${s}'::integer` : s;
  if (t === 'numeric' && /^\d/.test(s) && /[.eE]/.test(s)) return s;
  return `'${s.replace(/'/g, "''")}'::${typeName(t)}`;
}

/** An untyped literal taking type `t`; a typed part cast to `t` where it is not of it. */
function to(a: A, t: SqlType): D {
  if (a.literal !== null) return { k: 'const', text: a.literal === '\0null' ? 'NULL' : constText(castValue(a.literal, 'unknown', t, -1, false), t) };
  return a.t === t ? a.d : { k: 'cast', e: a.d, type: typeName(t) };
}

const INTS = new Set<SqlType>(['int2', 'int4', 'int8']);
const FLOATS = new Set<SqlType>(['float4', 'float8']);

const DATES = new Set<SqlType>(['date', 'timestamp', 'timestamptz']);

/** Whether PostgreSQL has operators between types `a` and `b` as they are (int48gt, float48gt, timestamp_lt_date, ...). */
const crossType = (a: SqlType, b: SqlType): boolean =>
  (INTS.has(a) && INTS.has(b)) || (FLOATS.has(a) && FLOATS.has(b)) || (DATES.has(a) && DATES.has(b));

/** The operand types of a binary operator PostgreSQL resolves for operands of types `l` and `r`. */
function operandTypes(l: A, r: A): [SqlType, SqlType] {
  const text = (t: SqlType): SqlType => (t === 'varchar' ? 'text' : t);
  if (l.t === 'unknown' && r.t === 'unknown') return ['text', 'text'];
  if (l.t === 'unknown') return [text(r.t), text(r.t)];
  if (r.t === 'unknown') return [text(l.t), text(l.t)];
  if (crossType(l.t, r.t)) return [l.t, r.t];
  const c = commonType(l.t, r.t);
  if (c === null) throw new NoText();
  // real against an integer: the integer becomes double precision, real stays (float48 operators).
  return [crossType(l.t, c) ? l.t : text(c), crossType(r.t, c) ? r.t : text(c)];
}

function binary(op: string, l: A, r: A): D {
  const [lt, rt] = operandTypes(l, r);
  return { k: 'op', op, l: to(l, lt), r: to(r, rt) };
}

const typed = (d: D, t: SqlType): A => ({ d, t, literal: null });

function analyze(scope: Scope, n: Node): A {
  if ('ColumnRef' in n) {
    const e = bindExpr(scope, n);
    if (e.k !== 'col') throw new NoText();
    return typed({ k: 'var', i: e.i }, e.t);
  }
  if ('A_Const' in n) {
    const c = n.A_Const;
    if (c.sval !== undefined) return { d: { k: 'const', text: '' }, t: 'unknown', literal: c.sval.sval ?? '' };
    if (c.isnull === true) return { d: { k: 'const', text: 'NULL' }, t: 'unknown', literal: '\0null' };
    const e = bindExpr(scope, n);
    if (e.k !== 'const') throw new NoText();
    return typed({ k: 'const', text: constText(e.v, e.t) }, e.t);
  }
  if ('TypeCast' in n) {
    const tc = n.TypeCast;
    const rt = resolveTypeName(tc.typeName ?? {});
    const arg = analyze(scope, tc.arg as Node);
    const t = bindExpr(scope, n).t;
    // An untyped literal cast is a constant of the type (PostgreSQL folds it when parsing).
    if (arg.literal !== null && rt.typmod < 0) return typed(to(arg, t), t);
    return typed({ k: 'cast', e: arg.d, type: formatTypeSpec({ type: rt.type, typmod: rt.typmod }) }, t);
  }
  if ('BoolExpr' in n) {
    const b = n.BoolExpr;
    const op = b.boolop === 'AND_EXPR' ? 'AND' : b.boolop === 'OR_EXPR' ? 'OR' : 'NOT';
    return typed({ k: 'bool', op, args: (b.args ?? []).map((x) => to(analyze(scope, x), 'bool')) }, 'bool');
  }
  if ('NullTest' in n) {
    return typed({ k: 'test', e: analyze(scope, n.NullTest.arg as Node).d, what: n.NullTest.nulltesttype === 'IS_NOT_NULL' ? 'IS NOT NULL' : 'IS NULL' }, 'bool');
  }
  if ('BooleanTest' in n) {
    const what = (n.BooleanTest.booltesttype ?? 'IS_TRUE').replace(/_/g, ' ');
    return typed({ k: 'test', e: to(analyze(scope, n.BooleanTest.arg as Node), 'bool'), what }, 'bool');
  }
  if ('A_Expr' in n) return analyzeAExpr(scope, n, n.A_Expr);
  if ('CoalesceExpr' in n) {
    const args = (n.CoalesceExpr.args ?? []).map((x) => analyze(scope, x));
    const t = bindExpr(scope, n).t;
    return typed({ k: 'func', name: 'COALESCE', args: args.map((a) => to(a, t)) }, t);
  }
  if ('A_ArrayExpr' in n) {
    const t = bindExpr(scope, n).t;
    if (!isArrayType(t)) throw new NoText();
    return typed({ k: 'array', items: (n.A_ArrayExpr.elements ?? []).map((x) => to(analyze(scope, x), arrayElementType(t))) }, t);
  }
  if ('FuncCall' in n) {
    const f = n.FuncCall;
    if (f.agg_star === true || f.agg_distinct === true || f.over !== undefined || f.agg_order !== undefined || f.agg_filter !== undefined) throw new NoText();
    const bound = bindExpr(scope, n);
    if (bound.k !== 'func') throw new NoText();
    const args = (f.args ?? []).map((x, i) => {
      const a = analyze(scope, x);
      const want = bound.args[i]?.t ?? a.t;
      // PostgreSQL's string functions take text: a varchar argument is cast.
      return to(a, a.t === 'varchar' || (want === 'varchar' && a.literal !== null) ? 'text' : want === 'unknown' ? 'text' : want);
    });
    return typed({ k: 'func', name: strOf(f.funcname?.[f.funcname.length - 1]), args }, bound.t);
  }
  throw new NoText();
}

function analyzeAExpr(scope: Scope, n: Node, a: A_Expr): A {
  const op = strOf(a.name?.[a.name.length - 1]);
  switch (a.kind) {
    case 'AEXPR_OP': {
      const r = analyze(scope, a.rexpr as Node);
      const t = bindExpr(scope, n).t;
      if (a.lexpr === undefined) return typed({ k: 'op', op, l: null, r: to(r, r.t === 'unknown' ? t : r.t) }, t);
      return typed(binary(op, analyze(scope, a.lexpr), r), t);
    }
    case 'AEXPR_LIKE':
    case 'AEXPR_ILIKE':
      bindExpr(scope, n);
      return typed(binary(op, analyze(scope, a.lexpr as Node), analyze(scope, a.rexpr as Node)), 'bool');
    case 'AEXPR_DISTINCT': {
      bindExpr(scope, n);
      const d = binary(op, analyze(scope, a.lexpr as Node), analyze(scope, a.rexpr as Node)) as D & { k: 'op' };
      return typed({ k: 'distinct', l: d.l!, r: d.r }, 'bool');
    }
    case 'AEXPR_BETWEEN':
    case 'AEXPR_NOT_BETWEEN': {
      bindExpr(scope, n);
      const [lo, hi] = ((a.rexpr as { List?: { items?: Node[] } }).List?.items ?? []).map((x) => analyze(scope, x));
      const e = analyze(scope, a.lexpr as Node);
      if (lo === undefined || hi === undefined) throw new NoText();
      const not = a.kind === 'AEXPR_NOT_BETWEEN';
      return typed({ k: 'bool', op: not ? 'OR' : 'AND', args: [binary(not ? '<' : '>=', e, lo), binary(not ? '>' : '<=', e, hi)] }, 'bool');
    }
    case 'AEXPR_OP_ANY':
    case 'AEXPR_OP_ALL': {
      bindExpr(scope, n);
      const arr = analyze(scope, a.rexpr as Node);
      if (!isArrayType(arr.t)) throw new NoText();
      const elem = arrayElementType(arr.t);
      const [lt] = operandTypes(analyze(scope, a.lexpr as Node), typed(arr.d, elem));
      return typed({ k: 'saop', l: to(analyze(scope, a.lexpr as Node), lt), op, all: a.kind === 'AEXPR_OP_ALL', arr: arr.d }, 'bool');
    }
    case 'AEXPR_IN': {
      bindExpr(scope, n);
      const not = op === '<>';
      const e = analyze(scope, a.lexpr as Node);
      const items = ((a.rexpr as { List?: { items?: Node[] } }).List?.items ?? []).map((x) => analyze(scope, x));
      if (items.some((x) => x.literal === null && x.d.k !== 'const')) {
        // Items reading columns: an OR (AND for NOT IN) of comparisons, as PostgreSQL makes them.
        return typed({ k: 'bool', op: not ? 'AND' : 'OR', args: items.map((x) => binary(op, e, x)) }, 'bool');
      }
      // Constants: one array of their common type with the left side's.
      let t: SqlType = e.t;
      for (const x of items) t = x.t === 'unknown' ? t : commonType(t, x.t) ?? 'unknown';
      if (t === 'unknown') t = 'text';
      const arr: D = { k: 'array', items: items.map((x) => to(x, t)) };
      // No varchar = varchar: the comparison is text's, the array cast to text[].
      if (t === 'varchar') return typed({ k: 'saop', l: to(e, 'text'), op, all: not, arr: { k: 'cast', e: arr, type: 'text[]' } }, 'bool');
      return typed({ k: 'saop', l: to(e, t), op, all: not, arr }, 'bool');
    }
    default:
      throw new NoText();
  }
}

/** get_simple_binary_op_name's operators whose precedence ruleutils knows. */
const LOW = new Set(['+', '-']);
const HIGH = new Set(['*', '/', '%']);

/** ruleutils' isSimpleNode (pretty mode): whether `d` prints without parentheses under `parent`. */
function isSimple(d: D, parent: D, first: boolean): boolean {
  switch (d.k) {
    case 'var': case 'const': case 'func': case 'array': case 'cast':
      return true;
    case 'op':
      if (parent.k === 'op') {
        if (d.l === null || parent.l === null) return false;
        const lo = LOW.has(d.op);
        const hi = HIGH.has(d.op);
        const plo = LOW.has(parent.op);
        const phi = HIGH.has(parent.op);
        if (!(lo || hi) || !(plo || phi)) return false;
        if (hi && plo) return true;
        if (lo && phi) return false;
        return first;
      }
      return operandOf(parent);
    case 'test': case 'distinct':
      return operandOf(parent);
    case 'bool':
      if (parent.k === 'bool') return d.op === 'OR' ? parent.op === 'OR' : parent.op !== 'NOT';
      return parent.k === 'func' || parent.k === 'array';
    case 'saop':
      return false;
  }
}

/** Whether an operator-like node under `parent` needs no parentheses (its own or lower precedence). */
function operandOf(parent: D): boolean {
  return parent.k === 'func' || parent.k === 'bool' || parent.k === 'array';
}

/** How a tree is printed: pretty (psql's pg_get_constraintdef(oid, true)) or not (pg_dump's), and column names. */
interface Printer {
  readonly pretty: boolean;
  readonly name: (i: number) => string;
}

/** get_rule_expr_paren: a child in parentheses where pretty mode finds it not simple (plain mode's nodes bring their own). */
function paren(d: D, parent: D, p: Printer, first = false): string {
  return p.pretty && !isSimple(d, parent, first) ? `(${print(d, p)})` : print(d, p);
}

/** An operator-like node's text: plain mode puts parentheses around each. */
const wrap = (text: string, p: Printer): string => (p.pretty ? text : `(${text})`);

function print(d: D, p: Printer): string {
  switch (d.k) {
    case 'var': return quoteName(p.name(d.i));
    case 'const': return d.text;
    case 'op':
      return wrap(d.l === null ? `${d.op} ${paren(d.r, d, p)}` : `${paren(d.l, d, p, true)} ${d.op} ${paren(d.r, d, p)}`, p);
    case 'cast': {
      // get_coercion_expr: plain mode parenthesizes the operand; pretty mode where it is operator-like.
      const operatorLike = d.e.k === 'op' || d.e.k === 'bool' || d.e.k === 'test' || d.e.k === 'distinct' || d.e.k === 'saop';
      return `${!p.pretty || operatorLike ? `(${print(d.e, p)})` : print(d.e, p)}::${d.type}`;
    }
    case 'func':
      return `${d.name}(${d.args.map((a) => print(a, p)).join(', ')})`;
    case 'array':
      return `ARRAY[${d.items.map((a) => print(a, p)).join(', ')}]`;
    case 'bool':
      if (d.op === 'NOT') return wrap(`NOT ${paren(d.args[0]!, d, p)}`, p);
      return wrap(d.args.map((a) => paren(a, d, p)).join(` ${d.op} `), p);
    case 'test':
      return wrap(`${paren(d.e, d, p)} ${d.what}`, p);
    case 'distinct':
      return wrap(`${paren(d.l, d, p)} IS DISTINCT FROM ${paren(d.r, d, p)}`, p);
    case 'saop':
      return wrap(`${paren(d.l, d, p)} ${d.op} ${d.all ? 'ALL' : 'ANY'} (${paren(d.arr, d, p)})`, p);
  }
}
