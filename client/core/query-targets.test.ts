import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ShardId } from '../../protocol/ids.ts';
import { quorums } from '../../protocol/quorum.ts';
import { consecutiveReplicas } from './point-read.ts';
import { QueryTargets } from './query-targets.ts';

const q = quorums(1); // n = 6: eager rounds ask 5, sync rounds 4
const S = 0 as ShardId;
/** `random()` values that start the rotation at each replica in turn. */
const offsets = Array.from({ length: q.n }, (_, i) => (i + 0.5) / q.n);
const leftOut = (targets: readonly number[]): number[] => Array.from({ length: q.n }, (_, i) => i).filter((i) => !targets.includes(i));

/** A clock for the rounds: 2.5 ms apart by default (about 400 rounds a second, a loaded client). */
let clock = 0;
const at = (stepMicros = 2_500): number => (clock += stepMicros);

void describe('QueryTargets', () => {
  void it('with no history picks 4f+1 consecutive replicas from the random offset, as point reads do', () => {
    const t = new QueryTargets(q, true);
    for (const r of offsets) assert.deepEqual(t.eager(S, r), consecutiveReplicas(r, q.queryFanout, q.n));
  });

  void it('leaves out a replica that keeps disagreeing, whatever the offset', () => {
    const t = new QueryTargets(q, true);
    for (let round = 0; round < 10; round++) t.noteRound(S, [4], at());
    for (const r of offsets) assert.deepEqual(leftOut(t.eager(S, r)), [4]);
  });

  void it('asks a replica again once it stopped disagreeing for a few dozen rounds, when rounds are seconds apart', () => {
    const t = new QueryTargets(q, true);
    for (let round = 0; round < 10; round++) t.noteRound(S, [4], at(1_000_000));
    let rounds = 0;
    while (t.score(S, 4) > 0) {
      t.noteRound(S, [], at(1_000_000));
      rounds++;
    }
    assert.ok(rounds > 10 && rounds < 100, `forgotten after ${rounds} rounds`);
    // Back to a tie: every replica is left out for some offset.
    assert.deepEqual(new Set(offsets.flatMap((r) => leftOut(t.eager(S, r)))), new Set([0, 1, 2, 3, 4, 5]));
  });

  void it('asks it again only after a few seconds when rounds come hundreds a second', () => {
    const t = new QueryTargets(q, true);
    for (let round = 0; round < 10; round++) t.noteRound(S, [4], at());
    const from = clock;
    let rounds = 0;
    while (t.score(S, 4) > 0) {
      t.noteRound(S, [], at());
      rounds++;
    }
    const seconds = (clock - from) / 1e6;
    assert.ok(rounds > 100 && seconds > 3 && seconds < 15, `forgotten after ${rounds} rounds, ${seconds} s`);
  });

  void it('of two disagreeing replicas leaves out the one that disagreed more lately, and swaps when the other does', () => {
    const t = new QueryTargets(q, true);
    t.noteRound(S, [4], at());
    t.noteRound(S, [5], at());
    assert.deepEqual(leftOut(t.eager(S, 0)), [5]);
    t.noteRound(S, [4], at());
    assert.deepEqual(leftOut(t.eager(S, 0)), [4]);
  });

  void it('breaks ties between equally bad replicas at random', () => {
    const t = new QueryTargets(q, true);
    t.noteRound(S, [2, 4], at());
    assert.deepEqual(new Set(offsets.flatMap((r) => leftOut(t.eager(S, r)))), new Set([2, 4]));
  });

  void it('keeps shards apart and counts silence at a timeout as disagreement', () => {
    const t = new QueryTargets(q, true);
    t.blame(1 as ShardId, [3]);
    assert.equal(t.score(S, 3), 0);
    assert.deepEqual(leftOut(t.eager(1 as ShardId, 0)), [3]);
  });

  void it('learns nothing when learning is off', () => {
    const t = new QueryTargets(q, false);
    for (let round = 0; round < 10; round++) t.noteRound(S, [4], at());
    t.blame(S, [4]);
    assert.equal(t.score(S, 4), 0);
    for (const r of offsets) assert.deepEqual(t.eager(S, r), consecutiveReplicas(r, q.queryFanout, q.n));
  });

  void it('sends a sync round to 3f+1 replicas, those holding the whole proposal first', () => {
    const t = new QueryTargets(q, true);
    for (const r of offsets) {
      const targets = t.sync(S, [0, 2, 3, 5], r);
      assert.deepEqual([...targets].sort(), [0, 2, 3, 5]);
    }
    // Fewer current replicas than 3f+1: the others fill up, the ones that disagreed least first.
    t.noteRound(S, [1], at());
    for (const r of offsets) {
      const targets = t.sync(S, [0, 2], r);
      assert.equal(targets.length, q.commitSlow);
      assert.deepEqual(targets.slice(0, 2).sort(), [0, 2]);
      assert.ok(!targets.some((i) => i === 1));
    }
  });
});
