/**
 * json and jsonb through the gateway with real clients, over the single-node engine and over a cluster
 * of six replica processes: node `pg` sending JavaScript objects and JSON text as untyped parameters
 * and reading documents back as the objects its parser makes of them; postgres.js sending parameters it
 * declares as json (OID 114); psycopg 3 sending Json and Jsonb in binary (jsonb's version byte, OIDs 114
 * and 3802) and text and reading them through text and binary cursors; psycopg2's Json adapter. On the
 * cluster the filters on documents (`doc ->> 'k' = $1`, `doc @> $1`) run at the replicas.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import postgres from 'postgres';
import { clusterGatewayForSuite, DATABASE, engineGatewayForSuite, PASSWORD, USER, withPg } from './gateway-fixture.ts';
import { PYTHON, runClient } from './client-scripts.ts';

const BASE_PORT = 8100;


async function pgDriver(port: number): Promise<void> {
  await withPg(port, async (c) => {
    await c.query('CREATE TABLE pg_json (id int PRIMARY KEY, doc jsonb, raw json)');
    // An object parameter goes as JSON.stringify's text with no declared type.
    await c.query('INSERT INTO pg_json VALUES ($1, $2, $3), ($4, $5, $6)', [
      1, { k: 'v', b: [1, 2], nested: { z: null } }, '{"x" :  1, "x": 2}',
      2, '{"k": "w", "n": 2.50, "k": "last"}', null,
    ]);
    await c.query("INSERT INTO pg_json VALUES (3, '[1, \"two\"]', '\"s\"')");
    const r = await c.query('SELECT id, doc, raw, doc::text AS t, doc ->> $1 AS k FROM pg_json ORDER BY id', ['k']);
    assert.deepEqual(r.fields.map((f) => f.dataTypeID), [23, 3802, 114, 25, 25]);
    assert.deepEqual(r.rows, [
      { id: 1, doc: { b: [1, 2], k: 'v', nested: { z: null } }, raw: { x: 2 }, t: '{"b": [1, 2], "k": "v", "nested": {"z": null}}', k: 'v' },
      { id: 2, doc: { k: 'last', n: 2.5 }, raw: null, t: '{"k": "last", "n": 2.50}', k: 'last' },
      { id: 3, doc: [1, 'two'], raw: 's', t: '[1, "two"]', k: null },
    ]);
    // json keeps its text; jsonb prints its normal form.
    assert.deepEqual((await c.query('SELECT raw::text AS r FROM pg_json WHERE id = 1')).rows, [{ r: '{"x" :  1, "x": 2}' }]);
    // Filters on documents with parameters, then a write through jsonb_set with a path parameter.
    assert.deepEqual((await c.query("SELECT id FROM pg_json WHERE doc ->> 'k' = $1", ['last'])).rows, [{ id: 2 }]);
    assert.deepEqual((await c.query('SELECT id FROM pg_json WHERE doc @> $1 ORDER BY id', [{ b: [2] }])).rows, [{ id: 1 }]);
    assert.deepEqual((await c.query('SELECT id FROM pg_json WHERE doc ? $1 OR doc @> $2::jsonb ORDER BY id', ['n', '["two"]'])).rows, [{ id: 2 }, { id: 3 }]);
    const upd = await c.query('UPDATE pg_json SET doc = jsonb_set(doc, $1, $2) WHERE id = $3 RETURNING doc', [['nested', 'z'], JSON.stringify({ deep: true }), 1]);
    assert.deepEqual(upd.rows, [{ doc: { b: [1, 2], k: 'v', nested: { z: { deep: true } } } }]);
    const agg = await c.query('SELECT jsonb_agg(doc -> $1 ORDER BY id) AS a, json_build_object($2::text, count(*)) AS o FROM pg_json', ['k', 'n']);
    assert.deepEqual(agg.rows, [{ a: ['v', 'last', null], o: { n: 3 } }]);
    // Errors keep PostgreSQL's SQLSTATE, message and detail.
    await assert.rejects(c.query('INSERT INTO pg_json VALUES ($1, $2)', [4, '{"a": tru}']),
      { code: '22P02', message: 'invalid input syntax for type json', detail: 'Token "tru" is invalid.' });
    await assert.rejects(c.query('SELECT raw = raw FROM pg_json'), { code: '42883', message: 'operator does not exist: json = json' });
    await assert.rejects(c.query('CREATE TABLE pg_json2 (doc jsonb PRIMARY KEY)'), { code: '0A000' });
  });
}

/** postgres.js declares sql.json() parameters as json (OID 114). */
async function postgresJs(port: number): Promise<void> {
  const sql = postgres({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: DATABASE, max: 1, onnotice: () => undefined });
  try {
    await sql`CREATE TABLE pgjs_json (id int PRIMARY KEY, doc jsonb)`;
    await sql`INSERT INTO pgjs_json VALUES (1, ${sql.json({ tags: ['a', 'b'], n: 1 })}), (2, ${sql.json([1, { x: 'y' }])})`;
    const rows = await sql`SELECT id, doc, doc -> 'tags' AS tags FROM pgjs_json WHERE doc @> ${sql.json({ n: 1 })}::jsonb`;
    assert.deepEqual([...rows], [{ id: 1, doc: { n: 1, tags: ['a', 'b'] }, tags: ['a', 'b'] }]);
    const text = await sql`SELECT id FROM pgjs_json WHERE doc ->> 1 IS NOT NULL OR doc -> 'tags' ->> 0 = ${'a'} ORDER BY id`;
    assert.deepEqual([...text], [{ id: 1 }, { id: 2 }]);
    const built = await sql`SELECT ${sql.json({ q: 1 })}::json AS j, to_jsonb(${'s'}::text) AS s`;
    assert.deepEqual([...built], [{ j: { q: 1 }, s: 's' }]);
  } finally {
    await sql.end();
  }
}

const PSYCOPG3 = String.raw`
import json, sys, psycopg
from psycopg.types.json import Json, Jsonb
port, user, password, db = sys.argv[1:5]
dsn = f"host=127.0.0.1 port={port} user={user} password={password} dbname={db}"
out = {}
with psycopg.connect(dsn, autocommit=True) as c:
    c.execute("CREATE TABLE py_json (id int PRIMARY KEY, doc jsonb, raw json)")
    c.execute("INSERT INTO py_json VALUES (%b, %b, %b)", (1, Jsonb({"b": 1, "a": [True, None]}), Json({"z": "é"})))
    c.execute("INSERT INTO py_json VALUES (%t, %t, %t)", (2, Jsonb([1, 2.5]), Json("text")))
    c.execute("INSERT INTO py_json VALUES (%s, %s, %s)", (3, '{"k": "v"}', '[ 1 ]'))
    cur = c.execute("SELECT id, doc, raw FROM py_json ORDER BY id")
    out["types"] = [d.type_code for d in cur.description]
    out["text"] = cur.fetchall()
    cur = c.cursor(binary=True)
    cur.execute("SELECT id, doc, raw, doc::text FROM py_json WHERE doc @> %b OR doc ->> 'k' = %b ORDER BY id", (Jsonb({"a": [True]}), "v"))
    out["binary"] = cur.fetchall()
    try:
        c.execute("SELECT %s::jsonb", ("[1,",))
    except psycopg.Error as e:
        out["error"] = [e.sqlstate, e.diag.message_primary, e.diag.message_detail]
print(json.dumps(out))
`;

async function psycopg3(port: number): Promise<void> {
  const r = await runClient(PYTHON, ['-c', PSYCOPG3, String(port), USER, PASSWORD, DATABASE]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    types: [23, 3802, 114],
    text: [[1, { a: [true, null], b: 1 }, { z: 'é' }], [2, [1, 2.5], 'text'], [3, { k: 'v' }, [1]]],
    binary: [[1, { a: [true, null], b: 1 }, { z: 'é' }, '{"a": [true, null], "b": 1}'], [3, { k: 'v' }, [1], '{"k": "v"}']],
    error: ['22P02', 'invalid input syntax for type json', 'The input string ended unexpectedly.'],
  });
}

const PSYCOPG2 = String.raw`
import json, sys, psycopg2
from psycopg2.extras import Json
port, user, password, db = sys.argv[1:5]
c = psycopg2.connect(host="127.0.0.1", port=port, user=user, password=password, dbname=db)
c.autocommit = True
cur = c.cursor()
cur.execute("CREATE TABLE py2_json (id int PRIMARY KEY, doc jsonb)")
cur.execute("INSERT INTO py2_json VALUES (%s, %s), (%s, %s)", (1, Json({"n": 1, "s": "x'y"}), 2, Json([None])))
cur.execute("SELECT id, doc, doc -> 's' FROM py2_json WHERE doc @> %s OR jsonb_typeof(doc) = %s ORDER BY id", (Json({"n": 1}), "array"))
print(json.dumps(cur.fetchall()))
`;

async function psycopg2(port: number): Promise<void> {
  const r = await runClient(PYTHON, ['-c', PSYCOPG2, String(port), USER, PASSWORD, DATABASE]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), [[1, { n: 1, s: "x'y" }, "x'y"], [2, [null], null]]);
}

void describe('json and jsonb through the gateway over the engine', () => {
  const port = engineGatewayForSuite();
  void it('round-trips node pg objects and JSON text, filters on documents', () => pgDriver(port()));
  void it('round-trips postgres.js json parameters', () => postgresJs(port()));
  void it('round-trips psycopg 3 Json and Jsonb in binary and text', () => psycopg3(port()));
  void it('round-trips psycopg2 Json', () => psycopg2(port()));
});

void describe('json and jsonb through the gateway over a cluster of six replicas', () => {
  const { port } = clusterGatewayForSuite('gw-json', BASE_PORT);
  void it('round-trips node pg objects and JSON text, filters on documents', () => pgDriver(port()));
  void it('round-trips postgres.js json parameters', () => postgresJs(port()));
  void it('round-trips psycopg 3 Json and Jsonb in binary and text', () => psycopg3(port()));
  void it('round-trips psycopg2 Json', () => psycopg2(port()));
});
