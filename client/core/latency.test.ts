import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { VoteLateness } from './latency.ts';

void describe('VoteLateness (the fast-path wait, finisher.ts)', () => {
  void it('marks a replica often late after two late votes in a row, per replica, undone by one timely vote then, by six after a long run of late ones', () => {
    const l = new VoteLateness();
    l.note(3, true);
    assert.equal(l.oftenLate(3), false, 'one late vote is noise');
    l.note(3, true);
    assert.equal(l.oftenLate(3), true);
    assert.equal(l.oftenLate(2), false, 'other replicas are untouched');
    let timely = 0;
    while (l.oftenLate(3)) {
      l.note(3, false);
      timely++;
    }
    assert.equal(timely, 1, 'from 0.36: one timely vote brings it under 0.3');
    for (let i = 0; i < 10; i++) l.note(3, true);
    timely = 0;
    while (l.oftenLate(3)) {
      l.note(3, false);
      timely++;
    }
    assert.equal(timely, 6, 'from 0.92: six timely votes');
  });

  void it('does not mark a replica that is late now and then (one vote in ten)', () => {
    const l = new VoteLateness();
    for (let i = 0; i < 200; i++) {
      l.note(0, i % 10 === 0);
      assert.equal(l.oftenLate(0), false);
    }
  });
});

void it('marks a replica late every other vote (it would otherwise stretch half the commits to the long wait)', () => {
  const l = new VoteLateness();
  for (let i = 0; i < 20; i++) l.note(1, i % 2 === 0);
  assert.equal(l.oftenLate(1), true);
  l.note(1, true);
  assert.equal(l.oftenLate(1), true);
});
