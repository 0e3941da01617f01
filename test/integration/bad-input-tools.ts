// Tools of the bad-input tests: raw gRPC streams to a replica, driven by hand (optionally authenticated
// with the dialer's half of the handshake, then anything at all can be written on them), and builders of
// certificates from real replica signatures.
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { STREAM_PATH, type PeerIdentity } from '../../net/index.ts';
import { singleMessageFrame } from '../../net/frame.ts';
import { DialerHandshake } from '../../net/handshake.ts';
import { publicKeyOf, splitAddress, type ClusterConfig } from '../../protocol/config.ts';
import type { KeyPair } from '../../protocol/crypto/ed25519.ts';
import { signBatch } from '../../protocol/crypto/signed.ts';
import { shardId, type ShardId } from '../../protocol/ids.ts';
import { encodeTxn } from '../../protocol/codec.ts';
import type { Certificate, Message, SigProof, Txn, VoteCert } from '../../protocol/messages.ts';

/** Messages a replica's boundary rejected, over every reason (its /metrics scraped). */
export function totalRejected(m: ReadonlyMap<string, number>): number {
  let sum = 0;
  for (const [k, v] of m) if (k.startsWith('pesto_rejected_messages_total{')) sum += v;
  return sum;
}

/** A transaction of `clientId` on shard 0 at `tsMicros` that writes one value to `key`, encoded. */
export function oneWriteTxn(clientId: number, key: string, tsMicros = Date.now() * 1000): Txn {
  return encodeTxn({ ts: { micros: tsMicros, clientId }, shards: [shardId(0)], reads: [], writes: [{ key, value: Buffer.from('v') }], deps: [], predicates: [], meta: new Uint8Array(0) });
}

/** Real signatures of replicas `signers` over one leaf, each in its own batch of one. */
export function signedBy(keys: readonly KeyPair[], leaf: Uint8Array, signers: readonly number[]): SigProof[] {
  return signers.map((i) => signBatch([leaf], keys[i]!.secretKey, i)[0]!);
}

export function votes(decision: 'commit' | 'abstain', shard: ShardId, list: SigProof[]): VoteCert {
  return { decision, shards: [{ shard, sigs: list }] };
}

export function writeback(txn: Txn, cert: Certificate): Message {
  return { kind: 'writeback', digest: txn.digest, cert, txn };
}


export interface RawStream {
  readonly call: grpc.ClientDuplexStream<Buffer, Buffer>;
  /** Resolves with the status details (or 'end') when the server ends the stream. */
  readonly closed: Promise<string>;
  close(): void;
}

export function replicaAddressOf(config: ClusterConfig, index: number): { host: string; port: number } {
  const a = splitAddress(config.shards[0]!.replicas[index]!.address);
  assert.ok(a !== undefined);
  return a;
}

const ident = (b: Buffer): Buffer => b;

/**
 * One gRPC stream to replica `index` on the peer path, driven by hand. With `as`, runs the dialer's
 * half of the handshake as that identity and key and resolves once the server sent its proof (or
 * once the server ended the stream, for impostors); without, resolves at once and nothing is sent.
 */
export async function openRawStream(config: ClusterConfig, index: number, as?: { readonly identity: PeerIdentity; readonly keyPair: KeyPair }): Promise<RawStream> {
  const { host, port } = replicaAddressOf(config, index);
  const grpcClient = new grpc.Client(`${host}:${port}`, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
  const call = grpcClient.makeBidiStreamRequest<Buffer, Buffer>(STREAM_PATH, ident, ident, new grpc.Metadata());
  let done = (_: string): void => undefined;
  const closed = new Promise<string>((resolve) => {
    done = resolve;
  });
  call.on('error', (e: grpc.ServiceError) => done(e.details));
  call.on('end', () => done('end'));
  call.on('close', () => done('close'));
  const close = (): void => {
    call.cancel();
    grpcClient.close();
  };
  if (as === undefined) {
    call.on('data', () => undefined);
    return { call, closed, close };
  }
  const peer: PeerIdentity = { kind: 'replica', shard: 0, index };
  const hs = new DialerHandshake({ identity: as.identity, secretKey: as.keyPair.secretKey, publicKeyOf: (p) => publicKeyOf(config, p) }, peer);
  const authenticated = new Promise<void>((resolve, reject) => {
    call.on('data', (frame: Buffer) => {
      const msg = frame.subarray(4, 4 + frame.readUInt32LE(0));
      const step = hs.receive(msg);
      if (!step.ok) return reject(new Error(`the replica's handshake failed on our side: ${step.reason}`));
      if (step.reply !== undefined) call.write(singleMessageFrame(step.reply, 0));
      if (step.peer !== undefined) resolve();
    });
    void closed.then(() => resolve());
  });
  await authenticated;
  return { call, closed, close };
}

