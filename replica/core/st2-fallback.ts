/**
 * ST2 and the fallback (PROTOCOL §6-7), driven by ReplicaCore: how a replica answers the slow path when
 * ST1 votes did not decide a transaction on their own.
 *
 * - ST2 (§6): the first valid decision is adopted (a transaction already decided here logs its
 *   certified outcome instead), logged, signed once per view, and given back to every later ST2.
 * - Fallback (§7): views resolve ST2 decisions that diverged. An elect moves the transaction to a
 *   higher view (only forward) and is answered with one signed elect of the current decision for that
 *   view; a replica without a decision first adopts the client's ST2. A decision 2f+1 replicas elected
 *   in a view not older than this replica's replaces the stored one.
 *
 * A transaction decided here (a certificate arrived) ends all of this: every request is answered with
 * the certified outcome, since views cannot change it.
 */
import { digestKey, type DigestKey } from '../../protocol/ids.ts';
import type { Decide, DecisionFb, Elect, Message, Outcome } from '../../protocol/messages.ts';
import { electLeaf, st2Leaf } from '../../protocol/statements.ts';
import type { LogRecord } from '../../protocol/log-record.ts';
import { appended, type TxnRecord, type Waiter } from './txn-record.ts';
import type { PeerHandle, SignRef } from './replica-core.ts';

/** What ST2 and the fallback need from the replica core. */
export interface St2Host {
  readonly stats: { st2Adopted: number };
  record(key: DigestKey): TxnRecord;
  sendPrepareReply(rec: TxnRecord, w: Waiter): void;
  persist(record: LogRecord): void;
  sign(leaf: Uint8Array, ref: SignRef): void;
  send(to: PeerHandle, msg: Message): void;
}

// ---- ST2 (PROTOCOL §6, slow path) ----

export function onDecide(h: St2Host, from: PeerHandle, msg: Decide): void {
  const rec = h.record(digestKey(msg.digest));
  rec.txn ??= msg.txn;
  const waiter = { peer: from, req: msg.req };
  if (rec.decided !== null) return h.sendPrepareReply(rec, waiter);
  if (rec.st2 === null) {
    // A decided transaction logs its certified outcome; otherwise the first valid ST2 wins.
    const decision: Outcome = rec.state === 'committed' ? 'commit' : rec.state === 'aborted' ? 'abort' : msg.decision;
    rec.st2 = { decision, view: msg.view, logShard: msg.logShard, sig: null, signing: false };
    h.stats.st2Adopted++;
    h.persist({ kind: 'st2', txn: rec.txn, decision, view: msg.view, logShard: msg.logShard });
  }
  answerSt2(h, rec, waiter);
}

/** Replies with the stored ST2 decision, signing it first if needed. */
function answerSt2(h: St2Host, rec: TxnRecord, waiter: Waiter): void {
  const st2 = rec.st2!;
  if (st2.sig !== null) return sendDecideReply(h, rec, waiter);
  rec.st2Waiters = appended(rec.st2Waiters, waiter);
  if (!st2.signing) {
    st2.signing = true;
    h.sign(st2Leaf(rec.txn!.digest, st2.logShard, st2.decision, st2.view), { kind: 'st2', txn: rec.key, view: st2.view });
  }
}

// ---- fallback (PROTOCOL §7): views resolve ST2 decisions that diverged ----

/**
 * Moves the transaction to view `msg.view` (only forward) and answers with one signed elect of the
 * current decision for that view. A replica without a decision first adopts the client's ST2. An
 * elect for a view this replica has reached already is answered with its current view's state.
 */
export function onElect(h: St2Host, from: PeerHandle, msg: Elect): void {
  const decide = msg.decide;
  const rec = h.record(digestKey(decide.digest));
  rec.txn ??= decide.txn;
  // Decided here already: the certificate ends the fallback (views cannot change a certified outcome).
  if (rec.decided !== null) return h.sendPrepareReply(rec, { peer: from, req: msg.req });
  if (rec.st2 === null) {
    const decision: Outcome = rec.state === 'committed' ? 'commit' : rec.state === 'aborted' ? 'abort' : decide.decision;
    rec.st2 = { decision, view: 0, logShard: decide.logShard, sig: null, signing: false };
    h.stats.st2Adopted++;
    h.persist({ kind: 'st2', txn: rec.txn, decision, view: 0, logShard: decide.logShard });
  }
  const st2 = rec.st2;
  if (msg.view <= rec.currentView) {
    // Another finisher moved the transaction this far already: say where it stands, so this one can
    // catch up instead of waiting out its timers view after view. The decision elected in the current
    // view if one was adopted here, else the elect signed on moving to it (the stored decision has not
    // changed since: only a decision of a view not older than the current one replaces it).
    if (st2.view >= rec.currentView) return answerSt2(h, rec, { peer: from, req: msg.req });
  } else {
    rec.currentView = msg.view;
  }
  const view = rec.currentView;
  h.sign(electLeaf(rec.txn.digest, st2.logShard, st2.decision, view), { kind: 'elect', txn: rec.key, view, decision: st2.decision, peer: from, req: msg.req });
}

/** Adopts a decision 2f+1 replicas elected in a view not older than this replica's. */
export function onDecisionFb(h: St2Host, from: PeerHandle, msg: DecisionFb): void {
  const rec = h.record(digestKey(msg.digest));
  rec.txn ??= msg.txn;
  if (rec.decided !== null) return h.sendPrepareReply(rec, { peer: from, req: msg.req });
  if (msg.view >= rec.currentView && (rec.st2 === null || msg.view > rec.st2.view)) {
    rec.currentView = msg.view;
    rec.st2 = { decision: msg.decision, view: msg.view, logShard: msg.logShard, sig: null, signing: false };
    h.stats.st2Adopted++;
    h.persist({ kind: 'st2', txn: rec.txn, decision: msg.decision, view: msg.view, logShard: msg.logShard });
  }
  if (rec.st2 !== null) answerSt2(h, rec, { peer: from, req: msg.req });
}

export function sendDecideReply(h: St2Host, rec: TxnRecord, w: Waiter): void {
  const st2 = rec.st2!;
  h.send(w.peer, { kind: 'decideReply', req: w.req, digest: rec.txn!.digest, decision: st2.decision, view: st2.view, logShard: st2.logShard, sig: st2.sig! });
}
