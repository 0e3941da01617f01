/**
 * Recoveries (recovery.ts): when other clients' transactions are finished by this one. A blocker is
 * finished after the relay wait, unless it blocks another of our transactions meanwhile: then at once
 * (a simulation sweep found Byzantine clients on three accounts starving a correct client whose retries
 * kept aborting on a blocker waiting out the timer; decision 0063).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { DigestKey } from '../../protocol/ids.ts';
import type { Txn } from '../../protocol/messages.ts';
import { Recoveries, type RecoveryHost } from './recovery.ts';

function fakeTxn(key: string): Txn {
  return { key: key as DigestKey } as Txn;
}

function harness(): { r: Recoveries; finished: string[]; timers: number[]; done: Map<string, () => void> } {
  const finished: string[] = [];
  const timers: number[] = [];
  const done = new Map<string, () => void>();
  const host: RecoveryHost = {
    finish: (txn, whenDone) => {
      finished.push(txn.key);
      done.set(txn.key, whenDone);
    },
    timer: (afterMs) => {
      timers.push(afterMs);
      return timers.length;
    },
    relayWaitMs: () => 100,
    started: () => undefined,
  };
  return { r: new Recoveries(host), finished, timers, done };
}

const of = (...txns: Txn[]): Map<DigestKey, Txn> => new Map(txns.map((t) => [t.key, t]));

void describe('Recoveries', () => {
  void it('finishes a scheduled blocker when the relay wait ends, once', () => {
    const { r, finished, timers } = harness();
    const x = fakeTxn('x');
    r.schedule(of(x));
    assert.deepEqual(finished, [], 'its own client may still finish it');
    assert.deepEqual(timers, [100]);
    r.fire();
    assert.deepEqual(finished, ['x']);
    r.schedule(of(x));
    assert.deepEqual(finished, ['x'], 'not again while it is being finished');
  });

  void it('finishes a blocker at once when it blocks us again before the wait ends', () => {
    const { r, finished, timers, done } = harness();
    const x = fakeTxn('x');
    const y = fakeTxn('y');
    r.schedule(of(x));
    r.schedule(of(x, y));
    assert.deepEqual(finished, ['x'], 'x blocked a retry: finished now; y waits its turn');
    assert.deepEqual(timers, [100], 'one timer');
    r.fire();
    assert.deepEqual(finished, ['x', 'y'], 'the timer finishes only what still waits');
    done.get('x')!();
    r.schedule(of(x));
    assert.deepEqual(finished, ['x', 'y'], 'a finished blocker scheduled anew waits again');
    assert.deepEqual(timers, [100, 100]);
  });
});
