/**
 * The simulated world's clock and wires (DESIGN §2, §9). One priority queue of events ordered by
 * virtual time in microseconds, ties broken by insertion sequence, so a run is a pure function of
 * its seed. Messages travel as bytes (the shells encode and decode them, so the codec is exercised)
 * and each send draws its fate from the seeded generator: loss, duplication, corruption of one
 * byte, a delay (a floor plus exponential jitter, with rare long spikes that reorder messages), and
 * partitions that cut chosen pairs of nodes until healed.
 *
 * "Instant end" hooks run whenever every event of one virtual instant has run, before time
 * advances: the simulated batch signers use them to sign everything asked for during that instant
 * under one signature, as the production signer does per event-loop turn.
 */
import type { Prng } from './prng.ts';

/** A node's name: `r<shard>.<index>` for replicas, `c<id>` for clients. */
export type NodeId = string;

export interface NetworkFaults {
  /** Probability that a message is lost. */
  readonly lossRate: number;
  /** Probability that a message is delivered twice (independent delays, so possibly reordered). */
  readonly dupRate: number;
  /** Probability that one byte of a message is flipped (the receiving shell must survive it). */
  readonly corruptRate: number;
  /** Smallest one-way delay. */
  readonly delayMinUs: number;
  /** Mean of the exponential jitter added to the floor. */
  readonly delayJitterUs: number;
  /** Probability of a long delay spike (reorders a message behind later ones). */
  readonly spikeRate: number;
  readonly spikeUs: number;
}

export const CALM_NETWORK: NetworkFaults = Object.freeze({
  lossRate: 0,
  dupRate: 0,
  corruptRate: 0,
  delayMinUs: 100,
  delayJitterUs: 150,
  spikeRate: 0,
  spikeUs: 0,
});

export interface NetworkStats {
  sent: number;
  delivered: number;
  dropped: number;
  partitioned: number;
  duplicated: number;
  corrupted: number;
  bytes: number;
}

export interface TraceLine {
  readonly at: number;
  readonly what: string;
}

type Receiver = (from: NodeId, bytes: Uint8Array) => void;

interface SimEvent {
  readonly at: number;
  readonly seq: number;
  readonly run: () => void;
}

/** Binary min-heap of events by (at, seq). */
class EventQueue {
  readonly #heap: SimEvent[] = [];

  get size(): number {
    return this.#heap.length;
  }

  peek(): SimEvent | undefined {
    return this.#heap[0];
  }

  push(e: SimEvent): void {
    const h = this.#heap;
    h.push(e);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(h[i]!, h[p]!)) break;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }

  pop(): SimEvent | undefined {
    const h = this.#heap;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last !== undefined) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && before(h[l]!, h[m]!)) m = l;
        if (r < h.length && before(h[r]!, h[m]!)) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m]!, h[i]!];
        i = m;
      }
    }
    return top;
  }
}

function before(a: SimEvent, b: SimEvent): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

const TRACE_LINES_MAX = 64;
/** More events than this in one virtual instant is a zero-delay loop (a bug), not a workload. */
const EVENTS_PER_INSTANT_MAX = 1_000_000;

export class SimNetwork {
  readonly stats: NetworkStats = { sent: 0, delivered: 0, dropped: 0, partitioned: 0, duplicated: 0, corrupted: 0, bytes: 0 };
  faults: NetworkFaults;
  readonly #queue = new EventQueue();
  readonly #receivers = new Map<NodeId, Receiver>();
  readonly #instantEnd: (() => void)[] = [];
  /** Cut pairs, as `a|b` with a < b. */
  readonly #cut = new Set<string>();
  readonly #trace: TraceLine[] = [];
  #traceNext = 0;
  #seq = 0;
  #now: number;

  constructor(
    readonly prng: Prng,
    startMicros: number,
    faults: NetworkFaults = CALM_NETWORK,
  ) {
    this.#now = startMicros;
    this.faults = faults;
  }

  /** Virtual time in microseconds. */
  get nowMicros(): number {
    return this.#now;
  }

  register(node: NodeId, receive: Receiver): void {
    this.#receivers.set(node, receive);
  }

  onInstantEnd(hook: () => void): void {
    this.#instantEnd.push(hook);
  }

  /** Runs `fn` `afterUs` from now (0: later in this instant, after what is already queued). */
  schedule(afterUs: number, fn: () => void): void {
    this.#queue.push({ at: this.#now + Math.max(0, Math.round(afterUs)), seq: this.#seq++, run: fn });
  }

  /** Cuts every link between a node of `a` and a node of `b`, both ways, until healed. */
  partition(a: readonly NodeId[], b: readonly NodeId[]): void {
    for (const x of a) for (const y of b) if (x !== y) this.#cut.add(pairKey(x, y));
    this.note(`partition ${a.join(',')} | ${b.join(',')}`);
  }

  healPartitions(): void {
    this.#cut.clear();
    this.note('partitions healed');
  }

  /** Sends bytes; `label` names the message in the trace. */
  send(from: NodeId, to: NodeId, bytes: Uint8Array, label: string): void {
    const f = this.faults;
    const rng = this.prng;
    this.stats.sent++;
    this.stats.bytes += bytes.length;
    if (this.#cut.has(pairKey(from, to))) {
      this.stats.partitioned++;
      return;
    }
    if (rng.chance(f.lossRate)) {
      this.stats.dropped++;
      this.note(`drop ${from}->${to} ${label}`);
      return;
    }
    const copies = rng.chance(f.dupRate) ? 2 : 1;
    if (copies === 2) this.stats.duplicated++;
    for (let c = 0; c < copies; c++) {
      let payload = bytes;
      if (rng.chance(f.corruptRate) && bytes.length > 0) {
        payload = bytes.slice();
        const at = rng.int(payload.length);
        payload[at] = payload[at]! ^ (1 << rng.int(8));
        this.stats.corrupted++;
      }
      let delay = f.delayMinUs + rng.exponential(f.delayJitterUs);
      if (rng.chance(f.spikeRate)) delay += rng.exponential(f.spikeUs);
      this.schedule(Math.max(1, delay), () => this.#deliver(from, to, payload, label));
    }
  }

  #deliver(from: NodeId, to: NodeId, bytes: Uint8Array, label: string): void {
    // A partition cut while the message was in flight loses it too.
    if (this.#cut.has(pairKey(from, to))) {
      this.stats.partitioned++;
      return;
    }
    const receive = this.#receivers.get(to);
    if (receive === undefined) return;
    this.stats.delivered++;
    this.note(`${from}->${to} ${label}`);
    receive(from, bytes);
  }

  /**
   * Runs events in time order until `done()` holds (checked after every instant) or virtual time
   * passes `deadlineMicros`. Returns whether `done()` held.
   */
  runUntil(done: () => boolean, deadlineMicros: number): boolean {
    for (;;) {
      if (done()) return true;
      const next = this.#queue.peek();
      if (next === undefined || next.at > deadlineMicros) {
        this.#now = Math.max(this.#now, deadlineMicros);
        return done();
      }
      this.#now = next.at;
      let events = 0;
      while (this.#queue.peek()?.at === this.#now) {
        this.#queue.pop()!.run();
        if (++events > EVENTS_PER_INSTANT_MAX) throw new Error(`more than ${EVENTS_PER_INSTANT_MAX} events at virtual time ${this.#now}: a zero-delay loop\n${this.trace().join('\n')}`);
      }
      for (const hook of this.#instantEnd) hook();
    }
  }

  note(what: string): void {
    const line = { at: this.#now, what };
    if (this.#trace.length < TRACE_LINES_MAX) this.#trace.push(line);
    else this.#trace[this.#traceNext] = line;
    this.#traceNext = (this.#traceNext + 1) % TRACE_LINES_MAX;
  }

  /** The last trace lines, oldest first. */
  trace(): string[] {
    const n = this.#trace.length;
    const start = n < TRACE_LINES_MAX ? 0 : this.#traceNext;
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      const l = this.#trace[(start + i) % n]!;
      out.push(`${l.at} ${l.what}`);
    }
    return out;
  }
}

function pairKey(a: NodeId, b: NodeId): string {
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}
