/**
 * Who is at the other end of a link. Identities come from the cluster configuration: a replica is
 * (shard, index), a client process (or gateway) is its client id. The transport authenticates a
 * link to exactly one identity during the handshake (see handshake.ts); the shell keys its routing
 * tables by `peerKey(identity)`.
 *
 * Wire form (handshake only, never inside protocol messages):
 *   replica: u8 1, u32le shard, u32le index   (9 bytes)
 *   client:  u8 2, u32le id                   (5 bytes)
 */
export type PeerIdentity =
  | { readonly kind: 'replica'; readonly shard: number; readonly index: number }
  | { readonly kind: 'client'; readonly id: number };

const KIND_REPLICA = 1;
const KIND_CLIENT = 2;
const U32_MAX = 0xffff_ffff;

export function replicaPeer(shard: number, index: number): PeerIdentity {
  checkU32(shard, 'shard');
  checkU32(index, 'replica index');
  return { kind: 'replica', shard, index };
}

export function clientPeer(id: number): PeerIdentity {
  checkU32(id, 'client id');
  return { kind: 'client', id };
}

function checkU32(v: number, what: string): void {
  if (!Number.isInteger(v) || v < 0 || v > U32_MAX) throw new RangeError(`${what} out of range: ${v}`);
}

/** A stable string for maps and logs: `r0.3` (shard 0, index 3) or `c17`. */
export function peerKey(p: PeerIdentity): string {
  return p.kind === 'replica' ? `r${p.shard}.${p.index}` : `c${p.id}`;
}

export function samePeer(a: PeerIdentity, b: PeerIdentity): boolean {
  if (a.kind === 'replica') return b.kind === 'replica' && a.shard === b.shard && a.index === b.index;
  return b.kind === 'client' && a.id === b.id;
}

export function encodedPeerLength(p: PeerIdentity): number {
  return p.kind === 'replica' ? 9 : 5;
}

/** Writes `p` at `offset`; returns the offset after it. */
export function writePeer(p: PeerIdentity, out: Uint8Array, offset: number): number {
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  if (p.kind === 'replica') {
    view.setUint8(offset, KIND_REPLICA);
    view.setUint32(offset + 1, p.shard, true);
    view.setUint32(offset + 5, p.index, true);
    return offset + 9;
  }
  view.setUint8(offset, KIND_CLIENT);
  view.setUint32(offset + 1, p.id, true);
  return offset + 5;
}

export function encodePeer(p: PeerIdentity): Uint8Array {
  const out = new Uint8Array(encodedPeerLength(p));
  writePeer(p, out, 0);
  return out;
}

/** Reads an identity at `offset`; undefined when the bytes are not a well-formed identity. */
export function readPeer(bytes: Uint8Array, offset: number): { peer: PeerIdentity; end: number } | undefined {
  if (offset >= bytes.length) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const kind = view.getUint8(offset);
  if (kind === KIND_REPLICA && offset + 9 <= bytes.length) {
    return { peer: { kind: 'replica', shard: view.getUint32(offset + 1, true), index: view.getUint32(offset + 5, true) }, end: offset + 9 };
  }
  if (kind === KIND_CLIENT && offset + 5 <= bytes.length) {
    return { peer: { kind: 'client', id: view.getUint32(offset + 1, true) }, end: offset + 5 };
  }
  return undefined;
}
