import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { Engine } from './engine.ts';
import { checkText } from './check-text.ts';

// Expected texts: PostgreSQL 15's pg_get_constraintdef(oid, true) of the same table's constraints.
const COLUMNS = 'id int primary key, balance numeric, price numeric, name varchar(20), a int, b int, status text, v varchar(5), x int, f float8, f2 float8, ' +
  'big bigint, s smallint, c char(3), d date, n2 numeric, t1 text, t2 text, v2 varchar, act boolean';
const WRITTEN = "CONSTRAINT t_balance_check CHECK (balance >= -1000), CONSTRAINT t_price_check CHECK (price >= 0), CONSTRAINT t_name_check CHECK (length(name) > 0), " +
  "CONSTRAINT t_status_check CHECK (status in ('a','b')), CONSTRAINT t_v_check CHECK (v in ('x','y')), CONSTRAINT t_x_check CHECK (x is not null), " +
  'CONSTRAINT t_check CHECK (a > 0 and b < 10), CONSTRAINT t_f_check CHECK (f > 0), CONSTRAINT t_f2_check CHECK (f2 > 1.5), ' +
  "CONSTRAINT t_big_check CHECK (big < 10000000000), CONSTRAINT t_s_check CHECK (s > 5), CONSTRAINT t_c_check CHECK (c = 'abc'), " +
  "CONSTRAINT t_d_check CHECK (d > '2020-01-01'), CONSTRAINT t_n2_check CHECK (n2 > 1.5), CONSTRAINT t_t1_check CHECK (t1 <> ''), " +
  "CONSTRAINT t_t2_check CHECK (t2 like 'a%'), CONSTRAINT t_v2_check CHECK (v2 = 'q'), CONSTRAINT t_act_check CHECK (act), " +
  'CONSTRAINT t_a_check CHECK (not a > 5), CONSTRAINT t_check1 CHECK (a + b > 0), CONSTRAINT t_a_check1 CHECK (a between 1 and 10), ' +
  "CONSTRAINT t_check2 CHECK (a * 2 + b - 1 > 3 or a is null), CONSTRAINT t_a_check2 CHECK ('5'::int > a), CONSTRAINT t_a_check3 CHECK (a not in (1,2)), " +
  'CONSTRAINT t_a_check4 CHECK (-a < 3), CONSTRAINT t_t1_check1 CHECK (lower(t1) = t1), CONSTRAINT t_check3 CHECK (a > 0 and (b > 0 or x > 0)), ' +
  'CONSTRAINT t_a_check5 CHECK (coalesce(a,0) >= 0), CONSTRAINT t_check4 CHECK (t1 is distinct from t2), CONSTRAINT t_x_check1 CHECK (x>0.5), ' +
  "CONSTRAINT t_n2_check1 CHECK (n2::int > 3), CONSTRAINT t_v_check1 CHECK (upper(v) <> 'Z'), CONSTRAINT t_check5 CHECK (a in (b, x)), " +
  'CONSTRAINT t_act_check1 CHECK (act is true)';
/** The same constraints as pg_dump writes them (pg_get_constraintdef(oid), not pretty). */
const DUMPED =
  'CONSTRAINT t_a_check CHECK ((NOT (a > 5))), ' +
  'CONSTRAINT t_a_check1 CHECK (((a >= 1) AND (a <= 10))), ' +
  'CONSTRAINT t_a_check2 CHECK ((5 > a)), ' +
  'CONSTRAINT t_a_check3 CHECK ((a <> ALL (ARRAY[1, 2]))), ' +
  'CONSTRAINT t_a_check4 CHECK (((- a) < 3)), ' +
  'CONSTRAINT t_a_check5 CHECK ((COALESCE(a, 0) >= 0)), ' +
  'CONSTRAINT t_act_check CHECK (act), ' +
  'CONSTRAINT t_act_check1 CHECK ((act IS TRUE)), ' +
  'CONSTRAINT t_balance_check CHECK ((balance >= (\'-1000\'::integer)::numeric)), ' +
  'CONSTRAINT t_big_check CHECK ((big < \'10000000000\'::bigint)), ' +
  'CONSTRAINT t_c_check CHECK ((c = \'abc\'::bpchar)), ' +
  'CONSTRAINT t_check CHECK (((a > 0) AND (b < 10))), ' +
  'CONSTRAINT t_check1 CHECK (((a + b) > 0)), ' +
  'CONSTRAINT t_check2 CHECK ((((((a * 2) + b) - 1) > 3) OR (a IS NULL))), ' +
  'CONSTRAINT t_check3 CHECK (((a > 0) AND ((b > 0) OR (x > 0)))), ' +
  'CONSTRAINT t_check4 CHECK ((t1 IS DISTINCT FROM t2)), ' +
  'CONSTRAINT t_check5 CHECK (((a = b) OR (a = x))), ' +
  'CONSTRAINT t_d_check CHECK ((d > \'2020-01-01\'::date)), ' +
  'CONSTRAINT t_f2_check CHECK ((f2 > (1.5)::double precision)), ' +
  'CONSTRAINT t_f_check CHECK ((f > (0)::double precision)), ' +
  'CONSTRAINT t_n2_check CHECK ((n2 > 1.5)), ' +
  'CONSTRAINT t_n2_check1 CHECK (((n2)::integer > 3)), ' +
  'CONSTRAINT t_name_check CHECK ((length((name)::text) > 0)), ' +
  'CONSTRAINT t_price_check CHECK ((price >= (0)::numeric)), ' +
  'CONSTRAINT t_s_check CHECK ((s > 5)), ' +
  'CONSTRAINT t_status_check CHECK ((status = ANY (ARRAY[\'a\'::text, \'b\'::text]))), ' +
  'CONSTRAINT t_t1_check CHECK ((t1 <> \'\'::text)), ' +
  'CONSTRAINT t_t1_check1 CHECK ((lower(t1) = t1)), ' +
  'CONSTRAINT t_t2_check CHECK ((t2 ~~ \'a%\'::text)), ' +
  'CONSTRAINT t_v2_check CHECK (((v2)::text = \'q\'::text)), ' +
  'CONSTRAINT t_v_check CHECK (((v)::text = ANY ((ARRAY[\'x\'::character varying, \'y\'::character varying])::text[]))), ' +
  'CONSTRAINT t_v_check1 CHECK ((upper((v)::text) <> \'Z\'::text)), ' +
  'CONSTRAINT t_x_check CHECK ((x IS NOT NULL)), ' +
  'CONSTRAINT t_x_check1 CHECK (((x)::numeric > 0.5))';
const EXPECTED: readonly [string, string][] = [
  ['t_a_check', 'CHECK (NOT a > 5)'],
  ['t_a_check1', 'CHECK (a >= 1 AND a <= 10)'],
  ['t_a_check2', 'CHECK (5 > a)'],
  ['t_a_check3', 'CHECK (a <> ALL (ARRAY[1, 2]))'],
  ['t_a_check4', 'CHECK ((- a) < 3)'],
  ['t_a_check5', 'CHECK (COALESCE(a, 0) >= 0)'],
  ['t_act_check', 'CHECK (act)'],
  ['t_act_check1', 'CHECK (act IS TRUE)'],
  ['t_balance_check', 'CHECK (balance >= \'-1000\'::integer::numeric)'],
  ['t_big_check', 'CHECK (big < \'10000000000\'::bigint)'],
  ['t_c_check', 'CHECK (c = \'abc\'::bpchar)'],
  ['t_check', 'CHECK (a > 0 AND b < 10)'],
  ['t_check1', 'CHECK ((a + b) > 0)'],
  ['t_check2', 'CHECK ((a * 2 + b - 1) > 3 OR a IS NULL)'],
  ['t_check3', 'CHECK (a > 0 AND (b > 0 OR x > 0))'],
  ['t_check4', 'CHECK (t1 IS DISTINCT FROM t2)'],
  ['t_check5', 'CHECK (a = b OR a = x)'],
  ['t_d_check', 'CHECK (d > \'2020-01-01\'::date)'],
  ['t_f2_check', 'CHECK (f2 > 1.5::double precision)'],
  ['t_f_check', 'CHECK (f > 0::double precision)'],
  ['t_n2_check', 'CHECK (n2 > 1.5)'],
  ['t_n2_check1', 'CHECK (n2::integer > 3)'],
  ['t_name_check', 'CHECK (length(name::text) > 0)'],
  ['t_price_check', 'CHECK (price >= 0::numeric)'],
  ['t_s_check', 'CHECK (s > 5)'],
  ['t_status_check', 'CHECK (status = ANY (ARRAY[\'a\'::text, \'b\'::text]))'],
  ['t_t1_check', 'CHECK (t1 <> \'\'::text)'],
  ['t_t1_check1', 'CHECK (lower(t1) = t1)'],
  ['t_t2_check', 'CHECK (t2 ~~ \'a%\'::text)'],
  ['t_v2_check', 'CHECK (v2::text = \'q\'::text)'],
  ['t_v_check', 'CHECK (v::text = ANY (ARRAY[\'x\'::character varying, \'y\'::character varying]::text[]))'],
  ['t_v_check1', 'CHECK (upper(v::text) <> \'Z\'::text)'],
  ['t_x_check', 'CHECK (x IS NOT NULL)'],
  ['t_x_check1', 'CHECK (x::numeric > 0.5)'],
];

async function texts(ddl: readonly string[], pretty = true): Promise<[string, string | null][]> {
  const e = await Engine.create();
  const s = e.session();
  for (const sql of ddl) {
    const r = s.execute(sql);
    assert.ok(r.ok, sql);
  }
  const t = e.catalog.get('t')!;
  return (t.checks ?? []).map((k) => [k.name, k.source === undefined ? null : `CHECK (${checkText(k.source, (i) => t.columns[i]!.name, pretty)})`]);
}

void describe('CHECK constraint text (pg_get_constraintdef)', () => {
  void it('prints each form as PostgreSQL 15 does', async () => {
    assert.deepEqual(await texts([`CREATE TABLE t (${COLUMNS}, ${WRITTEN})`]), EXPECTED);
  });

  void it("prints pg_dump's fully parenthesized form the same way", async () => {
    assert.deepEqual(await texts([`CREATE TABLE t (${COLUMNS}, ${DUMPED})`]), EXPECTED);
  });

  void it('prints the plain form pg_dump reads (pg_get_constraintdef without pretty)', async () => {
    const plain = DUMPED.split(/, (?=CONSTRAINT )/).map((c) => /^CONSTRAINT (\w+) (.*)$/.exec(c)!.slice(1) as [string, string]);
    plain.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    assert.deepEqual(await texts([`CREATE TABLE t (${COLUMNS}, ${WRITTEN})`], false), plain);
  });

  void it('names renamed columns by their new name, and covers ALTER TABLE ADD CHECK', async () => {
    const got = await texts(['CREATE TABLE t (id int, "Qty" int CHECK ("Qty" > 0))', 'ALTER TABLE t RENAME COLUMN "Qty" TO amount',
      'ALTER TABLE t ADD CONSTRAINT named CHECK (amount < 100 AND id <> -1)']);
    assert.deepEqual(got, [['named', "CHECK (amount < 100 AND id <> '-1'::integer)"], ['t_Qty_check', 'CHECK (amount > 0)']]);
  });

  void it('keeps cross-type operands (real, dates) as they are and quotes keywords', async () => {
    const got = await texts(['CREATE TABLE t (ts timestamp CHECK (ts <= now()), d date CHECK (d < now()), tz timestamptz CHECK (tz > \'2020-01-01\'), ' +
      'd2 date, f4 real CHECK (f4 > 0), "order" int CHECK ("order" > 0), n numeric CHECK (n IN (1, 2.5)), CONSTRAINT t_check CHECK (d2 > ts))']);
    assert.deepEqual(got, [
      ['t_check', 'CHECK (d2 > ts)'],
      ['t_d_check', 'CHECK (d < now())'],
      ['t_f4_check', 'CHECK (f4 > 0::double precision)'],
      ['t_n_check', 'CHECK (n = ANY (ARRAY[1::numeric, 2.5]))'],
      ['t_order_check', 'CHECK ("order" > 0)'],
      ['t_ts_check', 'CHECK (ts <= now())'],
      ['t_tz_check', "CHECK (tz > '2020-01-01 00:00:00+00'::timestamp with time zone)"],
    ]);
  });

  void it('leaves forms it does not print without text', async () => {
    assert.deepEqual(await texts(['CREATE TABLE t (a int CHECK (CASE WHEN a > 0 THEN true ELSE false END))']), [['t_a_check', null]]);
  });
});
