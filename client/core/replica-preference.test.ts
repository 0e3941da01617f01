import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ReplicaPreference } from './replica-preference.ts';

/** A clock the test moves and a random source that counts its draws. */
function env(): { nowMicros(): number; random(): number; now: number; draws: number } {
  return {
    now: 0,
    draws: 0,
    nowMicros() {
      return this.now;
    },
    random() {
      this.draws++;
      return (this.draws * 0.37) % 1;
    },
  };
}

void describe('ReplicaPreference', () => {
  void it('keeps one starting point for its period, then draws another', () => {
    const e = env();
    const p = new ReplicaPreference(1000);
    const first = p.start(e);
    e.now = 999_999;
    assert.equal(p.start(e), first);
    assert.equal(e.draws, 1);
    e.now = 1_000_000;
    const second = p.start(e);
    assert.equal(e.draws, 2);
    assert.notEqual(second, first);
    e.now = 1_500_000;
    assert.equal(p.start(e), second);
  });

  void it('draws afresh every time with a period of 0', () => {
    const e = env();
    const p = new ReplicaPreference(0);
    const a = p.start(e);
    const b = p.start(e);
    assert.equal(e.draws, 2);
    assert.notEqual(a, b);
  });
});
