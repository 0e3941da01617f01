/**
 * Temporary tables through the gateway (sql/temp-tables.ts), over the single-node engine and over a
 * six-replica cluster: each connection has its own, psql's \dt lists only its own, and a connection that
 * ends drops them.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../sql/engine.ts';
import { isTempName } from '../../sql/temp-tables.ts';
import { EngineBackend } from '../../client/gateway/engine-backend.ts';
import { startGateway, type Gateway } from '../../client/gateway/gateway-server.ts';
import { dropLeftTemp } from '../../client/sql/temp-session.ts';
import { clusterGatewayForSuite, DATABASE, PASSWORD, queryFailure, runPsql, USER } from './gateway-fixture.ts';

const BASE_PORT = 9700;

async function connect(port: number): Promise<pg.Client> {
  const c = new pg.Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: DATABASE });
  await c.connect();
  return c;
}

/** Waits (up to 10 s) until `leaked` reports no temporary table left in the catalog: a session is closed after its connection ends. */
async function noneLeft(leaked: () => Promise<number>): Promise<number> {
  let n = await leaked();
  for (let i = 0; i < 100 && n > 0; i++) {
    await new Promise((r) => setTimeout(r, 100));
    n = await leaked();
  }
  return n;
}

const values = async (c: pg.Client, sql: string): Promise<unknown[]> => (await c.query(sql)).rows.map((r: Record<string, unknown>) => Object.values(r)[0]);

/** The checks both suites run: `leaked` counts the internal tables left in the catalog. */
function suite(port: () => number, leaked: () => Promise<number>): void {
  void it('two connections each have their own temporary table of one name and see only its rows', async () => {
    const a = await connect(port());
    const b = await connect(port());
    try {
      await a.query('CREATE TEMP TABLE scratch (id int PRIMARY KEY, v text)');
      await b.query('CREATE TEMP TABLE scratch (id int PRIMARY KEY, v text)');
      await a.query("INSERT INTO scratch VALUES (1, 'a'), (2, 'a')");
      await b.query("INSERT INTO scratch VALUES (3, 'b')");
      assert.deepEqual(await values(a, 'SELECT id FROM scratch ORDER BY id'), [1, 2]);
      assert.deepEqual(await values(b, 'SELECT id FROM scratch ORDER BY id'), [3]);
      await b.query("UPDATE scratch SET v = 'c' WHERE id = 3");
      assert.deepEqual(await values(a, 'SELECT v FROM scratch ORDER BY id'), ['a', 'a']);
      assert.deepEqual(await values(b, 'SELECT v FROM pg_temp.scratch'), ['c']);
      const dup = await queryFailure(a, "INSERT INTO scratch VALUES (1, 'x')");
      assert.equal(dup.code, '23505');
      assert.equal(dup.message, 'duplicate key value violates unique constraint "scratch_pkey"');
      // Through pg_class and information_schema, each sees its own only, under its name, as temporary.
      assert.deepEqual((await a.query("SELECT relname, relpersistence FROM pg_class WHERE relname = 'scratch'")).rows, [{ relname: 'scratch', relpersistence: 't' }]);
      assert.deepEqual(await values(a, "SELECT count(*)::int FROM information_schema.tables WHERE table_name LIKE '%scratch%'"), [1]);
    } finally {
      await a.end();
      await b.end();
    }
    assert.equal(await noneLeft(leaked), 0);
  });

  void it('psql \\dt and COPY see the connection\'s own temporary table; a new connection can create it again', async () => {
    const a = await connect(port());
    try {
      await a.query('CREATE TEMP TABLE only_a (x int)');
      const other = await runPsql(port(), USER, '-c', '\\dt');
      assert.doesNotMatch(other.stdout, /only_a/);
      const data = join(await mkdtemp(join(tmpdir(), 'pesto-temp-')), 'rows.txt');
      await writeFile(data, '8\n9\n');
      const own = await runPsql(port(), USER, '-c', 'CREATE TEMP TABLE only_psql (x int)', '-c', 'INSERT INTO only_psql VALUES (7)', '-c', `\\copy only_psql from '${data}'`,
        '-c', 'COPY only_psql TO STDOUT', '-c', '\\dt');
      assert.equal(own.code, 0, own.stderr);
      assert.match(own.stdout, /only_psql/);
      assert.match(own.stdout, /^7\n8\n9$/m);
      assert.doesNotMatch(own.stdout, /only_a/);
      await a.query('INSERT INTO only_a VALUES (1)');
    } finally {
      await a.end();
    }
    assert.equal(await noneLeft(leaked), 0);
    const again = await connect(port());
    try {
      await again.query('CREATE TEMP TABLE only_a (x int)');
      assert.deepEqual(await values(again, 'SELECT count(*)::int FROM only_a'), [0]);
    } finally {
      await again.end();
    }
  });

  void it('a temporary table shadows a permanent one for its connection; SELECT INTO TEMP and ON COMMIT DROP make them', async () => {
    const a = await connect(port());
    const b = await connect(port());
    try {
      await a.query('CREATE TABLE shadowed (x int)');
      await a.query('INSERT INTO shadowed VALUES (1)');
      await a.query('CREATE TEMP TABLE shadowed (x int)');
      await a.query('INSERT INTO shadowed VALUES (2)');
      assert.deepEqual(await values(a, 'SELECT x FROM shadowed'), [2]);
      assert.deepEqual(await values(b, 'SELECT x FROM shadowed'), [1]);
      await a.query('SELECT x * 10 AS x INTO TEMP copied FROM shadowed');
      assert.deepEqual(await values(a, 'SELECT x FROM copied'), [20]);
      await a.query('BEGIN');
      await a.query('CREATE TEMP TABLE gone (x int) ON COMMIT DROP');
      await a.query('INSERT INTO gone VALUES (1)');
      await a.query('CREATE TEMP TABLE gone_too ON COMMIT DROP AS SELECT 1 AS x');
      assert.deepEqual(await values(a, 'SELECT x FROM gone_too'), [1]);
      await a.query('COMMIT');
      assert.equal((await queryFailure(a, 'SELECT * FROM gone')).code, '42P01');
      assert.equal((await queryFailure(a, 'SELECT * FROM gone_too')).code, '42P01');
      await a.query('CREATE TEMP TABLE emptied (x int) ON COMMIT DELETE ROWS');
      await a.query('BEGIN');
      await a.query('INSERT INTO emptied VALUES (1), (2)');
      assert.deepEqual(await values(a, 'SELECT count(*)::int FROM emptied'), [2]);
      await a.query('COMMIT');
      assert.deepEqual(await values(a, 'SELECT count(*)::int FROM emptied'), [0]);
      assert.equal((await queryFailure(b, 'SELECT * FROM copied')).code, '42P01');
      await a.query('DROP TABLE shadowed');
      assert.deepEqual(await values(a, 'SELECT x FROM shadowed'), [1]);
      await a.query('DROP TABLE shadowed');
      // DISCARD TEMP and DISCARD ALL (a pooler's reset between clients) drop the connection's temporary tables.
      await a.query('DISCARD TEMP');
      assert.equal((await queryFailure(a, 'SELECT * FROM copied')).code, '42P01');
      await a.query('CREATE TEMP TABLE pooled (x int)');
      await a.query('DISCARD ALL');
      assert.equal((await queryFailure(a, 'SELECT * FROM pooled')).code, '42P01');
    } finally {
      await a.end();
      await b.end();
    }
    assert.equal(await noneLeft(leaked), 0);
  });
}

void describe('temporary tables through the gateway over the engine', () => {
  let engine: Engine | undefined;
  let gw: Gateway | undefined;
  before(async () => {
    engine = await Engine.create();
    gw = await startGateway({ port: 0, backend: new EngineBackend(engine, { databases: [DATABASE] }), users: [{ name: USER, password: PASSWORD }] });
  });
  after(async () => {
    await gw?.close();
  });
  suite(() => gw!.port, () => Promise.resolve(engine!.catalog.list().filter((t) => isTempName(t.name)).length));
});

void describe('temporary tables through the gateway over a cluster', () => {
  const { port, gateway } = clusterGatewayForSuite('gw-temp-tables', BASE_PORT);
  const tempNames = async (): Promise<string[]> => (await gateway().sql.freshCatalog()).catalog.list().filter((t) => isTempName(t.name)).map((t) => t.name);
  suite(port, async () => (await tempNames()).length);

  void it('the tables a dead process of the same client id left are dropped by the next (dropLeftTemp), a live session\'s are not', async () => {
    const sql = gateway().sql;
    const clientId = sql.client.opts.clientId;
    // Sessions of a process that died: keys of this client id with another process tag, never closed.
    for (const n of [1, 2]) {
      const dead = sql.session(undefined, `${clientId}_deadbeef_${n}`);
      for (const text of [`CREATE TEMP TABLE left_${n} (id int PRIMARY KEY)`, `INSERT INTO left_${n} VALUES (1)`]) {
        const r = await dead.execute(text);
        assert.ok(r.ok, r.ok ? '' : r.error.message);
      }
    }
    const other = sql.session(undefined, `${clientId + 1}_deadbeef_1`); // another client's: not this process's to drop
    assert.ok((await other.execute('CREATE TEMP TABLE not_mine (a int)')).ok);
    const c = await connect(port());
    try {
      await c.query('CREATE TEMP TABLE live_t (a int)');
      assert.equal((await tempNames()).length, 4);
      assert.equal(await dropLeftTemp(sql), 2);
      const left = await tempNames();
      assert.deepEqual(left.map((n) => n.slice(n.lastIndexOf('\u0001') + 1)).sort(), ['live_t', 'not_mine']);
      assert.deepEqual((await c.query('SELECT count(*)::int AS n FROM live_t')).rows, [{ n: 0 }]);
    } finally {
      await c.end();
      await other.close();
    }
    assert.equal(await noneLeft(async () => (await tempNames()).length), 0);
  });
});
