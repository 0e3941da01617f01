/**
 * What the SQL cluster benchmarks (scan, ycsb) share: a fresh local shard of n = 6 (f = 1) real replica
 * processes in a temporary data folder (or an already running one given its `--data` folder), SQL
 * clients connected to it, and a CPU meter over every process (this client plus each replica's
 * `process_cpu_seconds_total` from its Prometheus endpoint, as bench/kv.ts does).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { loadLocalClient, prepareLocalCluster } from '../cli/local-cluster-config.ts';
import { startLocalCluster, type LocalCluster } from '../cli/supervisor.ts';
import { PestoClient, type ConnectOptions } from '../client/pesto-client.ts';
import { SqlClient } from '../client/sql/sql-session.ts';
import type { SqlClientOptions } from '../client/sql/sql-client.ts';
import type { ClusterConfig, LimitsConfig, TimeoutsConfig } from '../protocol/config.ts';
import type { KeyPair } from '../protocol/crypto/ed25519.ts';
import { Engine } from '../sql/engine.ts';
import type { ExecResult } from '../sql/engine.ts';
import { onOff } from './stats.ts';

/** The client options a benchmark may set (ConnectOptions; absent ones keep the client's defaults). */
export type ClientKnobs = Pick<ConnectOptions, 'forceSyncQueries' | 'learnQueryTargets' | 'queryDigestReplies' | 'queryEagerQuorum' | 'replicaPreferenceMs'>;

/**
 * The client knobs a benchmark takes as flags, absent ones left at the client's defaults:
 * `--replica-preference-ms N` (decision 0043), `--eager-quorum on|off` (decision 0047) and
 * `--digest-replies` (decision 0027).
 */
export function clientKnobFlags(flags: ReadonlyMap<string, string>): ClientKnobs {
  return {
    ...(flags.has('replica-preference-ms') ? { replicaPreferenceMs: Number(flags.get('replica-preference-ms')) } : {}),
    ...(flags.has('eager-quorum') ? { queryEagerQuorum: onOff(flags.get('eager-quorum'), 'eager-quorum') } : {}),
    ...(flags.has('digest-replies') ? { queryDigestReplies: true } : {}),
  };
}

export interface BenchCluster {
  readonly config: ClusterConfig;
  readonly dataDir: string;
  /** Replica metrics addresses (replica port + 1000). */
  readonly metrics: readonly string[];
  /** A new client with the local identity, wrapped for SQL (closed by `stop`). */
  sqlClient(options?: ClientKnobs, sql?: SqlClientOptions): Promise<SqlClient>;
  /**
   * Turns the apply fault of shard 0's replicas `indices` on or off (a cluster started with
   * PESTO_FAULT_APPLY and PESTO_FAULT_APPLY_PAUSED=1; replica/main.ts toggles on SIGUSR2) and resolves
   * once their metrics show it.
   */
  setApplyFault(indices: readonly number[], on: boolean): Promise<void>;
  /** Process ids of the replicas this benchmark started (none against an existing cluster's data folder). */
  replicaPids(): number[];
  stop(): Promise<void>;
}

export interface BenchClusterOptions {
  readonly name: string;
  readonly basePort: number;
  /** Extra environment of every replica (e.g. PESTO_FAULT_APPLY). */
  readonly env?: Readonly<Record<string, string>>;
  /** Limits and timeouts written into the fresh cluster's configuration (e.g. a larger txnKeysMax for big scans). */
  readonly limits?: Partial<LimitsConfig>;
  readonly timeouts?: Partial<TimeoutsConfig>;
  /** An existing cluster's data folder (`pesto start --data DIR`) instead of a fresh cluster. */
  readonly dataDir?: string;
}

let engine: Promise<Engine> | null = null;

export async function startBenchCluster(options: BenchClusterOptions): Promise<BenchCluster> {
  const own = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), `pesto-bench-${options.name}-`));
  let cluster: LocalCluster | null = null;
  if (own) {
    try {
      if (options.limits !== undefined || options.timeouts !== undefined) {
        const { configPath } = await prepareLocalCluster({ dataDir, basePort: options.basePort, f: 1, shards: 1 });
        const doc = parseDocument(readFileSync(configPath, 'utf8'));
        for (const [k, v] of Object.entries(options.limits ?? {})) doc.setIn(['limits', k], v);
        for (const [k, v] of Object.entries(options.timeouts ?? {})) doc.setIn(['timeouts', k], v);
        writeFileSync(configPath, doc.toString());
      }
      cluster = await startLocalCluster({ dataDir, basePort: options.basePort, f: 1, shards: 1, readyTimeoutMs: 90_000, ...(options.env === undefined ? {} : { env: options.env }) });
    } catch (e) {
      rmSync(dataDir, { recursive: true, force: true });
      throw e;
    }
  }
  const local: { config: ClusterConfig; clientId: number; keyPair: KeyPair } = await loadLocalClient(dataDir);
  const clients: PestoClient[] = [];
  engine ??= Engine.create();
  const sqlEngine = await engine;
  const metrics = local.config.shards.flatMap((s) => s.replicas.map((r) => `127.0.0.1:${Number(r.address.split(':')[1]) + 1000}`));
  return {
    config: local.config,
    dataDir,
    metrics,
    sqlClient: async (o = {}, sql = {}) => {
      const client = await PestoClient.connect({ config: local.config, clientId: local.clientId, keyPair: local.keyPair, ...o });
      clients.push(client);
      return new SqlClient(client, sqlEngine, sql);
    },
    setApplyFault: async (indices, on) => {
      if (cluster === null) throw new Error('setApplyFault needs a cluster this benchmark started');
      const started = cluster;
      // Shard 0's replicas come first in `metrics`.
      const active = async (i: number): Promise<boolean> => (await scrapeMetric(metrics[i]!, 'pesto_replica_apply_fault_active')) === 1;
      for (const i of indices) {
        if ((await active(i)) === on) continue;
        const pid = started.pid(0, i);
        if (pid === undefined) throw new Error(`replica s0r${i} is not running`);
        process.kill(pid, 'SIGUSR2');
        const deadline = performance.now() + 10_000;
        while ((await active(i)) !== on) {
          if (performance.now() > deadline) throw new Error(`replica s0r${i} did not turn its apply fault ${on ? 'on' : 'off'}`);
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    },
    replicaPids: () => startedReplicaPids(cluster, local.config),
    stop: async () => {
      for (const c of clients) await c.close();
      if (cluster !== null) {
        await cluster.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** Process ids of the replicas of `config` that `cluster` started and runs (none without a cluster). */
export function startedReplicaPids(cluster: LocalCluster | null, config: ClusterConfig): number[] {
  if (cluster === null) return [];
  return config.shards.flatMap((sh) => sh.replicas.map((r) => cluster.pid(sh.id, r.index)).filter((p): p is number => p !== undefined));
}

/**
 * Context switches of a process's main thread (its event loop): each voluntary one is the loop going
 * to sleep in epoll and being woken again, so their count is the process's wakeups. 0 when unreadable.
 */
function processWakeups(pid: number): { voluntary: number; involuntary: number } {
  try {
    const text = readFileSync(`/proc/${pid}/task/${pid}/status`, 'utf8');
    const field = (name: string): number => Number(new RegExp(`^${name}:\\s*(\\d+)`, 'm').exec(text)?.[1] ?? 0);
    return { voluntary: field('voluntary_ctxt_switches'), involuntary: field('nonvoluntary_ctxt_switches') };
  } catch {
    return { voluntary: 0, involuntary: 0 };
  }
}

/**
 * Wakeups so far (voluntary context switches) of the replica processes `replicaPids` together and of
 * this process (the client), and the preemptions (involuntary ones) of all: a benchmark takes the
 * difference over its window.
 */
export function wakeupTotals(replicaPids: readonly number[]): { replicas: number; client: number; preempted: number } {
  const reps = replicaPids.map(processWakeups);
  const own = processWakeups(process.pid);
  return { replicas: reps.reduce((a, w) => a + w.voluntary, 0), client: own.voluntary, preempted: reps.reduce((a, w) => a + w.involuntary, own.involuntary) };
}

/** One value of a Prometheus text exposition (the first sample of `name`; 0 when absent). */
function metricValue(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(name + '{') || l.startsWith(name + ' '));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** One metric of the replica whose metrics endpoint is `address` (see `metricValue`). */
async function scrapeMetric(address: string, name: string): Promise<number> {
  // Asked again once: a kept-alive connection idle past the server's keep-alive timeout (a read of
  // several seconds between two scrapes) can be closed just as it is reused ("other side closed").
  const scrape = async (): Promise<string> => (await fetch(`http://${address}/metrics`)).text();
  return metricValue(await scrape().catch(scrape), name);
}

function replicaCpuSeconds(address: string): Promise<number> {
  return scrapeMetric(address, 'process_cpu_seconds_total');
}

/**
 * The `pesto_replica_*` and `pesto_wal_*` counters of every replica summed by series (labels other than shard and
 * replica kept, e.g. `pesto_replica_fetches_total{event="sent"}`).
 */
/** The replica series `replicaCounters` keeps. */
const COUNTER_PREFIXES = ['pesto_replica_', 'pesto_wal_', 'pesto_signatures_total', 'pesto_verifications_total'];

export async function replicaCounters(addresses: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const text of await Promise.all(addresses.map(async (a) => (await fetch(`http://${a}/metrics`)).text()))) {
    for (const line of text.split('\n')) {
      if (!COUNTER_PREFIXES.some((p) => line.startsWith(p))) continue;
      const space = line.lastIndexOf(' ');
      const series = line.slice(0, space).replace(/,?(shard|replica)="[^"]*"/g, '').replace('{,', '{').replace('{}', '');
      out.set(series, (out.get(series) ?? 0) + Number(line.slice(space + 1)));
    }
  }
  return out;
}

/** after - before for every series of `after`. */
export function counterDelta(before: ReadonlyMap<string, number>, after: ReadonlyMap<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [k, v] of after) if (v - (before.get(k) ?? 0) !== 0) out.set(k, v - (before.get(k) ?? 0));
  return out;
}

/** CPU seconds of this process and every replica between `start` and `stop`. */
export class CpuMeter {
  #client0 = process.cpuUsage();
  #replicas0: number[] = [];

  constructor(readonly metrics: readonly string[]) {}

  async start(): Promise<void> {
    this.#replicas0 = await Promise.all(this.metrics.map(replicaCpuSeconds));
    this.#client0 = process.cpuUsage();
  }

  /** { client, replicas } CPU seconds since `start`. */
  async stop(): Promise<{ client: number; replicas: number; each: number[] }> {
    const d = process.cpuUsage(this.#client0);
    const after = await Promise.all(this.metrics.map(replicaCpuSeconds));
    return { client: (d.user + d.system) / 1e6, replicas: after.reduce((s, v, i) => s + v - (this.#replicas0[i] ?? 0), 0), each: after.map((v, i) => v - (this.#replicas0[i] ?? 0)) };
  }
}

/** The result of a statement that must succeed (loading, setup). */
export function must(r: ExecResult, what: string): Extract<ExecResult, { ok: true }> {
  if (!r.ok) throw new Error(`${what}: ${r.error.code} ${r.error.message}`);
  return r;
}

/** Sleeps `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
