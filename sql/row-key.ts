/**
 * Where SQL rows live in a replica's key space (DESIGN §4). A row's key is
 *
 *     tablePrefix(tableId) ‖ encodeKey(primary key values)        (sql/key-encoding.ts)
 *
 * with the table id as 4 bytes big-endian (unsigned), so all rows of one table are contiguous, tables
 * are ordered by id, and one table's rows sort by primary key: a primary-key range scan of table t over
 * `[lo, hi)` is the store walk `[prefix ‖ lo, prefix ‖ hi)`, and the whole table is
 * `[prefix(t), prefix(t + 1))`. Keys are latin1 byte strings like every store key.
 *
 * Caveats: the raw key-value interface (`pesto kv`) shares the key space; its keys would read as rows of
 * absurd table ids (>= 2^24 for any printable first byte), far above what the catalog allocates (ids
 * count up from 1 in DDL order). Secondary-index entries are not stored yet (see ReplicaRowSource).
 */
import type { Key } from '../protocol/messages.ts';

export const TABLE_PREFIX_BYTES = 4;
const TABLE_ID_MAX = 0xffffffff;

/** The 4-byte big-endian prefix of every row key of `tableId`. */
export function tablePrefix(tableId: number): string {
  if (!Number.isInteger(tableId) || tableId < 0 || tableId > TABLE_ID_MAX) throw new RangeError(`table id ${tableId} out of range`);
  return String.fromCharCode(tableId >>> 24, (tableId >>> 16) & 255, (tableId >>> 8) & 255, tableId & 255);
}

/** The store key of a row: table prefix then the primary key's order-preserving encoding. */
export function rowKey(tableId: number, encodedPk: string): Key {
  return tablePrefix(tableId) + encodedPk;
}

/** The table a key belongs to, or null for a key too short to carry a table prefix. */
export function tableIdOfKey(key: Key): number | null {
  if (key.length < TABLE_PREFIX_BYTES) return null;
  return ((key.charCodeAt(0) << 24) >>> 0) + (key.charCodeAt(1) << 16) + (key.charCodeAt(2) << 8) + key.charCodeAt(3);
}

/** The encoded primary key of a row key (the part after the table prefix). */
export function pkOfRowKey(key: Key): string {
  return key.slice(TABLE_PREFIX_BYTES);
}

/** The store range `[lo, hi)` of a primary-key range `[pkLo, pkHi)` of a table (pkHi null = table end). */
export function tableKeyRange(tableId: number, pkLo: string, pkHi: string | null): { lo: Key; hi: Key | null } {
  const p = tablePrefix(tableId);
  return { lo: p + pkLo, hi: pkHi !== null ? p + pkHi : tableId === TABLE_ID_MAX ? null : tablePrefix(tableId + 1) };
}
