// Comparison and arithmetic on values with PostgreSQL semantics: integer overflow raises 22003 with the
// type's own message ("integer out of range"), division by zero raises 22012, integer division truncates
// toward zero, NaN sorts above every other float, text compares by code point (the order of its UTF-8
// bytes: PostgreSQL's C collation, and the order of encoded keys, key-encoding.ts), char(n) compares
// without trailing spaces, bytea compares byte-wise (memcmp, a proper prefix first). Operands
// arrive already coerced to one type by the binder; NULL handling is the caller's (eval.ts).

import { SqlEnum, compareEnums, parseEnum } from './enum-types.ts';
import { SqlRecord, recordLengthsDiffer } from './record.ts';
import { SqlTimeTz, addTimeTzInterval, compareTimeTz } from './timetz.ts';
import { SqlError, SqlState, InvariantError } from './errors.ts';
import { Numeric } from './numeric.ts';
import { SqlDate, SqlTimestamp, addDays, dateAtTime, daysBetween } from './datetime.ts';
import { compareBytes } from './bytea.ts';
import { SqlInterval, compareIntervals } from './interval.ts';
import { SqlTime, addTimeInterval } from './time.ts';
import { SqlJsonb, compareJsonbDocs } from './json.ts';
import { addInterval, addIntervalTz, addIntervals, negateInterval, scaleInterval, timestampDiff } from './interval-arith.ts';
import { SqlArray, compareArrays } from './sql-array.ts';
import { normInt8, typeDisplayName, type SqlType, type SqlValue } from './types.ts';

export function divisionByZero(): SqlError {
  return new SqlError(SqlState.divisionByZero, 'division by zero');
}

const intRangeMsg = { int2: 'smallint out of range', int4: 'integer out of range', int8: 'bigint out of range' } as const;

export function intOutOfRange(t: 'int2' | 'int4' | 'int8'): SqlError {
  return new SqlError(SqlState.numericValueOutOfRange, intRangeMsg[t]);
}

export function checkInt(v: number, t: 'int2' | 'int4'): number {
  if (t === 'int4' ? v < -2147483648 || v > 2147483647 : v < -32768 || v > 32767) throw intOutOfRange(t);
  return v;
}

/**
 * Code-point order of two strings, -1, 0 or 1. JavaScript's `<` compares UTF-16 code units, which is
 * the same order except where the first difference is a surrogate (half of a character above U+FFFF)
 * against a character in U+E000..U+FFFF: '😀' < '\uFFFD' in code units, above it in code points.
 */
export function compareText(a: string, b: string): number {
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) return codePointRank(x) < codePointRank(y) ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** Code units from U+D800 up ranked in code-point order: surrogates above U+E000..U+FFFF. */
function codePointRank(u: number): number {
  return u >= 0xe000 ? u - 0x800 : u + 0x2000;
}

/** Whether comparison `op` holds for a compareValues result `c`. */
export function comparisonHolds(op: string, c: number): boolean {
  switch (op) {
    case '=': return c === 0;
    case '<>': return c !== 0;
    case '<': return c < 0;
    case '<=': return c <= 0;
    case '>': return c > 0;
    case '>=': return c >= 0;
    default: throw new InvariantError(`bad comparison ${op}`);
  }
}

/** Total order of two non-null values of the same SQL type. */
export function compareValues(a: SqlValue, b: SqlValue, ct?: SqlType): number {
  if (typeof a === 'number' && typeof b === 'number') {
    if (a < b) return -1;
    if (a > b) return 1;
    if (a === b) return 0;
    const an = Number.isNaN(a);
    const bn = Number.isNaN(b);
    return an && bn ? 0 : an ? 1 : -1;
  }
  if (typeof a === 'string' && typeof b === 'string') {
    if (ct === 'bpchar') {
      a = a.replace(/ +$/, '');
      b = b.replace(/ +$/, '');
    }
    return compareText(a, b);
  }
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (a instanceof Numeric) return a.cmp(b instanceof Numeric ? b : toNumeric(b));
  if (b instanceof Numeric) return toNumeric(a).cmp(b);
  if (a instanceof SqlDate && b instanceof SqlDate) return a.days - b.days;
  if (a instanceof SqlTimestamp && b instanceof SqlTimestamp) return a.micros < b.micros ? -1 : a.micros > b.micros ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return compareBytes(a, b);
  if (a instanceof SqlArray && b instanceof SqlArray) return compareArrays(a, b);
  if (a instanceof SqlRecord && b instanceof SqlRecord) return compareRecords(a, b);
  if (a instanceof SqlInterval && b instanceof SqlInterval) return compareIntervals(a, b);
  if (a instanceof SqlTime && b instanceof SqlTime) return a.micros - b.micros;
  if (a instanceof SqlTimeTz && b instanceof SqlTimeTz) return compareTimeTz(a, b);
  if (a instanceof SqlJsonb && b instanceof SqlJsonb) return compareJsonbDocs(a.value, b.value, compareText);
  // Enums by declared order; a label that binding could not type yet is read as the other side's enum's.
  if (a instanceof SqlEnum) return compareEnums(a, b instanceof SqlEnum ? b : parseEnum(a.type, String(b)));
  if (b instanceof SqlEnum) return compareEnums(parseEnum(b.type, String(a)), b);
  throw new InvariantError(`cannot compare ${String(a)} with ${String(b)}`);
}

function toNumeric(v: SqlValue): Numeric {
  if (typeof v === 'number') return Number.isInteger(v) ? Numeric.fromInteger(v) : (Numeric.fromFloat(v) ?? Numeric.zero);
  if (typeof v === 'bigint') return Numeric.fromInteger(v);
  if (v instanceof Numeric) return v;
  throw new InvariantError(`not a number: ${String(v)}`);
}

function int8Of(v: SqlValue): number | bigint {
  if (typeof v === 'number' || typeof v === 'bigint') return v;
  throw new InvariantError(`not an integer: ${String(v)}`);
}

function int8Result(r: bigint): number | bigint {
  const n = normInt8(r);
  if (n === null) throw intOutOfRange('int8');
  return n;
}

function arithInt8(op: '+' | '-' | '*' | '/' | '%', a: number | bigint, b: number | bigint): number | bigint {
  if ((op === '/' || op === '%') && (b === 0 || b === 0n)) throw divisionByZero();
  if (typeof a === 'number' && typeof b === 'number') {
    let r: number;
    switch (op) {
      case '+': r = a + b; break;
      case '-': r = a - b; break;
      case '*': r = a * b; break;
      case '/':
        if (Math.abs(a) < 2147483648 && Math.abs(b) < 2147483648) return Math.trunc(a / b) + 0;
        r = NaN;
        break;
      case '%':
        return (a % b) + 0;
    }
    if (Number.isSafeInteger(r)) return r;
  }
  const A = BigInt(a);
  const B = BigInt(b);
  switch (op) {
    case '+': return int8Result(A + B);
    case '-': return int8Result(A - B);
    case '*': return int8Result(A * B);
    case '/': return int8Result(A / B);
    case '%': return int8Result(A % B);
  }
}

function floatResult(r: number, a: number, b: number, t: 'float4' | 'float8'): number {
  const v = t === 'float4' ? Math.fround(r) : r;
  if (!Number.isFinite(v) && Number.isFinite(a) && Number.isFinite(b)) {
    throw new SqlError(SqlState.numericValueOutOfRange, 'value out of range: overflow');
  }
  if (v === 0 && r !== 0 && t === 'float4') throw new SqlError(SqlState.numericValueOutOfRange, 'value out of range: underflow');
  return v;
}

/** Arithmetic on two non-null values; `t` is the result type chosen by the binder. */
export function arith(op: '+' | '-' | '*' | '/' | '%', a: SqlValue, b: SqlValue, t: SqlType): SqlValue {
  // Every operator with an interval, a timestamp or a time operand has one of these result types (lower-datetime-arith.ts).
  if (t === 'interval' || t === 'timestamp' || t === 'timestamptz' || t === 'time' || t === 'timetz') return intervalArith(op, a, b, t);
  switch (t) {
    case 'int2':
    case 'int4': {
      if (typeof a !== 'number' || typeof b !== 'number') break;
      let r: number;
      switch (op) {
        case '+': r = a + b; break;
        case '-': r = a - b; break;
        case '*': r = a * b; break;
        case '/':
          if (b === 0) throw divisionByZero();
          r = Math.trunc(a / b) + 0;
          break;
        case '%':
          if (b === 0) throw divisionByZero();
          r = (a % b) + 0;
          break;
      }
      return checkInt(r, t);
    }
    case 'int8':
      return arithInt8(op, int8Of(a), int8Of(b));
    case 'float4':
    case 'float8': {
      if (typeof a !== 'number' || typeof b !== 'number') break;
      switch (op) {
        case '+': return floatResult(a + b, a, b, t);
        case '-': return floatResult(a - b, a, b, t);
        case '*': return floatResult(a * b, a, b, t);
        case '/':
          if (b === 0) throw divisionByZero();
          return floatResult(a / b, a, b, t);
        case '%':
          throw new SqlError(SqlState.undefinedFunction, 'operator does not exist: double precision % double precision');
      }
      break;
    }
    case 'numeric': {
      const x = toNumeric(a);
      const y = toNumeric(b);
      switch (op) {
        case '+': return x.add(y);
        case '-': return x.sub(y);
        case '*': return x.mul(y);
        case '/':
          if (y.coef === 0n) throw divisionByZero();
          return x.div(y);
        case '%':
          if (y.coef === 0n) throw divisionByZero();
          return x.mod(y);
      }
      break;
    }
    case 'date':
      // date +/- integer
      if (a instanceof SqlDate && typeof b === 'number') {
        if (op === '+') return addDays(a, b);
        if (op === '-') return addDays(a, -b);
      }
      if (typeof a === 'number' && b instanceof SqlDate && op === '+') return addDays(b, a);
      break;
    default:
      break;
  }
  if (a instanceof SqlDate && b instanceof SqlDate && op === '-') return daysBetween(a, b);
  throw new InvariantError(`bad operands for ${op} at type ${t}: ${String(a)}, ${String(b)}`);
}

/** The operators lower-datetime-arith.ts binds: operands already of their types. */
function intervalArith(op: '+' | '-' | '*' | '/' | '%', a: SqlValue, b: SqlValue, t: SqlType): SqlValue {
  if (op === '+' || op === '-') {
    const sign = op === '+' ? 1 : -1;
    if (a instanceof SqlTime && b instanceof SqlInterval) return addTimeInterval(a, b, sign);
    if (a instanceof SqlTimeTz && b instanceof SqlInterval) return addTimeTzInterval(a, b, sign);
    if (a instanceof SqlInterval && b instanceof SqlTimeTz && op === '+') return addTimeTzInterval(b, a, 1);
    // date + timetz (and timetz + date): the instant of that time of day in its zone.
    if (a instanceof SqlDate && b instanceof SqlTimeTz && op === '+') return dateAtTime(a, b.utc);
    if (a instanceof SqlTimeTz && b instanceof SqlDate && op === '+') return dateAtTime(b, a.utc);
    if (a instanceof SqlInterval && b instanceof SqlTime && op === '+') return addTimeInterval(b, a, 1);
    if (a instanceof SqlTime && b instanceof SqlTime && op === '-') return new SqlInterval(0, 0, BigInt(a.micros - b.micros));
    if (a instanceof SqlDate && b instanceof SqlTime) return dateAtTime(a, sign * b.micros);
    if (a instanceof SqlTime && b instanceof SqlDate && op === '+') return dateAtTime(b, a.micros);
    // timestamptz's months and days go by the session zone's wall clock.
    const add = t === 'timestamptz' ? addIntervalTz : addInterval;
    if (a instanceof SqlTimestamp && b instanceof SqlInterval) return add(a, b, sign);
    if (a instanceof SqlInterval && b instanceof SqlTimestamp && op === '+') return add(b, a, 1);
    if (a instanceof SqlTimestamp && b instanceof SqlTimestamp && op === '-') return timestampDiff(a, b);
    if (a instanceof SqlInterval && b instanceof SqlInterval) return addIntervals(a, b, sign);
  }
  if (op === '*' || op === '/') {
    if (a instanceof SqlInterval && typeof b === 'number') return scaleInterval(a, b, op);
    if (typeof a === 'number' && b instanceof SqlInterval && op === '*') return scaleInterval(b, a, op);
  }
  throw new InvariantError(`bad operands for interval ${op}: ${String(a)}, ${String(b)}`);
}

export function negate(v: SqlValue, t: SqlType): SqlValue {
  if (v instanceof SqlInterval) return negateInterval(v);
  if (v instanceof Numeric) return v.neg();
  if (typeof v === 'bigint') return int8Result(-v);
  if (typeof v === 'number') {
    if (t === 'int2' || t === 'int4') return checkInt(-v, t);
    if (t === 'int8') return arithInt8('-', 0, v);
    return -v;
  }
  throw new InvariantError(`cannot negate ${String(v)}`);
}

/**
 * btrecordcmp: field by field, a NULL field after every value and equal to another NULL; records of
 * different lengths or with fields of different types at one position do not compare (42804).
 */
function compareRecords(a: SqlRecord, b: SqlRecord): number {
  if (a.length !== b.length) throw recordLengthsDiffer();
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [a.items[i] ?? null, b.items[i] ?? null];
    const [tx, ty] = [a.types[i] ?? 'unknown', b.types[i] ?? 'unknown'];
    if (tx !== ty && !(tx === 'unknown' || ty === 'unknown')) {
      throw new SqlError(SqlState.datatypeMismatch, `cannot compare dissimilar column types ${typeDisplayName[tx]} and ${typeDisplayName[ty]} at record column ${i + 1}`);
    }
    if (x === null || y === null) {
      if (x === y) continue;
      return x === null ? 1 : -1;
    }
    const c = compareValues(x, y, tx);
    if (c !== 0) return c < 0 ? -1 : 1;
  }
  return 0;
}
