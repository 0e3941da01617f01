/**
 * Shared pieces of the integration tests: a real local cluster (six replica processes over the configured wire, see
 * cli/supervisor.ts) in a fresh temporary data folder, a connected `PestoClient`, and the two ways to
 * observe a replica from outside: its Prometheus `/metrics` (replica/shell/metrics.ts; the address is
 * in the ready line the supervisor copies into the replica's log) and the counters it prints on stderr
 * when it stops (replica/main.ts).
 *
 * Each test file picks its own base port in 7400-7999 so two files can run at the same time.
 */
import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keyPath, readKeyFile } from '../../cli/keys.ts';
import { loadLocalClient, prepareLocalCluster } from '../../cli/local-cluster-config.ts';
import { startLocalCluster, type LocalCluster } from '../../cli/supervisor.ts';
import { PestoClient, type Transaction } from '../../client/pesto-client.ts';
import type { CommitResult } from '../../client/core/results.ts';
import type { ClusterConfig, LimitsConfig, TransportConfig } from '../../protocol/config.ts';
import { parseDocument } from 'yaml';
import type { KeyPair } from '../../protocol/crypto/ed25519.ts';

export interface TestCluster {
  readonly cluster: LocalCluster;
  readonly dataDir: string;
  readonly config: ClusterConfig;
  readonly clientId: number;
  readonly keyPair: KeyPair;
  readonly clients: PestoClient[];
  /**
   * Connects one more client with the local identity (close it, or let `stop` do it); `as` another of
   * the local client ids (1 to LOCAL_CLIENT_COUNT) stands for another client process: clients of one id
   * in this process share one timestamp allocator.
   */
  connect(options?: { readonly fastPathWaitMs?: number; readonly as?: number }): Promise<PestoClient>;
  /** Every replica of shard 0 by index. */
  readonly indexes: readonly number[];
  stop(): Promise<void>;
}

export interface TestClusterOptions {
  /** Limits written into the fresh cluster's configuration (e.g. a short history window). */
  readonly limits?: Partial<LimitsConfig>;
  /** The wire and TLS of the fresh cluster (default: the configuration's defaults). */
  readonly transport?: Partial<TransportConfig>;
  /** Shards of six replicas each (default 1). */
  readonly shards?: number;
}

export async function startTestCluster(name: string, basePort: number, options: TestClusterOptions = {}): Promise<TestCluster> {
  const dataDir = await mkdtemp(join(tmpdir(), `pesto-it-${name}-`));
  let cluster: LocalCluster;
  const shards = options.shards ?? 1;
  try {
    if (options.limits !== undefined) {
      const { configPath } = await prepareLocalCluster({ dataDir, basePort, f: 1, shards });
      const doc = parseDocument(await readFile(configPath, 'utf8'));
      for (const [k, v] of Object.entries(options.limits)) doc.setIn(['limits', k], v);
      await writeFile(configPath, doc.toString());
    }
    const transport = options.transport === undefined ? {} : { transport: options.transport };
    cluster = await startLocalCluster({ dataDir, basePort, f: 1, shards, readyTimeoutMs: 90_000, stopGraceMs: 5000, ...transport });
  } catch (e) {
    await rm(dataDir, { recursive: true, force: true });
    throw e;
  }
  const local = await loadLocalClient(dataDir);
  const clients: PestoClient[] = [];
  const n = local.config.shards[0]!.replicas.length;
  let stopped = false;
  return {
    cluster,
    dataDir,
    config: local.config,
    clientId: local.clientId,
    keyPair: local.keyPair,
    clients,
    indexes: Array.from({ length: n }, (_, i) => i),
    connect: async ({ as, ...options } = {}) => {
      const identity = as === undefined ? local : { clientId: as, keyPair: await readKeyFile(keyPath(dataDir, { kind: 'client', id: as })) };
      const client = await PestoClient.connect({ config: local.config, clientId: identity.clientId, keyPair: identity.keyPair, ...options });
      clients.push(client);
      return client;
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      for (const c of clients) await c.close();
      await cluster.stop();
      if (process.env['PESTO_KEEP_TEST_DATA'] === undefined) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The outcome of one transaction body run to commit; the body may read and write. */
export async function runTxn(client: PestoClient, body: (tx: Transaction) => Promise<void> | void): Promise<CommitResult> {
  const tx = client.session().begin();
  await body(tx);
  return tx.commit();
}

/** Whether the OS still has a process with this id (signal 0 checks without sending). */
export function processAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Replica indexes of shard 0 that are not running (by the supervisor and by the OS). */
export function downReplicas(tc: TestCluster): number[] {
  return tc.indexes.filter((i) => !tc.cluster.isRunning(0, i) || !processAlive(tc.cluster.pid(0, i)));
}

// ---- observation: /metrics ----

/** One scrape: `name{label="v",...}` (labels sorted, shard and replica left out) to value. */
export type Metrics = ReadonlyMap<string, number>;

/** The metrics address from the last ready line in the replica's log, or undefined when it serves none. */
export async function metricsAddress(cluster: LocalCluster, shard: number, index: number): Promise<string | undefined> {
  const log = await readFile(cluster.logPath(shard, index), 'utf8');
  const lines = log.split('\n').filter((l) => l.includes(' supervisor | ready: '));
  const last = lines[lines.length - 1];
  if (last === undefined) return undefined;
  const ready: unknown = JSON.parse(last.slice(last.indexOf('ready: ') + 'ready: '.length));
  if (typeof ready !== 'object' || ready === null) return undefined;
  const address = (ready as Record<string, unknown>)['metrics'];
  return typeof address === 'string' ? address : undefined;
}

function httpGet(address: string, path: string): Promise<string> {
  const [host, port] = [address.slice(0, address.lastIndexOf(':')), Number(address.slice(address.lastIndexOf(':') + 1))];
  return new Promise((resolve, reject) => {
    const req = request({ host, port, path, method: 'GET', timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode === 200) resolve(body);
        else reject(new Error(`GET http://${address}${path}: ${res.statusCode ?? '?'} ${body.slice(0, 200)}`));
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`GET http://${address}${path} timed out`)));
    req.on('error', reject);
    req.end();
  });
}

export function parsePrometheus(text: string): Metrics {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    if (m === null) continue;
    const labels = [...(m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)]
      .filter((l) => l[1] !== 'shard' && l[1] !== 'replica')
      .map((l) => `${l[1]!}="${l[2]!}"`)
      .sort();
    out.set(labels.length === 0 ? m[1]! : `${m[1]!}{${labels.join(',')}}`, Number(m[3]));
  }
  return out;
}

export async function scrape(cluster: LocalCluster, shard: number, index: number): Promise<Metrics> {
  const address = await metricsAddress(cluster, shard, index);
  if (address === undefined) throw new Error(`replica s${shard}r${index} serves no metrics (no address in its ready line)`);
  return parsePrometheus(await httpGet(address, '/metrics'));
}

/** Boundary rejections of one replica by reason (`pesto_rejected_messages_total`). */
export function rejectedOf(m: Metrics, reason: string): number {
  return m.get(`pesto_rejected_messages_total{reason="${reason}"}`) ?? 0;
}

/** Streams the replica's transport closed, by reason (`pesto_transport_rejected_total`). */
export function transportRejectedOf(m: Metrics, reason: string): number {
  return m.get(`pesto_transport_rejected_total{reason="${reason}"}`) ?? 0;
}

export function metric(m: Metrics, key: string): number {
  return m.get(key) ?? 0;
}

// ---- observation: the counters a replica prints when it stops ----

export interface StopCounters {
  readonly stats: Readonly<Record<string, unknown>>;
  readonly rejected: Readonly<Record<string, number>>;
}

/** Every `stopping:` line in a replica's log (one per run that stopped on SIGTERM), oldest first. */
export async function stopCounters(logPath: string): Promise<StopCounters[]> {
  const log = await readFile(logPath, 'utf8');
  const out: StopCounters[] = [];
  for (const line of log.split('\n')) {
    const at = line.indexOf(' stopping: {');
    if (at < 0) continue;
    const parsed: unknown = JSON.parse(line.slice(at + ' stopping: '.length));
    if (typeof parsed !== 'object' || parsed === null) continue;
    const o = parsed as Record<string, unknown>;
    out.push({ stats: (o['stats'] ?? {}) as Record<string, unknown>, rejected: (o['rejected'] ?? {}) as Record<string, number> });
  }
  return out;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
