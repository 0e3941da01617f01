/**
 * Range reads (`Query`, decision 0060) and their replies (`QueryReply`, decision 0015) the hand-written
 * way, under codec-fast.ts's contract. A query goes to 3f+1 replicas, twice when its eager round fails
 * (the sync round carries the snapshot proposal, a digest and holders per transaction), and protobufjs
 * decoded each into an object per field and entry.
 *
 * Replies: a 10,000-row scan's reply holds 10,000 read entries; protobufjs built two objects per entry
 * each way, then codec.ts a third. codec.ts calls these (through codec-fast.ts) after fastDecode/fastEncode.
 *
 * A client decodes 3f+1 replies to one range read, and correct replicas send the same read set, byte for
 * byte. The decoder keeps the last large read set it decoded with a copy of its bytes, and the encoder
 * the last one it wrote (codec-fast-txn.ts `keepReadRun`); a reply whose read entries are those very
 * bytes gets that same (readonly) array without decoding them again (decision 0022), and matching
 * (client/core/range-read.ts) then compares the arrays by identity.
 *
 * Digest-only replies (decision 0027): a reply sent with `digestOnly` carries `body_digest`
 * (query-digest.ts) and neither result nor read entries; decoded, it has `bodyDigest`, an empty result
 * and no reads. A reply with both a digest and a result or reads, a digest of the wrong length, or
 * neither a digest nor a result is refused (the generic path, codec.ts, refuses the same).
 */
import type { CodecLimits } from './codec-txn.ts';
import { depIn, keepReadRun, keptReadRun, predicateIn, READ_RUN_KEPT_MIN, READ_TAG, readEntryIn, writeEntryIn, writeEntrySize, writeWriteEntry } from './codec-fast-txn.ts';
import { BAIL, bail, digestIn, EMPTY, encodeWith, lenField, packedUint32s, Reader, reqSize, skip, sub, tagOf, tsIn, tsSize, tsWrite, varintSize, writeReq } from './codec-fast-wire.ts';
import { DIGEST_BYTES, type TxnDigest } from './ids.ts';
import type { Dependency, Message, Predicate, Query, ReadEntry, SnapshotEntry, WriteEntry } from './messages.ts';
import type { Timestamp } from './timestamp.ts';
import { queryBodyDigest, readEntrySizes, writeReadEntries } from './query-digest.ts';
import { BLAKE3_BYTES } from './crypto/blake3.ts';

/** SQL text of one statement, in UTF-16 code units (a string's length). */
export const QUERY_SQL_CHARS_MAX = 1024 * 1024;
/** A query's TimeZone setting: a zone's name or a POSIX zone (sql/session-zone.ts), never long. */
export const QUERY_TIME_ZONE_CHARS_MAX = 256;

const QUERY_TAG = 98; // Envelope field 12, length-delimited
const QUERY_REPLY_TAG = 106; // Envelope field 13, length-delimited
const BODY_DIGEST_TAG = 74; // QueryReply field 9, length-delimited
const RESULT_TAG = 34; // QueryReply field 4, length-delimited

function queryReplyIn(r: Reader): Message {
  const limits = r.limits;
  let req: number | undefined;
  let retry: number | undefined;
  let result: Uint8Array | undefined;
  let reads: ReadEntry[] = [];
  /** Where the read entries start and end (-1: none yet; they are contiguous as written, else not kept). */
  let readsStart = -1;
  let readsEnd = -1;
  let readsContiguous = true;
  let readsReused = false;
  const predicates: Predicate[] = [];
  const deps: Dependency[] = [];
  // Where each snapshot digest starts: the lists are made only when asked for (`lazyDigests`).
  const snapshotCommitted: number[] = [];
  const snapshotPrepared: number[] = [];
  let bodyDigest: Uint8Array | undefined;
  while (r.pos < r.end) {
    const at = r.pos;
    const tag = tagOf(r);
    switch (tag) {
      case 8:
        if (req !== undefined) bail();
        req = r.uint32();
        break;
      case 16:
        if (retry !== undefined) bail();
        retry = r.uint32();
        break;
      case RESULT_TAG:
        if (result !== undefined) bail();
        result = r.bytes();
        break;
      case READ_TAG: {
        if (readsReused) bail(); // entries after the reused run: not as written (the generic path decides)
        if (readsStart === -1) {
          readsStart = at;
          const kept = keptReadRun(r, at);
          if (kept !== null) {
            reads = kept as ReadEntry[]; // shared, never written: readonly in the message
            readsReused = true;
            break;
          }
        } else if (readsEnd !== at) readsContiguous = false;
        const e = sub(r, readEntryIn);
        // Sorted by key and distinct (codec-txn.ts readsIn).
        if (reads.length > 0 && !(reads[reads.length - 1]!.key < e.key)) bail();
        reads.push(e);
        readsEnd = r.pos;
        break;
      }
      case 42:
        predicates.push(sub(r, predicateIn));
        break;
      case 50:
        deps.push(sub(r, depIn));
        break;
      case 58:
        snapshotCommitted.push(digestAt(r));
        break;
      case 66:
        snapshotPrepared.push(digestAt(r));
        break;
      case BODY_DIGEST_TAG:
        if (bodyDigest !== undefined) bail();
        bodyDigest = r.bytes();
        break;
      default:
        skip(r, tag);
    }
  }
  const max = limits.entriesMax;
  if (bodyDigest !== undefined) {
    if (bodyDigest.length !== BLAKE3_BYTES || result !== undefined || reads.length > 0) bail();
  } else if (result === undefined || result.length === 0) bail();
  if (reads.length > max || predicates.length > max || deps.length > max || snapshotCommitted.length > max || snapshotPrepared.length > max) bail();
  if (!readsReused && readsContiguous && reads.length >= READ_RUN_KEPT_MIN) keepReadRun(r.buf.slice(readsStart, readsEnd), reads);
  const base = { kind: 'queryReply', req: req ?? 0, retry: retry ?? 0, predicates, deps, snapshotCommitted: NO_DIGESTS, snapshotPrepared: NO_DIGESTS } as const;
  const m = bodyDigest === undefined ? { ...base, result: result!, reads } : { ...base, result: EMPTY, reads: [], digestOnly: true, bodyDigest };
  lazyDigests(m, 'snapshotCommitted', r.buf, snapshotCommitted);
  lazyDigests(m, 'snapshotPrepared', r.buf, snapshotPrepared);
  return m;
}

const NO_DIGESTS: readonly TxnDigest[] = [];

/** Skips one length-delimited digest field (32 bytes, else the generic path decides); returns where its bytes start. */
function digestAt(r: Reader): number {
  const end = r.delimited();
  const at = r.pos;
  if (end - at !== DIGEST_BYTES) bail();
  r.pos = end;
  return at;
}

/**
 * A snapshot vote (a reply's transactions, about 1,000 for a 10,000-row scan) is read only when the eager
 * round fails, and a view per digest cost the client about 0.15 ms per reply: the list is made on first
 * read, as views of the message's bytes (a client's frames are its own copies, net/frame-reader.ts).
 */
function lazyDigests(m: object, field: 'snapshotCommitted' | 'snapshotPrepared', buf: Uint8Array, starts: readonly number[]): void {
  if (starts.length === 0) return;
  Object.defineProperty(m, field, {
    enumerable: true,
    configurable: true,
    get(): readonly TxnDigest[] {
      const list = starts.map((s) => buf.subarray(s, s + DIGEST_BYTES) as TxnDigest);
      Object.defineProperty(m, field, { value: list, enumerable: true, writable: false, configurable: false });
      return list;
    },
  });
}

/** A `QueryReply` envelope decoded the fast way, or undefined for the generic path. Never throws. */
export function fastDecodeQueryReply(bytes: Uint8Array, limits: CodecLimits): Message | undefined {
  try {
    const r = new Reader(bytes, limits);
    if (r.end === 0 || tagOf(r) !== QUERY_REPLY_TAG) return undefined;
    const m = sub(r, queryReplyIn);
    return r.pos === r.end ? m : undefined;
  } catch (e) {
    if (e === BAIL) return undefined;
    throw e;
  }
}

/** The envelope bytes protobufjs writes for a `QueryReply`. */
export function fastEncodeQueryReply(full: Extract<Message, { kind: 'queryReply' }>): Uint8Array {
  const bodyDigest = replyBodyDigest(full);
  const m = bodyDigest === null ? full : { ...full, result: EMPTY, reads: [] };
  const readSizes = readEntrySizes(m.reads);
  const depSizes = m.deps.map((d) => (d.digest.length > 0 ? lenField(d.digest.length) : 0) + (d.shard !== 0 ? 1 + varintSize(d.shard) : 0) + lenField(tsSize(d.ts)));
  const predSizes = m.predicates.map((q) => (q.table !== 0 ? 1 + varintSize(q.table) : 0) + lenField(tsSize(q.tableVersion)) + (q.expr.length > 0 ? lenField(q.expr.length) : 0));
  let inner = reqSize(m.req) + (m.retry !== 0 ? 1 + varintSize(m.retry) : 0) + (m.result.length > 0 ? lenField(m.result.length) : 0);
  for (const n of readSizes) inner += lenField(n);
  for (const n of predSizes) inner += lenField(n);
  for (const n of depSizes) inner += lenField(n);
  for (const d of m.snapshotCommitted) inner += lenField(d.length);
  for (const d of m.snapshotPrepared) inner += lenField(d.length);
  if (bodyDigest !== null) inner += lenField(bodyDigest.length);
  return encodeWith(lenField(inner), (w) => {
    w.open(QUERY_REPLY_TAG, inner);
    writeReq(w, m.req);
    if (m.retry !== 0) {
      w.buf[w.pos++] = 16;
      w.varint(m.retry);
    }
    const runStart = w.pos;
    writeReadEntries(w, m.reads, readSizes);
    // A replica's large read set: the Prepare that may follow carries this very run (codec-fast-txn.ts).
    keepReadRun(w.buf.subarray(runStart, w.pos), m.reads);
    if (m.result.length > 0) w.bytesField(RESULT_TAG, m.result);
    m.predicates.forEach((q, i) => {
      w.open(42, predSizes[i]!);
      if (q.table !== 0) {
        w.buf[w.pos++] = 8;
        w.varint(q.table);
      }
      tsWrite(w, 18, q.tableVersion);
      if (q.expr.length > 0) w.bytesField(26, q.expr);
    });
    m.deps.forEach((d, i) => {
      w.open(50, depSizes[i]!);
      if (d.digest.length > 0) w.bytesField(10, d.digest);
      if (d.shard !== 0) {
        w.buf[w.pos++] = 16;
        w.varint(d.shard);
      }
      tsWrite(w, 26, d.ts);
    });
    for (const d of m.snapshotCommitted) w.bytesField(58, d);
    for (const d of m.snapshotPrepared) w.bytesField(66, d);
    if (bodyDigest !== null) w.bytesField(BODY_DIGEST_TAG, bodyDigest);
  });
}

/**
 * What a reply sends as its body digest: null for a full reply; for one marked `digestOnly`, the digest
 * it already carries (a decoded one) or the digest of its result and read set (a replica's).
 */
export function replyBodyDigest(m: Extract<Message, { kind: 'queryReply' }>): Uint8Array | null {
  if (m.digestOnly !== true) return null;
  return m.bodyDigest ?? queryBodyDigest(m.result, m.reads);
}

// ---- queries ----

/** protobufjs keeps a leading byte-order mark in a string; so does this. Malformed UTF-8: the generic path decides. */
const fromUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function snapshotEntryIn(r: Reader): SnapshotEntry {
  const limits = r.limits;
  let digest: Uint8Array | undefined;
  const holders: number[] = [];
  while (r.pos < r.end) {
    const tag = tagOf(r);
    if (tag === 10) {
      if (digest !== undefined) bail();
      digest = r.bytes();
    } else if (tag === 18) {
      packedUint32s(r, holders); // what protobufjs writes; unpacked ones are accepted as protobufjs accepts them
    } else if (tag === 16) holders.push(r.uint32());
    else skip(r, tag);
    if (holders.length > limits.entriesMax) bail();
  }
  for (const h of holders) if (h >= limits.replicasPerShard) bail();
  return { digest: digestIn(digest ?? EMPTY), holders };
}

function queryIn(r: Reader): Query {
  const limits = r.limits;
  let req: number | undefined;
  let ts: Timestamp | undefined;
  let sql: string | undefined;
  let params: Uint8Array | undefined;
  let recon: boolean | undefined;
  let retry: number | undefined;
  let digestOnly: boolean | undefined;
  let timeZone: string | undefined;
  const ownWrites: WriteEntry[] = [];
  const snapshot: SnapshotEntry[] = [];
  while (r.pos < r.end) {
    const tag = tagOf(r);
    switch (tag) {
      case 8:
        if (req !== undefined) bail();
        req = r.uint32();
        break;
      case 18:
        if (ts !== undefined) bail();
        ts = sub(r, tsIn);
        break;
      case 26: {
        if (sql !== undefined) bail();
        const end = r.delimited();
        // More bytes than 3 per code unit allowed: longer than the limit whatever they decode to.
        if (end - r.pos > 3 * QUERY_SQL_CHARS_MAX) bail();
        try {
          sql = fromUtf8.decode(r.buf.subarray(r.pos, end));
        } catch {
          bail();
        }
        r.pos = end;
        break;
      }
      case 34:
        if (params !== undefined) bail();
        params = r.bytes();
        break;
      case 42:
        ownWrites.push(sub(r, writeEntryIn));
        break;
      case 48:
        if (recon !== undefined) bail();
        recon = r.bool();
        break;
      case 56:
        if (retry !== undefined) bail();
        retry = r.uint32();
        break;
      case 66:
        snapshot.push(sub(r, snapshotEntryIn));
        break;
      case 72:
        if (digestOnly !== undefined) bail();
        digestOnly = r.bool();
        break;
      case 82: {
        if (timeZone !== undefined) bail();
        const end = r.delimited();
        if (end - r.pos > QUERY_TIME_ZONE_CHARS_MAX) bail();
        try {
          timeZone = fromUtf8.decode(r.buf.subarray(r.pos, end));
        } catch {
          bail();
        }
        r.pos = end;
        break;
      }
      default:
        skip(r, tag);
    }
    if (ownWrites.length > limits.entriesMax || snapshot.length > limits.entriesMax) bail();
  }
  if (ts === undefined || sql === undefined || sql.length === 0 || sql.length > QUERY_SQL_CHARS_MAX) bail();
  if (params !== undefined && params.length > limits.valueBytesMax) bail();
  for (let i = 1; i < ownWrites.length; i++) if (!(ownWrites[i - 1]!.key < ownWrites[i]!.key)) bail();
  if ((retry ?? 0) === 0 && snapshot.length > 0) bail();
  return {
    kind: 'query',
    req: req ?? 0,
    ts,
    sql,
    params: params ?? new Uint8Array(0),
    ownWrites,
    recon: recon ?? false,
    retry: retry ?? 0,
    snapshot,
    ...(digestOnly === true ? { digestOnly: true } : {}),
    ...(timeZone !== undefined && timeZone !== '' ? { timeZone } : {}),
  };
}

/** A `Query` envelope decoded the fast way, or undefined for the generic path. Never throws. */
export function fastDecodeQuery(bytes: Uint8Array, limits: CodecLimits): Message | undefined {
  try {
    const r = new Reader(bytes, limits);
    if (r.end === 0 || tagOf(r) !== QUERY_TAG) return undefined;
    const m = sub(r, queryIn);
    return r.pos === r.end ? m : undefined;
  } catch (e) {
    if (e === BAIL) return undefined;
    throw e;
  }
}

/** A UTF-16 surrogate without its partner: protobufjs and Buffer encode it differently. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function holdersSize(holders: readonly number[]): number {
  let n = 0;
  for (const h of holders) n += varintSize(h);
  return n;
}

function snapshotEntrySize(e: SnapshotEntry): number {
  return (e.digest.length > 0 ? lenField(e.digest.length) : 0) + (e.holders.length > 0 ? lenField(holdersSize(e.holders)) : 0);
}

/** The envelope bytes protobufjs writes for a `Query`; undefined for SQL text with a lone surrogate (the generic path's). */
export function fastEncodeQuery(m: Query): Uint8Array | undefined {
  if (LONE_SURROGATE.test(m.sql) || (m.timeZone !== undefined && LONE_SURROGATE.test(m.timeZone))) return undefined;
  const sqlBytes = Buffer.byteLength(m.sql, 'utf8');
  let inner = reqSize(m.req) + lenField(tsSize(m.ts)) + (sqlBytes > 0 ? lenField(sqlBytes) : 0) + (m.params.length > 0 ? lenField(m.params.length) : 0);
  for (const x of m.ownWrites) inner += lenField(writeEntrySize(x));
  if (m.recon) inner += 2;
  if (m.retry !== 0) inner += 1 + varintSize(m.retry);
  for (const e of m.snapshot) inner += lenField(snapshotEntrySize(e));
  if (m.digestOnly === true) inner += 2;
  const zoneBytes = m.timeZone === undefined ? 0 : Buffer.byteLength(m.timeZone, 'utf8');
  if (zoneBytes > 0) inner += lenField(zoneBytes);
  return encodeWith(lenField(inner), (w) => {
    w.open(QUERY_TAG, inner);
    writeReq(w, m.req);
    tsWrite(w, 18, m.ts);
    if (sqlBytes > 0) {
      w.open(26, sqlBytes);
      w.pos += w.buf.write(m.sql, w.pos, sqlBytes, 'utf8');
    }
    if (m.params.length > 0) w.bytesField(34, m.params);
    for (const x of m.ownWrites) writeWriteEntry(w, 42, x);
    if (m.recon) {
      w.buf[w.pos++] = 48;
      w.buf[w.pos++] = 1;
    }
    if (m.retry !== 0) {
      w.buf[w.pos++] = 56;
      w.varint(m.retry);
    }
    for (const e of m.snapshot) {
      w.open(66, snapshotEntrySize(e));
      if (e.digest.length > 0) w.bytesField(10, e.digest);
      if (e.holders.length > 0) {
        w.open(18, holdersSize(e.holders));
        for (const h of e.holders) w.varint(h);
      }
    }
    if (m.digestOnly === true) {
      w.buf[w.pos++] = 72;
      w.buf[w.pos++] = 1;
    }
    if (zoneBytes > 0) {
      w.open(82, zoneBytes);
      w.pos += w.buf.write(m.timeZone!, w.pos, zoneBytes, 'utf8');
    }
  });
}
