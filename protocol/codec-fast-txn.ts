/**
 * Transaction bodies the hand-written way (codec-fast.ts's contract, decision 0011): `TxnBody` bytes
 * decoded, validated and digested as codec-txn.ts `txnIn` does, and written as protobufjs writes them
 * for `encodeTxn`. The read, dependency and predicate entries are shared with range read replies
 * (codec-query.ts).
 */
import { BLAKE3_BYTES, blake3Into } from './crypto/blake3.ts';
import { pooledBytes } from './pooled.ts';
import type { CodecLimits } from './codec-txn.ts';
import {
  BAIL,
  bail,
  bytesLimited,
  digestIn,
  EMPTY,
  holdsAt,
  lenField,
  packedUint32s,
  Reader,
  skip,
  sharedTsField,
  sub,
  tagOf,
  tsIn,
  tsSize,
  tsWrite,
  valueOf,
  valueSize,
  varintSize,
  Writer,
} from './codec-fast-wire.ts';
import { digestKey, type ShardId, type TxnDigest } from './ids.ts';
import type { Dependency, Predicate, ReadEntry, Txn, TxnBody, WriteEntry } from './messages.ts';
import type { Timestamp } from './timestamp.ts';

// ---- transactions ----

export function readEntryIn(r: Reader): ReadEntry {
  let key: string | undefined;
  let version: Timestamp | undefined;
  while (r.pos < r.end) {
    const tag = tagOf(r);
    if (tag === 10) {
      if (key !== undefined) bail();
      key = r.key();
    } else if (tag === 18) {
      if (version !== undefined) bail();
      version = sharedTsField(r);
    } else skip(r, tag);
  }
  if (version === undefined) bail();
  return { key: key ?? '', version };
}

export function writeEntryIn(r: Reader): WriteEntry {
  const limits = r.limits;
  let key: string | undefined;
  let value: Uint8Array | undefined;
  let deleted: boolean | undefined;
  while (r.pos < r.end) {
    const tag = tagOf(r);
    if (tag === 10) {
      if (key !== undefined) bail();
      key = r.key();
    } else if (tag === 18) {
      if (value !== undefined) bail();
      value = r.bytes();
    } else if (tag === 24) {
      if (deleted !== undefined) bail();
      deleted = r.bool();
    } else skip(r, tag);
  }
  return { key: key ?? '', value: valueOf(value, deleted === true, limits) };
}

export function depIn(r: Reader): Dependency {
  const limits = r.limits;
  let digest: Uint8Array | undefined;
  let shard: number | undefined;
  let ts: Timestamp | undefined;
  while (r.pos < r.end) {
    const tag = tagOf(r);
    if (tag === 10) {
      if (digest !== undefined) bail();
      digest = r.bytes();
    } else if (tag === 16) {
      if (shard !== undefined) bail();
      shard = r.uint32();
    } else if (tag === 26) {
      if (ts !== undefined) bail();
      ts = sub(r, tsIn);
    } else skip(r, tag);
  }
  if (digest === undefined || ts === undefined) bail();
  const s = shard ?? 0;
  if (s >= limits.shardCount) bail();
  return { digest: digestIn(digest), shard: s as ShardId, ts };
}

export function predicateIn(r: Reader): Predicate {
  const limits = r.limits;
  let table: number | undefined;
  let tableVersion: Timestamp | undefined;
  let expr: Uint8Array | undefined;
  while (r.pos < r.end) {
    const tag = tagOf(r);
    if (tag === 8) {
      if (table !== undefined) bail();
      table = r.uint32();
    } else if (tag === 18) {
      if (tableVersion !== undefined) bail();
      tableVersion = sub(r, tsIn);
    } else if (tag === 26) {
      if (expr !== undefined) bail();
      expr = r.bytes();
    } else skip(r, tag);
  }
  if (tableVersion === undefined) bail();
  return { table: table ?? 0, tableVersion, expr: expr === undefined ? EMPTY : bytesLimited(expr, limits) };
}

/** Read entries: TxnBody field 3 and QueryReply field 3 alike (decision 0042), length-delimited. */
export const READ_TAG = 26;

/** Runs of fewer read entries decode in microseconds: not kept. */
export const READ_RUN_KEPT_MIN = 256;

/**
 * The last large run of read entries this process wrote into a query reply or decoded from one
 * (codec-query.ts), with the entries it encodes. The same bytes later decode to these entries instead
 * of being decoded again:
 * - a client's replies from several replicas carry the same run: they share one array, and matching
 *   compares them by identity (decision 0022);
 * - a replica that answered a range read receives, in the Prepare of a transaction whose read set is
 *   that reply's, those very bytes (decision 0042): its own entries come back, keys being the very
 *   strings its store's maps hold.
 * Decoding is a function of the bytes, so the result is what a fresh decode would give: kept runs
 * have sorted, distinct keys (the decoders accept no other; a replica's read sets are built so,
 * query-exec.ts), and `longestKey` keeps the key-size limit of whoever decodes. Memory: one run's
 * entries and bytes, replaced by the next large one.
 */
let keptRun: { readonly bytes: Uint8Array; readonly reads: readonly ReadEntry[]; readonly longestKey: number } | null = null;

/** Notes `bytes` as the encoding of the read-entry run `reads` (sorted, distinct keys), if long enough to keep. */
export function keepReadRun(bytes: Uint8Array, reads: readonly ReadEntry[]): void {
  if (reads.length < READ_RUN_KEPT_MIN) return;
  let longestKey = 0;
  for (const e of reads) if (e.key.length > longestKey) longestKey = e.key.length;
  keptRun = { bytes, reads, longestKey };
}

/**
 * The kept run's entries when the run of read entries starting at `at` (the first entry's tag) is
 * exactly its bytes, ending there; `r` then moves past them. Null otherwise (`r` unmoved).
 */
export function keptReadRun(r: Reader, at: number): readonly ReadEntry[] | null {
  const kept = keptRun;
  if (kept === null || kept.longestKey > r.limits.keyBytesMax) return null;
  const end = at + kept.bytes.length;
  if (end > r.end || (end < r.end && r.buf[end] === READ_TAG) || !holdsAt(r.buf, at, kept.bytes)) return null;
  r.pos = end;
  return kept.reads;
}

function bodyIn(r: Reader): TxnBody {
  const limits = r.limits;
  let ts: Timestamp | undefined;
  const shards: ShardId[] = [];
  let reads: ReadEntry[] = [];
  let readsReused = false;
  const writes: WriteEntry[] = [];
  const deps: Dependency[] = [];
  const predicates: Predicate[] = [];
  let meta: Uint8Array | undefined;
  const max = limits.entriesMax;
  while (r.pos < r.end) {
    const at = r.pos;
    const tag = tagOf(r);
    switch (tag) {
      case 10:
        if (ts !== undefined) bail();
        ts = sub(r, tsIn);
        break;
      case 18:
        packedUint32s(r, shards);
        break;
      case 16:
        shards.push(r.uint32() as ShardId);
        break;
      case READ_TAG: {
        if (readsReused) bail(); // entries after the reused run: not as written (the generic path decides)
        const kept = reads.length === 0 ? keptReadRun(r, at) : null;
        if (kept !== null) {
          reads = kept as ReadEntry[]; // shared, never written: readonly in the body
          readsReused = true;
        } else reads.push(sub(r, readEntryIn));
        break;
      }
      case 34:
        writes.push(sub(r, writeEntryIn));
        break;
      case 42:
        deps.push(sub(r, depIn));
        break;
      case 50:
        predicates.push(sub(r, predicateIn));
        break;
      case 58:
        if (meta !== undefined) bail();
        meta = r.bytes();
        break;
      default:
        skip(r, tag);
    }
    if (shards.length > max || reads.length > max || writes.length > max || deps.length > max || predicates.length > max) bail();
  }
  if (ts === undefined || shards.length === 0) bail();
  let prevShard = -1;
  for (const s of shards) {
    if (s >= limits.shardCount || s <= prevShard) bail();
    prevShard = s;
  }
  for (let i = 1; i < reads.length; i++) if (!(reads[i - 1]!.key < reads[i]!.key)) bail();
  for (let i = 1; i < writes.length; i++) if (!(writes[i - 1]!.key < writes[i]!.key)) bail();
  return {
    ts,
    shards: shards.length === 1 && shards[0]! < ONE_SHARD.length ? ONE_SHARD[shards[0]!]! : shards,
    reads,
    writes,
    deps: deps.length === 0 ? NO_DEPS : deps,
    predicates: predicates.length === 0 ? NO_PREDICATES : predicates,
    meta: meta === undefined ? EMPTY : bytesLimited(meta, limits),
  };
}

/**
 * Shared by every decoded body they fit (never mutated: bodies are readonly): most transactions name one
 * shard and carry no dependencies or predicates, and a replica keeps its transactions for its history
 * window, so three arrays less per transaction are three objects fewer for every scavenge to copy.
 */
const ONE_SHARD: readonly (readonly ShardId[])[] = Array.from({ length: 64 }, (_, s) => [s as ShardId]);
const NO_DEPS: readonly Dependency[] = [];
const NO_PREDICATES: readonly Predicate[] = [];

/** A transaction's bytes: decoded, validated and digested (codec-txn.ts `txnIn`). */
export function txnOf(bytes: Uint8Array, limits: CodecLimits): Txn {
  if (bytes.length === 0 || bytes.length > limits.messageBytesMax) bail();
  const body = bodyIn(new Reader(bytes, limits));
  // The digest lives as long as the transaction, whose bytes (received into Buffer's pool, like these
  // 32) hold a pool slab anyway: no ArrayBuffer of its own to allocate, track and free per transaction.
  const digest = pooledBytes(BLAKE3_BYTES) as TxnDigest;
  blake3Into(bytes, digest);
  return { body, bytes, digest, key: digestKey(digest) };
}

export function txnField(r: Reader): Txn {
  return txnOf(r.bytes(), r.limits);
}

/** A transaction's bytes, decoded the fast way, or undefined for the generic path. */
export function fastDecodeTxn(bytes: Uint8Array, limits: CodecLimits): Txn | undefined {
  try {
    return txnOf(bytes, limits);
  } catch (e) {
    if (e === BAIL) return undefined;
    throw e;
  }
}

// ---- transaction bodies (encodeTxn) ----

function keySize(key: string): number {
  return key.length > 0 ? lenField(key.length) : 0;
}

/** Bytes of a read entry's body (key, version), as written after its tag and length. */
export function readEntrySize(r: ReadEntry): number {
  return keySize(r.key) + lenField(tsSize(r.version));
}

/** Bytes a read entry takes in a transaction body: tag, length and body. */
export function readEntryBytes(r: ReadEntry): number {
  return lenField(readEntrySize(r));
}

/**
 * At most what a read entry takes beside its key's bytes, for keys of up to 16 KiB (limits.keyBytesMax is
 * 4 KiB): the entry's tag and two-byte length, the key's, and a version of 17 bytes at most.
 * `readEntryBytes(e) <= e.key.length + READ_ENTRY_FRAMING_MAX`: a bound a client sums per key cheaply.
 */
export const READ_ENTRY_FRAMING_MAX = 23;

/**
 * At most what `e` takes in a transaction body or a query reply (`readEntryBytes`), from its key's length
 * alone: a sum a client or replica runs over a large read set cheaply (in one micro-benchmark 22-25 µs
 * per 10,000 entries, the exact sizes 660-680 µs).
 */
export function readEntryBytesMax(e: ReadEntry): number {
  return e.key.length + READ_ENTRY_FRAMING_MAX;
}

/** Writes one read entry (TxnBody and QueryReply field 3); `size`: its `readEntrySize`. */
export function writeReadEntry(w: Writer, e: ReadEntry, size = readEntrySize(e)): void {
  w.open(READ_TAG, size);
  if (e.key.length > 0) w.keyField(10, e.key);
  tsWrite(w, 18, e.version);
}

/** Bytes of a write entry's body (key, value or deletion flag), as written after its tag and length. */
export function writeEntrySize(x: WriteEntry): number {
  return keySize(x.key) + valueSize(x.value);
}

/** Writes one write entry (TxnBody field 4, Query field 5) under `tag`. */
export function writeWriteEntry(w: Writer, tag: number, x: WriteEntry): void {
  w.open(tag, writeEntrySize(x));
  if (x.key.length > 0) w.keyField(10, x.key);
  if (x.value === null) {
    w.buf[w.pos++] = 24;
    w.buf[w.pos++] = 1;
  } else if (x.value.length > 0) w.bytesField(18, x.value);
}

function depSize(d: Dependency): number {
  return (d.digest.length > 0 ? lenField(d.digest.length) : 0) + (d.shard !== 0 ? 1 + varintSize(d.shard) : 0) + lenField(tsSize(d.ts));
}

function predicateSize(q: Predicate): number {
  return (q.table !== 0 ? 1 + varintSize(q.table) : 0) + lenField(tsSize(q.tableVersion)) + (q.expr.length > 0 ? lenField(q.expr.length) : 0);
}

/**
 * The bytes protobufjs writes for a `TxnBody` (the caller has checked it is canonical). Entry sizes
 * are computed again while writing rather than kept in arrays, and keys are written straight from
 * their strings: no array or Buffer per entry (a client encodes every transaction it commits).
 */
export function fastEncodeBody(b: TxnBody): Uint8Array {
  let shardsLen = 0;
  for (const s of b.shards) shardsLen += varintSize(s);
  let size = lenField(tsSize(b.ts)) + (b.shards.length > 0 ? lenField(shardsLen) : 0) + (b.meta.length > 0 ? lenField(b.meta.length) : 0);
  for (const r of b.reads) size += lenField(readEntrySize(r));
  for (const x of b.writes) size += lenField(writeEntrySize(x));
  for (const d of b.deps) size += lenField(depSize(d));
  for (const q of b.predicates) size += lenField(predicateSize(q));
  const w = new Writer(Buffer.allocUnsafe(size));
  tsWrite(w, 10, b.ts);
  if (b.shards.length > 0) {
    w.open(18, shardsLen);
    for (const s of b.shards) w.varint(s);
  }
  for (const r of b.reads) writeReadEntry(w, r);
  for (const x of b.writes) writeWriteEntry(w, 34, x);
  for (const d of b.deps) {
    w.open(42, depSize(d));
    if (d.digest.length > 0) w.bytesField(10, d.digest);
    if (d.shard !== 0) {
      w.buf[w.pos++] = 16;
      w.varint(d.shard);
    }
    tsWrite(w, 26, d.ts);
  }
  for (const q of b.predicates) {
    w.open(50, predicateSize(q));
    if (q.table !== 0) {
      w.buf[w.pos++] = 8;
      w.varint(q.table);
    }
    tsWrite(w, 18, q.tableVersion);
    if (q.expr.length > 0) w.bytesField(26, q.expr);
  }
  if (b.meta.length > 0) w.bytesField(58, b.meta);
  if (w.pos !== size) throw new Error(`fast encoder wrote ${w.pos} of ${size} bytes`);
  return w.buf;
}
