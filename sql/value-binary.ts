// PostgreSQL binary wire format of values (send/recv functions), for drivers that ask for binary
// results or send binary parameters (sysbench's prepared statements do): big-endian integers and IEEE
// floats, bool as one byte, text as UTF-8, numeric as base-10000 digit groups with weight, sign and
// display scale, date as int32 days and timestamp as int64 microseconds since 2000-01-01 (the
// infinities as the type's largest and smallest values, as PostgreSQL's), bytea as its bytes.

import { SqlError, SqlState, InvariantError } from './errors.ts';
import { Numeric, pow10 } from './numeric.ts';
import { PG_EPOCH_DAYS, PG_EPOCH_MICROS, dateOfPg, timestampOfPg, type SqlDate, type SqlTimestamp } from './datetime.ts';
import { arrayElementType, typeFromOid, typeOid, type SqlType, type SqlValue } from './types.ts';
import { SqlRecord, anonymousRecordInput } from './record.ts';
import { SqlEnum } from './enum-types.ts';
import { SqlArray } from './sql-array.ts';
import { formatArrayBinary, parseArrayBinary } from './array-format.ts';
import { uuidOfHex } from './value-text.ts';
import { copyBytes } from './bytea.ts';
import { SqlInterval, decodeIntervalBinary, encodeIntervalBinary } from './interval.ts';
import { SqlTime, decodeTimeBinary, encodeTimeBinary } from './time.ts';
import { SqlTimeTz, decodeTimeTzBinary, encodeTimeTzBinary } from './timetz.ts';
import { SqlJson, SqlJsonb, parseJson, parseJsonb } from './json.ts';

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Scratch for the big-endian forms of one value, copied out by `scratchCopy`: a fresh Uint8Array of up to
 * 64 bytes lives inside V8's heap, and asking for its `.buffer` (a DataView over it) moves it out, an
 * ArrayBuffer allocation of its own (~0.4 µs each in a hot loop, far more in a large heap).
 */
const scratch = new Uint8Array(8);
const scratchView = new DataView(scratch.buffer);

function scratchCopy(size: number): Uint8Array {
  return scratch.slice(0, size);
}

function intBytes(v: number | bigint, size: 2 | 4 | 8): Uint8Array {
  if (size === 2) scratchView.setInt16(0, Number(v));
  else if (size === 4) scratchView.setInt32(0, Number(v));
  else scratchView.setBigInt64(0, BigInt(v));
  return scratchCopy(size);
}

/** A 16-bit big-endian field (two's complement for negatives), written without a DataView (see scratch). */
function put16(b: Uint8Array, at: number, v: number): void {
  b[at] = (v >> 8) & 0xff;
  b[at + 1] = v & 0xff;
}

function numericBytes(n: Numeric): Uint8Array {
  const neg = n.coef < 0n;
  const abs = neg ? -n.coef : n.coef;
  const s = abs.toString().padStart(n.scale + 1, '0');
  const intPart = s.slice(0, s.length - n.scale);
  const frac = s.slice(s.length - n.scale);
  const groups: number[] = [];
  const intPad = intPart.padStart(Math.ceil(intPart.length / 4) * 4, '0');
  for (let i = 0; i < intPad.length; i += 4) groups.push(Number(intPad.slice(i, i + 4)));
  let weight = groups.length - 1;
  const fracPad = frac.padEnd(Math.ceil(frac.length / 4) * 4, '0');
  for (let i = 0; i < fracPad.length; i += 4) groups.push(Number(fracPad.slice(i, i + 4)));
  while (groups.length > 0 && groups[0] === 0) {
    groups.shift();
    weight--;
  }
  while (groups.length > 0 && groups[groups.length - 1] === 0) groups.pop();
  if (groups.length === 0) weight = 0;
  const b = new Uint8Array(8 + 2 * groups.length);
  put16(b, 0, groups.length);
  put16(b, 2, weight);
  put16(b, 4, neg && groups.length > 0 ? 0x4000 : 0);
  put16(b, 6, n.scale);
  groups.forEach((g, i) => put16(b, 8 + 2 * i, g));
  return b;
}

/** The binary send form of a non-null value. */
export function formatBinary(v: SqlValue, type: SqlType): Uint8Array {
  if (v === null) throw new InvariantError('NULL has no binary form');
  switch (type) {
    case 'int2':
      return intBytes(v as number, 2);
    case 'int4':
      return intBytes(v as number, 4);
    case 'int8':
      return intBytes(v as number | bigint, 8);
    case 'float4':
      scratchView.setFloat32(0, v as number);
      return scratchCopy(4);
    case 'float8':
      scratchView.setFloat64(0, v as number);
      return scratchCopy(8);
    case 'bool':
      return new Uint8Array([v === true ? 1 : 0]);
    case 'numeric':
      return numericBytes(v instanceof Numeric ? v : Numeric.fromInteger(v as number | bigint));
    case 'date':
      return intBytes((v as SqlDate).days - PG_EPOCH_DAYS, 4);
    case 'timestamp':
    case 'timestamptz':
      return intBytes((v as SqlTimestamp).micros - PG_EPOCH_MICROS, 8);
    case 'text':
    case 'varchar':
    case 'bpchar':
    case 'name':
    case 'unknown':
    case 'enum':
      // enum_send: the label.
      return utf8.encode(String(v));
    case 'uuid':
      return uuidBytes(String(v));
    case 'bytea':
      // The value itself: callers copy it into their output, and a value is never written to.
      if (v instanceof Uint8Array) return v;
      throw new InvariantError(`not a bytea value: ${typeof v}`);
    case 'interval':
      if (v instanceof SqlInterval) return encodeIntervalBinary(v);
      throw new InvariantError(`not an interval value: ${typeof v}`);
    case 'time':
      if (v instanceof SqlTime) return encodeTimeBinary(v);
      throw new InvariantError(`not a time value: ${typeof v}`);
    case 'timetz':
      if (v instanceof SqlTimeTz) return encodeTimeTzBinary(v);
      throw new InvariantError(`not a timetz value: ${typeof v}`);
    case 'json':
      // jsonb_send / json_send: jsonb is a version byte (1) and the text, json its text.
      if (v instanceof SqlJson) return utf8.encode(v.text);
      throw new InvariantError(`not a json value: ${typeof v}`);
    case 'jsonb': {
      if (!(v instanceof SqlJsonb)) throw new InvariantError(`not a jsonb value: ${typeof v}`);
      const text = utf8.encode(v.toString());
      const out = new Uint8Array(text.length + 1);
      out[0] = 1;
      out.set(text, 1);
      return out;
    }
    case 'record':
      if (v instanceof SqlRecord) return formatRecordBinary(v);
      throw new InvariantError(`not a record value: ${typeof v}`);
    case 'void':
      // void_send: no bytes.
      return new Uint8Array(0);
    default:
      if (v instanceof SqlArray) return formatArrayBinary(v, type === 'int2vector' || type === 'oidvector');
      throw new InvariantError(`not an array value: ${typeof v}`);
  }
}

/**
 * The ASCII bytes `[from, to)` of `bytes` as a string: one native copy. (Building it a character at a time
 * made a 29-character text value cost ~700 bytes of intermediate strings and most of a 10,000-row result's
 * decode; decision 0031.) Stored values and decoded messages are Buffers already; a plain Uint8Array gets
 * a view.
 */
function asciiAt(bytes: Uint8Array, from: number, to: number): string {
  const b = bytes instanceof Buffer ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return b.toString('latin1', from, to);
}

/**
 * Decodes one non-null value of `len` bytes at `at` (`dv` views `bytes`): the common types inline,
 * without a subarray or DataView per value (the scan hot path: stored rows, query results), the rest
 * through parseBinary. Same values and errors as parseBinary.
 */
export function readBinary(bytes: Uint8Array, dv: DataView, at: number, len: number, type: SqlType): SqlValue {
  switch (type) {
    case 'int4':
      if (len === 4) return dv.getInt32(at);
      break;
    case 'int8':
      if (len === 8) {
        const hi = dv.getInt32(at);
        const lo = dv.getUint32(at + 4);
        // Exact while the high word is within [-2^21, 2^21); a safe integer stays a number (types.ts invariant).
        const v = hi * 4294967296 + lo;
        if (hi >= -0x200000 && hi < 0x200000 && Number.isSafeInteger(v)) return v;
      }
      break;
    case 'int2':
      if (len === 2) return dv.getInt16(at);
      break;
    case 'float8':
      if (len === 8) return dv.getFloat64(at);
      break;
    case 'bool':
      if (len === 1) return bytes[at] !== 0;
      break;
    case 'text':
    case 'varchar':
    case 'bpchar':
    case 'name':
    case 'unknown': {
      const end = at + len;
      for (let i = at; i < end; i++) if (bytes[i]! >= 0x80) return parseBinary(bytes.subarray(at, end), type);
      return asciiAt(bytes, at, end);
    }
    default:
      break;
  }
  return parseBinary(bytes.subarray(at, at + len), type);
}

/**
 * Writes one non-null value as its length (int32) and binary form at `at` of `buf` (`dv` views it),
 * when it is of a common type in its usual JS form: int2/int4/int8 numbers, float8, bool, short ASCII
 * text. Returns the offset after it, or -1 when the caller must use formatBinary (the bytes are the
 * same; this only skips allocating them). The caller ensures 4 + 8 + 64 bytes of room.
 */
export function writeBinary(buf: Uint8Array, dv: DataView, at: number, v: SqlValue, type: SqlType): number {
  switch (type) {
    case 'int2':
      if (typeof v !== 'number') return -1;
      dv.setInt32(at, 2);
      dv.setInt16(at + 4, v);
      return at + 6;
    case 'int4':
      if (typeof v !== 'number') return -1;
      dv.setInt32(at, 4);
      dv.setInt32(at + 4, v);
      return at + 8;
    case 'int8': {
      if (typeof v !== 'number' || !Number.isSafeInteger(v)) return -1;
      const hi = Math.floor(v / 4294967296);
      dv.setInt32(at, 8);
      dv.setInt32(at + 4, hi);
      dv.setUint32(at + 8, v - hi * 4294967296);
      return at + 12;
    }
    case 'float8':
      if (typeof v !== 'number') return -1;
      dv.setInt32(at, 8);
      dv.setFloat64(at + 4, v);
      return at + 12;
    case 'bool':
      if (typeof v !== 'boolean') return -1;
      dv.setInt32(at, 1);
      buf[at + 4] = v ? 1 : 0;
      return at + 5;
    case 'text':
    case 'varchar':
    case 'bpchar':
    case 'name':
    case 'unknown': {
      if (typeof v !== 'string' || v.length > 64) return -1;
      for (let i = 0; i < v.length; i++) {
        const c = v.charCodeAt(i);
        if (c >= 0x80) return -1;
        buf[at + 4 + i] = c;
      }
      dv.setInt32(at, v.length);
      return at + 4 + v.length;
    }
    default:
      return -1;
  }
}

/** A uuid's 16 bytes (uuid_send) from its canonical text. */
export function uuidBytes(canonical: string): Uint8Array {
  return Buffer.from(canonical.replace(/-/g, ''), 'hex');
}

/** The canonical text of a uuid's 16 bytes. */
export function uuidText(b: Uint8Array): string {
  return uuidOfHex(Buffer.from(b.buffer, b.byteOffset, 16).toString('hex'));
}

function decodeUtf8(b: Uint8Array): string {
  try {
    return utf8Decoder.decode(b);
  } catch {
    throw new SqlError('22021', 'invalid byte sequence for encoding "UTF8"');
  }
}

function bad(type: string): SqlError {
  return new SqlError('22P03', `incorrect binary data format in bind parameter (${type})`);
}

/** Reads a binary parameter of the given type. */
export function parseBinary(b: Uint8Array, type: SqlType): SqlValue {
  // Every parameter of every query a replica executes comes through here: no closure per call (under
  // tsx each one made also pays for its name).
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  switch (type) {
    case 'int2':
      needLength(b, 2, type);
      return dv.getInt16(0);
    case 'int4':
      needLength(b, 4, type);
      return dv.getInt32(0);
    case 'int8': {
      needLength(b, 8, type);
      const v = dv.getBigInt64(0);
      const n = Number(v);
      return Number.isSafeInteger(n) ? n : v;
    }
    case 'float4':
      needLength(b, 4, type);
      return dv.getFloat32(0);
    case 'float8':
      needLength(b, 8, type);
      return dv.getFloat64(0);
    case 'bool':
      needLength(b, 1, type);
      return b[0] !== 0;
    case 'date':
      needLength(b, 4, type);
      // date_recv and timestamp_recv: the infinities, or a value in range (22008).
      return dateOfPg(dv.getInt32(0));
    case 'timestamp':
    case 'timestamptz':
      needLength(b, 8, type);
      return timestampOfPg(dv.getBigInt64(0));
    case 'numeric': {
      if (b.byteLength < 8) throw bad(type);
      const ndigits = dv.getInt16(0);
      const weight = dv.getInt16(2);
      const sign = dv.getUint16(4);
      const dscale = dv.getInt16(6);
      if (b.byteLength !== 8 + 2 * ndigits || sign === 0xc000) throw bad(type);
      let coef = 0n;
      for (let i = 0; i < ndigits; i++) coef = coef * 10000n + BigInt(dv.getInt16(8 + 2 * i));
      // value = coef * 10000^(weight - ndigits + 1)
      const exp10 = 4 * (weight - ndigits + 1);
      let n = exp10 >= 0 ? new Numeric(coef * pow10(exp10), 0) : new Numeric(coef, -exp10);
      n = n.scale > dscale ? n.round(dscale) : new Numeric(n.coef * pow10(dscale - n.scale), dscale);
      return sign === 0x4000 ? n.neg() : n;
    }
    case 'text':
    case 'varchar':
    case 'bpchar':
    case 'name':
    case 'unknown':
      return decodeUtf8(b);
    case 'uuid':
      needLength(b, 16, type);
      return uuidText(b);
    case 'bytea':
      // A copy: `b` is a view into a message, a stored row or a reused buffer (bytea.ts invariant).
      return copyBytes(b);
    case 'interval':
      needLength(b, 16, type);
      return decodeIntervalBinary(b);
    case 'time':
      needLength(b, 8, type);
      return decodeTimeBinary(b);
    case 'timetz':
      needLength(b, 12, type);
      return decodeTimeTzBinary(b);
    case 'json':
      return parseJson(decodeUtf8(b));
    case 'jsonb':
      if (b.length < 1 || b[0] !== 1) throw new SqlError('22P03', `unsupported jsonb version number ${b[0] ?? 0}`);
      return parseJsonb(decodeUtf8(b.subarray(1)));
    case 'int2vector':
      return parseArrayBinary(b, 'int2', true);
    case 'oidvector':
      return parseArrayBinary(b, 'int4', true);
    case 'enum':
      // enum_recv: the label's bytes, resolved against its type later as text is (value-text.ts).
      return decodeUtf8(b);
    case 'record':
      return parseRecordBinary(b);
    case 'void':
      // void_recv reads nothing.
      return '';
    default:
      return parseArrayBinary(b, arrayElementType(type));
  }
}

/** record_send: the field count, then each field's type oid and value (-1: NULL); an enum field has its enum's oid. */
function formatRecordBinary(r: SqlRecord): Uint8Array {
  const fields = r.items.map((v, i) => (v === null ? null : formatBinary(v, r.types[i] ?? 'unknown')));
  const out = new Uint8Array(4 + fields.reduce((n, f) => n + 8 + (f?.byteLength ?? 0), 0));
  const dv = new DataView(out.buffer);
  dv.setInt32(0, fields.length);
  let at = 4;
  fields.forEach((f, i) => {
    const v = r.items[i] ?? null;
    const t = r.types[i] ?? 'unknown';
    dv.setUint32(at, v instanceof SqlEnum ? v.type.oid : v instanceof SqlArray && t === '_enum' ? enumArrayOid(v) : typeOid[t]);
    dv.setInt32(at + 4, f === null ? -1 : f.byteLength);
    at += 8;
    if (f !== null) {
      out.set(f, at);
      at += f.byteLength;
    }
  });
  return out;
}

function enumArrayOid(a: SqlArray): number {
  const e = a.items.find((x): x is SqlEnum => x instanceof SqlEnum);
  return e === undefined ? typeOid._enum : e.type.arrayOid;
}

/**
 * record_recv of fields of built-in types (a record Pesto sent itself); a field of another type (an
 * enum, a table's row type) cannot be read without the catalog: 0A000, as PostgreSQL's anonymous
 * record input.
 */
function parseRecordBinary(b: Uint8Array): SqlRecord {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const need = (at: number, n: number): void => {
    if (at + n > b.byteLength) throw new SqlError(SqlState.protocolViolation, 'insufficient data left in message');
  };
  need(0, 4);
  const n = dv.getInt32(0);
  if (n < 0) throw new SqlError('22P03', `invalid number of columns: ${n}`);
  const items: SqlValue[] = [];
  const types: SqlType[] = [];
  let at = 4;
  for (let i = 0; i < n; i++) {
    need(at, 8);
    const t = typeFromOid(dv.getUint32(at));
    const len = dv.getInt32(at + 4);
    at += 8;
    if (t === undefined || t === 'enum' || t === '_enum' || t === 'unknown') throw anonymousRecordInput();
    types.push(t);
    if (len === -1) {
      items.push(null);
      continue;
    }
    need(at, Math.max(len, 0));
    if (len < 0) throw new SqlError('22P03', 'invalid record field length');
    items.push(parseBinary(b.subarray(at, at + len), t));
    at += len;
  }
  if (at !== b.byteLength) throw new SqlError('22P03', 'improper binary format in record column');
  return new SqlRecord(items, types);
}

function needLength(b: Uint8Array, n: number, type: SqlType): void {
  if (b.byteLength !== n) throw bad(type);
}
