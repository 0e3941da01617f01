/**
 * `node --import tsx scripts/micro-ycsb.ts`: the ycsb benchmark's ideal and fail-eager modes (bench/ycsb.ts:
 * 50% range reads of 10 rows, 50% read-modify-writes of 10 rows, uniform) against six real
 * `ReplicaServer`s and real `PestoClient`s, all in this one process, over the in-memory transport of
 * micro-kv.ts (or `--transport grpc|tcp` on loopback, ports 9590-9595). Everything runs on one core, so
 * CPU per committed transaction is `process.cpuUsage()` over the window divided by the commits; the
 * modes alternate in `--pairs` pairs (order swapped every pair) on the same loaded cluster, each with
 * its own client (fail-eager: `forceSyncQueries`), so a drift of the host's speed hits both alike.
 *
 * What it answers (decision 0025): what a forced sync round costs in CPU per transaction, split into
 * the handling of frames received by replicas and by clients, without process boundaries or the noise
 * of a shared host's scheduler; and how many sync rounds the replicas answered from their eager
 * execution (`syncReusesPerTx`) rather than executing (`syncExecutionsPerTx`, rounds received).
 * (A script, not a bench case: benchmarks may not import replica internals, test/architecture.test.ts.)
 *
 * Usage: --tables 4 --keys 5000 --clients 16 --seconds 5 --warmup 2 --pairs 3 --transport memory|grpc|tcp --json
 * --history-window-ms N (the cluster's limits.historyWindowMs: how long replicas keep decided transactions)
 * `--windows` prints each measured window on the CPU profiler's clock (`window <mode> <fromUs> <toUs>
 * <commits>` on stderr): profile with `node --cpu-prof --cpu-prof-dir=DIR --import tsx scripts/micro-ycsb.ts
 * --windows` and split the samples by mode.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareLocalCluster } from '../cli/local-cluster-config.ts';
import { readKeyFile, keyPath } from '../cli/keys.ts';
import { PestoClient } from '../client/pesto-client.ts';
import { SqlClient } from '../client/sql/sql-session.ts';
import { Engine } from '../sql/engine.ts';
import { grpcTransport, tcpTransport } from '../net/index.ts';
import type { Transport } from '../net/transport.ts';
import { ReplicaServer } from '../replica/shell/replica-server.ts';
import { median, parseFlags, round } from '../bench/stats.ts';
import { keyGenerator, load, newWindow, oneTxn, prepareAll, type YcsbOptions } from '../bench/ycsb.ts';
import { handling, memoryTransport } from './memory-transport.ts';

type Mode = 'ideal' | 'fail-eager';

interface ModeResult {
  readonly mode: Mode;
  readonly committed: number;
  readonly txPerSec: number;
  readonly cpuUsPerTx: number;
  readonly replicaHandlingUsPerTx: number;
  readonly clientHandlingUsPerTx: number;
  readonly syncExecutionsPerTx: number;
  readonly syncReusesPerTx: number;
  readonly fastPathRate: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function main(args: readonly string[]): Promise<void> {
  const flags = parseFlags(args);
  const transportName = flags.get('transport') ?? 'memory';
  if (transportName !== 'memory' && transportName !== 'grpc' && transportName !== 'tcp') throw new Error(`--transport must be memory, grpc or tcp, got ${transportName}`);
  const transport: Transport = transportName === 'memory' ? memoryTransport() : transportName === 'grpc' ? grpcTransport : tcpTransport;
  const opts: YcsbOptions = {
    tables: Number(flags.get('tables') ?? 4),
    keys: Number(flags.get('keys') ?? 5000),
    range: 10,
    clients: Number(flags.get('clients') ?? 16),
    seconds: Number(flags.get('seconds') ?? 5),
    warmup: Number(flags.get('warmup') ?? 2),
    reads: 0.5,
    dist: 'uniform',
    theta: 1.1,
    fault: 'omit',
    backoffMs: 1,
    maxBackoffMs: 64,
    loadBatch: 500,
    basePort: 9590,
    historyWindowMs: undefined,
    rounds: Number(flags.get('pairs') ?? 3),
    targets: 'learned',
    compaction: true,
    json: flags.has('json'),
  };
  const windows = flags.has('windows');
  const dataDir = mkdtempSync(join(tmpdir(), 'pesto-micro-ycsb-'));
  const servers: ReplicaServer[] = [];
  const clients: PestoClient[] = [];
  // The shells' timers are unref'd (in a deployment the sockets keep a process alive); with the
  // in-memory transport nothing else would, and a transaction waiting on a timer would end the process.
  const keepAlive = setInterval(() => undefined, 1000);
  try {
    const prepared = await prepareLocalCluster({ dataDir, basePort: opts.basePort });
    const historyMs = flags.get('history-window-ms');
    const config = historyMs === undefined ? prepared.config : { ...prepared.config, limits: { ...prepared.config.limits, historyWindowMs: Number(historyMs) } };
    const engine = await Engine.create();
    for (const r of config.shards[0]!.replicas) {
      const keyPair = await readKeyFile(keyPath(dataDir, { kind: 'replica', shard: 0, index: r.index }));
      const server = new ReplicaServer({ config, shard: 0, index: r.index, keyPair, port: Number(r.address.split(':')[1]), transport, engine });
      await server.start();
      servers.push(server);
    }
    const clientId = config.clients[0]!.id;
    const keyPair = await readKeyFile(keyPath(dataDir, { kind: 'client', id: clientId }));
    const connect = async (forceSyncQueries: boolean): Promise<PestoClient> => {
      const c = await PestoClient.connect({ config, clientId, keyPair, transport, forceSyncQueries });
      clients.push(c);
      return c;
    };
    const byMode: Record<Mode, PestoClient> = { ideal: await connect(false), 'fail-eager': await connect(true) };
    const t = performance.now();
    await load(new SqlClient(byMode.ideal, engine), opts);
    process.stderr.write(`loaded ${opts.tables} x ${opts.keys} rows in ${round((performance.now() - t) / 1000, 1)} s\n`);
    const replicaStat = (k: 'queriesSnapshot' | 'queriesSnapshotReused'): number => servers.reduce((s, x) => s + (x.core.stats[k] ?? 0), 0);

    const runMode = async (mode: Mode): Promise<ModeResult> => {
      const client = byMode[mode];
      const sessions = Array.from({ length: opts.clients }, () => new SqlClient(client, engine).session());
      const stmts = await Promise.all(sessions.map((s) => prepareAll(s, opts)));
      const nextKey = keyGenerator(opts);
      const w = newWindow();
      let running = true;
      const loops = sessions.map(async (s, i) => {
        while (running) await oneTxn(s, stmts[i]!, opts, nextKey, w);
      });
      await sleep(opts.warmup * 1000);
      const core = client.core.stats;
      const c0 = { committed: core.committed, fast: core.fastCommits };
      const snap0 = replicaStat('queriesSnapshot');
      const reuse0 = replicaStat('queriesSnapshotReused');
      handling.replicaMs = 0;
      handling.clientMs = 0;
      const cpu0 = process.cpuUsage();
      const hr0 = process.hrtime.bigint();
      w.measuring = true;
      const t0 = performance.now();
      await sleep(opts.seconds * 1000);
      w.measuring = false;
      // The window on the monotonic clock of CPU profiles (µs), to split a profile by mode.
      if (windows) process.stderr.write(`window ${mode} ${hr0 / 1000n} ${process.hrtime.bigint() / 1000n} ${w.committed}\n`);
      const elapsedS = (performance.now() - t0) / 1000;
      const cpu = process.cpuUsage(cpu0);
      const { replicaMs, clientMs } = handling;
      const snaps = replicaStat('queriesSnapshot') - snap0;
      const reuses = replicaStat('queriesSnapshotReused') - reuse0;
      const commits = core.committed - c0.committed;
      const fast = core.fastCommits - c0.fast;
      running = false;
      await Promise.all(loops);
      if (w.otherErrors.size > 0 || w.gaveUp > 0) process.stderr.write(`${mode}: ${w.gaveUp} gave up; ${[...w.otherErrors].map(([k, v]) => `${v}x ${k}`).join('; ')}\n`);
      const per = (x: number): number => (w.committed === 0 ? 0 : round(x / w.committed, 2));
      return {
        mode,
        committed: w.committed,
        txPerSec: round(w.committed / elapsedS, 1),
        cpuUsPerTx: per(cpu.user + cpu.system),
        replicaHandlingUsPerTx: per(replicaMs * 1000),
        clientHandlingUsPerTx: per(clientMs * 1000),
        syncExecutionsPerTx: per(snaps),
        syncReusesPerTx: per(reuses),
        fastPathRate: commits === 0 ? 0 : round(fast / commits, 4),
      };
    };

    const ratios: { tput: number; cpu: number; replica: number; client: number }[] = [];
    for (let i = 0; i < opts.rounds; i++) {
      const order: Mode[] = i % 2 === 0 ? ['ideal', 'fail-eager'] : ['fail-eager', 'ideal'];
      const res = new Map<Mode, ModeResult>();
      for (const m of order) {
        const r = await runMode(m);
        res.set(m, r);
        process.stdout.write(`${JSON.stringify({ pair: i, transport: transportName, ...r })}\n`);
      }
      const a = res.get('ideal')!;
      const b = res.get('fail-eager')!;
      ratios.push({ tput: b.txPerSec / a.txPerSec, cpu: b.cpuUsPerTx / a.cpuUsPerTx, replica: b.replicaHandlingUsPerTx - a.replicaHandlingUsPerTx, client: b.clientHandlingUsPerTx - a.clientHandlingUsPerTx });
    }
    const med = (k: 'tput' | 'cpu' | 'replica' | 'client'): number => round(median(ratios.map((r) => r[k])), 3);
    process.stdout.write(
      `${JSON.stringify({ summary: 'fail-eager against ideal, median of the pairs', transport: transportName, tputRatio: med('tput'), cpuRatio: med('cpu'), cpuRatioEach: ratios.map((r) => round(r.cpu, 3)).join(' '), extraReplicaHandlingUsPerTx: med('replica'), extraClientHandlingUsPerTx: med('client') })}\n`,
    );
  } finally {
    clearInterval(keepAlive);
    for (const c of clients) await c.close();
    for (const s of servers) await s.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main(process.argv.slice(2));
