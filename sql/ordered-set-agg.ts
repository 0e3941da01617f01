// The ordered-set aggregates' final step (PostgreSQL's orderedsetaggs.c): their non-null WITHIN GROUP
// values arrive sorted. percentile_disc(f) is the first value at or past fraction f of the rows,
// percentile_cont(f) interpolates linearly between the two values around position f * (n - 1) (float8
// or interval), mode() is the most frequent value (the first in sort order among ties). An array of
// fractions gives an array of results (NULL for a NULL fraction). No rows: NULL. The hypothetical-set
// aggregates place their direct arguments as one more row among the group's (NULLs included) in WITHIN
// GROUP order: rank and dense_rank before its peers, cume_dist after them.

import type { AggSpec } from './plan.ts';
import type { SqlType, SqlValue } from './types.ts';
import { arrayElementType, isArrayType } from './types.ts';
import { SqlArray } from './sql-array.ts';
import { SqlInterval } from './interval.ts';
import { addIntervals, scaleInterval } from './interval-arith.ts';
import { compareValues } from './ops.ts';
import { SqlError, SqlState } from './errors.ts';
import { compareOrderKeys } from './agg.ts';

function checkFraction(f: number): void {
  if (!(f >= 0 && f <= 1)) throw new SqlError(SqlState.numericValueOutOfRange, `percentile value ${String(f)} is not between 0 and 1`);
}

function disc(sorted: readonly SqlValue[], f: number): SqlValue {
  checkFraction(f);
  const rownum = Math.ceil(f * sorted.length);
  return sorted[Math.max(rownum, 1) - 1] ?? null;
}

function cont(sorted: readonly SqlValue[], f: number): SqlValue {
  checkFraction(f);
  const pos = f * (sorted.length - 1);
  const first = Math.floor(pos);
  const second = Math.ceil(pos);
  const lo = sorted[first] ?? null;
  const hi = sorted[second] ?? null;
  if (first === second || lo === null || hi === null) return lo;
  const pct = pos - first;
  if (lo instanceof SqlInterval && hi instanceof SqlInterval) return addIntervals(scaleInterval(addIntervals(hi, lo, -1), pct, '*'), lo, 1);
  return (lo as number) + ((hi as number) - (lo as number)) * pct;
}

function mode(sorted: readonly SqlValue[], t: SqlType): SqlValue {
  let best: SqlValue = null;
  let bestCount = 0;
  for (let i = 0; i < sorted.length;) {
    let j = i + 1;
    while (j < sorted.length && compareValues(sorted[i] as SqlValue, sorted[j] as SqlValue, t) === 0) j++;
    if (j - i > bestCount) {
      best = sorted[i] as SqlValue;
      bestCount = j - i;
    }
    i = j;
  }
  return best;
}

/** The result of percentile_cont, percentile_disc or mode over its sorted non-null values. */
export function finishOrderedSet(spec: AggSpec, sorted: readonly SqlValue[], fraction: SqlValue): SqlValue {
  if (sorted.length === 0) return null;
  if (spec.fn === 'mode') return mode(sorted, spec.t);
  const one = spec.fn === 'percentile_cont' ? cont : disc;
  if (fraction === null) return null;
  if (fraction instanceof SqlArray) {
    if (!isArrayType(spec.t)) return null;
    return new SqlArray(arrayElementType(spec.t), fraction.items.map((f) => (f === null ? null : one(sorted, f as number))));
  }
  return one(sorted, fraction as number);
}

/** rank, dense_rank, percent_rank or cume_dist of the hypothetical row `hyp` among `rows` (their sort keys). */
export function finishHypothetical(spec: AggSpec, rows: readonly (readonly SqlValue[])[], hyp: readonly SqlValue[]): SqlValue {
  const order = spec.order ?? [];
  const before = rows.filter((r) => compareOrderKeys(order, r, hyp) < 0);
  switch (spec.fn) {
    case 'rank':
      return before.length + 1;
    case 'percent_rank':
      return rows.length === 0 ? 0 : before.length / rows.length;
    case 'cume_dist':
      return (rows.filter((r) => compareOrderKeys(order, r, hyp) <= 0).length + 1) / (rows.length + 1);
    default: {
      const sorted = [...before].sort((a, b) => compareOrderKeys(order, a, b));
      return 1 + sorted.filter((r, i) => i === 0 || compareOrderKeys(order, sorted[i - 1] as SqlValue[], r) !== 0).length;
    }
  }
}
