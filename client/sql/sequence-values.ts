/**
 * Sequence values on the cluster (sql/sequences.ts). A sequence's state is a counter row (table 0,
 * `counterKey`, on its table's shard) that a client advances in a small transaction of
 * its own, as PostgreSQL's nextval is outside the transaction: a rollback does not give values back and
 * concurrent inserts into one table do not conflict on the counter (only the small transactions do,
 * and they retry). A statement runs at the client (lower-sequence.ts sets `atClient`) and may run
 * several times (sql-session.ts fetches what it misses and runs it again), so values come out of
 * per-session reserves: a pass that finds a reserve short records what it lacked and returns
 * placeholders, distinct so that the pass runs on and counts all it lacks (a bulk insert's rows would
 * otherwise collide on one placeholder key and stop it at the second row); `settle` then takes that
 * many values (at least the sequence's CACHE, PostgreSQL's per-session cache) in one counter
 * transaction, and the statement runs again. The session reads no row a pass with placeholders missed
 * before settling. setval writes the counter once, however often its statement runs.
 *
 * A sequence in FROM reads the counter row itself (lower-sequence.ts): a pass that has no state for it
 * yet records that and reads the initial state as a placeholder; `settle` reads the row in a small
 * read-only transaction (after the pass's setvals and values are taken), and the state is kept for the
 * rest of the statement. last_value is therefore the last value any session took into its reserve,
 * handed out or not, as PostgreSQL's counts values cached by its sessions.
 */
import type { Key } from '../../protocol/messages.ts';
import type { Catalog } from '../../sql/catalog.ts';
import { SqlError, SqlState } from '../../sql/errors.ts';
import { decodeState, encodeState, initialState, sequenceOfId, setState, takeValues, SequenceSession, type SequenceAccess, type SequenceDef, type SequenceState } from '../../sql/sequences.ts';
import type { PestoClient } from '../pesto-client.ts';
import { SERIAL_COUNTER_PREFIX } from '../../protocol/sharding.ts';

/** A counter transaction that keeps aborting gives up after this many attempts (40001). */
const ATTEMPTS_MAX = 8;
/** The most values a CACHE setting makes a session take beyond what its statement lacks. */
const CACHE_MAX = 65_536;
const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A sequence's counter row: `<prefix><table>:<column>` (protocol/sharding.ts puts it on its table's shard). */
export function counterKey(seq: SequenceDef): Key {
  return `${SERIAL_COUNTER_PREFIX}${seq.counter.table}:${seq.counter.column}`;
}

/** The state a counter row holds (absent: the sequence's initial state). */
export function counterState(seq: SequenceDef, value: Uint8Array | null): SequenceState {
  return value === null ? initialState(seq) : decodeState(fromUtf8.decode(value));
}

export function counterValue(state: SequenceState): Uint8Array {
  return utf8.encode(encodeState(state));
}

/** One SQL session's sequence values: its reserves, currval and lastval. */
export class SessionSequences {
  readonly #session = new SequenceSession();
  /** Values taken from a counter and not handed out yet, by counter key, in order. */
  readonly #reserves = new Map<Key, bigint[]>();
  /** setval calls already written, by their ordinal in the statement (a statement's passes repeat them). */
  #setvalsDone = 0;
  /** Counter states read for this statement's sequences in FROM, by counter key. */
  readonly #states = new Map<Key, SequenceState>();

  constructor(private readonly client: PestoClient) {}

  /** A statement begins (its setvals are counted from here). */
  begin(): void {
    this.#setvalsDone = 0;
    this.#states.clear();
  }

  /** SequenceAccess for one pass of a statement over `catalog`; `finish` or `settle` it after the pass. */
  pass(catalog: Catalog): SequencePass {
    return new SequencePass(catalog, this.#reserves, this.#session, this.#setvalsDone, this.#states);
  }

  /** Whether the pass must be run again after `settle` (it lacked values or wrote no setval yet). */
  unsettled(p: SequencePass): boolean {
    return p.lacking.size > 0 || p.setvals.length > this.#setvalsDone || p.lackingStates.size > 0;
  }

  /** Writes the pass's new setvals and takes the values it lacked, each in a counter transaction of its own. */
  async settle(p: SequencePass): Promise<void> {
    for (const s of p.setvals.slice(this.#setvalsDone)) {
      await this.#counterTxn(s.seq, () => s.state);
      this.#reserves.delete(counterKey(s.seq));
      this.#setvalsDone++;
    }
    await Promise.all([...p.lacking.values()].map(async ({ seq, n }) => {
      const take = Math.max(n, seq.cache < BigInt(CACHE_MAX) ? Number(seq.cache) : CACHE_MAX);
      let values: bigint[] = [];
      await this.#counterTxn(seq, (state) => {
        const r = takeValues(seq, state, take);
        values = r.values;
        return r.state;
      });
      const k = counterKey(seq);
      this.#reserves.set(k, [...(this.#reserves.get(k) ?? []), ...values]);
    }));
    await Promise.all([...p.lackingStates].map(async ([k, seq]) => this.#states.set(k, await this.#readCounter(seq))));
  }

  /** A counter row's state, read in a read-only transaction of its own. */
  async #readCounter(seq: SequenceDef): Promise<SequenceState> {
    const k = counterKey(seq);
    for (let attempt = 0; attempt < ATTEMPTS_MAX; attempt++) {
      const tx = this.client.session().begin();
      const r = await tx.read(k);
      if ((await tx.commit()).outcome === 'commit') return counterState(seq, r.value);
    }
    throw new SqlError(SqlState.serializationFailure, `could not serialize access: reading sequence "${seq.name}" kept aborting`);
  }

  /** The statement's last pass ran: its values are handed out for good, and the next statement starts afresh. */
  finish(p: SequencePass): void {
    for (const [k, used] of p.used) this.#reserves.set(k, (this.#reserves.get(k) ?? []).slice(used));
    for (const n of p.notes) this.#session.note(n.id, n.value, n.used);
  }

  async #counterTxn(seq: SequenceDef, next: (state: SequenceState) => SequenceState): Promise<void> {
    const k = counterKey(seq);
    for (let attempt = 0; attempt < ATTEMPTS_MAX; attempt++) {
      const tx = this.client.session().begin();
      const r = await tx.read(k);
      let state: SequenceState;
      try {
        state = next(counterState(seq, r.value));
      } catch (e) {
        tx.abort();
        throw e;
      }
      tx.writeKey(k, counterValue(state));
      if ((await tx.commit()).outcome === 'commit') return;
    }
    throw new SqlError(SqlState.serializationFailure, `could not serialize access: advancing sequence "${seq.name}" kept aborting`);
  }
}

/** One pass of a statement: values from copies of the reserves, what it lacked, the setvals it asked for. */
export class SequencePass implements SequenceAccess {
  readonly lacking = new Map<number, { seq: SequenceDef; n: number }>();
  /** Sequences in FROM whose counter state this statement has not read yet. */
  readonly lackingStates = new Map<Key, SequenceDef>();
  readonly setvals: { seq: SequenceDef; state: SequenceState }[] = [];
  /** Values taken from each reserve in this pass. */
  readonly used = new Map<Key, number>();
  readonly notes: { id: number; value: bigint; used: boolean }[] = [];
  /** Reserves a setval of this pass emptied (a nextval after it must see the new state). */
  readonly #emptied = new Set<Key>();

  constructor(
    private readonly catalog: Catalog,
    private readonly reserves: ReadonlyMap<Key, readonly bigint[]>,
    private readonly session: SequenceSession,
    private readonly setvalsDone: number,
    private readonly states: ReadonlyMap<Key, SequenceState>,
  ) {}

  state(id: number): SequenceState {
    const seq = sequenceOfId(this.catalog, id);
    const k = counterKey(seq);
    const s = this.states.get(k);
    if (s !== undefined) return s;
    this.lackingStates.set(k, seq);
    return initialState(seq); // a placeholder: this pass runs again
  }

  nextval(id: number): bigint {
    const seq = sequenceOfId(this.catalog, id);
    const k = counterKey(seq);
    const reserve = this.#emptied.has(k) ? [] : (this.reserves.get(k) ?? []);
    const used = this.used.get(k) ?? 0;
    if (used < reserve.length) {
      this.used.set(k, used + 1);
      this.notes.push({ id, value: reserve[used]!, used: true });
      return reserve[used]!;
    }
    const l = this.lacking.get(id) ?? { seq, n: 0 };
    l.n++;
    this.lacking.set(id, l);
    return seq.start + BigInt(l.n - 1) * seq.increment; // a placeholder: this pass runs again
  }

  currval(id: number): bigint {
    for (let i = this.notes.length - 1; i >= 0; i--) if (this.notes[i]!.id === id) return this.notes[i]!.value;
    return this.session.currval(sequenceOfId(this.catalog, id));
  }

  lastval(): bigint {
    const last = this.notes.findLast((n) => n.used);
    return last !== undefined ? last.value : this.session.lastval();
  }

  setval(id: number, value: bigint, called: boolean): bigint {
    const seq = sequenceOfId(this.catalog, id);
    const state = setState(seq, value, called);
    // Written by an earlier pass of this statement: its reserve was emptied then and refilled since.
    if (this.setvals.length >= this.setvalsDone) this.#emptied.add(counterKey(seq));
    this.setvals.push({ seq, state });
    if (called) this.notes.push({ id, value, used: false });
    return value;
  }
}
