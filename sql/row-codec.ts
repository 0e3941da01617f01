/**
 * The value bytes of a SQL row version in the replica store. A row is stored as its column values in
 * PostgreSQL's binary send format (sql/value-binary.ts, so every type round-trips exactly: int8 beyond
 * 2^53, numeric scale, char(n) padding), framed as
 *
 *     u8 format (1) ‖ u16 column count ‖ per column: i32 length (-1 = NULL) ‖ bytes
 *
 * all big-endian. A deletion is not a row: it is a version whose value is null (store.ts).
 *
 * Schema changes: a row written before `ALTER TABLE ... ADD COLUMN` has fewer columns; decoding fills the
 * missing ones with the column's constant default, else NULL (the engine only accepts constant defaults
 * for ADD COLUMN). Columns beyond the table's are ignored.
 */
import type { TableDef } from './catalog.ts';
import type { Row, SqlType, SqlValue } from './types.ts';
import { formatBinary, parseBinary } from './value-binary.ts';

const FORMAT = 1;

export class RowCodecError extends Error {
  override readonly name = 'RowCodecError';
}

export function encodeRow(table: TableDef, row: Row): Uint8Array {
  const cols = table.columns;
  const parts: (Uint8Array | null)[] = new Array<Uint8Array | null>(cols.length);
  let size = 3;
  for (let i = 0; i < cols.length; i++) {
    const v = row[i] ?? null;
    const b = v === null ? null : formatBinary(v, cols[i]!.type);
    parts[i] = b;
    size += 4 + (b === null ? 0 : b.length);
  }
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  out[0] = FORMAT;
  dv.setUint16(1, cols.length);
  let at = 3;
  for (const b of parts) {
    if (b === null) {
      dv.setInt32(at, -1);
      at += 4;
      continue;
    }
    dv.setInt32(at, b.length);
    out.set(b, at + 4);
    at += 4 + b.length;
  }
  return out;
}

/** Decodes one non-null value: the common types inline (the scan hot path), the rest through parseBinary. */
function decodeValue(bytes: Uint8Array, dv: DataView, at: number, len: number, type: SqlType): SqlValue {
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
    case 'unknown': {
      if (len > 64) break;
      let ascii = '';
      for (let i = at; i < at + len; i++) {
        const c = bytes[i]!;
        if (c >= 0x80) return parseBinary(bytes.subarray(at, at + len), type);
        ascii += String.fromCharCode(c);
      }
      return ascii;
    }
    default:
      break;
  }
  return parseBinary(bytes.subarray(at, at + len), type);
}

export function decodeRow(table: TableDef, bytes: Uint8Array): Row {
  if (bytes.length < 3 || bytes[0] !== FORMAT) throw new RowCodecError('not a row value');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const stored = dv.getUint16(1);
  const cols = table.columns;
  const row: SqlValue[] = new Array<SqlValue>(cols.length);
  let at = 3;
  for (let i = 0; i < stored; i++) {
    if (at + 4 > bytes.length) throw new RowCodecError('truncated row value');
    const len = dv.getInt32(at);
    at += 4;
    if (len === -1) {
      if (i < cols.length) row[i] = null;
      continue;
    }
    if (len < 0 || at + len > bytes.length) throw new RowCodecError('truncated row value');
    if (i < cols.length) row[i] = decodeValue(bytes, dv, at, len, cols[i]!.type);
    at += len;
  }
  for (let i = stored; i < cols.length; i++) {
    const d = cols[i]!.default;
    row[i] = d !== null && d.k === 'const' ? d.v : null;
  }
  return row;
}
