import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Engine } from '../../sql/engine.ts';
import { lowerStatement } from '../../sql/lower-statement.ts';
import type { Plan } from '../../sql/plan.ts';
import { shardOfTable } from '../../protocol/sharding.ts';
import { hasScan, SEVERAL, tableOfPlan } from './plan-reads.ts';

const engine = await Engine.create();
const session = engine.session();
for (const ddl of ['CREATE TABLE a (id int PRIMARY KEY, v int)', 'CREATE TABLE b (id int PRIMARY KEY, v int)', 'CREATE TABLE c (id int PRIMARY KEY, v int)']) {
  assert.ok(session.execute(ddl).ok);
}
const catalog = engine.catalog;

/** The table's name, or SEVERAL (tables of several shards), or null. */
function nameOf(sql: string, shards: number): string | null {
  const t = tableOfPlan(planOf(sql), shards);
  return t === null || t === SEVERAL ? t : t.name;
}

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
    assert.equal(shardOfTable(a!.id, shards), shardOfTable(c!.id, shards));
    assert.notEqual(shardOfTable(a!.id, shards), shardOfTable(b!.id, shards));
  });

  void it('names no table for a plan without a scan, and the scanned one otherwise', () => {
    assert.equal(hasScan(planOf('SELECT 1 + 2')), false);
    assert.equal(nameOf('SELECT 1 + 2', shards), null);
    assert.equal(nameOf('SELECT v FROM b WHERE v > 3', shards), 'b');
    assert.equal(nameOf('SELECT a.v FROM a JOIN c ON a.id = c.id', shards), 'a', 'two tables of one shard');
    assert.equal(nameOf('UPDATE a SET v = 1 WHERE id IN (SELECT id FROM c)', shards), 'a');
  });

  void it('says SEVERAL for a plan over tables of two shards, subqueries included', () => {
    for (const sql of ['SELECT a.v FROM a JOIN b ON a.id = b.id', 'SELECT v FROM a WHERE id IN (SELECT id FROM b)', 'INSERT INTO a SELECT id, v FROM c UNION SELECT id, v FROM b']) {
      assert.equal(nameOf(sql, shards), SEVERAL, sql);
      assert.notEqual(nameOf(sql, 1), SEVERAL, 'one shard holds every table');
    }
  });
});
