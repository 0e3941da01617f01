/**
 * ST1 vote tally of one shard (PROTOCOL §6): classifies the votes received so far into the states
 * of the Basil decision table. Votes arrive already verified by the shell (signature, signer is the
 * replica on that link); the tally only counts distinct signers.
 */
import type { Quorums } from '../../protocol/quorum.ts';
import type { CommittedTxn, SigProof } from '../../protocol/messages.ts';

export type ShardStatus =
  /** n COMMIT votes. */
  | 'fast-commit'
  /** 3f+1 COMMIT and no ABSTAIN yet: wait a little for the fast path. */
  | 'commit-tentative'
  /** 3f+1 COMMIT and an ABSTAIN: commit on the slow path now. */
  | 'slow-commit'
  /** 3f+1 ABSTAIN, or a proven ABORT. */
  | 'fast-abort'
  /** f+1 ABSTAIN, and neither 3f+1 COMMIT nor 3f+1 ABSTAIN can still happen: abort on the slow path now. */
  | 'slow-abort'
  /** f+1 ABSTAIN, and 3f+1 COMMIT or 3f+1 ABSTAIN (a fast abort) is still possible: wait, then abort on the slow path. */
  | 'abort-tentative'
  | 'pending';

export class VoteTally {
  readonly commits = new Map<number, SigProof>();
  readonly abstains = new Map<number, SigProof>();
  conflict: CommittedTxn | null = null;

  constructor(readonly q: Quorums) {}

  get voters(): number {
    return this.commits.size + this.abstains.size;
  }

  hasVoted(index: number): boolean {
    return this.commits.has(index) || this.abstains.has(index);
  }

  status(): ShardStatus {
    const { q } = this;
    const c = this.commits.size;
    const a = this.abstains.size;
    if (this.conflict !== null || a >= q.abortFast) return 'fast-abort';
    if (c === q.n) return 'fast-commit';
    if (c >= q.commitSlow) return a === 0 ? 'commit-tentative' : 'slow-commit';
    if (a >= q.abortSlow) {
      const remaining = q.n - c - a;
      return c + remaining >= q.commitSlow || a + remaining >= q.abortFast ? 'abort-tentative' : 'slow-abort';
    }
    return 'pending';
  }

  /** Exactly `count` signatures of one decision, lowest signer indexes first (validators demand exact counts). */
  take(decision: 'commit' | 'abstain', count: number): SigProof[] {
    const from = decision === 'commit' ? this.commits : this.abstains;
    // Signers are replica indexes below n: walk them in order (no entry arrays, no sort; decision 0055).
    const out: SigProof[] = [];
    for (let i = 0; i < this.q.n && out.length < count; i++) {
      const sig = from.get(i);
      if (sig !== undefined) out.push(sig);
    }
    if (out.length < count && from.size > out.length) {
      // A signer index outside 0..n-1 (nothing adds one; kept exact anyway).
      return [...from.entries()].sort((x, y) => x[0] - y[0]).slice(0, count).map((e) => e[1]);
    }
    return out;
  }
}
