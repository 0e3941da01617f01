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
 *   left out), or undefined for kinds (and the rare query, codec-query.ts) it does not handle.
 * codec-fast.test.ts checks both against protobufjs on generated messages and on every refusal case.
 *
 * This file holds the envelope's commit-path messages and re-exports the rest of the hand-written
 * codec for codec.ts: the primitives are in codec-fast-wire.ts, transaction bodies in codec-fast-txn.ts
 * (which codec-txn.ts imports directly, keeping this file out of its import cycle), signatures and
 * certificates in codec-fast-cert.ts, and range read replies in codec-query.ts.
 */
import { committedIn, committedSize, committedWrite, decisionIn, sigIn, sigSize, sigWrite, writebackIn, writebackSize, writebackWrite } from './codec-fast-cert.ts';
import { txnField, txnOf } from './codec-fast-txn.ts';
import {
  BAIL,
  bail,
  digestIn,
  EMPTY,
  encodeWith,
  lenField,
  Reader,
  reqSize,
  sameBytes,
  skip,
  sub,
  tagOf,
  tsIn,
  tsSize,
  tsWrite,
  valueOf,
  valueSize,
  varintSize,
  writeReq,
} from './codec-fast-wire.ts';
import type { CodecLimits } from './codec-txn.ts';
import type { ShardId } from './ids.ts';
import type { CommittedRead, CommittedTxn, Message, PreparedRead, SigProof, Txn, VoteDecision, Writeback } from './messages.ts';
import type { Timestamp } from './timestamp.ts';

export { fastDecodeTxn, fastEncodeBody } from './codec-fast-txn.ts';
import { fastEncodeQuery } from './codec-query.ts';

export { fastDecodeQuery, fastDecodeQueryReply, fastEncodeQuery, fastEncodeQueryReply } from './codec-query.ts';

// ---- messages ----

function readIn(r: Reader): Message {
  let req: number | undefined;
  let key: string | undefined;
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
        key = r.key();
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
  return { kind: 'read', req: req ?? 0, key: key ?? '', ts, proof: proof ?? false };
}

function readReplyIn(r: Reader): Message {
  const limits = r.limits;
  let req: number | undefined;
  let key: string | undefined;
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
        key = r.key();
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
  return { kind: 'readReply', req: req ?? 0, key: key ?? '', committed, prepared };
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

const keyBytesCache = { key: '', bytes: EMPTY as Uint8Array };

/** Key bytes (latin1); the last one is cached, since a message often carries one key twice. */
function keyBytes(key: string): Uint8Array {
  if (keyBytesCache.key === key && key.length > 0) return keyBytesCache.bytes;
  const b = Buffer.from(key, 'latin1');
  keyBytesCache.key = key;
  keyBytesCache.bytes = b;
  return b;
}

function decisionNum(d: VoteDecision): number {
  return d === 'commit' ? 0 : d === 'abstain' ? 1 : 2;
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
    case 'query':
      return fastEncodeQuery(m);
    default:
      return undefined;
  }
}

/** Whether `fastDecode` is known to take this envelope's body kind (for tests). */
export const FAST_KINDS: readonly Message['kind'][] = ['read', 'readReply', 'prepare', 'prepareReply', 'writeback'];
