// Coercion of a value to a type modifier: numeric(p,s) rounds to s digits and rejects values that need
// more than p-s integer digits (22003); varchar(n) and char(n) reject longer strings unless the excess is
// spaces (22001), and an explicit cast truncates instead; char(n) pads with spaces to n.

import { SqlError, SqlState } from './errors.ts';
import { Numeric } from './numeric.ts';
import type { SqlType, SqlValue } from './types.ts';

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
  return value;
}
