/**
 * Replica process entry point: `node --import tsx replica/main.ts --config <cluster.yaml> --shard S
 * --index I [--data DIR]`. Prints one JSON line `{"event":"ready",...}` on stdout once listening,
 * logs to stderr, and exits 0 on SIGTERM or SIGINT.
 *
 * Environment:
 * - PESTO_SYNC=fdatasync|none: log durability (default fdatasync; none for measurements).
 * - PESTO_TRANSPORT=grpc|tcp: overrides the configuration's `transport.wire` (measurements); TLS
 *   follows `transport.tls` (net/cluster-transport.ts).
 * - PESTO_WAL_COMPACT_BYTES=N: compact the log only past N bytes (default 64 MiB)...
 * - PESTO_WAL_COMPACT_GARBAGE=S: ...once a share S of it is garbage (default 0.5; 0: on size alone;
 *   replica-server.ts `compactionDue`).
 * - PESTO_FETCH_TIMEOUT_MS=N: how long a sync-round query waits for transactions fetched from other
 *   replicas (default 200).
 * - PESTO_FAULT_APPLY=omit|delay:<ms>[@s<shard>r<index>,...]: fault injection (issue 4; meant for up to
 *   a third of a shard's replicas, e.g. `delay:500@s0r4,s0r5`; without a list every replica that sees
 *   the variable is faulty). The replica applies committed writebacks for voting and point reads as
 *   usual, but its range reads do not see their writes: never (omit) or only <ms> later (delay). Eager
 *   rounds then disagree and queries take the sync path, where fetching the transaction from another
 *   replica makes its writes visible.
 *   With PESTO_FAULT_APPLY_PAUSED=1 the fault starts off; SIGUSR2 turns it on and off (turning it off
 *   shows every withheld write), so a benchmark can run faulty and fault-free modes on one cluster.
 * - PESTO_CPU_PROFILE=<dir>: write a CPU profile on stop.
 * - PESTO_SUPERVISOR_PID=<pid> (set by cli/supervisor.ts): stop when that process no longer exists.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseClusterConfig, replicaOf, splitAddress } from '../protocol/config.ts';
import { readKeyFile, replicaKeyPath } from '../cli/keys.ts';
import { replicaMetrics, serveMetrics } from './shell/metrics.ts';
import { ReplicaServer } from './shell/replica-server.ts';
import { Wal } from './shell/wal.ts';
import { decodedLogRecords } from '../protocol/log-record.ts';
import { clusterTransport, transportStats } from '../net/index.ts';
import { Engine } from '../sql/engine.ts';
import { warmUpBlake3 } from '../protocol/crypto/blake3.ts';
import { parseApplyFault } from './core/range-reads.ts';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      config: { type: 'string' },
      shard: { type: 'string', default: '0' },
      index: { type: 'string' },
      data: { type: 'string' },
      'metrics-port': { type: 'string' },
      // fdatasync (default): votes are durable before they are sent. none: for measurements.
      sync: { type: 'string', default: process.env['PESTO_SYNC'] ?? 'fdatasync' },
    },
  });
  if (values.config === undefined || values.index === undefined) throw new Error('usage: replica/main.ts --config FILE --shard S --index I [--data DIR]');
  const shard = Number(values.shard);
  const index = Number(values.index);
  const parsed = parseClusterConfig(await readFile(values.config, 'utf8'));
  if (!parsed.ok) throw new Error(`bad configuration ${values.config}: ${parsed.reason}${parsed.detail === undefined ? '' : ` (${parsed.detail})`}`);
  const config = parsed.value;
  const me = replicaOf(config, shard, index);
  if (me === undefined) throw new Error(`replica s${shard}r${index} is not in ${values.config}`);
  const addr = splitAddress(me.address);
  if (addr === undefined) throw new Error(`bad address ${me.address}`);
  const keyPair = await readKeyFile(replicaKeyPath(values.config, shard, index));
  const sync = values.sync === 'none' ? 'none' : 'fdatasync';
  // The log lives in the replica's data folder; without --data (tests) the replica keeps nothing.
  let wal: Wal | undefined;
  let walPath: string | undefined;
  let logRecords: Uint8Array[] = [];
  if (values.data !== undefined) {
    walPath = join(values.data, 'wal.log');
    await mkdir(values.data, { recursive: true });
    const opened = Wal.open(walPath, sync);
    wal = opened.wal;
    logRecords = opened.records;
    if (opened.discardedBytes > 0) process.stderr.write(`replica s${shard}r${index}: cut ${opened.discardedBytes} bytes of a torn log tail\n`);
  }
  const compact = process.env['PESTO_WAL_COMPACT_BYTES'];
  const garbage = process.env['PESTO_WAL_COMPACT_GARBAGE'];
  if (garbage !== undefined && !(Number(garbage) >= 0 && Number(garbage) < 1)) throw new Error(`PESTO_WAL_COMPACT_GARBAGE must be a share in [0, 1), got ${garbage}`);
  const applyFault = parseApplyFault(process.env['PESTO_FAULT_APPLY'], shard, index);
  const fetchTimeout = process.env['PESTO_FETCH_TIMEOUT_MS'];
  if (fetchTimeout !== undefined && !/^\d+$/.test(fetchTimeout)) throw new Error(`PESTO_FETCH_TIMEOUT_MS must be a number of milliseconds, got ${fetchTimeout}`);
  const faultPaused = process.env['PESTO_FAULT_APPLY_PAUSED'] === '1';
  if (applyFault !== undefined) process.stderr.write(`replica s${shard}r${index}: fault injection PESTO_FAULT_APPLY=${process.env['PESTO_FAULT_APPLY']}${faultPaused ? ' (paused until SIGUSR2)' : ''}\n`);
  const engine = await Engine.create();
  warmUpBlake3(); // before serving: digest-only range replies hash large bodies (decision 0027)
  const server = new ReplicaServer({
    config,
    shard,
    index,
    keyPair,
    host: addr.host,
    port: addr.port,
    transport: clusterTransport(config, { kind: 'replica', shard, index }, keyPair.secretKey),
    ...(wal === undefined ? {} : { wal }),
    ...(compact === undefined ? {} : { walCompactBytes: Number(compact) }),
    ...(garbage === undefined ? {} : { walCompactGarbage: Number(garbage) }),
    engine,
    ...(applyFault === undefined || faultPaused ? {} : { applyFault }),
    ...(fetchTimeout === undefined ? {} : { fetchTimeoutMs: Number(fetchTimeout) }),
  });
  const restoreStart = performance.now();
  server.core.restore(decodedLogRecords(logRecords, walPath ?? 'the log'));
  if (logRecords.length > 0) process.stderr.write(`replica s${shard}r${index}: restored ${logRecords.length} log records in ${Math.round(performance.now() - restoreStart)} ms\n`);
  const port = await server.start();
  // Metrics on the replica port + 1000 unless told otherwise (0 disables).
  const metricsPort = values['metrics-port'] === undefined ? port + 1000 : Number(values['metrics-port']);
  const metrics = metricsPort > 0 ? await serveMetrics(replicaMetrics(server), addr.host, metricsPort) : null;
  process.stdout.write(`${JSON.stringify({ event: 'ready', shard, index, address: `${addr.host}:${port}`, metrics: metrics === null ? null : `${addr.host}:${metricsPort}` })}\n`);
  // PESTO_CPU_PROFILE=<dir>: profile this replica from start to stop (for performance work).
  const profileDir = process.env['PESTO_CPU_PROFILE'];
  const profiler = profileDir === undefined ? null : new Session();
  if (profiler !== null) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  const stop = (): void => {
    if (profiler !== null && profileDir !== undefined) {
      void profiler
        .post('Profiler.stop')
        .then(({ profile }) => writeFile(join(profileDir, `replica-s${shard}r${index}.cpuprofile`), JSON.stringify(profile)))
        .finally(() => process.exit(0));
    }
    process.stderr.write(`replica s${shard}r${index} stopping: ${JSON.stringify({ stats: server.core.stats, rejected: server.rejected, transportRejected: Object.fromEntries(Object.entries(transportStats.rejected).filter(([, v]) => v > 0)) })}\n`);
    metrics?.close();
    void server.stop().then(() => {
      if (profiler === null) process.exit(0);
    });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  if (applyFault !== undefined) {
    process.on('SIGUSR2', () => {
      const on = server.core.range.applyFault === null;
      server.setApplyFault(on ? applyFault : null);
      process.stderr.write(`replica s${shard}r${index}: apply fault ${on ? 'on' : 'off'}\n`);
    });
  }
  // A replica started by `pesto start` stops when its supervisor is gone (killed without a chance to
  // stop its children), instead of living on as an orphan holding its port.
  const supervisor = Number(process.env['PESTO_SUPERVISOR_PID'] ?? 0);
  if (supervisor > 1) {
    setInterval(() => {
      try {
        process.kill(supervisor, 0);
      } catch {
        process.stderr.write(`replica s${shard}r${index}: supervisor ${supervisor} is gone\n`);
        stop();
      }
    }, 1000).unref();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`replica failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
