import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TimerQueue } from './timer-queue.ts';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits (up to 10 s, however loaded the machine) until `done` holds. */
async function until(done: () => boolean): Promise<void> {
  const give = performance.now() + 10_000;
  while (!done() && performance.now() < give) await sleep(5);
}

void describe('TimerQueue', () => {
  void it('fires every timer once, not before its deadline, in deadline order', async () => {
    const fired: [number, number][] = [];
    const start = performance.now();
    const q = new TimerQueue((ids) => {
      for (const id of ids) fired.push([id, performance.now() - start]);
    });
    const delays = [30, 5, 20, 5, 0, 12, 40, 1];
    // Deadlines as the queue sees them: on a loaded machine the adds themselves are milliseconds apart.
    const due: number[] = [];
    delays.forEach((d, id) => {
      due[id] = performance.now() - start + d;
      q.add(id, d);
    });
    await until(() => fired.length === delays.length);
    assert.deepEqual(
      fired.map(([id]) => id).sort((a, b) => a - b),
      delays.map((_, id) => id),
    );
    for (const [id, at] of fired) assert.ok(at >= due[id]! - 1, `timer ${id} fired at ${at.toFixed(1)} ms, due at ${due[id]!.toFixed(1)}`);
    const order = fired.map(([id]) => due[id]!);
    assert.deepEqual(order, [...order].sort((a, b) => a - b));
    assert.equal(q.size, 0);
  });

  void it('re-arms for an earlier timer added later, and keeps a large heap in order', async () => {
    const fired: number[] = [];
    const q = new TimerQueue((ids) => fired.push(...ids));
    q.add(1, 60_000);
    q.add(2, 5);
    await until(() => fired.length === 1);
    assert.deepEqual(fired, [2]);
    const n = 500;
    let x = 11;
    for (let i = 0; i < n; i++) q.add(100 + i, (x = (x * 7919 + 13) % 97));
    await until(() => fired.length === n + 1);
    assert.equal(fired.length, n + 1);
    assert.equal(q.size, 1, 'the 60 s timer is still waiting');
    q.close();
  });

  void it('hands due timers over only after the immediates queued before them', async () => {
    const events: string[] = [];
    const q = new TimerQueue(() => events.push('timer'));
    q.add(1, 1);
    // A long synchronous stretch: the timer is overdue when the loop gets back.
    const busyUntil = performance.now() + 10;
    while (performance.now() < busyUntil);
    setImmediate(() => events.push('immediate'));
    await until(() => events.length === 2);
    assert.deepEqual(events, ['immediate', 'timer']);
  });
});
