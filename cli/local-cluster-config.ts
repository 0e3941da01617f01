/**
 * The local cluster's configuration and keys, generated into a data folder on first start and reused after.
 *
 * `prepareLocalCluster` makes sure `<data>/cluster.yaml` describes the requested cluster (f, shards, base
 * port) and that every key file it relies on exists and matches the configured public key:
 * - nothing there yet: generate a trust authority (`keys/authority.key`), one key per replica
 *   (`keys/s<S>r<I>.key`), client keys for local tools (`keys/client-<id>.key`, client ids 1 to
 *   LOCAL_CLIENT_COUNT: the gateway, `pesto kv`, benchmarks), certify them all with the authority, and
 *   write `cluster.yaml`;
 * - a valid config of the requested shape with matching keys: reuse it untouched;
 * - otherwise (other f, shard count or ports; a missing or mismatched key): regenerate the config and say
 *   why. Existing key files are reused (certificates are re-issued), missing ones are generated. Replica
 *   state from the previous configuration is moved to `replicas.previous/`: it belongs to another cluster.
 * An unset option means "whatever the existing config says", or the default when there is none.
 *
 * A config that does not parse is never overwritten: the error names the file so the user can fix or
 * delete it. Replicas listen on 127.0.0.1, replica I of shard S at `basePort + S * n + I`.
 *
 * TLS (decision 0026): the authority also issues every TLS certificate (`tlsCertificate`, derived from
 * the same keys), so a local cluster can switch TLS on and off. `transport` (wire and TLS) is taken
 * from the request, else the existing config, else the defaults; changing it, or adding certificates
 * a config written before TLS lacks, rewrites the configuration but keeps the replicas' state (same
 * cluster, same keys).
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  certifyAuthorityTls,
  certifyClient,
  certifyMemberTls,
  certifyReplica,
  DEFAULT_BATCHING,
  DEFAULT_GRACE,
  DEFAULT_LIMITS,
  DEFAULT_TIMEOUTS,
  DEFAULT_TRANSPORT,
  parseClusterConfig,
  renderClusterConfig,
  splitAddress,
  validateClusterConfig,
  type ClusterConfig,
  type ReplicaConfig,
  type TransportConfig,
} from '../protocol/config.ts';
import type { KeyPair } from '../protocol/crypto/ed25519.ts';
import { clientId, replicaIndex, shardId } from '../protocol/ids.ts';
import { quorums } from '../protocol/quorum.ts';
import { keyPath, loadOrCreateKeyFile, readKeyFile, type KeyOwner } from './keys.ts';

export const LOCAL_CLUSTER_NAME = 'local';
/**
 * Client identities the local configuration issues (ids 1 to this). A timestamp is (micros, client id),
 * so two processes running transactions under one id could give two transactions the same timestamp:
 * each process claims an identity of its own (`loadLocalClient`).
 */
export const LOCAL_CLIENT_COUNT = 8;
const LOCAL_CLIENT_IDS = Array.from({ length: LOCAL_CLIENT_COUNT }, (_, i) => i + 1);
const localClientName = (id: number): string => `local-tools-${id}`;
export const DEFAULT_F = 1;
export const DEFAULT_SHARDS = 1;
export const DEFAULT_BASE_PORT = 7100;
export const DEFAULT_DATA_DIR = './data';

/** The configuration file exists but is not a valid cluster configuration. */
export class ConfigFileError extends Error {
  override readonly name = 'ConfigFileError';
}

export interface LocalClusterRequest {
  readonly dataDir: string;
  readonly f?: number;
  readonly shards?: number;
  readonly basePort?: number;
  /** The wire and TLS setting to write into the configuration (unset fields: the existing config's). */
  readonly transport?: Partial<TransportConfig>;
}

export interface PreparedCluster {
  readonly config: ClusterConfig;
  /** Absolute path of `cluster.yaml`. */
  readonly configPath: string;
  /** Absolute data folder. */
  readonly dataDir: string;
  /** Why the configuration was (re)generated, or undefined when an existing one was reused. */
  readonly generated: string | undefined;
}

export function configPathOf(dataDir: string): string {
  return join(resolve(dataDir), 'cluster.yaml');
}

/** The state folder of one replica (its `--data`). */
export function replicaDataDir(dataDir: string, shard: number, index: number): string {
  return join(resolve(dataDir), 'replicas', `s${shard}r${index}`);
}

export async function prepareLocalCluster(request: LocalClusterRequest): Promise<PreparedCluster> {
  const dataDir = resolve(request.dataDir);
  const configPath = configPathOf(dataDir);
  const existing = await readExisting(configPath);
  const f = request.f ?? existing?.f ?? DEFAULT_F;
  const shards = request.shards ?? existing?.shards.length ?? DEFAULT_SHARDS;
  const basePort = request.basePort ?? (existing === undefined ? DEFAULT_BASE_PORT : basePortOf(existing));
  quorums(f); // throws a RangeError naming f when out of range
  if (!Number.isInteger(shards) || shards < 1 || shards > 64) throw new RangeError(`shards must be an integer in [1, 64], got ${shards}`);
  const n = quorums(f).n;
  if (!Number.isInteger(basePort) || basePort < 1 || basePort + shards * n - 1 > 65535) throw new RangeError(`base port ${basePort} leaves no room for ${shards * n} replicas`);
  const transport: TransportConfig = { ...DEFAULT_TRANSPORT, ...existing?.transport, ...request.transport };

  let why: string;
  if (existing === undefined) {
    why = `no configuration in ${dataDir} yet: generated one`;
  } else {
    const mismatch = shapeMismatch(existing, f, shards, basePort) ?? (await keyMismatch(existing, dataDir));
    if (mismatch === undefined) {
      const update = transportMismatch(existing, transport);
      if (update === undefined) return { config: existing, configPath, dataDir, generated: undefined };
      why = `rewrote ${configPath}: ${update}`;
    } else {
      why = `regenerated ${configPath}: ${mismatch}`;
      await retireReplicaState(dataDir);
    }
  }
  const generated = await generate(dataDir, f, shards, basePort, transport);
  // A transport-only rewrite keeps the tuning sections someone may have edited.
  const config = existing === undefined || why.startsWith('regenerated') ? generated : { ...generated, timeouts: existing.timeouts, batching: existing.batching, grace: existing.grace, limits: existing.limits };
  await writeConfig(configPath, config);
  return { config, configPath, dataDir, generated: why };
}

/**
 * A client identity and key pair for a local tool (gateway, `pesto kv`, benchmarks), claimed for this
 * process: the first of the local identities no other live process holds (a lock file
 * `keys/client-<id>.lock` with the holder's pid, removed when the process exits; a dead holder's lock is
 * taken over). Every call in one process gets the same identity (its clients share one timestamp
 * allocator, client/pesto-client.ts).
 */
export async function loadLocalClient(dataDir: string): Promise<{ readonly config: ClusterConfig; readonly configPath: string; readonly clientId: number; readonly keyPair: KeyPair }> {
  const configPath = configPathOf(dataDir);
  const config = await readExisting(configPath);
  if (config === undefined) throw new ConfigFileError(`no cluster configuration at ${configPath}: run \`pesto start\` first`);
  const id = claimLocalClient(resolve(dataDir), config);
  const keyPair = await readKeyFile(keyPath(resolve(dataDir), { kind: 'client', id }));
  return { config, configPath, clientId: id, keyPair };
}

const claimed = new Map<string, number>();

function claimLocalClient(dataDir: string, config: ClusterConfig): number {
  const mine = claimed.get(dataDir);
  if (mine !== undefined) return mine;
  const issued = LOCAL_CLIENT_IDS.filter((id) => config.clients.some((c) => c.id === id));
  for (const id of issued) {
    const lock = keyPath(dataDir, { kind: 'client', id }).replace(/\.key$/, '.lock');
    if (!tryLock(lock)) continue;
    claimed.set(dataDir, id);
    process.once('exit', () => {
      try {
        unlinkSync(lock);
      } catch {
        // already gone
      }
    });
    return id;
  }
  throw new ConfigFileError(`all ${issued.length} local client identities of ${dataDir} are held by running processes (keys/client-*.lock); stop one of them`);
}

/** Creates `path` holding this pid; takes it over from a process that no longer runs. */
function tryLock(path: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let holder = NaN;
    try {
      holder = Number(readFileSync(path, 'utf8').trim());
    } catch {
      continue; // removed meanwhile: try again
    }
    if (holder === process.pid || (Number.isSafeInteger(holder) && holder > 0 && isAlive(holder))) return false;
    try {
      unlinkSync(path);
    } catch {
      // another process took it over first
    }
  }
  return false;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readExisting(configPath: string): Promise<ClusterConfig | undefined> {
  let text: string;
  try {
    text = await readFile(configPath, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  const parsed = parseClusterConfig(text);
  if (!parsed.ok) throw new ConfigFileError(`${configPath} is not a valid cluster configuration (${parsed.reason}: ${parsed.detail ?? ''}); fix it or delete it to generate a new one`);
  return parsed.value;
}

function basePortOf(config: ClusterConfig): number {
  return splitAddress(config.shards[0]?.replicas[0]?.address ?? '')?.port ?? DEFAULT_BASE_PORT;
}

function localAddress(basePort: number, n: number, shard: number, index: number): string {
  return `127.0.0.1:${basePort + shard * n + index}`;
}

function shapeMismatch(config: ClusterConfig, f: number, shards: number, basePort: number): string | undefined {
  if (config.name !== LOCAL_CLUSTER_NAME) return `it names cluster ${config.name}, not the local cluster`;
  if (config.f !== f) return `it has f = ${config.f}, f = ${f} was asked for`;
  if (config.shards.length !== shards) return `it has ${config.shards.length} shard(s), ${shards} were asked for`;
  const n = quorums(f).n;
  for (const s of config.shards) {
    for (const r of s.replicas) {
      if (r.address !== localAddress(basePort, n, s.id, r.index)) return `replica s${s.id}r${r.index} is at ${r.address}, base port ${basePort} puts it at ${localAddress(basePort, n, s.id, r.index)}`;
    }
  }
  const missing = LOCAL_CLIENT_IDS.find((id) => !config.clients.some((c) => c.id === id));
  if (missing !== undefined) return `it has no client ${missing} for local tools (ids 1 to ${LOCAL_CLIENT_COUNT})`;
  return undefined;
}

/** Why the transport section or the TLS certificates need rewriting (same cluster, same keys), if they do. */
function transportMismatch(config: ClusterConfig, transport: TransportConfig): string | undefined {
  const current = config.transport ?? DEFAULT_TRANSPORT;
  if (current.wire !== transport.wire || current.tls !== transport.tls) return `transport ${current.wire}${current.tls ? '+tls' : ''} -> ${transport.wire}${transport.tls ? '+tls' : ''}`;
  const members = [...config.authorities, ...config.shards.flatMap((s) => s.replicas), ...config.clients];
  if (members.some((m) => m.tlsCertificate === undefined)) return 'issued the TLS certificates it lacked';
  return undefined;
}

async function keyMismatch(config: ClusterConfig, dataDir: string): Promise<string | undefined> {
  const expected: { owner: KeyOwner; publicKey: Uint8Array }[] = [];
  for (const s of config.shards) for (const r of s.replicas) expected.push({ owner: { kind: 'replica', shard: s.id, index: r.index }, publicKey: r.publicKey });
  for (const c of config.clients) if (LOCAL_CLIENT_IDS.includes(c.id)) expected.push({ owner: { kind: 'client', id: c.id }, publicKey: c.publicKey });
  for (const { owner, publicKey } of expected) {
    const path = keyPath(dataDir, owner);
    let keyPair: KeyPair;
    try {
      keyPair = await readKeyFile(path);
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
    if (!Buffer.from(keyPair.publicKey).equals(Buffer.from(publicKey))) return `${path} does not hold the key the configuration names`;
  }
  return undefined;
}

async function generate(dataDir: string, f: number, shardCount: number, basePort: number, transport: TransportConfig): Promise<ClusterConfig> {
  const n = quorums(f).n;
  const authority = (await loadOrCreateKeyFile(keyPath(dataDir, { kind: 'authority' }))).keyPair;
  const issuer = 'local-authority';
  const issue = (r: Omit<ReplicaConfig, 'certificate' | 'issuedBy'>, s: number): ReplicaConfig => ({
    ...r,
    issuedBy: issuer,
    certificate: certifyReplica(authority.secretKey, LOCAL_CLUSTER_NAME, s, r.index, r.publicKey),
    tlsCertificate: certifyMemberTls(authority, LOCAL_CLUSTER_NAME, issuer, { kind: 'replica', shard: s, index: r.index }, r.publicKey),
  });
  const shards = [];
  for (let s = 0; s < shardCount; s++) {
    const replicas: ReplicaConfig[] = [];
    for (let i = 0; i < n; i++) {
      const { keyPair } = await loadOrCreateKeyFile(keyPath(dataDir, { kind: 'replica', shard: s, index: i }));
      replicas.push(issue({ index: replicaIndex(i), address: localAddress(basePort, n, s, i), publicKey: keyPair.publicKey }, s));
    }
    shards.push({ id: shardId(s), replicas });
  }
  const clients = [];
  for (const id of LOCAL_CLIENT_IDS) {
    const { publicKey } = (await loadOrCreateKeyFile(keyPath(dataDir, { kind: 'client', id }))).keyPair;
    const name = localClientName(id);
    clients.push({
      id: clientId(id),
      name,
      publicKey,
      issuedBy: issuer,
      certificate: certifyClient(authority.secretKey, LOCAL_CLUSTER_NAME, id, name, publicKey),
      tlsCertificate: certifyMemberTls(authority, LOCAL_CLUSTER_NAME, issuer, { kind: 'client', id }, publicKey),
    });
  }
  const config: ClusterConfig = {
    name: LOCAL_CLUSTER_NAME,
    f,
    authorities: [{ name: issuer, publicKey: authority.publicKey, tlsCertificate: certifyAuthorityTls(authority, LOCAL_CLUSTER_NAME, issuer) }],
    shards,
    clients,
    timeouts: DEFAULT_TIMEOUTS,
    batching: DEFAULT_BATCHING,
    grace: DEFAULT_GRACE,
    limits: DEFAULT_LIMITS,
    transport,
  };
  const checked = validateClusterConfig(config);
  if (!checked.ok) throw new ConfigFileError(`generated an invalid configuration (${checked.reason}: ${checked.detail ?? ''}); this is a bug`);
  return checked.value;
}

async function writeConfig(configPath: string, config: ClusterConfig): Promise<void> {
  const header = [
    '# Pesto cluster configuration (format: docs/decisions/0004-configuration.md).',
    '# Generated by `pesto start` for a local cluster; secret keys are in keys/ next to this file.',
    '',
  ].join('\n');
  const tmp = `${configPath}.${process.pid}.tmp`;
  await writeFile(tmp, header + renderClusterConfig(config));
  await rename(tmp, configPath);
}

/** Moves the replicas' state of a previous configuration aside (replacing an older `replicas.previous/`). */
async function retireReplicaState(dataDir: string): Promise<void> {
  const current = join(dataDir, 'replicas');
  const previous = join(dataDir, 'replicas.previous');
  if (!(await exists(current))) return;
  await rm(previous, { recursive: true, force: true });
  await rename(current, previous);
  await mkdir(current, { recursive: true });
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
