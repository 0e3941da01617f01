/**
 * The client library's production shell and public API (DESIGN §1): `PestoClient` connects to every
 * replica of the cluster over authenticated links, verifies every reply at the boundary (vote and
 * ST2 signatures, commit proofs), feeds the pure `ClientCore`, and turns its effects into stream
 * writes, timers and resolved promises. `Session` and `Transaction` are what the gateway,
 * benchmarks and applications use.
 *
 *   const client = await PestoClient.connect({ config, clientId, keyPair });
 *   const tx = client.session().begin();
 *   const v = await tx.get('alice'); tx.put('alice', '10'); const r = await tx.commit();
 */
import { CertificateVerifier } from '../protocol/certificate.ts';
import { decodeMessage, EncodeMemo, encodeMessage, type CodecLimits } from '../protocol/codec.ts';
import { codecLimitsOf, linkLimitsOf, publicKeyOf, splitAddress, txnBodyBytesMax, type ClusterConfig } from '../protocol/config.ts';
import type { KeyPair } from '../protocol/crypto/ed25519.ts';
import { VerifiedRootCache } from '../protocol/crypto/signed.ts';
import { warmUpBlake3 } from '../protocol/crypto/blake3.ts';
import { clientId as toClientId, replicaIndex, shardId, type ReplicaRef } from '../protocol/ids.ts';
import type { Key, Message } from '../protocol/messages.ts';
import { TimestampAllocator, type Timestamp } from '../protocol/timestamp.ts';
import { clusterTransport, type DialedLink, type Transport } from '../net/index.ts';
import { checkAtClient, type ClientBoundary } from './core/boundary.ts';
import { TimerQueue } from './timer-queue.ts';
import { ClientCore } from './core/client-core.ts';
import type { QuerySpec } from './core/client-options.ts';
import type { CommitResult, OpResult } from './core/results.ts';

export interface ConnectOptions {
  readonly config: ClusterConfig;
  readonly clientId: number;
  readonly keyPair: KeyPair;
  readonly transport?: Transport;
  /** Overrides of the configured timeouts (tests). */
  readonly fastPathWaitMs?: number;
  /** Fault knob (issue 4 stress runs): every range read skips its eager round and syncs. */
  readonly forceSyncQueries?: boolean;
  /** Leave replicas that lately disagreed out of eager range-read rounds (default true; ClientCoreOptions). */
  readonly learnQueryTargets?: boolean;
  /** Ask all but f+1 replicas for digest-only range-read replies (default false; ClientCoreOptions, decision 0027). */
  readonly queryDigestReplies?: boolean;
  /** Eager range-read rounds ask 3f+1 replicas and widen to 4f+1 when needed (default true; ClientCoreOptions, decisions 0028 and 0047). */
  readonly queryEagerQuorum?: boolean;
  /** How long the client asks the same replicas first (ClientCoreOptions, decision 0043; 0: drawn per transaction). */
  readonly replicaPreferenceMs?: number;
  /**
   * How long `connect` waits for n - f replicas of every shard before it gives up (default 30 s: on a
   * loaded machine the handshakes of a freshly started cluster took longer than 10 s).
   */
  readonly connectTimeoutMs?: number;
}

const CONNECT_TIMEOUT_MS = 30_000;

/**
 * Longest wait for the last ST1 votes of a live replica before the slow path: waiting is far cheaper
 * than ST2 (a round of signed decisions), and a crashed replica is not waited for (finisher.ts).
 */
const FAST_PATH_WAIT_MAX_MS = 1000;

/** One timestamp allocator per client id in this process: clients of one id never share a timestamp. */
const allocators = new Map<number, TimestampAllocator>();
function timestampsOf(id: number): TimestampAllocator {
  let a = allocators.get(id);
  if (a === undefined) allocators.set(id, (a = new TimestampAllocator(toClientId(id))));
  return a;
}

export type KeyLike = string | Uint8Array;
export type ValueLike = string | Uint8Array;

/** Thrown by transaction methods used after the transaction finished. */
export class TransactionStateError extends Error {
  override readonly name: string = 'TransactionStateError';
}

/**
 * The transaction's timestamp fell behind the replicas' history window (ClientCoreOptions.staleAfterMicros):
 * it can only abort, and the same work at a fresh timestamp may succeed (`retryable`; SQL maps it to 40001).
 */
export class TransactionTooOldError extends TransactionStateError {
  override readonly name = 'TransactionTooOldError';
  readonly retryable = true;
  /** serialization_failure: drivers and tools retry it. */
  readonly sqlState = '40001';
}

/**
 * The transaction does not fit one message of the cluster (limits.txnKeysMax, limits.messageBytesMax):
 * nothing was sent, and a retry would not fit either (SQL maps it to 54000).
 */
export class TransactionTooLargeError extends TransactionStateError {
  override readonly name = 'TransactionTooLargeError';
  readonly sqlState = '54000';
}

function failure(r: OpResult): TransactionStateError {
  if (r.kind !== 'failed') return new TransactionStateError('unexpected result');
  if (r.reason === 'too-old') return new TransactionTooOldError(`transaction too old: its timestamp is behind the replicas' history window; retry it`);
  if (r.reason === 'too-large') return new TransactionTooLargeError(`transaction too large for the cluster: ${r.detail ?? 'over its limits'}`);
  return new TransactionStateError(r.reason);
}

export function toKey(k: KeyLike): Key {
  const bytes = typeof k === 'string' ? Buffer.from(k, 'utf8') : Buffer.from(k.buffer, k.byteOffset, k.length);
  return bytes.toString('latin1');
}

function toValue(v: ValueLike): Uint8Array {
  return typeof v === 'string' ? Buffer.from(v, 'utf8') : v;
}

export class PestoClient {
  readonly core: ClientCore;
  readonly verifier: CertificateVerifier;
  readonly rejected: Record<string, number> = {};
  readonly #links: DialedLink[][] = [];
  readonly #limits: CodecLimits;
  readonly #pending = new Map<number, (r: OpResult) => void>();
  /** Range reads whose caller takes a result early (QuerySpec.early), by operation. */
  readonly #early = new Map<number, (result: Uint8Array) => void>();
  readonly #boundary: ClientBoundary;
  #nextOp = 1;
  #closed = false;

  private constructor(readonly opts: ConnectOptions) {
    const { config } = opts;
    this.#limits = codecLimitsOf(config);
    this.core = new ClientCore(
      {
        clientId: toClientId(opts.clientId),
        f: config.f,
        shardCount: config.shards.length,
        fastPathWaitMs: opts.fastPathWaitMs ?? config.timeouts.fastPathWaitMs,
        fastPathWaitMaxMs: Math.max(opts.fastPathWaitMs ?? config.timeouts.fastPathWaitMs, FAST_PATH_WAIT_MAX_MS),
        resendMs: config.timeouts.st2RetryMs,
        readRetryMs: config.timeouts.readRetryMs,
        relayWaitMs: config.timeouts.dependencyRelayMs,
        queryRetriesMax: config.limits.queryRetriesMax,
        forceSyncQueries: opts.forceSyncQueries === true,
        learnQueryTargets: opts.learnQueryTargets !== false,
        queryDigestReplies: opts.queryDigestReplies === true,
        queryEagerQuorum: opts.queryEagerQuorum !== false,
        ...(opts.replicaPreferenceMs === undefined ? {} : { replicaPreferenceMs: opts.replicaPreferenceMs }),
        staleAfterMicros: Math.max(0, config.limits.historyWindowMs - config.timeouts.clockSkewMaxMs) * 1000,
        txnLimits: { keysMax: config.limits.txnKeysMax, bodyBytesMax: txnBodyBytesMax(config.limits), keyBytesMax: this.#limits.keyBytesMax, valueBytesMax: this.#limits.valueBytesMax },
      },
      { nowMicros: () => Date.now() * 1000, random: Math.random },
      timestampsOf(opts.clientId),
    );
    this.verifier = new CertificateVerifier({
      f: config.f,
      shardCount: config.shards.length,
      publicKey: (s, i) => publicKeyOf(config, { kind: 'replica', shard: s, index: i }),
      cache: new VerifiedRootCache(1 << 16),
    });
    this.#boundary = { verifier: this.verifier, txnOfReq: (req) => this.core.txnOfReq(req), verifiedCommits: new Set() };
  }

  /** Dials every replica; links come up in the background (sends queue until then). */
  static async connect(opts: ConnectOptions): Promise<PestoClient> {
    warmUpBlake3(); // range reads hash large bodies to check digest-only replies (decision 0027)
    const client = new PestoClient(opts);
    client.#dialAll();
    try {
      await client.#waitUp(opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS);
    } catch (e) {
      // Its links keep redialling (and the process alive) until closed.
      await client.close();
      throw e;
    }
    return client;
  }

  session(): Session {
    return new Session(this);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#timers.close();
    for (const shard of this.#links) for (const l of shard) l.close();
    for (const resolve of this.#pending.values()) resolve({ kind: 'failed', reason: 'client closed' });
    this.#pending.clear();
    this.#early.clear();
  }

  /** Runs one core operation and waits for its result; `early` takes a range read's early result (QuerySpec.early). */
  run(start: (op: number) => void, early?: (result: Uint8Array) => void): Promise<OpResult> {
    if (this.#closed) return Promise.resolve({ kind: 'failed', reason: 'client closed' });
    const op = this.#nextOp++;
    const p = new Promise<OpResult>((resolve) => this.#pending.set(op, resolve));
    if (early !== undefined) this.#early.set(op, early);
    start(op);
    this.drain();
    return p;
  }

  drain(): void {
    const effects = this.core.takeEffects();
    // A message sent to several peers is encoded once (EncodeMemo); a writeback once, then copied per replica.
    const memo = this.#memo;
    for (const e of effects) {
      switch (e.kind) {
        case 'send': {
          const link = this.#links[e.to.shard]?.[e.to.index];
          if (link === undefined) break;
          // A writeback's votes go with the recipient's MAC slots only (codec.ts SlottedWriteback).
          const bytes = memo.encode(e.msg, e.to.index);
          link.send(bytes);
          break;
        }
        case 'timer':
          this.#timers.add(e.id, e.afterMs);
          break;
        case 'done': {
          const resolve = this.#pending.get(e.op);
          this.#pending.delete(e.op);
          this.#early.delete(e.op);
          resolve?.(e.result);
          break;
        }
        case 'early': {
          const take = this.#early.get(e.op);
          this.#early.delete(e.op);
          try {
            take?.(e.result);
          } catch {
            // A result no replica agreed to yet may be anything; the caller uses the agreed one.
          }
          break;
        }
      }
    }
    memo.reset();
  }

  readonly #memo = new EncodeMemo();

  /** Core timers under one Node timer, fired after the turn's I/O (timer-queue.ts). */
  readonly #timers = new TimerQueue((ids) => {
    if (this.#closed) return;
    for (const id of ids) this.core.onTimer(id);
    this.drain();
  });

  #dialAll(): void {
    const { config } = this.opts;
    const transport = this.opts.transport ?? clusterTransport(config, { kind: 'client', id: this.opts.clientId }, this.opts.keyPair.secretKey);
    for (const shard of config.shards) {
      const row: DialedLink[] = [];
      for (const r of shard.replicas) {
        const addr = splitAddress(r.address);
        if (addr === undefined) throw new Error(`bad replica address ${r.address}`);
        const from: ReplicaRef = { shard: shardId(shard.id), index: replicaIndex(r.index) };
        const link = transport.dial({
          host: addr.host,
          port: addr.port,
          peer: { kind: 'replica', shard: shard.id, index: r.index },
          identity: { kind: 'client', id: this.opts.clientId },
          secretKey: this.opts.keyPair.secretKey,
          publicKeyOf: (peer) => publicKeyOf(config, peer),
          limits: linkLimitsOf(config.limits),
        });
        link.onMessage((bytes) => this.#onBytes(from, bytes));
        row[r.index] = link;
      }
      this.#links[shard.id] = row;
    }
  }

  /** Resolves once at least n - f replicas of every shard are connected (or after a timeout). */
  async #waitUp(timeoutMs: number): Promise<void> {
    const need = this.core.q.n - this.core.q.f;
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.#links.every((row) => row.filter((l) => l.up).length >= need)) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`could not reach ${need} replicas of every shard within ${timeoutMs} ms`);
  }

  #onBytes(from: ReplicaRef, bytes: Uint8Array): void {
    const decoded = decodeMessage(bytes, this.#limits);
    if (!decoded.ok) return this.#reject(`decode-${decoded.reason}`);
    const msg = decoded.value;
    const reason = checkAtClient(this.#boundary, from, msg);
    if (reason === 'late') return;
    if (reason !== null) return this.#reject(reason);
    this.core.handle(from, msg);
    this.drain();
  }


  #reject(reason: string): void {
    this.rejected[reason] = (this.rejected[reason] ?? 0) + 1;
  }
}

export class Session {
  constructor(readonly client: PestoClient) {}

  begin(): Transaction {
    return new Transaction(this.client, this.client.core.begin());
  }
}

export class Transaction {
  #finished = false;

  constructor(
    readonly client: PestoClient,
    readonly id: number,
  ) {}

  /** The value of `key` as of this transaction's timestamp (its own writes included), or null. */
  async get(key: KeyLike): Promise<Uint8Array | null> {
    return (await this.read(toKey(key))).value;
  }

  /** A point read of a raw key: value (null = absent) and the version read. */
  async read(key: Key): Promise<{ value: Uint8Array | null; version: Timestamp }> {
    this.#check();
    const r = await this.client.run((op) => this.client.core.read(this.id, key, op));
    if (r.kind === 'read') return { value: r.value, version: r.version };
    throw failure(r);
  }

  /**
   * A range read: replicas execute one SQL statement at this transaction's timestamp (PROTOCOL §4.2).
   * Resolves with the agreed outcome bytes (sql/wire-values.ts), or null when the replicas could not
   * agree within the retry limit (the transaction can then only abort).
   */
  async rangeRead(spec: QuerySpec, early?: (result: Uint8Array) => void): Promise<{ result: Uint8Array; syncRounds: number } | null> {
    this.#check();
    const r = await this.client.run((op) => this.client.core.query(this.id, spec, op), early);
    if (r.kind === 'query') return { result: r.result, syncRounds: r.syncRounds };
    if (r.kind === 'failed' && r.reason === 'query-unresolved') return null;
    throw failure(r);
  }

  /**
   * What this transaction's reads so far add to its ST1: entries and bytes (ClientCore.readFootprint;
   * `exact`: keys several range reads share counted once).
   */
  readFootprint(exact = false): { entries: number; bytes: number } {
    this.#check();
    const f = this.client.core.readFootprint(this.id, exact);
    if (f === null) throw new TransactionStateError('transaction is not active');
    return f;
  }

  /** Adds a read the caller already holds (a cached version) to the read set; validation checks it. */
  noteRead(key: Key, version: Timestamp, value: Uint8Array | null): void {
    this.#check();
    this.client.core.noteRead(this.id, key, version, value);
  }

  /** Moves the transaction to a fresh timestamp, later than any this client began so far (ClientCore.advance). */
  advance(): Timestamp {
    this.#check();
    const ts = this.client.core.advance(this.id);
    if (ts === undefined) throw new TransactionStateError('transaction is not active');
    return ts;
  }

  /** Reads and predicates under this key prefix need no validation (ClientCore.markPrivate). */
  markPrivate(prefix: Key): void {
    this.#check();
    this.client.core.markPrivate(this.id, prefix);
  }

  /** This transaction's timestamp T. */
  get timestamp(): Timestamp {
    return this.client.core.timestampOf(this.id)!;
  }

  /** Buffers a write of a raw key (null deletes it). */
  writeKey(key: Key, value: Uint8Array | null): void {
    this.#check();
    this.client.core.write(this.id, key, value);
  }

  /** Forgets a buffered write of a raw key, as if it had never been written. */
  unwriteKey(key: Key): void {
    this.#check();
    this.client.core.unwrite(this.id, key);
  }

  async getString(key: KeyLike): Promise<string | null> {
    const v = await this.get(key);
    return v === null ? null : Buffer.from(v).toString('utf8');
  }

  put(key: KeyLike, value: ValueLike): void {
    this.#check();
    this.client.core.write(this.id, toKey(key), toValue(value));
  }

  delete(key: KeyLike): void {
    this.#check();
    this.client.core.write(this.id, toKey(key), null);
  }

  async commit(): Promise<CommitResult> {
    this.#check();
    this.#finished = true;
    const r = await this.client.run((op) => this.client.core.commit(this.id, op));
    if (r.kind === 'commit') return r;
    throw failure(r);
  }

  abort(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.client.core.abort(this.id);
  }

  #check(): void {
    if (this.#finished) throw new TransactionStateError('transaction already finished');
  }
}
