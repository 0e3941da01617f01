/**
 * The replica's production shell (DESIGN §2): owns the transport server, the signer and verifier,
 * and feeds the pure core. Every incoming message is decoded and checked at this boundary
 * (structure and sizes by the codec, certificates and justifications by the verifier) before the
 * core sees it; what fails is counted by reason and dropped, never thrown.
 */
import { CertificateVerifier } from '../../protocol/certificate.ts';
import { decodeMessage, EncodeMemo, type CodecLimits } from '../../protocol/codec.ts';
import type { ClusterConfig } from '../../protocol/config.ts';
import { codecLimitsOf, linkLimitsOf, publicKeyOf, splitAddress } from '../../protocol/config.ts';
import { PairwiseMacs } from '../../protocol/crypto/mac.ts';
import { VerifiedRootCache } from '../../protocol/crypto/signed.ts';
import type { KeyPair } from '../../protocol/crypto/ed25519.ts';
import { replicaIndex, shardId, type ShardId } from '../../protocol/ids.ts';
import type { Message } from '../../protocol/messages.ts';
import { slabCopy } from '../../protocol/pooled.ts';
import { shardOwns } from '../../protocol/sharding.ts';
import { clusterTransport, type DialedLink, type Link, type Transport, type TransportServer } from '../../net/index.ts';
import type { Engine } from '../../sql/engine.ts';
import type { ApplyFault } from '../core/range-reads.ts';
import { encodeLogRecord, type LogRecord } from '../../protocol/log-record.ts';
import { checkAtReplica } from '../core/boundary.ts';
import { ReplicaCore, STORAGE_GC_SLICE_KEYS, type PeerHandle, type SignRef } from '../core/replica-core.ts';
import { BatchSigner } from './batch-signer.ts';
import { FrameBuffer } from './wal-frames.ts';
import type { Wal } from './wal.ts';

export interface ReplicaServerOptions {
  readonly config: ClusterConfig;
  readonly shard: number;
  readonly index: number;
  readonly keyPair: KeyPair;
  readonly host?: string;
  readonly port: number;
  /** Default: what the configuration says (net/cluster-transport.ts). */
  readonly transport?: Transport;
  /** The replica's log; without one, nothing survives a restart (tests, measurements). */
  readonly wal?: Wal;
  /** Compact the log only once it has grown past this many bytes (default 64 MiB)... */
  readonly walCompactBytes?: number;
  /**
   * ...and at least this share of it is garbage (default 0.5; 0: on size alone), see `compactionDue`.
   */
  readonly walCompactGarbage?: number;
  /** The SQL engine range reads parse with (`await Engine.create()`); without one queries get 0A000. */
  readonly engine?: Engine;
  /** How long a sync-round query waits for transactions fetched from other replicas. */
  readonly fetchTimeoutMs?: number;
  /** Fault injection (PESTO_FAULT_APPLY): withhold committed writes from range reads. */
  readonly applyFault?: ApplyFault;
}

const DEFAULT_WAL_COMPACT_BYTES = 64 << 20;
const DEFAULT_WAL_COMPACT_GARBAGE = 0.5;
/** A log this many times its compaction floor is compacted whatever the garbage estimate says. */
const COMPACTION_CAP = 4;

/**
 * Whether to compact a log of `logBytes` (decision 0062): not below `floorBytes` (the configured
 * minimum, and twice what the last compaction left), then once at least `garbageShare` of it is
 * garbage, that is once the state a checkpoint would write (`liveBytes`: the commit proofs the store
 * names, `Store.liveProofBytes`, which is most of it) is at most the rest; and at `COMPACTION_CAP`
 * times the floor in any case, so a log whose garbage the estimate misses still gets compacted. A
 * compaction rewrites the live state: at 64 MiB after a fresh start, when nearly every record is
 * still live, it cost the replicas CPU and reclaimed a tenth of the file.
 */
export function compactionDue(logBytes: number, floorBytes: number, liveBytes: number, garbageShare: number): boolean {
  if (logBytes <= floorBytes) return false;
  return liveBytes <= logBytes * (1 - garbageShare) || logBytes >= COMPACTION_CAP * floorBytes;
}

/** Replies that may leave before the log is durable (#drain). */
const answersRead = (m: Message): boolean => m.kind === 'readReply' || m.kind === 'queryReply';
const LAZY_SYNC_MS = 20;
/** First byte of an envelope whose body is a ReadRequest (pesto.proto: field 1, length-delimited). */
const READ_REQUEST_TAG = (1 << 3) | 2;
/** A compaction slice: about this many bytes of checkpoint records... */
const COMPACTION_SLICE_BYTES = 256 << 10;
/** ...or this many of the checkpoint's pause points (log-replay.ts: 1,024 keys or records each). */
const COMPACTION_SLICE_PAUSES = 2;

export class ReplicaServer {
  readonly core: ReplicaCore;
  readonly verifier: CertificateVerifier;
  readonly signer: BatchSigner<SignRef>;
  readonly macs: PairwiseMacs;
  readonly rejected: Record<string, number> = {};
  readonly #links = new Map<PeerHandle, Link>();
  /** Links this replica dialed to the other replicas of its shard, by index (for `sendReplica`). */
  readonly #replicaLinks = new Map<number, { readonly link: DialedLink; readonly handle: PeerHandle }>();
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #limits: CodecLimits;
  #nextHandle = 1;
  readonly #wal: Wal | null;
  /**
   * Sends waiting for the log, in order: log position they need durable, link, bytes, ... Invariant:
   * positions are non-decreasing, so releasing from the head while the log is durable far enough keeps
   * every link's messages in order.
   */
  #held: (number | Link | Uint8Array)[] = [];
  /** Index in `#held` of the first entry not yet released. */
  #heldFrom = 0;
  #endScheduled = false;
  /** A group-commit sync (votes, decisions) is in flight; the next waits for it. */
  #syncing = false;
  /** A periodic sync of outcomes alone is in flight (it holds nothing back). */
  #lazySyncing = false;
  #lazyTimer: NodeJS.Timeout | null = null;
  /** Log size below which it is not compacted (the configured minimum, at least twice what the last compaction left). */
  #compactBytes: number;
  #server: TransportServer | null = null;
  readonly #transport: Transport;
  /** Log syncs started (group commits), for metrics. */
  walSyncs = 0;
  #tick: NodeJS.Timeout | null = null;

  constructor(readonly opts: ReplicaServerOptions) {
    const { config } = opts;
    const shard: ShardId = shardId(opts.shard);
    const shardCount = config.shards.length;
    this.core = new ReplicaCore(
      {
        shard,
        index: replicaIndex(opts.index),
        f: config.f,
        shardCount,
        owns: shardCount === 1 ? () => true : (key) => shardOwns(key, shard, shardCount),
        clockSkewMaxMicros: config.timeouts.clockSkewMaxMs * 1000,
        gcWindowMicros: config.limits.historyWindowMs * 1000,
        grace: config.grace,
        limits: config.limits,
        ...(opts.engine === undefined ? {} : { engine: opts.engine }),
        ...(opts.fetchTimeoutMs === undefined ? {} : { fetchTimeoutMs: opts.fetchTimeoutMs }),
        ...(opts.applyFault === undefined ? {} : { applyFault: opts.applyFault }),
      },
      { nowMicros: () => Date.now() * 1000 },
    );
    this.#limits = codecLimitsOf(config);
    const cache = new VerifiedRootCache(1 << 16);
    // MAC keys with the other replicas of this shard: certificates of its votes need no ed25519 here.
    const shardKeys = config.shards[opts.shard]!.replicas.map((r) => r.publicKey);
    this.macs = new PairwiseMacs(opts.shard, opts.index, opts.keyPair.secretKey, shardKeys);
    this.verifier = new CertificateVerifier({
      f: config.f,
      shardCount,
      publicKey: (s, i) => publicKeyOf(config, { kind: 'replica', shard: s, index: i }),
      cache,
      macs: this.macs,
    });
    this.signer = new BatchSigner<SignRef>(
      opts.keyPair.secretKey,
      opts.keyPair.publicKey,
      opts.index,
      config.batching.signBatchMax,
      cache,
      (ref, proof) => {
        this.core.onSigned(ref, proof);
        this.#drain();
      },
      { keys: this.macs, wants: (ref) => ref.kind === 'vote' },
      false,
    );
    this.#wal = opts.wal ?? null;
    this.#transport = opts.transport ?? clusterTransport(config, { kind: 'replica', shard: opts.shard, index: opts.index }, opts.keyPair.secretKey);
    this.#compactBytes = opts.walCompactBytes ?? DEFAULT_WAL_COMPACT_BYTES;
  }

  async start(): Promise<number> {
    const { config } = this.opts;
    const transport = this.#transport;
    this.#server = await transport.listen({
      host: this.opts.host ?? '127.0.0.1',
      port: this.opts.port,
      identity: { kind: 'replica', shard: this.opts.shard, index: this.opts.index },
      secretKey: this.opts.keyPair.secretKey,
      publicKeyOf: (peer) => publicKeyOf(config, peer),
      limits: linkLimitsOf(config.limits),
      // #onBytes keeps nothing of the bytes it is handed (it decodes from a copy or keeps no view).
      transientMessages: true,
      onLink: (link) => this.#accept(link),
    });
    this.#tick = setInterval(() => {
      this.core.onTick();
      this.#storageGcSlices();
    }, 1000);
    this.#tick.unref();
    return this.#server.port;
  }

  /**
   * Storage collection (storage-gc.ts) beyond the tick's first slice: one slice per event-loop turn, so
   * messages keep being served in between; once storages were dropped the log is compacted, so their
   * rows leave the disk and a restart does not bring them back.
   */
  #storageGcSlices(): void {
    const gc = this.core.storageGc;
    if (this.#stopped) return;
    if (gc.pending) {
      this.#gcImmediate ??= setImmediate(() => {
        this.#gcImmediate = null;
        gc.step(STORAGE_GC_SLICE_KEYS, this.core.env.nowMicros());
        this.#storageGcSlices();
      });
      return;
    }
    if (this.#wal !== null && !this.#wal.compacting && gc.takeCompactionWanted()) this.#compact(this.#wal);
  }

  #gcImmediate: NodeJS.Immediate | null = null;
  #stopped = false;

  /**
   * Compacts the log: the records that recreate this replica's state (log-replay.ts checkpointRecords)
   * go to a new file in slices of about `COMPACTION_SLICE_BYTES`, one slice per event-loop turn, written
   * on the thread pool while messages are served in between; the log's records of the meantime follow
   * them, and the new file replaces the log (wal.ts). Rewriting the whole state at once on the event
   * loop stalled all six replicas for 10-15 s every few minutes under sustained writes (decision 0024).
   */
  #compact(wal: Wal): void {
    // What storage collection dropped so far is not in the checkpoint: off the disk once this completes.
    this.core.storageGc.compacted();
    wal.startCompaction();
    const records = this.core.checkpointRecords();
    // One framing buffer for all slices (a slice is written before the next is framed), records
    // encoded through the log's scratch: no fresh memory per record or slice (decision 0039).
    const out = new FrameBuffer();
    const slice = (): void => {
      if (this.#stopped) return;
      let pauses = 0;
      let done = false;
      while (out.length < COMPACTION_SLICE_BYTES && pauses < COMPACTION_SLICE_PAUSES) {
        const next = records.next();
        if (next.done === true) {
          done = true;
          break;
        }
        if (next.value === null) {
          pauses++;
          continue;
        }
        frameLogRecord(out, next.value);
      }
      const then = done ? finish : (): void => void setImmediate(slice);
      if (out.length > 0) wal.compactionWrite(out.take(), then);
      else then();
    };
    const finish = (): void => {
      if (this.#stopped) return;
      wal.finishCompaction(() => {
        this.#compactBytes = Math.max(this.opts.walCompactBytes ?? DEFAULT_WAL_COMPACT_BYTES, 2 * wal.size);
        this.compactionsDone++;
      });
    };
    slice();
  }

  /** Log compactions completed, for metrics and tests. */
  compactionsDone = 0;

  /** Turns the apply fault on or off (replica/main.ts on SIGUSR2); off shows every withheld write. */
  setApplyFault(fault: ApplyFault | null): void {
    this.core.range.setApplyFault(fault);
    this.#drain();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#gcImmediate !== null) clearImmediate(this.#gcImmediate);
    if (this.#tick !== null) clearInterval(this.#tick);
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    for (const { link } of this.#replicaLinks.values()) link.close();
    this.#replicaLinks.clear();
    if (this.#lazyTimer !== null) clearTimeout(this.#lazyTimer);
    this.#wal?.close();
    await this.#server?.close();
  }

  #accept(link: Link): void {
    const handle = this.#nextHandle++;
    this.#links.set(handle, link);
    const replica = this.#shardReplicaIndex(link.peer);
    link.onMessage((bytes) => this.#onBytes(handle, bytes, replica));
    link.onClose(() => this.#links.delete(handle));
  }

  /** The index of an authenticated peer that is another replica of this shard, else undefined. */
  #shardReplicaIndex(peer: Link['peer']): number | undefined {
    return peer.kind === 'replica' && peer.shard === this.opts.shard && peer.index !== this.opts.index ? peer.index : undefined;
  }

  /** The link to replica `index` of this shard, dialed on first use (it redials by itself). */
  #replicaLink(index: number): Link | undefined {
    const known = this.#replicaLinks.get(index);
    if (known !== undefined) return known.link;
    const { config } = this.opts;
    const r = config.shards[this.opts.shard]?.replicas[index];
    const addr = r === undefined ? undefined : splitAddress(r.address);
    if (addr === undefined || index === this.opts.index) return undefined;
    const transport = this.#transport;
    const link = transport.dial({
      host: addr.host,
      port: addr.port,
      peer: { kind: 'replica', shard: this.opts.shard, index },
      identity: { kind: 'replica', shard: this.opts.shard, index: this.opts.index },
      secretKey: this.opts.keyPair.secretKey,
      publicKeyOf: (peer) => publicKeyOf(config, peer),
      limits: linkLimitsOf(config.limits),
      transientMessages: true,
    });
    const handle = this.#nextHandle++;
    this.#links.set(handle, link);
    this.#replicaLinks.set(index, { link, handle });
    link.onMessage((bytes) => this.#onBytes(handle, bytes, index));
    return link;
  }

  #onBytes(handle: PeerHandle, bytes: Uint8Array, replica: number | undefined): void {
    // Decoded messages are views into their bytes, and the core keeps transactions for a while: decode
    // from a private copy so what it keeps does not pin the whole received frame. The copy is carved
    // from a slab shared with its neighbours (pooled.ts slabCopy, decisions 0018 and 0045: an
    // ArrayBuffer per message, or per three writebacks in Buffer's pool, cost microseconds each). A
    // point read request (its envelope starts with field 1's tag) leaves nothing behind in the core
    // (its key is read as a string): decoded in place. The bytes are the transport's to reuse once this
    // returns (transientMessages), so an envelope that starts like a read but decodes as anything else
    // (a crafted one: the generic decoder lets a later body field win) is decoded again from a copy.
    const inPlace = bytes[0] === READ_REQUEST_TAG;
    let decoded = decodeMessage(inPlace ? bytes : slabCopy(bytes), this.#limits);
    if (inPlace && decoded.ok && decoded.value.kind !== 'read') decoded = decodeMessage(slabCopy(bytes), this.#limits);
    if (!decoded.ok) return this.#reject(`decode-${decoded.reason}`);
    const msg = decoded.value;
    // Only the other replicas of this shard fetch and supply transactions (PROTOCOL §4.2 step 5).
    if ((msg.kind === 'fetch' || msg.kind === 'fetchReply') && replica === undefined) return this.#reject('fetch-not-from-replica');
    const check = checkAtReplica(msg, this.verifier, (k) => this.core.knownTxn(k));
    if (check !== null) return this.#reject(check);
    this.core.handle(handle, msg, replica);
    this.#drain();
  }


  /**
   * Executes the core's effects. Log records are appended; once one is pending, later sends of this
   * turn wait in `#held` until the end of the turn, when the log is flushed (one write and one
   * fdatasync for the whole turn: group commit), then votes are signed, then the held sends leave.
   */
  #drain(): void {
    const effects = this.core.takeEffects();
    // A message sent to several peers is encoded once (EncodeMemo).
    const memo = this.#memo;
    for (const e of effects) {
      switch (e.kind) {
        case 'persist': {
          // Votes and decisions are durable before any later effect leaves; an applied outcome is
          // not urgent (a peer or client can deliver its certificate again) and joins the next sync.
          const urgent = e.record.kind !== 'writeback';
          // Encoded in place into the log's group buffer (decision 0062).
          if (this.#wal !== null) {
            encodeLogRecord(e.record, this.#wal);
            this.#wal.seal(urgent);
          }
          if (urgent) this.#scheduleEndOfTurn();
          else this.#scheduleLazySync();
          break;
        }
        case 'sign':
          this.signer.add(e.leaf, e.ref);
          this.#scheduleEndOfTurn();
          break;
        case 'timer': {
          const t = setTimeout(() => {
            this.#timers.delete(t);
            this.core.onTimer(e.id);
            this.#drain();
          }, e.afterMs);
          t.unref();
          this.#timers.add(t);
          break;
        }
        case 'send':
        case 'sendReplica': {
          const link = e.kind === 'send' ? this.#links.get(e.to) : this.#replicaLink(e.index);
          if (link === undefined) break;
          const bytes = memo.encode(e.msg);
          // Nothing leaves before the votes and decisions logged so far are durable, except read and query
          // replies: they carry no vote and depend on nothing logged (a prepared version they show is a
          // dependency the reader's transaction waits on; a committed one is certified), and a replica that
          // crashes before its vote is durable may validate the transaction again. Held, a 10-row scan
          // answered in 0.8 ms of CPU took ~160 ms on a loaded machine behind the previous writeback's sync.
          const wal = this.#wal;
          const need = wal === null ? 0 : wal.urgentEnd;
          if (!answersRead(e.msg) && wal !== null && (need > wal.durable || this.#held.length > this.#heldFrom)) this.#held.push(need, link, bytes);
          else link.send(bytes);
          break;
        }
      }
    }
    memo.reset();
  }

  readonly #memo = new EncodeMemo();

  #scheduleEndOfTurn(): void {
    if (this.#endScheduled) return;
    this.#endScheduled = true;
    setImmediate(this.#endOfTurn);
  }

  /**
   * End of a turn: the log records of this turn go to disk in one write and one fdatasync for all of
   * them (group commit; one sync at a time, what comes meanwhile goes with the next), and the votes
   * and decisions asked for are signed at once, while the sync runs on the thread pool: their
   * messages wait in `#held` until the records they depend on are durable.
   */
  readonly #endOfTurn = (): void => {
    this.#endScheduled = false;
    const wal = this.#wal;
    if (wal !== null && wal.urgent && !this.#syncing) {
      this.#syncing = true;
      this.walSyncs++;
      wal.flushAsync(this.#synced);
    }
    if (this.signer.pending > 0) this.signer.sign(this.signer.take());
  };

  readonly #synced = (): void => {
    this.#syncing = false;
    const wal = this.#wal!;
    this.#maybeCompact(wal);
    this.#releaseHeld();
    if (wal.urgent) this.#scheduleEndOfTurn();
    else if (wal.pending) this.#scheduleLazySync();
  };

  /**
   * Compaction, after a sync: when enough of the log is garbage (compactionDue), and once collected
   * storages are gone (storage-gc.ts), so their rows leave the disk.
   */
  #maybeCompact(wal: Wal): void {
    if (this.#stopped || wal.compacting) return;
    if (this.core.storageGc.takeCompactionWanted() || compactionDue(wal.size, this.#compactBytes, this.core.store.liveProofBytes, this.opts.walCompactGarbage ?? DEFAULT_WAL_COMPACT_GARBAGE)) this.#compact(wal);
  }

  /** Outcomes alone are synced at most every `LAZY_SYNC_MS` (when no urgent sync took them along). */
  #scheduleLazySync(): void {
    if (this.#lazyTimer !== null) return;
    this.#lazyTimer = setTimeout(() => {
      this.#lazyTimer = null;
      const wal = this.#wal;
      if (wal === null || !wal.pending || this.#lazySyncing) return;
      // A group commit in flight: outcomes appended since go with the next one or the next period.
      if (this.#syncing) return this.#scheduleLazySync();
      this.#lazySyncing = true;
      this.walSyncs++;
      wal.flushAsync(() => {
        this.#lazySyncing = false;
        // A replica that only applies outcomes (it votes on nothing) compacts too.
        this.#maybeCompact(wal);
        // It wrote (and made durable) whatever was pending, urgent records of this turn included.
        this.#releaseHeld();
        if (wal.urgent) this.#scheduleEndOfTurn();
      });
    }, LAZY_SYNC_MS);
    this.#lazyTimer.unref();
  }

  /** Sends the held messages whose log records are now durable, in order. */
  #releaseHeld(): void {
    const held = this.#held;
    const durable = this.#wal?.durable ?? Infinity;
    let i = this.#heldFrom;
    while (i < held.length && (held[i] as number) <= durable) {
      (held[i + 1] as Link).send(held[i + 2] as Uint8Array);
      i += 3;
    }
    if (i === held.length) {
      held.length = 0;
      this.#heldFrom = 0;
    } else if (i > 3 * 1024 && 2 * i > held.length) {
      // Under steady load the queue may never empty: drop the released head now and then.
      held.splice(0, i);
      this.#heldFrom = 0;
    } else this.#heldFrom = i;
  }

  #reject(reason: string): void {
    this.rejected[reason] = (this.rejected[reason] ?? 0) + 1;
  }
}

/** Frames one record of a checkpoint into `out` (a log compaction's slice), encoded in place. */
export function frameLogRecord(out: FrameBuffer, r: LogRecord): void {
  encodeLogRecord(r, out);
  out.seal();
}
