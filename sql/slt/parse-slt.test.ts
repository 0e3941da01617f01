import assert from 'node:assert/strict';
import { test } from 'node:test';

import { parseSlt } from './parse-slt.ts';

const script = `# a comment
hash-threshold 8

statement ok
CREATE TABLE t (a INTEGER)

skipif pesto
onlyif postgresql
statement error 23505
INSERT INTO t
VALUES (1)

statement error relation .* does not exist
SELECT * FROM missing

query IT rowsort sel
SELECT a, 'x' FROM t
----
1 x
2 (empty)

query I nosort
SELECT 1
----
3 values hashing to 0123456789abcdef0123456789abcdef

query error 22012
SELECT 1/0

onlyif mysql
halt
`;

void test('parses statements, queries, conditions and directives with their line numbers', () => {
  const { records } = parseSlt('x.slt', script);
  assert.deepEqual(
    records.map((r) => [r.kind, r.line]),
    [
      ['hash-threshold', 2],
      ['statement', 4],
      ['statement', 7],
      ['statement', 13],
      ['query', 16],
      ['query', 22],
      ['query', 27],
      ['halt', 30],
    ],
  );
  const insert = records[2];
  assert.ok(insert?.kind === 'statement');
  assert.equal(insert.sql, 'INSERT INTO t\nVALUES (1)');
  assert.deepEqual(insert.error, { kind: 'sqlstate', code: '23505' });
  assert.deepEqual(insert.conditions, [
    { kind: 'skipif', label: 'pesto' },
    { kind: 'onlyif', label: 'postgresql' },
  ]);
});

void test('reads a query header, its result lines and a result hash', () => {
  const { records } = parseSlt('x.slt', script);
  const select = records[4];
  assert.ok(select?.kind === 'query');
  assert.equal(select.types, 'IT');
  assert.equal(select.sort, 'rowsort');
  assert.equal(select.label, 'sel');
  assert.equal(select.resultLine, 18);
  assert.equal(select.endLine, 21);
  assert.deepEqual(select.expected, { kind: 'lines', lines: ['1 x', '2 (empty)'] });
  const hashed = records[5];
  assert.ok(hashed?.kind === 'query');
  assert.deepEqual(hashed.expected, { kind: 'hash', valueCount: 3, md5: '0123456789abcdef0123456789abcdef' });
  const failing = records[6];
  assert.ok(failing?.kind === 'query');
  assert.deepEqual(failing.error, { kind: 'sqlstate', code: '22012' });
});

void test('turns a record it cannot read into an invalid record instead of throwing', () => {
  const { records } = parseSlt('x.slt', 'statement maybe\nSELECT 1\n\nquery\nSELECT 1\n\nstatement error (\nSELECT 1\n');
  assert.deepEqual(
    records.map((r) => r.kind),
    ['invalid', 'invalid', 'invalid'],
  );
});

void test('allows trailing comments on condition and header lines', () => {
  const { records } = parseSlt('x.slt', 'skipif mysql # not supported\nquery I rowsort label-1 # why\nSELECT 1\n----\n1\n\nonlyif mssql # never\nhalt\n');
  assert.deepEqual(
    records.map((r) => [r.kind, r.conditions.map((c) => c.label)]),
    [
      ['query', ['mysql']],
      ['halt', ['mssql']],
    ],
  );
  const query = records[0];
  assert.ok(query?.kind === 'query');
  assert.equal(query.label, 'label-1');
});
