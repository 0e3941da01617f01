/**
 * Which shard owns what (PROTOCOL §6, §8).
 *
 * - `logShardOf`: the shard that logs a transaction's ST2 decision, `shards[digest[0] % shards.length]`
 *   over the transaction's sorted involved shards. Deterministic from digest and shards, so every
 *   client and replica agrees and a Byzantine client cannot pick a shard it likes without grinding
 *   digests (which only moves load, not safety).
 * - `shardOfKey`: FNV-1a (32-bit) of the key's bytes modulo the shard count for key-value keys. A SQL
 *   row key (sql/row-key.ts: a 4-byte big-endian table id, first byte 0 for every id below
 *   2^24) lives whole on shard `tableId % shardCount`, so a table's range scans stay on one shard;
 *   table 0 is read from shard 0, but for SERIAL counters, which live on their table's shard. Stable
 *   across processes and versions: changing it moves data.
 * - `onEveryShard`: table 0 (the system table: the replicated catalog and the storage counter,
 *   sql/replicated-catalog.ts) is stored by every shard, so each shard's replicas hold the catalog that
 *   statements and predicates on its tables are bound against. A write of such a key involves every
 *   shard (`addShardsOfWrite`; replicas refuse a transaction that writes one without listing them all).
 *   A read goes to shard 0, and whichever shards the transaction involves validate it (`shardOwns`):
 *   a read of such a key adds no shard (`addShardOfRead`), so a SQL transaction on one table's rows
 *   involves that table's shard alone (shard 0 when it touched nothing else).
 */
import { InvariantError } from './errors.ts';
import type { ShardId } from './ids.ts';
import type { Key } from './messages.ts';

export function logShardOf(digest: Uint8Array, shards: readonly ShardId[]): ShardId {
  if (shards.length === 0 || digest.length === 0) throw new InvariantError('logShardOf needs a digest and at least one shard');
  return shards[digest[0]! % shards.length]!;
}

/** FNV-1a 32-bit over the key's bytes (latin1 chars), then modulo `shardCount`. */
export function shardOfKey(key: Key, shardCount: number): ShardId {
  if (!Number.isInteger(shardCount) || shardCount < 1) throw new InvariantError(`shard count must be positive, got ${shardCount}`);
  if (shardCount === 1) return 0 as ShardId;
  if (key.length >= 4 && key.charCodeAt(0) === 0) {
    const tableId = (key.charCodeAt(1) << 16) + (key.charCodeAt(2) << 8) + key.charCodeAt(3);
    return shardOfTable(tableId === 0 && key.startsWith(SERIAL_COUNTER_PREFIX) ? counterTable(key) : tableId, shardCount);
  }
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i) & 0xff;
    h = Math.imul(h, 0x01000193);
  }
  return ((h >>> 0) % shardCount) as ShardId;
}

/** The shard that stores the rows of the table (storage) `tableId`. */
export function shardOfTable(tableId: number, shardCount: number): ShardId {
  return (tableId % shardCount) as ShardId;
}

/**
 * Table 0's keys that live with a table instead of on every shard: the sequence counters
 * (client/sql/sequence-values.ts), `<prefix><table id>:<column>`, on their table's shard, so an INSERT
 * that takes a value involves that shard alone.
 */
export const SERIAL_COUNTER_PREFIX = '\x00\x00\x00\x00serial:';

/** The table id a SERIAL counter key names (0 when malformed: shard 0). */
function counterTable(key: Key): number {
  let id = 0;
  for (let i = SERIAL_COUNTER_PREFIX.length; i < key.length && i < SERIAL_COUNTER_PREFIX.length + 8; i++) {
    const c = key.charCodeAt(i) - 48;
    if (c < 0 || c > 9) break;
    id = id * 10 + c;
  }
  return id;
}

/** Whether `key` is a key of table 0 that every shard stores (see the module comment). */
export function onEveryShard(key: Key): boolean {
  return key.length >= 4 && key.charCodeAt(0) === 0 && key.charCodeAt(1) === 0 && key.charCodeAt(2) === 0 && key.charCodeAt(3) === 0 && !key.startsWith(SERIAL_COUNTER_PREFIX);
}

/** Whether shard `shard` of `shardCount` stores and validates `key`. */
export function shardOwns(key: Key, shard: ShardId, shardCount: number): boolean {
  return shardCount === 1 || onEveryShard(key) || shardOfKey(key, shardCount) === shard;
}

/**
 * Adds the shard a read of `key` involves to `into`: its own, or none for a key of table 0, which every
 * shard stores and validates (the transaction's other shards do; one that involves no other shard is
 * validated on shard 0, ClientCore.commit).
 */
export function addShardOfRead(into: Set<ShardId>, key: Key, shardCount: number): void {
  if (shardCount === 1 || !onEveryShard(key)) into.add(shardOfKey(key, shardCount));
}

/** Adds the shards a write of `key` involves to `into`: its own, or every shard for a key of table 0. */
export function addShardsOfWrite(into: Set<ShardId>, key: Key, shardCount: number): void {
  if (shardCount > 1 && onEveryShard(key)) for (let s = 0; s < shardCount; s++) into.add(s as ShardId);
  else into.add(shardOfKey(key, shardCount));
}
