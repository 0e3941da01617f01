// Aggregate accumulators with PostgreSQL's result types: count -> bigint, sum(smallint|integer) -> bigint,
// sum(bigint|numeric) -> numeric, avg over integers or numeric -> numeric (PostgreSQL's division scale),
// float aggregates in float8 (float4 for sum(real)), min/max in the input type, string_agg of text or of
// bytea (with a bytea delimiter) in its input type, array_agg as the array of its input type. NULL inputs are
// skipped (but array_agg keeps them as elements); an aggregate over no non-null input is NULL (count is 0;
// array_agg over no rows is NULL). DISTINCT keeps a set of encoded values; array_agg(DISTINCT x) without
// ORDER BY is in x's order, NULL last, as PostgreSQL sorts a DISTINCT aggregate's input. json_agg and
// jsonb_agg collect as array_agg does, the object aggregates key, value pairs (a NULL key is 22023). The
// ordered-set aggregates keep their non-null values in WITHIN GROUP order (ordered-set-agg.ts).

import { SqlInterval } from './interval.ts';
import { addIntervals, scaleInterval } from './interval-arith.ts';
import type { AggFn, AggOrderKey, AggSpec, OrderedSetFn } from './plan.ts';
import { finishHypothetical, finishOrderedSet } from './ordered-set-agg.ts';
import { aggArray, aggObject, isRowJson } from './json-build.ts';
import type { SqlType, SqlValue } from './types.ts';
import { Numeric } from './numeric.ts';
import { arith, compareValues } from './ops.ts';
import { encodeKeyValue } from './key-encoding.ts';
import { arrayElementType, isArrayType, normInt8 } from './types.ts';
import { SqlArray } from './sql-array.ts';
import { InvariantError, SqlError, SqlState } from './errors.ts';
import { concatAllBytes } from './bytea.ts';

export interface AggState {
  count: number;
  acc: SqlValue;
  seen: Set<string> | null;
  /** string_agg's pieces (values and delimiters), joined at the end: strings, or bytea values. */
  parts: (string | Uint8Array)[] | null;
  /** array_agg's elements. */
  items: SqlValue[] | null;
  /** With ORDER BY: the inputs with their sort keys, fed in order when the aggregate finishes. */
  pending: { keys: SqlValue[]; v: SqlValue; delim: SqlValue; argType: SqlType }[] | null;
}

/** The aggregates by SQL name (the binder's table). */
export const aggNames: Record<string, AggFn> = {
  count: 'count', sum: 'sum', avg: 'avg', min: 'min', max: 'max', bool_and: 'bool_and', bool_or: 'bool_or',
  every: 'bool_and', string_agg: 'string_agg', array_agg: 'array_agg', json_agg: 'json_agg', jsonb_agg: 'jsonb_agg',
  json_object_agg: 'json_object_agg', jsonb_object_agg: 'jsonb_object_agg',
  percentile_cont: 'percentile_cont', percentile_disc: 'percentile_disc', mode: 'mode',
};
/** Aggregates whose result depends on their input order (ORDER BY inside the call is kept). */
export const orderedAggs: ReadonlySet<AggFn> = new Set(['string_agg', 'array_agg', 'json_agg', 'jsonb_agg', 'json_object_agg', 'jsonb_object_agg']);
/** The ordered-set aggregates (WITHIN GROUP): `arg` is the sorted value, `arg2` the fraction. */
export const orderedSetAggs: ReadonlySet<AggFn> = new Set(['percentile_cont', 'percentile_disc', 'mode', 'rank', 'dense_rank', 'percent_rank', 'cume_dist']);
/** The hypothetical-set aggregates, aggregates only with WITHIN GROUP (without it they are window functions). */
export const hypotheticalAggs: Readonly<Record<string, AggFn>> = { rank: 'rank', dense_rank: 'dense_rank', percent_rank: 'percent_rank', cume_dist: 'cume_dist' };
export function isOrderedSet(fn: AggFn): fn is OrderedSetFn {
  return orderedSetAggs.has(fn);
}
/** Aggregates of two arguments (the second is `AggSpec.arg2`). */
export const twoArgAggs: ReadonlySet<AggFn> = new Set(['string_agg', 'json_object_agg', 'jsonb_object_agg']);

/** Aggregates that keep their inputs (NULLs included) in `items`; the object aggregates as key, value pairs. */
const collects: ReadonlySet<AggFn> = new Set(['array_agg', 'json_agg', 'jsonb_agg', 'json_object_agg', 'jsonb_object_agg']);

export function newAggState(spec: AggSpec): AggState {
  const items = collects.has(spec.fn) || orderedSetAggs.has(spec.fn);
  return { count: 0, acc: null, seen: spec.distinct ? new Set() : null, parts: spec.fn === 'string_agg' ? [] : null, items: items ? [] : null, pending: spec.order === null ? null : [] };
}

/** Keeps one input of an aggregate with ORDER BY, with its evaluated sort keys. */
export function defer(st: AggState, keys: SqlValue[], v: SqlValue, argType: SqlType, delim: SqlValue): void {
  st.pending?.push({ keys, v, delim, argType });
}

/** Compares two inputs' sort keys under an aggregate's ORDER BY (direction and NULL placement). */
export function compareOrderKeys(order: readonly AggOrderKey[], a: readonly SqlValue[], b: readonly SqlValue[]): number {
  for (let i = 0; i < order.length; i++) {
    const k = order[i]!;
    const x = a[i] ?? null;
    const y = b[i] ?? null;
    if (x === null || y === null) {
      if (x === y) continue;
      return x === null ? (k.nullsFirst ? -1 : 1) : k.nullsFirst ? 1 : -1;
    }
    const c = compareValues(x, y, k.e.t);
    if (c !== 0) return k.desc ? -c : c;
  }
  return 0;
}

function feedInOrder(spec: AggSpec, st: AggState): void {
  const order = spec.order;
  const pending = st.pending;
  if (order === null || pending === null) return;
  st.pending = null;
  pending.sort((a, b) => compareOrderKeys(order, a.keys, b.keys)); // stable: ties keep input order
  for (const p of pending) accumulate(spec, st, p.v, p.argType, p.delim);
}

function addInt(acc: SqlValue, v: SqlValue): SqlValue {
  if (typeof acc === 'number' && typeof v === 'number') {
    const r = acc + v;
    if (Number.isSafeInteger(r)) return r;
  }
  const r = normInt8(BigInt(acc as number | bigint) + BigInt(v as number | bigint));
  if (r === null) throw new SqlError(SqlState.numericValueOutOfRange, 'bigint out of range');
  return r;
}

function toNumeric(v: SqlValue): Numeric {
  if (v instanceof Numeric) return v;
  return Numeric.fromInteger(v as number | bigint);
}

/** Feeds one input value (already evaluated; the caller skips filtered rows). */
export function accumulate(spec: AggSpec, st: AggState, v: SqlValue, argType: SqlType, delim: SqlValue = null): void {
  if (spec.fn === 'count_star') {
    st.count++;
    return;
  }
  if (spec.fn === 'json_object_agg' || spec.fn === 'jsonb_object_agg') {
    if (v === null) throw new SqlError(SqlState.invalidParameterValue, 'field name must not be null');
    st.count++;
    st.items?.push(v, delim);
    return;
  }
  if (collects.has(spec.fn)) {
    if (st.seen !== null) {
      const k = encodeKeyValue(v, argType);
      if (st.seen.has(k)) return;
      st.seen.add(k);
    }
    st.count++;
    st.items?.push(v);
    return;
  }
  if (v === null) return;
  if (st.seen !== null) {
    const k = encodeKeyValue(v, argType);
    if (st.seen.has(k)) return;
    st.seen.add(k);
  }
  st.count++;
  switch (spec.fn) {
    case 'count':
      return;
    case 'sum':
    case 'avg':
      // interval: interval_pl, field-wise (avg divides the sum by the count at the end, as PostgreSQL 15).
      if (v instanceof SqlInterval) st.acc = st.acc === null ? v : addIntervals(st.acc as SqlInterval, v, 1);
      else if (argType === 'float4' || argType === 'float8') st.acc = st.acc === null ? v : (st.acc as number) + (v as number);
      else if ((argType === 'int2' || argType === 'int4') && spec.fn === 'sum') st.acc = st.acc === null ? v : addInt(st.acc, v);
      else st.acc = st.acc === null ? toNumeric(v) : (st.acc as Numeric).add(toNumeric(v));
      return;
    case 'min':
      if (st.acc === null || compareValues(v, st.acc, argType) < 0) st.acc = v;
      return;
    case 'max':
      if (st.acc === null || compareValues(v, st.acc, argType) > 0) st.acc = v;
      return;
    case 'bool_and':
      st.acc = st.acc === null ? v : st.acc === true && v === true;
      return;
    case 'bool_or':
      st.acc = st.acc === null ? v : st.acc === true || v === true;
      return;
    case 'string_agg':
      if (st.parts === null) return;
      if (v instanceof Uint8Array) {
        if (st.parts.length > 0 && delim instanceof Uint8Array) st.parts.push(delim);
        st.parts.push(v);
        return;
      }
      if (st.parts.length > 0) st.parts.push(delim === null ? '' : String(delim));
      st.parts.push(String(v));
      return;
    case 'array_agg':
    case 'json_agg':
    case 'jsonb_agg':
      return; // collected above, NULLs included
    case 'percentile_cont':
    case 'percentile_disc':
    case 'mode':
      // Fed in WITHIN GROUP order; the fraction (`delim`) is the group's direct argument.
      st.items?.push(v);
      st.acc = delim;
      return;
    case 'grouping':
    case 'rank':
    case 'dense_rank':
    case 'percent_rank':
    case 'cume_dist':
      return; // GROUPING: from the grouping-set node; hypothetical-set: their keys stay in `pending`
  }
}

/** A DISTINCT aggregate's inputs in their sort order, NULL last (PostgreSQL sorts them to find duplicates). */
function sortDistinct(items: SqlValue[], t: SqlType): void {
  items.sort((x, y) => (x === null ? (y === null ? 0 : 1) : y === null ? -1 : compareValues(x, y, t)));
}

export function finishAgg(spec: AggSpec, st: AggState): SqlValue {
  const rows = st.pending ?? [];
  feedInOrder(spec, st);
  switch (spec.fn) {
    case 'count':
    case 'count_star':
      return st.count;
    case 'sum':
      if (st.acc === null) return null;
      if (spec.t === 'float4') return Math.fround(st.acc as number);
      return st.acc;
    case 'avg':
      if (st.acc === null) return null;
      if (spec.t === 'float8') return (st.acc as number) / st.count;
      if (st.acc instanceof SqlInterval) return scaleInterval(st.acc, st.count, '/');
      return arith('/', st.acc, Numeric.fromInteger(st.count), 'numeric');
    case 'min':
    case 'max':
    case 'bool_and':
    case 'bool_or':
      return st.acc;
    case 'string_agg':
      if (st.count === 0 || st.parts === null) return null;
      return spec.t === 'bytea' ? concatAllBytes(st.parts as Uint8Array[]) : st.parts.join('');
    case 'array_agg': {
      const t = spec.t;
      if (st.count === 0 || st.items === null || !isArrayType(t)) return null;
      const elem = arrayElementType(t);
      if (spec.distinct && spec.order === null) sortDistinct(st.items, elem);
      return new SqlArray(elem, st.items);
    }
    case 'json_agg':
    case 'jsonb_agg':
      if (st.count === 0 || st.items === null) return null;
      if (spec.distinct && spec.order === null) sortDistinct(st.items, spec.arg?.t ?? 'text');
      return aggArray(spec.fn === 'jsonb_agg', st.items, spec.arg?.t ?? 'text', spec.arg !== null && (isArrayType(spec.arg.t) || isRowJson(spec.arg)));
    case 'json_object_agg':
    case 'jsonb_object_agg': {
      if (st.count === 0 || st.items === null) return null;
      const items = st.items;
      const keys = items.filter((_, i) => i % 2 === 0);
      const vals = items.filter((_, i) => i % 2 === 1);
      return aggObject(spec.fn === 'jsonb_object_agg', keys, vals, spec.arg?.t ?? 'text', spec.arg2?.t ?? 'text');
    }
    case 'percentile_cont':
    case 'percentile_disc':
    case 'mode':
      return finishOrderedSet(spec, st.items ?? [], st.acc);
    case 'rank':
    case 'dense_rank':
    case 'percent_rank':
    case 'cume_dist':
      return finishHypothetical(spec, rows.map((r) => r.keys), st.items ?? []);
    case 'grouping':
      throw new InvariantError('GROUPING outside a grouping-set aggregation');
  }
}
