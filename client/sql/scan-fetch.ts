/**
 * Scans inside statements the client runs itself (client/sql/sql-session.ts): a point statement or an
 * INSERT whose execution needs rows it cannot name by primary key. The cases are a unique secondary
 * index probe (INSERT, UPDATE of an indexed column, ON CONFLICT on a unique index: sql/dml.ts
 * findConflict) and a subquery in a SET list, a VALUES row or RETURNING.
 *
 * Such a scan becomes a reconnaissance range read (PROTOCOL §4.2) of `DELETE FROM t WHERE <filter>`:
 * replicas return the full rows (hidden columns included) that satisfy the renderable part of the
 * scan's filter, and record the read set and the predicate of that read for validation, so a
 * concurrent insert of the same unique value conflicts through SemanticCC exactly as a range query's
 * phantom does. The part of the filter rendered is a conjunction of `column op constant` and
 * `column IS [NOT] NULL` terms whose types are the column's own (so parameter coercion at the replicas
 * changes no value); other terms are left out, which only widens the read. The client then serves the
 * scan from those rows, restricted to the scan's key range and in its order; the executor re-checks
 * the full filter on every row, as it does over any row source.
 *
 * Results are kept for the rest of the transaction (they are the state at T; the transaction's own
 * later writes are laid over them by OverlaySource), keyed by the statement text and parameters.
 */
import { quoteIdent, type TableDef } from '../../sql/catalog.ts';
import { exprEquals, type Expr } from '../../sql/expr.ts';
import { checkText } from '../../sql/check-text.ts';
import { indexEntryPrefix, primaryKeyOf } from '../../sql/memory-store.ts';
import type { ScanRequest, ScannedRow } from '../../sql/row-source.ts';
import type { Row, SqlValue } from '../../sql/types.ts';
import { encodeParams } from '../../sql/wire-values.ts';

/** A scan as a reconnaissance read: its statement, parameters, and the key its result is cached under. */
export interface ScanFetch {
  readonly table: TableDef;
  readonly sql: string;
  readonly params: readonly SqlValue[];
  readonly cacheKey: string;
}

const FLIP = { '=': '=', '<>': '<>', '<': '>', '<=': '>=', '>': '<', '>=': '<=' } as const;

function conjuncts(e: Expr | null): readonly Expr[] {
  if (e === null) return [];
  return e.k === 'and' ? e.args.flatMap(conjuncts) : [e];
}

/**
 * An expression index key of `table` equal to `x` (a unique probe of an expression index: sql/dml.ts),
 * as its text (sql/index-keys.ts), parenthesized; null for any other expression.
 */
function indexExprText(table: TableDef, x: Expr): string | null {
  for (const idx of table.indexes) {
    for (const k of idx.exprs ?? []) {
      if (k === null || k.source === null || !exprEquals(k.expr, x)) continue;
      return `(${checkText(k.source, (i) => table.columns[i]?.name ?? '?', false)})`;
    }
  }
  return null;
}

/** `"col" op $n` for a column (or an index's key expression) and a non-null constant of its type, else null. */
function renderTerm(table: TableDef, e: Expr, params: SqlValue[]): string | null {
  const column = (x: Expr): string | null => {
    if (x.k !== 'col') return indexExprText(table, x);
    const c = table.columns[x.i];
    return c === undefined || c.hidden || c.type !== x.t ? null : quoteIdent(c.name);
  };
  if (e.k === 'isnull') {
    const c = column(e.e);
    return c === null ? null : `${c} IS ${e.neg ? 'NOT ' : ''}NULL`;
  }
  if (e.k !== 'cmp') return null;
  const flip = e.l.k === 'const';
  const [col, val, op] = flip ? [e.r, e.l, FLIP[e.op]] : [e.l, e.r, e.op];
  const c = column(col);
  if (c === null || col.t !== e.ct || val.k !== 'const' || val.t !== e.ct || val.v === null) return null;
  params.push(val.v);
  return `${c} ${op} $${params.length}`;
}

/** The reconnaissance read that returns a superset of the rows `req` would yield and satisfy. */
export function scanFetchOf(req: ScanRequest): ScanFetch {
  const params: SqlValue[] = [];
  const terms = conjuncts(req.predicate).flatMap((e) => renderTerm(req.table, e, params) ?? []);
  const sql = `DELETE FROM ${quoteIdent(req.table.name)}${terms.length === 0 ? '' : ` WHERE ${terms.join(' AND ')}`}`;
  const bytes = encodeParams(params);
  let key = `${req.table.id}:${sql}:`;
  for (const b of bytes) key += String.fromCharCode(b);
  return { table: req.table, sql, params, cacheKey: key };
}

/** The rows of a fetched scan that lie in `req`'s key range, in its order. */
export function scanFetchedRows(req: ScanRequest, rows: readonly Row[]): ScannedRow[] {
  const out: { s: string; r: ScannedRow }[] = [];
  for (const row of rows) {
    const key = primaryKeyOf(req.table, row);
    const prefix = req.index === null ? '' : indexEntryPrefix(req.index, row);
    if (prefix === null) continue; // a row the partial index leaves out
    const s = req.index === null ? key : prefix + key;
    if (s >= req.lo && (req.hi === null || s < req.hi)) out.push({ s, r: { tableId: req.table.id, key, row, version: null, own: false } });
  }
  out.sort((a, b) => (a.s < b.s ? -1 : a.s > b.s ? 1 : 0));
  if (req.reverse) out.reverse();
  return out.map((x) => x.r);
}
