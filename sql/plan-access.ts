// Access-path selection for one table: given the conjuncts that apply to it (over the table row; they may
// use parameters and outer references), pick the primary key or a secondary index whose leading columns
// are pinned by equalities, plus a range on the next column. Conjuncts turned into the key range are
// dropped from the per-row residual (the range enforces them exactly), which with the range is also the
// scan's recorded predicate (scan-exec.ts).

import type { CmpOp, Expr } from './expr.ts';
import { andOf, exprEquals, someExpr } from './expr.ts';
import { predicateImplied } from './index-keys.ts';
import type { IndexDef, TableDef } from './catalog.ts';
import type { KeyBound, ScanNode } from './plan.ts';
import type { ScanMode } from './row-source.ts';
import { isIntegerType, type SqlType } from './types.ts';

/** True when an expression can be evaluated before the scan (no columns of the scanned row, no subqueries). */
export function isRowIndependent(e: Expr): boolean {
  return !someExpr(e, (x) => x.k === 'col' || x.k === 'subquery' || x.k === 'aggref');
}

function keyCompatible(colType: SqlType, ct: SqlType): boolean {
  if (colType === ct) return true;
  if (isIntegerType(colType) && isIntegerType(ct)) return true;
  if ((colType === 'varchar' || colType === 'text') && (ct === 'text' || ct === 'varchar')) return true;
  return false;
}

/** The table column an operand refers to, looking through implicit widening casts. */
function columnOf(e: Expr): number | null {
  if (e.k === 'col') return e.i;
  if (e.k === 'cast' && !e.explicit && e.e.k === 'col') {
    const from = e.e.t;
    if ((isIntegerType(from) && isIntegerType(e.t)) || (from === 'varchar' && e.t === 'text')) return e.e.i;
  }
  return null;
}

const flip: Record<CmpOp, CmpOp> = { '=': '=', '<>': '<>', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

interface Bound {
  readonly conj: Expr;
  /** The comparison's side over the row: a column (through implicit widening casts) or an expression. */
  readonly side: Expr;
  /** The column `side` is, else null. */
  readonly col: number | null;
  readonly op: CmpOp;
  readonly value: Expr;
  readonly ct: SqlType;
}

function bounds(conj: readonly Expr[]): Bound[] {
  const out: Bound[] = [];
  for (const c of conj) {
    if (c.k !== 'cmp' || c.op === '<>') continue;
    if (isRowIndependent(c.r) && !isRowIndependent(c.l)) out.push({ conj: c, side: c.l, col: columnOf(c.l), op: c.op, value: c.r, ct: c.ct });
    else if (isRowIndependent(c.l) && !isRowIndependent(c.r)) out.push({ conj: c, side: c.r, col: columnOf(c.r), op: flip[c.op], value: c.l, ct: c.ct });
  }
  return out;
}

interface Candidate {
  readonly index: IndexDef | null;
  readonly cols: readonly number[];
}

/** Whether bound `b` constrains key position `j` of candidate `c`: its column, or its expression (the same bound tree). */
function boundsKey(table: TableDef, c: Candidate, j: number, b: Bound): boolean {
  const x = c.index?.exprs?.[j] ?? null;
  if (x !== null) return exprEquals(b.side, x.expr) && keyCompatible(x.expr.t, b.ct);
  const col = c.cols[j];
  const colType = col === undefined ? undefined : table.columns[col]?.type;
  return b.col !== null && b.col === col && colType !== undefined && keyCompatible(colType, b.ct);
}

export function accessPlan(table: TableDef, conj: readonly Expr[], mode: ScanMode): ScanNode {
  const bs = bounds(conj);
  // A partial index serves only a query whose WHERE implies its predicate (sql/index-keys.ts).
  const usable = table.indexes.filter((i) => predicateImplied(i, conj));
  const candidates: Candidate[] = [{ index: null, cols: table.pk }, ...usable.map((i) => ({ index: i, cols: i.columns }))];
  let best: { c: Candidate; eq: Bound[]; lo: Bound | null; hi: Bound | null; score: number } | null = null;
  for (const c of candidates) {
    const eq: Bound[] = [];
    for (let j = 0; j < c.cols.length; j++) {
      const b = bs.find((x) => x.op === '=' && boundsKey(table, c, j, x));
      if (!b) break;
      eq.push(b);
    }
    let lo: Bound | null = null;
    let hi: Bound | null = null;
    const next = eq.length;
    if (next < c.cols.length) {
      lo = bs.find((x) => (x.op === '>' || x.op === '>=') && boundsKey(table, c, next, x)) ?? null;
      hi = bs.find((x) => (x.op === '<' || x.op === '<=') && boundsKey(table, c, next, x)) ?? null;
    }
    const full = eq.length === c.cols.length;
    let score = eq.length * 10 + (lo ? 3 : 0) + (hi ? 3 : 0);
    if (full && c.index === null) score += 1000;
    else if (full && c.index?.unique) score += 500;
    if (c.index === null) score += 1; // prefer the primary key on ties (no extra lookup)
    if (best === null || score > best.score) best = { c, eq, lo, hi, score };
  }
  const b = best as NonNullable<typeof best>;
  const used = new Set<Expr>([...b.eq.map((x) => x.conj), ...(b.lo ? [b.lo.conj] : []), ...(b.hi ? [b.hi.conj] : [])]);
  const keyBound = (x: Bound | null): KeyBound | null => (x === null ? null : { e: x.value, inclusive: x.op === '>=' || x.op === '<=' });
  return {
    k: 'scan',
    table,
    index: b.c.index,
    eq: b.eq.map((x) => x.value),
    lo: keyBound(b.lo),
    hi: keyBound(b.hi),
    filter: andOf(conj),
    residual: andOf(conj.filter((c) => !used.has(c))),
    pinsPk: b.c.index === null && b.eq.length === table.pk.length,
    mode,
    reverse: false,
    limit: null,
  };
}

/** Whether a scan's key range depends on an outer row (an index-lookup join is worth it). */
export function usesOuterKey(s: ScanNode): boolean {
  const outer = (e: Expr): boolean => someExpr(e, (x) => x.k === 'outer');
  return s.eq.some(outer) || (s.lo !== null && outer(s.lo.e)) || (s.hi !== null && outer(s.hi.e));
}
