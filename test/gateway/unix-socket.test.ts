/**
 * The gateway's Unix-domain socket (GatewayOptions.socketDir): psql `-h <dir>` and the `pg` driver reach
 * it at `<dir>/.s.PGSQL.<port>` as they reach PostgreSQL's; a socket file a crashed gateway left behind
 * is replaced, one a live server answers on is refused, and closing removes the file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { DATABASE, PASSWORD, USER, startTestGateway } from './gateway-fixture.ts';

function psqlAt(dir: string, port: number, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('/usr/lib/postgresql/15/bin/psql', ['-X', '-At', '-h', dir, '-p', String(port), '-U', USER, '-d', DATABASE, ...args], {
      env: { ...process.env, PGPASSWORD: PASSWORD, PGCONNECT_TIMEOUT: '10' },
      timeout: 60_000,
    }, (err, stdout, stderr) => resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr }));
  });
}

void test('psql and the pg driver connect over the Unix-domain socket; closing removes it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pesto-sock-'));
  const gw = await startTestGateway({ socketDir: dir });
  try {
    assert.equal(gw.socketPath, join(dir, `.s.PGSQL.${gw.port}`));
    const r = await psqlAt(dir, gw.port, '-v', 'ON_ERROR_STOP=1', '-c', 'CREATE TABLE t (id INT PRIMARY KEY)', '-c', 'INSERT INTO t VALUES (1), (2)', '-c', 'SELECT count(*) FROM t', '-c', '\\conninfo');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `CREATE TABLE\nINSERT 0 2\n2\nYou are connected to database "${DATABASE}" as user "${USER}" via socket in "${dir}" at port "${gw.port}".\n`);
    const c = new pg.Client({ host: dir, port: gw.port, user: USER, password: PASSWORD, database: DATABASE });
    await c.connect();
    assert.deepEqual((await c.query('SELECT id FROM t WHERE id > $1 ORDER BY id', [0])).rows, [{ id: 1 }, { id: 2 }]);
    await c.end();
    // TCP still serves the same database.
    const tcp = new pg.Client({ host: '127.0.0.1', port: gw.port, user: USER, password: PASSWORD, database: DATABASE });
    await tcp.connect();
    assert.deepEqual((await tcp.query('SELECT count(*)::int AS n FROM t')).rows, [{ n: 2 }]);
    await tcp.end();
    // A wrong password over the socket is refused as over TCP (no peer trust).
    const bad = await new Promise<string>((resolve) => {
      execFile('/usr/lib/postgresql/15/bin/psql', ['-X', '-h', dir, '-p', String(gw.port), '-U', USER, '-d', DATABASE, '-c', 'SELECT 1'], {
        env: { ...process.env, PGPASSWORD: 'wrong', PGCONNECT_TIMEOUT: '10' },
      }, (_err, _stdout, stderr) => resolve(stderr));
    });
    assert.match(bad, /password authentication failed for user "pesto"/);
  } finally {
    await gw.close();
  }
  assert.equal(existsSync(join(dir, `.s.PGSQL.${gw.port}`)), false, 'the socket file is removed on close');
  rmSync(dir, { recursive: true, force: true });
});

void test('replaces a stale socket file, refuses a live one and a file that is not a socket', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pesto-sock-'));
  const first = await startTestGateway({ socketDir: dir });
  const port = first.port;
  const path = join(dir, `.s.PGSQL.${port}`);
  try {
    // Another gateway on the same port of another address names the same socket, on which the first
    // answers: refused, and the first still serves.
    await assert.rejects(startTestGateway({ host: '127.0.0.2', port, socketDir: dir }), /the socket .* is in use by another server/);
    const r = await psqlAt(dir, port, '-c', 'SELECT 1');
    assert.equal(r.stdout, '1\n', r.stderr);
  } finally {
    await first.close();
  }
  // A process that exited without closing its server leaves the socket file behind.
  execFileSync(process.execPath, ['-e', `require('node:net').createServer().listen(${JSON.stringify(path)}, () => process.exit(0))`]);
  assert.ok(existsSync(path));
  const again = await startTestGateway({ port, socketDir: dir });
  try {
    const r = await psqlAt(dir, port, '-c', 'SELECT 41 + 1');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '42\n');
  } finally {
    await again.close();
  }
  writeFileSync(path, 'not a socket');
  await assert.rejects(startTestGateway({ port, socketDir: dir }), /exists and is not a socket/);
  rmSync(dir, { recursive: true, force: true });
});
