/**
 * What a replica writes to its log before it acts (PROTOCOL §9: one vote per transaction per
 * replica, forever, persisted before it is sent): its ST1 votes, its ST2 decisions, and the
 * certified outcomes it applied. Encoded with the wire format (`LogRecord` in pesto.proto); decoding
 * validates like any message from the network, since a log can be damaged.
 */
import { pesto } from './gen/pesto.js';
import { decodeMessage, decodeTxn, encodeMessage } from './codec.ts';
import { fail, ok, type Result } from './errors.ts';
import { digestKey, type ShardId } from './ids.ts';
import { REDECODE_LIMITS, StoredWriteback } from './stored.ts';
import type { CommittedTxn, Outcome, Txn, VoteDecision, Writeback } from './messages.ts';

export type LogRecord =
  | { readonly kind: 'vote'; readonly txn: Txn; readonly decision: VoteDecision; readonly conflict: CommittedTxn | null }
  | { readonly kind: 'st2'; readonly txn: Txn; readonly decision: Outcome; readonly view: number; readonly logShard: ShardId }
  /**
   * `writeback` as it arrived (its `txn` may be null: a voter already had the transaction), so a
   * received writeback is logged with the bytes it came in (codec.ts keeps them), never re-encoded;
   * `txn` is its transaction either way.
   */
  | { readonly kind: 'writeback'; readonly writeback: Writeback; readonly txn: Txn };

const KIND = { vote: 1, st2: 2, writeback: 3 } as const;
const DECISION: Record<VoteDecision, pesto.Decision> = { commit: pesto.Decision.COMMIT, abstain: pesto.Decision.ABSTAIN, abort: pesto.Decision.ABORT };

/** The record's fields as protobufjs takes them (encodeLogRecord writes the same bytes by hand). */
export function logRecordFields(r: LogRecord): pesto.LogRecord.$Properties {
  const p: pesto.LogRecord.$Properties = { kind: KIND[r.kind] };
  switch (r.kind) {
    case 'vote':
      p.txn = r.txn.bytes;
      p.decision = DECISION[r.decision];
      if (r.conflict !== null) {
        p.message = encodeMessage({ kind: 'prepareReply', req: 0, digest: r.txn.digest, shard: 0 as ShardId, decision: 'abort', sig: null, conflict: r.conflict, decided: null, conflictPrepared: null });
      }
      break;
    case 'st2':
      p.txn = r.txn.bytes;
      p.decision = DECISION[r.decision];
      p.view = r.view;
      p.logShard = r.logShard;
      break;
    case 'writeback':
      if (!carriesTxn(r.writeback)) p.txn = r.txn.bytes;
      p.message = encodeMessage(r.writeback);
      break;
  }
  return p;
}

/** The writeback's encoding embeds its transaction (a stored one has `txn` null but may carry it in its bytes). */
function carriesTxn(wb: Writeback): boolean {
  return wb instanceof StoredWriteback ? wb.carriesTxn : wb.txn !== null;
}

function varintSize(v: number): number {
  return v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x20_0000 ? 3 : v < 0x1000_0000 ? 4 : 5;
}

function putVarint(b: Buffer, at: number, v: number): number {
  while (v > 0x7f) {
    b[at++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  b[at++] = v;
  return at;
}

/**
 * One record in the wire format of `LogRecord` (pesto.proto), written directly (the bytes protobufjs
 * writes for `logRecordFields(r)`): a replica logs one or two per transaction, each embedding the
 * transaction or the writeback's bytes. Into a buffer of its own, or, with `room`, into the room's
 * buffer: then the result is a view of it.
 */
export function encodeLogRecord(r: LogRecord, room?: RecordRoom): Uint8Array {
  const kind = KIND[r.kind];
  let txn: Uint8Array | undefined;
  let decision = 0;
  let view = 0;
  let logShard = 0;
  let message: Uint8Array | undefined;
  switch (r.kind) {
    case 'vote':
      txn = r.txn.bytes;
      decision = DECISION[r.decision];
      if (r.conflict !== null) message = logRecordFields(r).message!;
      break;
    case 'st2':
      txn = r.txn.bytes;
      decision = DECISION[r.decision];
      view = r.view;
      logShard = r.logShard;
      break;
    case 'writeback':
      if (!carriesTxn(r.writeback)) txn = r.txn.bytes;
      message = encodeMessage(r.writeback);
      break;
  }
  let size = 1 + varintSize(kind);
  if (txn !== undefined && txn.length > 0) size += 1 + varintSize(txn.length) + txn.length;
  if (decision !== 0) size += 1 + varintSize(decision);
  if (view !== 0) size += 1 + varintSize(view);
  if (logShard !== 0) size += 1 + varintSize(logShard);
  if (message !== undefined && message.length > 0) size += 1 + varintSize(message.length) + message.length;
  const b = room === undefined ? Buffer.allocUnsafe(size) : room.room(size);
  b[0] = 8;
  let at = putVarint(b, 1, kind);
  if (txn !== undefined && txn.length > 0) {
    b[at++] = 18;
    at = putVarint(b, at, txn.length);
    b.set(txn, at);
    at += txn.length;
  }
  if (decision !== 0) {
    b[at++] = 24;
    at = putVarint(b, at, decision);
  }
  if (view !== 0) {
    b[at++] = 32;
    at = putVarint(b, at, view);
  }
  if (logShard !== 0) {
    b[at++] = 40;
    at = putVarint(b, at, logShard);
  }
  if (message !== undefined && message.length > 0) {
    b[at++] = 50;
    at = putVarint(b, at, message.length);
    b.set(message, at);
  }
  return b.length === size ? b : b.subarray(0, size);
}

/**
 * Where `encodeLogRecord` may write: `room(size)` returns a buffer whose first `size` bytes the caller
 * overwrites. The log's group buffer and a compaction's slice are rooms (replica/shell/wal-frames.ts
 * `FrameBuffer`): a record is encoded in place where it is framed, not copied there (decisions 0029, 0062).
 */
export interface RecordRoom {
  room(size: number): Buffer;
}

function decisionIn(d: pesto.Decision | null | undefined): VoteDecision | null {
  switch (d ?? pesto.Decision.COMMIT) {
    case pesto.Decision.COMMIT:
      return 'commit';
    case pesto.Decision.ABSTAIN:
      return 'abstain';
    case pesto.Decision.ABORT:
      return 'abort';
    default:
      return null;
  }
}

export function decodeLogRecord(bytes: Uint8Array): Result<LogRecord, string> {
  let p: pesto.LogRecord;
  try {
    p = pesto.LogRecord.decode(bytes);
  } catch {
    return fail('malformed');
  }
  const decision = decisionIn(p.decision);
  if (decision === null) return fail('bad-decision');
  if (p.kind === KIND.writeback) {
    const m = decodeMessage(p.message ?? new Uint8Array(0), REDECODE_LIMITS);
    if (!m.ok || m.value.kind !== 'writeback') return fail(m.ok ? 'not-a-writeback' : m.reason);
    const wb = m.value;
    if (wb.txn !== null) return ok({ kind: 'writeback', writeback: wb, txn: wb.txn });
    // Logged without the transaction inside: it is beside it (and must be the one named).
    const txn = decodeTxn(p.txn ?? new Uint8Array(0), REDECODE_LIMITS);
    if (!txn.ok) return fail(txn.reason);
    if (txn.value.key !== digestKey(wb.digest)) return fail('digest-mismatch');
    return ok({ kind: 'writeback', writeback: wb, txn: txn.value });
  }
  const txn = decodeTxn(p.txn ?? new Uint8Array(0), REDECODE_LIMITS);
  if (!txn.ok) return fail(txn.reason);
  if (p.kind === KIND.vote) {
    let conflict: CommittedTxn | null = null;
    if (decision === 'abort') {
      const m = decodeMessage(p.message ?? new Uint8Array(0), REDECODE_LIMITS);
      if (!m.ok || m.value.kind !== 'prepareReply' || m.value.conflict === null) return fail('abort-vote-without-conflict');
      conflict = m.value.conflict;
    }
    return ok({ kind: 'vote', txn: txn.value, decision, conflict });
  }
  if (p.kind === KIND.st2) {
    if (decision === 'abstain') return fail('bad-decision');
    return ok({ kind: 'st2', txn: txn.value, decision, view: p.view ?? 0, logShard: (p.logShard ?? 0) as ShardId });
  }
  return fail('unknown-kind');
}

/**
 * The records of a log's frames, each decoded as the replay takes it (replica/main.ts, log-replay.ts
 * `restoreFrom`): decoding them all first kept every decoded certificate alive at once, and replaying
 * a 59 MB checkpoint cost the collector more than the replay itself (decision 0062). Throws on a
 * record that does not decode (`where` names the log in the message).
 */
export function* decodedLogRecords(frames: readonly Uint8Array[], where: string): Generator<LogRecord, void, undefined> {
  for (let i = 0; i < frames.length; i++) {
    const r = decodeLogRecord(frames[i]!);
    if (!r.ok) throw new Error(`damaged log record ${i} in ${where}: ${r.reason}`);
    yield r.value;
  }
}
