import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encodeTxn } from '../../protocol/codec.ts';
import type { ShardId } from '../../protocol/ids.ts';
import type { CommittedTxn, SigProof } from '../../protocol/messages.ts';
import { quorums } from '../../protocol/quorum.ts';
import { ts } from '../../protocol/timestamp.ts';
import { VoteTally, type ShardStatus } from './vote-tally.ts';

/** Stand-in signatures: the tally only counts distinct signers (the shell verified them). */
const sig = (signer: number): SigProof => ({ signer, rootSignature: new Uint8Array(64), index: 0, path: new Uint8Array(0) });

const CONFLICT: CommittedTxn = {
  txn: encodeTxn({ ts: ts(1, 1), shards: [0 as ShardId], reads: [], writes: [], deps: [], predicates: [], meta: new Uint8Array(0) }),
  cert: { kind: 'votes', votes: { decision: 'commit', shards: [] } },
};

function tally(f: number, commits: number, abstains: number, conflict = false): VoteTally {
  const t = new VoteTally(quorums(f));
  for (let i = 0; i < commits; i++) t.commits.set(i, sig(i));
  for (let i = commits; i < commits + abstains; i++) t.abstains.set(i, sig(i));
  if (conflict) t.conflict = CONFLICT;
  return t;
}

interface Row {
  readonly f: number;
  readonly commits: number;
  readonly abstains: number;
  readonly conflict?: boolean;
  readonly status: ShardStatus;
}

// f = 1: n 6, slow commit 4, fast abort 4, slow abort 2. f = 2: n 11, slow commit 7, fast abort 7, slow abort 3.
const rows: Row[] = [
  { f: 1, commits: 0, abstains: 0, status: 'pending' },
  { f: 1, commits: 3, abstains: 1, status: 'pending' },
  { f: 1, commits: 6, abstains: 0, status: 'fast-commit' },
  { f: 1, commits: 4, abstains: 0, status: 'commit-tentative' },
  { f: 1, commits: 5, abstains: 0, status: 'commit-tentative' },
  { f: 1, commits: 4, abstains: 1, status: 'slow-commit' },
  { f: 1, commits: 5, abstains: 1, status: 'slow-commit' },
  { f: 1, commits: 0, abstains: 4, status: 'fast-abort' },
  { f: 1, commits: 2, abstains: 4, status: 'fast-abort' },
  { f: 1, commits: 0, abstains: 0, conflict: true, status: 'fast-abort' },
  { f: 1, commits: 5, abstains: 0, conflict: true, status: 'fast-abort' },
  { f: 1, commits: 0, abstains: 2, status: 'abort-tentative' },
  { f: 1, commits: 2, abstains: 2, status: 'abort-tentative' },
  { f: 1, commits: 0, abstains: 3, status: 'abort-tentative' },
  { f: 1, commits: 2, abstains: 3, status: 'abort-tentative' },
  { f: 1, commits: 3, abstains: 3, status: 'slow-abort' },
  { f: 2, commits: 6, abstains: 0, status: 'pending' },
  { f: 2, commits: 10, abstains: 0, status: 'commit-tentative' },
  { f: 2, commits: 11, abstains: 0, status: 'fast-commit' },
  { f: 2, commits: 7, abstains: 0, status: 'commit-tentative' },
  { f: 2, commits: 7, abstains: 2, status: 'slow-commit' },
  { f: 2, commits: 0, abstains: 7, status: 'fast-abort' },
  { f: 2, commits: 1, abstains: 0, conflict: true, status: 'fast-abort' },
  { f: 2, commits: 6, abstains: 3, status: 'abort-tentative' },
  { f: 2, commits: 0, abstains: 4, status: 'abort-tentative' },
  { f: 2, commits: 0, abstains: 5, status: 'abort-tentative' },
  { f: 2, commits: 4, abstains: 6, status: 'abort-tentative' },
  { f: 2, commits: 5, abstains: 6, status: 'slow-abort' },
  { f: 2, commits: 6, abstains: 2, status: 'pending' },
];

void describe('VoteTally.status (PROTOCOL §6 decision table)', () => {
  for (const r of rows) {
    void it(`is ${r.status} for f=${r.f} with ${r.commits} COMMIT and ${r.abstains} ABSTAIN${r.conflict === true ? ' and a proven conflict' : ''}`, () => {
      assert.equal(tally(r.f, r.commits, r.abstains, r.conflict).status(), r.status);
    });
  }
});

void describe('VoteTally.take', () => {
  void it('returns exactly the count asked for, lowest signers first', () => {
    const t = new VoteTally(quorums(1));
    for (const i of [5, 2, 4, 0, 3]) t.commits.set(i, sig(i));
    assert.deepEqual(
      t.take('commit', 4).map((p) => p.signer),
      [0, 2, 3, 4],
    );
    assert.equal(t.take('commit', 4).length, 4);
  });

  void it('stays exact with a signer index outside 0..n-1, and gives what there is when too few', () => {
    const t = new VoteTally(quorums(1));
    for (const i of [9, 1, 3]) t.commits.set(i, sig(i));
    assert.deepEqual(
      t.take('commit', 3).map((p) => p.signer),
      [1, 3, 9],
    );
    assert.deepEqual(
      t.take('commit', 5).map((p) => p.signer),
      [1, 3, 9],
    );
    t.commits.delete(9);
    assert.deepEqual(
      t.take('commit', 4).map((p) => p.signer),
      [1, 3],
    );
  });

  void it('takes only signatures of the decision asked for', () => {
    const t = tally(1, 2, 3);
    assert.deepEqual(
      t.take('abstain', 2).map((p) => p.signer),
      [2, 3],
    );
  });

  void it('counts each signer once and knows who voted', () => {
    const t = new VoteTally(quorums(1));
    t.commits.set(1, sig(1));
    t.commits.set(1, sig(1));
    t.abstains.set(4, sig(4));
    assert.equal(t.voters, 2);
    assert.ok(t.hasVoted(1) && t.hasVoted(4) && !t.hasVoted(0));
  });
});
