import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { DigestKey } from '../../protocol/ids.ts';
import { ts, ZERO_TS } from '../../protocol/timestamp.ts';
import { sqlTableOfKey, TableState, type TablePredicate } from './table-writes.ts';

const txn = (name: string): DigestKey => name as DigestKey;

void describe('TableState', () => {
  void it('keeps one entry per transaction in timestamp order, however many rows it wrote', () => {
    const t = new TableState();
    t.noteWrite(ts(30, 1), txn('c'), 'k', false);
    t.noteWrite(ts(10, 1), txn('a'), 'k', true);
    t.noteWrite(ts(30, 1), txn('c'), 'k', false);
    t.noteWrite(ts(20, 1), txn('b'), 'k', false);
    assert.deepEqual(t.writes.map((w) => w.txn), [txn('a'), txn('b'), txn('c')]);
    t.noteWrite(ts(30, 1), txn('c'), 'k', true);
    assert.deepEqual(t.writes.map((w) => w.committed), [true, false, true]);
  });

  void it('lists the rows each transaction wrote, sorted and once each, across prepare and commit', () => {
    const t = new TableState();
    for (const k of ['k1', 'k3', 'k5']) t.noteWrite(ts(10, 1), txn('a'), k, false);
    t.noteWrite(ts(20, 1), txn('b'), 'k2', true);
    for (const k of ['k1', 'k3', 'k4', 'k5']) t.noteWrite(ts(10, 1), txn('a'), k, true);
    t.noteWrite(ts(10, 1), txn('a'), 'k0', true);
    assert.deepEqual(t.writes.map((w) => [w.txn, w.keys]), [[txn('a'), ['k0', 'k1', 'k3', 'k4', 'k5']], [txn('b'), ['k2']]]);
  });

  void it('reports the newest committed write strictly below a timestamp', () => {
    const t = new TableState();
    assert.deepEqual(t.committedVersionBelow(ts(99, 0)), ZERO_TS);
    t.noteWrite(ts(10, 1), txn('a'), 'k', true);
    t.noteWrite(ts(20, 1), txn('b'), 'k', false);
    t.noteWrite(ts(30, 1), txn('c'), 'k', true);
    assert.deepEqual(t.committedVersionBelow(ts(30, 1)), ts(10, 1));
    assert.deepEqual(t.committedVersionBelow(ts(30, 2)), ts(30, 1));
    t.dropWrite(ts(20, 1), txn('b'));
    assert.equal(t.writes.length, 2);
  });

  void it('never lowers the high-water mark', () => {
    const t = new TableState();
    t.observe(ts(50, 0));
    t.observe(ts(40, 0));
    assert.deepEqual(t.high, ts(50, 0));
  });

  void it('collects committed entries below the newest committed one under the watermark, keeping prepared ones', () => {
    const t = new TableState();
    t.noteWrite(ts(10, 1), txn('a'), 'k', true);
    t.noteWrite(ts(15, 1), txn('p'), 'k', false);
    t.noteWrite(ts(20, 1), txn('b'), 'k', true);
    t.noteWrite(ts(40, 1), txn('c'), 'k', true);
    t.collect(ts(30, 0));
    assert.deepEqual(t.writes.map((w) => w.txn), [txn('p'), txn('b'), txn('c')]);
  });

  void it('keeps predicates in reader order, commits and drops them per transaction, and finds those above a timestamp', () => {
    const t = new TableState();
    const p = (at: number, name: string): TablePredicate => ({ readerTs: ts(at, 1), txn: txn(name), tableVersion: ZERO_TS, scan: null, def: null, index: null, reads: [], committed: false });
    t.addPredicate(p(30, 'c'));
    t.addPredicate(p(10, 'a'));
    t.addPredicate(p(30, 'c'));
    t.addPredicate(p(20, 'b'));
    t.addPredicate(p(30, 'd'));
    assert.deepEqual(t.predicates.map((x) => x.txn), ['a', 'b', 'c', 'c', 'd']);
    assert.equal(t.firstPredicateAbove(ts(20, 1)), 2);
    assert.equal(t.firstPredicateAbove(ts(20, 0)), 1);
    t.commitPredicates(ts(30, 1), txn('c'));
    assert.deepEqual(t.predicates.map((x) => x.committed), [false, false, true, true, false]);
    t.dropPredicates(ts(30, 1), txn('c'));
    assert.deepEqual(t.predicates.map((x) => x.txn), ['a', 'b', 'd']);
    t.collect(ts(25, 0));
    assert.deepEqual(t.predicates.map((x) => x.txn), ['d']);
  });

  void it('raises the non-monotonic flag and never lowers it', () => {
    const t = new TableState();
    t.noteWrite(ts(10, 1), txn('a'), 'k', false, true);
    t.noteWrite(ts(10, 1), txn('a'), 'k', true, false);
    assert.deepEqual(t.writes.map((w) => [w.committed, w.nonMonotonic]), [[true, true]]);
  });

  void it('gives only SQL table keys a table (not the catalog, not key-value keys)', () => {
    assert.equal(sqlTableOfKey('\x00\x00\x00\x05pk'), 5);
    assert.equal(sqlTableOfKey('\x00\x00\x00\x00catalog'), null);
    assert.equal(sqlTableOfKey('user42'), null);
    assert.equal(sqlTableOfKey('\x00\x01'), null);
  });
});
