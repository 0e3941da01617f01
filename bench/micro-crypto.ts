/**
 * Micro-benchmark of the crypto choices in protocol/crypto (decisions 0001 and 0002): ed25519 sign and
 * verify in sodium-native, node:crypto and @noble/curves; BLAKE3 in blake3-jit and blake3-wasm at the
 * sizes Pesto hashes (64 B Merkle nodes, ~300 B transactions, 1 KiB); and the per-vote operations
 * built on them (Merkle fold, proof verification on a cache hit, signing a batch of 32).
 *
 * Each figure is the median of 3 timed runs (ops/s), each run at least `--ms` milliseconds after a
 * warm-up. Single thread. This machine's speed swings about 2x over minutes, so the cases that are
 * compared with each other (one `set`: e.g. every library's 64-byte hash) are timed round-robin,
 * A B C A B C A B C, and each row also prints its ratio to the set's first row. Compare rows of one
 * set, not with another day's numbers.
 *
 * Usage: node --import tsx bench/micro-crypto.ts [--json] [--ms 400] [--only substring]
 */
import { createPrivateKey, createPublicKey, sign as nodeSign, verify as nodeVerify } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { ed25519 as noble } from '@noble/curves/ed25519.js';
import { createKeyed, hash as jitHash, hashInto as jitHashInto } from 'blake3-jit';
import { hash as wasmHash, keyedHash as wasmKeyedHash } from 'blake3-wasm';
import { blake3Into, hashNode, MERKLE_NODE_KEY } from '../protocol/crypto/blake3.ts';
import { keyPairFromSeed, sign, verify } from '../protocol/crypto/ed25519.ts';
import { buildTree, foldPath } from '../protocol/crypto/merkle.ts';
import { signBatch, VerifiedRootCache, verifyProof } from '../protocol/crypto/signed.ts';
import { fill, roundRobin } from './stats.ts';

interface Case {
  /** Cases of one set are timed interleaved and reported relative to the set's first case. */
  readonly set: string;
  readonly group: 'ed25519' | 'blake3' | 'merkle';
  readonly lib: string;
  readonly op: string;
  readonly bytes: number;
  readonly fn: () => void;
}

interface Measured {
  readonly group: string;
  readonly lib: string;
  readonly op: string;
  readonly bytes: number;
  readonly opsPerSec: number;
  readonly runs: readonly number[];
  /** opsPerSec divided by that of the first case of the same set. */
  readonly ratio: number;
}

/** Keeps results observable so the JIT cannot drop the work. */
let sink = 0;


function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}


/** Times the cases of one set round-robin: warm-up each, then 3 rounds of one run per case. */
async function measureSet(cases: readonly Case[], ms: number): Promise<Measured[]> {
  const runs = await roundRobin(cases.map((c) => c.fn), ms, nowMs);
  const medians = runs.map((r) => [...r].sort((a, b) => a - b)[1]!);
  return cases.map((c, i) => ({
    group: c.group, lib: c.lib, op: c.op, bytes: c.bytes,
    opsPerSec: Math.round(medians[i]!),
    runs: runs[i]!.map(Math.round),
    ratio: Math.round((medians[i]! / medians[0]!) * 100) / 100,
  }));
}

function ed25519Cases(): Case[] {
  const msg = fill(32, 1); // Pesto signs 32-byte Merkle roots
  const kp = keyPairFromSeed(fill(32, 2));
  const sig = sign(msg, kp.secretKey);
  const pkcs8 = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), fill(32, 2)]);
  const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), kp.publicKey]);
  const nodePriv = createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' });
  const nodePub = createPublicKey({ key: spki, format: 'der', type: 'spki' });
  const nobleSecret = fill(32, 2);
  return [
    { set: 'ed25519 sign', group: 'ed25519', lib: 'sodium-native', op: 'sign', bytes: 32, fn: () => { sink ^= sign(msg, kp.secretKey)[0]!; } },
    { set: 'ed25519 verify', group: 'ed25519', lib: 'sodium-native', op: 'verify', bytes: 32, fn: () => { sink ^= verify(sig, msg, kp.publicKey) ? 1 : 0; } },
    { set: 'ed25519 sign', group: 'ed25519', lib: 'node:crypto', op: 'sign', bytes: 32, fn: () => { sink ^= nodeSign(null, msg, nodePriv)[0]!; } },
    { set: 'ed25519 verify', group: 'ed25519', lib: 'node:crypto', op: 'verify', bytes: 32, fn: () => { sink ^= nodeVerify(null, msg, nodePub, sig) ? 1 : 0; } },
    { set: 'ed25519 sign', group: 'ed25519', lib: '@noble/curves', op: 'sign', bytes: 32, fn: () => { sink ^= noble.sign(msg, nobleSecret)[0]!; } },
    { set: 'ed25519 verify', group: 'ed25519', lib: '@noble/curves', op: 'verify', bytes: 32, fn: () => { sink ^= noble.verify(sig, msg, kp.publicKey) ? 1 : 0; } },
  ];
}

function blake3Cases(): Case[] {
  const out = new Uint8Array(32);
  const cases: Case[] = [];
  for (const n of [64, 300, 1024]) {
    const data = fill(n, n);
    const buf = Buffer.from(data);
    cases.push(
      { set: `hash ${n} B`, group: 'blake3', lib: 'blake3-jit', op: 'hash', bytes: n, fn: () => { sink ^= jitHash(data)[0]!; } },
      { set: `hash ${n} B`, group: 'blake3', lib: 'blake3-jit', op: 'hashInto', bytes: n, fn: () => { jitHashInto(data, out); sink ^= out[0]!; } },
      { set: `hash ${n} B`, group: 'blake3', lib: 'blake3-wasm', op: 'hash', bytes: n, fn: () => { sink ^= (wasmHash(buf) as Buffer)[0]!; } },
    );
  }
  // The 64-byte Merkle node: left and right halves in separate buffers, as in a fold.
  const left = fill(32, 3);
  const right = fill(32, 4);
  const scratch = new Uint8Array(64);
  const keyed = createKeyed(MERKLE_NODE_KEY);
  const keyBuf = Buffer.from(MERKLE_NODE_KEY);
  cases.push(
    { set: 'merkle node 64 B', group: 'blake3', lib: 'pesto hashNode', op: 'node keyed', bytes: 64, fn: () => { hashNode(left, right, out); sink ^= out[0]!; } },
    { set: 'merkle node 64 B', group: 'blake3', lib: 'blake3-jit', op: 'node plain hashInto', bytes: 64, fn: () => { scratch.set(left); scratch.set(right, 32); jitHashInto(scratch, out); sink ^= out[0]!; } },
    { set: 'merkle node 64 B', group: 'blake3', lib: 'blake3-jit', op: 'node keyed reset/update/finalize', bytes: 64, fn: () => { scratch.set(left); scratch.set(right, 32); sink ^= keyed.reset().update(scratch).finalize()[0]!; } },
    { set: 'merkle node 64 B', group: 'blake3', lib: 'blake3-wasm', op: 'node keyed', bytes: 64, fn: () => { scratch.set(left); scratch.set(right, 32); sink ^= wasmKeyedHash(keyBuf, Buffer.from(scratch.buffer))[0]!; } },
    { set: 'hash 300 B', group: 'blake3', lib: 'pesto blake3Into', op: 'hash', bytes: 300, fn: () => { blake3Into(fill300, out); sink ^= out[0]!; } },
  );
  return cases;
}
const fill300 = fill(300, 9);

function merkleCases(): Case[] {
  const kp = keyPairFromSeed(fill(32, 5));
  const leaves = Array.from({ length: 32 }, (_, i) => fill(32, 100 + i));
  const tree = buildTree(leaves);
  const path = tree.pathFor(17);
  const out = new Uint8Array(32);
  const proofs = signBatch(leaves, kp.secretKey, 0);
  const cache = new VerifiedRootCache();
  verifyProof(leaves[0]!, proofs[0]!, kp.publicKey, cache);
  let i = 0;
  return [
    { set: 'merkle', group: 'merkle', lib: 'pesto', op: 'foldPath B=32 (5 levels)', bytes: 32, fn: () => { foldPath(leaves[17]!, 17, path, out); sink ^= out[0]!; } },
    { set: 'merkle', group: 'merkle', lib: 'pesto', op: 'verifyProof cache hit B=32', bytes: 32, fn: () => { i = (i + 1) & 31; sink ^= verifyProof(leaves[i]!, proofs[i]!, kp.publicKey, cache) ? 1 : 0; } },
    { set: 'merkle', group: 'merkle', lib: 'pesto', op: 'verifyProof cache miss B=32 (fold + sodium verify)', bytes: 32, fn: () => { i = (i + 1) & 31; sink ^= verifyProof(leaves[i]!, proofs[i]!, kp.publicKey, new VerifiedRootCache(2)) ? 1 : 0; } },
    { set: 'merkle', group: 'merkle', lib: 'pesto', op: 'buildTree B=32', bytes: 32, fn: () => { sink ^= buildTree(leaves).root[0]!; } },
    { set: 'merkle', group: 'merkle', lib: 'pesto', op: 'signBatch B=32 (tree + paths + 1 sign)', bytes: 32, fn: () => { sink ^= signBatch(leaves, kp.secretKey, 0).length; } },
  ];
}

function argValue(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

export async function runMicroCryptoBench(args: string[]): Promise<void> {
  const json = args.includes('--json');
  const ms = Number(argValue(args, '--ms') ?? '400');
  const only = argValue(args, '--only');
  const cases = [...ed25519Cases(), ...blake3Cases(), ...merkleCases()].filter(
    (c) => only === undefined || `${c.set} ${c.lib} ${c.op}`.includes(only),
  );
  const sets = new Map<string, Case[]>();
  for (const c of cases) sets.set(c.set, [...(sets.get(c.set) ?? []), c]);
  if (!json) console.log(`micro-crypto: median of 3 interleaved runs of >= ${ms} ms each, single thread, node ${process.version}`);
  for (const [set, members] of sets) {
    if (!json) console.log(`-- ${set}`);
    for (const m of await measureSet(members, ms)) {
      if (json) console.log(JSON.stringify({ bench: 'micro-crypto', set, ...m }));
      else console.log(`${m.lib.padEnd(16)} ${m.op.padEnd(48)} ${String(m.bytes).padStart(5)} B ${m.opsPerSec.toLocaleString('en-US').padStart(11)} ops/s  x${m.ratio.toFixed(2)}  (${m.runs.join(', ')})`);
    }
  }
  if (sink === 0.5) console.log(''); // never true; keeps `sink` live
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runMicroCryptoBench(process.argv.slice(2));
}
