// Runs query plans. Each node materialises its output rows (statements in OLTP workloads touch few rows;
// scans stop early when the plan lets them: LIMIT over a key-ordered scan). Joins are nested loops
// (optionally re-running an index lookup per left row) or hash joins; aggregation hashes groups by the
// order-preserving key encoding; sorting is stable with PostgreSQL's NULL placement (NULLS LAST for ASC,
// FIRST for DESC unless stated).

import type { AggSpec, Plan, SetFunctionPlan, SortKey } from './plan.ts';
import { evalExpr, type Env } from './eval.ts';
import { runScan } from './scan-exec.ts';
import { runWindow } from './window.ts';
import type { Expr } from './expr.ts';
import type { Row, SqlType, SqlValue } from './types.ts';
import { compareValues } from './ops.ts';
import { encodeKey } from './key-encoding.ts';
import { finishAgg, newAggState, type AggState } from './agg.ts';
import { feedAggs, runGroupingSets } from './grouping-exec.ts';
import { InvariantError, SqlError, SqlState, assertNever } from './errors.ts';
import { SqlArray } from './sql-array.ts';
import { SqlJson, SqlJsonb } from './json.ts';
import { jsonRows } from './json-ops.ts';
import { castValue } from './cast.ts';
import { Numeric } from './numeric.ts';
import { timestampSeries } from './builtins-eval.ts';
import type { SqlTimestamp } from './datetime.ts';
import type { SqlInterval } from './interval.ts';

function nulls(n: number): SqlValue[] {
  return new Array<SqlValue>(n).fill(null);
}

export function runPlan(p: Plan, env: Env): Row[] {
  switch (p.k) {
    case 'scan':
      return runScan(p, env);
    case 'one':
      return [[]];
    case 'values':
      return p.rows.map((r) => r.map((e) => evalExpr(e, [], env)));
    case 'series':
    case 'unnest':
      return setFunctionValues(p, [], env).map((v) => [v]);
    case 'rowsfrom': {
      const sets = p.fns.map((f) => setFunctionValues(f, [], env));
      const n = Math.max(...sets.map((s) => s.length));
      const out: Row[] = [];
      for (let i = 0; i < n; i++) out.push([...sets.map((s) => (i < s.length ? (s[i] as SqlValue) : null)), ...(p.ordinality ? [i + 1] : [])]);
      return out;
    }
    case 'projectset': {
      const out: Row[] = [];
      for (const r of runPlan(p.input, env)) {
        const sets = p.srfs.map((f) => setFunctionValues(f, r, env));
        const n = Math.max(...sets.map((s) => s.length));
        for (let i = 0; i < n; i++) out.push([...r, ...sets.map((s) => (i < s.length ? (s[i] as SqlValue) : null))]);
      }
      return out;
    }
    case 'jsonrows': {
      const d = evalExpr(p.doc, [], env);
      if (d === null) return [];
      if (!(d instanceof SqlJsonb) && !(d instanceof SqlJson)) throw new InvariantError(`${p.fn} of a value that is not json`);
      return jsonRows(p.fn, d);
    }
    case 'filter': {
      const input = runPlan(p.input, env);
      const out: Row[] = [];
      for (const r of input) if (evalExpr(p.pred, r, env) === true) out.push(r);
      return out;
    }
    case 'project': {
      const input = runPlan(p.input, env);
      const ex = p.exprs;
      const out: Row[] = new Array<Row>(input.length);
      const identity = isIdentity(ex);
      for (let j = 0; j < input.length; j++) {
        const r = input[j] as Row;
        // Rows are never mutated (the scanned-row invariant, row-source.ts), so `SELECT *` hands a row
        // that already has exactly the projected columns on as it is.
        if (identity && r.length === ex.length) {
          out[j] = r;
          continue;
        }
        const o: SqlValue[] = new Array<SqlValue>(ex.length);
        for (let i = 0; i < ex.length; i++) o[i] = evalExpr(ex[i] as Expr, r, env);
        out[j] = o;
      }
      return out;
    }
    case 'nljoin': {
      const left = runPlan(p.left, env);
      const out: Row[] = [];
      const fixed = p.level === null ? runPlan(p.right, env) : null;
      const rightMatched = p.kind === 'right' || p.kind === 'full' ? new Array<boolean>(fixed?.length ?? 0).fill(false) : null;
      for (const l of left) {
        let rights: Row[];
        if (fixed !== null) rights = fixed;
        else {
          env.outer[p.level as number] = l;
          rights = runPlan(p.right, env);
        }
        let matched = false;
        for (let ri = 0; ri < rights.length; ri++) {
          const c = l.concat(rights[ri] as Row);
          if (p.on === null || evalExpr(p.on, c, env) === true) {
            out.push(c);
            matched = true;
            if (rightMatched !== null) rightMatched[ri] = true;
          }
        }
        if (!matched && (p.kind === 'left' || p.kind === 'full')) out.push(l.concat(nulls(p.rightWidth)));
      }
      if (rightMatched !== null && fixed !== null) {
        fixed.forEach((r, i) => {
          if (!rightMatched[i]) out.push(nulls(p.leftWidth).concat(r));
        });
      }
      return out;
    }
    case 'hashjoin': {
      const right = runPlan(p.right, env);
      const table = new Map<string, Row[]>();
      const rightMatched = p.kind === 'right' || p.kind === 'full' ? new Set<Row>() : null;
      for (const r of right) {
        const k = hashKey(p.rightKeys, p.keyTypes, r, env);
        if (k === null) continue;
        const bucket = table.get(k);
        if (bucket) bucket.push(r);
        else table.set(k, [r]);
      }
      const out: Row[] = [];
      for (const l of runPlan(p.left, env)) {
        const k = hashKey(p.leftKeys, p.keyTypes, l, env);
        let matched = false;
        const bucket = k === null ? undefined : table.get(k);
        if (bucket) {
          for (const r of bucket) {
            const c = l.concat(r);
            if (p.residual === null || evalExpr(p.residual, c, env) === true) {
              out.push(c);
              matched = true;
              rightMatched?.add(r);
            }
          }
        }
        if (!matched && (p.kind === 'left' || p.kind === 'full')) out.push(l.concat(nulls(p.rightWidth)));
      }
      if (rightMatched !== null) for (const r of right) if (!rightMatched.has(r)) out.push(nulls(p.leftWidth).concat(r));
      return out;
    }
    case 'agg':
      return runAgg(p.input, p.groups, p.aggs, env);
    case 'window':
      return runWindow(runPlan(p.input, env), p.calls, env);
    case 'groupsets':
      return runGroupingSets(p, runPlan(p.input, env), env);
    case 'sort': {
      const rows = runPlan(p.input, env);
      return sortRows(rows, p.keys);
    }
    case 'limit': {
      const rows = runPlan(p.input, env);
      const off = countArg(p.offset, env, 'OFFSET');
      const lim = countArg(p.limit, env, 'LIMIT');
      if (off === 0 && lim === Infinity) return rows;
      return rows.slice(off, lim === Infinity ? undefined : off + lim);
    }
    case 'distinct': {
      const rows = runPlan(p.input, env);
      const seen = new Set<string>();
      const out: Row[] = [];
      const on = p.on;
      for (const r of rows) {
        const k = encodeKey(on === undefined ? r : on.map((i) => r[i] ?? null), p.types);
        if (!seen.has(k)) {
          seen.add(k);
          out.push(r);
        }
      }
      return out;
    }
    case 'setop':
      return runSetOp(p.op, p.all, runPlan(p.left, env), runPlan(p.right, env), p.types);
    case 'recursive': {
      const seen = p.all ? null : new Set<string>();
      const fresh = (rows: Row[]): Row[] => {
        if (seen === null) return rows;
        return rows.filter((r) => {
          const k = encodeKey(r, p.types);
          if (seen.has(k)) return false;
          seen.add(k);
          return true;
        });
      };
      const out = fresh(runPlan(p.base, env));
      let work = out;
      for (let i = 0; work.length > 0; i++) {
        if (out.length > 10_000_000 || i > 1_000_000) {
          throw new SqlError(SqlState.programLimitExceeded, 'WITH RECURSIVE produced too many rows');
        }
        env.worktables.set(p.slot, work);
        work = fresh(runPlan(p.step, env));
        for (const r of work) out.push(r);
      }
      env.worktables.delete(p.slot);
      return out;
    }
    case 'worktable':
      return env.worktables.get(p.slot) ?? [];
    case 'trim': {
      const rows = runPlan(p.input, env);
      return rows.map((r) => (r.length === p.width ? r : r.slice(0, p.width)));
    }
    default:
      return assertNever(p, 'plan node');
  }
}

/** Whether `exprs` are exactly the input's columns 0..n-1 in order (`SELECT *` over one table). */
function isIdentity(exprs: readonly Expr[]): boolean {
  for (let i = 0; i < exprs.length; i++) {
    const e = exprs[i]!;
    if (e.k !== 'col' || e.i !== i) return false;
  }
  return true;
}

function hashKey(keys: readonly Expr[], types: readonly SqlType[], row: Row, env: Env): string | null {
  const vals: SqlValue[] = [];
  for (let i = 0; i < keys.length; i++) {
    const v = evalExpr(keys[i] as Expr, row, env);
    if (v === null) return null;
    vals.push(v);
  }
  return encodeKey(vals, types);
}

function countArg(e: Expr | null, env: Env, what: 'LIMIT' | 'OFFSET'): number {
  if (e === null) return what === 'LIMIT' ? Infinity : 0;
  const v = evalExpr(e, [], env);
  if (v === null) return what === 'LIMIT' ? Infinity : 0;
  const n = Number(castValue(v, e.t, 'int8'));
  if (n < 0) {
    throw new SqlError(what === 'LIMIT' ? SqlState.invalidRowCountInLimit : SqlState.invalidRowCountInOffset,
      `${what} must not be negative`);
  }
  return n;
}

export function sortRows(rows: Row[], keys: readonly SortKey[]): Row[] {
  const withIdx = rows.map((r, i) => ({ r, i }));
  withIdx.sort((a, b) => {
    for (const k of keys) {
      const x = a.r[k.col] ?? null;
      const y = b.r[k.col] ?? null;
      let c: number;
      if (x === null || y === null) {
        if (x === y) continue;
        c = x === null ? (k.nullsFirst ? -1 : 1) : k.nullsFirst ? 1 : -1;
        return c;
      }
      c = compareValues(x, y, k.t);
      if (c !== 0) return k.desc ? -c : c;
    }
    return a.i - b.i;
  });
  return withIdx.map((x) => x.r);
}

/** The values of a set-returning function whose arguments read `row`. */
function setFunctionValues(p: SetFunctionPlan, row: Row, env: Env): SqlValue[] {
  if (p.k === 'series') return runSeries(p.start, p.stop, p.step, p.t, row, env);
  const a = evalExpr(p.arr, row, env);
  if (a === null) return [];
  if (!(a instanceof SqlArray)) throw new InvariantError('unnest of a value that is not an array');
  return [...a.items];
}

function runSeries(start: Expr, stop: Expr, step: Expr | null, t: SqlType, row: Row, env: Env): SqlValue[] {
  const a = evalExpr(start, row, env);
  const b = evalExpr(stop, row, env);
  const s = step === null ? 1 : evalExpr(step, row, env);
  if (a === null || b === null || s === null) return [];
  if (t === 'timestamp' || t === 'timestamptz') return timestampSeries(a as SqlTimestamp, b as SqlTimestamp, s as SqlInterval, t === 'timestamptz');
  const out: SqlValue[] = [];
  if (t === 'numeric') {
    const x0 = a as Numeric;
    const x1 = b as Numeric;
    const st = s instanceof Numeric ? s : Numeric.fromInteger(s as number);
    if (st.sign() === 0) throw new SqlError(SqlState.invalidParameterValue, 'step size cannot equal zero');
    for (let x = x0; st.sign() > 0 ? x.cmp(x1) <= 0 : x.cmp(x1) >= 0; x = x.add(st)) out.push(x);
    return out;
  }
  const x0 = Number(a);
  const x1 = Number(b);
  const st = Number(s);
  if (st === 0) throw new SqlError(SqlState.invalidParameterValue, 'step size cannot equal zero');
  if (st > 0) for (let x = x0; x <= x1; x += st) out.push(x);
  else for (let x = x0; x >= x1; x += st) out.push(x);
  return out;
}

function runAgg(input: Plan, groups: readonly Expr[], aggs: readonly AggSpec[], env: Env): Row[] {
  const rows = runPlan(input, env);
  const groupTypes = groups.map((g) => g.t);
  const table = new Map<string, { keys: SqlValue[]; states: AggState[] }>();
  const order: { keys: SqlValue[]; states: AggState[] }[] = [];
  for (const r of rows) {
    const keys = groups.map((g) => evalExpr(g, r, env));
    const k = groups.length === 0 ? '' : encodeKey(keys, groupTypes);
    let g = table.get(k);
    if (!g) {
      g = { keys, states: aggs.map(newAggState) };
      table.set(k, g);
      order.push(g);
    }
    feedAggs(aggs, g.states, r, env);
  }
  if (order.length === 0 && groups.length === 0) order.push({ keys: [], states: aggs.map(newAggState) });
  return order.map((g) => [...g.keys, ...aggs.map((a, i) => finishAgg(a, g.states[i] as AggState))]);
}

function runSetOp(op: 'union' | 'intersect' | 'except', all: boolean, left: Row[], right: Row[], types: readonly SqlType[]): Row[] {
  const key = (r: Row): string => encodeKey(r, types);
  if (op === 'union') {
    const rows = left.concat(right);
    if (all) return rows;
    const seen = new Set<string>();
    return rows.filter((r) => {
      const k = key(r);
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  }
  const counts = new Map<string, number>();
  for (const r of right) counts.set(key(r), (counts.get(key(r)) ?? 0) + 1);
  const out: Row[] = [];
  const emitted = new Set<string>();
  for (const r of left) {
    const k = key(r);
    const c = counts.get(k) ?? 0;
    if (op === 'intersect') {
      if (c > 0) {
        if (all) counts.set(k, c - 1);
        else if (emitted.has(k)) continue;
        emitted.add(k);
        out.push(r);
      }
    } else if (all) {
      if (c > 0) counts.set(k, c - 1);
      else out.push(r);
    } else if (c === 0 && !emitted.has(k)) {
      emitted.add(k);
      out.push(r);
    }
  }
  return out;
}
