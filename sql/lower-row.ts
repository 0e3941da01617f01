// Rows as values: row comparisons `(a, b) < (c, d)`, and whole-row references (`t`, `t.*` naming a FROM
// item) and ROW(...) / (a, b) constructors. As arguments of the functions that turn a row into json
// (row_to_json, to_json, to_jsonb, json_agg, jsonb_agg and the json builders) such a row binds straight
// to its json form, a `row_to_json` func node over (name, value) pairs that json-eval.ts renders as
// PostgreSQL's composite_to_json does ({"a":1,"b":"x"}); the other functions take that json value as
// they take any json (to_jsonb parses it, json_agg embeds it). Anywhere else it is a value of type
// 'record' (record.ts): a `row` func node over the fields, a table's whole row cast to its row type
// (the typmod, pg_class.reltype), so that the wire names that type.
//
// A whole-row reference to a relation null-extended by an outer join is NULL, as in PostgreSQL: for a
// table, when its primary key (never NULL in a stored row; a hidden row id when none is declared) is
// NULL; for another relation on the nullable side of an outer join, when all its columns are NULL (a
// genuinely all-NULL row there reads as NULL too: the one place this differs from PostgreSQL).

import type { Node } from 'libpg-query';
import { anonymousRecordInput } from './record.ts';
import { isStringType, typeDisplayName } from './types.ts';
import type { Expr } from './expr.ts';
import type { Rel, Scope } from './bind-context.ts';
import { SqlError, SqlState } from './errors.ts';
import { coerce } from './coerce.ts';
import { rowTypeOid } from './catalog.ts';
import { bindCompare, bindExpr, strOf, unsupported } from './lower-expr.ts';

/** The functions whose arguments may be whole rows (bound to their json form). */
export const ROW_JSON_FUNCTIONS: ReadonlySet<string> = new Set([
  'row_to_json', 'to_json', 'to_jsonb', 'json_agg', 'jsonb_agg',
  'json_build_object', 'jsonb_build_object', 'json_build_array', 'jsonb_build_array',
]);

/** Row-wise comparison: = and <> pairwise, ordering operators lexicographically (as PostgreSQL). */
export function bindRowCompare(scope: Scope, opName: string, ls: readonly Node[], rs: readonly Node[]): Expr {
  if (ls.length !== rs.length) throw new SqlError(SqlState.syntaxError, 'unequal number of entries in row expressions');
  const l = ls.map((n) => bindExpr(scope, n));
  const r = rs.map((n) => bindExpr(scope, n));
  const op = opName === '!=' ? '<>' : opName;
  if (op === '=' || op === '<>') {
    const parts = l.map((x, i) => bindCompare(scope, op, x, r[i] as Expr));
    return { k: op === '=' ? 'and' : 'or', args: parts, t: 'bool' };
  }
  const strict = op === '<' || op === '<=' ? '<' : '>';
  const build = (i: number): Expr => {
    const x = l[i] as Expr;
    const y = r[i] as Expr;
    if (i === l.length - 1) return bindCompare(scope, op, x, y);
    return { k: 'or', args: [bindCompare(scope, strict, x, y), { k: 'and', args: [bindCompare(scope, '=', x, y), build(i + 1)], t: 'bool' }], t: 'bool' };
  };
  return build(0);
}

/** The FROM item a ColumnRef's fields name as a whole (`t`, `t.*`), innermost scope first; null if none. */
function namedRel(scope: Scope, fields: readonly Node[]): { rel: Rel; scope: Scope } | null {
  const star = fields.length === 2 && fields[1] !== undefined && 'A_Star' in fields[1];
  if (fields.length !== 1 && !star) return null;
  const alias = strOf(fields[0]);
  for (let s: Scope | null = scope; s !== null; s = s.parent) {
    const rel = s.rels.find((r) => r.alias === alias);
    if (rel !== undefined) return { rel, scope: s };
  }
  return null;
}

/** The visible columns of `rel` as values, resolved by qualified name (outer references when it is further out). */
function relColumns(scope: Scope, rel: Rel): { name: string; e: Expr }[] {
  return rel.columns.filter((c) => !c.hidden).map((c) => ({ name: c.name, e: bindExpr(scope, columnRef([rel.alias, c.name])) }));
}

function columnRef(names: readonly string[]): Node {
  return { ColumnRef: { fields: names.map((sval) => ({ String: { sval } })) } };
}

/** The json form: `row_to_json(nullWhen, name1, value1, ...)`, NULL when `nullWhen` is true (json-eval.ts). */
function rowJson(pairs: readonly { name: string; e: Expr }[], nullWhen: Expr = FALSE): Expr {
  const args: Expr[] = [nullWhen];
  for (const p of pairs) args.push({ k: 'const', v: p.name, t: 'text' }, p.e);
  return { k: 'func', fn: 'row_to_json', args, t: 'json' };
}

const FALSE: Expr = { k: 'const', v: false, t: 'bool' };

/**
 * A whole-row reference `t` / `t.*` as its json form, or null when the fields name no FROM item. A
 * column of that name wins over a relation, as in PostgreSQL: the caller tries columns first.
 */
export function bindWholeRow(scope: Scope, fields: readonly Node[]): Expr | null {
  const hit = namedRel(scope, fields);
  if (hit === null) return null;
  const { rel } = hit;
  const cols = relColumns(scope, rel);
  const asValue = scope.rowArgs ? rowJson : rowRecord;
  if (rel.table !== null) {
    const table = rel.table;
    const key = bindExpr(scope, columnRef([rel.alias, table.columns[table.pk[0] ?? -1]?.name ?? '']));
    const row = asValue(cols, { k: 'isnull', e: key, neg: false, t: 'bool' });
    // A table's row has its row type (pg_class.reltype) as its typmod, the wire's type oid.
    return scope.rowArgs ? row : { k: 'cast', e: row, t: 'record', typmod: rowTypeOid(table), explicit: false };
  }
  if (!hit.scope.nullableRels.has(rel)) return asValue(cols);
  return asValue(cols, { k: 'and', args: cols.map((c) => ({ k: 'isnull', e: c.e, neg: false, t: 'bool' })), t: 'bool' });
}

/** A row as a record value (record.ts): `row(v1, ...)`, NULL when `nullWhen` is true. */
function rowRecord(pairs: readonly { name: string; e: Expr }[], nullWhen: Expr = FALSE): Expr {
  const row: Expr = { k: 'func', fn: 'row', args: pairs.map((p) => p.e), t: 'record' };
  if (nullWhen === FALSE) return row;
  return { k: 'case', whens: [{ when: nullWhen, then: { k: 'const', v: null, t: 'record' } }], els: row, t: 'record' };
}

/**
 * ROW(a, b, t.*) and (a, b): as an argument of a row-to-json function its json form, fields f1, f2, ...;
 * elsewhere an anonymous record (untyped literals as text, as PostgreSQL resolves them).
 */
export function bindRowConstructor(scope: Scope, args: readonly Node[]): Expr {
  const values: Expr[] = [];
  for (const a of args) {
    const fields = 'ColumnRef' in a ? (a.ColumnRef.fields ?? []) : [];
    const star = fields.length === 2 && fields[1] !== undefined && 'A_Star' in fields[1] ? namedRel(scope, fields) : null;
    if (star !== null) values.push(...relColumns(scope, star.rel).map((c) => c.e));
    else values.push(bindExpr(scope, a));
  }
  const pairs = values.map((e, i) => ({ name: `f${i + 1}`, e: e.t === 'unknown' ? coerce(scope.ctx, e, 'text') : e }));
  return scope.rowArgs ? rowJson(pairs) : rowRecord(pairs);
}

/** `e::record`: a row stays itself; a string is record_in's 0A000 (anonymous records have no input); anything else 42846. */
export function castToRecord(e: Expr): Expr {
  if (e.t === 'record') return e;
  if (e.t === 'unknown' || isStringType(e.t)) throw anonymousRecordInput();
  throw new SqlError(SqlState.cannotCoerce, `cannot cast type ${typeDisplayName[e.t]} to record`);
}
