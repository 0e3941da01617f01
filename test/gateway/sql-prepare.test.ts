/**
 * SQL PREPARE and EXECUTE through the gateway (client/gateway/sql-prepare.ts). The psql session in
 * testdata/prepare.sql, whose output and errors testdata/prepare.out and .err are PostgreSQL 15's byte
 * for byte, runs over the engine here (the cluster runs it in test/gateway/cluster.test.ts): literals and
 * expressions as arguments, assignment coercion and its errors, subqueries refused, wrong argument
 * counts, statements surviving ROLLBACK, DEALLOCATE and DISCARD ALL. The `pg` driver shows the one
 * namespace of SQL and protocol-level prepared statements.
 */
import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule } from 'libpg-query';
import { classify } from '../../client/gateway/gateway-command.ts';
import { psqlScript, scriptOutput } from './client-scripts.ts';
import { PASSWORD, USER, engineGatewayForSuite, withPg } from './gateway-fixture.ts';

void test('PREPARE and EXECUTE parse to the statement text, declared types and arguments with their positions', async () => {
  await loadModule();
  const prepare = 'PREPARE "q 1" (numeric(10, 2), ä) AS SELECT $1 AS ä, $2 ;';
  const at = (s: string, text: string): number => s.indexOf(text) + 1;
  const p = classify(prepare);
  assert.equal(p.k, 'prepare');
  if (p.k !== 'prepare') return;
  assert.equal(p.spec.name, 'q 1');
  assert.equal(p.spec.query, 'SELECT $1 AS ä, $2');
  assert.equal(p.spec.queryPosition, at(prepare, 'SELECT'));
  assert.deepEqual(p.spec.typeNames.map((t) => t.position), [at(prepare, 'numeric'), at(prepare, 'ä)')]);
  // Positions count characters, not the scanner's UTF-8 bytes.
  const execute = "EXECUTE q ('é', 2 + 3, NULL, -1.5, true)";
  const e = classify(execute);
  assert.equal(e.k, 'executePrepared');
  if (e.k !== 'executePrepared') return;
  assert.deepEqual(e.spec.args, [
    { k: 'literal', text: 'é', type: 'unknown', position: at(execute, "'é'") },
    { k: 'expr', position: at(execute, '2 +') },
    { k: 'literal', text: null, type: 'unknown', position: at(execute, 'NULL') },
    { k: 'literal', text: '-1.5', type: 'numeric', position: at(execute, '-1.5') },
    { k: 'literal', text: 'true', type: 'bool', position: at(execute, 'true') },
  ]);
  // A position in the SELECT of the arguments, plus the offset, is the same character's in the EXECUTE.
  const evaluate = "SELECT 'é', 2 + 3, NULL, -1.5, true";
  assert.deepEqual(e.spec.evaluate, { sql: evaluate, offset: at(execute, '2 +') - at(evaluate, '2 +') });
  const literal = classify('EXECUTE q(1)');
  assert.equal(literal.k === 'executePrepared' && literal.spec.evaluate, null);
  const sub = classify('EXECUTE q((SELECT 1))');
  assert.equal(sub.k === 'executePrepared' && sub.spec.args[0]?.k, 'subquery');
});

void describe('PREPARE and EXECUTE over the engine', () => {
  const port = engineGatewayForSuite();

  void it('psql runs PREPARE, EXECUTE and DEALLOCATE as against PostgreSQL 15', async () => {
    const r = await psqlScript('prepare', port(), USER, PASSWORD);
    assert.equal(r.stdout, scriptOutput('prepare').stdout);
    assert.equal(r.stderr, scriptOutput('prepare').stderr);
  });

  void it('SQL and protocol-level prepared statements share one namespace', () =>
    withPg(port(), async (c) => {
      await c.query('CREATE TABLE ns (id int PRIMARY KEY, v text)');
      await c.query("INSERT INTO ns VALUES (1, 'a'), (2, 'b'), (3, 'c')");
      // Parsed by the driver (extended protocol), executed by SQL.
      await c.query({ name: 'by_parse', text: 'SELECT v FROM ns WHERE id = $1', values: [2] });
      assert.deepEqual((await c.query('EXECUTE by_parse(3)')).rows, [{ v: 'c' }]);
      await assert.rejects(c.query('PREPARE by_parse AS SELECT 1'), { code: '42P05' });
      // Prepared by SQL, executed through Parse/Describe/Bind/Execute: Describe gives its columns.
      await c.query('PREPARE by_sql (int) AS SELECT id, v FROM ns WHERE id >= $1 ORDER BY id');
      const r = await c.query({ name: 'runs_it', text: 'EXECUTE by_sql(2)', rowMode: 'array' });
      assert.deepEqual(r.fields.map((f) => f.name), ['id', 'v']);
      assert.deepEqual(r.rows, [[2, 'b'], [3, 'c']]);
      assert.equal(r.command, 'SELECT');
      const tag = await c.query('EXECUTE by_sql(1)');
      assert.equal(tag.rowCount, 3);
      await c.query('DEALLOCATE by_sql');
      await assert.rejects(c.query('EXECUTE by_sql(1)'), { code: '26000' });
      await c.query('DROP TABLE ns');
    }));
});
