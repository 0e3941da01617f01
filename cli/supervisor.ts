/**
 * Runs a local Pesto cluster as real processes: one child per replica, started from the configuration in a
 * data folder (generated on first start, see local-cluster-config.ts). Used by `pesto start`, and by
 * integration tests that need real replicas they can crash and restart.
 *
 * Each replica runs `node <bundle of replica/main.ts> --config <cluster.yaml> --shard S --index I --data
 * <data>/replicas/sSrI` from the repository root (the bundle is built or reused by replica-bundle.ts), with `PESTO_KEY_FILE=<data>/keys/sSrI.key` in its
 * environment, and logs to `<data>/logs/sSrI.log` (see managed-child.ts for the process contract).
 * `startLocalCluster` resolves once every replica announced readiness; if one does not (it exits, or the
 * timeout passes), every replica is stopped and the error names the replica, its log and its last lines.
 *
 * A replica that exits unexpectedly is reported through `onEvent` (`pesto start` prints it). By default it
 * stays down: in a BFT cluster a crash is a fault worth seeing, and tests that crash replicas on purpose
 * must not race an automatic restart. With `restartCrashed`, it is restarted after `restartDelayMs`, at
 * most `restartsMax` times per replica, so a replica that crashes on start does not loop forever.
 */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { ClusterConfig } from '../protocol/config.ts';
import { ManagedChild, type ChildExit } from './managed-child.ts';
import { keyPath } from './keys.ts';
import { bundledProgram } from './replica-bundle.ts';
import { prepareLocalCluster, replicaDataDir, type LocalClusterRequest } from './local-cluster-config.ts';

/**
 * V8 flags every replica starts with, before those of PESTO_REPLICA_NODE_FLAGS (a later flag wins): a
 * young generation of at most 8 MB per semi-space instead of V8's 16. On this 2-core machine with seven
 * processes it cost 0.74-0.95x the CPU per committed transaction at 64 clients (six alternating pairs);
 * 32 and 64 MB cost more (decision 0023). `npm start` and `npm run bench` give their own process the same.
 */
export const REPLICA_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8'];

/**
 * glibc's malloc asks for transparent huge pages on the memory it maps (`madvise(MADV_HUGEPAGE)`), so the
 * first touch of fresh malloc memory faults once per 2 MiB instead of once per 4 KiB page. Message
 * buffers (received frames, encoded replies, the slabs received messages are copied into) are malloc
 * memory, and on this paravirtualized machine a page fault costs ~15 µs: a fresh 780 KB buffer filled by
 * a copy took 332 µs against 81 (decision 0051). No effect where THP is off or libc is not glibc.
 */
export const MALLOC_HUGE_PAGES = 'glibc.malloc.hugetlb=1';

/**
 * `env` with `MALLOC_HUGE_PAGES` added to its GLIBC_TUNABLES, unless they already choose
 * `glibc.malloc.hugetlb` (an operator's setting wins). glibc reads them at process start, so this is for
 * the environment of processes about to be started.
 */
export function withMallocTunables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const tunables = env['GLIBC_TUNABLES'] ?? '';
  if (tunables.split(':').some((t) => t.startsWith('glibc.malloc.hugetlb='))) return env;
  return { ...env, GLIBC_TUNABLES: tunables === '' ? MALLOC_HUGE_PAGES : `${tunables}:${MALLOC_HUGE_PAGES}` };
}

/** Repository root: children run from here so `--import tsx` and relative entry points resolve. */
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const REPLICA_ENTRY = join(REPO_ROOT, 'replica', 'main.ts');

export type SupervisorEvent =
  | { readonly kind: 'ready'; readonly shard: number; readonly index: number; readonly address: string; readonly pid: number | undefined }
  | { readonly kind: 'crashed'; readonly shard: number; readonly index: number; readonly exit: ChildExit; readonly logPath: string; readonly willRestart: boolean }
  | { readonly kind: 'restart-failed'; readonly shard: number; readonly index: number; readonly error: Error };

export interface LocalClusterOptions extends LocalClusterRequest {
  /** Per replica; default 60 s (11 replicas started through tsx took 11.5 s on 2 busy cores; from the bundle they start faster). */
  readonly readyTimeoutMs?: number;
  /** SIGTERM-to-SIGKILL delay when stopping; default 5 s. */
  readonly stopGraceMs?: number;
  readonly restartCrashed?: boolean;
  readonly restartDelayMs?: number;
  readonly restartsMax?: number;
  /** The replica program; default `replica/main.ts`. Tests point it at `cli/testdata/fake-replica.ts`. */
  readonly replicaEntry?: string;
  /** Extra environment for every replica. */
  readonly env?: Readonly<Record<string, string>>;
  readonly onEvent?: (event: SupervisorEvent) => void;
}

export interface LocalCluster {
  readonly config: ClusterConfig;
  readonly configPath: string;
  readonly dataDir: string;
  /** Why the configuration was (re)generated on this start, or undefined when it was reused. */
  readonly generated: string | undefined;
  logPath(shard: number, index: number): string;
  pid(shard: number, index: number): number | undefined;
  isRunning(shard: number, index: number): boolean;
  /** Sends `signal` (default SIGKILL: a crash) to one replica and resolves when it has exited. It stays down. */
  kill(shard: number, index: number, signal?: NodeJS.Signals): Promise<void>;
  /** Stops the replica if it runs (SIGTERM, then SIGKILL), starts it again, and resolves when it is ready. */
  restart(shard: number, index: number): Promise<void>;
  /** Stops every replica (SIGTERM, then SIGKILL after the grace period). Idempotent. */
  stop(): Promise<void>;
}

interface Slot {
  readonly shard: number;
  readonly index: number;
  readonly child: ManagedChild;
  restarts: number;
}

/** The replica program's node arguments: its bundle, or through tsx where the bundle cannot be built (a read-only install). */
async function replicaProgram(): Promise<string[]> {
  try {
    return ['--enable-source-maps', await bundledProgram(REPO_ROOT, REPLICA_ENTRY)];
  } catch (e) {
    process.stderr.write(`pesto: replicas start through tsx, the bundle of replica/main.ts could not be made: ${e instanceof Error ? e.message : String(e)}\n`);
    return ['--import', 'tsx', REPLICA_ENTRY];
  }
}

export async function startLocalCluster(options: LocalClusterOptions): Promise<LocalCluster> {
  const prepared = await prepareLocalCluster(options);
  const { config, configPath, dataDir } = prepared;
  const stopGraceMs = options.stopGraceMs ?? 5000;
  // The replica program runs from its bundle (replica-bundle.ts); another entry, such as a test's fake
  // replica, through tsx.
  const program = options.replicaEntry === undefined ? await replicaProgram() : ['--import', 'tsx', options.replicaEntry];
  const emit = options.onEvent ?? ((): void => undefined);
  let stopping = false;

  // Extra node flags for every replica, e.g. PESTO_REPLICA_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof"
  // (node refuses --cpu-prof in NODE_OPTIONS).
  const nodeFlags = [...REPLICA_NODE_FLAGS, ...(process.env['PESTO_REPLICA_NODE_FLAGS'] ?? '').split(' ').filter((a) => a !== '')];
  const slots: Slot[] = [];
  for (const shard of config.shards) {
    for (const replica of shard.replicas) {
      const name = `s${shard.id}r${replica.index}`;
      const child = new ManagedChild({
        name,
        command: process.execPath,
        args: [...nodeFlags, ...program, '--config', configPath, '--shard', String(shard.id), '--index', String(replica.index), '--data', replicaDataDir(dataDir, shard.id, replica.index)],
        cwd: REPO_ROOT,
        env: { ...withMallocTunables({ ...process.env, ...options.env }), PESTO_SUPERVISOR_PID: String(process.pid), PESTO_KEY_FILE: keyPath(dataDir, { kind: 'replica', shard: shard.id, index: replica.index }) },
        logPath: join(dataDir, 'logs', `${name}.log`),
        readyTimeoutMs: options.readyTimeoutMs ?? 60_000,
        isReady: (line) => line['event'] === 'ready' && line['shard'] === shard.id && line['index'] === replica.index,
      });
      slots.push({ shard: shard.id, index: replica.index, child, restarts: 0 });
    }
  }

  const slotOf = (shard: number, index: number): Slot => {
    const slot = slots.find((s) => s.shard === shard && s.index === index);
    if (slot === undefined) throw new RangeError(`no replica s${shard}r${index} in this cluster`);
    return slot;
  };

  const startSlot = async (slot: Slot): Promise<void> => {
    await slot.child.start();
    const address = slot.child.readyInfo?.['address'];
    emit({ kind: 'ready', shard: slot.shard, index: slot.index, address: typeof address === 'string' ? address : '?', pid: slot.child.pid });
  };

  const onExit = (slot: Slot, exit: ChildExit): void => {
    if (exit.expected || stopping || slot.child.readyInfo === undefined) return; // start failures reject start()
    const willRestart = (options.restartCrashed ?? false) && slot.restarts < (options.restartsMax ?? 3);
    emit({ kind: 'crashed', shard: slot.shard, index: slot.index, exit, logPath: slot.child.spec.logPath, willRestart });
    if (!willRestart) return;
    slot.restarts++;
    setTimeout(() => {
      if (stopping || slot.child.alive) return;
      startSlot(slot).catch((e: unknown) => emit({ kind: 'restart-failed', shard: slot.shard, index: slot.index, error: e instanceof Error ? e : new Error(String(e)) }));
    }, options.restartDelayMs ?? 1000).unref();
  };
  for (const slot of slots) slot.child.onExit = (exit): void => onExit(slot, exit);

  const killAllSync = (): void => {
    for (const slot of slots) slot.child.killSync();
  };
  process.on('exit', killAllSync);

  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping = true;
    stopped ??= Promise.all(slots.map((s) => s.child.stop(stopGraceMs))).then(() => {
      process.off('exit', killAllSync);
    });
    return stopped;
  };

  const started = await Promise.allSettled(slots.map(startSlot));
  const failure = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure !== undefined) {
    await stop();
    throw failure.reason;
  }

  return {
    config,
    configPath,
    dataDir,
    generated: prepared.generated,
    logPath: (shard, index) => slotOf(shard, index).child.spec.logPath,
    pid: (shard, index) => slotOf(shard, index).child.pid,
    isRunning: (shard, index) => slotOf(shard, index).child.alive,
    kill: async (shard, index, signal = 'SIGKILL') => {
      await slotOf(shard, index).child.kill(signal);
    },
    restart: async (shard, index) => {
      if (stopping) throw new Error('the cluster is stopping');
      const slot = slotOf(shard, index);
      await slot.child.stop(stopGraceMs);
      await startSlot(slot);
    },
    stop,
  };
}
