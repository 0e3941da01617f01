/**
 * Expression and partial indexes as psql and drivers see them through the gateway: `\d table` and `\di`
 * (psql-describe.ts), pg_index.indkey / indexprs / indpred through pg_get_expr, and pg_get_indexdef
 * (catalog-constraints.ts), and a unique violation's DETAIL. Expected outputs are PostgreSQL 15's
 * for the same DDL, byte for byte (psql connected as the same user).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PASSWORD, runPsql, startTestGateway, withPg } from './gateway-fixture.ts';

const USER = 'postgres';

const psql = (port: number, ...args: string[]): ReturnType<typeof runPsql> => runPsql(port, USER, ...args);

const DDL = [
  'CREATE TABLE people (id int PRIMARY KEY, email varchar(100), name text, deleted_at timestamp, n int)',
  'CREATE UNIQUE INDEX people_email_ci ON people (lower(email))',
  'CREATE UNIQUE INDEX people_live_name ON people (name) WHERE deleted_at IS NULL',
  "CREATE INDEX ON people ((n + 1), lower(name)) WHERE n > 0 AND name <> 'x'",
];

const PEOPLE = `                           Table "public.people"
   Column   |            Type             | Collation | Nullable | Default 
------------+-----------------------------+-----------+----------+---------
 id         | integer                     |           | not null | 
 email      | character varying(100)      |           |          | 
 name       | text                        |           |          | 
 deleted_at | timestamp without time zone |           |          | 
 n          | integer                     |           |          | 
Indexes:
    "people_pkey" PRIMARY KEY, btree (id)
    "people_email_ci" UNIQUE, btree (lower(email::text))
    "people_expr_lower_idx" btree ((n + 1), lower(name)) WHERE n > 0 AND name <> 'x'::text
    "people_live_name" UNIQUE, btree (name) WHERE deleted_at IS NULL

`;

const INDEXES = `                     List of relations
 Schema |         Name          | Type  |  Owner   | Table  
--------+-----------------------+-------+----------+--------
 public | people_email_ci       | index | postgres | people
 public | people_expr_lower_idx | index | postgres | people
 public | people_live_name      | index | postgres | people
 public | people_pkey           | index | postgres | people
(4 rows)

`;

const CATALOG = `        relname        | indkey |        exprs         |               pred                |                                                         pg_get_indexdef                                                          
-----------------------+--------+----------------------+-----------------------------------+----------------------------------------------------------------------------------------------------------------------------------
 people_email_ci       | 0      | lower((email)::text) |                                   | CREATE UNIQUE INDEX people_email_ci ON public.people USING btree (lower((email)::text))
 people_expr_lower_idx | 0 0    | (n + 1), lower(name) | ((n > 0) AND (name <> 'x'::text)) | CREATE INDEX people_expr_lower_idx ON public.people USING btree (((n + 1)), lower(name)) WHERE ((n > 0) AND (name <> 'x'::text))
 people_live_name      | 3      |                      | (deleted_at IS NULL)              | CREATE UNIQUE INDEX people_live_name ON public.people USING btree (name) WHERE (deleted_at IS NULL)
 people_pkey           | 1      |                      |                                   | CREATE UNIQUE INDEX people_pkey ON public.people USING btree (id)
(4 rows)

`;

const CATALOG_QUERY = `SELECT c.relname, i.indkey::text, pg_get_expr(i.indexprs, i.indrelid) AS exprs, pg_get_expr(i.indpred, i.indrelid) AS pred,
  pg_get_indexdef(i.indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'people'::regclass ORDER BY c.relname`;

void test('psql \\d and \\di, pg_index and pg_get_indexdef show expression and partial indexes as PostgreSQL 15 does', async () => {
  const gw = await startTestGateway({ users: [{ name: USER, password: PASSWORD }] });
  try {
    const ddl = await psql(gw.port, '-v', 'ON_ERROR_STOP=1', ...DDL.flatMap((s) => ['-c', s]));
    assert.equal(ddl.code, 0, ddl.stderr);
    for (const [command, expected] of [['\\d people', PEOPLE], ['\\di', INDEXES], [CATALOG_QUERY, CATALOG]] as const) {
      const r = await psql(gw.port, '-c', command);
      assert.equal(r.code, 0, `${command}: ${r.stderr}`);
      assert.equal(r.stdout, expected, command);
    }
  } finally {
    await gw.close();
  }
});

void test("a unique violation of an expression index names the expression in PostgreSQL's DETAIL", async () => {
  const gw = await startTestGateway();
  try {
    await withPg(gw.port, async (c) => {
      await c.query(DDL[0]!);
      await c.query(DDL[1]!);
      await c.query("INSERT INTO people VALUES (1, 'Ann@Example.com', 'ann', NULL, 1)");
      const e = await c.query("INSERT INTO people VALUES (2, 'ANN@example.com', 'ann', NULL, 1)").then(() => null, (x: unknown) => x as { code: string; detail: string; constraint?: string });
      assert.equal(e?.code, '23505');
      assert.equal(e?.detail, 'Key (lower(email::text))=(ann@example.com) already exists.');
      const dup = await c.query("CREATE UNIQUE INDEX people_name_ci ON people (lower(name))").then(() => null, () => null);
      assert.equal(dup, null);
      await c.query("INSERT INTO people VALUES (3, 'b@example.com', 'ANN', NULL, 1)").then(() => assert.fail('inserted'), (x: { code: string; detail: string }) => {
        assert.equal(x.code, '23505');
        assert.equal(x.detail, 'Key (lower(name))=(ann) already exists.');
      });
    });
  } finally {
    await gw.close();
  }
});
