/**
 * The wire codec (DESIGN §3): typed `Message`s to `Envelope` bytes and back, through the protobufjs
 * static code in gen/. This is the boundary where a shell refuses bad bytes before a core sees them.
 *
 * Guarantees of `decodeMessage` (never throws; failures are a closed `DecodeReason` that metrics count):
 * - structure: every required sub-message is present; digests are 32 bytes, root signatures 64,
 *   Merkle paths a multiple of 32 bytes and at most 32 levels; shard ids and signer indexes are in
 *   range (`CodecLimits`); keys, values and entry counts are within limits; timestamps are valid;
 * - decisions fit their place: a VoteCert says commit or abstain, an ST2 (and Decide, DecideReply)
 *   commit or abort, a CommittedTxn's certificate says commit;
 * - a PrepareReply carries exactly one of: `sig` (commit or abstain), `conflict` (abort), `decided`;
 * - embedded transactions travel as bytes and are decoded with `txnIn`, so every digest is over the
 *   received bytes; a Decide, Writeback or PrepareReply.decided whose embedded transaction hashes to
 *   another digest than the message names is 'digest-mismatch'.
 *
 * Not checked here (it needs keys or configuration the codec does not have): signatures, quorum
 * counts, shard membership of signers, ST1 justification. protocol/certificate.ts does those.
 *
 * Performance: one protobufjs decode, then one pass that builds the typed objects; byte fields are
 * views of the input buffer (no copies), so a decoded message pins its input while it lives.
 */
import { pesto } from './gen/pesto.js';
import { checkTxnDigest, committedIn, committedOut, EMPTY, outcomeIn, outcomeOut, sigIn, sigOut, sigsIn, sigsOut, voteCertIn, voteCertOut, voteDecisionIn, voteDecisionOut, writebackIn, writebackOut } from './codec-cert.ts';
import { fastDecode, fastDecodeQuery, fastDecodeQueryReply, fastEncode, fastEncodeQueryReply } from './codec-fast.ts';
import { slottingVectors } from './codec-fast-cert.ts';
import { MAC_SLOT_BYTES, writeSlot } from './crypto/mac.ts';
import { QUERY_SQL_CHARS_MAX, QUERY_TIME_ZONE_CHARS_MAX, replyBodyDigest } from './codec-query.ts';

export { QUERY_SQL_CHARS_MAX };
import { BLAKE3_BYTES } from './crypto/blake3.ts';
import { assertNever, ok, type Result } from './errors.ts';
import type { TxnDigest } from './ids.ts';
import {
  DEFAULT_CODEC_LIMITS,
  type CodecLimits,
  type DecodeReason,
  bytesIn,
  countIn,
  depsIn,
  depsOut,
  digestIn,
  failureOf,
  keyIn,
  keyToBytes,
  predicatesIn,
  predicatesOut,
  readsIn,
  readsOut,
  reject,
  shardIn,
  tsIn,
  tsOut,
  txnIn,
  valueIn,
  writesIn,
  writesOut,
} from './codec-txn.ts';
import type { CommittedRead, CommittedTxn, FetchReply, Message, Query, QueryReply, SnapshotEntry, PreparedRead, SigProof, Txn, VoteCert, Writeback } from './messages.ts';

export { DEFAULT_CODEC_LIMITS, decodeTxn, encodeTxn, keyFromBytes, keyToBytes } from './codec-txn.ts';
export type { CodecLimits, DecodeReason } from './codec-txn.ts';

export { MERKLE_PATH_LEVELS_MAX, SIGNATURE_BYTES } from './codec-cert.ts';

// ---- messages ----

function readReplyIn(p: pesto.ReadReply.$Properties, limits: CodecLimits): Message {
  let committed: CommittedRead | null = null;
  if (p.committedVersion !== null && p.committedVersion !== undefined) {
    const digest = digestIn(p.committedDigest, 'committed digest');
    const hasProof = p.committedProof !== null && p.committedProof !== undefined;
    const proof = hasProof ? committedIn(p.committedProof, limits) : null;
    if (proof !== null && !bytesEqual(proof.txn.digest, digest)) reject('digest-mismatch', 'committed proof');
    committed = { version: tsIn(p.committedVersion, 'committed version'), value: valueIn(p.committedValue, p.committedDeleted, limits), digest, proof };
  } else if (p.committedProof !== null && p.committedProof !== undefined) {
    reject('unexpected-field', 'committed proof without a version');
  }
  let prepared: PreparedRead | null = null;
  if (p.preparedVersion !== null && p.preparedVersion !== undefined) {
    prepared = {
      version: tsIn(p.preparedVersion, 'prepared version'),
      value: valueIn(p.preparedValue, p.preparedDeleted, limits),
      digest: digestIn(p.preparedDigest, 'prepared digest'),
    };
  }
  return { kind: 'readReply', req: p.req ?? 0, key: keyIn(p.key, limits), committed, prepared };
}

function prepareReplyIn(p: pesto.PrepareReply.$Properties, limits: CodecLimits): Message {
  const digest = digestIn(p.digest, 'prepare reply digest');
  const decision = voteDecisionIn(p.decision);
  const hasSig = p.sig !== null && p.sig !== undefined;
  const hasConflict = p.conflict !== null && p.conflict !== undefined;
  let sig: SigProof | null = null;
  let conflict: CommittedTxn | null = null;
  let decided: Writeback | null = null;
  if (p.decided !== null && p.decided !== undefined) {
    if (hasSig || hasConflict) reject('unexpected-field', 'decided prepare reply with a vote');
    decided = writebackIn(p.decided, limits);
    if (!bytesEqual(decided.digest, digest)) reject('digest-mismatch', 'decided writeback');
  } else if (decision === 'abort') {
    if (hasSig) reject('unexpected-field', 'abort vote with a signature');
    conflict = committedIn(p.conflict, limits);
  } else {
    if (hasConflict) reject('unexpected-field', `${decision} vote with a conflict`);
    sig = sigIn(p.sig, limits);
  }
  let conflictPrepared: Txn | null = null;
  if (p.conflictPrepared !== null && p.conflictPrepared !== undefined && p.conflictPrepared.length > 0) {
    if (decision !== 'abstain' || decided !== null) reject('unexpected-field', 'conflicting prepared transaction without an abstain vote');
    conflictPrepared = txnIn(p.conflictPrepared, limits);
  }
  return { kind: 'prepareReply', req: p.req ?? 0, digest, shard: shardIn(p.shard, limits), decision, sig, conflict, decided, conflictPrepared };
}

function decideIn(p: pesto.Decide.$Properties, limits: CodecLimits): Message {
  const digest = digestIn(p.digest, 'decide digest');
  const decision = outcomeIn(p.decision);
  const justification = voteCertIn(p.justification, limits);
  const txn = txnIn(p.txn, limits);
  checkTxnDigest(txn, digest, 'decide txn');
  return { kind: 'decide', req: p.req ?? 0, digest, decision, view: p.view ?? 0, logShard: shardIn(p.logShard, limits), justification, txn };
}

/** An ST2 reply and a fallback elect share one wire shape: a signed (decision, view) of the log shard. */
function signedDecisionIn<K extends 'decideReply' | 'electReply'>(kind: K, p: pesto.DecideReply.$Properties, limits: CodecLimits): Message {
  return {
    kind,
    req: p.req ?? 0,
    digest: digestIn(p.digest, `${kind} digest`),
    decision: outcomeIn(p.decision),
    view: p.view ?? 0,
    logShard: shardIn(p.logShard, limits),
    sig: sigIn(p.sig, limits),
  } as Message;
}


function digestsIn(a: Uint8Array[] | null | undefined, limits: CodecLimits, what: string): TxnDigest[] {
  return countIn(a, limits, what).map((d) => digestIn(d, what));
}

function queryIn(p: pesto.Query.$Properties, limits: CodecLimits): Query {
  const sql = p.sql ?? '';
  if (sql.length === 0) reject('missing-field', 'query sql');
  if (sql.length > QUERY_SQL_CHARS_MAX) reject('too-large', 'query sql');
  const snapshot: SnapshotEntry[] = countIn(p.snapshot, limits, 'snapshot').map((e) => {
    const holders = countIn(e.holders, limits, 'snapshot holders');
    for (const h of holders) if (h >= limits.replicasPerShard) reject('bad-signer', `snapshot holder ${h}`);
    return { digest: digestIn(e.digest, 'snapshot digest'), holders };
  });
  const retry = p.retry ?? 0;
  if (retry === 0 && snapshot.length > 0) reject('unexpected-field', 'snapshot in an eager query');
  return {
    kind: 'query',
    req: p.req ?? 0,
    ts: tsIn(p.ts, 'query ts'),
    sql,
    params: p.params === null || p.params === undefined ? new Uint8Array(0) : bytesIn(p.params, limits, 'query params'),
    ownWrites: writesIn(p.ownWrites, limits, 'own writes'),
    recon: p.recon ?? false,
    retry,
    snapshot,
    ...(p.digestOnly === true ? { digestOnly: true } : {}),
    ...(p.timeZone !== null && p.timeZone !== undefined && p.timeZone !== '' ? { timeZone: timeZoneIn(p.timeZone) } : {}),
  };
}

/** A query's TimeZone setting: a short name (zone names are under 40 characters; POSIX ones a little longer). */
function timeZoneIn(z: string): string {
  if (z.length > QUERY_TIME_ZONE_CHARS_MAX) reject('too-large', 'query time zone');
  return z;
}

function queryReplyIn(p: pesto.QueryReply.$Properties, limits: CodecLimits): QueryReply {
  const result = p.result;
  const bodyDigest = p.bodyDigest;
  const base = {
    kind: 'queryReply',
    req: p.req ?? 0,
    retry: p.retry ?? 0,
    predicates: predicatesIn(p.predicates, limits),
    deps: depsIn(p.deps, limits),
    snapshotCommitted: digestsIn(p.snapshotCommitted, limits, 'snapshot committed'),
    snapshotPrepared: digestsIn(p.snapshotPrepared, limits, 'snapshot prepared'),
  } as const;
  // A digest-only reply (decision 0027) carries its body's digest and neither result nor read set.
  if (bodyDigest !== null && bodyDigest !== undefined && bodyDigest.length > 0) {
    if (bodyDigest.length !== BLAKE3_BYTES) return reject('bad-digest', 'query body digest');
    if ((result !== null && result !== undefined && result.length > 0) || (p.reads?.length ?? 0) > 0) return reject('unexpected-field', 'query result beside its digest');
    return { ...base, result: EMPTY, reads: [], digestOnly: true, bodyDigest };
  }
  if (result === null || result === undefined || result.length === 0) return reject('missing-field', 'query result');
  return { ...base, result, reads: readsIn(p.reads, limits) };
}

function fetchReplyIn(p: pesto.FetchReply.$Properties, limits: CodecLimits): FetchReply {
  const decided = countIn(p.decided, limits, 'fetched decided').map((w) => {
    const wb = writebackIn(w, limits);
    if (wb.txn === null) reject('missing-field', 'fetched writeback without its transaction');
    return wb;
  });
  const prepared = countIn(p.prepared, limits, 'fetched prepared').map((b) => txnIn(b, limits));
  return { kind: 'fetchReply', req: p.req ?? 0, decided, prepared };
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function envelopeIn(e: pesto.Envelope, limits: CodecLimits): Message {
  switch (e.body) {
    case 'read': {
      const p = e.read!;
      return { kind: 'read', req: p.req ?? 0, key: keyIn(p.key, limits), ts: tsIn(p.ts, 'read ts'), proof: p.proof ?? false };
    }
    case 'readReply':
      return readReplyIn(e.readReply!, limits);
    case 'prepare': {
      const p = e.prepare!;
      return { kind: 'prepare', req: p.req ?? 0, txn: txnIn(p.txn, limits) };
    }
    case 'prepareReply':
      return prepareReplyIn(e.prepareReply!, limits);
    case 'decide':
      return decideIn(e.decide!, limits);
    case 'decideReply':
      return signedDecisionIn('decideReply', e.decideReply!, limits);
    case 'writeback':
      return writebackIn(e.writeback, limits);
    case 'relay': {
      const p = e.relay!;
      return { kind: 'relay', req: p.req ?? 0, waitingDigest: digestIn(p.waitingDigest, 'waiting digest'), txn: txnIn(p.txn, limits) };
    }
    case 'elect': {
      const p = e.elect!;
      if (p.decide === null || p.decide === undefined) return reject('missing-field', 'elect without its decide');
      const decide = decideIn(p.decide, limits);
      if (decide.kind !== 'decide') return reject('malformed', 'elect');
      return { kind: 'elect', req: p.req ?? 0, view: p.view ?? 0, decide };
    }
    case 'electReply':
      return signedDecisionIn('electReply', e.electReply!, limits);
    case 'decisionFb': {
      const p = e.decisionFb!;
      const digest = digestIn(p.digest, 'decision digest');
      const txn = txnIn(p.txn, limits);
      checkTxnDigest(txn, digest, 'decision txn');
      return { kind: 'decisionFb', req: p.req ?? 0, digest, decision: outcomeIn(p.decision), view: p.view ?? 0, logShard: shardIn(p.logShard, limits), elects: sigsIn(p.elects, limits), txn };
    }
    case 'query':
      return queryIn(e.query!, limits);
    case 'queryReply':
      return queryReplyIn(e.queryReply!, limits);
    case 'fetch': {
      const p = e.fetch!;
      return { kind: 'fetch', req: p.req ?? 0, digests: digestsIn(p.digests, limits, 'fetch digests') };
    }
    case 'fetchReply':
      return fetchReplyIn(e.fetchReply!, limits);
    case undefined:
      return reject('unknown-kind', 'envelope without a known body');
    default:
      return assertNever(e.body, 'envelope body');
  }
}

/**
 * The bytes decoded writebacks came in: encoding one again (to log it, to pass it on) returns them
 * instead of re-encoding its certificate. Valid because decoded messages are never mutated and byte
 * fields are views of those same bytes.
 */
const received = new WeakMap<Message, Uint8Array>();

/**
 * A writeback that carries its own encoding under this key (a `StoredWriteback` over the bytes it was
 * built from): `encodeMessage` returns them. A field, not an entry of `received`: a replica keeps a
 * stored writeback per committed transaction, and a WeakMap entry (an ephemeron) for each of them is
 * work for every collection.
 */
export const ENCODING: unique symbol = Symbol('encoding');

/** A writeback with its encoding attached (see `ENCODING`); only for bytes that decode to exactly it. */
export interface EncodedWriteback extends Writeback {
  readonly [ENCODING]: Uint8Array;
}

/** Decodes and validates one envelope. Never throws. */
export function decodeMessage(bytes: Uint8Array, limits: CodecLimits = DEFAULT_CODEC_LIMITS): Result<Message, DecodeReason> {
  if (bytes.length > limits.messageBytesMax) return { ok: false, reason: 'too-large' };
  try {
    // The commit path's messages the hand-written way (codec-fast.ts); anything it does not take, generically.
    const m = fastDecode(bytes, limits) ?? fastDecodeQueryReply(bytes, limits) ?? fastDecodeQuery(bytes, limits) ?? envelopeIn(pesto.Envelope.decode(bytes), limits);
    if (m.kind === 'writeback') received.set(m, bytes);
    return ok(m);
  } catch (e) {
    return failureOf(e);
  }
}

function envelopeOut(m: Message): pesto.Envelope.$Properties {
  switch (m.kind) {
    case 'read':
      return { read: m.proof ? { req: m.req, key: keyToBytes(m.key), ts: tsOut(m.ts), proof: true } : { req: m.req, key: keyToBytes(m.key), ts: tsOut(m.ts) } };
    case 'readReply': {
      const p: pesto.ReadReply.$Properties = { req: m.req, key: keyToBytes(m.key) };
      if (m.committed !== null) {
        p.committedVersion = tsOut(m.committed.version);
        if (m.committed.value === null) p.committedDeleted = true;
        else p.committedValue = m.committed.value;
        p.committedDigest = m.committed.digest;
        if (m.committed.proof !== null) p.committedProof = committedOut(m.committed.proof);
      }
      if (m.prepared !== null) {
        p.preparedVersion = tsOut(m.prepared.version);
        if (m.prepared.value === null) p.preparedDeleted = true;
        else p.preparedValue = m.prepared.value;
        p.preparedDigest = m.prepared.digest;
      }
      return { readReply: p };
    }
    case 'prepare':
      return { prepare: { req: m.req, txn: m.txn.bytes } };
    case 'prepareReply': {
      const p: pesto.PrepareReply.$Properties = { req: m.req, digest: m.digest, shard: m.shard, decision: voteDecisionOut(m.decision) };
      if (m.sig !== null) p.sig = sigOut(m.sig);
      if (m.conflict !== null) p.conflict = committedOut(m.conflict);
      if (m.decided !== null) p.decided = writebackOut(m.decided);
      if (m.conflictPrepared !== null) p.conflictPrepared = m.conflictPrepared.bytes;
      return { prepareReply: p };
    }
    case 'decide':
      return {
        decide: {
          req: m.req,
          digest: m.digest,
          decision: outcomeOut(m.decision),
          view: m.view,
          logShard: m.logShard,
          justification: voteCertOut(m.justification),
          txn: m.txn.bytes,
        },
      };
    case 'decideReply':
      return {
        decideReply: { req: m.req, digest: m.digest, decision: outcomeOut(m.decision), view: m.view, logShard: m.logShard, sig: sigOut(m.sig) },
      };
    case 'writeback':
      return { writeback: writebackOut(m) };
    case 'relay':
      return { relay: { req: m.req, waitingDigest: m.waitingDigest, txn: m.txn.bytes } };
    case 'elect':
      return { elect: { req: m.req, view: m.view, decide: envelopeOut(m.decide).decide! } };
    case 'electReply':
      return { electReply: { req: m.req, digest: m.digest, decision: outcomeOut(m.decision), view: m.view, logShard: m.logShard, sig: sigOut(m.sig) } };
    case 'decisionFb':
      return {
        decisionFb: { req: m.req, digest: m.digest, decision: outcomeOut(m.decision), view: m.view, logShard: m.logShard, elects: sigsOut(m.elects), txn: m.txn.bytes },
      };
    case 'query':
      return {
        query: {
          req: m.req,
          ts: tsOut(m.ts),
          sql: m.sql,
          params: m.params,
          ownWrites: writesOut(m.ownWrites),
          recon: m.recon,
          retry: m.retry,
          snapshot: m.snapshot.map((e) => ({ digest: e.digest, holders: e.holders as number[] })),
          ...(m.timeZone === undefined ? {} : { timeZone: m.timeZone }),
          digestOnly: m.digestOnly === true,
        },
      };
    case 'queryReply': {
      const bodyDigest = replyBodyDigest(m);
      return {
        queryReply: {
          req: m.req,
          retry: m.retry,
          result: bodyDigest === null ? m.result : EMPTY,
          reads: bodyDigest === null ? readsOut(m.reads) : [],
          predicates: predicatesOut(m.predicates),
          deps: depsOut(m.deps),
          snapshotCommitted: [...m.snapshotCommitted],
          snapshotPrepared: [...m.snapshotPrepared],
          ...(bodyDigest === null ? {} : { bodyDigest }),
        },
      };
    }
    case 'fetch':
      return { fetch: { req: m.req, digests: [...m.digests] } };
    case 'fetchReply':
      return { fetchReply: { req: m.req, decided: m.decided.map(writebackOut), prepared: m.prepared.map((t) => t.bytes) } };
    default:
      return assertNever(m, 'message');
  }
}

/** The generic decoder alone (protobufjs, then the checks above): the reference codec-fast.test.ts compares against. */
export function decodeGeneric(bytes: Uint8Array, limits: CodecLimits = DEFAULT_CODEC_LIMITS): Result<Message, DecodeReason> {
  try {
    return ok(envelopeIn(pesto.Envelope.decode(bytes), limits));
  } catch (e) {
    return failureOf(e);
  }
}

/** The generic encoder alone (protobufjs). */
export function encodeGeneric(m: Message): Uint8Array {
  return pesto.Envelope.encode(envelopeOut(m)).finish();
}

/**
 * The values made for the last two keys (by identity): what one drain of a shell sends to several
 * peers is one message, or the two variants of a writeback (with and without its transaction)
 * interleaved. Not a Map: a shell drains effects many times per transaction, and clearing a Map
 * allocates a new table each time.
 */
class LastTwo<K extends object, V> {
  #a: K | null = null;
  #aValue: V | undefined = undefined;
  #b: K | null = null;
  #bValue: V | undefined = undefined;

  get(k: K, make: (k: K) => V): V {
    if (k === this.#a) return this.#aValue as V;
    if (k === this.#b) return this.#bValue as V;
    const v = make(k);
    this.#b = this.#a;
    this.#bValue = this.#aValue;
    this.#a = k;
    this.#aValue = v;
    return v;
  }

  clear(): void {
    this.#a = this.#b = null;
    this.#aValue = this.#bValue = undefined;
  }
}

/**
 * Encodes the messages of one fan-out once each (`LastTwo`); a writeback whose certificate carries
 * full MAC vectors once as a template, copied per replica (`SlottedWriteback`). `reset()` between drains.
 */
export class EncodeMemo {
  readonly #bytes = new LastTwo<Message, Uint8Array>();
  readonly #slotted = new LastTwo<Writeback, SlottedWriteback | null>();

  /**
   * `m`'s encoding; with `forReplica` (the recipient's index in its shard), a writeback whose
   * certificate carries full MAC vectors gets only that replica's slots.
   */
  encode(m: Message, forReplica = -1): Uint8Array {
    // A slot names its replica in one byte (crypto/mac.ts); vectors have at most 256 slots (the codecs).
    if (forReplica >= 0 && forReplica <= 0xff && m.kind === 'writeback') {
      const slotted = this.#slotted.get(m, SlottedWriteback.of);
      if (slotted !== null) return slotted.forReplica(forReplica);
    }
    return this.#bytes.get(m, encodeMessage);
  }

  /** Forgets the messages (so they need not outlive the drain). */
  reset(): void {
    this.#bytes.clear();
    this.#slotted.clear();
  }
}

function hasFullVector(votes: VoteCert): boolean {
  for (const g of votes.shards) for (const s of g.sigs) if (s.macs !== undefined && s.macs.length > MAC_SLOT_BYTES) return true;
  return false;
}

/**
 * A client's writeback as each replica receives it (decision 0058): every vote of its certificate
 * with only the recipient's MAC slot (crypto/mac.ts) instead of the signer's full vector, 79 bytes
 * less per vote, about a fifth of the writeback that every replica receives, logs and keeps. Encoded
 * once with a slot's room for each vector (`slottingVectors`); each replica's bytes are a copy with
 * its slots written in. A replica of another shard gets the same index's slot of these votes, which
 * it never checks (MACs are per shard).
 */
export class SlottedWriteback {
  private constructor(
    readonly template: Uint8Array,
    readonly offsets: readonly number[],
    readonly vectors: readonly Uint8Array[],
  ) {}

  /** The template of `m`, or null when it has nothing to trim (already encoded, or no full MAC vector). */
  static of(this: void, m: Writeback): SlottedWriteback | null {
    if (m.cert.kind !== 'votes' || (m as Partial<EncodedWriteback>)[ENCODING] !== undefined || received.has(m) || !hasFullVector(m.cert.votes)) return null;
    const { value, offsets, vectors } = slottingVectors(() => encodeMessage(m));
    return new SlottedWriteback(value, offsets, vectors);
  }

  /** The bytes replica `index` (of any shard) receives: a copy of the template with its slots. */
  forReplica(index: number): Uint8Array {
    const out = Buffer.allocUnsafe(this.template.length);
    out.set(this.template);
    for (let k = 0; k < this.offsets.length; k++) writeSlot(this.vectors[k]!, index, out, this.offsets[k]!);
    return out;
  }
}

/** Encodes one message as an `Envelope`. Embedded transactions are copied as their original bytes. */
export function encodeMessage(m: Message): Uint8Array {
  if (m.kind === 'writeback') {
    const bytes = (m as Partial<EncodedWriteback>)[ENCODING] ?? received.get(m);
    if (bytes !== undefined) return bytes;
  }
  if (m.kind === 'queryReply') return fastEncodeQueryReply(m);
  return fastEncode(m) ?? pesto.Envelope.encode(envelopeOut(m)).finish();
}
