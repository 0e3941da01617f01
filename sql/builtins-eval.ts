// Evaluation of the built-in functions lower-builtins.ts binds, with PostgreSQL 15's results and errors.
// All are pure: the SHA-2 digests are @noble/hashes' (no I/O, the same bytes on every replica).

import { sha224, sha256, sha384, sha512 } from '@noble/hashes/sha2.js';
import type { Expr } from './expr.ts';
import { evalExpr, strictArgs, type Env } from './eval.ts';
import { SqlError, SqlState, InvariantError } from './errors.ts';
import { formatText } from './value-text.ts';
import { formatString } from './format.ts';
import { quoteLiteral } from './quote.ts';
import { sizeBytes, sizePretty, sizePrettyNumeric } from './size-pretty.ts';
import { Numeric, rint } from './numeric.ts';
import { SqlArray } from './sql-array.ts';
import { SqlDate, SqlTimestamp, checkedTimestamp, isFiniteDate, isFiniteTimestamp } from './datetime.ts';
import { makeInterval, type SqlInterval } from './interval.ts';
import { intOutOfRange } from './ops.ts';
import { toDate } from './to-date.ts';
import { FLOAT_BINARY_FUNCTIONS, FLOAT_UNARY_FUNCTIONS, evalFloatFunction } from './float-math.ts';
import { numericLog, numericMinScale, numericScale } from './numeric-math.ts';
import { addInterval, addIntervalTz } from './interval-arith.ts';
import { normInt8, type Row, type SqlValue } from './types.ts';

type FuncExpr = Extract<Expr, { k: 'func' }>;

export const builtinFunctions: ReadonlySet<string> = new Set([
  'format', 'format_variadic', 'quote_nullable', 'quote_nullable_any', 'quote_literal_any', 'pg_size_pretty', 'pg_size_pretty_numeric',
  'pg_size_bytes', 'sha224', 'sha256', 'sha384', 'sha512', 'date_bin', 'translate', 'starts_with', 'chr', 'ascii', 'to_hex',
  'string_to_array', 'gcd', 'lcm', 'factorial', 'trim_scale', 'cbrt', 'width_bucket', 'num_nulls', 'num_nonnulls',
  'num_nulls_variadic', 'num_nonnulls_variadic', 'isfinite', 'make_interval', 'to_date', 'pi', 'scale', 'min_scale', 'log_base',
  ...FLOAT_UNARY_FUNCTIONS, ...FLOAT_BINARY_FUNCTIONS,
]);

const digests: Record<string, (b: Uint8Array) => Uint8Array> = { sha224, sha256, sha384, sha512 };

/** A value's text by its type's output function (NULL stays null; a boolean is t or f). */
const textOf = (v: SqlValue, e: Expr): string | null => (v === null ? null : formatText(v, e.t));

export function evalBuiltinFunction(e: FuncExpr, row: Row, env: Env): SqlValue {
  const a = e.args;
  // Functions that do not simply propagate NULL.
  switch (e.fn) {
    case 'format': {
      const fmt = evalExpr(a[0] as Expr, row, env);
      if (fmt === null) return null;
      return formatString(String(fmt), a.slice(1).map((x) => textOf(evalExpr(x, row, env), x)));
    }
    case 'format_variadic': {
      const fmt = evalExpr(a[0] as Expr, row, env);
      if (fmt === null) return null;
      // A NULL array is no arguments.
      const arr = evalExpr(a[1] as Expr, row, env);
      const items = arr instanceof SqlArray ? arr.items.map((x) => (x === null ? null : formatText(x, arr.elementType))) : [];
      return formatString(String(fmt), items);
    }
    case 'quote_nullable':
    case 'quote_nullable_any': {
      const v = evalExpr(a[0] as Expr, row, env);
      return v === null ? 'NULL' : quoteLiteral(String(v));
    }
    case 'num_nulls':
    case 'num_nonnulls': {
      const nulls = a.filter((x) => evalExpr(x, row, env) === null).length;
      return e.fn === 'num_nulls' ? nulls : a.length - nulls;
    }
    case 'num_nulls_variadic':
    case 'num_nonnulls_variadic': {
      const arr = evalExpr(a[0] as Expr, row, env);
      if (!(arr instanceof SqlArray)) return null;
      const nulls = arr.items.filter((x) => x === null).length;
      return e.fn === 'num_nulls_variadic' ? nulls : arr.items.length - nulls;
    }
    case 'string_to_array': {
      const s = evalExpr(a[0] as Expr, row, env);
      if (s === null) return null;
      const delim = evalExpr(a[1] as Expr, row, env);
      const nullText = a.length > 2 ? evalExpr(a[2] as Expr, row, env) : null;
      return stringToArray(String(s), delim === null ? null : String(delim), nullText === null ? null : String(nullText));
    }
    default:
      break;
  }
  const v = strictArgs(a, row, env);
  if (v === null) return null;
  const s0 = (): string => String(v[0]);
  switch (e.fn) {
    case 'quote_literal_any':
      return quoteLiteral(s0());
    case 'pg_size_pretty':
      return sizePretty(BigInt(v[0] as number | bigint));
    case 'pg_size_pretty_numeric':
      return sizePrettyNumeric(v[0] as Numeric);
    case 'pg_size_bytes':
      return normInt8(sizeBytes(s0()));
    case 'sha224': case 'sha256': case 'sha384': case 'sha512':
      return (digests[e.fn] as (b: Uint8Array) => Uint8Array)(v[0] as Uint8Array);
    case 'date_bin':
      return dateBin(v[0] as SqlInterval, v[1] as SqlTimestamp, v[2] as SqlTimestamp);
    case 'translate':
      return translate(s0(), String(v[1]), String(v[2]));
    case 'starts_with':
      return s0().startsWith(String(v[1]));
    case 'chr':
      return chr(v[0] as number);
    case 'ascii':
      return s0().codePointAt(0) ?? 0;
    case 'to_hex': {
      // Two's complement of the argument's width.
      const bits = (a[0] as Expr).t === 'int8' ? 64 : 32;
      return BigInt.asUintN(bits, BigInt(v[0] as number | bigint)).toString(16);
    }
    case 'gcd':
    case 'lcm':
      return gcdLcm(e.fn, v[0] ?? null, v[1] ?? null, e.t);
    case 'factorial':
      return factorial(BigInt(v[0] as number | bigint));
    case 'trim_scale':
      return (v[0] as Numeric).stripTrailingZeros();
    case 'cbrt':
      return Math.cbrt(v[0] as number);
    case 'scale':
      return numericScale(v[0] as Numeric);
    case 'min_scale':
      return numericMinScale(v[0] as Numeric);
    case 'log_base':
      return numericLog(v[0] as Numeric, v[1] as Numeric);
    case 'width_bucket':
      return widthBucket(v[0] ?? null, v[1] ?? null, v[2] ?? null, v[3] as number);
    case 'to_date':
      return toDate(s0(), String(v[1]));
    case 'isfinite':
      // PostgreSQL 15's intervals are all finite.
      if (v[0] instanceof SqlDate) return isFiniteDate(v[0]);
      return v[0] instanceof SqlTimestamp ? isFiniteTimestamp(v[0]) : true;
    case 'make_interval': {
      const [years = 0, months = 0, weeks = 0, days = 0, hours = 0, mins = 0, secs = 0] = v as number[];
      if (!Number.isFinite(secs)) throw new SqlError(SqlState.datetimeFieldOverflow, 'interval out of range');
      return makeInterval(years * 12 + months, weeks * 7 + days, BigInt(hours) * 3_600_000_000n + BigInt(mins) * 60_000_000n + BigInt(rint(secs * 1_000_000)));
    }
    default:
      if (e.fn === 'pi' || FLOAT_UNARY_FUNCTIONS.has(e.fn) || FLOAT_BINARY_FUNCTIONS.has(e.fn)) return evalFloatFunction(e.fn, v as number[]);
      throw new InvariantError(`no evaluation for built-in function ${e.fn}`);
  }
}


/**
 * date_bin: the start of the stride-wide bin, counted from origin, that holds the timestamp. The stride
 * has no months (0A000) and is positive (22008). An infinite timestamp is its own bin, whatever the
 * stride; an infinite origin is 22008.
 */
function dateBin(stride: SqlInterval, t: SqlTimestamp, origin: SqlTimestamp): SqlTimestamp {
  if (!isFiniteTimestamp(t)) return t;
  if (!isFiniteTimestamp(origin)) throw new SqlError(SqlState.datetimeFieldOverflow, 'origin out of range');
  if (stride.months !== 0) throw new SqlError(SqlState.featureNotSupported, 'timestamps cannot be binned into intervals containing months or years');
  const width = BigInt(stride.days) * 86_400_000_000n + stride.micros;
  if (width <= 0n) throw new SqlError(SqlState.datetimeFieldOverflow, 'stride must be greater than zero');
  const diff = t.micros - origin.micros;
  let bins = diff / width;
  if (diff % width !== 0n && diff < 0n) bins -= 1n;
  return checkedTimestamp(origin.micros + bins * width);
}

/** translate: each character found in `from` becomes the one at its (first) position in `to`, or is dropped past its end. */
function translate(s: string, from: string, to: string): string {
  const f = Array.from(from);
  const t = Array.from(to);
  let out = '';
  for (const c of s) {
    const i = f.indexOf(c);
    out += i < 0 ? c : (t[i] ?? '');
  }
  return out;
}

function chr(n: number): string {
  if (n < 0) throw new SqlError(SqlState.invalidParameterValue, 'character number must be positive');
  if (n === 0) throw new SqlError('54000', 'null character not permitted');
  if (n > 0x10ffff) throw new SqlError('54000', `requested character too large for encoding: ${n}`);
  if (n >= 0xd800 && n <= 0xdfff) throw new SqlError('54000', `requested character not valid for encoding: ${n}`);
  return String.fromCodePoint(n);
}

/**
 * string_to_array: a NULL delimiter splits into characters, an empty one keeps the string whole; an
 * empty string is an empty array; elements equal to `nullText` are NULL.
 */
function stringToArray(s: string, delim: string | null, nullText: string | null): SqlArray {
  const parts = s === '' ? [] : delim === null ? Array.from(s) : delim === '' ? [s] : s.split(delim);
  return new SqlArray('text', parts.map((p) => (nullText !== null && p === nullText ? null : p)));
}

const bigAbs = (x: bigint): bigint => (x < 0n ? -x : x);

function gcdOf(x: bigint, y: bigint): bigint {
  let [p, q] = [bigAbs(x), bigAbs(y)];
  while (q !== 0n) [p, q] = [q, p % q];
  return p;
}

/** gcd and lcm over integers of the result type (22003 past it) or numerics at the larger scale. */
function gcdLcm(fn: 'gcd' | 'lcm', x: SqlValue, y: SqlValue, t: string): SqlValue {
  if (x instanceof Numeric && y instanceof Numeric) {
    const scale = Math.max(x.scale, y.scale);
    const [p, q] = [x.round(scale).coef, y.round(scale).coef];
    const g = gcdOf(p, q);
    return new Numeric(fn === 'gcd' ? g : g === 0n ? 0n : bigAbs((p / g) * q), scale);
  }
  const [p, q] = [BigInt(x as number | bigint), BigInt(y as number | bigint)];
  const g = gcdOf(p, q);
  const r = fn === 'gcd' ? g : g === 0n ? 0n : bigAbs((p / g) * q);
  const max = t === 'int8' ? (1n << 63n) - 1n : 2147483647n;
  if (r > max) throw intOutOfRange(t === 'int8' ? 'int8' : 'int4');
  return t === 'int8' ? normInt8(r) : Number(r);
}

function factorial(n: bigint): Numeric {
  if (n < 0n) throw new SqlError(SqlState.numericValueOutOfRange, 'factorial of a negative number is undefined');
  if (n > 32177n) throw new SqlError(SqlState.numericValueOutOfRange, 'value overflows numeric format');
  let r = 1n;
  for (let i = 2n; i <= n; i++) r *= i;
  return new Numeric(r, 0);
}

/** width_bucket over double precision or numeric bounds: 0 below, count + 1 at or past the upper bound. */
function widthBucket(op: SqlValue, b1: SqlValue, b2: SqlValue, count: number): number {
  const err = (m: string): SqlError => new SqlError('2201G', m);
  if (count <= 0) throw err('count must be greater than zero');
  if (op instanceof Numeric && b1 instanceof Numeric && b2 instanceof Numeric) {
    const c = b1.cmp(b2);
    if (c === 0) throw err('lower bound cannot equal upper bound');
    const [lo, hi, x] = c < 0 ? [b1, b2, op] : [b2.neg(), b1.neg(), op.neg()];
    if (x.cmp(lo) < 0) return 0;
    if (x.cmp(hi) >= 0) return over(count);
    return Number(x.sub(lo).mul(Numeric.fromInteger(count)).divTrunc(hi.sub(lo)).coef) + 1;
  }
  const [x, lo0, hi0] = [op as number, b1 as number, b2 as number];
  if (Number.isNaN(x) || Number.isNaN(lo0) || Number.isNaN(hi0)) throw err('operand, lower bound, and upper bound cannot be NaN');
  if (!Number.isFinite(lo0) || !Number.isFinite(hi0)) throw err('lower and upper bounds must be finite');
  if (lo0 === hi0) throw err('lower bound cannot equal upper bound');
  const up = lo0 < hi0;
  if (up ? x < lo0 : x > lo0) return 0;
  if (up ? x >= hi0 : x <= hi0) return over(count);
  const r = Math.trunc(up ? (count * (x - lo0)) / (hi0 - lo0) : (count * (lo0 - x)) / (lo0 - hi0)) + 1;
  return Math.min(r, count);
}

/**
 * generate_series over timestamps: start, then each value plus the step (so month steps clamp at month
 * ends from the previous value, as PostgreSQL's), while not past stop in the step's direction.
 * Infinities: a series that starts past its stop is empty. One that starts at an infinity and not past
 * its stop never ends in PostgreSQL (an infinity plus a step is itself) and is 22023 here; one whose stop
 * is an infinity the steps go toward ends only when a value leaves the range, PostgreSQL's 22008 once it
 * has made every value before, here at once (this builds the whole series first, as a PostgreSQL scan
 * of it in FROM does).
 */
export function timestampSeries(start: SqlTimestamp, stop: SqlTimestamp, step: SqlInterval, tz = false): SqlTimestamp[] {
  const add = tz ? addIntervalTz : addInterval;
  const sign = step.span() > 0n ? 1 : step.span() < 0n ? -1 : 0;
  if (sign === 0) throw new SqlError(SqlState.invalidParameterValue, 'step size cannot equal zero');
  const started = sign > 0 ? start.micros <= stop.micros : start.micros >= stop.micros;
  if (started && !isFiniteTimestamp(start)) throw new SqlError(SqlState.invalidParameterValue, 'generate_series would not end: its start is infinite');
  if (started && !isFiniteTimestamp(stop)) throw new SqlError(SqlState.datetimeFieldOverflow, 'timestamp out of range');
  const out: SqlTimestamp[] = [];
  for (let t = start; sign > 0 ? t.micros <= stop.micros : t.micros >= stop.micros; t = add(t, step, 1)) out.push(t);
  return out;
}

function over(count: number): number {
  if (count >= 2147483647) throw intOutOfRange('int4');
  return count + 1;
}
