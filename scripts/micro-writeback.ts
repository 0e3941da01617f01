/**
 * `node --max-semi-space-size=512 --min-semi-space-size=512 --import tsx scripts/micro-writeback.ts`:
 * what a client's shell allocates to send one writeback to six replicas (decision 0058): JS heap and
 * ArrayBuffer bytes per fan-out, with a young generation too large to collect during the measured
 * loop, and wall time per fan-out. `WHOLE=1` sends every replica the same full encoding (the form
 * before decision 0058). The votes are held as a client holds them: decoded from wire bytes.
 * (A script beside the other micro-benchmarks of scripts/.)
 */
import { decodeMessage, EncodeMemo, encodeTxn } from '../protocol/codec.ts';
import { keyPairFromSeed } from '../protocol/crypto/ed25519.ts';
import { PairwiseMacs } from '../protocol/crypto/mac.ts';
import { signBatch } from '../protocol/crypto/signed.ts';
import type { ShardId } from '../protocol/ids.ts';
import type { Writeback } from '../protocol/messages.ts';
import { voteLeaf } from '../protocol/statements.ts';
import { ts } from '../protocol/timestamp.ts';
const N = 6;
const keys = Array.from({ length: N }, (_, i) => keyPairFromSeed(new Uint8Array(32).fill(i + 1)));
const T = encodeTxn({ ts: ts(5_000, 3), shards: [0 as ShardId], reads: [], writes: [{ key: 'k', value: new Uint8Array([7]) }], deps: [], predicates: [], meta: new Uint8Array(0) });
const leaf = voteLeaf(T.digest, 0 as ShardId, 'commit');
// Votes as the client holds them: decoded from a writeback's wire bytes (WireSigProof views).
const sigs = keys.map((k, i) => ({ ...signBatch([leaf], k.secretKey, i)[0]!, macs: new PairwiseMacs(0, i, k.secretKey, keys.map((x) => x.publicKey)).vector(leaf) }));
const wire = new EncodeMemo().encode({ kind: 'writeback', digest: T.digest, cert: { kind: 'votes', votes: { decision: 'commit', shards: [{ shard: 0 as ShardId, sigs }] } }, txn: null });
const held = (decodeMessage(wire) as { ok: true; value: Writeback }).value;
const memo = new EncodeMemo();
const round = (): void => {
  const wb: Writeback = { kind: 'writeback', digest: held.digest, cert: held.cert, txn: null };
  for (let i = 0; i < N; i++) memo.encode(wb, process.env.WHOLE === "1" ? -1 : i);
  memo.reset();
};
for (let i = 0; i < 20_000; i++) round();
const reps = 2_000;
const h0 = process.memoryUsage().heapUsed;
const e0 = process.memoryUsage().arrayBuffers;
const t0 = process.hrtime.bigint();
for (let i = 0; i < reps; i++) round();
const t1 = process.hrtime.bigint();
console.log(`heap bytes per fan-out ${Math.round((process.memoryUsage().heapUsed - h0) / reps)}, arrayBuffers ${Math.round((process.memoryUsage().arrayBuffers - e0) / reps)}, ns per fan-out ${Number(t1 - t0) / reps}`);
