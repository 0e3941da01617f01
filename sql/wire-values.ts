/**
 * Byte forms of SQL values that travel between clients and replicas (PROTOCOL §4.2): a statement's
 * parameters, and a statement's outcome (result columns and rows, or the SQL error it raised).
 * Replicas compare results byte for byte (3f+1 identical), so encoding is canonical: each value in
 * PostgreSQL's binary send format for its type (value-binary.ts), framed with lengths.
 *
 *   params:  u16 count ‖ per value: u8 type tag (index in `sqlTypes`, 255 = NULL) ‖ u32 length ‖ bytes
 *   outcome: u8 1 (rows) ‖ u16 columns ‖ per column: name, u8 type, i32 typmod ‖ u32 rows ‖
 *            per row, per column: i32 length (-1 = NULL) ‖ bytes
 *            u8 2 (error) ‖ code ‖ message ‖ detail          (strings: u32 length ‖ UTF-8)
 *
 * Decoders throw `WireValueError` on malformed input; callers turn it into a rejection.
 */
import { arrayElementType, isArrayType, sqlTypes, typeOfValue, type Row, type SqlType, type SqlValue } from './types.ts';
import { SqlArray } from './sql-array.ts';
import { formatBinary, parseBinary, readBinary, writeBinary } from './value-binary.ts';

export class WireValueError extends Error {
  override readonly name = 'WireValueError';
}

export interface WireColumn {
  readonly name: string;
  readonly type: SqlType;
  readonly typmod: number;
}

export type StatementOutcome =
  | { readonly ok: true; readonly columns: readonly WireColumn[]; readonly rows: readonly Row[] }
  | { readonly ok: false; readonly code: string; readonly message: string; readonly detail: string | undefined };

const NULL_TAG = 255;
/** A parameter's tag bit: its type is the one the client's statement declared (encodeParams). */
const DECLARED = 0x80;
const ROWS = 1;
const ERROR = 2;
const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The SQL type a caller-supplied parameter value is sent as. */
export function wireTypeOf(v: Exclude<SqlValue, null>): SqlType {
  const t = typeOfValue(v);
  if (t === 'unknown') throw new WireValueError('unsupported parameter value');
  return t;
}

/** A growing big-endian byte writer (query parameters, results, stored rows: sql/row-codec.ts). */
export class Writer {
  #buf: Uint8Array;
  #dv: DataView;
  at = 0;

  /** `size`: the expected length (a large result grown by doubling from 256 bytes copies itself ~12 times). */
  constructor(size = 256) {
    this.#buf = new Uint8Array(size);
    this.#dv = new DataView(this.#buf.buffer);
  }

  #room(n: number): void {
    if (this.at + n <= this.#buf.length) return;
    let size = this.#buf.length * 2;
    while (size < this.at + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.#buf.subarray(0, this.at));
    this.#buf = next;
    this.#dv = new DataView(next.buffer);
  }
  u8(v: number): void {
    this.#room(1);
    this.#buf[this.at++] = v;
  }
  u16(v: number): void {
    this.#room(2);
    this.#dv.setUint16(this.at, v);
    this.at += 2;
  }
  i32(v: number): void {
    this.#room(4);
    this.#dv.setInt32(this.at, v);
    this.at += 4;
  }
  u32(v: number): void {
    this.#room(4);
    this.#dv.setUint32(this.at, v);
    this.at += 4;
  }
  bytes(b: Uint8Array): void {
    this.#room(b.length);
    this.#buf.set(b, this.at);
    this.at += b.length;
  }
  /** A non-null value as its length and binary form (writeBinary, or formatBinary for the rest). */
  value(v: SqlValue, type: SqlType): void {
    this.#room(4 + 8 + 64);
    const end = writeBinary(this.#buf, this.#dv, this.at, v, type);
    if (end >= 0) {
      this.at = end;
      return;
    }
    const b = formatBinary(v, type);
    this.i32(b.length);
    this.bytes(b);
  }
  /** A string as its UTF-8 length and bytes, written in place (ASCII byte by byte, the rest by encodeInto). */
  str(s: string): void {
    const n = s.length;
    this.#room(4 + 3 * n); // a UTF-16 code unit takes at most 3 bytes of UTF-8
    const buf = this.#buf;
    const start = this.at + 4;
    let len = 0;
    while (len < n) {
      const c = s.charCodeAt(len);
      if (c >= 0x80) break;
      buf[start + len++] = c;
    }
    if (len < n) len = utf8.encodeInto(s, buf.subarray(start)).written;
    this.#dv.setUint32(this.at, len);
    this.at = start + len;
  }
  /** The bytes written: a view when they fill at least half the buffer (no copy of a large result), else a copy. */
  done(): Uint8Array {
    return this.at >= this.#buf.length >> 1 ? this.#buf.subarray(0, this.at) : this.#buf.slice(0, this.at);
  }
  /** A copy of exactly the bytes written, then empty again: a writer reused for many small outputs. */
  take(): Uint8Array {
    const out = this.#buf.slice(0, this.at);
    this.at = 0;
    return out;
  }
}

class Reader {
  readonly #dv: DataView;
  at = 0;
  constructor(readonly b: Uint8Array) {
    this.#dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }
  #need(n: number): void {
    if (this.at + n > this.b.length) throw new WireValueError('truncated');
  }
  u8(): number {
    this.#need(1);
    return this.b[this.at++]!;
  }
  u16(): number {
    this.#need(2);
    const v = this.#dv.getUint16(this.at);
    this.at += 2;
    return v;
  }
  i32(): number {
    this.#need(4);
    const v = this.#dv.getInt32(this.at);
    this.at += 4;
    return v;
  }
  u32(): number {
    this.#need(4);
    const v = this.#dv.getUint32(this.at);
    this.at += 4;
    return v;
  }
  bytes(n: number): Uint8Array {
    this.#need(n);
    const v = this.b.subarray(this.at, this.at + n);
    this.at += n;
    return v;
  }
  /** A value of `len` bytes (readBinary: no subarray per value for the common types). */
  value(len: number, t: SqlType): SqlValue {
    this.#need(len);
    try {
      const v = readBinary(this.b, this.#dv, this.at, len, t);
      this.at += len;
      return v;
    } catch {
      throw new WireValueError(`bad ${t} value`);
    }
  }
  str(): string {
    try {
      return fromUtf8.decode(this.bytes(this.u32()));
    } catch (e) {
      if (e instanceof WireValueError) throw e;
      throw new WireValueError('bad UTF-8');
    }
  }
  end(): void {
    if (this.at !== this.b.length) throw new WireValueError('trailing bytes');
  }
}

function typeTag(t: SqlType): number {
  return sqlTypes.indexOf(t);
}

function tagType(tag: number): SqlType {
  const t = sqlTypes[tag];
  if (t === undefined) throw new WireValueError(`unknown type tag ${tag}`);
  return t;
}

function parse(b: Uint8Array, t: SqlType): SqlValue {
  try {
    return parseBinary(b, t);
  } catch {
    throw new WireValueError(`bad ${t} value`);
  }
}

/** Whether `v` is a value of SQL type `t` as the engine represents it (a statement's declared parameter type). */
function holds(v: Exclude<SqlValue, null>, t: SqlType): boolean {
  const own = typeOfValue(v);
  if (own === t) return true;
  switch (t) {
    case 'int2':
    case 'int4':
    case 'float4':
    case 'float8':
      return typeof v === 'number';
    case 'varchar':
    case 'bpchar':
    case 'name':
    case 'uuid':
      return typeof v === 'string';
    case 'timestamptz':
      return own === 'timestamp';
    default:
      // An array that starts at 0 (its own type reads as a vector's, types.ts) is still of its array type.
      return v instanceof SqlArray && isArrayType(t) && v.elementType === arrayElementType(t);
  }
}

/**
 * A statement's parameters. With `types` (the client's statement's parameter types), each value is
 * tagged with its declared type, marked DECLARED: replicas lower the statement with those types, so a
 * parameter the text leaves untyped (`SELECT $1, n FROM t`) has the type the client's statement gave it,
 * not the one the replica would infer. Without, the tag is the value's own type.
 */
export function encodeParams(values: readonly SqlValue[], types?: readonly SqlType[]): Uint8Array {
  if (values.length > 0xffff) throw new WireValueError('too many parameters');
  const w = new Writer();
  w.u16(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i] ?? null;
    if (v === null) {
      w.u8(NULL_TAG);
      continue;
    }
    const declared = types?.[i];
    const t = declared !== undefined && holds(v, declared) ? declared : wireTypeOf(v);
    w.u8(typeTag(t) | (t === declared ? DECLARED : 0));
    // The length as i32 is the same four bytes as the u32 the reader takes (lengths are non-negative).
    w.value(v, t);
  }
  return w.done();
}

export function decodeParams(bytes: Uint8Array): SqlValue[] {
  return decodeTypedParams(bytes).values;
}

/**
 * The parameters and the types to lower their statement with: the declared ones, and bytea for a bytea
 * value (a client sends bytes only for a parameter its statement typed bytea); 'unknown' (infer) else.
 */
export function decodeTypedParams(bytes: Uint8Array): { values: SqlValue[]; hints: SqlType[] } {
  if (bytes.length === 0) return { values: [], hints: [] };
  const r = new Reader(bytes);
  const n = r.u16();
  const values: SqlValue[] = [];
  const hints: SqlType[] = [];
  for (let i = 0; i < n; i++) {
    const tag = r.u8();
    if (tag === NULL_TAG) {
      values.push(null);
      hints.push('unknown');
      continue;
    }
    const t = tagType(tag & ~DECLARED);
    values.push(parse(r.bytes(r.u32()), t));
    hints.push((tag & DECLARED) !== 0 || t === 'bytea' ? t : 'unknown');
  }
  r.end();
  return { values, hints: hints.every((h) => h === 'unknown') ? [] : hints };
}

/** Bytes reserved per result value: an int4 takes 8, a short text 4 + its length. */
const VALUE_BYTES_EXPECTED = 16;

export function encodeOutcome(o: StatementOutcome): Uint8Array {
  const w = new Writer(o.ok ? Math.min(64 + o.rows.length * o.columns.length * VALUE_BYTES_EXPECTED, 1 << 24) : 256);
  if (!o.ok) {
    w.u8(ERROR);
    w.str(o.code);
    w.str(o.message);
    w.str(o.detail ?? '');
    return w.done();
  }
  w.u8(ROWS);
  w.u16(o.columns.length);
  for (const c of o.columns) {
    w.str(c.name);
    w.u8(typeTag(c.type));
    w.i32(c.typmod);
  }
  w.u32(o.rows.length);
  for (const row of o.rows) {
    for (let i = 0; i < o.columns.length; i++) {
      const v = row[i] ?? null;
      if (v === null) {
        w.i32(-1);
        continue;
      }
      w.value(v, o.columns[i]!.type);
    }
  }
  return w.done();
}

export function decodeOutcome(bytes: Uint8Array): StatementOutcome {
  const r = new Reader(bytes);
  const kind = r.u8();
  if (kind === ERROR) {
    const code = r.str();
    const message = r.str();
    const detail = r.str();
    r.end();
    if (!/^[0-9A-Z]{5}$/.test(code)) throw new WireValueError('bad SQLSTATE');
    return { ok: false, code, message, detail: detail === '' ? undefined : detail };
  }
  if (kind !== ROWS) throw new WireValueError('unknown outcome kind');
  const ncols = r.u16();
  const columns: WireColumn[] = [];
  for (let i = 0; i < ncols; i++) columns.push({ name: r.str(), type: tagType(r.u8()), typmod: r.i32() });
  const nrows = r.u32();
  const rows: Row[] = [];
  for (let j = 0; j < nrows; j++) {
    const row: SqlValue[] = new Array<SqlValue>(ncols);
    for (let i = 0; i < ncols; i++) {
      const len = r.i32();
      row[i] = len === -1 ? null : len < 0 ? ((): never => { throw new WireValueError('bad length'); })() : r.value(len, columns[i]!.type);
    }
    rows.push(row);
  }
  r.end();
  return { ok: true, columns, rows };
}
