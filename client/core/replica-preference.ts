/**
 * Where a client's replica choices start (decision 0043). Point reads ask f+1 consecutive replicas
 * from a starting index, and range reads' eager and sync rounds break ties among equally scored
 * replicas by a rotation from one (point-read.ts, query-targets.ts). A client keeps one starting index
 * for `periodMs` and then draws another, like Basil's clients that prefer the replicas closest to them:
 * for a while every transaction of the client asks the same replicas, then the load moves on.
 *
 * Why not a fresh index per transaction, which spreads load as evenly: with every process of a cluster
 * on the same cores (this repository's benchmarks), a replica that a read reaches only now and then
 * wakes for it alone, and each wakeup of an idle Node process costs it far more than the message
 * (decision 0020). Asking the same replicas for a while let the others sleep through whole stretches
 * and the asked ones take several reads per wakeup: kv used 0.85x the CPU per transaction, ycsb 0.79x.
 *
 * A preference is a performance heuristic only: whatever is asked, reads still need their quorums and
 * widen on silence, so a Byzantine replica in the preferred set costs retries, never a wrong result.
 */
import type { ClientEnv } from './effects.ts';

export class ReplicaPreference {
  #start = 0;
  #until = Number.NEGATIVE_INFINITY;

  /** `periodMs` 0: a fresh starting index every time (the behaviour before decision 0043). */
  constructor(readonly periodMs: number) {}

  /** The starting index in [0, 1) (scaled by the caller to a replica index) now. */
  start(env: ClientEnv): number {
    if (this.periodMs <= 0) return env.random();
    const now = env.nowMicros();
    if (now >= this.#until) {
      this.#start = env.random();
      this.#until = now + this.periodMs * 1000;
    }
    return this.#start;
  }
}
