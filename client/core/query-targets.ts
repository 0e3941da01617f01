/**
 * Which replicas a range-read round asks (PROTOCOL §4.2; decision 0021). A performance heuristic only:
 * whatever it picks, a round still decides on 3f+1 matching replies and widens to the rest when the
 * asked set can no longer reach them, so a Byzantine replica can at worst make itself preferred or
 * avoided, never change an outcome.
 *
 * Eager rounds go to 4f+1 of the n = 5f+1 replicas, so f are left out (the client asks the first 3f+1
 * of them first, decision 0047, so f+1). The client remembers, per shard, which replicas lately
 * disagreed with a round's matching group (or, without one, with its largest group) or stayed silent
 * until the round's timer fired: each such event adds 1 to the replica's score, and every round that
 * ends on the shard first multiplies all scores by the larger of DECAY and the time decay since the
 * previous round (halving every HALF_LIFE_MICROS): the slower of the two, so a left-out replica is
 * forgotten only after both a few dozen rounds and a few seconds. The replicas with the highest scores
 * are left out (like Basil's clients preferring close replicas). A replica that is left out is not
 * observed, so its score only decays: it comes back after that, or as soon as another replica scores
 * higher. (Decay by rounds alone brought a replica that disagreed on every read back after about 0.1 s
 * under load, 400 rounds a second, and each return cost a round its widening or a sync round.) Ties
 * (all zero, the usual healthy case) are broken by a rotation from the start the caller passes (the
 * client's current preferred replica, replica-preference.ts, decision 0043), which gives the pick of
 * consecutive replicas from it.
 *
 * Sync rounds go to 3f+1 replicas, preferring those whose snapshot votes named every proposed
 * transaction (they need no fetch before re-executing), then the best-scored others. Every replica
 * re-executing a sync round costs as much as an eager execution plus its fetches; n of them did that
 * before (decision 0021 measures it).
 */
import type { ReplicaIndex, ShardId } from '../../protocol/ids.ts';
import type { Quorums } from '../../protocol/quorum.ts';

/** Factor applied to every score of a shard when one of its rounds ends, unless time decays less... */
const DECAY = 0.9;
/** ...with scores halving every this long. */
const HALF_LIFE_MICROS = 1_000_000;
/** Scores below this are zero again (ties, broken at random). */
const FORGET = 0.01;

export class QueryTargets {
  /**
   * Per shard: one score per replica index (invariant: every score is 0 or at least FORGET * DECAY),
   * and when the scores last decayed (µs of the caller's clock; null: not yet).
   */
  readonly #shards = new Map<ShardId, { readonly scores: number[]; decayedAt: number | null }>();

  /** `learn` false: scores stay zero, every eager round starts at a random offset. */
  constructor(
    readonly q: Quorums,
    readonly learn: boolean,
  ) {}

  /** Replicas for an eager round: all but the f with the highest scores; ties by a rotation from `random`. */
  eager(shard: ShardId, random: number): ReplicaIndex[] {
    return this.#ranked(shard, random).slice(0, this.q.queryFanout);
  }

  /**
   * Replicas for a sync round: 3f+1, first those in `current` (their votes named every proposed
   * transaction), best-scored first, then the best-scored others.
   */
  sync(shard: ShardId, current: readonly number[], random: number): ReplicaIndex[] {
    const order = this.#ranked(shard, random);
    const first = order.filter((i) => current.includes(i));
    const rest = order.filter((i) => !current.includes(i));
    return [...first, ...rest].slice(0, this.q.commitSlow);
  }

  /** A round on `shard` ended at `nowMicros`; `blamed` replied outside its matching (or largest) group. */
  noteRound(shard: ShardId, blamed: readonly number[], nowMicros: number): void {
    if (!this.learn) return;
    const sh = this.#shard(shard);
    const factor = Math.max(DECAY, 0.5 ** (Math.max(0, nowMicros - (sh.decayedAt ?? nowMicros)) / HALF_LIFE_MICROS));
    sh.decayedAt = nowMicros;
    const s = sh.scores;
    for (let i = 0; i < s.length; i++) s[i] = s[i]! * factor < FORGET ? 0 : s[i]! * factor;
    this.blame(shard, blamed);
  }

  /** `replicas` misbehaved (silent when a round's timer fired) without the round ending. */
  blame(shard: ShardId, replicas: readonly number[]): void {
    if (!this.learn || replicas.length === 0) return;
    const s = this.#shard(shard).scores;
    for (const i of replicas) if (i >= 0 && i < s.length) s[i]! += 1;
  }

  /** A replica's current score on `shard` (tests, diagnostics). */
  score(shard: ShardId, index: number): number {
    return this.#shards.get(shard)?.scores[index] ?? 0;
  }

  #shard(shard: ShardId): { readonly scores: number[]; decayedAt: number | null } {
    let sh = this.#shards.get(shard);
    if (sh === undefined) this.#shards.set(shard, (sh = { scores: new Array<number>(this.q.n).fill(0), decayedAt: null }));
    return sh;
  }

  /** Every replica, lowest score first; equal scores in rotated order from the offset `random` gives. */
  #ranked(shard: ShardId, random: number): ReplicaIndex[] {
    const n = this.q.n;
    const start = Math.floor(random * n) % n;
    // All scores equal, the first 4f+1 are the consecutive ones from the offset (point-read.ts).
    const order: ReplicaIndex[] = [];
    for (let k = 0; k < n; k++) order.push(((start + k) % n) as ReplicaIndex);
    const s = this.#shards.get(shard)?.scores;
    if (s === undefined) return order;
    // A stable sort keeps the rotation among equal scores.
    return order.sort((a, b) => s[a]! - s[b]!);
  }
}
