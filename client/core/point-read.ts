/**
 * One point read (PROTOCOL §4.1). Sent to f+1 replicas of the key's shard (more if replies are slow
 * or invalid); decided by f+1 valid replies: the freshest committed version (each committed value
 * comes with a commit proof the shell has verified and this module checks against the key and
 * value), or a newer prepared version that f+1 replicas report identically, which adds a
 * dependency. A missing row reads as version 0.
 */
import type { ReplicaIndex, ShardId } from '../../protocol/ids.ts';
import { committedReadMismatch } from '../../protocol/certificate.ts';
import type { Dependency, Key, ReadReply } from '../../protocol/messages.ts';
import type { Quorums } from '../../protocol/quorum.ts';
import { isZeroTs, tsEquals, tsLess, ZERO_TS, type Timestamp } from '../../protocol/timestamp.ts';

export interface ReadOutcome {
  readonly version: Timestamp;
  readonly value: Uint8Array | null;
  readonly dep: Dependency | null;
}

export type ReplyCheck = 'ok' | 'bad-proof' | 'version-not-below-ts' | 'wrong-key';

function bytesEqual(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === null || b === null) return a === b;
  return Buffer.compare(a, b) === 0;
}

/** Semantic checks of one reply; the shell has already verified the proof's certificate. */
export function checkReadReply(r: ReadReply, key: Key, t: Timestamp): ReplyCheck {
  if (r.key !== key) return 'wrong-key';
  if (r.committed !== null) {
    const c = r.committed;
    if (!tsLess(c.version, t)) return 'version-not-below-ts';
    if (committedReadMismatch(key, c) !== null) return 'bad-proof';
  }
  if (r.prepared !== null && !tsLess(r.prepared.version, t)) return 'version-not-below-ts';
  return 'ok';
}

/** `count` consecutive replica indexes (mod n) from a random start: spreads load over the shard. */
export function consecutiveReplicas(random: number, count: number, n: number): ReplicaIndex[] {
  const start = Math.floor(random * n) % n;
  const out: ReplicaIndex[] = [];
  for (let i = 0; i < count; i++) out.push(((start + i) % n) as ReplicaIndex);
  return out;
}

export class PointRead {
  readonly replies = new Map<number, ReadReply>();
  readonly asked = new Set<number>();
  done = false;

  constructor(
    readonly key: Key,
    readonly shard: ShardId,
    readonly ts: Timestamp,
    readonly q: Quorums,
  ) {}

  /** f+1 replica indexes to ask first, starting at a random offset to spread load. */
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

  /** Adds a valid reply; returns the outcome once f+1 valid replies are in. */
  add(from: number, r: ReadReply): ReadOutcome | null {
    if (this.done || this.replies.has(from)) return null;
    this.replies.set(from, r);
    if (this.replies.size < this.q.read) return null;
    this.done = true;
    let best: ReadOutcome = { version: ZERO_TS, value: null, dep: null };
    for (const rep of this.replies.values()) {
      const c = rep.committed;
      if (c !== null && tsLess(best.version, c.version)) best = { version: c.version, value: c.value, dep: null };
    }
    // A prepared version newer than every committed one, vouched for by f+1 replicas.
    let chosen: ReadOutcome | null = null;
    for (const rep of this.replies.values()) {
      const p = rep.prepared;
      if (p === null || !tsLess(best.version, p.version)) continue;
      if (chosen !== null && !tsLess(chosen.version, p.version)) continue;
      let count = 0;
      for (const other of this.replies.values()) {
        const o = other.prepared;
        if (o !== null && tsEquals(o.version, p.version) && Buffer.compare(o.digest, p.digest) === 0 && bytesEqual(o.value, p.value)) count++;
      }
      if (count >= this.q.read) chosen = { version: p.version, value: p.value, dep: { digest: p.digest, shard: this.shard, ts: p.version } };
    }
    const out = chosen ?? best;
    return isZeroTs(out.version) ? { version: ZERO_TS, value: null, dep: null } : out;
  }
}
