import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Savepoints, savepointOutsideBlock, savepointTag } from './savepoints.ts';

void test('savepoints: the innermost of a name counts, ROLLBACK TO keeps it, RELEASE drops it and later ones', () => {
  const s = new Savepoints<number>();
  s.take('a', 1);
  s.take('b', 2);
  s.take('a', 3);
  assert.equal(s.state('a'), 3);
  assert.equal(s.rollbackTo('b'), 2, 'the later a goes');
  assert.equal(s.state('a'), 1);
  assert.equal(s.rollbackTo('b'), 2, 'b stays after a rollback to it');
  s.release('a');
  assert.throws(() => s.state('b'), (e: unknown) => (e as { code?: string }).code === '3B001');
  assert.throws(() => s.rollbackTo('a'), /savepoint "a" does not exist/);
  assert.deepEqual(['savepoint', 'release', 'rollback-to'].map((op) => savepointTag(op as never)), ['SAVEPOINT', 'RELEASE', 'ROLLBACK']);
  assert.equal(savepointOutsideBlock('rollback-to').message, 'ROLLBACK TO SAVEPOINT can only be used in transaction blocks');
  assert.equal(savepointOutsideBlock('release').code, '25P01');
});
