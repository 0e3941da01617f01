// Runs a window plan node: for each call, the input rows sorted (stably) by the call's PARTITION BY keys
// (ascending, NULLs last, as PostgreSQL sorts them) and ORDER BY keys, split into partitions and peer
// groups, and the call's value computed for every row over its partition or frame (ROWS, RANGE, GROUPS,
// with EXCLUDE). Output rows are the input rows followed by the calls' values, in the last call's order.
// Aggregates over frames reuse the previous row's result for an equal frame and grow one state while
// frames only extend at their end (the default frame); other frames are aggregated afresh.

import { accumulate, compareOrderKeys, finishAgg, newAggState, type AggState } from './agg.ts';
import { castValue } from './cast.ts';
import { SqlError } from './errors.ts';
import { evalExpr, type Env } from './eval.ts';
import { SqlInterval } from './interval.ts';
import { Numeric } from './numeric.ts';
import { encodeKey, encodeKeyValue } from './key-encoding.ts';
import { exprEquals, type Expr } from './expr.ts';
import type { AggOrderKey, AggSpec, FrameBound, WindowCall } from './plan.ts';
import type { Row, SqlType, SqlValue } from './types.ts';

export function runWindow(rows: readonly Row[], calls: readonly WindowCall[], env: Env): Row[] {
  const values: SqlValue[][] = rows.map(() => new Array<SqlValue>(calls.length).fill(null));
  let sorted: WindowOrder | null = null;
  calls.forEach((call, c) => {
    // Calls over the same window share its sort.
    if (sorted === null || !sameWindow(sorted.call, call)) sorted = sortForWindow(rows, call, env);
    const { order, pkeys, okeys, ovals } = sorted;
    for (let s = 0; s < order.length;) {
      let e = s + 1;
      while (e < order.length && pkeys[order[e] as number] === pkeys[order[s] as number]) e++;
      const members = order.slice(s, e);
      const part = new Partition(rows, members, members.map((i) => okeys[i] as string), members.map((i) => ovals[i] as SqlValue[]), call.order, env);
      part.compute(call, (j, v) => {
        (values[members[j] as number] as SqlValue[])[c] = v;
      });
      s = e;
    }
  });
  const order = (sorted as WindowOrder | null)?.order ?? rows.map((_, i) => i);
  return order.map((i) => (rows[i] as Row).concat(values[i] as SqlValue[]));
}

/** Rows in a window's order, with each row's partition and ORDER BY keys as order-preserving strings. */
interface WindowOrder {
  readonly call: WindowCall;
  readonly order: number[];
  readonly pkeys: readonly string[];
  readonly okeys: readonly string[];
  /** Each row's ORDER BY values (RANGE offsets compute with them). */
  readonly ovals: readonly SqlValue[][];
}

function sameWindow(a: WindowCall, b: WindowCall): boolean {
  return a.partition.length === b.partition.length && a.order.length === b.order.length
    && a.partition.every((e, i) => exprEquals(e, b.partition[i] as Expr))
    && a.order.every((k, i) => k.desc === b.order[i]?.desc && k.nullsFirst === b.order[i]?.nullsFirst && exprEquals(k.e, (b.order[i] as AggOrderKey).e));
}

/**
 * Sorts row indices by partition keys (ascending, NULLs last: encodeKey's order) then ORDER BY keys, as
 * strings compared natively: each ORDER BY column's encoding is inverted for DESC and its NULL tag
 * placed first or last as asked. Ties keep input order.
 */
function sortForWindow(rows: readonly Row[], call: WindowCall, env: Env): WindowOrder {
  const ptypes = call.partition.map((e) => e.t);
  const pkeys: string[] = [];
  const okeys: string[] = [];
  const ovals: SqlValue[][] = [];
  for (const r of rows) {
    pkeys.push(call.partition.length === 0 ? '' : encodeKey(call.partition.map((e) => evalExpr(e, r, env)), ptypes));
    const vals = call.order.map((k) => evalExpr(k.e, r, env));
    ovals.push(vals);
    let key = '';
    for (let i = 0; i < vals.length; i++) key += orderKeyPart(vals[i] ?? null, call.order[i] as AggOrderKey);
    okeys.push(key);
  }
  // The row's index in two chars after its (prefix-free) keys: ties sort in input order, and the
  // array sorts with the engine's native string comparison, no comparator call per pair.
  const full = rows.map((_, i) => `${pkeys[i] as string}${okeys[i] as string}${String.fromCharCode(i >>> 16, i & 0xffff)}`);
  full.sort();
  const order = full.map((k) => k.charCodeAt(k.length - 2) * 65536 + k.charCodeAt(k.length - 1));
  return { call, order, pkeys, okeys, ovals };
}

/** One ORDER BY column's order-preserving encoding: NULL tag first or last, value bytes inverted for DESC. */
function orderKeyPart(v: SqlValue, k: AggOrderKey): string {
  if (v === null) return k.nullsFirst ? '\x01' : '\x03';
  const enc = encodeKeyValue(v, k.e.t);
  if (!k.desc) return enc;
  let inv = '\x02';
  for (let i = 1; i < enc.length; i++) inv += String.fromCharCode(255 - enc.charCodeAt(i));
  return inv;
}

/** One partition: its rows (indices into the input) in window order, their ORDER BY keys and peer groups. */
class Partition {
  readonly m: number;
  /** Per position: first position of its peer group, one past its last, and the group's number. */
  readonly gStart: number[] = [];
  readonly gEnd: number[] = [];
  readonly gNum: number[] = [];
  /** First position of each peer group. */
  readonly groups: number[] = [];

  constructor(
    readonly input: readonly Row[],
    readonly rows: readonly number[],
    /** Per position, its ORDER BY keys as one order-preserving string (peers have equal ones), and their values. */
    readonly okeys: readonly string[],
    readonly keys: readonly (readonly SqlValue[])[],
    readonly order: readonly AggOrderKey[],
    readonly env: Env,
  ) {
    this.m = rows.length;
    for (let j = 0; j < this.m; j++) {
      if (j === 0 || !this.peers(j - 1, j)) this.groups.push(j);
      this.gStart.push(this.groups[this.groups.length - 1] as number);
      this.gNum.push(this.groups.length - 1);
    }
    for (let j = this.m - 1; j >= 0; j--) this.gEnd[j] = j === this.m - 1 || this.gNum[j + 1] !== this.gNum[j] ? j + 1 : (this.gEnd[j + 1] as number);
  }

  private peers(a: number, b: number): boolean {
    return this.okeys[a] === this.okeys[b];
  }

  row(j: number): Row {
    return this.input[this.rows[j] as number] as Row;
  }

  compute(call: WindowCall, put: (j: number, v: SqlValue) => void): void {
    const m = this.m;
    if (call.agg !== null) return this.aggregate(call, call.agg, put);
    const arg = (i: number, j: number): SqlValue => evalExpr(call.args[i] as Expr, this.row(j), this.env);
    switch (call.fn) {
      case 'row_number':
        for (let j = 0; j < m; j++) put(j, j + 1);
        return;
      case 'rank':
        for (let j = 0; j < m; j++) put(j, (this.gStart[j] as number) + 1);
        return;
      case 'dense_rank':
        for (let j = 0; j < m; j++) put(j, (this.gNum[j] as number) + 1);
        return;
      case 'percent_rank':
        for (let j = 0; j < m; j++) put(j, m > 1 ? (this.gStart[j] as number) / (m - 1) : 0);
        return;
      case 'cume_dist':
        for (let j = 0; j < m; j++) put(j, (this.gEnd[j] as number) / m);
        return;
      case 'ntile': {
        const n = arg(0, 0);
        if (n === null) {
          for (let j = 0; j < m; j++) put(j, null);
          return;
        }
        if ((n as number) <= 0) throw new SqlError('22014', 'argument of ntile must be greater than zero');
        const buckets = n as number;
        const per = Math.floor(m / buckets);
        const extra = m % buckets;
        for (let j = 0, b = 1, left = per + (extra > 0 ? 1 : 0); j < m; j++, left--) {
          if (left === 0) {
            b++;
            left = per + (b <= extra ? 1 : 0);
          }
          put(j, b);
        }
        return;
      }
      case 'lag':
      case 'lead':
        for (let j = 0; j < m; j++) {
          const off = call.args.length > 1 ? arg(1, j) : 1;
          if (off === null) {
            put(j, null);
            continue;
          }
          const at = call.fn === 'lag' ? j - (off as number) : j + (off as number);
          put(j, at >= 0 && at < m ? arg(0, at) : call.args.length > 2 ? arg(2, j) : null);
        }
        return;
      case 'first_value':
      case 'last_value':
      case 'nth_value':
        for (let j = 0; j < m; j++) {
          // Without EXCLUDE the frame is a plain range: no list of its positions.
          const frame = call.frame.exclude === 'none' ? null : this.framePositions(call, j);
          const [s, e] = frame === null ? this.frameBounds(call, j) : [0, frame.length];
          let k: number;
          if (call.fn === 'first_value') k = s;
          else if (call.fn === 'last_value') k = e - 1;
          else {
            const n = arg(1, j);
            if (n === null) {
              put(j, null);
              continue;
            }
            if ((n as number) <= 0) throw new SqlError('22016', 'argument of nth_value must be greater than zero');
            k = s + (n as number) - 1;
          }
          put(j, k < s || k >= e ? null : arg(0, frame === null ? k : (frame[k] as number)));
        }
        return;
      case null:
        return;
    }
  }

  private aggregate(call: WindowCall, spec: AggSpec, put: (j: number, v: SqlValue) => void): void {
    const argType = spec.arg?.t ?? 'int8';
    const inputs: ({ v: SqlValue; d: SqlValue } | null)[] = [];
    for (let j = 0; j < this.m; j++) {
      const r = this.row(j);
      if (spec.filter !== null && evalExpr(spec.filter, r, this.env) !== true) inputs.push(null);
      else inputs.push({ v: spec.arg === null ? null : evalExpr(spec.arg, r, this.env), d: spec.arg2 === null ? null : evalExpr(spec.arg2, r, this.env) });
    }
    const feed = (st: AggState, p: number): void => {
      const x = inputs[p];
      if (x != null) accumulate(spec, st, x.v, argType, x.d);
    };
    let state: AggState | null = null;
    let from = -1;
    let to = -1;
    let last: SqlValue = null;
    for (let j = 0; j < this.m; j++) {
      if (call.frame.exclude !== 'none') {
        const st = newAggState(spec);
        for (const p of this.framePositions(call, j)) feed(st, p);
        put(j, finishAgg(spec, st));
        continue;
      }
      const [s, e] = this.frameBounds(call, j);
      if (state !== null && s === from && e === to) {
        put(j, last);
        continue;
      }
      if (state === null || s !== from || e < to) {
        state = newAggState(spec);
        from = s;
        to = s;
      }
      for (let p = Math.max(to, s); p < e; p++) feed(state, p);
      to = Math.max(to, e);
      // Finish on a copy: the state keeps growing for the next rows, and collected items are shared.
      last = finishAgg(spec, { ...state, parts: state.parts?.slice() ?? null, items: state.items?.slice() ?? null });
      put(j, last);
    }
  }

  /** The frame's positions, in order, after EXCLUDE. */
  framePositions(call: WindowCall, j: number): number[] {
    const [s, e] = this.frameBounds(call, j);
    const out: number[] = [];
    const ex = call.frame.exclude;
    for (let p = s; p < e; p++) {
      if (ex === 'current' && p === j) continue;
      if ((ex === 'group' || (ex === 'ties' && p !== j)) && p >= (this.gStart[j] as number) && p < (this.gEnd[j] as number)) continue;
      out.push(p);
    }
    return out;
  }

  /** [start, end) of row j's frame before EXCLUDE; empty when start >= end. */
  frameBounds(call: WindowCall, j: number): [number, number] {
    const f = call.frame;
    const s = this.bound(f.mode, f.start, j, true);
    const e = this.bound(f.mode, f.end, j, false);
    return [Math.max(0, Math.min(s, this.m)), Math.max(0, Math.min(e, this.m))];
  }

  private bound(mode: WindowCall['frame']['mode'], b: FrameBound, j: number, start: boolean): number {
    if (b.k === 'unbounded') return start ? 0 : this.m;
    if (b.k === 'current') {
      if (mode === 'rows') return start ? j : j + 1;
      return start ? (this.gStart[j] as number) : (this.gEnd[j] as number);
    }
    const off = this.offset(mode, b, start);
    const back = b.k === 'preceding';
    if (mode === 'rows') {
      const at = back ? j - Number(off) : j + Number(off);
      return start ? at : at + 1;
    }
    if (mode === 'groups') {
      const g = (this.gNum[j] as number) + (back ? -Number(off) : Number(off));
      if (g < 0) return 0;
      if (g >= this.groups.length) return this.m;
      const first = this.groups[g] as number;
      return start ? first : (this.gEnd[first] as number);
    }
    return this.rangeBound(b, j, start);
  }

  /** A RANGE offset bound: the first position whose key is not before (start) or is after (end) key ± offset. */
  private rangeBound(b: Extract<FrameBound, { k: 'preceding' | 'following' }>, j: number, start: boolean): number {
    const k = this.order[0] as AggOrderKey;
    const key = (this.keys[j] as readonly SqlValue[])[0] ?? null;
    // A NULL key's frame bound is its peer group (the NULLs), as in PostgreSQL.
    if (key === null) return start ? (this.gStart[j] as number) : (this.gEnd[j] as number);
    const toward = (b.k === 'preceding') !== k.desc ? b.lo : b.hi;
    const limit = evalExpr(toward as Expr, [key], this.env);
    const lt = (toward as Expr).t;
    const kt = k.e.t;
    const bound: readonly AggOrderKey[] = [{ ...k, e: { k: 'col', i: 0, t: lt } }];
    const cmp = (p: number): number => {
      const v = (this.keys[p] as readonly SqlValue[])[0] ?? null;
      return compareOrderKeys(bound, [v === null || kt === lt ? v : castValue(v, kt, lt)], [limit]);
    };
    let lo = 0;
    let hi = this.m;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const c = cmp(mid);
      if (start ? c < 0 : c <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private offset(mode: WindowCall['frame']['mode'], b: Extract<FrameBound, { k: 'preceding' | 'following' }>, start: boolean): SqlValue {
    const v = evalExpr(b.offset, [], this.env);
    if (v === null) throw new SqlError('22004', `frame ${start ? 'starting' : 'ending'} offset must not be null`);
    if (isNegative(v)) {
      if (mode === 'range') throw new SqlError('22013', 'invalid preceding or following size in window function');
      throw new SqlError('22013', `frame ${start ? 'starting' : 'ending'} offset must not be negative`);
    }
    return v;
  }
}

function isNegative(v: SqlValue): boolean {
  if (typeof v === 'number') return v < 0;
  if (typeof v === 'bigint') return v < 0n;
  if (v instanceof Numeric) return v.sign() < 0;
  if (v instanceof SqlInterval) return v.span() < 0n;
  return false;
}
