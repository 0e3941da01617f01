import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine, type ExecResult } from './engine.ts';
import { formatText, typeOid } from './types.ts';
import { SqlArray } from './sql-array.ts';

const engine = await Engine.create();

function rows(r: ExecResult): (string | null)[][] {
  assert.ok(r.ok, r.ok ? '' : `${r.error.code} ${r.error.message}`);
  return r.rows.map((row) => row.map((v, i) => (v === null ? null : formatText(v, r.columns[i]?.type ?? 'text'))));
}

function errOf(r: ExecResult): string {
  assert.ok(!r.ok, 'expected an error');
  return `${r.error.code} ${r.error.message}`;
}

const s = engine.session();
s.execute('CREATE TABLE arr1 (id int PRIMARY KEY, k bigint, name text, d date)');
s.execute("INSERT INTO arr1 VALUES (1, 10, 'a', '2024-01-01'), (2, 20, 'b', NULL), (3, 30, NULL, '2024-01-03')");

void test('infers the parameter of x op ANY($1) as the array of x\'s type, as PostgreSQL describes it', () => {
  const cases: [string, string, number][] = [
    ['SELECT id FROM arr1 WHERE id = ANY($1)', '_int4', 1007],
    ['SELECT id FROM arr1 WHERE k < ALL($1)', '_int8', 1016],
    ['SELECT id FROM arr1 WHERE name <> ALL($1)', '_text', 1009],
    ['SELECT id FROM arr1 WHERE d = ANY($1)', '_date', 1182],
    ['SELECT $1::int[]', '_int4', 1007],
  ];
  for (const [sql, type, oid] of cases) {
    const p = engine.prepare(sql);
    assert.ok(p.ok);
    assert.deepEqual(p.info.paramTypes, [type], sql);
    assert.equal(typeOid[p.info.paramTypes[0] ?? 'unknown'], oid);
  }
});

void test('evaluates ANY and ALL over array parameters given as text or as array values', () => {
  assert.deepEqual(rows(s.execute('SELECT id FROM arr1 WHERE id = ANY($1) ORDER BY id', ['{1,3,7}'])), [['1'], ['3']]);
  assert.deepEqual(rows(s.execute('SELECT id FROM arr1 WHERE id = ANY($1) ORDER BY id', [new SqlArray('int4', [2, null])])), [['2']]);
  // An int8 array for an int4[] parameter is cast element by element.
  assert.deepEqual(rows(s.execute('SELECT id FROM arr1 WHERE id = ANY($1)', [new SqlArray('int8', [3])])), [['3']]);
  assert.deepEqual(rows(s.execute('SELECT id FROM arr1 WHERE id = ANY($1)', [new SqlArray('int4', [])])), []);
  assert.deepEqual(rows(s.execute('SELECT id FROM arr1 WHERE id <> ALL($1) ORDER BY id', ['{}'])), [['1'], ['2'], ['3']]);
  assert.deepEqual(rows(s.execute('SELECT id FROM arr1 WHERE name = ANY($1) ORDER BY id', ['{b,"a"}'])), [['1'], ['2']]);
  assert.deepEqual(rows(s.execute('SELECT $1 = ANY($2)', [1, '{2,NULL}'])), [[null]]);
  assert.deepEqual(rows(s.execute('SELECT id FROM arr1 WHERE id = ANY($1)', [null])), []);
  assert.equal(errOf(s.execute('SELECT id FROM arr1 WHERE id = ANY($1)', ['{1,x}'])), '22P02 invalid input syntax for type integer: "x"');
  assert.equal(errOf(s.execute('SELECT id FROM arr1 WHERE id = ANY($1)', ['1,2'])), '22P02 malformed array literal: "1,2"');
});

void test('returns array values with their array types', () => {
  const r = s.execute("SELECT ARRAY[1,2], '{a,NULL}'::text[], ARRAY[k] FROM arr1 WHERE id = 1");
  assert.ok(r.ok);
  assert.deepEqual(r.columns.map((c) => c.type), ['_int4', '_text', '_int8']);
  assert.deepEqual(rows(r), [['{1,2}', '{a,NULL}', '{10}']]);
});

void test('stores array columns and applies their element typmod', () => {
  assert.ok(s.execute("CREATE TABLE arr2 (id int PRIMARY KEY, tags varchar(3)[] NOT NULL DEFAULT '{}', m numeric(4,1)[])").ok);
  assert.ok(s.execute("INSERT INTO arr2 VALUES (1, ARRAY['ab', NULL], '{1.25,NULL}'), (2, DEFAULT, NULL)").ok);
  assert.equal(errOf(s.execute("INSERT INTO arr2 VALUES (3, '{abcd}')")), '22001 value too long for type character varying(3)');
  assert.equal(errOf(s.execute("INSERT INTO arr2 (id, m) VALUES (3, ARRAY['1'])")), '42804 column "m" is of type numeric[] but expression is of type text[]');
  assert.ok(s.execute("ALTER TABLE arr2 ADD COLUMN n int[] DEFAULT '{7}'").ok);
  assert.deepEqual(rows(s.execute('SELECT id, tags, m, n FROM arr2 ORDER BY id')), [['1', '{ab,NULL}', '{1.3,NULL}', '{7}'], ['2', '{}', null, '{7}']]);
  assert.equal(errOf(s.execute('CREATE TABLE arr3 (a serial[])')), '0A000 array of serial is not implemented');
});

void test('refuses what would need other lower bounds or more dimensions with 0A000 (PostgreSQL takes them)', () => {
  assert.equal(errOf(s.execute('UPDATE arr2 SET tags[0] = \'x\' WHERE id = 1')), '0A000 array lower bounds other than 1 are not supported');
  assert.equal(errOf(s.execute('UPDATE arr2 SET m[3] = 1 WHERE id = 2')), '0A000 array lower bounds other than 1 are not supported');
  assert.equal(errOf(s.execute("UPDATE arr2 SET tags[1:2] = '{x,y}' WHERE id = 1")), '0A000 assignment to array slices is not supported');
  assert.equal(errOf(s.execute('SELECT tags[1:2] FROM arr2')), '0A000 array slices are not supported');
  assert.equal(errOf(s.execute('SELECT tags[1][1] FROM arr2')), '0A000 multidimensional arrays are not supported');
  assert.equal(errOf(s.execute("INSERT INTO arr2 (id, n) VALUES (9, '{{1},{2}}')")), '0A000 multidimensional arrays are not supported');
  assert.equal(errOf(s.execute("INSERT INTO arr2 (id, tags[1]) VALUES (9, 'x')")), '0A000 INSERT into a subscript or field of a column is not supported');
  // The rows are as they were.
  assert.deepEqual(rows(s.execute('SELECT id, tags, m FROM arr2 ORDER BY id')), [['1', '{ab,NULL}', '{1.3,NULL}'], ['2', '{}', null]]);
});
