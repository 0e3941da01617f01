/**
 * EXPLAIN and EXPLAIN ANALYZE through the gateway, over the engine and over a cluster of six replicas:
 * the plan in PostgreSQL's COSTS OFF text form with how a cluster reads the statement (sql/explain.ts),
 * and ANALYZE running the statement (its writes happen) with the rows it returned and its time
 * (client/gateway/gateway-explain.ts), through the simple and the extended protocol.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type pg from 'pg';
import { clusterGatewayForSuite, engineGatewayForSuite, withPg } from './gateway-fixture.ts';

const CLUSTER_BASE_PORT = 8960;

const plan = async (c: pg.Client, sql: string, values?: unknown[]): Promise<string[]> =>
  (await c.query<{ 'QUERY PLAN': string }>(sql, values)).rows.map((r) => r['QUERY PLAN']);

async function explains(port: number): Promise<void> {
  await withPg(port, async (c) => {
    await c.query('CREATE TABLE ex_a (id int PRIMARY KEY, v text, n int)');
    await c.query('CREATE TABLE ex_b (id int PRIMARY KEY, a_id int, w text)');
    await c.query('CREATE INDEX ex_b_a ON ex_b (a_id)');
    await c.query("INSERT INTO ex_a VALUES (1, 'x', 5), (2, 'y', 6), (3, 'z', 7)");
    assert.deepEqual(await plan(c, 'EXPLAIN SELECT * FROM ex_a WHERE id = 1'), [
      'Index Scan using ex_a_pkey on ex_a',
      '  Index Cond: (id = 1)',
      'Pesto read: point read',
    ]);
    assert.deepEqual(await plan(c, "EXPLAIN SELECT v FROM ex_a WHERE id > $1 AND v <> 'q' ORDER BY id DESC LIMIT 2", [0]), [
      'Limit',
      '  ->  Index Scan Backward using ex_a_pkey on ex_a',
      '        Index Cond: (id > $1)',
      "        Filter: (v <> 'q'::text)",
      'Pesto read: range read',
    ]);
    assert.deepEqual(await plan(c, 'EXPLAIN SELECT ex_a.v, count(*) FROM ex_a JOIN ex_b ON ex_b.a_id = ex_a.id GROUP BY ex_a.v ORDER BY 2 DESC'), [
      'Sort',
      '  Sort Key: count(*) DESC',
      '  ->  HashAggregate',
      '        Group Key: ex_a.v',
      '        ->  Nested Loop',
      '              ->  Seq Scan on ex_a',
      '              ->  Index Scan using ex_b_a on ex_b',
      '                    Index Cond: (a_id = ex_a.id)',
      'Pesto read: range read',
    ]);
    assert.deepEqual(await plan(c, 'EXPLAIN SELECT v, row_number() OVER (ORDER BY n) FROM ex_a'), ['WindowAgg', '  ->  Seq Scan on ex_a', 'Pesto read: range read']);
    assert.deepEqual(await plan(c, 'EXPLAIN SELECT 1'), ['Result', 'Pesto read: none']);
    assert.deepEqual(await plan(c, 'EXPLAIN DELETE FROM ex_b WHERE a_id = 7'), [
      'Delete on ex_b',
      '  ->  Index Scan using ex_b_a on ex_b',
      '        Index Cond: (a_id = 7)',
      'Pesto read: range read',
    ]);
    // EXPLAIN alone runs nothing: the row is still there.
    assert.deepEqual(await plan(c, 'EXPLAIN UPDATE ex_a SET n = n + 1 WHERE id = 2'), [
      'Update on ex_a',
      '  ->  Index Scan using ex_a_pkey on ex_a',
      '        Index Cond: (id = 2)',
      'Pesto read: point read',
    ]);
    assert.equal((await c.query('SELECT n FROM ex_a WHERE id = 2')).rows[0].n, 6);
    await assert.rejects(c.query('EXPLAIN (FORMAT JSON) SELECT 1'), { code: '0A000', message: 'EXPLAIN (FORMAT JSON) is not supported' });
    await assert.rejects(c.query('EXPLAIN (NOSUCH) SELECT 1'), { code: '42601', message: 'unrecognized EXPLAIN option "nosuch"' });
    await assert.rejects(c.query('EXPLAIN SELECT * FROM nosuch'), { code: '42P01', position: '23' });

    // ANALYZE runs the statement: its rows counted, its writes made.
    const analyzed = await plan(c, 'EXPLAIN ANALYZE SELECT * FROM ex_a WHERE id >= 2');
    assert.deepEqual(analyzed.slice(0, 3), ['Index Scan using ex_a_pkey on ex_a (actual rows=2 loops=1)', '  Index Cond: (id >= 2)', 'Pesto read: range read']);
    assert.match(analyzed[3] ?? '', /^Execution Time: \d+\.\d{3} ms$/);
    const updated = await plan(c, 'EXPLAIN (ANALYZE, VERBOSE) UPDATE ex_a SET n = n + 1 WHERE id = 2 RETURNING n');
    assert.equal(updated[0], 'Update on ex_a (actual rows=1 loops=1)');
    assert.equal((await c.query('SELECT n FROM ex_a WHERE id = 2')).rows[0].n, 7);
    // Through the extended protocol (a named statement) the result is described as one text column.
    const r = await c.query({ name: 'ea', text: 'EXPLAIN ANALYZE SELECT count(*) FROM ex_a' });
    assert.deepEqual(r.fields.map((f) => [f.name, f.dataTypeID]), [['QUERY PLAN', 25]]);
    assert.equal(r.rows[0]['QUERY PLAN'], 'Aggregate (actual rows=1 loops=1)');
    await assert.rejects(c.query('EXPLAIN ANALYZE SELECT * FROM nosuch'), { code: '42P01', position: '31' });
  });
}

void describe('EXPLAIN through the gateway over the engine', () => {
  const port = engineGatewayForSuite();
  void it('prints plans and runs EXPLAIN ANALYZE', async () => {
    await explains(port());
  });
});

void describe('EXPLAIN through the gateway over a cluster of six replicas', () => {
  const { port } = clusterGatewayForSuite('gw-explain', CLUSTER_BASE_PORT);
  void it('prints plans and runs EXPLAIN ANALYZE', async () => {
    await explains(port());
  });
});
