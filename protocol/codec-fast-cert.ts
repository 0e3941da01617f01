/**
 * Signatures and certificates the hand-written way (codec-fast.ts's contract, decision 0011): signature
 * proofs, ST1 vote certificates, ST2 certificates, committed transactions with their proof, and
 * writebacks, decoded with every check of codec.ts and written as protobufjs writes them.
 */
import { MAC_BYTES, MAC_SLOT_BYTES } from './crypto/mac.ts';
import { DEFAULT_CODEC_LIMITS } from './codec-txn.ts';
import { txnField, txnOf } from './codec-fast-txn.ts';
import { bail, digestIn, EMPTY, lenField, type Reader, sameBytes, skip, sub, tagOf, varintSize, type Writer } from './codec-fast-wire.ts';
import type { ShardId } from './ids.ts';
import type { Certificate, CommittedTxn, Outcome, ShardSigs, SigProof, St2Cert, Txn, VoteCert, VoteDecision, Writeback } from './messages.ts';

const SIGNATURE_BYTES = 64;
const NODE_BYTES = 32;
const PATH_LEVELS_MAX = 32;

// ---- signatures and certificates ----

/**
 * A signature proof decoded in place: its byte fields stay offsets into the received message until
 * something reads them, and each is made into a view once, on its first read. A replica that checks a
 * writeback's certificate by MAC reads only `macs`; the root signature and the Merkle path, two views
 * of the three per proof that decoding a certificate used to make (decision 0040), are never made.
 */
export class WireSigProof implements SigProof {
  readonly #buf: Uint8Array;
  readonly #rootAt: number;
  readonly #pathAt: number;
  readonly #pathEnd: number;
  readonly #macsAt: number;
  readonly #macsEnd: number;
  #root: Uint8Array | undefined = undefined;
  #path: Uint8Array | undefined = undefined;
  #macs: Uint8Array | undefined = undefined;

  constructor(
    readonly signer: number,
    readonly index: number,
    buf: Uint8Array,
    rootAt: number,
    pathAt: number,
    pathEnd: number,
    macsAt: number,
    macsEnd: number,
  ) {
    this.#buf = buf;
    this.#rootAt = rootAt;
    this.#pathAt = pathAt;
    this.#pathEnd = pathEnd;
    this.#macsAt = macsAt;
    this.#macsEnd = macsEnd;
  }

  get rootSignature(): Uint8Array {
    return (this.#root ??= this.#buf.subarray(this.#rootAt, this.#rootAt + SIGNATURE_BYTES));
  }

  get path(): Uint8Array {
    return (this.#path ??= this.#pathAt === this.#pathEnd ? EMPTY : this.#buf.subarray(this.#pathAt, this.#pathEnd));
  }

  get macs(): Uint8Array | undefined {
    if (this.#macsAt === this.#macsEnd) return undefined;
    return (this.#macs ??= this.#buf.subarray(this.#macsAt, this.#macsEnd));
  }
}

export function sigIn(r: Reader): SigProof {
  const limits = r.limits;
  let signer: number | undefined;
  let index: number | undefined;
  // Byte fields as [at, end) in r.buf; at -1: absent.
  let rootAt = -1;
  let rootEnd = -1;
  let pathAt = -1;
  let pathEnd = -1;
  let macsAt = -1;
  let macsEnd = -1;
  while (r.pos < r.end) {
    const tag = tagOf(r);
    switch (tag) {
      case 8:
        if (signer !== undefined) bail();
        signer = r.uint32();
        break;
      case 18:
        if (rootAt >= 0) bail();
        rootEnd = r.delimited();
        rootAt = r.pos;
        r.pos = rootEnd;
        break;
      case 24:
        if (index !== undefined) bail();
        index = r.uint32();
        break;
      case 34:
        if (pathAt >= 0) bail();
        pathEnd = r.delimited();
        pathAt = r.pos;
        r.pos = pathEnd;
        break;
      case 42:
        if (macsAt >= 0) bail();
        macsEnd = r.delimited();
        macsAt = r.pos;
        r.pos = macsEnd;
        break;
      default:
        skip(r, tag);
    }
  }
  const s = signer ?? 0;
  if (s >= limits.replicasPerShard) bail();
  if (rootEnd - rootAt !== SIGNATURE_BYTES) bail();
  const pathBytes = pathEnd - pathAt;
  if (pathBytes % NODE_BYTES !== 0 || pathBytes > PATH_LEVELS_MAX * NODE_BYTES) bail();
  const macBytes = macsEnd - macsAt;
  if (macBytes === MAC_SLOT_BYTES) {
    if (r.buf[macsAt]! >= limits.replicasPerShard) bail();
  } else if (macBytes !== 0) {
    if (macBytes !== limits.replicasPerShard * MAC_BYTES && limits.replicasPerShard !== DEFAULT_CODEC_LIMITS.replicasPerShard) bail();
    if (macBytes % MAC_BYTES !== 0 || macBytes > 256 * MAC_BYTES) bail();
  }
  return new WireSigProof(s, index ?? 0, r.buf, rootAt, pathAt, pathEnd, macsAt, macsEnd);
}

export function decisionIn(d: number): VoteDecision {
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

export function committedIn(r: Reader): CommittedTxn {
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

export function writebackIn(r: Reader): Writeback {
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

export function sigSize(s: SigProof): number {
  let n = 0;
  if (s.signer !== 0) n += 1 + varintSize(s.signer);
  if (s.rootSignature.length > 0) n += lenField(s.rootSignature.length);
  if (s.index !== 0) n += 1 + varintSize(s.index);
  if (s.path.length > 0) n += lenField(s.path.length);
  if (s.macs !== undefined && s.macs.length > 0) n += lenField(slotRoomsFor(s.macs) !== null ? MAC_SLOT_BYTES : s.macs.length);
  return n;
}

export function sigWrite(w: Writer, tag: number, s: SigProof, size: number): void {
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
  const macs = s.macs;
  if (macs === undefined || macs.length === 0) return;
  const rooms = slotRoomsFor(macs);
  if (rooms === null) return w.bytesField(42, macs);
  // A full vector while slotting: a slot's room, filled in per replica (`writeSlot`).
  w.buf[w.pos++] = 42;
  w.varint(MAC_SLOT_BYTES);
  rooms.offsets.push(w.pos);
  rooms.vectors.push(macs);
  w.buf.fill(0, w.pos, w.pos + MAC_SLOT_BYTES);
  w.pos += MAC_SLOT_BYTES;
}

/** While `slottingVectors` runs: where `sigWrite` left a slot's room for each full MAC vector, and the vectors. */
type SlotRooms = { readonly offsets: number[]; readonly vectors: Uint8Array[] };
let slotting: SlotRooms | null = null;

/** Where `macs` goes as one slot's room (a full vector while slotting), else null: `sigSize` and `sigWrite` agree through it. */
function slotRoomsFor(macs: Uint8Array): SlotRooms | null {
  return slotting !== null && macs.length > MAC_SLOT_BYTES ? slotting : null;
}

/**
 * Runs `encode` (synchronous) with every full MAC vector written as one slot's room (crypto/mac.ts),
 * and returns its result with the offsets of those rooms in its output and their vectors, in writing
 * order: a writeback encoded once and then given each replica's slots in place (codec.ts
 * `SlottedWriteback`), without a second certificate to encode.
 */
export function slottingVectors<T>(encode: () => T): { readonly value: T; readonly offsets: readonly number[]; readonly vectors: readonly Uint8Array[] } {
  const rooms: SlotRooms = { offsets: [], vectors: [] };
  slotting = rooms;
  try {
    return { value: encode(), ...rooms };
  } finally {
    slotting = null;
  }
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

export function committedSize(c: CommittedTxn): number {
  const t = c.txn.bytes.length > 0 ? lenField(c.txn.bytes.length) : 0;
  return t + (c.cert.kind === 'votes' ? lenField(voteCertSize(c.cert.votes)) : lenField(st2Size(c.cert.st2)));
}

export function committedWrite(w: Writer, tag: number, c: CommittedTxn): void {
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

export function writebackSize(m: Writeback): number {
  return (m.digest.length > 0 ? lenField(m.digest.length) : 0) + lenField(certSize(m.cert)) + (m.txn !== null && m.txn.bytes.length > 0 ? lenField(m.txn.bytes.length) : 0);
}

export function writebackWrite(w: Writer, tag: number, m: Writeback): void {
  w.open(tag, writebackSize(m));
  if (m.digest.length > 0) w.bytesField(10, m.digest);
  certWrite(w, 18, m.cert);
  if (m.txn !== null && m.txn.bytes.length > 0) w.bytesField(26, m.txn.bytes);
}
