/**
 * Writeback (PROTOCOL §6), driven by ReplicaCore: applying a certified outcome. The certificate was
 * verified at the boundary; here it must cover exactly the transaction's shards.
 *
 * - Commit turns the transaction's prepared versions, reads and predicates into committed ones (a
 *   transaction never prepared here enters the store and its tables' histories now) and keeps the
 *   commit proof point reads return.
 * - Abort purges its prepared versions.
 * - Either wakes the transactions waiting for it (PROTOCOL §5 step 10): an abort makes them abstain, a
 *   commit at the timestamp they claimed counts one dependency down, and at zero they vote commit.
 *
 * A transaction is decided at most once; later writebacks for it are ignored.
 */
import { digestKey, type DigestKey } from '../../protocol/ids.ts';
import type { CommittedTxn, Key, Txn, VoteDecision, Writeback } from '../../protocol/messages.ts';
import { certificateOutcome } from '../../protocol/messages.ts';
import { StoredProof, storedTxn, StoredWriteback, txnTs, type StoredTxn } from '../../protocol/stored.ts';
import { tsEquals, tsLess, type Timestamp } from '../../protocol/timestamp.ts';
import type { LogRecord } from '../../protocol/log-record.ts';
import { certCoversShards } from './boundary.ts';
import { isBulkReadSet } from './bulk-reads.ts';
import { commitPredicates, recordPredicates, resolvePredicatesLeniently, type SemanticContext } from './semantic-cc.ts';
import type { KeyState, Store, TxnKeyStates } from './store.ts';
import { sqlTableOfKey } from './table-writes.ts';
import { NONE, type TxnRecord } from './txn-record.ts';
import type { AbstainReason } from './validation.ts';

/** What applying a writeback needs from the replica core. */
export interface WritebackHost {
  readonly store: Store;
  readonly stats: { commits: number; aborts: number };
  /** A function property, not a method: `commit` passes it on unbound. */
  readonly owns: (key: Key) => boolean;
  restoring(): boolean;
  lowWatermark(): Timestamp;
  txn(key: DigestKey): TxnRecord | undefined;
  record(key: DigestKey): TxnRecord;
  reject(reason: string): void;
  persist(record: LogRecord): void;
  semantic(): SemanticContext;
  nonMonotonic(key: Key, at: Timestamp): boolean;
  removePrepared(rec: TxnRecord): void;
  removePreparedReads(txn: DigestKey, body: Txn['body'], states: TxnKeyStates | null): void;
  flushVoteWaiters(rec: TxnRecord): void;
  abstain(rec: TxnRecord, reason: AbstainReason): void;
  finalizeVote(rec: TxnRecord, decision: VoteDecision): void;
  rangeDecided(key: DigestKey, committed: boolean): void;
}

export function onWriteback(h: WritebackHost, msg: Writeback): void {
  const key = digestKey(msg.digest);
  const rec = h.record(key);
  if (rec.isDecided) return;
  rec.txn ??= msg.txn;
  const txn = rec.txn;
  if (txn === null) {
    h.reject('writeback-unknown-txn');
    return;
  }
  if (!certCoversShards(msg, txn)) {
    h.reject('writeback-shards-mismatch');
    return;
  }
  // Kept as its bytes (protocol/stored.ts): decoded certificates were most of what a replica retained.
  const decided = new StoredWriteback(msg, txn.digest);
  rec.decided = decided;
  // Logged as the stored writeback: its bytes are the message's encoding.
  h.persist({ kind: 'writeback', writeback: decided, txn });
  // What the record keeps from now on: the transaction without its decoded body (decoded again on
  // demand), and no vote signature (replies to a late ST1 carry the certificate instead).
  const kept = storedTxn(txn);
  const committed = certificateOutcome(msg.cert) === 'commit';
  if (committed) commit(h, rec, txn, kept, decided);
  else abort(h, rec);
  // Anyone still waiting for this replica's vote learns the outcome instead.
  h.flushVoteWaiters(rec);
  // Range reads: forced versions go, the apply fault may withhold the writes, waiting queries wake.
  if (!h.restoring()) h.rangeDecided(key, committed);
  rec.txn = kept;
  rec.voteSig = null;
}

function commit(h: WritebackHost, rec: TxnRecord, txn: Txn, kept: StoredTxn, decided: StoredWriteback): void {
  // The proof point reads return (decoded on demand, without MAC vectors: clients check signatures).
  const proof: CommittedTxn = new StoredProof(kept, decided);
  rec.proof = proof;
  // The host's own function, not a closure made here (a named closure costs a defineProperty per call under tsx).
  const owns = h.owns;
  const body = txn.body;
  const wm = h.lowWatermark();
  // Prepared versions become committed in place of being purged, so the table histories keep their
  // entries (and non-monotonic flags); a transaction never prepared here enters them now.
  const wasPrepared = rec.prepared;
  // The key states kept since prepare (null unless prepared): the body here is decoded anew, and looking
  // its keys up again cost a cold probe each (store.ts TxnKeyStates).
  const states = rec.keyStates;
  if (wasPrepared) h.removePreparedReads(rec.key, body, states);
  let lastTable = -1;
  const writes = body.writes;
  for (let i = 0; i < writes.length; i++) {
    const w = writes[i]!;
    if (!owns(w.key)) continue;
    const ks = h.store.commitWrite(w.key, { ts: body.ts, value: w.value, txn: rec.key, proof }, !wasPrepared && h.nonMonotonic(w.key, body.ts), states?.writes[i]);
    h.store.collect(ks, wm);
    const id = sqlTableOfKey(w.key);
    if (id !== null && id !== lastTable) h.store.table(id).collect(wm);
    lastTable = id ?? lastTable;
  }
  recordCommittedReads(h, rec.key, body, proof, wm, states?.reads ?? null);
  if (wasPrepared) commitPredicates(h.store, rec.key, body, owns);
  else recordPredicates(h.store, rec.key, body, resolvePredicatesLeniently(h.semantic(), body), true, wm);
  rec.keyStates = null;
  rec.prepared = false;
  rec.state = 'committed';
  h.stats.commits++;
  wakeDependents(h, rec);
}

/** The reads step 5 checks later writers against: one record for a large read set (bulk-reads.ts), else one per owned key. */
function recordCommittedReads(h: WritebackHost, txn: DigestKey, body: Txn['body'], proof: CommittedTxn, wm: Timestamp, states: readonly (KeyState | undefined)[] | null): void {
  if (isBulkReadSet(body)) {
    h.store.bulkReads.addCommitted(txn, body, proof, wm);
    return;
  }
  const reads = body.reads;
  for (let i = 0; i < reads.length; i++) {
    const r = reads[i]!;
    if (!h.owns(r.key)) continue;
    const ks = states?.[i] ?? h.store.getOrCreate(r.key);
    h.store.addCommittedRead(ks, { readerTs: body.ts, version: ks.versionTs(r.version), txn, proof });
  }
}

function abort(h: WritebackHost, rec: TxnRecord): void {
  h.removePrepared(rec);
  rec.state = 'aborted';
  h.stats.aborts++;
  wakeDependents(h, rec);
}

function wakeDependents(h: WritebackHost, rec: TxnRecord): void {
  const deps = rec.dependents;
  rec.dependents = NONE;
  for (const k of deps) {
    const t = h.txn(k);
    if (t === undefined || t.state !== 'waiting') continue;
    if (rec.state === 'aborted') {
      h.abstain(t, 'dependency-aborted');
      continue;
    }
    const claimed = t.txn!.body.deps.find((d) => digestKey(d.digest) === rec.key);
    if (claimed === undefined || !tsEquals(claimed.ts, txnTs(rec.txn!)) || !tsLess(txnTs(rec.txn!), t.txn!.body.ts)) {
      h.abstain(t, 'dependency-late');
      continue;
    }
    if (--t.undecidedDeps === 0) h.finalizeVote(t, 'commit');
  }
}
