import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Engine } from '../../sql/engine.ts';
import { lowerStatement } from '../../sql/lower-statement.ts';
import type { Plan } from '../../sql/plan.ts';
import { hasScan, shardOfTable, tableOfPlan } from './plan-reads.ts';

const engine = await Engine.create();
const session = engine.session();
for (const ddl of ['CREATE TABLE a (id int PRIMARY KEY, v int)', 'CREATE TABLE b (id int PRIMARY KEY, v int)', 'CREATE TABLE c (id int PRIMARY KEY, v int)']) {
  assert.ok(session.execute(ddl).ok);
}
const catalog = engine.catalog;

function planOf(sql: string): Plan {
  const s = lowerStatement(catalog, engine.parse(sql).stmts[0]!).stmt;
  if (s.k === 'query') return s.plan;
  if (s.k === 'dml') return s.plan.source;
  throw new Error(`no plan: ${sql}`);
}

void describe('plan-reads', () => {
  const [a, b, c] = ['a', 'b', 'c'].map((n) => catalog.require(n));
  // Two shards: tables a and c on one, b on the other (ids in DDL order).
  const shards = 2;

  void it('places the tables of the fixture as the tests assume', () => {
    assert.equal(shardOfTable(a!, shards), shardOfTable(c!, shards));
    assert.notEqual(shardOfTable(a!, shards), shardOfTable(b!, shards));
  });

  void it('names no table for a plan without a scan, and the scanned one otherwise', () => {
    assert.equal(hasScan(planOf('SELECT 1 + 2')), false);
    assert.equal(tableOfPlan(planOf('SELECT 1 + 2'), shards), null);
    assert.equal(tableOfPlan(planOf('SELECT v FROM b WHERE v > 3'), shards)?.name, 'b');
    assert.equal(tableOfPlan(planOf('SELECT a.v FROM a JOIN c ON a.id = c.id'), shards)?.name, 'a', 'two tables of one shard');
    assert.equal(tableOfPlan(planOf('UPDATE a SET v = 1 WHERE id IN (SELECT id FROM c)'), shards)?.name, 'a');
  });

  void it('refuses with 0A000 a plan over tables of two shards, subqueries included', () => {
    for (const sql of ['SELECT a.v FROM a JOIN b ON a.id = b.id', 'SELECT v FROM a WHERE id IN (SELECT id FROM b)', 'INSERT INTO a SELECT id, v FROM c UNION SELECT id, v FROM b']) {
      assert.throws(() => tableOfPlan(planOf(sql), shards), (e: Error & { code?: string }) => e.code === '0A000' && /different shards/.test(e.message), sql);
      assert.ok(tableOfPlan(planOf(sql), 1) !== null, 'one shard holds every table');
    }
  });
});
