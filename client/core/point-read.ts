/**
 * One point read (PROTOCOL §4.1, decision 0010). Sent to f+1 replicas of the key's shard (more if
 * replies are slow or invalid); decided by f+1 valid replies: the freshest committed version that is
 * vouched for, or a newer prepared version that f+1 replicas report identically, which adds a
 * dependency. A missing row reads as version 0.
 *
 * A committed version is vouched for when (a) f+1 replies report it identically (version, writer
 * digest and value): at least one of them is correct, and a correct replica reports a version
 * committed only after applying a writeback whose certificate it verified; or (b) a reply carries the
 * writer's commit proof, which the shell has verified and `checkReadReply` has matched against the
 * key, version and value. Replies carry no proof unless asked (it is most of their bytes): when the
 * freshest committed version reported is not vouched for, `add` asks the replicas that reported it
 * for the proof; a replica asked once whose reply still lacks a valid proof is not believed again.
 */
import type { ReplicaIndex, ShardId } from '../../protocol/ids.ts';
import { committedReadMismatch } from '../../protocol/certificate.ts';
import type { CommittedRead, Dependency, Key, ReadReply } from '../../protocol/messages.ts';
import type { Quorums } from '../../protocol/quorum.ts';
import { isZeroTs, tsEquals, tsLess, ZERO_TS, type Timestamp } from '../../protocol/timestamp.ts';

export interface ReadOutcome {
  readonly version: Timestamp;
  readonly value: Uint8Array | null;
  readonly dep: Dependency | null;
}

/** What to do after a reply: keep waiting, ask `targets` for the committed version's proof, or done. */
export type ReadStep = { readonly k: 'wait' } | { readonly k: 'proofs'; readonly targets: readonly ReplicaIndex[] } | { readonly k: 'done'; readonly outcome: ReadOutcome };

export type ReplyCheck = 'ok' | 'bad-proof' | 'version-not-below-ts' | 'wrong-key';

const WAIT: ReadStep = Object.freeze({ k: 'wait' });

function bytesEqual(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === null || b === null) return a === b;
  return Buffer.compare(a, b) === 0;
}

/** Same committed version: timestamp, writer and value. */
function sameCommitted(a: CommittedRead, b: CommittedRead): boolean {
  return tsEquals(a.version, b.version) && Buffer.compare(a.digest, b.digest) === 0 && bytesEqual(a.value, b.value);
}

/** Semantic checks of one reply; the shell has already verified the certificate of a proof it carries. */
export function checkReadReply(r: ReadReply, key: Key, t: Timestamp): ReplyCheck {
  if (r.key !== key) return 'wrong-key';
  if (r.committed !== null) {
    const c = r.committed;
    if (!tsLess(c.version, t)) return 'version-not-below-ts';
    if (c.proof !== null && committedReadMismatch(key, c) !== null) return 'bad-proof';
  }
  if (r.prepared !== null && !tsLess(r.prepared.version, t)) return 'version-not-below-ts';
  return 'ok';
}

/** `count` consecutive replica indexes (mod n) from the start `random` in [0, 1) gives. */
export function consecutiveReplicas(random: number, count: number, n: number): ReplicaIndex[] {
  const start = Math.floor(random * n) % n;
  const out: ReplicaIndex[] = [];
  for (let i = 0; i < count; i++) out.push(((start + i) % n) as ReplicaIndex);
  return out;
}

export class PointRead {
  readonly replies = new Map<number, ReadReply>();
  readonly asked = new Set<number>();
  /** Replicas asked for the committed version's proof: only a reply with the proof counts from them now. */
  readonly proofAsked = new Set<number>();
  done = false;

  constructor(
    readonly key: Key,
    readonly shard: ShardId,
    readonly ts: Timestamp,
    readonly q: Quorums,
  ) {}

  /** f+1 replica indexes to ask first, from the client's preferred start (replica-preference.ts, decision 0043). */
  firstTargets(random: number): ReplicaIndex[] {
    return consecutiveReplicas(random, this.q.read, this.q.n);
  }

  /** Everyone not asked yet (after a timeout or an invalid reply). */
  moreTargets(): ReplicaIndex[] {
    const out: ReplicaIndex[] = [];
    for (let i = 0; i < this.q.n; i++) if (!this.asked.has(i)) out.push(i as ReplicaIndex);
    return out;
  }

  /** Replicas asked that have not answered (to ask again after a timeout). */
  silentTargets(): ReplicaIndex[] {
    const out: ReplicaIndex[] = [];
    for (const i of this.asked) if (!this.replies.has(i)) out.push(i as ReplicaIndex);
    return out;
  }

  /**
   * Adds a reply that passed `checkReadReply`. A replica's later reply replaces its earlier one only
   * when it brings the proof it was asked for.
   */
  add(from: number, r: ReadReply): ReadStep {
    if (this.done) return WAIT;
    const prior = this.replies.get(from);
    if (prior !== undefined && !(this.proofAsked.has(from) && r.committed?.proof != null)) return WAIT;
    this.replies.set(from, r);
    return this.#decide();
  }

  /** After a timeout: decide with what is in, if enough is (replicas that owe a proof are not believed). */
  retry(): ReadStep {
    return this.done ? WAIT : this.#decide();
  }

  /** Whether this reply's committed version counts (not from a replica that owes its proof). */
  #believed(from: number, c: CommittedRead): boolean {
    return c.proof !== null || !this.proofAsked.has(from);
  }

  #vouched(c: CommittedRead): boolean {
    if (c.proof !== null) return true;
    let count = 0;
    for (const [i, other] of this.replies) {
      const o = other.committed;
      if (o !== null && this.#believed(i, o) && sameCommitted(o, c)) count++;
    }
    return count >= this.q.read;
  }

  #decide(): ReadStep {
    if (this.replies.size < this.q.read) return WAIT;
    // The freshest vouched committed version, and the freshest believed one that is not vouched.
    let best: CommittedRead | null = null;
    let unvouched: CommittedRead | null = null;
    for (const [i, rep] of this.replies) {
      const c = rep.committed;
      if (c === null || !this.#believed(i, c)) continue;
      if (this.#vouched(c)) {
        if (best === null || tsLess(best.version, c.version)) best = c;
      } else if (unvouched === null || tsLess(unvouched.version, c.version)) unvouched = c;
    }
    if (unvouched !== null && (best === null || tsLess(best.version, unvouched.version))) {
      // Ask whoever reported it for the proof (once); wait while proofs are owed.
      const targets: ReplicaIndex[] = [];
      for (const [i, rep] of this.replies) {
        const c = rep.committed;
        if (c !== null && !this.proofAsked.has(i) && sameCommitted(c, unvouched)) targets.push(i as ReplicaIndex);
      }
      for (const i of targets) this.proofAsked.add(i);
      return targets.length > 0 ? { k: 'proofs', targets } : WAIT;
    }
    this.done = true;
    const bestVersion = best === null ? ZERO_TS : best.version;
    let out: ReadOutcome = best === null ? { version: ZERO_TS, value: null, dep: null } : { version: best.version, value: best.value, dep: null };
    // A prepared version newer than every committed one, vouched for by f+1 replicas.
    let chosen: ReadOutcome | null = null;
    for (const rep of this.replies.values()) {
      const p = rep.prepared;
      if (p === null || !tsLess(bestVersion, p.version)) continue;
      if (chosen !== null && !tsLess(chosen.version, p.version)) continue;
      let count = 0;
      for (const other of this.replies.values()) {
        const o = other.prepared;
        if (o !== null && tsEquals(o.version, p.version) && Buffer.compare(o.digest, p.digest) === 0 && bytesEqual(o.value, p.value)) count++;
      }
      if (count >= this.q.read) chosen = { version: p.version, value: p.value, dep: { digest: p.digest, shard: this.shard, ts: p.version } };
    }
    out = chosen ?? out;
    return { k: 'done', outcome: isZeroTs(out.version) ? { version: ZERO_TS, value: null, dep: null } : out };
  }
}
