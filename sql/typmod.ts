// Coercion of a value to a type modifier: numeric(p,s) rounds to s digits and rejects values that need
// more than p-s integer digits (22003); varchar(n) and char(n) reject longer strings unless the excess is
// spaces (22001), and an explicit cast truncates instead; char(n) pads with spaces to n; timestamp(p)
// rounds to p fractional digits. Arrays apply it to each element.

import { SqlError, SqlState } from './errors.ts';
import { Numeric } from './numeric.ts';
import { PG_EPOCH_MICROS, checkedTimestamp, isFiniteTimestamp } from './datetime.ts';
import { SqlArray } from './sql-array.ts';
import { SqlTime, roundTime } from './time.ts';
import { SqlTimeTz, roundTimeTz } from './timetz.ts';
import { SqlTimestamp, arrayElementType, isArrayType, type SqlType, type SqlValue } from './types.ts';

function strLen(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) n++;
  }
  return n;
}

function truncateChars(s: string, n: number): string {
  return Array.from(s).slice(0, n).join('');
}

export function applyTypmod(value: SqlValue, type: SqlType, typmod: number, explicit: boolean): SqlValue {
  if (value === null) return null;
  // An array column's typmod is its elements' (varchar(3)[], numeric(5,2)[]).
  if (isArrayType(type)) {
    if (!(value instanceof SqlArray)) return value;
    const t = arrayElementType(type);
    return new SqlArray(value.elementType, value.items.map((x) => applyTypmod(x, t, typmod, explicit)));
  }
  if (type === 'numeric') {
    if (typmod < 4 || !(value instanceof Numeric)) return value;
    const v = typmod - 4;
    const precision = (v >> 16) & 0xffff;
    const scale = v & 0xffff;
    const r = value.round(scale);
    if (r.coef !== 0n && r.integerDigits() > precision - scale) {
      const bound = precision === scale ? '1' : `10^${precision - scale}`;
      throw new SqlError(SqlState.numericValueOutOfRange, 'numeric field overflow',
        `A field with precision ${precision}, scale ${scale} must round to an absolute value less than ${bound}.`);
    }
    return r;
  }
  if (type === 'varchar' || type === 'bpchar') {
    if (typeof value !== 'string') return value;
    const n = typmod >= 4 ? typmod - 4 : -1;
    if (n < 0) return value;
    let s = value;
    const len = strLen(s);
    if (len > n) {
      const head = truncateChars(s, n);
      if (!explicit && s.slice(head.length).trim() !== '' ) {
        const tn = type === 'varchar' ? 'character varying' : 'character';
        throw new SqlError(SqlState.stringDataRightTruncation, `value too long for type ${tn}(${n})`);
      }
      s = head;
    }
    if (type === 'bpchar') {
      const l = strLen(s);
      if (l < n) s += ' '.repeat(n - l);
    }
    return s;
  }
  if ((type === 'timestamp' || type === 'timestamptz') && typmod >= 0 && typmod < 6 && value instanceof SqlTimestamp && isFiniteTimestamp(value)) {
    // Rounded to `typmod` fractional digits, half away from PostgreSQL's epoch, 2000-01-01, as its
    // AdjustTimestampForTypmod does (so a half before 2000 rounds to the earlier value); the
    // infinities as they are.
    const scale = 10n ** BigInt(6 - typmod);
    const m = value.micros - PG_EPOCH_MICROS;
    const r = m >= 0n ? ((m + scale / 2n) / scale) * scale : -(((-m + scale / 2n) / scale) * scale);
    return r === m ? value : checkedTimestamp(r + PG_EPOCH_MICROS);
  }
  if (type === 'time' && value instanceof SqlTime) return roundTime(value, typmod);
  if (type === 'timetz' && value instanceof SqlTimeTz) return roundTimeTz(value, typmod);
  return value;
}
