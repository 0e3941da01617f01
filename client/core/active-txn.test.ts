import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReadEntry } from '../../protocol/messages.ts';
import { ts } from '../../protocol/timestamp.ts';
import { decodePredicate, encodePredicate } from '../../sql/predicate-codec.ts';
import { tablePrefix } from '../../sql/row-key.ts';
import { Prng } from '../../sim/prng.ts';
import { ExcusedRows, finalReads, predicatesToSend, type ActiveTxn, type HeldPredicate } from './active-txn.ts';

const T5 = 5;
const v = ts(100, 1);
const sent = encodePredicate({ indexId: null, lo: '', hi: null, filter: null, keys: null });
const read = (table: number, pk: string): ReadEntry => ({ key: tablePrefix(table) + pk, version: v });
const sorted = (reads: ReadEntry[]): ReadEntry[] => [...reads].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
/** A predicate of table `table` whose query read exactly the rows `excused` of it (and wrote none). */
const held = (excused: string[], table = T5): HeldPredicate => ({ table, tableVersion: v, expr: sent, excused: new ExcusedRows(table, sorted(excused.map((pk) => read(table, pk))), []) });

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
  const prng = new Prng(7);
  const rnd = (n: number): number => prng.int(n);
  const pk = (i: number): string => String.fromCharCode(0x80, i);
  for (let c = 0; c < 500; c++) {
    // The final read set: rows of tables 4-6 (the predicate's is 5) and the catalog's short key.
    const reads = new Map<string, ReadEntry>();
    for (let i = rnd(8); i > 0; i--) {
      const r = read(4 + rnd(3), pk(rnd(10)));
      reads.set(r.key, r);
    }
    if (rnd(2) === 0) reads.set('cat', { key: 'cat', version: v });
    // The predicate's query: its matched reads (some of other tables) and own writes it shipped.
    const own = Array.from({ length: rnd(4) }, () => ({ key: tablePrefix(4 + rnd(3)) + pk(rnd(10)), value: null }));
    const queryReads = new Map<string, ReadEntry>();
    for (let i = rnd(8); i > 0; i--) {
      const r = read(4 + rnd(3), pk(rnd(10)));
      queryReads.set(r.key, r);
    }
    const excused = new ExcusedRows(T5, sorted([...queryReads.values()]), own);
    const prefix = tablePrefix(T5);
    const want = [...new Set([...queryReads.keys(), ...own.map((w) => w.key)].filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length)))].sort();
    assert.deepEqual(excused.named, want, `case ${c}: the rows named`);
    const all = sorted([...reads.values()]);
    const [p] = predicatesToSend([{ table: T5, tableVersion: v, expr: sent, excused }], all);
    const named = encodePredicate({ indexId: null, lo: '', hi: null, filter: null, keys: want });
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
