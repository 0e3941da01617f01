/**
 * Micro-benchmark of the wire codec (protocol/codec.ts): encode and decode ops/s of the messages of
 * the key-value commit path, with the sizes the benchmark transaction produces (2 reads, 2 writes of
 * 100 B; Merkle batches of 32, so 5-level paths), and an estimate of codec CPU per transaction built
 * from them, to compare with the model's 55 µs (reference/node-commit-path-model.md: protobufjs static
 * without validation).
 *
 * Each figure is the median of 3 timed runs (ops per CPU second) of at least `--ms` CPU milliseconds after a warm-up,
 * single thread, cases timed round-robin (the machine's speed swings). `decode` includes all
 * validation and, for messages embedding a transaction, its BLAKE3 digest; no signature is verified.
 * The `raw` rows are bare protobufjs on the same bytes (no typed objects, no validation, embedded
 * transactions left as bytes): the ratio to them is what our layer adds, and it is steadier than the
 * absolute figures on a loaded machine.
 *
 * Usage: node --import tsx bench/micro-codec.ts [--json] [--ms 300] [--only substring]
 */
import { pathToFileURL } from 'node:url';
import { pesto } from '../protocol/gen/pesto.js';
import { decodeMessage, decodeTxn, encodeMessage, encodeTxn } from '../protocol/codec.ts';
import type { ShardId, TxnDigest } from '../protocol/ids.ts';
import type { CommittedTxn, Message, SigProof, TxnBody } from '../protocol/messages.ts';
import { ts } from '../protocol/timestamp.ts';
import { fill, roundRobin } from './stats.ts';

interface Case {
  readonly name: string;
  readonly bytes: number;
  readonly fn: () => void;
}

interface Measured {
  readonly name: string;
  readonly bytes: number;
  readonly opsPerSec: number;
  readonly usPerOp: number;
  readonly runs: readonly number[];
}

let sink = 0;


/** CPU time of this process (user + system), ms: steadier than wall time on a loaded machine. */
function nowMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}


async function measure(cases: readonly Case[], ms: number): Promise<Measured[]> {
  const runs = (await roundRobin(cases.map((c) => c.fn), ms, nowMs)).map((r) => r.map(Math.round));
  return cases.map((c, i) => {
    const sorted = [...runs[i]!].sort((a, b) => a - b);
    const opsPerSec = sorted[1]!;
    return { name: c.name, bytes: c.bytes, opsPerSec, usPerOp: 1e6 / opsPerSec, runs: runs[i]! };
  });
}

const s = (n: number): ShardId => n as ShardId;
const sig = (signer: number): SigProof => ({ signer, rootSignature: fill(64, signer), index: 17, path: fill(5 * 32, signer + 1), macs: undefined });

/** The benchmark transaction: 2 reads, 2 writes of 100 B, one shard. */
export function benchTxnBody(seed: number): TxnBody {
  return {
    ts: ts(1_760_000_000_000_000 + seed, 17),
    shards: [s(0)],
    reads: [
      { key: `k${String(seed).padStart(6, '0')}`, version: ts(1_759_999_999_000_000, 3) },
      { key: `k${String(seed + 1).padStart(6, '0')}`, version: ts(1_759_999_999_000_100, 4) },
    ],
    writes: [
      { key: `k${String(seed).padStart(6, '0')}`, value: fill(100, seed) },
      { key: `k${String(seed + 1).padStart(6, '0')}`, value: fill(100, seed + 1) },
    ],
    deps: [],
    predicates: [],
    meta: new Uint8Array(0),
  };
}

function messages(): Record<'read' | 'readReply' | 'readReplyProof' | 'prepare' | 'prepareReply' | 'writeback', Message> {
  const txn = encodeTxn(benchTxnBody(1));
  const prior = encodeTxn(benchTxnBody(7));
  const sixSigs = [0, 1, 2, 3, 4, 5].map(sig);
  const proof: CommittedTxn = { txn: prior, cert: { kind: 'votes', votes: { decision: 'commit', shards: [{ shard: s(0), sigs: sixSigs }] } } };
  return {
    read: { kind: 'read', req: 42, key: 'k000001', ts: txn.body.ts, proof: false },
    readReply: { kind: 'readReply', req: 42, key: 'k000001', committed: { version: prior.body.ts, value: fill(100, 3), digest: prior.digest, proof: null }, prepared: null },
    readReplyProof: { kind: 'readReply', req: 42, key: 'k000001', committed: { version: prior.body.ts, value: fill(100, 3), digest: prior.digest, proof }, prepared: null },
    prepare: { kind: 'prepare', req: 43, txn },
    prepareReply: { kind: 'prepareReply', req: 43, digest: txn.digest, shard: s(0), decision: 'commit', sig: sig(2), conflict: null, decided: null, conflictPrepared: null },
    writeback: { kind: 'writeback', digest: txn.digest as TxnDigest, cert: proof.cert, txn: null },
  };
}

function cases(): Case[] {
  const m = messages();
  const out: Case[] = [];
  for (const [name, msg] of Object.entries(m)) {
    const wire = encodeMessage(msg);
    const raw = pesto.Envelope.decode(wire);
    out.push({ name: `${name} encode`, bytes: wire.length, fn: () => { sink ^= encodeMessage(msg).length; } });
    out.push({ name: `${name} encode raw`, bytes: wire.length, fn: () => { sink ^= pesto.Envelope.encode(raw).finish().length; } });
    out.push({ name: `${name} decode`, bytes: wire.length, fn: () => { sink ^= decodeMessage(wire).ok ? 1 : 0; } });
    out.push({ name: `${name} decode raw`, bytes: wire.length, fn: () => { sink ^= pesto.Envelope.decode(wire).body === undefined ? 0 : 1; } });
  }
  const body = benchTxnBody(1);
  const txnBytes = encodeTxn(body).bytes;
  out.push({ name: 'txn encode+digest', bytes: txnBytes.length, fn: () => { sink ^= encodeTxn(body).bytes.length; } });
  out.push({ name: 'txn decode+digest', bytes: txnBytes.length, fn: () => { sink ^= decodeTxn(txnBytes).ok ? 1 : 0; } });
  return out;
}

/**
 * Codec work of one committed transaction across the cluster (n = 6, f = 1, 2 point reads to f+1
 * replicas each, fast path): 4 ReadRequest and 4 ReadReply (each encoded once, decoded once), one
 * Prepare encoded (with its txn) and decoded 6 times, 6 PrepareReply, one Writeback decoded 6 times.
 */
const PER_TX: Record<string, number> = {
  'read encode': 4, 'read decode': 4, 'readReply encode': 4, 'readReply decode': 4,
  'txn encode+digest': 1, 'prepare encode': 1, 'prepare decode': 6,
  'prepareReply encode': 6, 'prepareReply decode': 6, 'writeback encode': 1, 'writeback decode': 6,
};

function argValue(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

export async function runMicroCodecBench(args: string[]): Promise<void> {
  const json = args.includes('--json');
  const ms = Number(argValue(args, '--ms') ?? '300');
  const only = argValue(args, '--only');
  const selected = cases().filter((c) => only === undefined || c.name.includes(only));
  if (!json) console.log(`micro-codec: median of 3 interleaved runs of >= ${ms} ms each, single thread, node ${process.version}`);
  const results = await measure(selected, ms);
  let usPerTx = 0;
  let complete = true;
  for (const [name, count] of Object.entries(PER_TX)) {
    const r = results.find((x) => x.name === name);
    if (r === undefined) complete = false;
    else usPerTx += count * r.usPerOp;
  }
  for (const r of results) {
    if (json) console.log(JSON.stringify({ bench: 'micro-codec', ...r }));
    else console.log(`${r.name.padEnd(22)} ${String(r.bytes).padStart(6)} B ${Math.round(r.opsPerSec).toLocaleString('en-US').padStart(11)} ops/s ${r.usPerOp.toFixed(2).padStart(8)} µs  (${r.runs.join(', ')})`);
  }
  if (complete) {
    if (json) console.log(JSON.stringify({ bench: 'micro-codec', name: 'codec per committed tx', usPerTx }));
    else console.log(`codec work per committed transaction (cluster total, fast path): ${usPerTx.toFixed(1)} µs`);
  }
  await Promise.resolve();
  if (sink === 0.5) console.log('');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runMicroCodecBench(process.argv.slice(2));
}
