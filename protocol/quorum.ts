/**
 * Quorum arithmetic for a shard of n = 5f+1 replicas (PROTOCOL §2). One place computes every
 * threshold, so no module writes `3 * f + 1` by hand.
 */
export interface Quorums {
  readonly f: number;
  /** Shard size, 5f+1. */
  readonly n: number;
  /** Point-read replies needed, and replicas that must report a prepared version identically: f+1. */
  readonly read: number;
  /** Eager range-read fan-out, and ST2 certificate size: 4f+1 = n - f. */
  readonly queryFanout: number;
  /** Matching query replies, and slow-path commit votes: 3f+1. */
  readonly commitSlow: number;
  /** Fast-path commit votes: n. */
  readonly commitFast: number;
  /** ABSTAIN votes that abort on the fast path: 3f+1. */
  readonly abortFast: number;
  /** ABSTAIN votes that abort on the slow path: f+1. */
  readonly abortSlow: number;
  /** Matching ST2 replies that form a certificate: n - f. */
  readonly st2: number;
  /** Votes naming a transaction before it enters a snapshot proposal: f+1. */
  readonly snapshotInclude: number;
  /** Matching replies that must report a query dependency before it is kept: 2f+1. */
  readonly queryDependency: number;
  /** Elect messages a fallback leader needs: 2f+1. */
  readonly elect: number;
}

export function quorums(f: number): Quorums {
  if (!Number.isInteger(f) || f < 0 || f > 20) throw new RangeError(`f must be an integer in [0, 20], got ${f}`);
  const n = 5 * f + 1;
  return Object.freeze({
    f,
    n,
    read: f + 1,
    queryFanout: 4 * f + 1,
    commitSlow: 3 * f + 1,
    commitFast: n,
    abortFast: 3 * f + 1,
    abortSlow: f + 1,
    st2: n - f,
    snapshotInclude: f + 1,
    queryDependency: 2 * f + 1,
    elect: 2 * f + 1,
  });
}
