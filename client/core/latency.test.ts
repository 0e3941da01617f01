import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RoundTrip, VoteLateness } from './latency.ts';

/** Windows of 10 ms (VoteLateness's windows are as long as the caller says votes lately take). */
const WINDOW_US = 10_000;
/** Microseconds of the start of window `w`, plus `us`. */
const at = (w: number, us = 0): number => w * WINDOW_US + us;

void describe('VoteLateness (the fast-path wait, finisher.ts)', () => {
  void it('counts a stall once per window: a run of late windows shorter than ten does not mark a replica', () => {
    const l = new VoteLateness();
    for (let w = 5; w < 14; w++) {
      for (let i = 0; i < 64; i++) l.note(3, true, at(w, i * 10), WINDOW_US);
      assert.equal(l.oftenLate(3), false, `${w - 4} late windows of 64 late votes each are ${w - 4} samples, below the mark`);
    }
    for (let i = 0; i < 64; i++) l.note(3, true, at(14, i * 10), WINDOW_US);
    assert.equal(l.oftenLate(3), true, 'a tenth one marks it: 1 - 0.95^10 >= 0.4');
    l.note(3, false, at(15), WINDOW_US);
    l.note(3, false, at(16), WINDOW_US);
    assert.equal(l.oftenLate(3), false, 'one timely window after it undoes that');
  });

  void it('marks a replica late in every window after ten, per replica, and timely windows undo it', () => {
    const l = new VoteLateness();
    let w = 0;
    while (!l.oftenLate(3)) l.note(3, true, at(w++), WINDOW_US);
    assert.equal(w, 10, '1 - 0.95^10 >= 0.4');
    assert.equal(l.oftenLate(2), false, 'other replicas are untouched');
    for (; w < 100; w++) l.note(3, true, at(w), WINDOW_US);
    let timely = 0;
    while (l.oftenLate(3)) {
      l.note(3, false, at(w++), WINDOW_US);
      timely++;
    }
    assert.equal(timely, 19, 'from 1 - 0.95^100: the first timely vote closes the last late window, eighteen timely windows then bring it under 0.4');
  });

  void it('does not mark a replica late in one window of four, and marks one late in every other window', () => {
    const sometimes = new VoteLateness();
    for (let w = 0; w < 300; w++) {
      sometimes.note(0, w % 4 === 0, at(w), WINDOW_US);
      sometimes.note(0, false, at(w, 5_000), WINDOW_US);
      assert.equal(sometimes.oftenLate(0), false, `window ${w}`);
    }
    const alternating = new VoteLateness();
    for (let w = 0; w < 60; w++) alternating.note(1, w % 2 === 0, at(w), WINDOW_US);
    alternating.note(1, true, at(60), WINDOW_US);
    assert.equal(alternating.oftenLate(1), true, 'late in every other window: it would otherwise stretch half the commits');
  });

  void it('windows are as long as the caller says votes take, at least 1 ms', () => {
    const short = new VoteLateness();
    for (let i = 0; i < 30; i++) short.note(0, true, i * 500, 100);
    assert.equal(short.oftenLate(0), true, '15 ms of late votes: fifteen 1 ms windows');
    const long = new VoteLateness();
    for (let i = 0; i < 30; i++) long.note(0, true, i * 500, 20_000);
    assert.equal(long.oftenLate(0), false, 'the same votes in one 20 ms window');
  });

  void it('a late vote in a window of timely ones makes the window late', () => {
    const l = new VoteLateness();
    for (let w = 0; w < 12; w++) {
      l.note(4, false, at(w, 100), WINDOW_US);
      l.note(4, true, at(w, 200), WINDOW_US);
      l.note(4, false, at(w, 300), WINDOW_US);
    }
    assert.equal(l.oftenLate(4), true);
  });
});

void describe('RoundTrip', () => {
  void it('waits at least the floor, then as long as the estimate or 1.5 times the recent peak', () => {
    const r = new RoundTrip();
    assert.equal(r.timeout(7, 1000), 7, 'no sample yet: the floor');
    for (let t = 0; t < 100; t++) r.sample(2, t);
    assert.equal(r.timeout(7, 1000), 7);
    r.sample(100, 100);
    assert.equal(r.timeout(7, 1000), 150, 'a stall: 1.5 x its time');
    assert.equal(r.timeout(7, 120), 120, 'capped');
  });

  void it('forgets a peak with time, not with the number of samples: half of it after two seconds', () => {
    const r = new RoundTrip();
    r.sample(100, 0);
    for (let i = 0; i < 1000; i++) r.sample(2, 1 + i / 1000);
    assert.ok(r.timeout(0, 10_000) > 149, 'a thousand quick replies within a millisecond keep the peak');
    for (let t = 2; t <= 2_000; t++) r.sample(2, t);
    const left = r.timeout(0, 10_000);
    assert.ok(left > 70 && left < 80, `two seconds later: 1.5 x 50, got ${left}`);
    for (let t = 2_001; t <= 20_000; t += 10) r.sample(2, t);
    assert.ok(r.timeout(0, 10_000) < 10, 'gone after many half-lives');
  });
});
