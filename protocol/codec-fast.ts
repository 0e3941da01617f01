/**
 * Hand-written encoders and decoders for the messages of the commit path (point reads, ST1 and its
 * votes, writebacks, transaction bodies), in the exact wire format of pesto.proto (decision 0011).
 * protobufjs builds an object per field and codec.ts then builds our typed objects from those; this
 * goes from bytes to typed objects (and back) in one pass.
 *
 * Contract with codec.ts, which stays the only entry point:
 * - `fastDecode` returns a message only for input it fully understands and that passes every check
 *   the generic path runs (codec.ts, codec-txn.ts); on anything else (an unknown or repeated field, an
 *   unexpected wire type, a non-minimal varint, any failed check) it returns undefined and the caller
 *   decodes the generic way, which then produces its usual result or refusal reason. So on input it
 *   accepts, it returns what the generic path would return, and it never accepts what that path refuses.
 * - `fastEncode` returns the bytes protobufjs would produce (fields in number order, proto3 defaults
 *   left out), or undefined for kinds it does not handle.
 * codec-fast.test.ts checks both against protobufjs on generated messages and on every refusal case.
 */
import { blake3 } from './crypto/blake3.ts';
import { MAC_BYTES } from './crypto/mac.ts';
import { DEFAULT_CODEC_LIMITS, keyFromBytes, type CodecLimits } from './codec-txn.ts';
import { DIGEST_BYTES, digestKey, type ShardId, type TxnDigest } from './ids.ts';
import type {
  Certificate,
  CommittedRead,
  CommittedTxn,
  Dependency,
  Message,
  Outcome,
  Predicate,
  PreparedRead,
  ReadEntry,
  ShardSigs,
  SigProof,
  St2Cert,
  Txn,
  TxnBody,
  VoteCert,
  VoteDecision,
  WriteEntry,
  Writeback,
} from './messages.ts';
import type { Timestamp } from './timestamp.ts';

const SIGNATURE_BYTES = 64;
const NODE_BYTES = 32;
const PATH_LEVELS_MAX = 32;
/** Byte fields absent on the wire decode to these (codec.ts and codec-txn.ts use equal empty arrays). */
const EMPTY = new Uint8Array(0);

/** Thrown inside the fast decoder: hand the input to the generic path. */
class Bail {}
const BAIL = new Bail();
function bail(): never {
  throw BAIL;
}

// ---- reading ----

const f64 = new Float64Array(1);
const f64b = new Uint8Array(f64.buffer);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** A cursor over one message: `end` bounds the current (sub)message. */
class Reader {
  pos = 0;
  end: number;
  constructor(
    readonly buf: Uint8Array,
    readonly limits: CodecLimits,
  ) {
    this.end = buf.length;
  }

  /** A minimal varint of at most 32 bits (anything longer goes to the generic path). */
  uint32(): number {
    const buf = this.buf;
    let p = this.pos;
    if (p >= this.end) bail();
    let b = buf[p++]!;
    let v = b & 0x7f;
    if (b < 0x80) {
      this.pos = p;
      return v;
    }
    for (let shift = 7; shift < 28; shift += 7) {
      if (p >= this.end) bail();
      b = buf[p++]!;
      v |= (b & 0x7f) << shift;
      if (b < 0x80) {
        if (b === 0) bail();
        this.pos = p;
        return v >>> 0;
      }
    }
    if (p >= this.end) bail();
    b = buf[p++]!;
    if (b > 0x0f || b === 0) bail();
    this.pos = p;
    return (v | (b << 28)) >>> 0;
  }

  bool(): boolean {
    const v = this.uint32();
    if (v > 1) bail();
    return v === 1;
  }

  double(): number {
    const p = this.pos;
    if (p + 8 > this.end || !LITTLE_ENDIAN) bail();
    const buf = this.buf;
    for (let i = 0; i < 8; i++) f64b[i] = buf[p + i]!;
    this.pos = p + 8;
    return f64[0]!;
  }

  /** Length of a length-delimited field; the field runs from `pos` to the returned end. */
  delimited(): number {
    const len = this.uint32();
    const end = this.pos + len;
    if (end > this.end) bail();
    return end;
  }

  bytes(): Uint8Array {
    const end = this.delimited();
    const out = this.buf.subarray(this.pos, end);
    this.pos = end;
    return out;
  }
}

/** A tag; only wire types 0 (varint), 1 (fixed64) and 2 (length-delimited) are expected here. */
function tagOf(r: Reader): number {
  const tag = r.uint32();
  if (tag < 8) bail();
  return tag;
}

function skip(r: Reader, tag: number): void {
  switch (tag & 7) {
    case 0:
      r.uint32();
      return;
    case 1:
      if (r.pos + 8 > r.end) bail();
      r.pos += 8;
      return;
    case 2:
      r.pos = r.delimited();
      return;
    case 5:
      if (r.pos + 4 > r.end) bail();
      r.pos += 4;
      return;
    default:
      bail();
  }
}

/** Runs `field` for each field of a sub-message starting here (its length prefix first). */
function sub<T>(r: Reader, read: (r: Reader) => T): T {
  const end = r.delimited();
  const outer = r.end;
  r.end = end;
  const v = read(r);
  if (r.pos !== end) bail();
  r.end = outer;
  return v;
}

function validTs(micros: number, client: number): Timestamp {
  if (!Number.isSafeInteger(micros) || micros < 0) bail();
  return { micros, clientId: client };
}

function tsIn(r: Reader): Timestamp {
  let micros = 0;
  let client = 0;
  let seen = 0;
  while (r.pos < r.end) {
    const tag = tagOf(r);
    if (tag === 9) {
      if (seen & 1) bail();
      seen |= 1;
      micros = r.double();
    } else if (tag === 16) {
      if (seen & 2) bail();
      seen |= 2;
      client = r.uint32();
    } else skip(r, tag);
  }
  return validTs(micros, client);
}

function digestIn(b: Uint8Array): TxnDigest {
  if (b.length !== DIGEST_BYTES) bail();
  return b as TxnDigest;
}

function keyIn(b: Uint8Array, limits: CodecLimits): string {
  if (b.length > limits.keyBytesMax) bail();
  return keyFromBytes(b);
}

function bytesLimited(b: Uint8Array, limits: CodecLimits): Uint8Array {
  if (b.length > limits.valueBytesMax) bail();
  return b;
}

/** A value with its deletion flag (codec-txn.ts `valueIn`). */
function valueOf(b: Uint8Array | undefined, deleted: boolean, limits: CodecLimits): Uint8Array | null {
  if (deleted) {
    if (b !== undefined && b.length > 0) bail();
    return null;
  }
  return b === undefined ? EMPTY : bytesLimited(b, limits);
}

// ---- transactions ----

function readEntryIn(r: Reader): ReadEntry {
  const limits = r.limits;
  let key: Uint8Array | undefined;
  let version: Timestamp | undefined;
  while (r.pos < r.end) {
    const tag = tagOf(r);
    if (tag === 10) {
      if (key !== undefined) bail();
      key = r.bytes();
    } else if (tag === 18) {
      if (version !== undefined) bail();
      version = sub(r, tsIn);
    } else skip(r, tag);
  }
  if (version === undefined) bail();
  return { key: key === undefined ? '' : keyIn(key, limits), version };
}

function writeEntryIn(r: Reader): WriteEntry {
  const limits = r.limits;
  let key: Uint8Array | undefined;
  let value: Uint8Array | undefined;
  let deleted: boolean | undefined;
  while (r.pos < r.end) {
    const tag = tagOf(r);
    if (tag === 10) {
      if (key !== undefined) bail();
      key = r.bytes();
    } else if (tag === 18) {
      if (value !== undefined) bail();
      value = r.bytes();
    } else if (tag === 24) {
      if (deleted !== undefined) bail();
      deleted = r.bool();
    } else skip(r, tag);
  }
  return { key: key === undefined ? '' : keyIn(key, limits), value: valueOf(value, deleted === true, limits) };
}

function depIn(r: Reader): Dependency {
  const limits = r.limits;
  let digest: Uint8Array | undefined;
  let shard: number | undefined;
  let ts: Timestamp | undefined;
  while (r.pos < r.end) {
    const tag = tagOf(r);
    if (tag === 10) {
      if (digest !== undefined) bail();
      digest = r.bytes();
    } else if (tag === 16) {
      if (shard !== undefined) bail();
      shard = r.uint32();
    } else if (tag === 26) {
      if (ts !== undefined) bail();
      ts = sub(r, tsIn);
    } else skip(r, tag);
  }
  if (digest === undefined || ts === undefined) bail();
  const s = shard ?? 0;
  if (s >= limits.shardCount) bail();
  return { digest: digestIn(digest), shard: s as ShardId, ts };
}

function predicateIn(r: Reader): Predicate {
  const limits = r.limits;
  let table: number | undefined;
  let tableVersion: Timestamp | undefined;
  let expr: Uint8Array | undefined;
  while (r.pos < r.end) {
    const tag = tagOf(r);
    if (tag === 8) {
      if (table !== undefined) bail();
      table = r.uint32();
    } else if (tag === 18) {
      if (tableVersion !== undefined) bail();
      tableVersion = sub(r, tsIn);
    } else if (tag === 26) {
      if (expr !== undefined) bail();
      expr = r.bytes();
    } else skip(r, tag);
  }
  if (tableVersion === undefined) bail();
  return { table: table ?? 0, tableVersion, expr: expr === undefined ? EMPTY : bytesLimited(expr, limits) };
}

function bodyIn(r: Reader): TxnBody {
  const limits = r.limits;
  let ts: Timestamp | undefined;
  const shards: ShardId[] = [];
  const reads: ReadEntry[] = [];
  const writes: WriteEntry[] = [];
  const deps: Dependency[] = [];
  const predicates: Predicate[] = [];
  let meta: Uint8Array | undefined;
  const max = limits.entriesMax;
  while (r.pos < r.end) {
    const tag = tagOf(r);
    switch (tag) {
      case 10:
        if (ts !== undefined) bail();
        ts = sub(r, tsIn);
        break;
      case 18: {
        // packed shards
        const end = r.delimited();
        while (r.pos < end) {
          const outer = r.end;
          r.end = end;
          shards.push(r.uint32() as ShardId);
          r.end = outer;
        }
        break;
      }
      case 16:
        shards.push(r.uint32() as ShardId);
        break;
      case 26:
        reads.push(sub(r, readEntryIn));
        break;
      case 34:
        writes.push(sub(r, writeEntryIn));
        break;
      case 42:
        deps.push(sub(r, depIn));
        break;
      case 50:
        predicates.push(sub(r, predicateIn));
        break;
      case 58:
        if (meta !== undefined) bail();
        meta = r.bytes();
        break;
      default:
        skip(r, tag);
    }
    if (shards.length > max || reads.length > max || writes.length > max || deps.length > max || predicates.length > max) bail();
  }
  if (ts === undefined || shards.length === 0) bail();
  let prevShard = -1;
  for (const s of shards) {
    if (s >= limits.shardCount || s <= prevShard) bail();
    prevShard = s;
  }
  for (let i = 1; i < reads.length; i++) if (!(reads[i - 1]!.key < reads[i]!.key)) bail();
  for (let i = 1; i < writes.length; i++) if (!(writes[i - 1]!.key < writes[i]!.key)) bail();
  return { ts, shards, reads, writes, deps, predicates, meta: meta === undefined ? EMPTY : bytesLimited(meta, limits) };
}

/** A transaction's bytes: decoded, validated and digested (codec-txn.ts `txnIn`). */
function txnOf(bytes: Uint8Array, limits: CodecLimits): Txn {
  if (bytes.length === 0 || bytes.length > limits.messageBytesMax) bail();
  const body = bodyIn(new Reader(bytes, limits));
  const digest = blake3(bytes) as TxnDigest;
  return { body, bytes, digest, key: digestKey(digest) };
}

function txnField(r: Reader): Txn {
  return txnOf(r.bytes(), r.limits);
}

// ---- signatures and certificates ----

function sigIn(r: Reader): SigProof {
  const limits = r.limits;
  let signer: number | undefined;
  let rootSignature: Uint8Array | undefined;
  let index: number | undefined;
  let path: Uint8Array | undefined;
  let macs: Uint8Array | undefined;
  while (r.pos < r.end) {
    const tag = tagOf(r);
    switch (tag) {
      case 8:
        if (signer !== undefined) bail();
        signer = r.uint32();
        break;
      case 18:
        if (rootSignature !== undefined) bail();
        rootSignature = r.bytes();
        break;
      case 24:
        if (index !== undefined) bail();
        index = r.uint32();
        break;
      case 34:
        if (path !== undefined) bail();
        path = r.bytes();
        break;
      case 42:
        if (macs !== undefined) bail();
        macs = r.bytes();
        break;
      default:
        skip(r, tag);
    }
  }
  const s = signer ?? 0;
  if (s >= limits.replicasPerShard) bail();
  if (rootSignature === undefined || rootSignature.length !== SIGNATURE_BYTES) bail();
  const p = path ?? EMPTY;
  if (p.length % NODE_BYTES !== 0 || p.length > PATH_LEVELS_MAX * NODE_BYTES) bail();
  if (macs === undefined || macs.length === 0) return { signer: s, rootSignature, index: index ?? 0, path: p };
  if (macs.length !== limits.replicasPerShard * MAC_BYTES && limits.replicasPerShard !== DEFAULT_CODEC_LIMITS.replicasPerShard) bail();
  if (macs.length % MAC_BYTES !== 0 || macs.length > 256 * MAC_BYTES) bail();
  return { signer: s, rootSignature, index: index ?? 0, path: p, macs };
}

function decisionIn(d: number): VoteDecision {
  return d === 0 ? 'commit' : d === 1 ? 'abstain' : d === 2 ? 'abort' : bail();
}

function outcomeIn(d: number): Outcome {
  return d === 0 ? 'commit' : d === 2 ? 'abort' : bail();
}

function shardSigsIn(r: Reader): ShardSigs {
  const limits = r.limits;
  let shard: number | undefined;
  const sigs: SigProof[] = [];
  while (r.pos < r.end) {
    const tag = tagOf(r);
    if (tag === 8) {
      if (shard !== undefined) bail();
      shard = r.uint32();
    } else if (tag === 18) {
      sigs.push(sub(r, sigIn));
      if (sigs.length > limits.replicasPerShard) bail();
    } else skip(r, tag);
  }
  const s = shard ?? 0;
  if (s >= limits.shardCount) bail();
  return { shard: s as ShardId, sigs };
}

function voteCertIn(r: Reader): VoteCert {
  const limits = r.limits;
  let decision: number | undefined;
  const shards: ShardSigs[] = [];
  while (r.pos < r.end) {
    const tag = tagOf(r);
    if (tag === 8) {
      if (decision !== undefined) bail();
      decision = r.uint32();
    } else if (tag === 18) {
      shards.push(sub(r, shardSigsIn));
      if (shards.length > limits.shardCount) bail();
    } else skip(r, tag);
  }
  const d = decisionIn(decision ?? 0);
  if (d === 'abort') bail();
  return { decision: d, shards };
}

function st2In(r: Reader): St2Cert {
  const limits = r.limits;
  let decision: number | undefined;
  let logShard: number | undefined;
  let view: number | undefined;
  const sigs: SigProof[] = [];
  while (r.pos < r.end) {
    const tag = tagOf(r);
    switch (tag) {
      case 8:
        if (decision !== undefined) bail();
        decision = r.uint32();
        break;
      case 16:
        if (logShard !== undefined) bail();
        logShard = r.uint32();
        break;
      case 24:
        if (view !== undefined) bail();
        view = r.uint32();
        break;
      case 34:
        sigs.push(sub(r, sigIn));
        if (sigs.length > limits.replicasPerShard) bail();
        break;
      default:
        skip(r, tag);
    }
  }
  const d = outcomeIn(decision ?? 0);
  const ls = logShard ?? 0;
  if (ls >= limits.shardCount) bail();
  return { decision: d, logShard: ls as ShardId, view: view ?? 0, sigs };
}

function committedIn(r: Reader): CommittedTxn {
  let txn: Txn | undefined;
  let fast: VoteCert | undefined;
  let slow: St2Cert | undefined;
  while (r.pos < r.end) {
    const tag = tagOf(r);
    if (tag === 10) {
      if (txn !== undefined) bail();
      txn = txnField(r);
    } else if (tag === 18) {
      if (fast !== undefined) bail();
      fast = sub(r, voteCertIn);
    } else if (tag === 26) {
      if (slow !== undefined) bail();
      slow = sub(r, st2In);
    } else skip(r, tag);
  }
  if (txn === undefined) bail();
  if (fast !== undefined) {
    if (slow !== undefined || fast.decision !== 'commit') bail();
    return { txn, cert: { kind: 'votes', votes: fast } };
  }
  if (slow === undefined || slow.decision !== 'commit') bail();
  return { txn, cert: { kind: 'st2', st2: slow } };
}

function certIn(r: Reader): Certificate {
  let cert: Certificate | undefined;
  while (r.pos < r.end) {
    const tag = tagOf(r);
    if (tag === 10 || tag === 18 || tag === 26) {
      if (cert !== undefined) bail();
      if (tag === 10) cert = { kind: 'votes', votes: sub(r, voteCertIn) };
      else if (tag === 18) cert = { kind: 'st2', st2: sub(r, st2In) };
      else cert = { kind: 'conflict', conflict: sub(r, committedIn) };
    } else skip(r, tag);
  }
  if (cert === undefined) bail();
  return cert;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function writebackIn(r: Reader): Writeback {
  const limits = r.limits;
  let digest: Uint8Array | undefined;
  let cert: Certificate | undefined;
  let txnBytes: Uint8Array | undefined;
  while (r.pos < r.end) {
    const tag = tagOf(r);
    if (tag === 10) {
      if (digest !== undefined) bail();
      digest = r.bytes();
    } else if (tag === 18) {
      if (cert !== undefined) bail();
      cert = sub(r, certIn);
    } else if (tag === 26) {
      if (txnBytes !== undefined) bail();
      txnBytes = r.bytes();
    } else skip(r, tag);
  }
  if (digest === undefined || cert === undefined) bail();
  const d = digestIn(digest);
  let txn: Txn | null = null;
  if (txnBytes !== undefined && txnBytes.length > 0) {
    txn = txnOf(txnBytes, limits);
    if (!sameBytes(txn.digest, d)) bail();
  }
  return { kind: 'writeback', digest: d, cert, txn };
}

// ---- messages ----

function readIn(r: Reader): Message {
  const limits = r.limits;
  let req: number | undefined;
  let key: Uint8Array | undefined;
  let ts: Timestamp | undefined;
  let proof: boolean | undefined;
  while (r.pos < r.end) {
    const tag = tagOf(r);
    switch (tag) {
      case 8:
        if (req !== undefined) bail();
        req = r.uint32();
        break;
      case 18:
        if (key !== undefined) bail();
        key = r.bytes();
        break;
      case 26:
        if (ts !== undefined) bail();
        ts = sub(r, tsIn);
        break;
      case 32:
        if (proof !== undefined) bail();
        proof = r.bool();
        break;
      default:
        skip(r, tag);
    }
  }
  if (ts === undefined) bail();
  return { kind: 'read', req: req ?? 0, key: key === undefined ? '' : keyIn(key, limits), ts, proof: proof ?? false };
}

function readReplyIn(r: Reader): Message {
  const limits = r.limits;
  let req: number | undefined;
  let key: Uint8Array | undefined;
  let cVersion: Timestamp | undefined;
  let cValue: Uint8Array | undefined;
  let cDeleted: boolean | undefined;
  let cProof: CommittedTxn | undefined;
  let cDigest: Uint8Array | undefined;
  let pVersion: Timestamp | undefined;
  let pValue: Uint8Array | undefined;
  let pDeleted: boolean | undefined;
  let pDigest: Uint8Array | undefined;
  while (r.pos < r.end) {
    const tag = tagOf(r);
    switch (tag) {
      case 8:
        if (req !== undefined) bail();
        req = r.uint32();
        break;
      case 18:
        if (key !== undefined) bail();
        key = r.bytes();
        break;
      case 26:
        if (cVersion !== undefined) bail();
        cVersion = sub(r, tsIn);
        break;
      case 34:
        if (cValue !== undefined) bail();
        cValue = r.bytes();
        break;
      case 40:
        if (cDeleted !== undefined) bail();
        cDeleted = r.bool();
        break;
      case 50:
        if (cProof !== undefined) bail();
        cProof = sub(r, committedIn);
        break;
      case 58:
        if (pVersion !== undefined) bail();
        pVersion = sub(r, tsIn);
        break;
      case 66:
        if (pValue !== undefined) bail();
        pValue = r.bytes();
        break;
      case 72:
        if (pDeleted !== undefined) bail();
        pDeleted = r.bool();
        break;
      case 82:
        if (pDigest !== undefined) bail();
        pDigest = r.bytes();
        break;
      case 90:
        if (cDigest !== undefined) bail();
        cDigest = r.bytes();
        break;
      default:
        skip(r, tag);
    }
  }
  let committed: CommittedRead | null = null;
  if (cVersion !== undefined) {
    if (cDigest === undefined) bail();
    const digest = digestIn(cDigest);
    const proof = cProof ?? null;
    if (proof !== null && !sameBytes(proof.txn.digest, digest)) bail();
    committed = { version: cVersion, value: valueOf(cValue, cDeleted === true, limits), digest, proof };
  } else if (cProof !== undefined) bail();
  let prepared: PreparedRead | null = null;
  if (pVersion !== undefined) {
    if (pDigest === undefined) bail();
    prepared = { version: pVersion, value: valueOf(pValue, pDeleted === true, limits), digest: digestIn(pDigest) };
  }
  return { kind: 'readReply', req: req ?? 0, key: key === undefined ? '' : keyIn(key, limits), committed, prepared };
}

function prepareIn(r: Reader): Message {
  let req: number | undefined;
  let txn: Txn | undefined;
  while (r.pos < r.end) {
    const tag = tagOf(r);
    if (tag === 8) {
      if (req !== undefined) bail();
      req = r.uint32();
    } else if (tag === 18) {
      if (txn !== undefined) bail();
      txn = txnField(r);
    } else skip(r, tag);
  }
  if (txn === undefined) bail();
  return { kind: 'prepare', req: req ?? 0, txn };
}

function prepareReplyIn(r: Reader): Message {
  const limits = r.limits;
  let req: number | undefined;
  let digest: Uint8Array | undefined;
  let shard: number | undefined;
  let decisionNum: number | undefined;
  let sig: SigProof | undefined;
  let conflict: CommittedTxn | undefined;
  let decided: Writeback | undefined;
  let conflictPreparedBytes: Uint8Array | undefined;
  while (r.pos < r.end) {
    const tag = tagOf(r);
    switch (tag) {
      case 8:
        if (req !== undefined) bail();
        req = r.uint32();
        break;
      case 18:
        if (digest !== undefined) bail();
        digest = r.bytes();
        break;
      case 24:
        if (shard !== undefined) bail();
        shard = r.uint32();
        break;
      case 32:
        if (decisionNum !== undefined) bail();
        decisionNum = r.uint32();
        break;
      case 42:
        if (sig !== undefined) bail();
        sig = sub(r, sigIn);
        break;
      case 50:
        if (conflict !== undefined) bail();
        conflict = sub(r, committedIn);
        break;
      case 58:
        if (decided !== undefined) bail();
        decided = sub(r, writebackIn);
        break;
      case 66:
        if (conflictPreparedBytes !== undefined) bail();
        conflictPreparedBytes = r.bytes();
        break;
      default:
        skip(r, tag);
    }
  }
  if (digest === undefined) bail();
  const d = digestIn(digest);
  const decision = decisionIn(decisionNum ?? 0);
  if (decided !== undefined) {
    if (sig !== undefined || conflict !== undefined || !sameBytes(decided.digest, d)) bail();
  } else if (decision === 'abort') {
    if (sig !== undefined || conflict === undefined) bail();
  } else if (conflict !== undefined || sig === undefined) bail();
  let conflictPrepared: Txn | null = null;
  if (conflictPreparedBytes !== undefined && conflictPreparedBytes.length > 0) {
    if (decision !== 'abstain' || decided !== undefined) bail();
    conflictPrepared = txnOf(conflictPreparedBytes, limits);
  }
  const s = shard ?? 0;
  if (s >= limits.shardCount) bail();
  return {
    kind: 'prepareReply',
    req: req ?? 0,
    digest: d,
    shard: s as ShardId,
    decision,
    sig: decided === undefined && decision !== 'abort' ? sig! : null,
    conflict: decided === undefined && decision === 'abort' ? conflict! : null,
    decided: decided ?? null,
    conflictPrepared,
  };
}

/**
 * The message in `bytes` if it is one of the kinds decoded here and passes every check; undefined
 * to hand it to the generic path (codec.ts). Never throws.
 */
export function fastDecode(bytes: Uint8Array, limits: CodecLimits): Message | undefined {
  try {
    const r = new Reader(bytes, limits);
    if (r.end === 0) return undefined;
    const tag = tagOf(r);
    let read: (r: Reader) => Message;
    switch (tag) {
      case 10:
        read = readIn;
        break;
      case 18:
        read = readReplyIn;
        break;
      case 26:
        read = prepareIn;
        break;
      case 34:
        read = prepareReplyIn;
        break;
      case 58:
        read = writebackIn;
        break;
      default:
        return undefined;
    }
    const m = sub(r, read);
    // One body and nothing after it (anything else: the generic path decides).
    if (r.pos !== r.end) return undefined;
    return m;
  } catch (e) {
    if (e === BAIL) return undefined;
    throw e;
  }
}

// ---- writing: sizes first, then one pass into a buffer of exactly that size ----

function varintSize(v: number): number {
  return v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x20_0000 ? 3 : v < 0x1000_0000 ? 4 : 5;
}

/** Size of a length-delimited field of `len` bytes with a one-byte tag. */
function lenField(len: number): number {
  return 1 + varintSize(len) + len;
}

class Writer {
  pos = 0;
  constructor(readonly buf: Buffer) {}

  varint(v: number): void {
    const buf = this.buf;
    let p = this.pos;
    while (v > 0x7f) {
      buf[p++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    buf[p++] = v;
    this.pos = p;
  }

  bytesField(tag: number, b: Uint8Array): void {
    this.buf[this.pos++] = tag;
    this.varint(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** Tag and length of a sub-message; its fields follow. */
  open(tag: number, len: number): void {
    this.buf[this.pos++] = tag;
    this.varint(len);
  }

  double(v: number): void {
    f64[0] = v;
    const p = this.pos;
    for (let i = 0; i < 8; i++) this.buf[p + i] = f64b[i]!;
    this.pos = p + 8;
  }
}

function tsSize(t: Timestamp): number {
  return (Object.is(t.micros, 0) ? 0 : 9) + (t.clientId !== 0 ? 1 + varintSize(t.clientId) : 0);
}

function tsWrite(w: Writer, tag: number, t: Timestamp): void {
  w.open(tag, tsSize(t));
  if (!Object.is(t.micros, 0)) {
    w.buf[w.pos++] = 9;
    w.double(t.micros);
  }
  if (t.clientId !== 0) {
    w.buf[w.pos++] = 16;
    w.varint(t.clientId);
  }
}

const keyBytesCache = { key: '', bytes: EMPTY as Uint8Array };

/** Key bytes (latin1); the last one is cached, since a message often carries one key twice. */
function keyBytes(key: string): Uint8Array {
  if (keyBytesCache.key === key && key.length > 0) return keyBytesCache.bytes;
  const b = Buffer.from(key, 'latin1');
  keyBytesCache.key = key;
  keyBytesCache.bytes = b;
  return b;
}

function sigSize(s: SigProof): number {
  let n = 0;
  if (s.signer !== 0) n += 1 + varintSize(s.signer);
  if (s.rootSignature.length > 0) n += lenField(s.rootSignature.length);
  if (s.index !== 0) n += 1 + varintSize(s.index);
  if (s.path.length > 0) n += lenField(s.path.length);
  if (s.macs !== undefined && s.macs.length > 0) n += lenField(s.macs.length);
  return n;
}

function sigWrite(w: Writer, tag: number, s: SigProof, size: number): void {
  w.open(tag, size);
  if (s.signer !== 0) {
    w.buf[w.pos++] = 8;
    w.varint(s.signer);
  }
  if (s.rootSignature.length > 0) w.bytesField(18, s.rootSignature);
  if (s.index !== 0) {
    w.buf[w.pos++] = 24;
    w.varint(s.index);
  }
  if (s.path.length > 0) w.bytesField(34, s.path);
  if (s.macs !== undefined && s.macs.length > 0) w.bytesField(42, s.macs);
}

function sigsSize(sigs: readonly SigProof[]): number {
  let n = 0;
  for (const s of sigs) n += lenField(sigSize(s));
  return n;
}

function sigsWrite(w: Writer, tag: number, sigs: readonly SigProof[]): void {
  for (const s of sigs) sigWrite(w, tag, s, sigSize(s));
}

function voteCertSize(v: VoteCert): number {
  let n = v.decision === 'commit' ? 0 : 2;
  for (const g of v.shards) n += lenField((g.shard !== 0 ? 1 + varintSize(g.shard) : 0) + sigsSize(g.sigs));
  return n;
}

function voteCertWrite(w: Writer, tag: number, v: VoteCert): void {
  w.open(tag, voteCertSize(v));
  if (v.decision !== 'commit') {
    w.buf[w.pos++] = 8;
    w.buf[w.pos++] = 1;
  }
  for (const g of v.shards) {
    w.open(18, (g.shard !== 0 ? 1 + varintSize(g.shard) : 0) + sigsSize(g.sigs));
    if (g.shard !== 0) {
      w.buf[w.pos++] = 8;
      w.varint(g.shard);
    }
    sigsWrite(w, 18, g.sigs);
  }
}

function st2Size(c: St2Cert): number {
  return (c.decision === 'commit' ? 0 : 2) + (c.logShard !== 0 ? 1 + varintSize(c.logShard) : 0) + (c.view !== 0 ? 1 + varintSize(c.view) : 0) + sigsSize(c.sigs);
}

function st2Write(w: Writer, tag: number, c: St2Cert): void {
  w.open(tag, st2Size(c));
  if (c.decision !== 'commit') {
    w.buf[w.pos++] = 8;
    w.buf[w.pos++] = 2;
  }
  if (c.logShard !== 0) {
    w.buf[w.pos++] = 16;
    w.varint(c.logShard);
  }
  if (c.view !== 0) {
    w.buf[w.pos++] = 24;
    w.varint(c.view);
  }
  sigsWrite(w, 34, c.sigs);
}

function committedSize(c: CommittedTxn): number {
  const t = c.txn.bytes.length > 0 ? lenField(c.txn.bytes.length) : 0;
  return t + (c.cert.kind === 'votes' ? lenField(voteCertSize(c.cert.votes)) : lenField(st2Size(c.cert.st2)));
}

function committedWrite(w: Writer, tag: number, c: CommittedTxn): void {
  w.open(tag, committedSize(c));
  if (c.txn.bytes.length > 0) w.bytesField(10, c.txn.bytes);
  if (c.cert.kind === 'votes') voteCertWrite(w, 18, c.cert.votes);
  else st2Write(w, 26, c.cert.st2);
}

function certSize(c: Certificate): number {
  switch (c.kind) {
    case 'votes':
      return lenField(voteCertSize(c.votes));
    case 'st2':
      return lenField(st2Size(c.st2));
    case 'conflict':
      return lenField(committedSize(c.conflict));
  }
}

function certWrite(w: Writer, tag: number, c: Certificate): void {
  w.open(tag, certSize(c));
  switch (c.kind) {
    case 'votes':
      return voteCertWrite(w, 10, c.votes);
    case 'st2':
      return st2Write(w, 18, c.st2);
    case 'conflict':
      return committedWrite(w, 26, c.conflict);
  }
}

function writebackSize(m: Writeback): number {
  return (m.digest.length > 0 ? lenField(m.digest.length) : 0) + lenField(certSize(m.cert)) + (m.txn !== null && m.txn.bytes.length > 0 ? lenField(m.txn.bytes.length) : 0);
}

function writebackWrite(w: Writer, tag: number, m: Writeback): void {
  w.open(tag, writebackSize(m));
  if (m.digest.length > 0) w.bytesField(10, m.digest);
  certWrite(w, 18, m.cert);
  if (m.txn !== null && m.txn.bytes.length > 0) w.bytesField(26, m.txn.bytes);
}

function decisionNum(d: VoteDecision): number {
  return d === 'commit' ? 0 : d === 'abstain' ? 1 : 2;
}

function reqSize(req: number): number {
  return req !== 0 ? 1 + varintSize(req) : 0;
}

function writeReq(w: Writer, req: number): void {
  if (req !== 0) {
    w.buf[w.pos++] = 8;
    w.varint(req);
  }
}

function valueSize(tagged: Uint8Array | null): number {
  // value (bytes, left out when empty) and deleted (bool, left out when false)
  return tagged === null ? 2 : tagged.length > 0 ? lenField(tagged.length) : 0;
}

function encodeWith(size: number, write: (w: Writer) => void): Buffer {
  const w = new Writer(Buffer.allocUnsafe(size));
  write(w);
  if (w.pos !== size) throw new Error(`fast encoder wrote ${w.pos} of ${size} bytes`);
  return w.buf;
}

/** The envelope bytes of `m` as protobufjs would write them, or undefined for kinds not handled here. */
export function fastEncode(m: Message): Uint8Array | undefined {
  switch (m.kind) {
    case 'read': {
      const key = keyBytes(m.key);
      const inner = reqSize(m.req) + (key.length > 0 ? lenField(key.length) : 0) + lenField(tsSize(m.ts)) + (m.proof ? 2 : 0);
      return encodeWith(lenField(inner), (w) => {
        w.open(10, inner);
        writeReq(w, m.req);
        if (key.length > 0) w.bytesField(18, key);
        tsWrite(w, 26, m.ts);
        if (m.proof) {
          w.buf[w.pos++] = 32;
          w.buf[w.pos++] = 1;
        }
      });
    }
    case 'readReply': {
      const key = keyBytes(m.key);
      const c = m.committed;
      const p = m.prepared;
      let inner = reqSize(m.req) + (key.length > 0 ? lenField(key.length) : 0);
      if (c !== null) {
        inner += lenField(tsSize(c.version)) + valueSize(c.value) + (c.digest.length > 0 ? lenField(c.digest.length) : 0);
        if (c.proof !== null) inner += lenField(committedSize(c.proof));
      }
      if (p !== null) inner += lenField(tsSize(p.version)) + valueSize(p.value) + (p.digest.length > 0 ? lenField(p.digest.length) : 0);
      return encodeWith(lenField(inner), (w) => {
        w.open(18, inner);
        writeReq(w, m.req);
        if (key.length > 0) w.bytesField(18, key);
        if (c !== null) {
          tsWrite(w, 26, c.version);
          if (c.value === null) {
            w.buf[w.pos++] = 40;
            w.buf[w.pos++] = 1;
          } else if (c.value.length > 0) w.bytesField(34, c.value);
          if (c.proof !== null) committedWrite(w, 50, c.proof);
        }
        if (p !== null) {
          tsWrite(w, 58, p.version);
          if (p.value === null) {
            w.buf[w.pos++] = 72;
            w.buf[w.pos++] = 1;
          } else if (p.value.length > 0) w.bytesField(66, p.value);
          if (p.digest.length > 0) w.bytesField(82, p.digest);
        }
        if (c !== null && c.digest.length > 0) w.bytesField(90, c.digest);
      });
    }
    case 'prepare': {
      const t = m.txn.bytes;
      const inner = reqSize(m.req) + (t.length > 0 ? lenField(t.length) : 0);
      return encodeWith(lenField(inner), (w) => {
        w.open(26, inner);
        writeReq(w, m.req);
        if (t.length > 0) w.bytesField(18, t);
      });
    }
    case 'prepareReply': {
      const dec = decisionNum(m.decision);
      let inner = reqSize(m.req) + (m.digest.length > 0 ? lenField(m.digest.length) : 0) + (m.shard !== 0 ? 1 + varintSize(m.shard) : 0) + (dec !== 0 ? 2 : 0);
      const sigLen = m.sig === null ? 0 : sigSize(m.sig);
      if (m.sig !== null) inner += lenField(sigLen);
      if (m.conflict !== null) inner += lenField(committedSize(m.conflict));
      if (m.decided !== null) inner += lenField(writebackSize(m.decided));
      if (m.conflictPrepared !== null && m.conflictPrepared.bytes.length > 0) inner += lenField(m.conflictPrepared.bytes.length);
      return encodeWith(lenField(inner), (w) => {
        w.open(34, inner);
        writeReq(w, m.req);
        if (m.digest.length > 0) w.bytesField(18, m.digest);
        if (m.shard !== 0) {
          w.buf[w.pos++] = 24;
          w.varint(m.shard);
        }
        if (dec !== 0) {
          w.buf[w.pos++] = 32;
          w.buf[w.pos++] = dec;
        }
        if (m.sig !== null) sigWrite(w, 42, m.sig, sigLen);
        if (m.conflict !== null) committedWrite(w, 50, m.conflict);
        if (m.decided !== null) writebackWrite(w, 58, m.decided);
        if (m.conflictPrepared !== null && m.conflictPrepared.bytes.length > 0) w.bytesField(66, m.conflictPrepared.bytes);
      });
    }
    case 'writeback':
      return encodeWith(lenField(writebackSize(m)), (w) => writebackWrite(w, 58, m));
    default:
      return undefined;
  }
}

/** Whether `fastDecode` is known to take this envelope's body kind (for tests). */
export const FAST_KINDS: readonly Message['kind'][] = ['read', 'readReply', 'prepare', 'prepareReply', 'writeback'];

/** A transaction's bytes, decoded the fast way, or undefined for the generic path. */
export function fastDecodeTxn(bytes: Uint8Array, limits: CodecLimits): Txn | undefined {
  try {
    return txnOf(bytes, limits);
  } catch (e) {
    if (e === BAIL) return undefined;
    throw e;
  }
}

// ---- transaction bodies (encodeTxn) ----

function entrySize(key: Uint8Array, rest: number): number {
  return (key.length > 0 ? lenField(key.length) : 0) + rest;
}

/** The bytes protobufjs writes for a `TxnBody` (the caller has checked it is canonical). */
export function fastEncodeBody(b: TxnBody): Uint8Array {
  const readKeys = b.reads.map((r) => Buffer.from(r.key, 'latin1'));
  const writeKeys = b.writes.map((x) => Buffer.from(x.key, 'latin1'));
  let shardsLen = 0;
  for (const s of b.shards) shardsLen += varintSize(s);
  const readSizes = b.reads.map((r, i) => entrySize(readKeys[i]!, lenField(tsSize(r.version))));
  const writeSizes = b.writes.map((x, i) => entrySize(writeKeys[i]!, valueSize(x.value)));
  const depSizes = b.deps.map((d) => (d.digest.length > 0 ? lenField(d.digest.length) : 0) + (d.shard !== 0 ? 1 + varintSize(d.shard) : 0) + lenField(tsSize(d.ts)));
  const predSizes = b.predicates.map((q) => (q.table !== 0 ? 1 + varintSize(q.table) : 0) + lenField(tsSize(q.tableVersion)) + (q.expr.length > 0 ? lenField(q.expr.length) : 0));
  let size = lenField(tsSize(b.ts)) + (b.shards.length > 0 ? lenField(shardsLen) : 0) + (b.meta.length > 0 ? lenField(b.meta.length) : 0);
  for (const n of readSizes) size += lenField(n);
  for (const n of writeSizes) size += lenField(n);
  for (const n of depSizes) size += lenField(n);
  for (const n of predSizes) size += lenField(n);
  return encodeWith(size, (w) => {
    tsWrite(w, 10, b.ts);
    if (b.shards.length > 0) {
      w.open(18, shardsLen);
      for (const s of b.shards) w.varint(s);
    }
    b.reads.forEach((r, i) => {
      w.open(26, readSizes[i]!);
      if (readKeys[i]!.length > 0) w.bytesField(10, readKeys[i]!);
      tsWrite(w, 18, r.version);
    });
    b.writes.forEach((x, i) => {
      w.open(34, writeSizes[i]!);
      if (writeKeys[i]!.length > 0) w.bytesField(10, writeKeys[i]!);
      if (x.value === null) {
        w.buf[w.pos++] = 24;
        w.buf[w.pos++] = 1;
      } else if (x.value.length > 0) w.bytesField(18, x.value);
    });
    b.deps.forEach((d, i) => {
      w.open(42, depSizes[i]!);
      if (d.digest.length > 0) w.bytesField(10, d.digest);
      if (d.shard !== 0) {
        w.buf[w.pos++] = 16;
        w.varint(d.shard);
      }
      tsWrite(w, 26, d.ts);
    });
    b.predicates.forEach((q, i) => {
      w.open(50, predSizes[i]!);
      if (q.table !== 0) {
        w.buf[w.pos++] = 8;
        w.varint(q.table);
      }
      tsWrite(w, 18, q.tableVersion);
      if (q.expr.length > 0) w.bytesField(26, q.expr);
    });
    if (b.meta.length > 0) w.bytesField(58, b.meta);
  });
}

// ---- range read replies (decision 0015) ----
// A 10,000-row scan's reply holds 10,000 read entries; protobufjs built two objects per entry each
// way, then codec.ts a third. Same contract as above; codec.ts calls these after fastDecode/fastEncode.

const QUERY_REPLY_TAG = 106; // Envelope field 13, length-delimited

function queryReplyIn(r: Reader): Message {
  const limits = r.limits;
  let req: number | undefined;
  let retry: number | undefined;
  let result: Uint8Array | undefined;
  const reads: ReadEntry[] = [];
  const predicates: Predicate[] = [];
  const deps: Dependency[] = [];
  const snapshotCommitted: TxnDigest[] = [];
  const snapshotPrepared: TxnDigest[] = [];
  while (r.pos < r.end) {
    const tag = tagOf(r);
    switch (tag) {
      case 8:
        if (req !== undefined) bail();
        req = r.uint32();
        break;
      case 16:
        if (retry !== undefined) bail();
        retry = r.uint32();
        break;
      case 26:
        if (result !== undefined) bail();
        result = r.bytes();
        break;
      case 34: {
        const e = sub(r, readEntryIn);
        // Sorted by key and distinct (codec-txn.ts readsIn).
        if (reads.length > 0 && !(reads[reads.length - 1]!.key < e.key)) bail();
        reads.push(e);
        break;
      }
      case 42:
        predicates.push(sub(r, predicateIn));
        break;
      case 50:
        deps.push(sub(r, depIn));
        break;
      case 58:
        snapshotCommitted.push(digestIn(r.bytes()));
        break;
      case 66:
        snapshotPrepared.push(digestIn(r.bytes()));
        break;
      default:
        skip(r, tag);
    }
  }
  const max = limits.entriesMax;
  if (result === undefined || result.length === 0) bail();
  if (reads.length > max || predicates.length > max || deps.length > max || snapshotCommitted.length > max || snapshotPrepared.length > max) bail();
  return { kind: 'queryReply', req: req ?? 0, retry: retry ?? 0, result, reads, predicates, deps, snapshotCommitted, snapshotPrepared };
}

/** A `QueryReply` envelope decoded the fast way, or undefined for the generic path. Never throws. */
export function fastDecodeQueryReply(bytes: Uint8Array, limits: CodecLimits): Message | undefined {
  try {
    const r = new Reader(bytes, limits);
    if (r.end === 0 || tagOf(r) !== QUERY_REPLY_TAG) return undefined;
    const m = sub(r, queryReplyIn);
    return r.pos === r.end ? m : undefined;
  } catch (e) {
    if (e === BAIL) return undefined;
    throw e;
  }
}

/** The envelope bytes protobufjs writes for a `QueryReply`. */
export function fastEncodeQueryReply(m: Extract<Message, { kind: 'queryReply' }>): Uint8Array {
  // Keys are latin1 strings, one byte per char: sized and written without a Buffer per key.
  const readSizes = m.reads.map((e) => (e.key.length > 0 ? lenField(e.key.length) : 0) + lenField(tsSize(e.version)));
  const depSizes = m.deps.map((d) => (d.digest.length > 0 ? lenField(d.digest.length) : 0) + (d.shard !== 0 ? 1 + varintSize(d.shard) : 0) + lenField(tsSize(d.ts)));
  const predSizes = m.predicates.map((q) => (q.table !== 0 ? 1 + varintSize(q.table) : 0) + lenField(tsSize(q.tableVersion)) + (q.expr.length > 0 ? lenField(q.expr.length) : 0));
  let inner = reqSize(m.req) + (m.retry !== 0 ? 1 + varintSize(m.retry) : 0) + (m.result.length > 0 ? lenField(m.result.length) : 0);
  for (const n of readSizes) inner += lenField(n);
  for (const n of predSizes) inner += lenField(n);
  for (const n of depSizes) inner += lenField(n);
  for (const d of m.snapshotCommitted) inner += lenField(d.length);
  for (const d of m.snapshotPrepared) inner += lenField(d.length);
  return encodeWith(lenField(inner), (w) => {
    w.open(QUERY_REPLY_TAG, inner);
    writeReq(w, m.req);
    if (m.retry !== 0) {
      w.buf[w.pos++] = 16;
      w.varint(m.retry);
    }
    if (m.result.length > 0) w.bytesField(26, m.result);
    for (let i = 0; i < m.reads.length; i++) {
      const e = m.reads[i]!;
      w.open(34, readSizes[i]!);
      if (e.key.length > 0) {
        w.open(10, e.key.length);
        w.pos += w.buf.write(e.key, w.pos, 'latin1');
      }
      tsWrite(w, 18, e.version);
    }
    m.predicates.forEach((q, i) => {
      w.open(42, predSizes[i]!);
      if (q.table !== 0) {
        w.buf[w.pos++] = 8;
        w.varint(q.table);
      }
      tsWrite(w, 18, q.tableVersion);
      if (q.expr.length > 0) w.bytesField(26, q.expr);
    });
    m.deps.forEach((d, i) => {
      w.open(50, depSizes[i]!);
      if (d.digest.length > 0) w.bytesField(10, d.digest);
      if (d.shard !== 0) {
        w.buf[w.pos++] = 16;
        w.varint(d.shard);
      }
      tsWrite(w, 26, d.ts);
    });
    for (const d of m.snapshotCommitted) w.bytesField(58, d);
    for (const d of m.snapshotPrepared) w.bytesField(66, d);
  });
}
