// DISTINCT ON, grouping sets and ordered-set aggregates through the engine's API: parameter types
// inferred for direct arguments, prepared statements, views over ROLLUP, correlated subqueries over
// rolled-up rows, and the 42P10 position. The SQL-level behaviour is in test/sql/distinct-on.slt,
// grouping-sets.slt and ordered-set-aggregates.slt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine, type ExecResult } from './engine.ts';
import { formatText } from './types.ts';

const engine = await Engine.create();
const s = engine.session();
s.executeAll('CREATE TABLE gt (id int PRIMARY KEY, g int, n int); INSERT INTO gt VALUES (1, 1, 10), (2, 1, 20), (3, 2, 30)');

function rows(r: ExecResult): (string | null)[][] {
  assert.ok(r.ok, r.ok ? '' : `${r.error.code} ${r.error.message}`);
  return r.rows.map((row) => row.map((v, i) => (v === null ? null : formatText(v, r.columns[i]?.type ?? 'text'))));
}

void test('direct arguments of ordered-set aggregates take their parameter types from the aggregate', () => {
  const p = engine.prepare('SELECT percentile_cont($1) WITHIN GROUP (ORDER BY n), rank($2) WITHIN GROUP (ORDER BY n) FROM gt');
  assert.ok(p.ok);
  assert.deepEqual(p.info.paramTypes, ['float8', 'int4']);
  assert.deepEqual(p.info.columns.map((c) => c.type), ['float8', 'int8']);
  s.prepare('pc', 'SELECT percentile_cont($1) WITHIN GROUP (ORDER BY n), rank($2) WITHIN GROUP (ORDER BY n) FROM gt');
  assert.deepEqual(rows(s.executePrepared('pc', ['0.25', '15'])), [['15', '2']]);
  const bad = s.executePrepared('pc', ['2', '15']);
  assert.ok(!bad.ok && bad.error.code === '22003' && bad.error.message === 'percentile value 2 is not between 0 and 1');
});

void test('DISTINCT ON with a LIMIT parameter, and the 42P10 position at the DISTINCT ON item', () => {
  assert.deepEqual(rows(s.execute('SELECT DISTINCT ON (g) g, n FROM gt ORDER BY g, n DESC LIMIT $1', [1])), [['1', '20']]);
  const r = s.execute('SELECT DISTINCT ON (n, g) g FROM gt ORDER BY g, id, n');
  assert.ok(!r.ok && r.error.code === '42P10' && r.error.position === 21);
});

void test('views over ROLLUP and correlated subqueries over rolled-up rows', () => {
  assert.ok(s.execute('CREATE VIEW gv AS SELECT g, sum(n) AS total, grouping(g) AS gg FROM gt GROUP BY ROLLUP (g)').ok);
  assert.deepEqual(rows(s.execute('SELECT * FROM gv ORDER BY gg, g')), [['1', '30', '0'], ['2', '30', '0'], [null, '60', '1']]);
  assert.deepEqual(rows(s.execute('SELECT g, (SELECT max(t2.n) FROM gt t2 WHERE t2.g = gt.g) FROM gt GROUP BY ROLLUP (g) ORDER BY 1')),
    [['1', '20'], ['2', '30'], [null, null]]);
});
