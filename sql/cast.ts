// Casts between SQL types with PostgreSQL's rules: numeric-to-integer rounds half away from zero,
// float-to-integer rounds half to even (rint), range checks raise 22003, text input goes through the
// type's input function (22P02 and friends), char(n) loses trailing spaces when cast to text, and
// bool <-> integer and text conversions follow PostgreSQL. `canCast` tells the binder what exists.

import { SqlError, SqlState } from './errors.ts';
import { Numeric, rint } from './numeric.ts';
import { SqlDate, SqlTimestamp, dateToTimestamp, instantOfLocal, isFiniteTimestamp, localOf, timestampToDate } from './datetime.ts';
import { applyTypmod } from './typmod.ts';
import { formatText, parseText } from './value-text.ts';
import { checkInt, intOutOfRange } from './ops.ts';
import { SqlArray } from './sql-array.ts';
import { SqlInterval } from './interval.ts';
import { SqlTime, roundTime, timeToInterval, wrapTime } from './time.ts';
import { SqlJson, SqlJsonb, jsonbKind, parseJsonb } from './json.ts';
import { arrayElementType, truncateName, isArrayType, isVectorType, vectorArrayType, isDateTimeType, isIntegerType, isStringType, normInt8, typeDisplayName, typeOfValue, type SqlType, type SqlValue } from './types.ts';
import type { EnumTypeDef } from './enum-types.ts';
import { enumCast } from './lower-enum.ts';
import { SqlRecord, anonymousRecordInput } from './record.ts';
import { SqlTimeTz, roundTimeTz, timeOfDayTz, timeToTimeTz } from './timetz.ts';

const numericOrder: Partial<Record<SqlType, number>> = { int2: 1, int4: 2, int8: 3, numeric: 4, float4: 5, float8: 6 };

export function canCast(from: SqlType, to: SqlType): boolean {
  if (from === to || from === 'unknown' || isStringType(to) || isStringType(from)) return true;
  if (numericOrder[from] !== undefined && numericOrder[to] !== undefined) return true;
  if ((from === 'bool' && to === 'int4') || (from === 'int4' && to === 'bool')) return true;
  if (isDateTimeType(from) && isDateTimeType(to)) return true;
  // Array to array element by element (int4[] to int8[]), as PostgreSQL's array coercions.
  if (isArrayType(from) && isArrayType(to)) return canCast(arrayElementType(from), arrayElementType(to));
  // time of a timestamp or an interval (assignment casts), time as an interval (implicit).
  if (to === 'time' && (from === 'timestamp' || from === 'timestamptz' || from === 'interval')) return true;
  if (from === 'time' && to === 'interval') return true;
  // time with time zone of a time (implicit) or a timestamptz, and its time of day (timetz_time).
  if (to === 'timetz' && (from === 'time' || from === 'timestamptz')) return true;
  if (from === 'timetz' && to === 'time') return true;
  // A vector to its array (binary coercible in PostgreSQL), and from there to other arrays.
  if (isVectorType(from) && isArrayType(to)) return canCast(arrayElementType(vectorArrayType(from)), arrayElementType(to));
  if ((from === 'json' && to === 'jsonb') || (from === 'jsonb' && to === 'json')) return true;
  // jsonb's scalar casts (jsonb_numeric, jsonb_int4, jsonb_bool, ...); json has none.
  if (from === 'jsonb') return numericOrder[to] !== undefined || to === 'bool';
  return false;
}

export function cannotCast(from: SqlType, to: SqlType): SqlError {
  return new SqlError(SqlState.cannotCoerce, `cannot cast type ${typeDisplayName[from]} to ${typeDisplayName[to]}`);
}

function toInt(v: SqlValue, to: 'int2' | 'int4' | 'int8'): number | bigint {
  let b: bigint;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw intOutOfRange(to);
    const r = rint(v);
    if (to !== 'int8') return checkInt(r, to);
    if (Number.isSafeInteger(r)) return r;
    if (r < -9223372036854775808 || r >= 9223372036854775808) throw intOutOfRange(to);
    b = BigInt(r);
  } else if (typeof v === 'bigint') {
    b = v;
  } else if (v instanceof Numeric) {
    b = v.toBigIntRounded();
  } else if (typeof v === 'boolean') {
    return v ? 1 : 0;
  } else {
    throw new SqlError(SqlState.cannotCoerce, `cannot cast ${String(v)} to ${typeDisplayName[to]}`);
  }
  const n = normInt8(b);
  if (n === null) throw intOutOfRange(to);
  if (to === 'int8') return n;
  if (typeof n === 'bigint') throw intOutOfRange(to);
  return checkInt(n, to);
}

function toFloat(v: SqlValue, to: 'float4' | 'float8'): number {
  let x: number;
  if (typeof v === 'number') x = v;
  else if (typeof v === 'bigint') x = Number(v);
  else if (v instanceof Numeric) x = v.toNumber();
  else throw new SqlError(SqlState.cannotCoerce, `cannot cast ${String(v)} to ${typeDisplayName[to]}`);
  if (to === 'float4') {
    const f = Math.fround(x);
    if (!Number.isFinite(f) && Number.isFinite(x)) throw new SqlError(SqlState.numericValueOutOfRange, 'value out of range: overflow');
    return f;
  }
  return x;
}

function toNumericValue(v: SqlValue, from: SqlType): Numeric {
  if (v instanceof Numeric) return v;
  if (typeof v === 'bigint') return Numeric.fromInteger(v);
  if (typeof v === 'number') {
    if (isIntegerType(from) || (from !== 'float4' && from !== 'float8' && Number.isInteger(v))) return Numeric.fromInteger(v);
    const n = Numeric.fromFloat(v, from === 'float4' ? 6 : 15);
    if (n === null) throw new SqlError(SqlState.featureNotSupported, `cannot convert ${v} to numeric`);
    return n;
  }
  throw new SqlError(SqlState.cannotCoerce, `cannot cast ${String(v)} to numeric`);
}

/** Text form used by casts to text: like output, except booleans print as 'true'/'false'. */
function castToText(v: SqlValue, from: SqlType): string {
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (from === 'bpchar' && typeof v === 'string') return v.replace(/ +$/, '');
  return formatText(v, from);
}

/** json <-> jsonb, and jsonb scalars to numbers and booleans as PostgreSQL 15 (22023 for any other kind). */
function castFromJson(v: SqlJson | SqlJsonb, from: SqlType, to: SqlType): SqlValue {
  if (to === 'jsonb') return v instanceof SqlJsonb ? v : parseJsonb(v.text);
  if (to === 'json') return v instanceof SqlJson ? v : new SqlJson(v.toString());
  if (!(v instanceof SqlJsonb) || !canCast('jsonb', to)) throw cannotCast(from, to);
  const x = v.value;
  const kind = jsonbKind(x);
  if (to === 'bool' ? kind !== 'boolean' : kind !== 'number') {
    throw new SqlError(SqlState.invalidParameterValue, `cannot cast jsonb ${kind === 'number' ? 'numeric' : kind} to type ${typeDisplayName[to]}`);
  }
  return to === 'bool' ? (x as boolean) : castValue(x as Numeric, 'numeric', to);
}

/**
 * Casts a value of type `from` to (`to`, `typmod`); `explicit` selects truncation over errors for char
 * types; `now` is the transaction's timestamp text input may read ('now'::timestamptz), null where unknown.
 */
export function castValue(v: SqlValue, from: SqlType, to: SqlType, typmod = -1, explicit = true, now: SqlTimestamp | null = null): SqlValue {
  if (v === null) return null;
  if (from === to && typmod < 0 && to !== 'bpchar') return v;
  switch (to) {
    case 'record':
      // A row keeps its value (the typmod names a table's row type); text into a record is record_in's 0A000.
      if (v instanceof SqlRecord) return v;
      throw anonymousRecordInput();
    case 'text':
    case 'unknown':
      return castToText(v, from);
    case 'name':
      return truncateName(castToText(v, from));
    case 'varchar':
    case 'bpchar': {
      const s = castToText(v, from);
      return typmod >= 0 ? applyTypmod(s, to, typmod, explicit) : s;
    }
    default:
      break;
  }
  if (typeof v === 'string') return parseText(from === 'bpchar' ? v.replace(/ +$/, '') : v, to, typmod, now);
  if (v instanceof SqlJson || v instanceof SqlJsonb) return castFromJson(v, from, to);
  if (v instanceof SqlArray && isArrayType(to)) {
    const te = arrayElementType(to);
    return new SqlArray(te, v.items.map((x) => castValue(x, v.elementType, te, typmod, explicit)), v.lower);
  }
  if (v instanceof SqlTimestamp && (to === 'time' || to === 'timetz') && !isFiniteTimestamp(v)) return null;
  switch (to) {
    case 'int2':
    case 'int4':
    case 'int8':
      if (from === 'bool' && to !== 'int4') throw cannotCast(from, to);
      return toInt(v, to);
    case 'float4':
    case 'float8':
      return toFloat(v, to);
    case 'numeric': {
      const n = toNumericValue(v, from);
      return typmod >= 0 ? applyTypmod(n, 'numeric', typmod, explicit) : n;
    }
    case 'bool':
      if (typeof v === 'number') return v !== 0;
      if (typeof v === 'boolean') return v;
      break;
    case 'date':
      if (v instanceof SqlTimestamp) return timestampToDate(from === 'timestamptz' ? localOf(v) : v);
      if (v instanceof SqlDate) return v;
      break;
    case 'timestamp':
    case 'timestamptz': {
      // Between a wall clock (timestamp, a date's midnight) and an instant: in the session's zone.
      let t = v instanceof SqlDate ? dateToTimestamp(v) : v instanceof SqlTimestamp ? v : null;
      if (t === null) break;
      if (to === 'timestamptz' && from !== 'timestamptz') t = instantOfLocal(t);
      else if (to === 'timestamp' && from === 'timestamptz') t = localOf(t);
      return typmod >= 0 ? applyTypmod(t, to, typmod, explicit) : t;
    }
    case 'uuid': // only from text (above)
    case 'bytea':
      break;
    case 'interval':
      if (v instanceof SqlInterval) return v;
      if (v instanceof SqlTime) return timeToInterval(v);
      break;
    case 'time': {
      // A timestamp's time of day (none, NULL, for an infinite one: timestamp_time); an interval's time
      // field modulo a day (interval_time).
      const t = v instanceof SqlTime ? v : v instanceof SqlTimestamp ? new SqlTime((from === 'timestamptz' ? localOf(v) : v).timeOfDay) : v instanceof SqlInterval ? wrapTime(v.micros)
        : v instanceof SqlTimeTz ? new SqlTime(v.micros) : null;
      if (t === null) break;
      return typmod >= 0 ? roundTime(t, typmod) : t;
    }
    case 'timetz': {
      // A time in the session's zone, a timestamptz's time of day there (NULL for an infinite one).
      const t = v instanceof SqlTimeTz ? v : v instanceof SqlTime ? timeToTimeTz(v) : v instanceof SqlTimestamp && from === 'timestamptz' ? timeOfDayTz(v) : null;
      if (t === null) break;
      return typmod >= 0 ? roundTimeTz(t, typmod) : t;
    }
    default: // arrays: from text or another array (above)
      break;
  }
  throw cannotCast(from, to);
}

/** Converts a caller-supplied parameter (JS value or PostgreSQL text) to the parameter's SQL type. */
export function coerceParam(v: SqlValue, t: SqlType, enumType?: EnumTypeDef): SqlValue {
  if (v === null) return null;
  const from = typeOfValue(v);
  if (enumType !== undefined) return enumCast(v, from, t, enumType);
  if (from === t || t === 'unknown') return v;
  if (t === 'text' && typeof v === 'string') return v;
  // A timestamp value given for a timestamptz parameter is already the instant (its driver or the
  // gateway read it, in the session's zone where it had no offset): not a wall clock to convert again.
  if (t === 'timestamptz' && v instanceof SqlTimestamp) return v;
  return castValue(v, from, t, -1, true);
}
