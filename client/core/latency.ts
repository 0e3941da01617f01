/** A replica that voted within this window is presumed alive and worth waiting for (the client's vote tally). */
export const RECENT_VOTE_MICROS = 1_000_000;

/** Longest adaptive retry or resend timer: beyond the slowest replies seen on an overloaded machine. */
export const RETRY_CAP_MS = 10_000;

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
  /**
   * The largest recent sample, halving every `PEAK_HALF_LIFE_MS` (decision 0037: decaying by 1% per
   * sample, it forgot a 100 ms stall within a few dozen milliseconds at 64 clients, so the fast-path
   * wait was back to a few times the usual vote time when the next stall came).
   */
  #peak = 0;
  #peakAtMs = 0;

  /**
   * One measured round trip, in ms. Callers sample every first reply, slow ones included, timed from
   * the first send (links deliver in order, so the first reply answers the first request), at `nowMs`.
   */
  sample(ms: number, nowMs: number): void {
    if (!(ms >= 0)) return;
    this.#peak = Math.max(ms, this.#peak * 2 ** (-Math.max(0, nowMs - this.#peakAtMs) / PEAK_HALF_LIFE_MS));
    this.#peakAtMs = nowMs;
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

const PEAK_HALF_LIFE_MS = 2_000;

/**
 * How often each replica's ST1 votes come late (finisher.ts: the fast-path wait), measured in time
 * rather than in votes (decision 0037): each replica's votes are grouped into windows as long as votes
 * lately take (the smoothed round trip, at least `LATENESS_WINDOW_MIN_MICROS`), and each window is one
 * sample, late when any of its votes was late (or not in before the wait gave up). Per replica a
 * moving average moves by `LATENESS_WEIGHT` per sample towards 1 (late) or 0; the window still open
 * counts as soon as it holds a late vote. At `OFTEN_LATE` or more a replica counts as often late.
 *
 * Why windows: a correct replica that the two oversubscribed cores do not schedule for a while is late
 * for every transaction in flight at once (64 clients: dozens of late votes in a row, then none), and
 * counting votes marked it within two of them, so the next commits gave up on it after the short wait
 * and paid ST2 rounds that waiting would have saved (bench kv). Per window such a stall is a run of
 * late samples as long as the stall: at 64 clients on this machine mostly one window (9 ms), the
 * longest runs 8-12 windows (decision 0038). A replica late in every window (a Byzantine one voting
 * at the last moment, an overloaded one) is marked after ten of them and stays marked; one late in
 * every other window is marked too, one late in fewer than about a third is not (with a weight of
 * 0.05 the average stays close to the share of late windows). Windows scale with the round trip, so
 * that takes ten round trips on any network (and in the simulator's compressed time), not a fixed
 * time.
 */
export class VoteLateness {
  readonly #avg: number[] = [];
  /** Per replica: when its open window started, and whether the window holds a late vote. */
  readonly #windowStartMicros: number[] = [];
  readonly #lateInWindow: boolean[] = [];

  note(replica: number, late: boolean, nowMicros: number, windowMicros: number): void {
    const start = this.#windowStartMicros[replica];
    if (start !== undefined && nowMicros < start + Math.max(LATENESS_WINDOW_MIN_MICROS, windowMicros)) {
      if (late) this.#lateInWindow[replica] = true;
      return;
    }
    if (start !== undefined) this.#avg[replica] = (1 - LATENESS_WEIGHT) * (this.#avg[replica] ?? 0) + (this.#lateInWindow[replica] === true ? LATENESS_WEIGHT : 0);
    this.#windowStartMicros[replica] = nowMicros;
    this.#lateInWindow[replica] = late;
  }

  /** The average, with the open window counted when it holds a late vote. */
  oftenLate(replica: number): boolean {
    const avg = this.#avg[replica] ?? 0;
    return (this.#lateInWindow[replica] === true ? (1 - LATENESS_WEIGHT) * avg + LATENESS_WEIGHT : avg) >= OFTEN_LATE;
  }
}

const LATENESS_WINDOW_MIN_MICROS = 1_000;
const LATENESS_WEIGHT = 0.05;
const OFTEN_LATE = 0.4;

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
    if (late !== null) this.#lateness.note(i, late, nowMicros, this.#windowMicros());
  }

  /**
   * A commit went slow with replica `i` still silent: counted in `lateVoters` (metrics), and as a
   * late vote when the fast-path wait gave up on it (`waitedFor`; not when a replica abstained).
   */
  missed(i: number, lateVoters: number[], waitedFor: boolean, nowMicros: number): void {
    while (lateVoters.length <= i) lateVoters.push(0);
    lateVoters[i]!++;
    if (waitedFor) this.#lateness.note(i, true, nowMicros, this.#windowMicros());
  }

  /** Lateness windows: as long as votes lately take. */
  #windowMicros(): number {
    return this.rtt.smoothed * 1000;
  }

  votedSince(i: number, sinceMicros: number): boolean {
    return (this.#lastVoteMicros[i] ?? -Infinity) > sinceMicros;
  }

  oftenLate(i: number): boolean {
    return this.#lateness.oftenLate(i);
  }
}
