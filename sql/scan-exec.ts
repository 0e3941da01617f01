// Executes one ScanNode against the context's row source and records what PROTOCOL §4.3 asks for: the
// key range is computed from the node's equality prefix and bounds (evaluated now, so parameters and
// outer rows are concrete), rows in the range are checked against the residual predicate, matching rows
// go to the read set, every scanned version to `scanned`, and the range with the residual filter, bound
// to constants, to the predicates (the range enforces the conjuncts it came from exactly, plan-access.ts,
// so within it the residual selects the very rows the whole filter does; a range read's predicate is
// evaluated again at every replica that validates its transaction, and most have no residual at all).
// A scan that pins the full primary key is a point read: it records the key even when the row is absent
// or fails the predicate.

import type { ScanNode } from './plan.ts';
import type { Env } from './eval.ts';
import { evalExpr } from './eval.ts';
import { mapExpr, someExpr, type Expr } from './expr.ts';
import { encodeKey, encodeKeyValue, prefixEnd } from './key-encoding.ts';
import type { Row, SqlValue } from './types.ts';
import type { RowPrefilter, ScannedRow } from './row-source.ts';
import { InvariantError, SqlError, SqlState } from './errors.ts';
import { castValue } from './cast.ts';
import { SqlArray } from './sql-array.ts';
import { indexEntryPrefix } from './memory-store.ts';
import { rowTest, type RowTest } from './row-test.ts';

/**
 * Replaces parameters, outer references and now() with constants: the form a replica stores. `x = ANY
 * (array)` and `x <> ALL (array)` whose array is then known become the IN / NOT IN list of its elements
 * (the same truth value, NULL elements included), so SemanticCC checks a writer's row against the list
 * as it does for a written IN list; an empty or NULL array becomes the constant it evaluates to.
 */
export function bindExpr(e: Expr, env: Env): Expr {
  return mapExpr(e, (x) => {
    switch (x.k) {
      case 'anyarr': {
        const arr = bindExpr(x.arr, env);
        const l = bindExpr(x.e, env);
        if (arr.k !== 'const') return { ...x, e: l, arr };
        const a = arr.v;
        if (a === null) return { k: 'const', v: null, t: 'bool' };
        if (!(a instanceof SqlArray)) throw new InvariantError('ANY/ALL over a value that is not an array');
        if (a.length === 0) return { k: 'const', v: x.all, t: 'bool' };
        const inList = (x.op === '=' && !x.all) || (x.op === '<>' && x.all);
        if (!inList) return { ...x, e: l, arr };
        return { k: 'in', e: l, list: a.items.map((v) => ({ k: 'const', v, t: a.elementType })), neg: x.all, ct: x.ct, t: 'bool' };
      }
      case 'param':
      case 'outer':
        return { k: 'const', v: evalExpr(x, [], env), t: x.t };
      case 'func':
        if (x.args.length === 0 && env.ctx !== null) return { k: 'const', v: evalExpr(x, [], env), t: x.t };
        return undefined;
      default:
        return undefined;
    }
  });
}

function limitValue(e: Expr | null, env: Env): number {
  if (e === null) return Infinity;
  const v = evalExpr(e, [], env);
  if (v === null) return Infinity;
  const n = Number(castValue(v, e.t, 'int8'));
  if (n < 0) throw new SqlError(SqlState.invalidRowCountInLimit, 'LIMIT must not be negative');
  return n;
}

/** The residual's test as a RowPrefilter over the table columns it reads. */
function prefilterOf(residual: Expr, test: RowTest): RowPrefilter {
  const columns = new Set<number>();
  someExpr(residual, (x) => {
    if (x.k === 'col') columns.add(x.i);
    return false;
  });
  return { columns: [...columns].sort((a, b) => a - b), accepts: test };
}

export function runScan(s: ScanNode, env: Env): Row[] {
  const ctx = env.ctx;
  if (ctx === null) throw new InvariantError('scan without an execution context');
  const keyTypes = s.index === null ? s.table.pkTypes : s.index.types;
  const n = s.eq.length;
  let empty = false;
  let lo = '';
  let hi: string | null = null;
  if (n > 0) {
    const vals: SqlValue[] = new Array<SqlValue>(n);
    for (let i = 0; i < n; i++) {
      const e = s.eq[i] as Expr;
      const v = evalExpr(e, [], env);
      if (v === null) empty = true;
      vals[i] = v;
    }
    if (!empty) {
      lo = encodeKey(vals, keyTypes);
      hi = prefixEnd(lo);
    }
  }
  if (!empty && (s.lo !== null || s.hi !== null)) {
    const prefix = lo;
    const t = keyTypes[n];
    if (t === undefined) throw new InvariantError('range bound beyond the key');
    if (s.lo !== null) {
      const v = evalExpr(s.lo.e, [], env);
      if (v === null) empty = true;
      else {
        const enc = prefix + encodeKeyValue(v, t);
        lo = s.lo.inclusive ? enc : prefixEnd(enc);
      }
    }
    if (s.hi !== null) {
      const v = evalExpr(s.hi.e, [], env);
      if (v === null) empty = true;
      else {
        const enc = prefix + encodeKeyValue(v, t);
        hi = s.hi.inclusive ? prefixEnd(enc) : enc;
      }
    } else {
      hi = prefix + '\x03'; // below the NULLs of the bounded column
    }
  }
  const rec = ctx.recorder;
  const record = (from: string, to: string | null): void => {
    rec?.predicates.push({
      tableId: s.table.id, indexId: s.index?.id ?? null, lo: from, hi: to,
      predicate: s.residual === null ? null : bindExpr(s.residual, env),
    });
  };
  const out: Row[] = [];
  if (empty) {
    record('', '');
    return out;
  }
  const residual = s.residual;
  if (s.pinsPk && s.index === null) {
    const r = ctx.source.get(s.table, lo);
    const ok = r !== null && (residual === null || evalExpr(residual, r.row, env) === true);
    if (rec !== null && (r === null ? ctx.source.ownWrite?.(s.table, lo) !== true : !r.own)) {
      if (r !== null && rec.keepScanned) rec.scanned.push({ tableId: s.table.id, key: lo, version: r.version });
      rec.reads.push({ tableId: s.table.id, key: lo, version: r === null ? null : r.version });
    }
    record(lo, hi);
    if (ok && limitValue(s.limit, env) > 0) out.push(r.row);
    return out;
  }
  if (lo !== '' && hi !== null && lo >= hi) {
    record('', '');
    return out;
  }
  const limit = limitValue(s.limit, env);
  if (limit === 0) {
    record('', '');
    return out;
  }
  // Rows failing the residual may be left out by the source (no row built for them) unless the recorder
  // keeps every scanned row.
  let test: RowTest | null = null;
  let prefilter: RowPrefilter | undefined;
  if (residual !== null) {
    test = rowTest(residual, env);
    if (rec === null || !rec.keepScanned) prefilter = prefilterOf(residual, test);
  }
  const rows: Iterable<ScannedRow> = ctx.source.scan({
    table: s.table, index: s.index, lo, hi, predicate: null, mode: s.mode, reverse: s.reverse,
    ...(prefilter === undefined ? {} : { prefilter }),
  });
  const tableId = s.table.id;
  for (const r of rows) {
    const ok = test === null || test(r.row);
    if (rec !== null && !r.own) {
      // A scanned row of this table is its own read record (row-source.ts): no object per row.
      const record = r.tableId === tableId ? r : { tableId, key: r.key, version: r.version };
      if (rec.keepScanned) rec.scanned.push(record);
      if (ok) rec.reads.push(record);
    }
    if (ok) {
      out.push(r.row);
      if (out.length >= limit) {
        // Stopped early: the predicate covers only the part of the range actually scanned.
        if (rec !== null) {
          const at = s.index === null ? r.key : (indexEntryPrefix(s.index, r.row) ?? '') + r.key;
          if (s.reverse) record(at, hi);
          else record(lo, at + '\x00');
        }
        return out;
      }
    }
  }
  record(lo, hi);
  return out;
}
