/**
 * A replica's state to and from its write-ahead log (DESIGN §4, PROTOCOL §9): `restoreFrom` rebuilds
 * the core after a restart, in log order (stored votes, where a COMMIT vote's writes are prepared
 * again; ST2 decisions, the highest view winning; applied outcomes), and `checkpointOf` lists the
 * records that recreate what the replica must keep, for log compaction: a writeback for every commit
 * proof the store still holds (versions and committed reads), the certified outcomes of transactions
 * inside the history window, and the votes and ST2 decisions of undecided ones.
 */
import { assertNever } from '../../protocol/errors.ts';
import type { DigestKey } from '../../protocol/ids.ts';
import type { LogRecord } from '../../protocol/log-record.ts';
import type { CommittedTxn, Txn, Writeback } from '../../protocol/messages.ts';
import { StoredProof, txnTs } from '../../protocol/stored.ts';
import { tsLess, type Timestamp } from '../../protocol/timestamp.ts';
import type { Store } from './store.ts';
import type { TxnRecord } from './txn-record.ts';

/** The parts of the replica core that replay and checkpointing touch. */
export interface ReplayTarget {
  readonly store: Store;
  record(key: DigestKey): TxnRecord;
  records(): Iterable<[DigestKey, TxnRecord]>;
  applyPrepared(rec: TxnRecord, txn: Txn): void;
  writeback(wb: Writeback): void;
  lowWatermark(): Timestamp;
}

export function restoreFrom(records: Iterable<LogRecord>, t: ReplayTarget): void {
  for (const r of records) {
    switch (r.kind) {
      case 'vote': {
        const rec = t.record(r.txn.key);
        rec.txn ??= r.txn;
        if (rec.vote !== null || rec.isDecided) break;
        rec.vote = r.decision;
        rec.conflict = r.conflict;
        rec.state = 'voted';
        if (r.decision === 'commit') t.applyPrepared(rec, r.txn);
        break;
      }
      case 'st2': {
        const rec = t.record(r.txn.key);
        rec.txn ??= r.txn;
        // The log holds every decision adopted; the one of the highest view is current.
        if (rec.st2 === null || r.view > rec.st2.view) rec.st2 = { decision: r.decision, view: r.view, logShard: r.logShard, sig: null, signing: false };
        rec.currentView = Math.max(rec.currentView, r.view);
        break;
      }
      case 'writeback':
        // A writeback logged without its transaction has it beside it: the record learns it first, and
        // the writeback goes in as decoded, so the proof keeps the bytes it was logged in (a copy with
        // the transaction inside was encoded anew, most of a restart's CPU; decision 0062).
        if (r.writeback.txn === null) t.record(r.txn.key).txn ??= r.txn;
        t.writeback(r.writeback);
        break;
      default:
        assertNever(r, 'log record');
    }
  }
}

/** Every how many keys or records `checkpointRecords` offers a pause (a `null`). */
export const CHECKPOINT_PAUSE_EVERY = 1024;

export function checkpointOf(t: ReplayTarget): LogRecord[] {
  const out: LogRecord[] = [];
  for (const r of checkpointRecords(t)) if (r !== null) out.push(r);
  return out;
}

/** Checkpoints begun in this process: each marks the proofs it writes with its own number. */
let checkpointsStarted = 0;

/**
 * `checkpointOf`'s records one at a time, with a `null` every `CHECKPOINT_PAUSE_EVERY` keys or
 * records, where the caller may pause and serve messages before it goes on (an incremental log
 * compaction, replica-server.ts). Maps are iterated live, so records from before and after such pauses
 * mix states of different moments: the compaction keeps the log's records appended since it started
 * after these, and replaying both gives the state (replay is idempotent: a transaction is decided once,
 * a vote is stored once, the highest ST2 view wins).
 *
 * A commit proof the replica keeps as its writeback's bytes is logged with those bytes (no decoding and
 * re-encoding of its certificate).
 */
export function* checkpointRecords(t: ReplayTarget): Generator<LogRecord | null, void, undefined> {
  // Proofs kept as their writeback's bytes (all of a running replica's) are marked as written with this
  // checkpoint's number (decision 0055: a set of their digests was about a third of a compaction's CPU);
  // others by digest. A proof two checkpoints share (replicas of one process) may be written twice:
  // replay is idempotent.
  const mark = ++checkpointsStarted;
  const emitted = new Set<DigestKey>();
  const written = (p: CommittedTxn): boolean => (p instanceof StoredProof ? p.checkpointMark === mark : emitted.has(p.txn.key));
  let visited = 0;
  const proof = (p: CommittedTxn | null): LogRecord | null => {
    if (p === null || written(p)) return null;
    if (p instanceof StoredProof) {
      p.checkpointMark = mark;
      return { kind: 'writeback', writeback: p.stored, txn: p.txn };
    }
    emitted.add(p.txn.key);
    return { kind: 'writeback', writeback: { kind: 'writeback', digest: p.txn.digest, cert: p.cert, txn: p.txn }, txn: p.txn };
  };
  // Index loops over each key's lists: iterating arrays with for-of inside a generator allocated an
  // iterator and a result per element (about a tenth of what a replica allocated during a compaction).
  for (const ks of t.store.values()) {
    if (++visited % CHECKPOINT_PAUSE_EVERY === 0) yield null;
    const committed = ks.committed;
    for (let i = 0; i < committed.length; i++) {
      const r = proof(committed[i]!.proof);
      if (r !== null) yield r;
    }
    const reads = ks.committedReads;
    for (let i = 0; i < reads.length; i++) {
      const r = proof(reads[i]!.proof);
      if (r !== null) yield r;
    }
  }
  // Committed readers of large read sets (bulk-reads.ts), recorded once per transaction.
  for (const p of t.store.bulkReads.committedProofs()) {
    if (++visited % CHECKPOINT_PAUSE_EVERY === 0) yield null;
    const r = proof(p);
    if (r !== null) yield r;
  }
  // The watermark of now, again after each pause (it only rises).
  let wm = t.lowWatermark();
  for (const [key, rec] of t.records()) {
    if (++visited % CHECKPOINT_PAUSE_EVERY === 0) {
      yield null;
      wm = t.lowWatermark();
    }
    const txn = rec.txn;
    if (txn === null || (rec.proof !== null ? written(rec.proof) : emitted.has(key))) continue;
    if (rec.decided !== null) {
      if (!tsLess(txnTs(txn), wm)) yield { kind: 'writeback', writeback: rec.decided, txn };
      continue;
    }
    if (rec.vote !== null) yield { kind: 'vote', txn, decision: rec.vote, conflict: rec.vote === 'abort' ? rec.conflict : null };
    if (rec.st2 !== null) yield { kind: 'st2', txn, decision: rec.st2.decision, view: rec.st2.view, logShard: rec.st2.logShard };
  }
}
