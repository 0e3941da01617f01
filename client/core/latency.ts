/**
 * Round-trip estimates for the client's retry timers (the RFC 6298 estimator: smoothed round trip
 * plus four times its mean deviation). Links are reliable streams, so a reply that is late is almost
 * always just queued behind others on a loaded machine: asking more replicas or sending ST1 again
 * then only adds load (at 64 clients on the 2-core benchmark machine fixed 50 ms read and 100 ms
 * resend timers sent 10 extra reads and 32 extra messages per transaction). Timers therefore wait at
 * least the configured time and at least as long as replies have recently taken.
 */
export class RoundTrip {
  #srtt = -1;
  #rttvar = 0;
  /** The largest recent sample, decaying by 1% per sample (about the maximum of the last few hundred). */
  #peak = 0;

  /**
   * One measured round trip, in ms. Callers sample every first reply, slow ones included, timed from
   * the first send (links deliver in order, so the first reply answers the first request).
   */
  sample(ms: number): void {
    if (!(ms >= 0)) return;
    this.#peak = Math.max(ms, this.#peak * 0.99);
    if (this.#srtt < 0) {
      this.#srtt = ms;
      this.#rttvar = ms / 2;
      return;
    }
    this.#rttvar = 0.75 * this.#rttvar + 0.25 * Math.abs(this.#srtt - ms);
    this.#srtt = 0.875 * this.#srtt + 0.125 * ms;
  }

  /**
   * How long to wait for a reply: the estimate or one and a half times the recent peak, whichever is
   * longer (closed-loop load makes the tail long: the estimate alone retried a tenth of the reads at
   * 256 clients), but at least `floorMs` and at most `capMs`.
   */
  timeout(floorMs: number, capMs: number): number {
    if (this.#srtt < 0) return floorMs;
    return Math.min(capMs, Math.max(floorMs, this.#srtt + 4 * this.#rttvar, 1.5 * this.#peak));
  }

  /** Smoothed round trip in ms (-1 before the first sample). */
  get smoothed(): number {
    return this.#srtt;
  }
}

/**
 * How often each replica's ST1 votes come late (finisher.ts: the fast-path wait): per replica a moving
 * average that each vote moves by `LATENESS_WEIGHT` towards 1 (late, or not in before the wait gave
 * up) or 0. At `OFTEN_LATE` or more a replica counts as often late: two late votes in a row make it so, a
 * replica late every other vote stays so, and six timely votes undo even a long run of late ones.
 */
export class VoteLateness {
  readonly #avg: number[] = [];

  note(replica: number, late: boolean): void {
    this.#avg[replica] = (1 - LATENESS_WEIGHT) * (this.#avg[replica] ?? 0) + (late ? LATENESS_WEIGHT : 0);
  }

  oftenLate(replica: number): boolean {
    return (this.#avg[replica] ?? 0) >= OFTEN_LATE;
  }
}

const LATENESS_WEIGHT = 0.2;
const OFTEN_LATE = 0.3;

/**
 * What a client learns about each replica's ST1 votes across transactions (replica = shard * n +
 * index): when it last voted (a crashed replica is not worth waiting for), how often its votes come
 * late, and how long votes take (the fast-path and resend timers, finisher.ts).
 */
export class VoteTiming {
  readonly #lastVoteMicros: number[] = [];
  readonly #lateness = new VoteLateness();
  readonly rtt = new RoundTrip();

  /** Replica `i` voted at `nowMicros`; `late` as the finisher judged it (null: counted already). */
  voted(i: number, nowMicros: number, late: boolean | null): void {
    this.#lastVoteMicros[i] = nowMicros;
    if (late !== null) this.#lateness.note(i, late);
  }

  /**
   * A commit went slow with replica `i` still silent: counted in `lateVoters` (metrics), and as a
   * late vote when the fast-path wait gave up on it (`waitedFor`; not when a replica abstained).
   */
  missed(i: number, lateVoters: number[], waitedFor: boolean): void {
    while (lateVoters.length <= i) lateVoters.push(0);
    lateVoters[i]!++;
    if (waitedFor) this.#lateness.note(i, true);
  }

  votedSince(i: number, sinceMicros: number): boolean {
    return (this.#lastVoteMicros[i] ?? -Infinity) > sinceMicros;
  }

  oftenLate(i: number): boolean {
    return this.#lateness.oftenLate(i);
  }
}
