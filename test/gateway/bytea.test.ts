/**
 * bytea through the gateway with real clients, over the single-node engine and over a cluster of six
 * replica processes: node `pg` sending Buffers (binary parameters) and reading them back in the text and
 * binary result formats; psycopg 3 sending bytes (binary parameters of type 17, and in text with %t),
 * with text and binary cursors, also where only the parameter's type says it is bytea (`SELECT %s`,
 * `length(%s)` over a scan the replicas run); psycopg2's Binary() (an escaped literal); psql's \copy to
 * and from stdout in text and CSV, compared with what PostgreSQL 15 prints; every byte value through the
 * raw protocol in binary both ways; bytea_output.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type pg from 'pg';
import { serialize } from 'pg-protocol';
import type { Gateway } from '../../client/gateway/gateway-server.ts';
import { clusterGatewayForSuite, DATABASE, dataRow, engineGatewayForSuite, PASSWORD, RawClient, rowDescription, startTestGateway, types, USER, withPg } from './gateway-fixture.ts';
import { PYTHON, runClient } from './client-scripts.ts';

const BASE_PORT = 7660;
const BIN = '/usr/lib/postgresql/15/bin';

/** Every byte value, and a few short values with the bytes text forms treat specially. */
const ALL = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const SHORT = [Buffer.alloc(0), Buffer.from([0]), Buffer.from('\\x', 'latin1'), Buffer.from([0xff, 0x00, 0x5c, 0x27])];


/** node `pg`: Buffers go as binary parameters; bytea comes back as Buffers (text) or raw (binary). */
async function pgDriver(port: number): Promise<void> {
  await withPg(port, async (c) => {
    await c.query('CREATE TABLE pg_bytea (k bytea PRIMARY KEY, n int)');
    const values = [ALL, ...SHORT];
    for (const [i, b] of values.entries()) await c.query('INSERT INTO pg_bytea VALUES ($1, $2)', [b, i]);
    await c.query('INSERT INTO pg_bytea VALUES ($1, $2)', [new Uint8Array([7, 8]), 99]);
    const text = await c.query('SELECT k, n FROM pg_bytea ORDER BY k');
    assert.deepEqual(text.fields.map((f) => [f.dataTypeID, f.format]), [[17, 'text'], [23, 'text']]);
    const sorted = [...values, Buffer.from([7, 8])].sort(Buffer.compare);
    assert.deepEqual(text.rows.map((r: { k: Buffer }) => r.k.toString('hex')), sorted.map((b) => b.toString('hex')));
    // A range read with a bytea parameter, and the value back in the binary result format (node `pg`
    // hands binary bytea over as a UTF-8 string: compared for bytes that are valid UTF-8).
    const range = await c.query('SELECT n FROM pg_bytea WHERE k > $1 AND k < $2 ORDER BY k', [Buffer.from([0]), Buffer.from([0xff])]);
    assert.deepEqual(range.rows, [{ n: 0 }, { n: 99 }, { n: 3 }]);
    // `binary` asks for every result column in binary (node pg has it, its types do not).
    const binary: pg.QueryConfig = { text: 'SELECT k, k || $2 AS k2, n FROM pg_bytea WHERE k = $1', values: [Buffer.from('\\x', 'latin1'), Buffer.from([0])] };
    const bin = await c.query({ ...binary, binary: true } as pg.QueryConfig);
    assert.deepEqual(bin.fields.map((f) => [f.dataTypeID, f.format]), [[17, 'binary'], [17, 'binary'], [23, 'binary']]);
    assert.deepEqual(bin.rows, [{ k: '\\x', k2: '\\x\u0000', n: 3 }]);
    // Text parameters: the hex and escape input formats, and PostgreSQL's errors for bad ones.
    const t = await c.query('SELECT $1::bytea AS a, $2::bytea AS b', ['\\xDEAD', 'a\\000\\\\']);
    assert.deepEqual(t.rows.map((r: { a: Buffer; b: Buffer }) => [r.a.toString('hex'), r.b.toString('hex')]), [['dead', '61005c']]);
    await assert.rejects(c.query('SELECT $1::bytea', ['\\x0']), { code: '22023', message: 'invalid hexadecimal data: odd number of digits' });
    await assert.rejects(c.query('SELECT $1::bytea', ['\\q']), { code: '22P02', message: 'invalid input syntax for type bytea' });
  });
}

const PY = String.raw`
import json, sys, psycopg, psycopg2
port, user, password, db = sys.argv[1:5]
dsn = f"host=127.0.0.1 port={port} user={user} password={password} dbname={db}"
data = bytes(range(256))
out = {}
with psycopg.connect(dsn, autocommit=True) as c:
    c.execute("CREATE TABLE py_bytea (id int PRIMARY KEY, b bytea)")
    c.execute("INSERT INTO py_bytea VALUES (%s, %s), (%s, %s)", (1, data, 2, b""))
    c.execute("INSERT INTO py_bytea VALUES (%t, %t)", (3, b"\x00\\x"))
    cur = c.execute("SELECT id, b FROM py_bytea ORDER BY id")
    out["types"] = [d.type_code for d in cur.description]
    out["text"] = [[i, b.hex()] for i, b in cur.fetchall()]
    cur = c.cursor(binary=True)
    cur.execute("SELECT id, b FROM py_bytea WHERE b = %b OR id = 3 ORDER BY id", (data,))
    out["binary"] = [[i, bytes(b).hex()[:8], len(b)] for i, b in cur.fetchall()]
    row = c.execute("SELECT %s, length(%s), %s || b FROM py_bytea WHERE id > 1 ORDER BY id", (b"\xff\x00", b"\x01\x02", b"\xaa")).fetchall()
    out["untyped"] = [[a.hex(), n, b.hex()] for a, n, b in row]
    cur = c.cursor(binary=True)
    cur.execute("SELECT %s, id FROM py_bytea ORDER BY id", (b"\x5c\x00",))
    out["untyped_binary"] = [[bytes(a).hex(), i] for a, i in cur.fetchall()]
with psycopg2.connect(dsn) as c2:
    cur = c2.cursor()
    cur.execute("INSERT INTO py_bytea VALUES (%s, %s)", (4, psycopg2.Binary(b"\x00\xff'\\")))
    cur.execute("SELECT b FROM py_bytea WHERE id = 4")
    out["psycopg2"] = bytes(cur.fetchone()[0]).hex()
print(json.dumps(out))
`;

/** psycopg 3 (binary and text bytea parameters, text and binary cursors) and psycopg2's Binary(). */
async function psycopg(port: number): Promise<void> {
  const r = await runClient(PYTHON, ['-c', PY, String(port), USER, PASSWORD, DATABASE]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    types: [23, 17],
    text: [[1, ALL.toString('hex')], [2, ''], [3, '005c78']],
    binary: [[1, '00010203', 256], [3, '005c78', 3]],
    untyped: [['ff00', 2, 'aa'], ['ff00', 2, 'aa005c78']],
    untyped_binary: [['5c00', 1], ['5c00', 2], ['5c00', 3]],
    psycopg2: '00ff275c',
  });
}

const COPY_SCRIPT = String.raw`CREATE TABLE cb (id int PRIMARY KEY, b bytea);
INSERT INTO cb VALUES (1, '\x000102'), (2, '\x'), (3, NULL), (4, 'a,b"c\\'), (5, '\x5c78');
\copy cb to stdout
\copy cb to stdout with (format csv)
\copy (select id, b, b || '\x09' from cb where id < 3 order by id) to stdout with (format text, header)
\copy cb from stdin
6	\\x0aff
7	\\x
8	\N
9	abc\\\\000
10	\\x41 42
\.
\copy cb from stdin with (format csv)
11,\x4142
12,
13,""
14,"\x7c2c7c"
15,\\101
\.
SELECT id, b FROM cb ORDER BY id;
`;

/** What psql prints for COPY_SCRIPT against PostgreSQL 15 (-At): COPY doubles the backslash of \x in text. */
const COPY_EXPECTED = String.raw`1	\\x000102
2	\\x
3	\N
4	\\x612c6222635c
5	\\x5c78
1,\x000102
2,\x
3,
4,\x612c6222635c
5,\x5c78
id	b	?column?
1	\\x000102	\\x00010209
2	\\x	\\x09
1|\x000102
2|\x
3|
4|\x612c6222635c
5|\x5c78
6|\x0aff
7|\x
8|
9|\x6162635c303030
10|\x4142
11|\x4142
12|
13|\x
14|\x7c2c7c
15|\x5c313031
`;

async function psqlCopy(port: number): Promise<void> {
  const r = await runClient(join(BIN, 'psql'), ['-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', '-h', '127.0.0.1', '-p', String(port), '-U', USER, '-d', DATABASE], COPY_SCRIPT);
  assert.equal(r.stderr, '');
  assert.equal(r.stdout, COPY_EXPECTED);
  // A malformed bytea field fails the COPY with PostgreSQL's error, and nothing of it stays.
  const bad = await runClient(join(BIN, 'psql'), ['-X', '-q', '-At', '-h', '127.0.0.1', '-p', String(port), '-U', USER, '-d', DATABASE], '\\copy cb from stdin\n20\t\\\\x0\n\\.\nSELECT count(*) FROM cb;\n');
  assert.match(bad.stderr, /ERROR: {2}invalid hexadecimal data: odd number of digits/);
  assert.equal(bad.stdout, '15\n');
}

void describe('bytea through the gateway over the engine', () => {
  const port = engineGatewayForSuite();

  void it('takes Buffers from node pg and gives them back in text and binary', () => pgDriver(port()));
  void it('takes bytes from psycopg 3 (binary, type 17) and psycopg2', () => psycopg(port()));
  void it('copies bytea to and from psql as PostgreSQL 15 does', () => psqlCopy(port()));

  void it('sends and takes every byte value in binary format through the raw protocol', async () => {
    const trusting = await startTestGateway({ users: 'trust' });
    const c = await RawClient.connect(trusting.port);
    try {
      c.send(
        serialize.parse({ text: 'SELECT $1::bytea AS b, length($1) AS n, $1::text AS t', types: [17] }),
        serialize.bind({ values: [ALL], binary: true }),
        serialize.describe({ type: 'P' }),
        serialize.execute(),
        serialize.sync(),
      );
      const ms = await c.untilReady();
      assert.equal(types(ms), '12TDCZ');
      assert.deepEqual(rowDescription(ms[2]!.body).map((f) => [f.typeOid, f.format]), [[17, 1], [23, 1], [25, 1]]);
      const cells = dataRow(ms[3]!.body);
      assert.deepEqual(cells[0], ALL);
      assert.equal(cells[1]!.readInt32BE(0), 256);
      assert.equal(cells[2]!.toString(), `\\x${ALL.toString('hex')}`);
    } finally {
      c.end();
      await trusting.close();
    }
  });

  void it('keeps bytea_output hex: escape is refused (0A000), unknown values are 22023', async () => {
    await withPg(port(), async (c) => {
      await c.query("SET bytea_output = 'HEX'");
      assert.deepEqual((await c.query('SHOW bytea_output')).rows, [{ bytea_output: 'hex' }]);
      await assert.rejects(c.query('SET bytea_output = escape'), { code: '0A000' });
      await assert.rejects(c.query('SET bytea_output = foo'), { code: '22023', message: 'invalid value for parameter "bytea_output": "foo"' });
      const raw = await c.query({ text: "SELECT '\\x00ff'::bytea AS b", rowMode: 'array', types: { getTypeParser: () => (v: string) => v } });
      assert.deepEqual(raw.rows, [['\\x00ff']]);
    });
  });
});

void describe('bytea through the gateway over a cluster of six replicas', () => {
  const { port } = clusterGatewayForSuite('gw-bytea', BASE_PORT);

  void it('takes Buffers from node pg and gives them back in text and binary', () => pgDriver(port()));
  void it('takes bytes from psycopg 3 (binary, type 17) and psycopg2', () => psycopg(port()));
  void it('copies bytea to and from psql as PostgreSQL 15 does', () => psqlCopy(port()));
});
