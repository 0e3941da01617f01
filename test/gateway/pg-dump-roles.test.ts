/**
 * A pg_dump (made without --no-owner or --no-privileges) of a PostgreSQL 15 database whose tables,
 * view and sequences belong to another role and carry GRANTs (to roles, to PUBLIC, WITH GRANT OPTION,
 * a REVOKE from the owner: testdata/pg-dump-roles-source.sql) restores with `psql -v ON_ERROR_STOP=1`
 * through the gateway over a six-replica cluster once the roles exist there; then the owners and ACLs
 * (pg_class.relacl, pg_tables, pg_views, psql's `\dt`, `\dv`, `\ds`: testdata/pg-dump-roles-check.sql)
 * print as on the PostgreSQL the dump came from, and a role granted SELECT reads and is refused as
 * there (testdata/pg-dump-roles-reader.sql, run as that role).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PG_BIN, startPostgres, type PostgresServer } from '../../bench/postgres-server.ts';
import { PASSWORD, USER, clusterGatewayForSuite } from './gateway-fixture.ts';
import { dumpOf, psqlAt } from './pg-dump-tools.ts';

const CLUSTER_BASE_PORT = 9326;
const POSTGRES_PORT = 9335;
const TESTDATA = join(import.meta.dirname, 'testdata');
const ROLES = ['CREATE ROLE app_owner', `CREATE ROLE app_reader LOGIN PASSWORD '${PASSWORD}'`, 'CREATE ROLE app_writer'];

const psql = psqlAt;

void describe('a pg_dump with owners and privileges restored into Pesto', { skip: existsSync(join(PG_BIN, 'pg_dump')) ? false : `no PostgreSQL 15 at ${PG_BIN}` }, () => {
  const { port } = clusterGatewayForSuite('gw-pg-dump-roles', CLUSTER_BASE_PORT);
  let server: PostgresServer | undefined;
  let dir = '';
  let dump = '';
  before(async () => {
    server = startPostgres(POSTGRES_PORT);
    dir = mkdtempSync(join(tmpdir(), 'pesto-dump-roles-'));
    const text = await dumpOf(POSTGRES_PORT, join(TESTDATA, 'pg-dump-roles-source.sql'), ROLES);
    assert.match(text, /OWNER TO app_owner;/);
    assert.match(text, /WITH GRANT OPTION;/);
    dump = join(dir, 'dump.sql');
    writeFileSync(dump, text);
  });
  after(() => {
    server?.stop();
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  void it('restores once the roles exist, with the owners, ACLs and privileges PostgreSQL has', async () => {
    const roles = await psql(port(), USER, PASSWORD, '-q', '-v', 'ON_ERROR_STOP=1', ...ROLES.flatMap((r) => ['-c', r]));
    assert.equal(roles.stderr, '');
    const restore = await psql(port(), USER, PASSWORD, '-q', '-v', 'ON_ERROR_STOP=1', '-f', dump);
    assert.equal(restore.stderr, '');
    assert.equal(restore.code, 0);
    for (const [script, user] of [['pg-dump-roles-check.sql', USER], ['pg-dump-roles-reader.sql', 'app_reader']] as const) {
      const file = join(TESTDATA, script);
      const pesto = await psql(port(), user, PASSWORD, '-f', file);
      const postgres = await psql(POSTGRES_PORT, user, '', '-f', file);
      assert.equal(pesto.stdout, postgres.stdout, script);
      assert.equal(pesto.stderr, postgres.stderr, script);
    }
  });
});
