/**
 * Identifiers that must never be swapped are branded types, each with one validating
 * constructor (STYLE.md "Types and data").
 */
declare const brand: unique symbol;
type Brand<T, B extends string> = T & { readonly [brand]: B };

/** A shard, 0-based. */
export type ShardId = Brand<number, 'ShardId'>;
/** A replica's index inside its shard, 0..n-1. */
export type ReplicaIndex = Brand<number, 'ReplicaIndex'>;
/** A client process (or gateway) identity; also the tie-breaker of its timestamps. */
export type ClientId = Brand<number, 'ClientId'>;
/** BLAKE3 digest of a transaction's encoded bytes (32 bytes). */
export type TxnDigest = Brand<Uint8Array, 'TxnDigest'>;
/** Hex form of a digest, for map keys and logs. */
export type DigestKey = Brand<string, 'DigestKey'>;

export const DIGEST_BYTES = 32;
/** Client ids fit in 2^32 so they encode compactly. */
export const CLIENT_ID_MAX = 0xffff_ffff;

function checkIndex(v: number, max: number, what: string): void {
  if (!Number.isInteger(v) || v < 0 || v > max) throw new RangeError(`${what} out of range: ${v}`);
}

export function shardId(v: number): ShardId {
  checkIndex(v, 0xffff, 'shard id');
  return v as ShardId;
}

export function replicaIndex(v: number): ReplicaIndex {
  checkIndex(v, 0xffff, 'replica index');
  return v as ReplicaIndex;
}

export function clientId(v: number): ClientId {
  checkIndex(v, CLIENT_ID_MAX, 'client id');
  return v as ClientId;
}

export function txnDigest(bytes: Uint8Array): TxnDigest {
  if (bytes.length !== DIGEST_BYTES) throw new RangeError(`digest must be ${DIGEST_BYTES} bytes, got ${bytes.length}`);
  return bytes as TxnDigest;
}

export function isDigest(bytes: Uint8Array | undefined): bytes is TxnDigest {
  return bytes !== undefined && bytes.length === DIGEST_BYTES;
}

/**
 * Hex of a digest. Node's hex encoder gives one flat string (a `+=` loop built a rope of some 25
 * string objects per key, kept alive as long as the key, i.e. for every transaction a replica keeps).
 */
export function digestKey(d: TxnDigest): DigestKey {
  return Buffer.from(d.buffer, d.byteOffset, d.length).toString('hex') as DigestKey;
}

export function digestFromKey(k: DigestKey): TxnDigest {
  return Uint8Array.from(Buffer.from(k, 'hex')) as TxnDigest;
}

/** A replica named globally: shard and index. */
export interface ReplicaRef {
  readonly shard: ShardId;
  readonly index: ReplicaIndex;
}

export function replicaName(r: ReplicaRef): string {
  return `s${r.shard}r${r.index}`;
}
