import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReadEntry } from '../../protocol/messages.ts';
import { ts } from '../../protocol/timestamp.ts';
import { decodePredicate, encodePredicate } from '../../sql/predicate-codec.ts';
import { tablePrefix } from '../../sql/row-key.ts';
import { finalReads, predicatesToSend, type ActiveTxn, type HeldPredicate } from './active-txn.ts';

const T5 = 5;
const v = ts(100, 1);
const sent = encodePredicate({ indexId: null, lo: '', hi: null, filter: null, keys: null });
const held = (excused: string[], table = T5): HeldPredicate => ({ table, tableVersion: v, expr: sent, excused });
const read = (table: number, pk: string): ReadEntry => ({ key: tablePrefix(table) + pk, version: v });
const sorted = (reads: ReadEntry[]): ReadEntry[] => [...reads].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

/** The read-set rows of the predicate's table SemanticCC excuses for these predicate bytes (semantic-cc.ts `scanned`). */
function excusedReads(expr: Uint8Array, table: number, reads: readonly ReadEntry[]): string[] {
  const keys = decodePredicate(expr)!.keys;
  const prefix = tablePrefix(table);
  return reads.filter((r) => r.key.startsWith(prefix) && (keys === null || keys.has(r.key.slice(prefix.length)))).map((r) => r.key);
}

void test('a predicate naming every read-set row of its table goes without its list (decision 0028)', () => {
  const reads = sorted([read(0, 'catalog'), read(T5, 'a'), read(T5, 'b'), read(6, 'a')]);
  const [p] = predicatesToSend([held(['a', 'b', 'c'])], reads);
  assert.equal(decodePredicate(p!.expr)!.keys, null, 'a named row outside the read set (an own write) changes nothing');
  assert.deepEqual(p!.tableVersion, v);
  const [none] = predicatesToSend([held([])], sorted([read(6, 'a')]));
  assert.equal(decodePredicate(none!.expr)!.keys, null, 'no read-set row of its table');
});

void test('a predicate keeps its list when another read put a row of its table in the read set', () => {
  const reads = sorted([read(T5, 'a'), read(T5, 'b'), read(T5, 'z')]);
  const [p] = predicatesToSend([held(['a', 'b'])], reads);
  assert.deepEqual(decodePredicate(p!.expr)!.keys, new Set(['a', 'b']), "'z' stays unexcused: it may be the phantom this scan missed");
});

void test('the form sent excuses exactly the read-set rows the named list excuses (random cases)', () => {
  let seed = 7;
  const rnd = (n: number): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % n;
  };
  const pk = (i: number): string => String.fromCharCode(0x80, i);
  for (let c = 0; c < 300; c++) {
    const reads = new Map<string, ReadEntry>();
    for (let i = rnd(8); i > 0; i--) {
      const r = read(4 + rnd(3), pk(rnd(10)));
      reads.set(r.key, r);
    }
    const excused = [...new Set(Array.from({ length: rnd(8) }, () => pk(rnd(10))))].sort();
    const all = sorted([...reads.values()]);
    const [p] = predicatesToSend([held(excused)], all);
    const named = encodePredicate({ indexId: null, lo: '', hi: null, filter: null, keys: excused });
    assert.deepEqual(excusedReads(p!.expr, T5, all), excusedReads(named, T5, all), `case ${c}`);
  }
});

/** An active transaction with only what `finalReads` looks at. */
function txnWith(runs: ReadEntry[][], points: ReadEntry[], privatePrefixes: string[] = []): ActiveTxn {
  return {
    reads: new Map(points.map((e) => [e.key, { ...e, value: new Uint8Array(0) }])),
    readRuns: runs,
    private: new Set(privatePrefixes),
  } as unknown as ActiveTxn;
}

void test('finalReads joins range-read runs and point reads: sorted, each key once, private storage left out', () => {
  const w = ts(90, 2);
  const runA = [read(T5, 'a'), read(T5, 'c'), read(T5, 'e')];
  const runB = [read(T5, 'b'), read(T5, 'c'), { key: tablePrefix(T5) + 'd', version: w }];
  const points = [read(6, 'x'), read(T5, 'e'), read(0, 'catalog')];
  const got = finalReads(txnWith([runA, runB], points, [tablePrefix(6)]));
  assert.deepEqual(
    got,
    sorted([read(0, 'catalog'), read(T5, 'a'), read(T5, 'b'), read(T5, 'c'), { key: tablePrefix(T5) + 'd', version: w }, read(T5, 'e')]),
  );
  assert.deepEqual(runA, [read(T5, 'a'), read(T5, 'c'), read(T5, 'e')], 'the runs themselves are left as they were');
});

void test('finalReads refuses a key two reads saw at different versions, wherever the reads came from', () => {
  const other = (pk: string): ReadEntry => ({ key: tablePrefix(T5) + pk, version: ts(101, 1) });
  assert.equal(finalReads(txnWith([[read(T5, 'a'), read(T5, 'b')], [other('b')]], [])), null, 'two range reads');
  assert.equal(finalReads(txnWith([[read(T5, 'a'), read(T5, 'b')]], [other('a')])), null, 'a range read and a point read');
  assert.notEqual(finalReads(txnWith([[read(T5, 'a')]], [other('a')], [tablePrefix(T5)])), null, 'private storage is not validated');
});
