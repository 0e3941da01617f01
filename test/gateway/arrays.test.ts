/**
 * Array parameters and results through the gateway with real drivers, over the single-node engine and over
 * a cluster of six replica processes: node `pg` (JS arrays as text '{...}' parameters of type 0, and
 * `$1::int[]` results parsed back into arrays), postgres.js (typed array parameters, `= ANY(${[...]})`),
 * psycopg 3 (lists as typed array parameters in text and binary, %b, and binary cursors), and Describe
 * reporting int4[] (1007) for `id = ANY($1)`; array_agg read in text and binary. The expected values are what PostgreSQL 15 answers.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import postgres from 'postgres';
import type { Gateway } from '../../client/gateway/gateway-server.ts';
import { serialize } from 'pg-protocol';
import { clusterGatewayForSuite, DATABASE, dataRow, engineGatewayForSuite, errorFields, PASSWORD, RawClient, startTestGateway, types, USER, withPg } from './gateway-fixture.ts';
import { PYTHON, runClient } from './client-scripts.ts';

const BASE_PORT = 7680;

/** node `pg`: a JS array parameter is sent as text ('{"1","2"}') with type OID 0. */
async function pgDriver(port: number): Promise<void> {
  await withPg(port, async (c) => {
    await c.query('CREATE TABLE pg_arr (id int PRIMARY KEY, name text, k bigint)');
    await c.query("INSERT INTO pg_arr VALUES (1, 'one', 10), (2, 'two', 20), (3, 'a \"b\"', 30), (4, NULL, NULL)");
    const ids = await c.query('SELECT id FROM pg_arr WHERE id = ANY($1) ORDER BY id', [[1, 3, 9]]);
    assert.deepEqual(ids.rows, [{ id: 1 }, { id: 3 }]);
    const names = await c.query('SELECT id FROM pg_arr WHERE name = ANY($1) ORDER BY id', [['two', 'a "b"', null]]);
    assert.deepEqual(names.rows, [{ id: 2 }, { id: 3 }]);
    const none = await c.query('SELECT id FROM pg_arr WHERE k <> ALL($1) ORDER BY id', [[]]);
    // An empty array: true for ALL even where k is NULL.
    assert.deepEqual(none.rows, [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }]);
    const big = await c.query('SELECT id FROM pg_arr WHERE k < ANY($1) ORDER BY id', [['9007199254740993']]);
    assert.deepEqual(big.rows, [{ id: 1 }, { id: 2 }, { id: 3 }]);
    // Describe: the parameter is int4[], and array results come back typed and parsed by the driver.
    const arr = await c.query({ text: 'SELECT ARRAY[id, 7] AS a, $1::text[] AS t FROM pg_arr WHERE id = ANY($2)', values: [['x y', null], [2]] });
    assert.deepEqual(arr.fields.map((f) => f.dataTypeID), [1007, 1009]);
    assert.deepEqual(arr.rows, [{ a: [2, 7], t: ['x y', null] }]);
    await assert.rejects(c.query('SELECT id FROM pg_arr WHERE id = ANY($1)', [['x']]), { code: '22P02', message: 'invalid input syntax for type integer: "x"' });
    await assert.rejects(c.query('SELECT id FROM pg_arr WHERE id = ANY($1)', ['1,2']), { code: '22P02', message: 'malformed array literal: "1,2"' });
    // Writes whose WHERE is an ANY over a parameter (a reconnaissance read on the cluster).
    const upd = await c.query('UPDATE pg_arr SET k = k + 1 WHERE id = ANY($1) RETURNING id, k', [[2, 3]]);
    assert.deepEqual(upd.rows.sort((a: { id: number }, b: { id: number }) => a.id - b.id), [{ id: 2, k: '21' }, { id: 3, k: '31' }]);
    const del = await c.query('DELETE FROM pg_arr WHERE name <> ALL($1)', [['one', 'two']]);
    assert.equal(del.rowCount, 1);
    assert.deepEqual((await c.query('SELECT array_agg(id ORDER BY id) AS ids FROM pg_arr')).rows, [{ ids: [1, 2, 4] }]);
  });
}

/** postgres.js: arrays are sent as typed array parameters. */
async function postgresJs(port: number): Promise<void> {
  const sql = postgres({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: DATABASE, max: 1, onnotice: () => undefined });
  try {
    await sql`CREATE TABLE pgjs_arr (id int PRIMARY KEY, name text)`;
    await sql`INSERT INTO pgjs_arr VALUES (1, 'one'), (2, 'two'), (3, 'three')`;
    const ids = await sql`SELECT id FROM pgjs_arr WHERE id = ANY(${[1, 3]}) ORDER BY id`;
    assert.deepEqual([...ids], [{ id: 1 }, { id: 3 }]);
    const names = await sql`SELECT id FROM pgjs_arr WHERE name = ANY(${['two', 'three']}) ORDER BY id`;
    assert.deepEqual([...names], [{ id: 2 }, { id: 3 }]);
    const out = await sql`SELECT ARRAY[id, NULL] AS a, ${['p', 'q r']}::text[] AS t FROM pgjs_arr WHERE id = 1`;
    assert.deepEqual([...out], [{ a: [1, null], t: ['p', 'q r'] }]);
  } finally {
    await sql.end();
  }
}

const PY = String.raw`
import json, sys, psycopg
port, user, password, db = sys.argv[1:5]
dsn = f"host=127.0.0.1 port={port} user={user} password={password} dbname={db}"
out = {}
with psycopg.connect(dsn, autocommit=True) as c:
    c.execute("CREATE TABLE py_arr (id int PRIMARY KEY, name text, d date)")
    c.execute("INSERT INTO py_arr VALUES (1, 'one', '2024-01-01'), (2, 'two', NULL), (3, 'x,y', '2024-01-03')")
    out["text"] = c.execute("SELECT id FROM py_arr WHERE id = ANY(%t) ORDER BY id", ([1, 3],)).fetchall()
    out["binary"] = c.execute("SELECT id FROM py_arr WHERE id = ANY(%b) ORDER BY id", ([2, 3, None],)).fetchall()
    out["auto"] = c.execute("SELECT id FROM py_arr WHERE name = ANY(%s) ORDER BY id", (["x,y", "one"],)).fetchall()
    out["all"] = c.execute("SELECT id FROM py_arr WHERE id > ALL(%b) ORDER BY id", ([1, 2],)).fetchall()
    out["empty"] = c.execute("SELECT count(*) FROM py_arr WHERE id = ANY(%b)", ([],)).fetchall()
    cur = c.cursor(binary=True)
    cur.execute("SELECT ARRAY[id, NULL], %b::text[], array_length(%b::int[], 1) FROM py_arr WHERE id = ANY(%b) ORDER BY id", (["a b", None], [5, 6, 7], [1, 3]))
    out["types"] = [d.type_code for d in cur.description]
    out["binary_rows"] = cur.fetchall()
    cur.execute("SELECT array_agg(name ORDER BY id DESC), array_agg(d ORDER BY id) FROM py_arr")
    out["agg_binary"] = [[a, [None if x is None else x.isoformat() for x in d]] for a, d in cur.fetchall()]
    out["agg_text"] = c.execute("SELECT array_agg(id ORDER BY id DESC)::text, array_agg(name) FROM py_arr WHERE id > %s", (1,)).fetchall()
    try:
        c.execute("SELECT id FROM py_arr WHERE id = ANY(%t)", (["x"],))
    except psycopg.Error as e:
        out["error"] = e.sqlstate
print(json.dumps(out))
`;

/** psycopg 3: lists as array parameters in text (%t) and binary (%b), and a binary cursor. */
async function psycopg(port: number): Promise<void> {
  const r = await runClient(PYTHON, ['-c', PY, String(port), USER, PASSWORD, DATABASE]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    text: [[1], [3]],
    binary: [[2], [3]],
    auto: [[1], [3]],
    all: [[3]],
    empty: [[0]],
    types: [1007, 1009, 23],
    binary_rows: [[[1, null], ['a b', null], 3], [[3, null], ['a b', null], 3]],
    agg_binary: [[['x,y', 'two', 'one'], ['2024-01-01', null, '2024-01-03']]],
    agg_text: [['{3,2}', ['two', 'x,y']]],
    error: '22P02',
  });
}

void describe('array parameters and results through the gateway over the engine', () => {
  const port = engineGatewayForSuite();

  void it('takes node pg arrays (text, type 0) for ANY/ALL and returns typed arrays', () => pgDriver(port()));
  void it('takes postgres.js typed arrays', () => postgresJs(port()));
  void it('takes psycopg 3 lists in text and binary, and returns binary arrays', () => psycopg(port()));
});

/** An int4[] in array_send's form: ndim 1, flags, element OID, length, lower bound, elements. */
function int4Array(values: readonly (number | null)[], over: { elemOid?: number; lbound?: number; len?: number } = {}): Buffer {
  const parts = [Buffer.alloc(20)];
  parts[0]!.writeInt32BE(1, 0);
  parts[0]!.writeInt32BE(values.includes(null) ? 1 : 0, 4);
  parts[0]!.writeInt32BE(over.elemOid ?? 23, 8);
  parts[0]!.writeInt32BE(over.len ?? values.length, 12);
  parts[0]!.writeInt32BE(over.lbound ?? 1, 16);
  for (const v of values) {
    const b = Buffer.alloc(v === null ? 4 : 8);
    b.writeInt32BE(v === null ? -1 : 4, 0);
    if (v !== null) b.writeInt32BE(v, 4);
    parts.push(b);
  }
  return Buffer.concat(parts);
}

void describe('binary array parameters through the raw protocol', () => {
  void it('decodes well-formed ones and answers malformed ones with PostgreSQL\'s SQLSTATEs, the session staying usable', async () => {
    const gw = await startTestGateway({ users: 'trust' });
    const c = await RawClient.connect(gw.port);
    const run = async (param: Buffer): Promise<{ code: string | undefined; cells: (Buffer | null)[] | undefined }> => {
      c.send(
        serialize.parse({ text: 'SELECT $1::int[]::text, 7 = ANY($1)', types: [1007] }),
        serialize.bind({ values: [param] }),
        serialize.execute(),
        serialize.sync(),
      );
      const ms = await c.untilReady();
      const err = ms.find((m) => m.type === 'E');
      const row = ms.find((m) => m.type === 'D');
      return { code: err === undefined ? undefined : errorFields(err.body)['C'], cells: row === undefined ? undefined : dataRow(row.body) };
    };
    try {
      const ok = await run(int4Array([7, null, 9]));
      assert.deepEqual(ok.cells?.map((b) => b?.toString()), ['{7,NULL,9}', 't']);
      assert.equal((await run(int4Array([1], { elemOid: 20 }))).code, '42804');
      assert.equal((await run(int4Array([1], { len: 1000 }))).code, '08P01');
      assert.equal((await run(int4Array([1], { len: 200_000_000 }))).code, '54000');
      // PostgreSQL takes any lower bound; the engine's arrays start at 1, or at 0 (a vector's, sql/sql-array.ts).
      assert.deepEqual((await run(int4Array([1], { lbound: 0 }))).cells?.map((b) => b?.toString()), ['[0:0]={1}', 'f']);
      assert.equal((await run(int4Array([1], { lbound: 2 }))).code, '0A000');
      assert.equal((await run(int4Array([1]).subarray(0, 22))).code, '08P01');
      // An element's length past the end is array_recv's own 22P03.
      assert.equal((await run(Buffer.concat([int4Array([1]).subarray(0, 20), Buffer.from([0, 0, 0, 9, 0])]))).code, '22P03');
      assert.equal((await run(Buffer.concat([int4Array([1]), Buffer.from([0])]))).code, '22P03');
      assert.equal(types(await (async () => {
        c.send(serialize.query('SELECT 1'));
        return c.untilReady();
      })()), 'TDCZ');
    } finally {
      c.end();
      await gw.close();
    }
  });
});

void describe('array parameters and results through the gateway over a cluster of six replicas', () => {
  const { port } = clusterGatewayForSuite('gw-arrays', BASE_PORT);

  void it('takes node pg arrays (text, type 0) for ANY/ALL and returns typed arrays', () => pgDriver(port()));
  void it('takes postgres.js typed arrays', () => postgresJs(port()));
  void it('takes psycopg 3 lists in text and binary, and returns binary arrays', () => psycopg(port()));
});
