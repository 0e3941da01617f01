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
        t.writeback(r.writeback.txn === null ? { ...r.writeback, txn: r.txn } : r.writeback);
        break;
      default:
        assertNever(r, 'log record');
    }
  }
}

export function checkpointOf(t: ReplayTarget): LogRecord[] {
  const out: LogRecord[] = [];
  const emitted = new Set<DigestKey>();
  const proof = (p: CommittedTxn | null): void => {
    if (p === null || emitted.has(p.txn.key)) return;
    emitted.add(p.txn.key);
    out.push({ kind: 'writeback', writeback: { kind: 'writeback', digest: p.txn.digest, cert: p.cert, txn: p.txn }, txn: p.txn });
  };
  for (const ks of t.store.values()) {
    for (const v of ks.committed) proof(v.proof);
    for (const r of ks.committedReads) proof(r.proof);
  }
  const wm = t.lowWatermark();
  for (const [key, rec] of t.records()) {
    const txn = rec.txn;
    if (txn === null || emitted.has(key)) continue;
    if (rec.decided !== null) {
      if (!tsLess(txn.body.ts, wm)) out.push({ kind: 'writeback', writeback: rec.decided, txn });
      continue;
    }
    if (rec.vote !== null) out.push({ kind: 'vote', txn, decision: rec.vote, conflict: rec.vote === 'abort' ? rec.conflict : null });
    if (rec.st2 !== null) out.push({ kind: 'st2', txn, decision: rec.st2.decision, view: rec.st2.view, logShard: rec.st2.logShard });
  }
  return out;
}
