// Order-preserving encoding of key tuples. `encodeKey(values, types)` returns a "byte string" (every
// char code is 0..255, so `Buffer.from(k, 'latin1')` gives the bytes) such that comparing two encodings
// byte-wise, or as JS strings, gives the SQL ordering of the tuples (ASC, NULLS LAST as PostgreSQL's
// default, text in C collation, char(n) ignoring trailing spaces). A replica keeps rows in a sorted map
// under (table id, encodeKey(primary key)); secondary index entries are encodeKey(index columns) followed
// by the primary key's encoding.
//
// Layout per column: tag 0x02 then the value, or tag 0x03 for NULL. Integers, dates and timestamps are
// 8 bytes big-endian offset binary (timestamps as microseconds since 1970, which 8 bytes hold up to the
// year 294247; later ones and infinity take 8 bytes more, `encodeTimestampKey`); floats are IEEE bits with the sign trick; numerics are sign, decimal
// exponent and digits; text is UTF-8 with 0x00 escaped as 0x00 0xFF and terminated by 0x00 0x01, bytea
// its bytes escaped and terminated the same way (so byte-wise order, a proper prefix first). A prefix
// of columns encodes to a prefix of the full key, so `prefixEnd` gives the exclusive upper bound of a
// prefix range.

import { SqlInterval } from './interval.ts';
import { SqlTime } from './time.ts';
import { JsonbObject, SqlJsonb, type Jsonb } from './json.ts';
import { Numeric } from './numeric.ts';
import { SqlDate, SqlTimestamp, TIMESTAMP_INFINITY_MICROS, TIMESTAMP_NEG_INFINITY_MICROS } from './datetime.ts';
import type { SqlType, SqlValue } from './types.ts';
import { InvariantError, SqlError, SqlState } from './errors.ts';
import { SqlArray } from './sql-array.ts';
import { SqlEnum } from './enum-types.ts';
import { SqlRecord } from './record.ts';
import { SqlTimeTz } from './timetz.ts';

const TAG_VALUE = '\x02';
const TAG_NULL = '\x03';
const TWO32 = 4294967296;
const fc = String.fromCharCode;

function encodeInt(v: number): string {
  const hi = Math.floor(v / TWO32);
  const lo = v - hi * TWO32;
  const h = (hi + 0x80000000) >>> 0;
  return fc(h >>> 24, (h >>> 16) & 255, (h >>> 8) & 255, h & 255, lo >>> 24, (lo >>> 16) & 255, (lo >>> 8) & 255, lo & 255);
}

function encodeBigInt(v: bigint): string {
  const u = BigInt.asUintN(64, v) ^ 0x8000000000000000n;
  let s = '';
  for (let i = 56; i >= 0; i -= 8) s += fc(Number((u >> BigInt(i)) & 255n));
  return s;
}

const INT64_MAX = (1n << 63n) - 1n;
const HIGHEST_8 = '\xff'.repeat(8);

/**
 * A timestamp's key: its microseconds since 1970 in 8 bytes, as keys have always held them (stored keys
 * stay where they are); -infinity as the lowest 8 bytes (no finite timestamp comes near); what 8 bytes
 * from 1970 cannot hold, the years from 294247 on (PostgreSQL's range ends in 294276) and infinity, as
 * the highest 8 bytes followed by 8 more: the distance past 2^63 - 1, infinity's the greatest. (Those
 * years wrapped below every other timestamp before.) No key is a proper prefix of another one of this
 * column, so the columns after it still sort as they should.
 */
function encodeTimestampKey(micros: bigint): string {
  if (micros === TIMESTAMP_NEG_INFINITY_MICROS) return encodeBigInt(-INT64_MAX - 1n);
  if (micros === TIMESTAMP_INFINITY_MICROS) return HIGHEST_8 + HIGHEST_8;
  if (micros < INT64_MAX) return encodeBigInt(micros);
  return HIGHEST_8 + encodeBigInt(micros - INT64_MAX - (1n << 63n));
}

const f64 = new Float64Array(1);
const u8 = new Uint8Array(f64.buffer);
const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function encodeFloat(v: number): string {
  f64[0] = v === 0 ? 0 : Number.isNaN(v) ? NaN : v;
  const b: number[] = [];
  for (let i = 0; i < 8; i++) b.push(u8[littleEndian ? 7 - i : i] ?? 0);
  const neg = ((b[0] ?? 0) & 0x80) !== 0;
  let s = '';
  for (let i = 0; i < 8; i++) {
    const x = b[i] ?? 0;
    s += fc(neg ? 255 - x : i === 0 ? x ^ 0x80 : x);
  }
  return s;
}

function encodeNumeric(n: Numeric): string {
  const v = n.stripTrailingZeros();
  if (v.coef === 0n) return '\x02';
  const neg = v.coef < 0n;
  const digits = (neg ? -v.coef : v.coef).toString();
  const exp = digits.length - 1 - v.scale + 0x80000000;
  let body = fc((exp >>> 24) & 255, (exp >>> 16) & 255, (exp >>> 8) & 255, exp & 255) + digits + '\x00';
  if (neg) {
    let inv = '';
    for (let i = 0; i < body.length; i++) inv += fc(255 - body.charCodeAt(i));
    body = inv;
    return '\x01' + body;
  }
  return '\x03' + body;
}

function encodeText(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c === 0) out += '\x00\xff';
    else if (c < 0x80) out += s[i];
    else if (c < 0x800) out += fc(0xc0 | (c >> 6), 0x80 | (c & 63));
    else {
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
        const d = s.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          i++;
          out += fc(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
          continue;
        }
      }
      out += fc(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    }
  }
  return out + '\x00\x01';
}

/**
 * A bytea's bytes with 0x00 as 0x00 0xFF, then 0x00 0x01: memcmp order with a proper prefix first (its
 * terminator 0x00 0x01 sorts below any continuation, 0x00 0xFF or a byte from 0x01), and prefix-free.
 */
function encodeBytes(b: Uint8Array): string {
  const s = Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');
  return (b.includes(0) ? s.replaceAll('\x00', '\x00\xff') : s) + '\x00\x01';
}

/**
 * An interval's span (30-day months, 24-hour days: interval.ts) as 16 bytes of offset binary, so keys
 * order and collide exactly as PostgreSQL compares intervals ('1 mon' and '30 days' are one key, as they
 * are one value to a PostgreSQL unique index). The span of any interval fits in 128 bits.
 */
function encodeInterval(v: SqlInterval): string {
  let u = v.span() + (1n << 127n);
  let out = '';
  for (let i = 0; i < 16; i++) {
    out = fc(Number(u & 255n)) + out;
    u >>= 8n;
  }
  return out;
}

/**
 * A jsonb document in compareJsonb's order (json.ts), for DISTINCT, GROUP BY and set operations (never
 * a stored key: ddl.ts refuses jsonb key columns). Each node is a kind byte (null 1, string 2, number 3,
 * boolean 4, array 5, object 6, as the kinds rank), containers then their element count as four bytes
 * (more elements sort later) and their elements (objects: key, value in stored order). Strings and
 * numbers use the text and numeric encodings, which are prefix-free, so 1.0 and 1 are one key.
 */
function encodeJsonbDoc(v: Jsonb): string {
  // The top level as compareJsonbDocs orders it: objects above everything; a scalar is a one-element
  // array (count 1) that sorts before a real array of one element (0x00 below 0x01).
  if (v instanceof JsonbObject) return encodeJsonb(v);
  const items = Array.isArray(v) ? (v as readonly Jsonb[]) : null;
  const head = '\x05' + count(items === null ? 1 : items.length);
  return items === null ? head + '\x00' + encodeJsonb(v) : head + '\x01' + items.map(encodeJsonb).join('');
}

const count = (n: number): string => fc((n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);

function encodeJsonb(v: Jsonb): string {
  if (v === null) return '\x01';
  if (typeof v === 'string') return '\x02' + encodeText(v);
  if (v instanceof Numeric) return '\x03' + encodeNumeric(v);
  if (typeof v === 'boolean') return v ? '\x04\x01' : '\x04\x00';
  if (v instanceof JsonbObject) return '\x06' + count(v.keys.length) + v.keys.map((k, i) => encodeText(k) + encodeJsonb(v.vals[i]!)).join('');
  return '\x05' + count(v.length) + v.map(encodeJsonb).join('');
}

/** Encodes one column value (tag included). */
export function encodeKeyValue(v: SqlValue, type: SqlType): string {
  if (v === null) return TAG_NULL;
  switch (type) {
    case 'int2':
    case 'int4':
    case 'int8':
      if (typeof v === 'number') return TAG_VALUE + encodeInt(v);
      if (typeof v === 'bigint') return TAG_VALUE + encodeBigInt(v);
      break;
    case 'date':
      if (v instanceof SqlDate) return TAG_VALUE + encodeInt(v.days);
      break;
    case 'time':
      if (v instanceof SqlTime) return TAG_VALUE + encodeInt(v.micros);
      break;
    case 'timetz':
      // timetz_cmp's order: the UTC instant, then the zone.
      if (v instanceof SqlTimeTz) return TAG_VALUE + encodeInt(v.utc) + encodeInt(v.zone);
      break;
    case 'timestamp':
    case 'timestamptz':
      if (v instanceof SqlTimestamp) return TAG_VALUE + encodeTimestampKey(v.micros);
      break;
    case 'float4':
    case 'float8':
      if (typeof v === 'number') return TAG_VALUE + encodeFloat(v);
      break;
    case 'numeric':
      if (v instanceof Numeric) return TAG_VALUE + encodeNumeric(v);
      if (typeof v === 'number' || typeof v === 'bigint') return TAG_VALUE + encodeNumeric(Numeric.fromInteger(v));
      break;
    case 'bool':
      if (typeof v === 'boolean') return TAG_VALUE + (v ? '\x01' : '\x00');
      break;
    case 'bpchar':
      if (typeof v === 'string') return TAG_VALUE + encodeText(v.replace(/ +$/, ''));
      break;
    case 'text':
    case 'varchar':
    case 'name':
    case 'unknown':
    case 'uuid': // canonical text: its order is the bytes' order
      if (typeof v === 'string') return TAG_VALUE + encodeText(v);
      break;
    case 'bytea':
      if (v instanceof Uint8Array) return TAG_VALUE + encodeBytes(v);
      break;
    case 'interval':
      if (v instanceof SqlInterval) return TAG_VALUE + encodeInterval(v);
      break;
    case 'jsonb':
      if (v instanceof SqlJsonb) return TAG_VALUE + encodeJsonbDoc(v.value);
      break;
    case 'json':
    case 'void':
      throw new SqlError(SqlState.undefinedFunction, `could not identify an equality operator for type ${type}`);
    case 'enum':
      // The label's position (enum-types.ts): fixed for the label's life, in declared order.
      if (v instanceof SqlEnum) return TAG_VALUE + encodeText(v.pos);
      break;
    default:
      // An array (DISTINCT, set operations, and the stored keys of array columns in primary keys and
      // indexes): each element as a column, then 0x01, which sorts below both tags, so a proper prefix
      // comes first and NULL elements last (btarraycmp); the 0x01 also ends the array before the next
      // key column.
      if (v instanceof SqlArray) return TAG_VALUE + v.items.map((x) => encodeKeyValue(x, v.elementType)).join('') + '\x01';
      // A record (DISTINCT, GROUP BY, set operations) as an array of its fields, each of its own type.
      if (v instanceof SqlRecord) return TAG_VALUE + v.items.map((x, i) => encodeKeyValue(x, v.types[i] ?? 'unknown')).join('') + '\x01';
      break;
  }
  throw new InvariantError(`cannot encode ${typeof v} as a ${type} key`);
}

/** Encodes a tuple; byte-wise order of encodings equals SQL order of tuples (ASC, NULLS LAST). */
export function encodeKey(values: readonly SqlValue[], types: readonly SqlType[]): string {
  let s = '';
  for (let i = 0; i < values.length; i++) s += encodeKeyValue(values[i] ?? null, types[i] ?? 'text');
  return s;
}

/** The smallest string greater than every key that starts with `prefix` (exclusive upper bound). */
export function prefixEnd(prefix: string): string {
  return prefix + '\xff';
}

/** The key as bytes (for storage or hashing outside JS strings). */
export function keyToBytes(key: string): Uint8Array {
  const b = new Uint8Array(key.length);
  for (let i = 0; i < key.length; i++) b[i] = key.charCodeAt(i);
  return b;
}
