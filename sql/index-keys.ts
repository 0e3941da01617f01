// Expression and partial indexes (PostgreSQL's CREATE INDEX ... (expr) ... WHERE pred): binding their
// key expressions and predicates (immutable functions and operators only, 42P17 otherwise, as
// PostgreSQL's CheckMutability), computing an index's key of a row (null for a row a partial index
// leaves out), and their text as pg_get_indexdef and a unique violation's DETAIL print it.
//
// Volatility follows PostgreSQL 15's pg_proc for the functions Pesto has: now() and the other
// transaction-time functions, to_char, concat, the json builders and to_json are stable; random(),
// gen_random_uuid(), nextval and the uuid generators are volatile; date_part, date_trunc and age over
// timestamptz (or age of one argument) are stable; a cast is stable where PostgreSQL's is (text to or
// from the date and time types and arrays, whose input and output depend on settings; timestamptz to or
// from date, timestamp and time), and so is timestamptz plus or minus an interval.

import type { Node } from 'libpg-query';
import { columnIndex, primaryKeyName, type Catalog, type IndexDef, type IndexExpr, type TableDef } from './catalog.ts';
import { BindContext, Scope } from './bind-context.ts';
import { bindExpr, toBool } from './lower-expr.ts';
import { checkSource, checkText } from './check-text.ts';
import { SqlError, SqlState } from './errors.ts';
import { conjuncts, exprEquals, mapExpr, someExpr, type Expr } from './expr.ts';
import { evalExpr, makeEnv } from './eval.ts';
import { isImmutable } from './immutability.ts';
import type { Row, SqlValue } from './types.ts';
import { tempPrefix } from './temp-tables.ts';

/**
 * Binds one key expression (`what` 'expression') or the predicate (`what` 'predicate') of an index on
 * `table`. `names`: the column names `raw` was written under (a rebinding after renames), by ordinal.
 */
export function bindIndexExpr(catalog: Catalog, table: TableDef, raw: Node, what: 'expression' | 'predicate', names: readonly string[] = table.columns.map((c) => c.name)): IndexExpr {
  const scope = new Scope(new BindContext(catalog), null);
  scope.addRel(table.name, table.columns.map((c, i) => ({ name: names[i] ?? c.name, type: c.type, typmod: c.typmod, hidden: c.hidden })), table);
  scope.aggForbidden = `index ${what}s`;
  let expr = bindExpr(scope, raw);
  if (what === 'predicate') expr = toBool(scope, expr, 'WHERE');
  if (someExpr(expr, (x) => x.k === 'subquery')) throw new SqlError(SqlState.featureNotSupported, `cannot use subquery in index ${what}`);
  if (!isImmutable(expr)) throw new SqlError('42P17', `functions in index ${what} must be marked IMMUTABLE`);
  return { expr, source: checkSource(scope, raw), raw, names };
}

const ENV = makeEnv([], null);

/** A row's key in index `idx` (values by key position), or null when a partial index leaves the row out. */
export function indexKeyValues(idx: IndexDef, row: Row): SqlValue[] | null {
  if (idx.predicate !== undefined && evalExpr(idx.predicate.expr, row, ENV) !== true) return null;
  const exprs = idx.exprs;
  return idx.columns.map((c, j) => {
    const x = exprs?.[j];
    return x === null || x === undefined ? row[c] ?? null : evalExpr(x.expr, row, ENV);
  });
}

/** Whether `idx` keys or filters by anything but columns. */
export function isPlainIndex(idx: IndexDef): boolean {
  return idx.exprs === undefined && idx.predicate === undefined;
}

/** The columns an index reads: its key columns and those its expressions and predicate read. */
export function indexColumnsRead(idx: IndexDef): Set<number> {
  const out = new Set<number>(idx.columns.filter((c) => c >= 0));
  const add = (e: Expr): void => {
    someExpr(e, (x) => {
      if (x.k === 'col') out.add(x.i);
      return false;
    });
  };
  for (const x of idx.exprs ?? []) if (x !== null) add(x.expr);
  if (idx.predicate !== undefined) add(idx.predicate.expr);
  return out;
}

/** quote_identifier's rule for a column name (lower-case letters, digits and _ stay bare). */
function ident(name: string): string {
  return /^[a-z_][a-z0-9_$]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`;
}

/** An expression's text, or null when sql/check-text.ts does not print its form. */
function exprText(t: TableDef, x: IndexExpr, pretty: boolean): string | null {
  return x.source === null ? null : checkText(x.source, (i) => t.columns[i]?.name ?? '?', pretty);
}

/**
 * The key list as pg_get_indexdef prints it: columns by name, a function call as it is, any other
 * expression in parentheses (ruleutils' looks_like_function). Null when an expression has no text.
 */
export function indexKeyList(t: TableDef, idx: IndexDef, pretty: boolean): string | null {
  return indexKeyParts(t, idx, pretty)?.join(', ') ?? null;
}

/** Each key as pg_get_indexdef(index, column, pretty) prints it (indexKeyList's parts); null when an expression has no text. */
export function indexKeyParts(t: TableDef, idx: Pick<IndexDef, 'columns' | 'exprs'>, pretty: boolean): string[] | null {
  const parts: string[] = [];
  for (let j = 0; j < idx.columns.length; j++) {
    const x = idx.exprs?.[j] ?? null;
    if (x === null) {
      parts.push(ident(t.columns[idx.columns[j]!]?.name ?? '?'));
      continue;
    }
    const text = exprText(t, x, pretty);
    if (text === null) return null;
    parts.push((x.source as { k?: string }).k === 'func' ? text : `(${text})`);
  }
  return parts;
}

/** A partial index's ` WHERE ...` as pg_get_indexdef prints it ('' for a full index; null when it has no text). */
export function indexWhere(t: TableDef, idx: IndexDef, pretty: boolean): string | null {
  if (idx.predicate === undefined) return '';
  const text = indexPredicateText(t, idx.predicate, pretty);
  return text === null ? null : ` WHERE ${text}`;
}

/** A partial index's predicate as pg_get_expr(indpred, indrelid, pretty) prints it (null when it has no text). */
export function indexPredicateText(t: TableDef, predicate: IndexExpr, pretty: boolean): string | null {
  return exprText(t, predicate, pretty);
}

/** pg_get_indexdef's text of an index of `t` (null when an expression has no text). */
export function indexDefinition(t: TableDef, idx: Pick<IndexDef, 'name' | 'unique' | 'columns' | 'exprs' | 'predicate'>, pretty: boolean): string | null {
  const list = indexKeyList(t, idx as IndexDef, pretty);
  const where = indexWhere(t, idx as IndexDef, pretty);
  if (list === null || where === null) return null;
  return `CREATE ${idx.unique ? 'UNIQUE ' : ''}INDEX ${ident(idx.name)} ON ${pretty ? '' : 'public.'}${ident(t.name)} USING btree (${list})${where}`;
}

/**
 * The name PostgreSQL gives an unnamed index's key (FigureIndexColname): the column's, a function's
 * name, a cast's operand's (else its type's), case, coalesce, greatest, least, nullif, array, row;
 * else `expr`.
 */
export function keyNamePart(t: TableDef, raw: Node | null, column: number): string {
  if (raw === null) return t.columns[column]?.name ?? '?';
  if ('FuncCall' in raw) {
    const names = raw.FuncCall.funcname ?? [];
    const last = names[names.length - 1];
    if (last !== undefined && 'String' in last) return last.String.sval ?? 'expr';
  }
  if ('ColumnRef' in raw) {
    const fields = raw.ColumnRef.fields ?? [];
    const last = fields[fields.length - 1];
    if (last !== undefined && 'String' in last) return last.String.sval ?? 'expr';
  }
  if ('TypeCast' in raw && raw.TypeCast.arg !== undefined) {
    const inner = keyNamePart(t, raw.TypeCast.arg, -1);
    if (inner !== 'expr') return inner;
    const names = raw.TypeCast.typeName?.names ?? [];
    const last = names[names.length - 1];
    return last !== undefined && 'String' in last ? last.String.sval ?? 'expr' : 'expr';
  }
  if ('CollateClause' in raw && raw.CollateClause.arg !== undefined) return keyNamePart(t, raw.CollateClause.arg, -1);
  if ('CaseExpr' in raw) return 'case';
  if ('CoalesceExpr' in raw) return 'coalesce';
  if ('MinMaxExpr' in raw) return raw.MinMaxExpr.op === 'IS_LEAST' ? 'least' : 'greatest';
  if ('A_ArrayExpr' in raw) return 'array';
  if ('RowExpr' in raw) return 'row';
  if ('A_Expr' in raw && raw.A_Expr.kind === 'AEXPR_NULLIF') return 'nullif';
  return 'expr';
}

/** An expression index rebound after a column's type changed (its key types follow the new expressions). */
export function rebindIndex(catalog: Catalog, t: TableDef, idx: IndexDef): IndexDef {
  if (isPlainIndex(idx)) return { ...idx, types: idx.columns.map((c) => t.columns[c]!.type) };
  const exprs = idx.exprs?.map((x) => (x === null ? null : bindIndexExpr(catalog, t, x.raw, 'expression', x.names)));
  const types = idx.columns.map((c, j) => exprs?.[j]?.expr.t ?? t.columns[c]!.type);
  const predicate = idx.predicate === undefined ? undefined : bindIndexExpr(catalog, t, idx.predicate.raw, 'predicate', idx.predicate.names);
  return { ...idx, types, ...(exprs === undefined ? {} : { exprs }), ...(predicate === undefined ? {} : { predicate }) };
}

/**
 * ON CONFLICT's inference (PostgreSQL's infer_arbiter_indexes): the unique indexes (and the primary
 * key, `<table>_pkey`) whose keys are exactly the elements given (columns and expressions, as sets) and
 * whose predicate, if any, the clause's WHERE implies (here: each of its conjuncts is one of WHERE's).
 * Their names are the arbiters; 42P10 when none matches.
 */
export function inferArbiters(catalog: Catalog, table: TableDef, elems: readonly Node[], where: Node | undefined): string[] {
  const cols = new Set<number>();
  const exprs: Expr[] = [];
  for (const n of elems) {
    if (!('IndexElem' in n)) continue;
    const e = n.IndexElem;
    if (e.expr === undefined) {
      cols.add(columnIndex(table, e.name ?? ''));
      continue;
    }
    const x = bindIndexExpr(catalog, table, e.expr, 'expression').expr;
    if (x.k === 'col') cols.add(x.i);
    else exprs.push(x);
  }
  const implied = where === undefined ? [] : conjuncts(bindIndexExpr(catalog, table, where, 'predicate').expr);
  const out: string[] = [];
  if (!table.hiddenPk && exprs.length === 0 && cols.size === table.pk.length && table.pk.every((c) => cols.has(c))) out.push(`${table.name}_pkey`);
  for (const idx of table.indexes) {
    if (!idx.unique) continue;
    const keyCols = new Set(idx.columns.filter((c) => c >= 0));
    const keyExprs = (idx.exprs ?? []).filter((x): x is IndexExpr => x !== null).map((x) => x.expr);
    if (keyCols.size !== cols.size || ![...keyCols].every((c) => cols.has(c))) continue;
    if (!exprs.every((x) => keyExprs.some((y) => exprEquals(x, y))) || !keyExprs.every((y) => exprs.some((x) => exprEquals(x, y)))) continue;
    if (idx.predicate !== undefined && !conjuncts(idx.predicate.expr).every((p) => implied.some((q) => exprEquals(p, q)))) continue;
    out.push(idx.name);
  }
  if (out.length === 0) throw new SqlError(SqlState.invalidColumnReference, 'there is no unique or exclusion constraint matching the ON CONFLICT specification');
  return out;
}

/**
 * ON CONFLICT ON CONSTRAINT `name`: the arbiter of `table`'s primary key or UNIQUE constraint of that name
 * (a temporary table's constraints carry its internal prefix). A unique index that backs no constraint is
 * not one, as in PostgreSQL.
 */
export function constraintArbiter(table: TableDef, name: string): string[] {
  const prefix = tempPrefix(table.name);
  for (const n of prefix === '' ? [name] : [prefix + name, name]) {
    if (primaryKeyName(table) === n || table.indexes.some((i) => i.constraint && i.name === n)) return [n];
    if ((table.checks ?? []).some((c) => c.name === n) || (table.foreignKeys ?? []).some((f) => f.name === n)) {
      throw new SqlError(SqlState.wrongObjectType, 'constraint in ON CONFLICT clause has no associated index');
    }
  }
  throw new SqlError(SqlState.undefinedObject, `constraint "${name}" for table "${table.name}" does not exist`);
}

/** Whether the conjuncts `conj` of a query's WHERE imply partial index `idx`'s predicate (each of its conjuncts is one of them). */
export function predicateImplied(idx: IndexDef, conj: readonly Expr[]): boolean {
  return idx.predicate === undefined || conjuncts(idx.predicate.expr).every((p) => conj.some((q) => exprEquals(p, q)));
}

/** An index after its table's columns moved (`shift` maps old ordinals to new). */
export function shiftIndex(idx: IndexDef, shift: (i: number) => number): IndexDef {
  const move = (x: IndexExpr): IndexExpr => {
    const names: string[] = [];
    x.names.forEach((n, i) => (names[shift(i)] = n));
    return { ...x, names, expr: mapExpr(x.expr, (e) => (e.k === 'col' ? { ...e, i: shift(e.i) } : undefined)) };
  };
  const exprs = idx.exprs?.map((x) => (x === null ? null : move(x)));
  return {
    ...idx, columns: idx.columns.map((c) => (c < 0 ? c : shift(c))),
    ...(exprs === undefined ? {} : { exprs }), ...(idx.predicate === undefined ? {} : { predicate: move(idx.predicate) }),
  };
}
