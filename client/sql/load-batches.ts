/**
 * Bulk loads over the cluster (docs/decisions/0012): rows a SQL transaction writes into a storage it
 * made fresh (TRUNCATE, ALTER TABLE ... ADD PRIMARY KEY, CREATE TABLE inside a transaction) are
 * invisible to everyone else until the transaction's catalog write names that storage, so they need
 * not wait for the transaction's one Prepare message: past a batch size they are committed in load
 * batches, ordinary blind-write transactions of their own, several in flight.
 *
 * - A fresh storage id comes from `allocateStorage`: a small transaction that increments the shared
 *   counter `STORAGE_COUNTER_KEY`, so no two loads (of any client, before or after a restart) write
 *   under one id, and an aborted load's rows stay unreferenced forever.
 * - Every key goes into at most one batch: a key written again after its batch left stays with the
 *   user's transaction, whose final commit is later than every batch. Batches therefore commute and
 *   may be retried at a fresh timestamp.
 * - The user's transaction commits at a timestamp later than every batch (`ClientCore.advance`), so
 *   no reader can see the new catalog without the rows; reads after a batch also move it forward (they
 *   must see the batches' rows).
 *
 * - Liveness (docs/decisions/0017): replicas collect a storage no catalog names once its newest write
 *   is older than a few history windows (replica/core/storage-gc.ts), which is how the rows of a load
 *   that aborted, rolled back or whose client died go away. So while batched rows wait for their
 *   commit, every storage holding some keeps being written: a heartbeat batch writes a deletion of
 *   the storage's bare prefix key (never a row) every W/4 (W the history window), and the transaction
 *   commits at most W after the newest write of each (else it first sends one more). Consecutive
 *   writes of a storage further apart than 2 W (the process was suspended, the cluster stalled) mean
 *   replicas may have collected it already: the commit then fails with 40001 rather than publish rows
 *   that may be gone.
 */
import { SqlError, SqlState } from '../../sql/errors.ts';
import type { LimitsConfig } from '../../protocol/config.ts';
import type { Key, WriteEntry } from '../../protocol/messages.ts';
import { STORAGE_ID_BASE, STORAGE_ID_END } from '../../sql/catalog.ts';
import { STORAGE_COUNTER_KEY } from '../../sql/replicated-catalog.ts';
import { TABLE_PREFIX_BYTES, tablePrefix } from '../../sql/row-key.ts';
import type { PestoClient, Transaction } from '../pesto-client.ts';

/** Load batches committing at once; more make the statement that fills the next one wait. */
const BATCHES_IN_FLIGHT_MAX = 4;
/** A batch (or an allocation) that keeps aborting gives up after this many attempts. */
const ATTEMPTS_MAX = 6;
const BATCH_ROWS_MAX = 2000;

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** Takes the next fresh storage id in a transaction of its own. */
export async function allocateStorage(client: PestoClient): Promise<number> {
  for (let attempt = 0; attempt < ATTEMPTS_MAX; attempt++) {
    const tx = client.session().begin();
    const r = await tx.read(STORAGE_COUNTER_KEY);
    const n = r.value === null ? 0 : Number(fromUtf8.decode(r.value));
    if (!Number.isSafeInteger(n) || n < 0) {
      tx.abort();
      throw new SqlError(SqlState.internalError, 'the storage counter holds an invalid value');
    }
    if (STORAGE_ID_BASE + n >= STORAGE_ID_END) {
      tx.abort();
      throw new SqlError(SqlState.programLimitExceeded, 'no fresh storage ids left for TRUNCATE, ADD PRIMARY KEY or a load');
    }
    tx.writeKey(STORAGE_COUNTER_KEY, utf8.encode(String(n + 1)));
    if ((await tx.commit()).outcome === 'commit') return STORAGE_ID_BASE + n;
  }
  throw new SqlError(SqlState.serializationFailure, 'could not serialize access: allocating a fresh storage kept aborting');
}

/** The fresh storages of one SQL transaction and the load batches of their rows. */
export class LoadBatches {
  /**
   * Row-key prefixes of the transaction's fresh storages, each with the writes taken into it so far (what
   * a savepoint checks it could undo).
   */
  readonly #fresh = new Map<string, { taken: number }>();
  /** Keys some batch carries (committed or in flight). */
  readonly #batched = new Set<Key>();
  #pending = new Map<Key, Uint8Array | null>();
  #pendingBytes = 0;
  readonly #inFlight = new Set<Promise<void>>();
  #failure: SqlError | null = null;
  /** Batches begun since the user's transaction last moved its timestamp. */
  #sinceAdvance = 0;
  batches = 0;
  rows = 0;
  /** Heartbeat batches sent (liveness, above). */
  heartbeats = 0;
  /** Per fresh storage prefix: timestamp (µs) of the newest batch begun writing it. */
  readonly #begun = new Map<string, number>();
  /** Per fresh storage prefix: timestamps (µs) of the batches that committed writing it. */
  readonly #written = new Map<string, number[]>();
  #heartbeat: NodeJS.Timeout | null = null;
  #heartbeatsInFlight = 0;

  readonly #rowsMax: number;
  readonly #bytesMax: number;
  readonly #windowMicros: number;

  constructor(
    private readonly client: PestoClient,
    private readonly tx: Transaction,
    limits: LimitsConfig,
  ) {
    this.#rowsMax = Math.max(1, Math.min(BATCH_ROWS_MAX, limits.txnKeysMax >> 1));
    this.#bytesMax = Math.max(64 * 1024, limits.messageBytesMax >> 2);
    this.#windowMicros = limits.historyWindowMs * 1000;
  }

  /** Storage `id` is fresh in this transaction: nobody else can name it before the commit. */
  addFresh(id: number): void {
    const p = tablePrefix(id);
    this.#fresh.set(p, { taken: 0 });
    this.tx.markPrivate(p);
  }

  /**
   * Writes taken so far into each storage fresh now. A write may have left in a committed batch, so a
   * savepoint can undo none of them; a storage made fresh after the savepoint is dropped with the
   * catalog the savepoint restores, rows and all (the storage collector removes it).
   */
  takenCounts(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [p, f] of this.#fresh) out.set(p, f.taken);
    return out;
  }

  isFresh(id: number): boolean {
    return this.#fresh.has(tablePrefix(id));
  }

  /**
   * Takes a write if it belongs to a fresh storage and no batch carries its key yet (true), starting a
   * batch when enough rows are waiting; false: the write stays with the user's transaction.
   */
  take(key: Key, value: Uint8Array | null): boolean {
    const fresh = this.#fresh.size === 0 ? undefined : this.#fresh.get(key.slice(0, TABLE_PREFIX_BYTES));
    if (fresh === undefined || this.#batched.has(key)) return false;
    fresh.taken++;
    const old = this.#pending.get(key);
    if (old !== undefined && old !== null) this.#pendingBytes -= old.length;
    if (old === undefined) this.#pendingBytes += key.length + 8;
    if (value !== null) this.#pendingBytes += value.length;
    this.#pending.set(key, value);
    if (this.#pending.size >= this.#rowsMax || this.#pendingBytes >= this.#bytesMax) this.#launch();
    return true;
  }

  /** Writes taken but not in a batch yet (the transaction's range reads must see them). */
  pendingEntries(): Iterable<[Key, Uint8Array | null]> {
    return this.#pending.entries();
  }

  /** Waits until at most `max` batches are in flight; throws the first batch failure. */
  async settle(max = BATCHES_IN_FLIGHT_MAX - 1): Promise<void> {
    while (this.#inFlight.size > max && this.#failure === null) await Promise.race(this.#inFlight);
    if (this.#failure !== null) throw this.#failure;
  }

  /**
   * Before a read: batches that left since the last move must be committed and the transaction's
   * timestamp moved past them, so the read sees their rows.
   */
  async beforeRead(): Promise<void> {
    if (this.#sinceAdvance === 0) return;
    await this.settle(0);
    this.tx.advance();
    this.#sinceAdvance = 0;
  }

  /**
   * Before the commit: without batches, the waiting rows simply join the transaction; otherwise they
   * leave as a last batch, every batch must commit, and the transaction moves past them all.
   */
  async beforeCommit(): Promise<void> {
    if (this.batches === 0) {
      for (const [key, value] of this.#pending) this.tx.writeKey(key, value);
      this.#pending.clear();
      return;
    }
    if (this.#pending.size > 0) this.#launch();
    await this.settle(0);
    // At most W between each storage's newest write and the commit (replicas keep the storage alive that long).
    for (let attempt = 0; ; attempt++) {
      const at = this.tx.advance();
      this.#sinceAdvance = 0;
      const stale = this.#staleAt(at.micros);
      if (stale.length === 0) break;
      if (attempt >= ATTEMPTS_MAX) throw new SqlError(SqlState.serializationFailure, 'could not serialize access: the load could not commit within a history window of its last batch');
      this.#track(this.#commitBatch(stale.map((key) => ({ key, value: null }))));
      await this.settle(0);
    }
    this.#stopHeartbeat();
  }

  /** Sends a heartbeat batch for the storages whose newest write is W/4 old (see the module comment). */
  readonly #beat = (): void => {
    if (this.client.core.timestampOf(this.tx.id) === undefined) return this.#stopHeartbeat(); // committed or rolled back
    if (this.#heartbeatsInFlight >= BATCHES_IN_FLIGHT_MAX || this.#failure !== null) return;
    const now = Date.now() * 1000;
    const due = [...this.#begun].filter(([, t]) => now - t >= this.#windowMicros >> 2).map(([p]) => p);
    if (due.length === 0) return;
    this.heartbeats++;
    // Not waiting for the previous one: a slow commit must not leave a gap in the storages' write times.
    this.#heartbeatsInFlight++;
    this.#track(this.#commitBatch(due.map((key) => ({ key, value: null }))).finally(() => this.#heartbeatsInFlight--));
  };

  #stopHeartbeat(): void {
    if (this.#heartbeat !== null) clearInterval(this.#heartbeat);
    this.#heartbeat = null;
  }

  #launch(): void {
    const writes: WriteEntry[] = [];
    for (const [key, value] of this.#pending) {
      writes.push({ key, value });
      this.#batched.add(key);
    }
    this.#pending = new Map();
    this.#pendingBytes = 0;
    this.batches++;
    this.rows += writes.length;
    this.#sinceAdvance++;
    this.#track(this.#commitBatch(writes));
    if (this.#heartbeat === null) {
      this.#heartbeat = setInterval(this.#beat, Math.max(1, this.#windowMicros / 4000));
      this.#heartbeat.unref();
    }
  }

  /** Counts a batch in flight until it settles; its failure fails the load. */
  #track(batch: Promise<void>): void {
    const p: Promise<void> = batch.then(
      () => void this.#inFlight.delete(p),
      (e: unknown) => {
        this.#inFlight.delete(p);
        this.#failure ??= e instanceof SqlError ? e : new SqlError(SqlState.serializationFailure, `a load batch failed: ${String(e)}`);
      },
    );
    this.#inFlight.add(p);
  }

  /** Commits `writes` in a transaction of its own (retried at fresh timestamps) and notes its storages' write time. */
  async #commitBatch(writes: readonly WriteEntry[]): Promise<void> {
    for (let attempt = 0; attempt < ATTEMPTS_MAX; attempt++) {
      const tx = this.client.session().begin();
      for (const w of writes) tx.writeKey(w.key, w.value);
      const at = tx.timestamp.micros;
      const prefixes = new Set(writes.map((w) => w.key.slice(0, TABLE_PREFIX_BYTES)));
      for (const p of prefixes) this.#begun.set(p, Math.max(at, this.#begun.get(p) ?? 0));
      if ((await tx.commit()).outcome === 'commit') {
        for (const p of prefixes) (this.#written.get(p) ?? this.#written.set(p, []).get(p)!).push(at);
        return;
      }
    }
    throw new SqlError(SqlState.serializationFailure, `could not serialize access: a load batch of ${writes.length} rows kept aborting`);
  }

  /**
   * The storages whose newest committed write is more than W before `commitAt` (they need one more write
   * first). Throws 40001 when two committed writes of a storage lie further apart than 2 W: replicas may
   * have collected its rows in between.
   */
  #staleAt(commitAt: number): string[] {
    const stale: string[] = [];
    for (const [p, times] of this.#written) {
      times.sort((a, b) => a - b);
      for (let i = 1; i < times.length; i++) {
        if (times[i]! - times[i - 1]! > 2 * this.#windowMicros) throw new SqlError(SqlState.serializationFailure, 'could not serialize access: the load paused for more than two history windows, replicas may have collected its rows');
      }
      if (commitAt - times[times.length - 1]! > this.#windowMicros) stale.push(p);
    }
    return stale;
  }
}
