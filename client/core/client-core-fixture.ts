/**
 * Shared fixtures of the client core's tests (client-core.test.ts, client-core-range.test.ts): two shards
 * of n = 6 with their replicas' keys, a client with fixed options, time and seeded randomness, and
 * helpers that pick the core's effects apart.
 */
import { keyPairFromSeed } from '../../protocol/crypto/ed25519.ts';
import { signBatch } from '../../protocol/crypto/signed.ts';
import type { ClientId, ReplicaIndex, ReplicaRef, ShardId } from '../../protocol/ids.ts';
import type { Key, Message, SigProof } from '../../protocol/messages.ts';
import { quorums } from '../../protocol/quorum.ts';
import { shardOfKey } from '../../protocol/sharding.ts';
import { ClientCore } from './client-core.ts';
import type { ClientCoreOptions } from './client-options.ts';
import type { ClientEffect } from './effects.ts';
import type { OpResult } from './results.ts';

// f = 1, two shards of n = 6: fast commit 6, slow commit 4, slow abort 2, ST2 5.
export const Q = quorums(1);
export const N = Q.n;
export const SHARDS = 2;
export const NOW = 5_000_000;
export const keys = [0, 1].map((shard) => Array.from({ length: N }, (_, i) => keyPairFromSeed(new Uint8Array(32).fill(16 * shard + i + 1))));
export const sigOf = (leaf: Uint8Array, shard: ShardId, signer: number): SigProof => signBatch([leaf], keys[shard]![signer]!.secretKey, signer)[0]!;
export const ref = (shard: ShardId, index: number): ReplicaRef => ({ shard, index: index as ReplicaIndex });
export const range = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, i) => from + i);

/** A key of each shard, found by scanning (shardOfKey is a stable hash). */
export function keyOn(shard: number, prefix: string): Key {
  for (let i = 0; ; i++) if (shardOfKey(`${prefix}${i}`, SHARDS) === shard) return `${prefix}${i}`;
}
export const KEY0 = keyOn(0, 'a');
export const KEY1 = keyOn(1, 'b');

export const OPTS: ClientCoreOptions = {
  clientId: 7 as ClientId,
  f: 1,
  shardCount: SHARDS,
  fastPathWaitMs: 5,
  fastPathWaitMaxMs: 20,
  resendMs: 1_000,
  readRetryMs: 500,
  relayWaitMs: 50,
};

/** Seeded uniform [0, 1) (mulberry32): the simulator's kind of randomness, fixed for the test. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export const newClient = (opts: Partial<ClientCoreOptions> = {}): ClientCore => new ClientCore({ ...OPTS, ...opts }, { nowMicros: () => NOW, random: seeded(42) });

export type Sent<M extends Message> = { to: ReplicaRef; msg: M };
export function sentOf<K extends Message['kind']>(effects: ClientEffect[], kind: K): Sent<Extract<Message, { kind: K }>>[] {
  const out: Sent<Extract<Message, { kind: K }>>[] = [];
  for (const e of effects) if (e.kind === 'send' && e.msg.kind === kind) out.push({ to: e.to, msg: e.msg as Extract<Message, { kind: K }> });
  return out;
}
export const dones = (effects: ClientEffect[]): { op: number; result: OpResult }[] => effects.flatMap((e) => (e.kind === 'done' ? [{ op: e.op, result: e.result }] : []));
export const timers = (effects: ClientEffect[]): Extract<ClientEffect, { kind: 'timer' }>[] => effects.flatMap((e) => (e.kind === 'timer' ? [e] : []));
