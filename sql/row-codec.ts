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
import type { ColumnDef, TableDef } from './catalog.ts';
import { SqlEnum, enumAtPosition, parseEnum } from './enum-types.ts';
import { InvariantError } from './errors.ts';
import { SqlArray } from './sql-array.ts';
import type { Row, SqlType, SqlValue } from './types.ts';
import { readBinary } from './value-binary.ts';
import { Writer } from './wire-values.ts';

const FORMAT = 1;

export class RowCodecError extends Error {
  override readonly name = 'RowCodecError';
}

/** Where rows are assembled before their exact-length copy (grown on demand, never shrunk). */
const rowWriter = new Writer(1024);

/**
 * One allocation per row: values are written in place (`Writer.value`: writeBinary, formatBinary for
 * the rare types) and the row is copied out at its exact length. (A fresh array per value, viewed
 * through a DataView, cost an ArrayBuffer each: 8 -> 164 µs per ycsb transaction as the heap grew,
 * scripts/micro-ycsb.ts.)
 */
export function encodeRow(table: TableDef, row: Row): Uint8Array {
  const cols = table.columns;
  const w = rowWriter;
  // From the start, also after a row whose value did not encode (formatBinary threw midway).
  w.at = 0;
  w.u8(FORMAT);
  w.u16(cols.length);
  for (let i = 0; i < cols.length; i++) {
    const v = row[i] ?? null;
    if (v === null) w.i32(-1);
    else if (cols[i]!.type === 'enum') w.value(enumPosition(cols[i]!, v), 'text');
    else if (cols[i]!.type === '_enum') w.value(enumPositions(cols[i]!, v), '_text');
    else w.value(v, cols[i]!.type);
  }
  return w.take();
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
    if (i < cols.length) row[i] = readValue(bytes, dv, at, len, cols[i]!);
    at += len;
  }
  for (let i = stored; i < cols.length; i++) {
    const d = cols[i]!.default;
    row[i] = d !== null && d.k === 'const' ? d.v : null;
  }
  return row;
}

/**
 * An enum column holds its label's position (enum-types.ts), which no later ALTER TYPE changes: ADD VALUE
 * keeps every position and RENAME VALUE changes only the label a position reads as.
 */
function enumPosition(col: ColumnDef, v: SqlValue): string {
  if (v instanceof SqlEnum) return v.pos;
  if (col.enumType === undefined) throw new InvariantError(`enum column ${col.name} without its type`);
  return parseEnum(col.enumType, String(v)).pos;
}

/** An enum array column holds the positions of its elements, as a text array of them (same bounds, same NULLs). */
function enumPositions(col: ColumnDef, v: SqlValue): SqlArray {
  if (!(v instanceof SqlArray)) throw new InvariantError(`enum array column ${col.name} given a ${typeof v}`);
  return new SqlArray('text', v.items.map((x) => (x === null ? null : enumPosition(col, x))), v.lower);
}

function readValue(bytes: Uint8Array, dv: DataView, at: number, len: number, col: ColumnDef): SqlValue {
  if (col.type !== 'enum' && col.type !== '_enum') return readBinary(bytes, dv, at, len, col.type);
  const type = col.enumType;
  if (type === undefined) throw new RowCodecError(`enum column ${col.name} without its type`);
  if (col.type === 'enum') return enumAtPosition(type, readBinary(bytes, dv, at, len, 'text') as string);
  const a = readBinary(bytes, dv, at, len, '_text') as SqlArray;
  return new SqlArray('enum', a.items.map((p) => (p === null ? null : enumAtPosition(type, p as string))), a.lower);
}

/** The big-endian int32 at `at` (framing lengths; no DataView per row). */
function int32At(b: Uint8Array, at: number): number {
  return (b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!;
}

/**
 * Decodes only the columns at `columns` (ascending table positions) of a row value into `into`, leaving
 * the other positions as they are: for evaluating a filter before deciding to build the row. The
 * framing of every column is checked (lengths, truncation) as `decodeRow` does; values of other columns
 * are not parsed.
 */
export function decodeColumns(table: TableDef, bytes: Uint8Array, columns: readonly number[], into: SqlValue[]): void {
  const size = bytes.length;
  if (size < 3 || bytes[0] !== FORMAT) throw new RowCodecError('not a row value');
  const stored = (bytes[1]! << 8) | bytes[2]!;
  const cols = table.columns;
  let dv: DataView | undefined;
  let next = 0;
  let want = columns.length > 0 ? columns[0]! : -1;
  let at = 3;
  for (let i = 0; i < stored; i++) {
    if (at + 4 > size) throw new RowCodecError('truncated row value');
    const len = int32At(bytes, at);
    at += 4;
    if (len < -1 || (len > 0 && at + len > size)) throw new RowCodecError('truncated row value');
    if (i === want) {
      const type = cols[i]!.type;
      if (len === -1) into[i] = null;
      else if (len === 4 && type === 'int4') into[i] = int32At(bytes, at);
      else into[i] = readValue(bytes, (dv ??= new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)), at, len, cols[i]!);
      want = ++next < columns.length ? columns[next]! : -1;
    }
    if (len > 0) at += len;
  }
  // Columns the row predates (ADD COLUMN): their constant default, as decodeRow.
  for (; next < columns.length; next++) {
    const c = columns[next]!;
    const d = cols[c]?.default ?? null;
    into[c] = d !== null && d.k === 'const' ? d.v : null;
  }
}
