import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cascaded, noticeWithDetail, outcomeNotices, splitNotices } from './notices.ts';

void test('objects dropped by CASCADE become one notice, with DETAIL when several, where the first was', () => {
  const one = outcomeNotices({ tag: 'DROP TABLE', touched: [], notice: ['x', cascaded('view v'), 'y'].join('\n') });
  assert.deepEqual(splitNotices(one ?? []), [{ message: 'x' }, { message: 'drop cascades to view v' }, { message: 'y' }]);
  const many = outcomeNotices({ tag: 'DROP TABLE', touched: [], notice: [cascaded('view v'), cascaded('constraint c on table t')].join('\n') });
  assert.deepEqual(splitNotices(many ?? []), [{ message: 'drop cascades to 2 other objects', detail: 'drop cascades to view v\ndrop cascades to constraint c on table t' }]);
  assert.equal(outcomeNotices({ tag: 'DROP TABLE', touched: [] }), undefined);
});

void test('a notice with DETAIL lines reads back whole among others', () => {
  assert.deepEqual(splitNotices(['a', noticeWithDetail('b', ['one\ntwo']), 'c']), [{ message: 'a' }, { message: 'b', detail: 'one\ntwo' }, { message: 'c' }]);
});
