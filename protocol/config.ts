/**
 * The cluster configuration: one YAML format that describes a whole Pesto cluster (DESIGN §6), read
 * identically by local runs (`pesto start`) and by the Kubernetes operator's ConfigMap (DESIGN §7).
 *
 * What it guarantees: a `ClusterConfig` returned by `parseClusterConfig` is internally consistent. Every
 * shard has exactly n = 5f+1 replicas with indexes 0..n-1; shard ids are 0..S-1; addresses are valid
 * `host:port` and distinct; every public key (authorities, replicas, clients) is distinct and passes
 * `checkPublicKey` (small-order keys are refused at load, DESIGN §3, because ed25519 libraries disagree on
 * them and disagreement breaks BFT); every replica and client key carries a certificate that verifies
 * against the named trust authority. Nothing downstream needs to re-check these facts.
 *
 * Certificates: an authority signs a canonical, domain-separated encoding of what it vouches for:
 * `(cluster name, shard, index, public key)` for a replica, `(cluster name, client id, client name, public
 * key)` for a client (see `replicaCertificateBytes`). The cluster name is inside, so a certificate issued
 * for one cluster is useless in another that trusts the same authority.
 *
 * Invariants of a parsed config: `shards[s].id === s` and `shards[s].replicas[i].index === i`, so lookups
 * are array indexing. Keys and certificates are bytes (decoded once here); the YAML holds them as hex.
 * Optional sections (`clients`, `timeouts`, `batching`, `grace`, `limits`) default field by field; unknown
 * fields are errors, so a misspelt knob never silently keeps its default.
 *
 * Pure: no file I/O, clocks or randomness. Reading the file and generating keys happen in `cli/`.
 */
import { DEFAULT_CODEC_LIMITS, type CodecLimits } from './codec-txn.ts';
import { parse, stringify } from 'yaml';
import { checkPublicKey, PUBLIC_KEY_BYTES, sign, SIGNATURE_BYTES, verify, type KeyPair, type PublicKey } from './crypto/ed25519.ts';
import { fail, ok, type Result } from './errors.ts';
import { CLIENT_ID_MAX, clientId, replicaIndex, shardId, type ClientId, type ReplicaIndex, type ShardId } from './ids.ts';
import { quorums } from './quorum.ts';
import { authorityTbs, certificateDer, memberTbs, type CertifiedMember } from './x509.ts';
import { DEFAULT_LIMITS, MESSAGE_BYTES_MIN, txnBodyBytesMax, type LimitsConfig } from './limits.ts';

export { DEFAULT_LIMITS, MESSAGE_BYTES_MIN, linkLimitsOf, txnBodyBytesMax, type LimitsConfig } from './limits.ts';

export interface AuthorityConfig {
  readonly name: string;
  readonly publicKey: PublicKey;
  /** Self-signature over `authorityTbs(cluster, name, publicKey)`: this authority as a TLS CA (protocol/x509.ts). */
  readonly tlsCertificate?: Uint8Array;
}

export interface ReplicaConfig {
  readonly index: ReplicaIndex;
  /** `host:port` the replica listens on and peers dial. */
  readonly address: string;
  readonly publicKey: PublicKey;
  /** Name of the authority that signed `certificate`. */
  readonly issuedBy: string;
  /** ed25519 signature by `issuedBy` over `replicaCertificateBytes(cluster, shard, index, publicKey)`. */
  readonly certificate: Uint8Array;
  /** Signature by `issuedBy` over `memberTbs(...)`: this key's TLS certificate (required when `transport.tls`). */
  readonly tlsCertificate?: Uint8Array;
}

export interface ShardConfig {
  readonly id: ShardId;
  /** Invariant: length n = 5f+1 and `replicas[i].index === i`. */
  readonly replicas: readonly ReplicaConfig[];
}

/** An authenticated client (a gateway, a benchmark driver, a tool). Its id is its timestamp tie-breaker. */
export interface ClientConfig {
  readonly id: ClientId;
  readonly name: string;
  readonly publicKey: PublicKey;
  readonly issuedBy: string;
  /** ed25519 signature by `issuedBy` over `clientCertificateBytes(cluster, id, name, publicKey)`. */
  readonly certificate: Uint8Array;
  /** As for replicas. */
  readonly tlsCertificate?: Uint8Array;
}

export interface TimeoutsConfig {
  /** After 3f+1 COMMIT votes, how long the client waits for all n before taking the slow path (0: never waits). */
  readonly fastPathWaitMs: number;
  /** The client resends ST2 when n-f matching replies have not arrived in this time. */
  readonly st2RetryMs: number;
  /** A point or range read asks more replicas when replies have not arrived in this time. */
  readonly readRetryMs: number;
  /** After a replica relays a dependency, the client waits this long before finishing it itself (PROTOCOL §7). */
  readonly dependencyRelayMs: number;
  /** Replicas refuse transaction timestamps further ahead of their own clock than this (PROTOCOL §5 step 1). */
  readonly clockSkewMaxMs: number;
  /** First per-view timeout of the fallback; doubles with each view (PROTOCOL §7). */
  readonly viewChangeMs: number;
  /** Delay before the transport redials a peer whose stream broke. */
  readonly reconnectMs: number;
}

export interface BatchingConfig {
  /** Most messages signed under one Merkle root; an idle signer signs at once (batch of one). */
  readonly signBatchMax: number;
  /** Most bytes coalesced into one stream write to a peer. */
  readonly frameBytesMax: number;
}

/** Write-monotonicity grace periods (PROTOCOL §5 step 2; the prototype's 5 ms and 20 ms). */
export interface GraceConfig {
  readonly monotonicityMs: number;
  readonly nonMonotonicityMs: number;
}


/**
 * The wire between processes (decisions 0003, 0026). Every process of a cluster must use the same
 * wire and TLS setting; `PESTO_TRANSPORT=grpc|tcp` overrides `wire` in one process (measurements).
 */
export interface TransportConfig {
  readonly wire: 'grpc' | 'tcp';
  /**
   * Mutual TLS on every link, with the authorities as CAs and each member's `tlsCertificate`; the
   * ed25519 handshake runs inside it either way. Off: plaintext (local clusters, measurements).
   */
  readonly tls: boolean;
}

export interface ClusterConfig {
  readonly name: string;
  /** Faults tolerated per shard; every shard has n = 5f+1 replicas. */
  readonly f: number;
  readonly authorities: readonly AuthorityConfig[];
  /** Invariant: `shards[s].id === s`. */
  readonly shards: readonly ShardConfig[];
  readonly clients: readonly ClientConfig[];
  readonly timeouts: TimeoutsConfig;
  readonly batching: BatchingConfig;
  readonly grace: GraceConfig;
  readonly limits: LimitsConfig;
  /** Always set by `parseClusterConfig`; a config built in code may leave it out (DEFAULT_TRANSPORT). */
  readonly transport?: TransportConfig;
}

export const DEFAULT_TIMEOUTS: TimeoutsConfig = Object.freeze({
  fastPathWaitMs: 2,
  st2RetryMs: 100,
  readRetryMs: 50,
  dependencyRelayMs: 100,
  clockSkewMaxMs: 2000,
  viewChangeMs: 200,
  reconnectMs: 100,
});

export const DEFAULT_BATCHING: BatchingConfig = Object.freeze({ signBatchMax: 32, frameBytesMax: 1 << 20 });

export const DEFAULT_GRACE: GraceConfig = Object.freeze({ monotonicityMs: 5, nonMonotonicityMs: 20 });

/** TCP framing: cheaper than gRPC per committed transaction in paired kv runs, with or without TLS (decision 0026). */
export const DEFAULT_TRANSPORT: TransportConfig = Object.freeze({ wire: 'tcp', tls: false });


/**
 * Who is at the other end of a channel; the transport authenticates peers by `publicKeyOf`. Plain numbers
 * (branded ids are assignable to them), structurally the same as net/peer-identity.ts's type.
 */
export type PeerIdentity =
  | { readonly kind: 'replica'; readonly shard: number; readonly index: number }
  | { readonly kind: 'client'; readonly id: number };

/** Closed set of reasons a configuration is refused; `detail` names the field and the problem. */
export type ConfigReason =
  | 'bad-yaml'
  | 'bad-field'
  | 'unknown-field'
  | 'bad-shard-ids'
  | 'replica-count'
  | 'duplicate-index'
  | 'bad-address'
  | 'duplicate-address'
  | 'bad-public-key'
  | 'small-order-key'
  | 'duplicate-public-key'
  | 'unknown-authority'
  | 'bad-certificate'
  | 'missing-tls-certificate'
  | 'duplicate-id'
  | 'duplicate-name';

// ---------------------------------------------------------------------------------------------------
// Certificates

const REPLICA_CERT_DOMAIN = 'pesto/replica-certificate/v1';
const CLIENT_CERT_DOMAIN = 'pesto/client-certificate/v1';
const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;

/**
 * The bytes an authority signs to certify a replica key: domain tag, 0x00, u8 length + cluster name
 * (ASCII), u32 big-endian shard, u32 big-endian index, 32-byte public key.
 */
export function replicaCertificateBytes(cluster: string, shard: number, index: number, publicKey: Uint8Array): Uint8Array {
  return concat([ascii(REPLICA_CERT_DOMAIN), [0], lengthPrefixed(cluster), u32(shard), u32(index), publicKey]);
}

/** The bytes an authority signs to certify a client key: like replicas, with the client id and name. */
export function clientCertificateBytes(cluster: string, id: number, name: string, publicKey: Uint8Array): Uint8Array {
  return concat([ascii(CLIENT_CERT_DOMAIN), [0], lengthPrefixed(cluster), u32(id), lengthPrefixed(name), publicKey]);
}

/** Issues a replica certificate with the authority's secret key (ed25519 signing is deterministic). */
export function certifyReplica(authoritySecretKey: Uint8Array, cluster: string, shard: number, index: number, publicKey: Uint8Array): Uint8Array {
  return sign(replicaCertificateBytes(cluster, shard, index, publicKey), authoritySecretKey);
}

export function certifyClient(authoritySecretKey: Uint8Array, cluster: string, id: number, name: string, publicKey: Uint8Array): Uint8Array {
  return sign(clientCertificateBytes(cluster, id, name, publicKey), authoritySecretKey);
}

/** An authority's TLS CA self-signature (`AuthorityConfig.tlsCertificate`). */
export function certifyAuthorityTls(authority: KeyPair, cluster: string, authorityName: string): Uint8Array {
  return sign(authorityTbs(cluster, authorityName, authority.publicKey), authority.secretKey);
}

/** A member's TLS certificate signature (`tlsCertificate` of a replica or client). */
export function certifyMemberTls(authority: KeyPair, cluster: string, authorityName: string, member: CertifiedMember, memberKey: Uint8Array): Uint8Array {
  return sign(memberTbs(cluster, authorityName, authority.publicKey, member, memberKey), authority.secretKey);
}

/**
 * The DER TLS certificates of a cluster, rebuilt from a parsed configuration: every authority's CA
 * certificate, and `self`'s own leaf certificate. Undefined where the configuration has none.
 */
export function tlsCertificatesOf(config: ClusterConfig, self: PeerIdentity): { readonly authorities: readonly Uint8Array[]; readonly own: Uint8Array | undefined } {
  const authorities = config.authorities.flatMap((a) => (a.tlsCertificate === undefined ? [] : [certificateDer(authorityTbs(config.name, a.name, a.publicKey), a.tlsCertificate)]));
  const member = self.kind === 'replica' ? config.shards[self.shard]?.replicas[self.index] : config.clients.find((c) => c.id === self.id);
  const authority = config.authorities.find((a) => a.name === member?.issuedBy);
  const own =
    member?.tlsCertificate === undefined || authority === undefined
      ? undefined
      : certificateDer(memberTbs(config.name, authority.name, authority.publicKey, self, member.publicKey), member.tlsCertificate);
  return { authorities, own };
}

function ascii(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0x7f;
  return out;
}

function lengthPrefixed(s: string): Uint8Array {
  if (!NAME_RE.test(s)) throw new RangeError(`not a valid name for a certificate: ${JSON.stringify(s)}`);
  return concat([[s.length], ascii(s)]);
}

function u32(v: number): Uint8Array {
  if (!Number.isInteger(v) || v < 0 || v > 0xffff_ffff) throw new RangeError(`not a u32: ${v}`);
  return Uint8Array.of(v >>> 24, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff);
}

function concat(parts: readonly (Uint8Array | readonly number[])[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Lookups

/** The public key the transport expects from a peer claiming `identity`, or undefined if none is configured. */
export function publicKeyOf(config: ClusterConfig, identity: PeerIdentity): PublicKey | undefined {
  if (identity.kind === 'replica') return config.shards[identity.shard]?.replicas[identity.index]?.publicKey;
  return config.clients.find((c) => c.id === identity.id)?.publicKey;
}

/** The identity that owns `publicKey`, or undefined (keys are unique in a parsed config). */
export function identityOf(config: ClusterConfig, publicKey: Uint8Array): PeerIdentity | undefined {
  for (const shard of config.shards) {
    for (const r of shard.replicas) if (bytesEqual(r.publicKey, publicKey)) return { kind: 'replica', shard: shard.id, index: r.index };
  }
  const client = config.clients.find((c) => bytesEqual(c.publicKey, publicKey));
  return client === undefined ? undefined : { kind: 'client', id: client.id };
}

export function replicaOf(config: ClusterConfig, shard: number, index: number): ReplicaConfig | undefined {
  return config.shards[shard]?.replicas[index];
}

/** Splits `host:port` (host may be a name, an IPv4 address or a bracketed IPv6 address). */
export function splitAddress(address: string): { readonly host: string; readonly port: number } | undefined {
  const m = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?):([0-9]{1,5})$/.exec(address);
  if (m === null) return undefined;
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return undefined;
  const host = m[1]!;
  return { host: host.startsWith('[') ? host.slice(1, -1) : host, port };
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------------
// Rendering

/** The YAML form of a config (every section written out, defaults included, keys as lowercase hex). */
export function renderClusterConfig(config: ClusterConfig): string {
  const doc = {
    name: config.name,
    f: config.f,
    authorities: config.authorities.map((a) => ({ name: a.name, publicKey: toHex(a.publicKey), ...tlsField(a) })),
    shards: config.shards.map((s) => ({
      id: s.id,
      replicas: s.replicas.map((r) => ({
        index: r.index,
        address: r.address,
        publicKey: toHex(r.publicKey),
        issuedBy: r.issuedBy,
        certificate: toHex(r.certificate),
        ...tlsField(r),
      })),
    })),
    clients: config.clients.map((c) => ({ id: c.id, name: c.name, publicKey: toHex(c.publicKey), issuedBy: c.issuedBy, certificate: toHex(c.certificate), ...tlsField(c) })),
    timeouts: { ...config.timeouts },
    batching: { ...config.batching },
    grace: { ...config.grace },
    limits: { ...config.limits },
    transport: { ...(config.transport ?? DEFAULT_TRANSPORT) },
  };
  return stringify(doc, { lineWidth: 0 });
}

function tlsField(o: { readonly tlsCertificate?: Uint8Array }): { tlsCertificate?: string } {
  return o.tlsCertificate === undefined ? {} : { tlsCertificate: toHex(o.tlsCertificate) };
}

/** Checks a config built in code (by the CLI or the operator) exactly as if it had been loaded. */
export function validateClusterConfig(config: ClusterConfig): Result<ClusterConfig, ConfigReason> {
  return parseClusterConfig(renderClusterConfig(config));
}

const HEX_BYTE: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function toHex(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += HEX_BYTE[b];
  return s;
}

/** Strict hex decoding: even length, [0-9a-fA-F] only; undefined otherwise. */
export function fromHex(hex: string): Uint8Array | undefined {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return undefined;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Parsing and validation

/** Parses and fully validates a cluster configuration. Errors name the offending field. */
export function parseClusterConfig(yamlText: string): Result<ClusterConfig, ConfigReason> {
  let tree: unknown;
  try {
    tree = parse(yamlText, { strict: true, uniqueKeys: true, maxAliasCount: 0 });
  } catch (e) {
    return fail('bad-yaml', e instanceof Error ? e.message : String(e));
  }
  try {
    return ok(readCluster(tree));
  } catch (e) {
    if (e instanceof ConfigProblem) return fail(e.reason, e.message);
    throw e;
  }
}

/** Internal: thrown while reading, turned into a `Result` at the boundary of `parseClusterConfig`. */
class ConfigProblem extends Error {
  constructor(
    readonly reason: ConfigReason,
    message: string,
  ) {
    super(message);
  }
}

function problem(reason: ConfigReason, path: string, message: string): ConfigProblem {
  return new ConfigProblem(reason, path === '' ? message : `${path}: ${message}`);
}

type Obj = Readonly<Record<string, unknown>>;

function object(v: unknown, path: string, fields: readonly string[]): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw problem('bad-field', path, 'expected a mapping');
  for (const k of Object.keys(v)) {
    if (!fields.includes(k)) throw problem('unknown-field', path === '' ? k : `${path}.${k}`, `unknown field (expected one of: ${fields.join(', ')})`);
  }
  return v as Obj;
}

function list(v: unknown, path: string): readonly unknown[] {
  if (!Array.isArray(v)) throw problem('bad-field', path, 'expected a list');
  return v;
}

function required(o: Obj, key: string, path: string): unknown {
  const v = o[key];
  if (v === undefined || v === null) throw problem('bad-field', `${path}${key}`, 'missing');
  return v;
}

function integer(v: unknown, path: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw problem('bad-field', path, `expected an integer in [${min}, ${max}], got ${JSON.stringify(v)}`);
  return v;
}

function name(v: unknown, path: string): string {
  if (typeof v !== 'string' || !NAME_RE.test(v)) {
    throw problem('bad-field', path, `expected a name of 1-63 characters [A-Za-z0-9_.-] starting with a letter or digit, got ${JSON.stringify(v)}`);
  }
  return v;
}

function bytes(v: unknown, path: string, length: number, reason: ConfigReason): Uint8Array {
  const b = typeof v === 'string' ? fromHex(v) : undefined;
  if (b === undefined || b.length !== length) throw problem(reason, path, `expected ${length} bytes as ${2 * length} hex digits`);
  return b;
}

/** Reads a section of non-negative integers, each defaulting to `defaults`. */
function section<T extends object>(v: unknown, path: string, defaults: T, minimum: (key: string) => number): T {
  if (v === undefined || v === null) return { ...defaults };
  const o = object(v, path, Object.keys(defaults));
  const out: Record<string, number> = {};
  for (const [k, d] of Object.entries(defaults)) {
    out[k] = o[k] === undefined ? (d as number) : integer(o[k], `${path}.${k}`, minimum(k), Number.MAX_SAFE_INTEGER);
  }
  return out as T;
}

const ZERO_ALLOWED = new Set(['fastPathWaitMs', 'monotonicityMs', 'nonMonotonicityMs', 'queryRetriesMax']);

function readCluster(tree: unknown): ClusterConfig {
  const o = object(tree, '', ['name', 'f', 'authorities', 'shards', 'clients', 'timeouts', 'batching', 'grace', 'limits', 'transport']);
  const clusterName = name(required(o, 'name', ''), 'name');
  const f = integer(required(o, 'f', ''), 'f', 0, 20);
  const n = quorums(f).n;

  const keys = new KeyRegistry();
  const authorities = new Map<string, AuthorityConfig>();
  list(required(o, 'authorities', ''), 'authorities').forEach((a, i) => {
    const path = `authorities[${i}]`;
    const ao = object(a, path, ['name', 'publicKey', 'tlsCertificate']);
    const authorityName = name(required(ao, 'name', `${path}.`), `${path}.name`);
    const publicKey = keys.add(required(ao, 'publicKey', `${path}.`), `${path}.publicKey`);
    const tls = tlsSignature(ao, path, publicKey, authorityTbs(clusterName, authorityName, publicKey));
    const authority: AuthorityConfig = { name: authorityName, publicKey, ...tls };
    if (authorities.has(authority.name)) throw problem('duplicate-name', `${path}.name`, `authority ${authority.name} is listed twice`);
    authorities.set(authority.name, authority);
  });
  if (authorities.size === 0) throw problem('bad-field', 'authorities', 'at least one trust authority is required');

  const certified = (o2: Obj, path: string, message: Uint8Array): { issuedBy: string; certificate: Uint8Array } => {
    const issuedBy = name(required(o2, 'issuedBy', `${path}.`), `${path}.issuedBy`);
    const authority = authorities.get(issuedBy);
    if (authority === undefined) throw problem('unknown-authority', `${path}.issuedBy`, `no authority named ${issuedBy}`);
    const certificate = bytes(required(o2, 'certificate', `${path}.`), `${path}.certificate`, SIGNATURE_BYTES, 'bad-certificate');
    if (!verify(certificate, message, authority.publicKey)) {
      throw problem('bad-certificate', `${path}.certificate`, `not a valid signature by authority ${issuedBy} over this key and position`);
    }
    return { issuedBy, certificate };
  };
  /** The member's `tlsCertificate`, checked against its issuing authority (absent: {}). */
  const memberTls = (o2: Obj, path: string, issuedBy: string, member: CertifiedMember, publicKey: Uint8Array): { tlsCertificate?: Uint8Array } => {
    const authority = authorities.get(issuedBy)!;
    return tlsSignature(o2, path, authority.publicKey, memberTbs(clusterName, issuedBy, authority.publicKey, member, publicKey));
  };

  const addresses = new Map<string, string>();
  const shardList = list(required(o, 'shards', ''), 'shards');
  if (shardList.length === 0) throw problem('bad-field', 'shards', 'at least one shard is required');
  const shards: ShardConfig[] = [];
  shardList.forEach((s, si) => {
    const path = `shards[${si}]`;
    const so = object(s, path, ['id', 'replicas']);
    const id = integer(required(so, 'id', `${path}.`), `${path}.id`, 0, shardList.length - 1);
    if (shards[id] !== undefined) throw problem('bad-shard-ids', `${path}.id`, `shard ${id} is listed twice (shard ids must be 0..${shardList.length - 1})`);
    const replicaList = list(required(so, 'replicas', `${path}.`), `${path}.replicas`);
    if (replicaList.length !== n) throw problem('replica-count', `${path}.replicas`, `f = ${f} needs n = 5f+1 = ${n} replicas per shard, found ${replicaList.length}`);
    const replicas: ReplicaConfig[] = [];
    replicaList.forEach((r, ri) => {
      const rpath = `${path}.replicas[${ri}]`;
      const ro = object(r, rpath, ['index', 'address', 'publicKey', 'issuedBy', 'certificate', 'tlsCertificate']);
      const index = integer(required(ro, 'index', `${rpath}.`), `${rpath}.index`, 0, Number.MAX_SAFE_INTEGER);
      if (index >= n) throw problem('duplicate-index', `${rpath}.index`, `index ${index} is out of range: indexes must be 0..${n - 1}`);
      if (replicas[index] !== undefined) throw problem('duplicate-index', `${rpath}.index`, `index ${index} is used twice in shard ${id}`);
      const address = required(ro, 'address', `${rpath}.`);
      if (typeof address !== 'string' || splitAddress(address) === undefined) throw problem('bad-address', `${rpath}.address`, `expected host:port, got ${JSON.stringify(address)}`);
      const other = addresses.get(address);
      if (other !== undefined) throw problem('duplicate-address', `${rpath}.address`, `${address} is also the address of ${other}`);
      addresses.set(address, rpath);
      const publicKey = keys.add(required(ro, 'publicKey', `${rpath}.`), `${rpath}.publicKey`);
      const cert = certified(ro, rpath, replicaCertificateBytes(clusterName, id, index, publicKey));
      const tls = memberTls(ro, rpath, cert.issuedBy, { kind: 'replica', shard: id, index }, publicKey);
      replicas[index] = { index: replicaIndex(index), address, publicKey, ...cert, ...tls };
    });
    shards[id] = { id: shardId(id), replicas };
  });

  const clients: ClientConfig[] = [];
  const clientNames = new Set<string>();
  list(o['clients'] ?? [], 'clients').forEach((c, ci) => {
    const path = `clients[${ci}]`;
    const co = object(c, path, ['id', 'name', 'publicKey', 'issuedBy', 'certificate', 'tlsCertificate']);
    const id = integer(required(co, 'id', `${path}.`), `${path}.id`, 1, CLIENT_ID_MAX);
    if (clients.some((x) => x.id === id)) throw problem('duplicate-id', `${path}.id`, `client id ${id} is used twice`);
    const clientName = name(required(co, 'name', `${path}.`), `${path}.name`);
    if (clientNames.has(clientName)) throw problem('duplicate-name', `${path}.name`, `client name ${clientName} is used twice`);
    clientNames.add(clientName);
    const publicKey = keys.add(required(co, 'publicKey', `${path}.`), `${path}.publicKey`);
    const cert = certified(co, path, clientCertificateBytes(clusterName, id, clientName, publicKey));
    const tls = memberTls(co, path, cert.issuedBy, { kind: 'client', id }, publicKey);
    clients.push({ id: clientId(id), name: clientName, publicKey, ...cert, ...tls });
  });

  const timeouts = section(o['timeouts'], 'timeouts', DEFAULT_TIMEOUTS, (k) => (ZERO_ALLOWED.has(k) ? 0 : 1));
  const batching = section(o['batching'], 'batching', DEFAULT_BATCHING, () => 1);
  const grace = section(o['grace'], 'grace', DEFAULT_GRACE, (k) => (ZERO_ALLOWED.has(k) ? 0 : 1));
  const limits = section(o['limits'], 'limits', DEFAULT_LIMITS, (k) => (ZERO_ALLOWED.has(k) ? 0 : 1));
  if (limits.messageBytesMax < MESSAGE_BYTES_MIN) throw problem('bad-field', 'limits.messageBytesMax', `must be at least ${MESSAGE_BYTES_MIN}`);

  const transport = readTransport(o['transport']);
  if (transport.tls) {
    const missing =
      shards.flatMap((s) => s.replicas.filter((r) => r.tlsCertificate === undefined || authorities.get(r.issuedBy)?.tlsCertificate === undefined).map((r) => `replica s${s.id}r${r.index}`))[0] ??
      clients.filter((c) => c.tlsCertificate === undefined || authorities.get(c.issuedBy)?.tlsCertificate === undefined).map((c) => `client ${c.id}`)[0];
    if (missing !== undefined) throw problem('missing-tls-certificate', 'transport.tls', `TLS is on but ${missing} or its authority has no tlsCertificate`);
  }

  return { name: clusterName, f, authorities: [...authorities.values()], shards, clients, timeouts, batching, grace, limits, transport };
}

/** An optional `tlsCertificate`: a signature by `signerKey` over `tbsBytes` (protocol/x509.ts). */
function tlsSignature(o: Obj, path: string, signerKey: Uint8Array, tbsBytes: Uint8Array): { tlsCertificate?: Uint8Array } {
  if (o['tlsCertificate'] === undefined) return {};
  const signature = bytes(o['tlsCertificate'], `${path}.tlsCertificate`, SIGNATURE_BYTES, 'bad-certificate');
  if (!verify(signature, tbsBytes, signerKey)) throw problem('bad-certificate', `${path}.tlsCertificate`, 'not a valid signature by the issuing authority over this TLS certificate');
  return { tlsCertificate: signature };
}

function readTransport(v: unknown): TransportConfig {
  if (v === undefined || v === null) return { ...DEFAULT_TRANSPORT };
  const o = object(v, 'transport', ['wire', 'tls']);
  const wire = o['wire'] ?? DEFAULT_TRANSPORT.wire;
  if (wire !== 'grpc' && wire !== 'tcp') throw problem('bad-field', 'transport.wire', `expected grpc or tcp, got ${JSON.stringify(wire)}`);
  const tls = o['tls'] ?? DEFAULT_TRANSPORT.tls;
  if (typeof tls !== 'boolean') throw problem('bad-field', 'transport.tls', `expected true or false, got ${JSON.stringify(tls)}`);
  return { wire, tls };
}

/** Decodes public keys, refuses weak ones (`checkPublicKey`) and keeps every key in the cluster distinct. */
class KeyRegistry {
  private readonly seen = new Map<string, string>();

  add(v: unknown, path: string): PublicKey {
    const checked = checkPublicKey(bytes(v, path, PUBLIC_KEY_BYTES, 'bad-public-key'));
    if (!checked.ok) {
      if (checked.reason === 'small-order') throw problem('small-order-key', path, 'a small-order ed25519 point (refused: libraries disagree on such keys)');
      throw problem('bad-public-key', path, `not an acceptable ed25519 public key (${checked.reason})`);
    }
    const key = checked.value;
    const hex = toHex(key);
    const other = this.seen.get(hex);
    if (other !== undefined) throw problem('duplicate-public-key', path, `same key as ${other}`);
    this.seen.set(hex, path);
    return key;
  }
}

/** Codec limits from the configuration: shard and replica ids in range, the configured message size. */
export function codecLimitsOf(config: ClusterConfig): CodecLimits {
  return {
    ...DEFAULT_CODEC_LIMITS,
    messageBytesMax: config.limits.messageBytesMax,
    // A value (a row, the catalog) may take what a transaction body may: 16 MiB by default.
    valueBytesMax: txnBodyBytesMax(config.limits),
    entriesMax: config.limits.txnKeysMax,
    shardCount: config.shards.length,
    replicasPerShard: 5 * config.f + 1,
  };
}
