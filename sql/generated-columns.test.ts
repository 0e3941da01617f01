import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { Engine } from './engine.ts';

const engine = await Engine.create();

/** The outcome of CREATE TABLE with column `b` generated as `expr` over `a` of type `type`: 'ok' or `SQLSTATE message`. */
function create(type: string, expr: string, bType = 'text'): string {
  const s = engine.session();
  const r = s.execute(`CREATE TABLE t (a ${type}, b ${bType} GENERATED ALWAYS AS (${expr}) STORED)`);
  s.execute('DROP TABLE IF EXISTS t');
  return r.ok ? 'ok' : `${r.error.code} ${r.error.message}`;
}

const NOT_IMMUTABLE = '42P17 generation expression is not immutable';

void describe('generated columns: what PostgreSQL 15 calls immutable', () => {
  const cases: readonly [string, string, string, string][] = [
    // column type, expression, generated column type, outcome (each checked on PostgreSQL 15)
    ['int', 'a * 2', 'int', 'ok'],
    ['text', 'a || 1', 'text', 'ok'],
    ['int', "a::text || 'x'", 'text', 'ok'],
    ['time', 'a::text', 'text', 'ok'],
    ['date', 'a::text', 'text', NOT_IMMUTABLE],
    ['date', "a || 'x'", 'text', NOT_IMMUTABLE],
    ['text', 'a::date', 'date', NOT_IMMUTABLE],
    ['text', 'a::time', 'time', NOT_IMMUTABLE],
    ['text', 'a::int[]', 'int[]', NOT_IMMUTABLE],
    ['timestamp', "date_trunc('day', a)", 'timestamp', 'ok'],
    ['timestamptz', "date_trunc('day', a)", 'timestamptz', NOT_IMMUTABLE],
    ['timestamp', 'a::timestamptz', 'timestamptz', NOT_IMMUTABLE],
    ['timestamptz', "a + interval '1 day'", 'timestamptz', NOT_IMMUTABLE],
    ['timestamp', "a + interval '1 day'", 'timestamp', 'ok'],
    ['timestamp', 'age(a, a)', 'interval', 'ok'],
    ['numeric', "to_char(a, '999')", 'text', NOT_IMMUTABLE],
    ['int', "concat(a, 'x')", 'text', NOT_IMMUTABLE],
    ['jsonb', "a->>'k'", 'text', 'ok'],
    ['int', 'random()', 'float8', NOT_IMMUTABLE],
    ['int', "'2024-01-01'::date + a", 'date', 'ok'],
  ];
  for (const [type, expr, bType, outcome] of cases) {
    void it(`${type}: ${expr} is ${outcome === 'ok' ? 'accepted' : 'refused'}`, () => assert.equal(create(type, expr, bType), outcome));
  }
});

void describe('generated columns: definitions refused', () => {
  void it('names the generated column another expression reads, with PostgreSQL detail', () => {
    const r = engine.session().execute('CREATE TABLE t (a int, b int GENERATED ALWAYS AS (c) STORED, c int GENERATED ALWAYS AS (a) STORED)');
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.equal(r.error.message, 'cannot use generated column "c" in column generation expression');
    assert.equal(r.error.detail, 'A generated column cannot reference another generated column.');
  });

  void it('refuses a DEFAULT, an identity or BY DEFAULT beside the generation clause', () => {
    assert.equal(create('int', 'a', 'int DEFAULT 1'), '42601 both default and generation expression specified for column "b" of table "t"');
    assert.equal(create('int', 'a', 'serial'), '42601 both default and generation expression specified for column "b" of table "t"');
    assert.equal(create('int', 'a', 'int GENERATED ALWAYS AS IDENTITY'), '42601 both identity and generation expression specified for column "b" of table "t"');
  });

  void it('refuses a value that cannot be assigned with the default expression wording', () => {
    assert.equal(create('int', 'a::text', 'int'), '42804 column "b" is of type integer but default expression is of type text');
  });
});
