// Values on the wire: PostgreSQL's text and binary formats for the types the engine has. Text goes
// through the engine's own `formatText`/`parseText` so the gateway and the SQL layer never disagree on
// a spelling; binary follows PostgreSQL's send/recv functions (big-endian integers and IEEE floats,
// numeric as base-10000 digit groups, date and timestamp relative to 2000-01-01 with their infinities
// as the extremes of the integer, bytea as its bytes).

import { Numeric, SqlDate, SqlTimestamp, formatText, parseText, typeOidOf, typeLen } from '../../sql/types.ts';
import { arrayElementType, type SqlType, type SqlValue } from '../../sql/types.ts';
import type { BackendWriter, FieldDescription } from './backend-encoder.ts';
import { GatewayState, ProtocolError } from './protocol-error.ts';
import type { BackendColumn, BackendRows } from './sql-backend.ts';
import { formatBinary, parseBinary, uuidBytes, uuidText } from '../../sql/value-binary.ts';
import { copyBytes } from '../../sql/bytea.ts';
import { SqlInterval, decodeIntervalBinary, encodeIntervalBinary } from '../../sql/interval.ts';
import { formatArrayBinary, parseArrayBinary } from '../../sql/array-format.ts';
import { SqlArray } from '../../sql/sql-array.ts';
import { utf8Text } from './utf8-text.ts';
import { PG_EPOCH_DAYS, PG_EPOCH_MICROS, dateOfPg, dateToTimestamp, timestampOfPg, timestampToDate } from '../../sql/datetime.ts';

const NUMERIC_NEG = 0x4000;

/** RowDescription fields for result columns and the format codes a Bind asked for. */
export function fieldsOf(columns: readonly BackendColumn[], formats: readonly number[]): FieldDescription[] {
  return columns.map((c, i) => ({
    name: c.name,
    // An enum column's typmod names its enum: the wire gets that type's own oid and no modifier.
    typeOid: typeOidOf(c.type, c.typmod),
    typeLen: typeLen[c.type],
    typmod: c.type === 'enum' || c.type === '_enum' || c.type === 'record' ? -1 : c.typmod,
    format: formatAt(formats, i),
  }));
}

/** Bind's format-code rule: none means all text, one applies to all, otherwise one per column. */
export function formatAt(formats: readonly number[], i: number): number {
  if (formats.length === 0) return 0;
  if (formats.length === 1) return formats[0] as number;
  return formats[i] ?? 0;
}

function toBigInt(v: SqlValue): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return BigInt(Math.trunc(v));
  if (typeof v === 'boolean') return v ? 1n : 0n;
  return BigInt(formatText(v, 'int8'));
}

function toNumber(v: SqlValue): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  return Number(formatText(v, 'float8'));
}

function toNumeric(v: SqlValue): Numeric {
  if (v instanceof Numeric) return v;
  if (typeof v === 'bigint') return Numeric.fromInteger(v);
  if (typeof v === 'number' && Number.isInteger(v)) return Numeric.fromInteger(v);
  const n = Numeric.parse(formatText(v, 'numeric'));
  if (n === null) throw new ProtocolError(`cannot send ${String(v)} as numeric`, GatewayState.invalidBinaryRepresentation);
  return n;
}

/** DataRow messages for rows [from, from + count) of a result, each column in its result format. */
export function writeDataRows(out: BackendWriter, r: BackendRows, formats: readonly number[], from: number, count: number): void {
  const cols = r.columns;
  const n = cols.length;
  const types: SqlType[] = cols.map((c) => c.type);
  const typmods: number[] = cols.map((c) => c.typmod);
  const fmts: number[] = cols.map((_, i) => formatAt(formats, i));
  for (let i = from; i < from + count; i++) {
    const row = r.rows[i] as readonly SqlValue[];
    out.begin('D');
    out.int16(n);
    for (let c = 0; c < n; c++) writeValue(out, row[c] ?? null, types[c] as SqlType, fmts[c] as number, typmods[c]);
    out.end();
  }
}

/** Appends one DataRow column value (length prefix included) in the requested format; `typmod`: the column's (an enum array's enum). */
export function writeValue(w: BackendWriter, v: SqlValue, type: SqlType, format: number, typmod = -1): void {
  if (v === null) {
    w.int32(-1);
    return;
  }
  if (format === 0) {
    w.lengthPrefixedText(typeof v === 'string' ? v : formatText(v, type));
    return;
  }
  switch (type) {
    case 'int2': {
      const { buf, at } = w.reserve(6);
      buf.writeInt32BE(2, at);
      buf.writeInt16BE(Number(toBigInt(v)), at + 4);
      return;
    }
    case 'int4': {
      const { buf, at } = w.reserve(8);
      buf.writeInt32BE(4, at);
      buf.writeInt32BE(Number(toBigInt(v)), at + 4);
      return;
    }
    case 'int8': {
      const { buf, at } = w.reserve(12);
      buf.writeInt32BE(8, at);
      buf.writeBigInt64BE(toBigInt(v), at + 4);
      return;
    }
    case 'float4': {
      const { buf, at } = w.reserve(8);
      buf.writeInt32BE(4, at);
      buf.writeFloatBE(toNumber(v), at + 4);
      return;
    }
    case 'float8': {
      const { buf, at } = w.reserve(12);
      buf.writeInt32BE(8, at);
      buf.writeDoubleBE(toNumber(v), at + 4);
      return;
    }
    case 'bool': {
      const { buf, at } = w.reserve(5);
      buf.writeInt32BE(1, at);
      buf[at + 4] = v === true ? 1 : 0;
      return;
    }
    case 'date': {
      const days = v instanceof SqlDate ? v.days : v instanceof SqlTimestamp ? timestampToDate(v).days : 0;
      const { buf, at } = w.reserve(8);
      buf.writeInt32BE(4, at);
      buf.writeInt32BE(days - PG_EPOCH_DAYS, at + 4);
      return;
    }
    case 'timestamp':
    case 'timestamptz': {
      const micros = v instanceof SqlTimestamp ? v.micros : v instanceof SqlDate ? dateToTimestamp(v).micros : 0n;
      const { buf, at } = w.reserve(12);
      buf.writeInt32BE(8, at);
      buf.writeBigInt64BE(micros - PG_EPOCH_MICROS, at + 4);
      return;
    }
    case 'numeric': {
      const b = encodeNumeric(toNumeric(v));
      w.int32(b.length);
      w.bytes(b);
      return;
    }
    case 'text':
    case 'varchar':
    case 'bpchar':
    case 'name':
    case 'unknown':
    case 'enum': // enum_send: the label
    case 'void': // void_send: no bytes (the value is '')
      w.lengthPrefixedText(typeof v === 'string' ? v : formatText(v, type));
      return;
    case 'uuid':
      w.int32(16);
      w.bytes(uuidBytes(String(v)));
      return;
    case 'bytea':
      if (!(v instanceof Uint8Array)) throw new ProtocolError(`cannot send ${typeof v} as bytea`, GatewayState.invalidBinaryRepresentation);
      w.int32(v.length);
      w.bytes(v);
      return;
    case 'interval':
      if (!(v instanceof SqlInterval)) throw new ProtocolError(`cannot send ${typeof v} as interval`, GatewayState.invalidBinaryRepresentation);
      w.int32(16);
      w.bytes(encodeIntervalBinary(v));
      return;
    case 'time':
    case 'timetz':
    case 'json':
    case 'jsonb': {
      const b = formatBinary(v, type);
      w.int32(b.length);
      w.bytes(b);
      return;
    }
    case 'record': {
      const b = formatBinary(v, type);
      w.int32(b.length);
      w.bytes(b);
      return;
    }
    default: {
      if (!(v instanceof SqlArray)) throw new ProtocolError(`cannot send ${typeof v} as ${type}`, GatewayState.invalidBinaryRepresentation);
      const b = formatArrayBinary(v, type === 'int2vector' || type === 'oidvector', type === '_enum' ? typmod : -1);
      w.int32(b.length);
      w.bytes(b);
      return;
    }
  }
}

/** PostgreSQL's numeric_send: ndigits, weight, sign, dscale, then base-10000 digits. */
export function encodeNumeric(n: Numeric): Buffer {
  const neg = n.coef < 0n;
  const digits = (neg ? -n.coef : n.coef).toString();
  const scale = n.scale;
  let intPart = digits.length > scale ? digits.slice(0, digits.length - scale) : '0';
  let fracPart = scale > 0 ? digits.slice(Math.max(0, digits.length - scale)).padStart(scale, '0') : '';
  intPart = intPart.padStart(Math.ceil(intPart.length / 4) * 4, '0');
  fracPart = fracPart.padEnd(Math.ceil(fracPart.length / 4) * 4, '0');
  const groups: number[] = [];
  for (let i = 0; i < intPart.length; i += 4) groups.push(Number(intPart.slice(i, i + 4)));
  let weight = groups.length - 1;
  for (let i = 0; i < fracPart.length; i += 4) groups.push(Number(fracPart.slice(i, i + 4)));
  let first = 0;
  while (first < groups.length && groups[first] === 0) {
    first++;
    weight--;
  }
  let last = groups.length;
  while (last > first && groups[last - 1] === 0) last--;
  const kept = groups.slice(first, last);
  if (kept.length === 0) weight = 0;
  const out = Buffer.allocUnsafe(8 + 2 * kept.length);
  out.writeInt16BE(kept.length, 0);
  out.writeInt16BE(weight, 2);
  out.writeUInt16BE(kept.length === 0 || !neg ? 0 : NUMERIC_NEG, 4);
  out.writeInt16BE(scale, 6);
  kept.forEach((g, i) => out.writeInt16BE(g, 8 + 2 * i));
  return out;
}

export function decodeNumeric(b: Buffer): Numeric {
  if (b.length < 8) throw badBinary('numeric');
  const ndigits = b.readInt16BE(0);
  const weight = b.readInt16BE(2);
  const sign = b.readUInt16BE(4);
  const dscale = b.readInt16BE(6);
  if (ndigits < 0 || dscale < 0 || b.length !== 8 + 2 * ndigits || (sign !== 0 && sign !== NUMERIC_NEG)) throw badBinary('numeric');
  let coef = 0n;
  for (let i = 0; i < ndigits; i++) {
    const d = b.readInt16BE(8 + 2 * i);
    if (d < 0 || d > 9999) throw badBinary('numeric');
    const exp = 4 * (weight - i) + dscale;
    if (exp >= 0) coef += BigInt(d) * 10n ** BigInt(exp);
    else coef += BigInt(d) / 10n ** BigInt(-exp);
  }
  return new Numeric(sign === NUMERIC_NEG ? -coef : coef, dscale);
}

function badBinary(what: string): ProtocolError {
  return new ProtocolError(`incorrect binary data format for type ${what}`, GatewayState.invalidBinaryRepresentation);
}

function fixed(b: Buffer, n: number, what: string): void {
  if (b.length !== n) throw badBinary(what);
}

/**
 * Decodes one Bind parameter to a typed value. Throws ProtocolError (22P03) for bad binary data,
 * InvalidTextError (22021) for text that is not UTF-8, and the engine's SqlError (22P02, 22003, ...) for
 * bad text; the session reports each as an ERROR.
 */
export function decodeParam(raw: Buffer | null, format: number, type: SqlType): SqlValue {
  if (raw === null) return null;
  if (format === 0) return parseText(utf8Text(raw), type);
  if (format !== 1) throw new ProtocolError(`unsupported format code: ${format}`);
  switch (type) {
    case 'int2':
      fixed(raw, 2, 'smallint');
      return raw.readInt16BE(0);
    case 'int4':
      fixed(raw, 4, 'integer');
      return raw.readInt32BE(0);
    case 'int8': {
      fixed(raw, 8, 'bigint');
      const v = raw.readBigInt64BE(0);
      const n = Number(v);
      return Number.isSafeInteger(n) ? n : v;
    }
    case 'float4':
      fixed(raw, 4, 'real');
      return raw.readFloatBE(0);
    case 'float8':
      fixed(raw, 8, 'double precision');
      return raw.readDoubleBE(0);
    case 'bool':
      fixed(raw, 1, 'boolean');
      return raw[0] !== 0;
    case 'date':
      fixed(raw, 4, 'date');
      return dateOfPg(raw.readInt32BE(0));
    case 'timestamp':
    case 'timestamptz':
      fixed(raw, 8, type === 'timestamp' ? 'timestamp' : 'timestamp with time zone');
      return timestampOfPg(raw.readBigInt64BE(0));
    case 'numeric':
      return decodeNumeric(raw);
    case 'text':
    case 'varchar':
    case 'bpchar':
    case 'name':
    case 'unknown':
      return utf8Text(raw);
    case 'uuid':
      fixed(raw, 16, 'uuid');
      return uuidText(raw);
    case 'bytea':
      // A copy: `raw` is a view into the connection's receive buffer (sql/bytea.ts invariant).
      return copyBytes(raw);
    case 'interval':
      fixed(raw, 16, 'interval');
      return decodeIntervalBinary(raw);
    case 'time':
    case 'timetz':
    case 'json':
    case 'jsonb':
      return parseBinary(raw, type);
    case 'int2vector':
    case 'oidvector':
    case 'enum':
    case 'record':
    case 'void':
      return parseBinary(raw, type);
    default:
      // Elements are decoded by parseBinary, which copies what a value keeps.
      return parseArrayBinary(raw, arrayElementType(type));
  }
}
