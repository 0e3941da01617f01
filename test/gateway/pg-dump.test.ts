/**
 * Moving a database from PostgreSQL 15 to Pesto the usual way: `pg_dump` of a real PostgreSQL database
 * (testdata/pg-dump-source.sql: SERIAL, BIGSERIAL and identity columns, a free sequence, foreign keys,
 * CHECK and UNIQUE constraints, an index, comments, views, a materialized view with a unique index, an array column, json, bytea, uuid, quoting
 * in text) restored with `psql -v ON_ERROR_STOP=1 -f` through the gateway over a six-replica cluster,
 * every statement succeeding; then testdata/pg-dump-check.sql (the rows, psql's `\d` of tables and views,
 * `\ds` and `\dv`, the sequences' catalog, reads of the views, inserts drawing from the sequences,
 * constraint errors, a cascade) prints on Pesto exactly what it prints on the PostgreSQL the dump came from.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PG_BIN, startPostgres, type PostgresServer } from '../../bench/postgres-server.ts';
import { PASSWORD, USER, clusterGatewayForSuite } from './gateway-fixture.ts';
import { dumpOf, psqlAt } from './pg-dump-tools.ts';

const CLUSTER_BASE_PORT = 8620;
const POSTGRES_PORT = 8640;
const TESTDATA = join(import.meta.dirname, 'testdata');

const psql = psqlAt;

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
});
