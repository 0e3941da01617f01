/**
 * `node --import tsx scripts/micro-kv.ts`: the kv benchmark's transaction (bench/kv.ts: 2 point reads
 * and 2 writes, keys uniform over 100k) run against six real `ReplicaServer`s and one real
 * `PestoClient`, all in this one process, over an in-memory transport: the real links (FramedLink
 * coalescing, Session framing checks, the ed25519 handshake), with each frame handed to the peer's
 * session in a later event-loop turn instead of through gRPC and a socket. Signatures,
 * certificates, MACs, the codec, validation and (optionally) the write-ahead log are all real.
 *
 * What it answers: how much of the CPU per committed transaction of a real cluster run is the cores
 * and shells themselves, and how much is the transport and the process boundaries (gRPC, sockets,
 * seven event loops). Everything runs on one core here, so CPU per transaction is
 * `process.cpuUsage()` over the window divided by the commits; the time spent handling received
 * frames is split by the role that received them (replicas, client).
 * (A script, not a bench case: benchmarks may not import replica internals, test/architecture.test.ts.)
 *
 * `--transport grpc|tcp` runs the same over the real transports on loopback (ports 9190-9195), still in
 * one process: the difference to `memory` is what the transport costs.
 *
 * Usage: --clients 64 --seconds 5 --warmup 2 --wal none|fdatasync|off --transport memory|grpc|tcp --runs 3 --json
 * --snapshots DIR (heap snapshots at the window's start and end)
 * --checkpoint-reps N (after the run, frame replica 0's whole log checkpoint N times, as a compaction does: its CPU, size, records;
 *   then replay it into a fresh replica as a restart does: `replayMs`)
 * Profile with `node --cpu-prof --cpu-prof-dir=DIR --import tsx scripts/micro-kv.ts ...`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GCProfiler, writeHeapSnapshot } from 'node:v8';
import { prepareLocalCluster, replicaDataDir } from '../cli/local-cluster-config.ts';
import { readKeyFile, keyPath } from '../cli/keys.ts';
import { PestoClient, TransactionTooOldError } from '../client/pesto-client.ts';
import { cryptoStats } from '../protocol/crypto/signed.ts';
import { handling, memoryTransport } from './memory-transport.ts';
import { grpcTransport, tcpTransport, transportStats } from '../net/index.ts';
import { ReplicaServer } from '../replica/shell/replica-server.ts';
import { Wal, type WalSync } from '../replica/shell/wal.ts';
import { FrameBuffer, readFrames } from '../replica/shell/wal-frames.ts';
import { decodedLogRecords } from '../protocol/log-record.ts';
import type { ReplicaIndex } from '../protocol/ids.ts';
import { frameLogRecord } from '../replica/shell/replica-server.ts';
import { hostProbe, median, parseFlags, percentile, round } from '../bench/stats.ts';
import { keyPairFromSeed, sign, verify, type KeyPair } from '../protocol/crypto/ed25519.ts';

const probeKeys = keyPairFromSeed(new Uint8Array(32).fill(7));
const probeMessage = new Uint8Array(32).fill(1);
const probeSignature = sign(probeMessage, probeKeys.secretKey);
/** Host speed (single-thread ed25519 verifications/s), as bench/kv.ts reports it. */
const probe = (): number => hostProbe(() => verify(probeSignature, probeMessage, probeKeys.publicKey));

function valueOf(n: number): Buffer {
  const b = Buffer.alloc(100, 0x61);
  b.writeUInt32LE(n >>> 0, 0);
  return b;
}

interface RunResult {
  readonly committed: number;
  readonly txPerSec: number;
  readonly cpuUsPerTx: number;
  readonly replicaHandlingUsPerTx: number;
  readonly clientHandlingUsPerTx: number;
  readonly otherUsPerTx: number;
  readonly fastPathRate: number;
  readonly p50Ms: number;
  readonly signaturesPerTx: number;
  readonly verificationsPerTx: number;
  readonly framesPerTx: number;
  readonly walSyncsPerTx: number;
  readonly hostProbe: number;
  /** Garbage collection over the window (gcSummary): pause time, bytes allocated and promoted, heap growth. */
  readonly gcUsPerTx: number;
  readonly scavengesPerKTx: number;
  readonly markCompactsPerKTx: number;
  readonly youngBytesPerTx: number;
  readonly promotedBytesPerTx: number;
  readonly heapGrowthBytesPerTx: number;
  /** With `--checkpoint-reps N`: one replica's full log checkpoint after the run, framed as a compaction frames it (median CPU of N). */
  readonly checkpointMs?: number;
  readonly checkpointMB?: number;
  readonly checkpointRecords?: number;
  /** ...and what replaying it costs a fresh replica (CPU ms): its frames read (copied, checksums checked), then its records decoded and the core restored. */
  readonly replayReadMs?: number;
  readonly replayMs?: number;
  /** The store's estimate of what the checkpoint writes (`Store.liveProofBytes`, decision 0062). */
  readonly liveProofMB?: number;
}

type GcStats = ReturnType<GCProfiler['stop']>;

function spaceUsed(h: GcStats['statistics'][number]['beforeGC'], space: string): number {
  return h.heapSpaceStatistics.find((s) => s.spaceName === space)?.spaceUsedSize ?? 0;
}

/**
 * Per committed transaction: GC pause time, scavenges and mark-compacts (per thousand), bytes
 * allocated in the young generation (what each scavenge found there less what the previous one left),
 * bytes promoted by scavenges (old space after less before), and the growth of the used heap.
 */
function gcSummary(stats: GcStats, committed: number): Pick<RunResult, 'gcUsPerTx' | 'scavengesPerKTx' | 'markCompactsPerKTx' | 'youngBytesPerTx' | 'promotedBytesPerTx' | 'heapGrowthBytesPerTx'> {
  let pauseUs = 0;
  let scavenges = 0;
  let markCompacts = 0;
  let young = 0;
  let promoted = 0;
  let youngLeft: number | undefined;
  for (const g of stats.statistics) {
    pauseUs += g.cost;
    const newBefore = spaceUsed(g.beforeGC, 'new_space');
    young += newBefore - (youngLeft ?? newBefore);
    youngLeft = spaceUsed(g.afterGC, 'new_space');
    if (g.gcType === 'Scavenge') {
      scavenges++;
      promoted += spaceUsed(g.afterGC, 'old_space') - spaceUsed(g.beforeGC, 'old_space');
    } else if (g.gcType === 'MarkSweepCompact') markCompacts++;
  }
  const first = stats.statistics[0];
  const last = stats.statistics[stats.statistics.length - 1];
  const growth = first === undefined || last === undefined ? 0 : last.afterGC.heapStatistics.usedHeapSize - first.afterGC.heapStatistics.usedHeapSize;
  const per = (x: number, k = 1): number => (committed === 0 ? 0 : round((x * k) / committed, 1));
  return {
    gcUsPerTx: per(pauseUs),
    scavengesPerKTx: per(scavenges, 1000),
    markCompactsPerKTx: per(markCompacts, 1000),
    youngBytesPerTx: per(young),
    promotedBytesPerTx: per(promoted),
    heapGrowthBytesPerTx: per(growth),
  };
}

interface Options {
  readonly clients: number;
  readonly seconds: number;
  readonly warmup: number;
  readonly wal: WalSync | 'off';
  readonly keys: number;
  /** memory (the in-process transport above), or the real grpc or tcp transport over loopback. */
  readonly transport: 'memory' | 'grpc' | 'tcp';
  /** A folder for heap snapshots at the window's start and end (to diff what the window retained). */
  readonly snapshots: string | undefined;
  readonly checkpointReps: number;
}

/**
 * CPU of writing `server`'s whole checkpoint into frames (what a log compaction does, less the disk),
 * and of replaying those frames into `fresh`'s core as a restarted replica does (replica/main.ts).
 */
function checkpointCost(server: ReplicaServer, fresh: ReplicaServer, reps: number): Pick<RunResult, 'checkpointMs' | 'checkpointMB' | 'checkpointRecords' | 'replayReadMs' | 'replayMs' | 'liveProofMB'> {
  const cpuMs = (fn: () => void): number => {
    const c0 = process.cpuUsage();
    fn();
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / 1000;
  };
  const frame = (keep: Buffer[] | null): number => {
    const out = new FrameBuffer();
    let records = 0;
    for (const r of server.core.checkpointRecords()) {
      if (r === null) continue;
      frameLogRecord(out, r);
      records++;
      if (out.length >= 256 << 10) {
        const slice = out.take();
        keep?.push(Buffer.from(slice));
      }
    }
    keep?.push(Buffer.from(out.take()));
    return records;
  };
  const times: number[] = [];
  for (let i = 0; i < reps; i++) times.push(cpuMs(() => frame(null)));
  const slices: Buffer[] = [];
  const records = frame(slices);
  const all = Buffer.concat(slices);
  let frames: Uint8Array[] = [];
  const readMs = cpuMs(() => {
    frames = readFrames(all).records;
  });
  const replayMs = cpuMs(() => {
    fresh.core.restore(decodedLogRecords(frames, 'the checkpoint'));
  });
  return { checkpointMs: round(median(times), 1), checkpointMB: round(all.length / (1 << 20), 1), checkpointRecords: records, replayReadMs: round(readMs, 1), replayMs: round(replayMs, 1), liveProofMB: round(server.core.store.liveProofBytes / (1 << 20), 1) };
}

async function runOnce(opts: Options): Promise<RunResult> {
  const probeBefore = probe();
  const dataDir = mkdtempSync(join(tmpdir(), 'pesto-micro-kv-'));
  const transport = opts.transport === 'memory' ? memoryTransport() : opts.transport === 'grpc' ? grpcTransport : tcpTransport;
  const servers: ReplicaServer[] = [];
  try {
    const { config } = await prepareLocalCluster({ dataDir, basePort: 9190 });
    const keyPairs: KeyPair[] = [];
    // A replica of this cluster (not started unless the caller starts it).
    const replicaServer = (index: number, port: number, keyPair = keyPairs[index]!, wal?: Wal): ReplicaServer =>
      new ReplicaServer({ config, shard: 0, index: index as ReplicaIndex, keyPair, port, transport, ...(wal === undefined ? {} : { wal }) });
    for (const r of config.shards[0]!.replicas) {
      const keyPair = await readKeyFile(keyPath(dataDir, { kind: 'replica', shard: 0, index: r.index }));
      keyPairs.push(keyPair);
      let wal: Wal | undefined;
      if (opts.wal !== 'off') {
        const dir = replicaDataDir(dataDir, 0, r.index);
        await import('node:fs/promises').then((fs) => fs.mkdir(dir, { recursive: true }));
        wal = Wal.open(join(dir, 'wal.log'), opts.wal).wal;
      }
      const server = replicaServer(r.index, Number(r.address.split(':')[1]), keyPair, wal);
      await server.start();
      servers.push(server);
    }
    const clientId = config.clients[0]!.id;
    const keyPair = await readKeyFile(keyPath(dataDir, { kind: 'client', id: clientId }));
    const client = await PestoClient.connect({ config, clientId, keyPair, transport });
    const session = client.session();
    let running = true;
    let measuring = false;
    let committed = 0;
    let fast = 0;
    const lat: number[] = [];
    const loops = Array.from({ length: opts.clients }, async () => {
      while (running) {
        const t0 = performance.now();
        const tx = session.begin();
        const a = Math.floor(Math.random() * opts.keys);
        let b = Math.floor(Math.random() * (opts.keys - 1));
        if (b >= a) b++;
        try {
          await Promise.all([tx.get(`k${a}`), tx.get(`k${b}`)]);
        } catch (e: unknown) {
          // A heap snapshot stops the process for seconds: its transactions fall behind the window.
          if (e instanceof TransactionTooOldError) continue;
          throw e;
        }
        tx.put(`k${a}`, valueOf(a));
        tx.put(`k${b}`, valueOf(b));
        const r = await tx.commit();
        if (measuring && r.outcome === 'commit') {
          committed++;
          if (r.path === 'fast') fast++;
          lat.push(performance.now() - t0);
        }
      }
    });
    await new Promise((r) => setTimeout(r, opts.warmup * 1000));
    const cpu0 = process.cpuUsage();
    const crypto0 = { ...cryptoStats };
    const frames0 = transportStats.framesWritten;
    const syncs0 = servers.reduce((s, x) => s + x.walSyncs, 0);
    handling.replicaMs = 0;
    handling.clientMs = 0;
    if (opts.snapshots !== undefined) writeHeapSnapshot(join(opts.snapshots, `start-${process.pid}.heapsnapshot`));
    const gcProfiler = new GCProfiler();
    gcProfiler.start();
    measuring = true;
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, opts.seconds * 1000));
    measuring = false;
    const gcStats = gcProfiler.stop();
    const elapsedS = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    if (opts.snapshots !== undefined) writeHeapSnapshot(join(opts.snapshots, `end-${process.pid}.heapsnapshot`));
    const cpuUs = cpu.user + cpu.system;
    const { replicaMs, clientMs } = handling;
    const frames = transportStats.framesWritten - frames0;
    const syncs = servers.reduce((s, x) => s + x.walSyncs, 0) - syncs0;
    running = false;
    await Promise.all(loops);
    await client.close();
    const checkpoint = opts.checkpointReps > 0 ? checkpointCost(servers[0]!, replicaServer(0, 0), opts.checkpointReps) : {};
    const per = (x: number): number => (committed === 0 ? 0 : round(x / committed, 2));
    lat.sort((x, y) => x - y);
    return {
      committed,
      txPerSec: round(committed / elapsedS, 1),
      cpuUsPerTx: per(cpuUs),
      replicaHandlingUsPerTx: per(replicaMs * 1000),
      clientHandlingUsPerTx: per(clientMs * 1000),
      otherUsPerTx: per(cpuUs - (replicaMs + clientMs) * 1000),
      fastPathRate: committed === 0 ? 0 : round(fast / committed, 4),
      p50Ms: round(percentile(lat, 50)),
      signaturesPerTx: per(cryptoStats.signatures - crypto0.signatures),
      verificationsPerTx: per(cryptoStats.verifications - crypto0.verifications),
      framesPerTx: per(frames),
      walSyncsPerTx: per(syncs),
      hostProbe: Math.round((probeBefore + probe()) / 2),
      ...gcSummary(gcStats, committed),
      ...checkpoint,
    };
  } finally {
    for (const s of servers) await s.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(args: readonly string[]): Promise<void> {
  const flags = parseFlags(args);
  const wal = (flags.get('wal') ?? 'none') as WalSync | 'off';
  if (wal !== 'none' && wal !== 'fdatasync' && wal !== 'off') throw new Error(`--wal must be none, fdatasync or off, got ${wal}`);
  const transport = flags.get('transport') ?? 'memory';
  if (transport !== 'memory' && transport !== 'grpc' && transport !== 'tcp') throw new Error(`--transport must be memory, grpc or tcp, got ${transport}`);
  const opts: Options = {
    transport,
    clients: Number(flags.get('clients') ?? 64),
    seconds: Number(flags.get('seconds') ?? 5),
    warmup: Number(flags.get('warmup') ?? 2),
    keys: Number(flags.get('keys') ?? 100_000),
    wal,
    snapshots: flags.get('snapshots'),
    checkpointReps: Number(flags.get('checkpoint-reps') ?? 0),
  };
  const runs = Number(flags.get('runs') ?? 3);
  const results: RunResult[] = [];
  for (let i = 0; i < runs; i++) {
    const r = await runOnce(opts);
    results.push(r);
    if (flags.has('json')) process.stdout.write(`${JSON.stringify({ run: i, ...opts, ...r })}\n`);
    else process.stdout.write(`run ${i}: ${JSON.stringify(r)}\n`);
  }
  const med = (k: keyof RunResult): number => median(results.map((r) => r[k] ?? 0));
  const summary = Object.fromEntries((Object.keys(results[0]!) as (keyof RunResult)[]).map((k) => [k, med(k)]));
  process.stdout.write(`${JSON.stringify({ median: true, clients: opts.clients, wal, transport, ...summary })}\n`);
}

await main(process.argv.slice(2));
