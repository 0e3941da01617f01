import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSync, type Node } from 'libpg-query';
import { Engine } from './engine.ts';
import { lowerStatement } from './lower-statement.ts';
import { classify } from './classify.ts';

const engine = await Engine.create();
engine.session().execute('CREATE TABLE cl (w int, id int, v text, PRIMARY KEY (w, id))');

function kind(sql: string): string {
  const c = classify(lowerStatement(engine.catalog, parseSync(sql).stmts?.[0]?.stmt as Node).stmt);
  return c.k === 'utility' ? 'utility' : c.k === 'read' ? `read/${c.read}` : `write/${c.op}/${c.read}`;
}

void test('classifies statements into point reads, range reads and writes', () => {
  assert.equal(kind('SELECT v FROM cl WHERE w = $1 AND id = $2'), 'read/point');
  assert.equal(kind("SELECT v FROM cl WHERE w = 1 AND id = 2 AND v = 'x'"), 'read/point');
  assert.equal(kind('SELECT v FROM cl WHERE w = 1'), 'read/range');
  assert.equal(kind('SELECT count(*) FROM cl WHERE w = 1 AND id = 2'), 'read/range');
  assert.equal(kind('UPDATE cl SET v = $1 WHERE w = 1 AND id = 2'), 'write/update/point');
  assert.equal(kind('DELETE FROM cl WHERE v = $1'), 'write/delete/range');
  assert.equal(kind("INSERT INTO cl VALUES (1, 2, 'x')"), 'write/insert/none');
  assert.equal(kind('BEGIN'), 'utility');
});
