/**
 * `npm run bench -- kv`: the foundation's key-value benchmark (issue 2). Closed-loop clients run
 * transactions of 2 point reads and 2 writes, keys uniform over `--keys` (100k), against a local
 * shard of n = 6 (f = 1) real replica processes (TCP by default), everything on this machine. Reports
 * committed and aborted counts, tx/s, latency percentiles, the fast-path rate, signatures and
 * verifications per committed transaction, and CPU microseconds per committed transaction summed
 * over every process (client and replicas; steadier than tx/s on a machine whose speed swings).
 * `--baseline postgres` runs the same transactions against a local PostgreSQL (SERIALIZABLE) through
 * the `pg` driver instead. Flags: --seconds 20 --warmup S --clients 64 --keys 100000 --preload --restart --json, and
 * --data DIR to run against a cluster already started with `pesto start --data DIR`, --base-port 7200
 * for the cluster it starts otherwise, whose wire --transport grpc|tcp and --tls or --no-tls choose (default:
 * the configuration's defaults; decision 0026). --replica-preference-ms N sets how long the client asks
 * the same replicas first (0: drawn per transaction; default ClientCoreOptions', decision 0043).
 * The warm-up defaults to 15 s when the benchmark starts its own cluster (fresh processes: their hot
 * functions are still being compiled and recompiled for the first tens of seconds at low load; at 4
 * clients a fresh cluster's first 15 s window cost 1.2-1.4x the CPU per transaction of later windows,
 * decision 0029), and to 3 s against a running cluster (--data) or PostgreSQL.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import pg from 'pg';
import { startLocalCluster, type LocalCluster } from '../cli/supervisor.ts';
import { loadLocalClient, replicaDataDir } from '../cli/local-cluster-config.ts';
import { PestoClient, type Session } from '../client/pesto-client.ts';
import { cryptoStats } from '../protocol/crypto/signed.ts';
import { transportStats } from '../net/index.ts';
import { clientKnobFlags, startedReplicaPids, wakeupTotals, type ClientKnobs } from './bench-cluster.ts';
import { startPostgres } from './postgres-server.ts';
import { hostProbe, parseFlags, percentile, round } from './stats.ts';
import { keyPairFromSeed, sign, verify } from '../protocol/crypto/ed25519.ts';
import type { TransportConfig } from '../protocol/config.ts';

interface KvOptions {
  readonly seconds: number;
  readonly warmup: number;
  readonly clients: number;
  readonly keys: number;
  /** Write every key once before the warm-up, as the PostgreSQL side's table is (`--preload`). */
  readonly preload: boolean;
  /** After the window, stop replica 0 and time its restart (`restartMs`, `restartLogMb`). */
  readonly restart: boolean;
  readonly json: boolean;
  /** First replica port of the cluster the benchmark starts (metrics on port + 1000). */
  readonly basePort: number;
  /** The wire and TLS of the cluster the benchmark starts. */
  readonly transport: Partial<TransportConfig>;
  /** Client options from flags (`clientKnobFlags`: `--replica-preference-ms N` is the one that matters here), else the client's defaults. */
  readonly knobs: ClientKnobs;
}

interface Window {
  committed: number;
  aborted: number;
  fast: number;
  latenciesMs: number[];
  measuring: boolean;
}

function valueOf(n: number): Buffer {
  const b = Buffer.alloc(100, 0x61);
  b.writeUInt32LE(n >>> 0, 0);
  return b;
}

function twoKeys(keys: number): [number, number] {
  const a = Math.floor(Math.random() * keys);
  let b = Math.floor(Math.random() * (keys - 1));
  if (b >= a) b++;
  return [a, b];
}

/**
 * Rows a preloading transaction writes: few, as ordinary transactions write them. A point read's reply
 * may carry its version's writer as proof, and an ABORT vote carries the conflicting writer: versions
 * written 2,000 to a transaction made the measured reads and conflicts cost more (694 tx/s against 927
 * without preloading, in the same hour; 20 to a transaction: 623-720).
 */
const PRELOAD_BATCH = 20;
const PRELOAD_LOADERS = 32;

/**
 * `--restart`: once the window is over, replica 0 is stopped (SIGTERM) and started again: `restartMs`
 * is the time until it is ready (the process starting, its log read and replayed), `restartLogMb` the
 * log it replayed.
 */
async function timedRestart(cluster: LocalCluster): Promise<Record<string, number>> {
  await cluster.kill(0, 0, 'SIGTERM');
  const log = join(replicaDataDir(cluster.dataDir, 0, 0), 'wal.log');
  // The file: its records and up to 256 KiB of preallocated zeros after them.
  const bytes = existsSync(log) ? statSync(log).size : 0;
  const t0 = performance.now();
  await cluster.restart(0, 0);
  return { restartMs: round(performance.now() - t0), restartLogMb: round(bytes / 2 ** 20, 1) };
}

/**
 * `--preload`: every key written once before the warm-up, by transactions of PRELOAD_BATCH keys,
 * PRELOAD_LOADERS at a time, so the measured transactions update existing rows, as on the PostgreSQL
 * side (whose table is filled first). Without it the first write to each key also creates it (its
 * chain, its place in the key order), and at 64 clients about half the writes of a 20 s window are
 * such first writes; with it the replicas hold the whole data set from the start (a larger heap,
 * larger log checkpoints). Off by default, so figures stay comparable with earlier sessions'.
 */
async function preload(session: Session, keys: number): Promise<void> {
  let next = 0;
  const loader = async (): Promise<void> => {
    while (next < keys) {
      const from = next;
      next = Math.min(keys, from + PRELOAD_BATCH);
      for (let attempt = 0; ; attempt++) {
        const tx = session.begin();
        for (let k = from; k < next; k++) tx.put(`k${k}`, valueOf(k));
        const r = await tx.commit();
        if (r.outcome === 'commit') break;
        if (attempt >= 5) throw new Error(`preloading keys ${from}-${next - 1} aborted ${attempt + 1} times`);
      }
    }
  };
  await Promise.all(Array.from({ length: PRELOAD_LOADERS }, loader));
}

/** Drives `clients` closed loops for warmup + seconds; `measure` brackets the window. */
async function closedLoop(opts: KvOptions, one: (w: Window) => Promise<void>, mark: (phase: 'start' | 'end') => Promise<void>): Promise<{ w: Window; elapsedS: number }> {
  const w: Window = { committed: 0, aborted: 0, fast: 0, latenciesMs: [], measuring: false };
  let running = true;
  const loops = Array.from({ length: opts.clients }, async () => {
    while (running) await one(w);
  });
  await new Promise((r) => setTimeout(r, opts.warmup * 1000));
  await mark('start');
  w.measuring = true;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, opts.seconds * 1000));
  w.measuring = false;
  const elapsedS = (performance.now() - t0) / 1000;
  await mark('end');
  running = false;
  await Promise.all(loops);
  return { w, elapsedS };
}

interface MetricsSnapshot {
  cpu: number;
  signatures: number;
  verifications: number;
  framesWritten: number;
  framesReceived: number;
  walSyncs: number;
  walCompactions: number;
  rssBytes: number;
  /** Seconds spent in garbage collection and collections run (prom-client's GC histogram, all kinds). */
  gcSeconds: number;
  gcCount: number;
  abstains: Record<string, number>;
}

/** Sum of the values of every sample line starting with `prefix` (a metric over all its labels). */
function sumOf(text: string, prefix: string): number {
  let sum = 0;
  for (const l of text.split('\n')) if (l.startsWith(prefix)) sum += Number(l.slice(l.lastIndexOf(' ') + 1));
  return sum;
}

async function scrape(address: string): Promise<MetricsSnapshot> {
  const text = await (await fetch(`http://${address}/metrics`)).text();
  const value = (name: string): number => {
    const line = text.split('\n').find((l) => l.startsWith(name + '{') || l.startsWith(name + ' '));
    return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
  };
  return {
    cpu: value('process_cpu_seconds_total'),
    signatures: value('pesto_signatures_total'),
    verifications: value('pesto_verifications_total'),
    framesWritten: value('pesto_transport_frames_written_total'),
    framesReceived: value('pesto_transport_frames_received_total'),
    walSyncs: value('pesto_wal_syncs_total'),
    walCompactions: value('pesto_wal_compactions_total'),
    rssBytes: value('process_resident_memory_bytes'),
    gcSeconds: sumOf(text, 'nodejs_gc_duration_seconds_sum{'),
    gcCount: sumOf(text, 'nodejs_gc_duration_seconds_count{'),
    abstains: Object.fromEntries(
      text
        .split('\n')
        .filter((l) => l.startsWith('pesto_replica_abstains_total{'))
        .map((l) => [/reason="([^"]*)"/.exec(l)?.[1] ?? '?', Number(l.slice(l.lastIndexOf(' ') + 1))]),
    ),
  };
}

function report(name: string, opts: KvOptions, w: Window, elapsedS: number, cpuS: number, sigs: number, verifs: number): Record<string, number | string> {
  const lat = [...w.latenciesMs].sort((a, b) => a - b);
  return {
    system: name,
    clients: opts.clients,
    seconds: round(elapsedS, 1),
    committed: w.committed,
    aborted: w.aborted,
    txPerSec: round(w.committed / elapsedS, 1),
    p50Ms: round(percentile(lat, 50)),
    p99Ms: round(percentile(lat, 99)),
    p999Ms: round(percentile(lat, 99.9)),
    maxMs: round(lat.length === 0 ? 0 : lat[lat.length - 1]!),
    fastPathRate: w.committed === 0 ? 0 : round(w.fast / w.committed, 4),
    signaturesPerTx: w.committed === 0 ? 0 : round(sigs / w.committed, 3),
    verificationsPerTx: w.committed === 0 ? 0 : round(verifs / w.committed, 3),
    cpuUsPerTx: w.committed === 0 ? 0 : round((cpuS * 1e6) / w.committed, 1),
  };
}

async function runPesto(opts: KvOptions, existingDataDir: string | undefined): Promise<Record<string, number | string>> {
  // Against a running cluster (`pesto start`) when given its data folder, else a fresh one of our own.
  const dataDir = existingDataDir ?? mkdtempSync(join(tmpdir(), 'pesto-bench-kv-'));
  const cluster = existingDataDir === undefined ? await startLocalCluster({ dataDir, basePort: opts.basePort, transport: opts.transport, readyTimeoutMs: 120_000 }) : null;
  try {
    const { config, clientId, keyPair } = await loadLocalClient(dataDir);
    const client = await PestoClient.connect({ config, clientId, keyPair, ...opts.knobs });
    const session = client.session();
    if (opts.preload) await preload(session, opts.keys);
    const metricsAddrs = config.shards.flatMap((s) => s.replicas.map((r) => `127.0.0.1:${Number(r.address.split(':')[1]) + 1000}`));
    // Replica processes we started (for their wakeups), by index; none when running against --data.
    const replicaPids = startedReplicaPids(cluster, config);
    let wake0 = { replicas: 0, client: 0, preempted: 0 };
    let wakeDelta = wake0;
    // The client's own garbage collection time (ms), counted from GC performance entries.
    let clientGcMs = 0;
    let clientGc0 = 0;
    let clientGcWindow = 0;
    const gcObserver = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) clientGcMs += e.duration;
    });
    gcObserver.observe({ entryTypes: ['gc'] });
    let before: MetricsSnapshot[] = [];
    let after: MetricsSnapshot[] = [];
    let clientCpu0 = process.cpuUsage();
    let clientCpu = 0;
    let crypto0 = { ...cryptoStats };
    let clientSigs = 0;
    let clientVerifs = 0;
    let frames0 = 0;
    let msgs0 = 0;
    let framesPerTx = 0;
    let msgsPerFrame = 0;
    // Client core counters over the window: retries and resends cost CPU everywhere.
    const counters = ['readRetries', 'readProofRequests', 'resends', 'slowCommits', 'slowByAbstain', 'slowByLate', 'slowAfterShortWait', 'slowAfterFloorWait'] as const;
    let late0: number[] = [];
    let lateVoters: number[] = [];
    // Latency of a committed transaction split into its reads and its commit (ST1 to the outcome).
    const readMs: number[] = [];
    const commitMs: number[] = [];
    let core0: Record<(typeof counters)[number], number> = { ...client.core.stats };
    const coreDelta: Record<string, number> = {};
    const { w, elapsedS } = await closedLoop(
      opts,
      async (win) => {
        const t0 = performance.now();
        const tx = session.begin();
        const [a, b] = twoKeys(opts.keys);
        await Promise.all([tx.get(`k${a}`), tx.get(`k${b}`)]);
        const t1 = performance.now();
        tx.put(`k${a}`, valueOf(a));
        tx.put(`k${b}`, valueOf(b));
        const r = await tx.commit();
        if (!win.measuring) return;
        if (r.outcome === 'commit') {
          win.committed++;
          if (r.path === 'fast') win.fast++;
          const t2 = performance.now();
          win.latenciesMs.push(t2 - t0);
          readMs.push(t1 - t0);
          commitMs.push(t2 - t1);
        } else win.aborted++;
      },
      async (phase) => {
        if (phase === 'start') {
          before = await Promise.all(metricsAddrs.map(scrape));
          clientCpu0 = process.cpuUsage();
          wake0 = wakeupTotals(replicaPids);
          clientGc0 = clientGcMs;
          crypto0 = { ...cryptoStats };
          frames0 = transportStats.framesWritten;
          msgs0 = transportStats.messagesSent;
          core0 = { ...client.core.stats };
          late0 = [...client.core.stats.lateVoters];
        } else {
          for (const c of counters) coreDelta[c] = client.core.stats[c] - core0[c];
          lateVoters = client.core.stats.lateVoters.map((v, i) => v - (late0[i] ?? 0));
          const wake1 = wakeupTotals(replicaPids);
          clientGcWindow = clientGcMs - clientGc0;
          wakeDelta = { replicas: wake1.replicas - wake0.replicas, client: wake1.client - wake0.client, preempted: wake1.preempted - wake0.preempted };
          const d = process.cpuUsage(clientCpu0);
          clientCpu = (d.user + d.system) / 1e6;
          clientSigs = cryptoStats.signatures - crypto0.signatures;
          clientVerifs = cryptoStats.verifications - crypto0.verifications;
          const frames = transportStats.framesWritten - frames0;
          framesPerTx = frames;
          msgsPerFrame = frames === 0 ? 0 : (transportStats.messagesSent - msgs0) / frames;
          after = await Promise.all(metricsAddrs.map(scrape));
        }
      },
    );
    let cpu = clientCpu;
    let sigs = clientSigs;
    let verifs = clientVerifs;
    let replicaFrames = 0;
    let walSyncs = 0;
    let walCompactions = 0;
    let gcSeconds = 0;
    let gcCount = 0;
    const abstains: Record<string, number> = {};
    after.forEach((a, i) => {
      const b = before[i]!;
      for (const [r, v] of Object.entries(a.abstains)) abstains[r] = (abstains[r] ?? 0) + v - (b.abstains[r] ?? 0);
      cpu += a.cpu - b.cpu;
      sigs += a.signatures - b.signatures;
      verifs += a.verifications - b.verifications;
      replicaFrames += a.framesWritten - b.framesWritten + (a.framesReceived - b.framesReceived);
      walSyncs += a.walSyncs - b.walSyncs;
      walCompactions += a.walCompactions - b.walCompactions;
      gcSeconds += a.gcSeconds - b.gcSeconds;
      gcCount += a.gcCount - b.gcCount;
    });
    const out = report('pesto', opts, w, elapsedS, cpu, sigs, verifs);
    out['clientCpuUsPerTx'] = w.committed === 0 ? 0 : round((clientCpu * 1e6) / w.committed, 1);
    out['clientWritesPerTx'] = w.committed === 0 ? 0 : round(framesPerTx / w.committed, 2);
    out['clientMessagesPerWrite'] = round(msgsPerFrame, 2);
    // Stream writes and reads of all replicas together, and their log syncs (group commits).
    out['replicaFramesPerTx'] = w.committed === 0 ? 0 : round(replicaFrames / w.committed, 2);
    out['walSyncsPerTx'] = w.committed === 0 ? 0 : round(walSyncs / w.committed, 2);
    // Log compactions completed in the window, all replicas together.
    out['walCompactions'] = walCompactions;
    // Garbage collection of all replicas together, per transaction (time and collections).
    out['replicaGcUsPerTx'] = w.committed === 0 ? 0 : round((gcSeconds * 1e6) / w.committed, 1);
    out['clientGcUsPerTx'] = w.committed === 0 ? 0 : round((clientGcWindow * 1000) / w.committed, 1);
    gcObserver.disconnect();
    out['replicaGcsPerTx'] = w.committed === 0 ? 0 : round(gcCount / w.committed, 3);
    // Event-loop wakeups per transaction (all replicas together, the client), and preemptions of all.
    if (replicaPids.length > 0 && w.committed > 0) {
      out['replicaWakeupsPerTx'] = round(wakeDelta.replicas / w.committed, 2);
      out['clientWakeupsPerTx'] = round(wakeDelta.client / w.committed, 2);
      out['preemptionsPerTx'] = round(wakeDelta.preempted / w.committed, 2);
    }
    // Memory at the end of the window: the largest replica's resident set, and the client's.
    out['replicaRssMbMax'] = round(Math.max(...after.map((a) => a.rssBytes)) / 2 ** 20, 1);
    out['clientRssMb'] = round(process.memoryUsage().rss / 2 ** 20, 1);
    out['readP50Ms'] = round(percentile(readMs.sort((x, y) => x - y), 50));
    out['commitP50Ms'] = round(percentile(commitMs.sort((x, y) => x - y), 50));
    // Which replica had not voted when a commit went slow (by index), and why replicas abstained.
    out['lateVoters'] = lateVoters.join(',');
    out['abstains'] = Object.entries(abstains).map(([r, v]) => `${r}:${v}`).join(',');
    for (const c of counters) out[`${c}PerTx`] = w.committed === 0 ? 0 : round((coreDelta[c] ?? 0) / w.committed, 3);
    await client.close();
    if (opts.restart && cluster !== null) Object.assign(out, await timedRestart(cluster));
    return out;
  } finally {
    if (cluster !== null) {
      await cluster.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

async function runPostgres(opts: KvOptions): Promise<Record<string, number | string>> {
  // Pesto keeps its state in memory (durability is not in yet), so PostgreSQL runs without waiting
  // for WAL flushes at commit, as the paper's baseline ran on tmpfs.
  const server = startPostgres(5499, { synchronous_commit: 'off' });
  try {
    const pool = new pg.Pool({ host: server.host, port: server.port, user: server.user, database: server.database, max: opts.clients });
    // Preloaded, so reads find rows and writes update them: without rows, SERIALIZABLE's predicate
    // locks on index gaps turn most concurrent upserts into serialization failures.
    await pool.query('CREATE TABLE kv (k text PRIMARY KEY, v bytea NOT NULL)');
    await pool.query(`INSERT INTO kv SELECT 'k' || g, decode(repeat('61', 100), 'hex') FROM generate_series(0, ${opts.keys - 1}) g`);
    await pool.query('VACUUM ANALYZE kv');
    let cpu0 = 0;
    let pgCpu0 = 0;
    let cpuS = 0;
    const { w, elapsedS } = await closedLoop(
      opts,
      async (win) => {
        const t0 = performance.now();
        const [a, b] = twoKeys(opts.keys);
        const c = await pool.connect();
        let ok = true;
        try {
          await c.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
          await c.query({ name: 'get', text: 'SELECT v FROM kv WHERE k = $1', values: [`k${a}`] });
          await c.query({ name: 'get', text: 'SELECT v FROM kv WHERE k = $1', values: [`k${b}`] });
          const put = 'UPDATE kv SET v = $2 WHERE k = $1';
          await c.query({ name: 'put', text: put, values: [`k${a}`, valueOf(a)] });
          await c.query({ name: 'put', text: put, values: [`k${b}`, valueOf(b)] });
          await c.query('COMMIT');
        } catch {
          ok = false;
          await c.query('ROLLBACK').catch(() => undefined);
        } finally {
          c.release();
        }
        if (!win.measuring) return;
        if (ok) {
          win.committed++;
          win.fast++;
          win.latenciesMs.push(performance.now() - t0);
        } else win.aborted++;
      },
      async (phase) => {
        const clientNow = process.cpuUsage();
        if (phase === 'start') {
          cpu0 = (clientNow.user + clientNow.system) / 1e6;
          pgCpu0 = server.cpuSeconds();
        } else {
          cpuS = (clientNow.user + clientNow.system) / 1e6 - cpu0 + (server.cpuSeconds() - pgCpu0);
        }
      },
    );
    await pool.end();
    return report('postgres', opts, w, elapsedS, cpuS, 0, 0);
  } finally {
    server.stop();
  }
}

const probeKeys = keyPairFromSeed(new Uint8Array(32).fill(7));
const probeMessage = new Uint8Array(32).fill(1);
const probeSignature = sign(probeMessage, probeKeys.secretKey);
const probe = (): number => hostProbe(() => verify(probeSignature, probeMessage, probeKeys.publicKey));

function transportFlags(wire: string | undefined, tls: boolean | undefined): Partial<TransportConfig> {
  if (wire !== undefined && wire !== 'grpc' && wire !== 'tcp') throw new Error(`--transport must be grpc or tcp, got ${wire}`);
  return { ...(wire === undefined ? {} : { wire }), ...(tls === undefined ? {} : { tls }) };
}

/** Warm-up of a cluster the benchmark starts itself (see the header). */
const FRESH_CLUSTER_WARMUP_S = 15;

export async function runKvBench(args: readonly string[]): Promise<void> {
  const flags = parseFlags(args);
  const opts: KvOptions = {
    seconds: Number(flags.get('seconds') ?? 20),
    warmup: Number(flags.get('warmup') ?? (flags.has('data') || flags.has('baseline') ? 3 : FRESH_CLUSTER_WARMUP_S)),
    clients: Number(flags.get('clients') ?? 64),
    keys: Number(flags.get('keys') ?? 100_000),
    preload: flags.has('preload'),
    restart: flags.has('restart'),
    json: flags.has('json'),
    basePort: Number(flags.get('base-port') ?? 7200),
    transport: transportFlags(flags.get('transport'), flags.has('tls') ? true : flags.has('no-tls') ? false : undefined),
    knobs: clientKnobFlags(flags),
  };
  const baseline = flags.get('baseline');
  const probeBefore = probe();
  const result = baseline === 'postgres' ? await runPostgres(opts) : await runPesto(opts, flags.get('data'));
  // Host speed before and after (single-thread verifies/s): compare runs only at similar probes.
  result['hostProbeBefore'] = probeBefore;
  result['hostProbeAfter'] = probe();
  if (opts.json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  process.stdout.write(`kv benchmark (${result['system']}): 2 point reads + 2 writes, ${opts.keys} keys, ${opts.clients} clients, ${result['seconds']} s\n`);
  for (const [k, v] of Object.entries(result)) if (k !== 'system') process.stdout.write(`  ${k.padEnd(20)} ${v}\n`);
}
