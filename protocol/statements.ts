/**
 * The exact statements replicas sign (DESIGN §3): each is a 32-byte Merkle leaf, BLAKE3 over a
 * domain tag and fixed-width fields, signed in batches by protocol/crypto/signed.ts.
 *
 * Guarantees:
 * - Distinct, fixed-length domain tags per statement kind (and distinct total input lengths), so an
 *   ST1 vote can never be presented as an ST2 decision or the other way round, and statements of
 *   a future version cannot collide with these.
 * - Fields are fixed width (digest 32 bytes, shard u16 LE, decision 1 byte, view u32 LE), so the
 *   encoding is injective without length prefixes.
 * - Allocation-light: one scratch buffer per statement kind; only the 32-byte leaf is allocated.
 *
 * Caveat: changing a tag or a layout invalidates every stored signature; bump the version suffix.
 */
import { blake3, blake3Into, BLAKE3_BYTES } from './crypto/blake3.ts';
import { pooledBytes } from './pooled.ts';
import { InvariantError } from './errors.ts';
import type { ShardId, TxnDigest } from './ids.ts';
import type { Outcome } from './messages.ts';

const encoder = new TextEncoder();
/** 16-byte tags. */
const VOTE_TAG = encoder.encode('pesto/st1-vote/1');
const ST2_TAG = encoder.encode('pesto/st2-dec/v1');
const ELECT_TAG = encoder.encode('pesto/elect-fb/1');

const DIGEST_AT = 16;
const SHARD_AT = DIGEST_AT + 32;
const DECISION_AT = SHARD_AT + 2;
const VIEW_AT = DECISION_AT + 1;

const voteScratch = new Uint8Array(DECISION_AT + 1);
voteScratch.set(VOTE_TAG, 0);
const st2Scratch = new Uint8Array(VIEW_AT + 4);
st2Scratch.set(ST2_TAG, 0);
const electScratch = new Uint8Array(VIEW_AT + 4);
electScratch.set(ELECT_TAG, 0);

const VOTE_COMMIT = 1;
const VOTE_ABSTAIN = 2;
const ST2_COMMIT = 3;
const ST2_ABORT = 4;

function putCommon(buf: Uint8Array, digest: TxnDigest, shard: ShardId, decision: number): void {
  if (digest.length !== 32) throw new InvariantError(`statement digest of ${digest.length} bytes`);
  buf.set(digest, DIGEST_AT);
  buf[SHARD_AT] = shard & 0xff;
  buf[SHARD_AT + 1] = (shard >>> 8) & 0xff;
  buf[DECISION_AT] = decision;
}

/** Leaf of an ST1 vote by a replica of `shard`. ABORT votes are not signed (they carry a certificate). */
export function voteLeaf(digest: TxnDigest, shard: ShardId, decision: 'commit' | 'abstain'): Uint8Array {
  putCommon(voteScratch, digest, shard, decision === 'commit' ? VOTE_COMMIT : VOTE_ABSTAIN);
  return leafOf(voteScratch);
}

/** Leaf of an ST2 decision logged by a replica of `logShard` at `view`. */
export function st2Leaf(digest: TxnDigest, logShard: ShardId, decision: Outcome, view: number): Uint8Array {
  if (!Number.isInteger(view) || view < 0 || view > 0xffff_ffff) throw new InvariantError(`view out of range: ${view}`);
  putCommon(st2Scratch, digest, logShard, decision === 'commit' ? ST2_COMMIT : ST2_ABORT);
  st2Scratch[VIEW_AT] = view & 0xff;
  st2Scratch[VIEW_AT + 1] = (view >>> 8) & 0xff;
  st2Scratch[VIEW_AT + 2] = (view >>> 16) & 0xff;
  st2Scratch[VIEW_AT + 3] = (view >>> 24) & 0xff;
  return leafOf(st2Scratch);
}

/** A leaf lives until its batch is signed or its vote checked: from Buffer's pool (pooled.ts). */
function leafOf(statement: Uint8Array): Uint8Array {
  const leaf = pooledBytes(BLAKE3_BYTES);
  blake3Into(statement, leaf);
  return leaf;
}

/** Leaf of a replica's elect statement: its current decision for `view` of the fallback (PROTOCOL §7). */
export function electLeaf(digest: TxnDigest, logShard: ShardId, decision: Outcome, view: number): Uint8Array {
  if (!Number.isInteger(view) || view < 0 || view > 0xffff_ffff) throw new InvariantError(`view out of range: ${view}`);
  putCommon(electScratch, digest, logShard, decision === 'commit' ? ST2_COMMIT : ST2_ABORT);
  electScratch[VIEW_AT] = view & 0xff;
  electScratch[VIEW_AT + 1] = (view >>> 8) & 0xff;
  electScratch[VIEW_AT + 2] = (view >>> 16) & 0xff;
  electScratch[VIEW_AT + 3] = (view >>> 24) & 0xff;
  return blake3(electScratch);
}
