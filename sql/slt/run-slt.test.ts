import assert from 'node:assert/strict';
import { test } from 'node:test';

import { completeSlt } from './complete-slt.ts';
import { formatCell } from './format-cell.ts';
import { md5 } from '../md5.ts';
import { parseSlt } from './parse-slt.ts';
import { runSlt } from './run-slt.ts';
import type { SltDatabase, SltOutcome } from './slt-database.ts';

/** A fake database answering from a table of canned outcomes. */
function fakeDb(answers: Record<string, SltOutcome>, labels: readonly string[] = ['fake']): SltDatabase {
  return {
    labels,
    execute: (sql) => Promise.resolve(answers[sql] ?? { ok: false, code: '42601', message: `unknown: ${sql}` }),
  };
}

const rows = (...r: (string | null)[][]): SltOutcome => ({ ok: true, columnCount: r[0]?.length ?? 1, rows: r });

void test('computes md5 digests like the reference implementation', () => {
  assert.equal(md5(''), 'd41d8cd98f00b204e9800998ecf8427e');
  assert.equal(md5('The quick brown fox jumps over the lazy dog'), '9e107d9d372bb6826bd81d3542a419d6');
  assert.equal(md5('1\n2\n3\n'), 'c0710d6b4f15dfa88f600b0e6b624077');
  assert.equal(md5('x'.repeat(200)), '30a83621ce5422fbdfdd539777458c78');
});

void test('formats cells by column type the way sqllogictest does', () => {
  const cases: [string | null, string, string][] = [
    [null, 'I', 'NULL'],
    ['', 'T', '(empty)'],
    ['42', 'I', '42'],
    ['-7.9', 'I', '-7'],
    ['t', 'I', '1'],
    ['2.5', 'R', '2.500'],
    ['-0.0004', 'R', '0.000'],
    ['1e3', 'R', '1000.000'],
    ['NaN', 'R', 'NaN'],
    ['a\tb', 'T', 'a@b'],
    ['9007199254740993', 'I', '9007199254740993'],
  ];
  for (const [cell, type, want] of cases) assert.equal(formatCell(cell, type), want, `${String(cell)} as ${type}`);
});

void test('counts passes, failures and skips without stopping at the first failure', async () => {
  const script = parseSlt(
    't.slt',
    [
      'statement ok',
      'CREATE TABLE t (a INT)',
      '',
      'statement error 23505',
      'INSERT dup',
      '',
      'statement error 23505',
      'INSERT other',
      '',
      'skipif fake',
      'statement ok',
      'never runs',
      '',
      'query IT rowsort',
      'SELECT rows',
      '----',
      '1 a',
      '2 NULL',
      '',
      'query I valuesort',
      'SELECT rows',
      '----',
      '1',
      '2',
      '',
    ].join('\n'),
  );
  const db = fakeDb({
    'CREATE TABLE t (a INT)': { ok: true, columnCount: 0, rows: [] },
    'INSERT dup': { ok: false, code: '23505', message: 'duplicate key' },
    'INSERT other': { ok: false, code: '23502', message: 'null value' },
    'SELECT rows': rows(['2', null], ['1', 'a']),
  });
  const report = await runSlt(script, db);
  assert.equal(report.passed, 3);
  assert.equal(report.skipped, 1);
  assert.deepEqual(
    report.failures.map((f) => [f.line, f.reason]),
    [
      [7, 'wrong error'],
      [20, 'wrong number of columns'],
    ],
  );
});

void test('accepts results one value per line, one row per line, or as a hash', async () => {
  const hash = md5('1\nx\n2\ny\n');
  const text = `query IT\nSELECT\n----\n1\nx\n2\ny\n\nquery IT\nSELECT\n----\n1 x\n2 y\n\nquery IT\nSELECT\n----\n4 values hashing to ${hash}\n`;
  const report = await runSlt(parseSlt('h.slt', text), fakeDb({ SELECT: rows(['1', 'x'], ['2', 'y']) }));
  assert.equal(report.failed, 0);
  assert.equal(report.passed, 3);
});

void test('stops at halt and honours onlyif', async () => {
  const text = 'onlyif other\nhalt\n\nstatement ok\nA\n\nonlyif fake\nhalt\n\nstatement ok\nB\n';
  const report = await runSlt(parseSlt('h.slt', text), fakeDb({ A: rows() }));
  assert.equal(report.passed, 1);
  assert.equal(report.halted, true);
  assert.equal(report.failed, 0);
});

void test('fills in expected results from a trusted backend', async () => {
  const text = 'hash-threshold 3\n\nquery IT\nSELECT\n----\nwrong\n\nquery I\nSELECT one\n\nquery I\nSELECT many\n----\n';
  const script = parseSlt('c.slt', text);
  const report = await runSlt(
    script,
    fakeDb({ SELECT: rows(['1', 'x']), 'SELECT one': rows(['7']), 'SELECT many': rows(['1'], ['2'], ['3'], ['4']) }),
  );
  assert.equal(
    completeSlt(text, script, report),
    `hash-threshold 3\n\nquery IT\nSELECT\n----\n1 x\n\nquery I\nSELECT one\n----\n7\n\nquery I\nSELECT many\n----\n4 values hashing to ${md5('1\n2\n3\n4\n')}\n`,
  );
});
