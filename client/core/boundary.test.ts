// The client's checks of a vote (checkAtClient, prepareReply): the vote must be for the transaction
// the request belongs to, from the shard and replica on its link, and signed by it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CertificateVerifier } from '../../protocol/certificate.ts';
import { encodeTxn } from '../../protocol/codec.ts';
import { keyPairFromSeed } from '../../protocol/crypto/ed25519.ts';
import { signBatch, VerifiedRootCache } from '../../protocol/crypto/signed.ts';
import type { ReplicaIndex, ShardId } from '../../protocol/ids.ts';
import type { PrepareReply, Txn } from '../../protocol/messages.ts';
import { voteLeaf } from '../../protocol/statements.ts';
import { ts } from '../../protocol/timestamp.ts';
import { checkAtClient, type ClientBoundary } from './boundary.ts';

const S0 = 0 as ShardId;
const keys = Array.from({ length: 6 }, (_, i) => keyPairFromSeed(new Uint8Array(32).fill(40 + i)));
const txnAt = (micros: number): Txn => encodeTxn({ ts: ts(micros, 1), shards: [S0], reads: [], writes: [{ key: 'k', value: Uint8Array.of(1) }], deps: [], predicates: [], meta: new Uint8Array(0) });

void describe('checkAtClient on votes', () => {
  const mine = txnAt(1_000);
  const other = txnAt(2_000);
  const boundary: ClientBoundary = {
    verifier: new CertificateVerifier({ f: 1, shardCount: 1, publicKey: (_s, i) => keys[i]?.publicKey, cache: new VerifiedRootCache(16) }),
    txnOfReq: (req) => (req === 7 ? mine : null),
    verifiedCommits: new Set(),
  };
  const vote = (t: Txn, signer: number, over: Partial<PrepareReply> = {}): PrepareReply => ({
    kind: 'prepareReply', req: 7, digest: t.digest, shard: S0, decision: 'commit',
    sig: signBatch([voteLeaf(t.digest, S0, 'commit')], keys[signer]!.secretKey, signer)[0]!,
    conflict: null, decided: null, conflictPrepared: null, ...over,
  });
  const from = (index: number) => ({ shard: S0, index: index as ReplicaIndex });

  void it('accepts a signed vote for its transaction from the replica on the link', () => {
    assert.equal(checkAtClient(boundary, from(2), vote(mine, 2)), null);
  });

  void it('refuses a vote for another transaction, from another replica or shard, unsigned, or for a request nobody waits on', () => {
    assert.equal(checkAtClient(boundary, from(2), vote(other, 2)), 'vote-wrong-txn');
    assert.equal(checkAtClient(boundary, from(3), vote(mine, 2)), 'vote-wrong-signer');
    assert.equal(checkAtClient(boundary, { shard: 1 as ShardId, index: 2 as ReplicaIndex }, vote(mine, 2)), 'vote-wrong-shard');
    assert.equal(checkAtClient(boundary, from(2), vote(mine, 2, { sig: null })), 'vote-unsigned');
    assert.equal(checkAtClient(boundary, from(2), vote(mine, 2, { req: 8 })), 'late');
    const forged = vote(mine, 2);
    const sig = { ...forged.sig!, rootSignature: Uint8Array.from(forged.sig!.rootSignature, (b, i) => (i === 0 ? b ^ 1 : b)) };
    assert.equal(checkAtClient(boundary, from(2), { ...forged, sig }), 'vote-bad-signature');
  });
});
