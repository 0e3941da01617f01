import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine, type ExecResult } from './engine.ts';

const engine = await Engine.create();

function plan(r: ExecResult): string {
  assert.ok(r.ok, r.ok ? '' : `${r.error.code} ${r.error.message}`);
  return r.rows.map((row) => String(row[0])).join('\n');
}

function code(r: ExecResult): string {
  return r.ok ? 'ok' : r.error.code;
}

void test('the planner uses an expression index for the same expression, a partial one only when WHERE implies its predicate', () => {
  const s = engine.session();
  for (const q of [
    'CREATE TABLE ik (id int PRIMARY KEY, email varchar(40), n int, gone boolean)',
    'CREATE INDEX ik_email ON ik (lower(email))',
    'CREATE INDEX ik_live ON ik (n) WHERE NOT gone',
    'CREATE INDEX ik_mixed ON ik ((n * 2), email)',
  ]) assert.ok(s.execute(q).ok, q);
  assert.match(plan(s.execute("EXPLAIN SELECT * FROM ik WHERE lower(email) = 'a'")), /Index Scan using ik_email on ik\n {2}Index Cond: \(lower\(\(email\)::text\) = 'a'::text\)/);
  assert.match(plan(s.execute("EXPLAIN SELECT * FROM ik WHERE upper(email) = 'A'")), /^Seq Scan on ik/);
  assert.match(plan(s.execute('EXPLAIN SELECT * FROM ik WHERE n = 3 AND NOT gone')), /^Index Scan using ik_live on ik/);
  assert.doesNotMatch(plan(s.execute('EXPLAIN SELECT * FROM ik WHERE n = 3')), /ik_live/);
  assert.match(plan(s.execute("EXPLAIN SELECT * FROM ik WHERE n * 2 = 8 AND email = 'x'")), /^Index Scan using ik_mixed on ik\n {2}Index Cond: \(\(\(n \* 2\) = 8\) AND \(email = /);
  assert.match(plan(s.execute('EXPLAIN SELECT * FROM ik WHERE n * 2 > 8')), /^Index Scan using ik_mixed on ik/);
});

// Each verdict checked against PostgreSQL 15.
void test('only immutable functions and operators may key or filter an index (42P17, as PostgreSQL marks them)', () => {
  const s = engine.session();
  assert.ok(s.execute('CREATE TABLE iv (id int PRIMARY KEY, t text, ts timestamp, tz timestamptz, d date, j jsonb)').ok);
  const refused = [
    'now()', 'random()', 'gen_random_uuid()', "to_char(ts, 'YYYY')", "concat(t, 'x')", 'ts::timestamptz', 'tz::timestamp', 't::date', 'd::text', 'ts::text',
    "date_trunc('day', tz)", "date_part('year', tz)", "tz + interval '1 day'", "to_jsonb(t)",
  ];
  for (const e of refused) assert.equal(code(s.execute(`CREATE INDEX iv_bad ON iv ((${e}))`)), '42P17', e);
  for (const e of refused) assert.equal(code(s.execute(`CREATE INDEX iv_bad ON iv (id) WHERE (${e}) IS NOT NULL`)), '42P17', e);
  const allowed = ["date_trunc('day', ts)", "date_part('year', ts)", "ts + interval '1 day'", 'age(ts, ts)', 'md5(t)', "t || 'x'", 'length(t)', 'ts::date', 'id::text', "j ->> 'a'", 'abs(id)', "coalesce(t, '')"];
  for (const e of allowed) {
    assert.equal(code(s.execute(`CREATE INDEX iv_ok ON iv ((${e}))`)), 'ok', e);
    assert.ok(s.execute('DROP INDEX iv_ok').ok);
  }
  // An index key of type jsonb is refused as a jsonb column's is.
  assert.equal(code(s.execute("CREATE INDEX iv_j ON iv ((j -> 'a'))")), '0A000');
});

void test('unnamed indexes are named as PostgreSQL names them: columns, function names, expr, case, coalesce, ...', () => {
  const s = engine.session();
  assert.ok(s.execute('CREATE TABLE inm (id int PRIMARY KEY, a text, b int)').ok);
  for (const [ddl, name] of [
    ['CREATE INDEX ON inm (lower(a), b)', 'inm_lower_b_idx'], ['CREATE INDEX ON inm ((b + 1))', 'inm_expr_idx'], ['CREATE INDEX ON inm ((b::text))', 'inm_b_idx'],
    ['CREATE INDEX ON inm ((b + 1))', 'inm_expr_idx1'], ['CREATE INDEX ON inm ((a))', 'inm_a_idx'], ['CREATE INDEX ON inm (b) WHERE b > 0', 'inm_b_idx1'],
    ["CREATE INDEX ON inm ((coalesce(a, '')))", 'inm_coalesce_idx'], ['CREATE INDEX ON inm ((CASE WHEN b > 0 THEN 1 END))', 'inm_case_idx'],
    ['CREATE INDEX ON inm ((nullif(b, 0)))', 'inm_nullif_idx'], ['CREATE INDEX ON inm ((greatest(b, 1)))', 'inm_greatest_idx'],
    ['CREATE INDEX ON inm ((least(b, 1)))', 'inm_least_idx'], ['CREATE INDEX ON inm ((ARRAY[b]))', 'inm_array_idx'], ['CREATE INDEX ON inm ((a IS NULL))', 'inm_expr_idx2'],
  ] as const) {
    assert.ok(s.execute(ddl).ok, ddl);
    assert.ok(s.execute(`DROP INDEX ${name}`).ok, `${ddl}: ${name}`);
    assert.ok(s.execute(ddl).ok, ddl);
  }
});
