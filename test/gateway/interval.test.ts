/**
 * interval through the gateway with real clients over the single-node engine and over a cluster of six
 * replica processes: psycopg 3 sending Python timedeltas as binary interval parameters (OID 1186) and as
 * text, reading them back through text and binary cursors (range reads with interval parameters, run by
 * the replicas on the cluster); node `pg` sending interval text and reading intervals as the objects its
 * parser makes of PostgreSQL's text output.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import type { Gateway } from '../../client/gateway/gateway-server.ts';
import { clusterGatewayForSuite, DATABASE, engineGatewayForSuite, PASSWORD, startTestGateway, USER } from './gateway-fixture.ts';
import { PYTHON, runClient } from './client-scripts.ts';

const BASE_PORT = 7740;


const PY = String.raw`
import json, sys, psycopg
from datetime import timedelta, datetime
port, user, password, db = sys.argv[1:5]
dsn = f"host=127.0.0.1 port={port} user={user} password={password} dbname={db}"
out = {}
td = lambda v: [v.days, v.seconds, v.microseconds]
with psycopg.connect(dsn, autocommit=True) as c:
    c.execute("CREATE TABLE py_iv (id int PRIMARY KEY, w interval)")
    c.execute("INSERT INTO py_iv VALUES (%b, %b), (%b, %b)", (1, timedelta(days=1, seconds=3723, microseconds=5), 2, timedelta(days=-3, hours=2)))
    c.execute("INSERT INTO py_iv VALUES (%t, %t)", (3, timedelta(minutes=90)))
    c.execute("INSERT INTO py_iv VALUES (%s, %s)", (4, "1 mon"))
    cur = c.execute("SELECT id, w FROM py_iv ORDER BY w")
    out["types"] = [d.type_code for d in cur.description]
    out["text"] = [[i, td(w)] for i, w in cur.fetchall()]
    cur = c.cursor(binary=True)
    cur.execute("SELECT id, w FROM py_iv WHERE w > %b ORDER BY id", (timedelta(hours=1),))
    out["binary"] = [[i, td(w)] for i, w in cur.fetchall()]
    row = c.execute("SELECT %b - %b, %b + %b", (datetime(2024, 3, 1), datetime(2024, 1, 30, 12), datetime(2024, 1, 31), timedelta(days=30))).fetchone()
    out["arith"] = [td(row[0]), row[1].isoformat()]
    try:
        c.execute("SELECT %s::interval", ("1 day 2 days",))
    except psycopg.Error as e:
        out["error"] = [e.sqlstate, str(e).splitlines()[0]]
print(json.dumps(out))
`;

async function psycopg(port: number): Promise<void> {
  const r = await runClient(PYTHON, ['-c', PY, String(port), USER, PASSWORD, DATABASE]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    types: [23, 1186],
    text: [[2, [-3, 7200, 0]], [3, [0, 5400, 0]], [1, [1, 3723, 5]], [4, [30, 0, 0]]],
    binary: [[1, [1, 3723, 5]], [3, [0, 5400, 0]], [4, [30, 0, 0]]],
    arith: [[30, 43200, 0], '2024-03-01T00:00:00'],
    error: ['22007', 'invalid input syntax for type interval: "1 day 2 days"'],
  });
}

async function pgDriver(port: number): Promise<void> {
  const c = new pg.Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: DATABASE });
  await c.connect();
  try {
    await c.query('CREATE TABLE pg_iv (id int PRIMARY KEY, w interval)');
    await c.query('INSERT INTO pg_iv VALUES ($1, $2), ($3, $4)', [1, '1 year 2 mons 3 days 04:05:06.789', 2, '-1 day +02:00']);
    const r = await c.query('SELECT id, w, w::text AS t FROM pg_iv WHERE w < $1::interval ORDER BY id', ['2 years']);
    assert.deepEqual(r.fields.map((f) => f.dataTypeID), [23, 1186, 25]);
    const rows = r.rows as { id: number; w: Record<string, number>; t: string }[];
    assert.deepEqual(rows.map((x) => [x.id, { ...x.w }, x.t]), [
      [1, { years: 1, months: 2, days: 3, hours: 4, minutes: 5, seconds: 6, milliseconds: 789 }, '1 year 2 mons 3 days 04:05:06.789'],
      [2, { days: -1, hours: 2 }, '-1 days +02:00:00'],
    ]);
    // The object's own text form goes back as a parameter and finds its row.
    const again = await c.query('SELECT id FROM pg_iv WHERE w = $1', [rows[0]!.w]);
    assert.deepEqual(again.rows, [{ id: 1 }]);
  } finally {
    await c.end();
  }
}

void describe('interval through the gateway over the engine', () => {
  const port = engineGatewayForSuite();
  void it('round-trips psycopg 3 timedeltas in binary and text', () => psycopg(port()));
  void it('round-trips node pg interval objects', () => pgDriver(port()));
});

void describe('interval through the gateway over a cluster of six replicas', () => {
  const { port } = clusterGatewayForSuite('gw-interval', BASE_PORT);
  void it('round-trips psycopg 3 timedeltas in binary and text', () => psycopg(port()));
  void it('round-trips node pg interval objects', () => pgDriver(port()));
});
