/**
 * Roles through the gateway, over the engine and over a six-replica cluster: a role created with
 * CREATE ROLE / CREATE USER logs in with psql and node-postgres (SCRAM against its stored verifier);
 * a wrong password, an unknown user and a role without a password look the same to the client (28P01),
 * a NOLOGIN role gets PostgreSQL's 28000; current_user and session_user are the role; privileges are
 * denied (42501) and then granted; DROP ROLE is refused (2BP01) while the role owns objects. On the
 * cluster, a role created over one gateway logs in over a second gateway of the same cluster.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { keyPath, readKeyFile } from '../../cli/keys.ts';
import { startClusterGateway, type ClusterGateway } from '../../client/gateway/cluster-gateway.ts';
import { DATABASE, PASSWORD, USER, clusterGatewayForSuite, engineGatewayForSuite, runPsql, withPg } from './gateway-fixture.ts';

const CLUSTER_BASE_PORT = 9320;

async function asRole<T>(port: number, user: string, password: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ host: '127.0.0.1', port, user, password, database: DATABASE });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

async function loginError(port: number, user: string, password: string): Promise<{ code: string; message: string }> {
  try {
    await asRole(port, user, password, async () => undefined);
  } catch (e) {
    const err = e as { code?: string; message: string };
    return { code: err.code ?? '', message: err.message };
  }
  assert.fail(`${user} logged in`);
}

async function sqlError(c: pg.Client, sql: string): Promise<{ code: string; message: string; detail?: string }> {
  try {
    await c.query(sql);
  } catch (e) {
    const err = e as { code?: string; message: string; detail?: string };
    return { code: err.code ?? '', message: err.message, ...(err.detail !== undefined ? { detail: err.detail } : {}) };
  }
  assert.fail(`${sql} succeeded`);
}

/** Logins, privileges and DROP ROLE; `loginPort` is where the roles log in (another gateway of the cluster). */
async function rolesScenario(port: number, loginPort: number = port): Promise<void> {
  await withPg(port, async (c) => {
    // The test password, so psql (gateway-fixture's runPsql) logs in as the role too.
    await c.query(`CREATE USER app_user PASSWORD '${PASSWORD}'`);
    await c.query("CREATE ROLE app_nologin PASSWORD 'x'");
    await c.query('CREATE ROLE app_nopass LOGIN');
    await c.query('CREATE TABLE app_items (id int PRIMARY KEY, name text)');
    await c.query("INSERT INTO app_items VALUES (1, 'one')");
    await c.query('CREATE TABLE app_serial (id serial PRIMARY KEY, v text)');
    await c.query('GRANT INSERT, SELECT ON app_serial TO app_user');
  });
  const psql = await runPsql(loginPort, 'app_user', '-A', '-t', '-c', 'SELECT current_user, session_user');
  assert.equal(psql.stderr, '');
  assert.equal(psql.stdout, 'app_user|app_user\n');

  const wrong = await loginError(loginPort, 'app_user', 'nope');
  assert.deepEqual(wrong, { code: '28P01', message: 'password authentication failed for user "app_user"' });
  assert.deepEqual(await loginError(loginPort, 'app_nobody', 'nope'), { code: '28P01', message: 'password authentication failed for user "app_nobody"' });
  assert.deepEqual(await loginError(loginPort, 'app_nopass', 'x'), { code: '28P01', message: 'password authentication failed for user "app_nopass"' });
  assert.deepEqual(await loginError(loginPort, 'app_nologin', 'x'), { code: '28000', message: 'role "app_nologin" is not permitted to log in' });

  await asRole(loginPort, 'app_user', PASSWORD, async (c) => {
    assert.deepEqual(await sqlError(c, 'SELECT * FROM app_items'), { code: '42501', message: 'permission denied for table app_items' });
    assert.deepEqual(await sqlError(c, "INSERT INTO app_items VALUES (2, 'two')"), { code: '42501', message: 'permission denied for table app_items' });
  });
  await withPg(port, (c) => c.query('GRANT SELECT, INSERT ON app_items TO app_user'));
  await asRole(loginPort, 'app_user', PASSWORD, async (c) => {
    assert.deepEqual((await c.query('SELECT name FROM app_items ORDER BY id')).rows, [{ name: 'one' }]);
    await c.query("INSERT INTO app_items VALUES (2, 'two')");
    assert.deepEqual(await sqlError(c, 'DELETE FROM app_items'), { code: '42501', message: 'permission denied for table app_items' });
    assert.deepEqual(await sqlError(c, 'DROP TABLE app_items'), { code: '42501', message: 'must be owner of table app_items' });
    assert.deepEqual(await sqlError(c, 'CREATE ROLE app_other'), { code: '42501', message: 'permission denied to create role' });
    // PostgreSQL 15: the schema public's CREATE is its owner's (the database owner's) until granted.
    assert.deepEqual(await sqlError(c, 'CREATE TABLE app_own (x int)'), { code: '42501', message: 'permission denied for schema public' });
  });
  await withPg(port, (c) => c.query('GRANT CREATE ON SCHEMA public TO app_user'));
  await asRole(loginPort, 'app_user', PASSWORD, async (c) => {
    await c.query('CREATE TABLE app_own (x int)');
    await c.query('INSERT INTO app_own VALUES (1)');
    // A SERIAL's default draws from its sequence: USAGE on it is needed (PostgreSQL's rule), an explicit value needs none.
    assert.deepEqual(await sqlError(c, "INSERT INTO app_serial (v) VALUES ('a')"), { code: '42501', message: 'permission denied for sequence app_serial_id_seq' });
    await c.query("INSERT INTO app_serial VALUES (5, 'b')");
    assert.deepEqual(await sqlError(c, "SELECT nextval('app_serial_id_seq')"), { code: '42501', message: 'permission denied for sequence app_serial_id_seq' });
  });
  await withPg(port, (c) => c.query('GRANT USAGE ON SEQUENCE app_serial_id_seq TO app_user'));
  await asRole(loginPort, 'app_user', PASSWORD, async (c) => {
    assert.deepEqual((await c.query("INSERT INTO app_serial (v) VALUES ('a') RETURNING id")).rows, [{ id: 1 }]);
    assert.deepEqual(await sqlError(c, "SELECT setval('app_serial_id_seq', 10)"), { code: '42501', message: 'permission denied for sequence app_serial_id_seq' });
  });
  await withPg(port, async (c) => {
    const refused = await sqlError(c, 'DROP ROLE app_user');
    assert.deepEqual({ ...refused, detail: refused.detail?.split('\n').sort() }, {
      code: '2BP01', message: 'role "app_user" cannot be dropped because some objects depend on it',
      // PostgreSQL lists them in its objects' oid order, which Pesto's ids do not follow across kinds.
      detail: ['owner of table app_own', 'privileges for schema public', 'privileges for sequence app_serial_id_seq', 'privileges for table app_items', 'privileges for table app_serial'],
    });
    await c.query('DROP TABLE app_own, app_serial');
    await c.query('REVOKE ALL ON app_items FROM app_user');
    await c.query('REVOKE CREATE ON SCHEMA public FROM app_user');
    await c.query('REVOKE CONNECT ON DATABASE pesto FROM PUBLIC');
  });
  assert.deepEqual(await loginError(loginPort, 'app_user', PASSWORD), { code: '42501', message: 'permission denied for database "pesto"' });
  await withPg(port, async (c) => {
    await c.query('GRANT CONNECT ON DATABASE pesto TO PUBLIC');
    await c.query('DROP ROLE app_user, app_nologin, app_nopass');
  });
  assert.deepEqual(await loginError(loginPort, 'app_user', PASSWORD), { code: '28P01', message: 'password authentication failed for user "app_user"' });
}

void describe('roles over the engine gateway', () => {
  const port = engineGatewayForSuite();
  void it('logs in as created roles, denies and grants privileges, refuses DROP ROLE of an owner', () => rolesScenario(port()));
});

void describe('roles over a cluster gateway', () => {
  const suite = clusterGatewayForSuite('roles', CLUSTER_BASE_PORT);
  let second: ClusterGateway | undefined;
  before(async () => {
    const tc = suite.cluster();
    // Another client process of the same cluster: its own client id and key.
    const keyPair = await readKeyFile(keyPath(tc.dataDir, { kind: 'client', id: 2 }));
    second = await startClusterGateway({ client: { config: tc.config, clientId: 2, keyPair }, port: 0, users: [{ name: USER, password: PASSWORD }], databases: [DATABASE] });
  });
  after(async () => {
    await second?.close();
  });
  void it('a role created over one gateway logs in over another, with its privileges', () => rolesScenario(suite.port(), second!.gateway.port));
});
