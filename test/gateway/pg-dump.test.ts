/**
 * Moving a database between PostgreSQL 15 and Pesto the usual way, both ways.
 *
 * Into Pesto: `pg_dump` of a real PostgreSQL database
 * (testdata/pg-dump-source.sql: SERIAL, BIGSERIAL and identity columns, a free sequence, foreign keys,
 * CHECK and UNIQUE constraints, an index, comments, views, a materialized view with a unique index, an array column, json, bytea, uuid, quoting
 * in text) restored with `psql -v ON_ERROR_STOP=1 -f` through the gateway over a six-replica cluster,
 * every statement succeeding; then testdata/pg-dump-check.sql (the rows, psql's `\d` of tables and views,
 * `\ds` and `\dv`, the sequences' catalog, reads of the views, inserts drawing from the sequences,
 * constraint errors, a cascade) prints on Pesto exactly what it prints on the PostgreSQL the dump came from.
 *
 * Out of Pesto (backups): `pg_dump` of that Pesto database, in plain format restored into a new
 * PostgreSQL database with psql, and in custom format (-Fc) restored with pg_restore into a second Pesto
 * (a gateway over the single-node engine); the check then prints the same on the three, and PostgreSQL's
 * own pg_dump of the database restored from Pesto's dump equals its pg_dump of the original.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PG_BIN, startPostgres, type PostgresServer } from '../../bench/postgres-server.ts';
import { DATABASE, PASSWORD, USER, clusterGatewayForSuite, startTestGateway } from './gateway-fixture.ts';
import { dumpOf, psqlAt, runPg as run } from './pg-dump-tools.ts';

const CLUSTER_BASE_PORT = 8620;
const POSTGRES_PORT = 8640;
const TESTDATA = join(import.meta.dirname, 'testdata');

const psql = psqlAt;

/** A plain dump without its \restrict key lines (random per run). */
const withoutKeys = (dump: string): string => dump.replace(/^\\(?:un)?restrict .*$/gm, '');

/** The same, each COPY block's rows sorted: PostgreSQL writes a table's rows in the order they sit in its heap. */
const comparable = (dump: string): string =>
  withoutKeys(dump).replace(/^(COPY [^\n]* FROM stdin;\n)([\s\S]*?)^\\\.$/gm, (_, head: string, body: string) => `${head}${body.split('\n').filter((l) => l !== '').sort().join('\n')}\n\\.`);

void describe('a pg_dump of PostgreSQL 15 restored into Pesto with psql', { skip: existsSync(join(PG_BIN, 'pg_dump')) ? false : `no PostgreSQL 15 at ${PG_BIN}` }, () => {
  const { port } = clusterGatewayForSuite('gw-pg-dump', CLUSTER_BASE_PORT);
  let server: PostgresServer | undefined;
  let dir = '';
  let dump = '';
  before(async () => {
    server = startPostgres(POSTGRES_PORT);
    dir = mkdtempSync(join(tmpdir(), 'pesto-dump-'));
    dump = join(dir, 'dump.sql');
    writeFileSync(dump, await dumpOf(POSTGRES_PORT, join(TESTDATA, 'pg-dump-source.sql')));
  });
  after(() => {
    server?.stop();
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  void it('restores with every statement succeeding, then reads, describes and writes as PostgreSQL does', async () => {
    const restore = await psql(port(), USER, PASSWORD, '-q', '-v', 'ON_ERROR_STOP=1', '-f', dump);
    assert.equal(restore.stderr, '');
    assert.equal(restore.code, 0);
    const check = join(TESTDATA, 'pg-dump-check.sql');
    const pesto = await psql(port(), USER, PASSWORD, '-f', check);
    const postgres = await psql(POSTGRES_PORT, USER, '', '-f', check);
    assert.equal(pesto.stdout, postgres.stdout);
    assert.equal(pesto.stderr, postgres.stderr);
  });

  void it('dumps the Pesto database with pg_dump; the dump restores into PostgreSQL and, in custom format, into another Pesto', async () => {
    const plain = await run('pg_dump', ['-h', '127.0.0.1', '-p', String(port()), '-U', USER, DATABASE], PASSWORD);
    assert.equal(plain.stderr, '');
    assert.equal(plain.code, 0);
    const custom = join(dir, 'pesto.dump');
    const c = await run('pg_dump', ['-h', '127.0.0.1', '-p', String(port()), '-U', USER, '-Fc', '-f', custom, DATABASE], PASSWORD);
    assert.equal(c.code, 0, c.stderr);

    // Into a new PostgreSQL database, every statement succeeding.
    const created = await run('psql', ['-X', '-h', '127.0.0.1', '-p', String(POSTGRES_PORT), '-U', USER, '-d', DATABASE, '-c', 'CREATE DATABASE from_pesto']);
    assert.equal(created.code, 0, created.stderr);
    const file = join(dir, 'pesto.sql');
    writeFileSync(file, plain.stdout);
    const intoPostgres = await run('psql', ['-X', '-q', '-h', '127.0.0.1', '-p', String(POSTGRES_PORT), '-U', USER, '-d', 'from_pesto', '-v', 'ON_ERROR_STOP=1', '-f', file]);
    assert.equal(intoPostgres.stderr, '');
    assert.equal(intoPostgres.code, 0);
    // PostgreSQL dumps what it restored from Pesto's dump as it dumps the original.
    const original = await run('pg_dump', ['-h', '127.0.0.1', '-p', String(POSTGRES_PORT), '-U', USER, DATABASE]);
    const restored = await run('pg_dump', ['-h', '127.0.0.1', '-p', String(POSTGRES_PORT), '-U', USER, 'from_pesto']);
    assert.equal(comparable(restored.stdout), comparable(original.stdout));

    // Into a second Pesto with pg_restore.
    const second = await startTestGateway();
    try {
      const intoPesto = await run('pg_restore', ['-h', '127.0.0.1', '-p', String(second.port), '-U', USER, '-d', DATABASE, '--exit-on-error', custom], PASSWORD);
      assert.equal(intoPesto.stderr, '');
      assert.equal(intoPesto.code, 0);
      const again = await run('pg_dump', ['-h', '127.0.0.1', '-p', String(second.port), '-U', USER, DATABASE], PASSWORD);
      assert.equal(withoutKeys(again.stdout), withoutKeys(plain.stdout));
      // Restored again over itself: --clean drops every object first (keys before their tables).
      const overItself = await run('pg_restore', ['-h', '127.0.0.1', '-p', String(second.port), '-U', USER, '-d', DATABASE, '--clean', '--if-exists', '--exit-on-error', custom], PASSWORD);
      assert.equal(overItself.stderr, '');
      assert.equal(overItself.code, 0);
      const third = await run('pg_dump', ['-h', '127.0.0.1', '-p', String(second.port), '-U', USER, DATABASE], PASSWORD);
      assert.equal(withoutKeys(third.stdout), withoutKeys(plain.stdout));
      // The check (reads, descriptions, writes) prints the same on the original and on both copies.
      const check = join(TESTDATA, 'pg-dump-check.sql');
      const want = await psql(POSTGRES_PORT, USER, '', '-f', check);
      const fromPesto = await run('psql', ['-X', '-h', '127.0.0.1', '-p', String(POSTGRES_PORT), '-U', USER, '-d', 'from_pesto', '-f', check]);
      const pesto = await psql(second.port, USER, PASSWORD, '-f', check);
      assert.equal(fromPesto.stdout, want.stdout);
      assert.equal(pesto.stdout, want.stdout);
      assert.equal(pesto.stderr, want.stderr);
    } finally {
      await second.close();
    }
  });
});
