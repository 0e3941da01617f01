/**
 * Array-typed table columns through the gateway, over the single-node engine and over a cluster of six
 * replica processes: psql running testdata/array-columns.sql (`\d` of a table of array columns,
 * information_schema.columns, pg_attribute, format_type, COPY FROM STDIN in text and CSV, `\copy` out in
 * text, CSV and binary and back in, and COPY's errors), whose expected output is PostgreSQL 15's byte
 * for byte; node `pg` (JS arrays as parameters into array columns, typed array results parsed back);
 * postgres.js (typed array parameters);
 * psycopg 3 (lists as text and binary parameters, binary results, binary COPY in and out with
 * psycopg's copy). The driver checks pass against PostgreSQL 15 too.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import postgres from 'postgres';
import { clusterGatewayForSuite, DATABASE, PASSWORD, startTestGateway, USER, withPg } from './gateway-fixture.ts';
import { PYTHON, runClient } from './client-scripts.ts';
import type { Gateway } from '../../client/gateway/gateway-server.ts';

const BASE_PORT = 8400;
const BIN = '/usr/lib/postgresql/15/bin';
const TESTDATA = join(import.meta.dirname, 'testdata');

/** psql runs testdata/array-columns.sql in a scratch folder (its `\copy` files); stdout and stderr. */
async function psqlScript(port: number): Promise<{ stdout: string; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'pesto-array-columns-'));
  const script = join(TESTDATA, 'array-columns.sql');
  try {
    return await new Promise((resolve) => {
      execFile(join(BIN, 'psql'), ['-X', '-h', '127.0.0.1', '-p', String(port), '-U', USER, '-d', DATABASE, '-f', script], {
        cwd: dir,
        env: { ...process.env, PGPASSWORD: PASSWORD, PGSSLMODE: 'disable', PGCONNECT_TIMEOUT: '10' },
        timeout: 120_000,
      }, (_err, stdout, stderr) => resolve({ stdout, stderr: stderr.split(`psql:${script}:`).join('psql:array-columns.sql:') }));
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function psqlMatchesPostgres(port: number): Promise<void> {
  const r = await psqlScript(port);
  assert.equal(r.stdout, readFileSync(join(TESTDATA, 'array-columns.out'), 'utf8'));
  assert.equal(r.stderr, readFileSync(join(TESTDATA, 'array-columns.err'), 'utf8'));
}

/** node `pg`: JS arrays go out as text of type 0 and come back parsed by the column's array type. */
async function pgDriverChecks(c: pg.Client): Promise<void> {
  await c.query('CREATE TABLE pgd_arr (id int PRIMARY KEY, tags text[], n int[] NOT NULL DEFAULT \'{}\', m numeric(4,1)[], v varchar(2)[])');
  await c.query('INSERT INTO pgd_arr (id, tags, n, m) VALUES ($1, $2, $3, $4), ($5, $6, $7, $8)',
    [1, ['a', 'b c', null, 'd"e'], [1, 2], ['1.25', null], 2, [], [3], null]);
  await c.query('INSERT INTO pgd_arr (id, tags) VALUES (3, NULL)');
  const all = await c.query('SELECT id, tags, n, m FROM pgd_arr ORDER BY id');
  assert.deepEqual(all.fields.map((f) => f.dataTypeID), [23, 1009, 1007, 1231]);
  assert.deepEqual(all.rows, [
    { id: 1, tags: ['a', 'b c', null, 'd"e'], n: [1, 2], m: [1.3, null] },
    { id: 2, tags: [], n: [3], m: null },
    { id: 3, tags: null, n: [], m: null },
  ]);
  const contains = await c.query('SELECT id FROM pgd_arr WHERE tags @> $1::text[] ORDER BY id', [['b c']]);
  assert.deepEqual(contains.rows, [{ id: 1 }]);
  const any = await c.query('SELECT id FROM pgd_arr WHERE $1 = ANY(n) ORDER BY id', [3]);
  assert.deepEqual(any.rows, [{ id: 2 }]);
  const eq = await c.query('SELECT id FROM pgd_arr WHERE n = $1 ORDER BY id', [[]]);
  assert.deepEqual(eq.rows, [{ id: 3 }]);
  const upd = await c.query('UPDATE pgd_arr SET tags = array_append(tags, $1), n = n || $2::int WHERE id = ANY($3) RETURNING id, tags, n', ['x', 9, [2, 3]]);
  assert.deepEqual(upd.rows.sort((a: { id: number }, b: { id: number }) => a.id - b.id), [
    { id: 2, tags: ['x'], n: [3, 9] },
    { id: 3, tags: ['x'], n: [9] },
  ]);
  const sub = await c.query('SELECT tags[2] AS second, cardinality(tags) AS k FROM pgd_arr WHERE id = 1');
  assert.deepEqual(sub.rows, [{ second: 'b c', k: 4 }]);
  await assert.rejects(c.query('UPDATE pgd_arr SET v = $1 WHERE id = 1', [['abc']]), { code: '22001', message: 'value too long for type character varying(2)' });
  await assert.rejects(c.query('INSERT INTO pgd_arr (id, n) VALUES (4, $1)', [['x']]), { code: '22P02', message: 'invalid input syntax for type integer: "x"' });
  await assert.rejects(c.query('INSERT INTO pgd_arr (id, n) VALUES (4, NULL)'), { code: '23502' });
  await c.query('DROP TABLE pgd_arr');
}

/** postgres.js: arrays sent as typed array parameters, as the server describes them. */
async function postgresJsChecks(port: number): Promise<void> {
  const sql = postgres({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: DATABASE, max: 1, onnotice: () => undefined });
  try {
    await sql`CREATE TABLE pjs_arr (id int PRIMARY KEY, tags text[], n int[])`;
    await sql`INSERT INTO pjs_arr VALUES (${1}, ${['a', 'b c', null]}, ${[1, 2]}), (${2}, ${[]}, ${null})`;
    assert.deepEqual([...await sql`SELECT * FROM pjs_arr ORDER BY id`], [{ id: 1, tags: ['a', 'b c', null], n: [1, 2] }, { id: 2, tags: [], n: null }]);
    assert.deepEqual([...await sql`SELECT id FROM pjs_arr WHERE tags @> ${['b c']} ORDER BY id`], [{ id: 1 }]);
    await sql`UPDATE pjs_arr SET n = ${[7]} WHERE id = 2`;
    assert.deepEqual([...await sql`SELECT n FROM pjs_arr WHERE id = 2`], [{ n: [7] }]);
    await sql`DROP TABLE pjs_arr`;
  } finally {
    await sql.end();
  }
}

const PY = String.raw`
import json, sys, psycopg
from decimal import Decimal
dsn = sys.argv[1]
out = {}
with psycopg.connect(dsn, autocommit=True) as c:
    c.execute("CREATE TABLE py_arrcol (id int PRIMARY KEY, tags text[], n int[], m numeric(5,2)[])")
    c.execute("INSERT INTO py_arrcol VALUES (%s, %s, %s, %s)", (1, ["a", "b,c", None], [1, None, 3], [Decimal("1.005")]))
    c.execute("INSERT INTO py_arrcol VALUES (%b, %b, %b, %b)", (2, ["x y"], [], None))
    c.execute("INSERT INTO py_arrcol VALUES (%t, %t, %t, %t)", (3, [], [7], [Decimal("2")]))
    out["text"] = [[i, t, n, None if m is None else [str(x) for x in m]] for i, t, n, m in c.execute("SELECT * FROM py_arrcol ORDER BY id").fetchall()]
    cur = c.cursor(binary=True)
    cur.execute("SELECT id, tags, n FROM py_arrcol WHERE tags && %b ORDER BY id", (["b,c", "x y"],))
    out["types"] = [d.type_code for d in cur.description]
    out["binary"] = cur.fetchall()
    with cur.copy("COPY py_arrcol (id, tags, n) FROM STDIN (FORMAT BINARY)") as cp:
        cp.set_types(["int4", "text[]", "int4[]"])
        cp.write_row((4, ["p", None], [4, 5]))
        cp.write_row((5, None, []))
    with cur.copy("COPY py_arrcol (id, tags, n) FROM STDIN") as cp:
        cp.write_row((6, ["q\tr", "s"], [6]))
    rows = []
    with cur.copy("COPY (SELECT id, tags, n FROM py_arrcol WHERE id >= 4 ORDER BY id) TO STDOUT (FORMAT BINARY)") as cp:
        cp.set_types(["int4", "text[]", "int4[]"])
        for row in cp.rows():
            rows.append(list(row))
    out["copy_binary"] = rows
    with cur.copy("COPY (SELECT tags, n FROM py_arrcol WHERE id = 6) TO STDOUT") as cp:
        out["copy_text"] = b"".join(bytes(b) for b in cp).decode()
    try:
        with cur.copy("COPY py_arrcol (id, n) FROM STDIN (FORMAT BINARY)") as cp:
            cp.set_types(["int4", "text[]"])
            cp.write_row((7, ["x"]))
    except psycopg.Error as e:
        out["copy_error"] = e.sqlstate
    c.execute("DROP TABLE py_arrcol")
print(json.dumps(out))
`;

const PSYCOPG_EXPECTED = {
  text: [[1, ['a', 'b,c', null], [1, null, 3], ['1.01']], [2, ['x y'], [], null], [3, [], [7], ['2.00']]],
  types: [23, 1009, 1007],
  binary: [[1, ['a', 'b,c', null], [1, null, 3]], [2, ['x y'], []]],
  copy_binary: [[4, ['p', null], [4, 5]], [5, null, []], [6, ['q\tr', 's'], [6]]],
  copy_text: '{"q\\tr",s}\t{6}\n',
  copy_error: '42804',
};

/** psycopg 3: lists into array columns as text and binary parameters, binary results and binary COPY. */
async function psycopgChecks(port: number): Promise<void> {
  const dsn = `host=127.0.0.1 port=${port} user=${USER} password=${PASSWORD} dbname=${DATABASE}`;
  const r = await runClient(PYTHON, ['-c', PY, dsn]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), PSYCOPG_EXPECTED);
}

const noPsycopg = await runClient(PYTHON, ['-c', 'import psycopg']).then((r) => (r.code === 0 ? false : `${PYTHON} cannot import psycopg (apt-get install python3-psycopg)`));

void describe('array columns through the gateway over the engine', () => {
  let gw: Gateway | undefined;
  before(async () => {
    gw = await startTestGateway();
  });
  after(async () => {
    await gw?.close();
  });

  void it('answers psql (\\d, catalogs, COPY text, CSV and binary) as PostgreSQL 15 does', () => psqlMatchesPostgres(gw!.port));
  void it('takes node pg arrays into array columns and returns them parsed', () => withPg(gw!.port, pgDriverChecks));
  void it('takes postgres.js typed arrays into array columns', () => postgresJsChecks(gw!.port));
  void it('takes psycopg lists in text and binary, and binary COPY in and out', { skip: noPsycopg }, () => psycopgChecks(gw!.port));
});

void describe('array columns through the gateway over a cluster of six replicas', () => {
  const { port } = clusterGatewayForSuite('gw-array-columns', BASE_PORT);

  void it('answers psql (\\d, catalogs, COPY text, CSV and binary) as PostgreSQL 15 does', () => psqlMatchesPostgres(port()));
  void it('takes node pg arrays into array columns and returns them parsed', () => withPg(port(), pgDriverChecks));
  void it('takes postgres.js typed arrays into array columns', () => postgresJsChecks(port()));
  void it('takes psycopg lists in text and binary, and binary COPY in and out', { skip: noPsycopg }, () => psycopgChecks(port()));
});
