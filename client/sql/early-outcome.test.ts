import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeOutcome } from '../../sql/wire-values.ts';
import { EarlyOutcome } from './early-outcome.ts';

const columns = [{ name: 'id', type: 'int4' as const, typmod: -1 }];
const bytesOf = (ids: number[]): Uint8Array => encodeOutcome({ ok: true, columns, rows: ids.map((id) => [id]) });

void test('the early decoding is used only for the very same agreed bytes', () => {
  const agreed = bytesOf([1, 2, 3]);
  const e = new EarlyOutcome();
  e.offer(agreed.slice());
  const same = e.outcome(agreed);
  assert.ok(same.ok);
  assert.deepEqual(same.rows, [[1], [2], [3]]);

  // A replica's early reply that the others did not agree with: the agreed bytes are decoded instead.
  const other = new EarlyOutcome();
  other.offer(bytesOf([1, 2, 4]));
  const decoded = other.outcome(agreed);
  assert.ok(decoded.ok);
  assert.deepEqual(decoded.rows, [[1], [2], [3]]);

  // Garbage from a faulty replica is dropped at once and costs nothing later.
  const garbage = new EarlyOutcome();
  garbage.offer(new Uint8Array([9, 9, 9]));
  const fromAgreed = garbage.outcome(agreed);
  assert.ok(fromAgreed.ok);
  assert.deepEqual(fromAgreed.rows, [[1], [2], [3]]);

  // Nothing offered: decoded from the agreed bytes.
  assert.deepEqual(new EarlyOutcome().outcome(agreed), same);
});

void test('an early decoding is used once: a later outcome decodes its own agreed bytes', () => {
  const first = bytesOf([7]);
  const e = new EarlyOutcome();
  e.offer(first);
  const a = e.outcome(first);
  const b = e.outcome(first);
  assert.notEqual(a, b, 'the second call decodes afresh');
  assert.deepEqual(a, b);
});
