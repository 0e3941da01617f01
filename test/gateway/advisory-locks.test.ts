/**
 * Advisory locks through the gateway (sql/advisory-locks.ts), over the engine and over a cluster of six
 * replicas (client/sql/advisory-rows.ts), with real `pg` connections as migration tools use them: a lock
 * one session holds makes another's pg_try_advisory_lock false and its pg_advisory_lock wait until the
 * holder unlocks, commits (transaction level) or disconnects; shared locks share; a CancelRequest stops a
 * waiting statement with 57014; an unlock of a lock not held is false with PostgreSQL's warning; and
 * node-pg-migrate (which takes pg_try_advisory_lock around its migrations) stays out while another session
 * holds its lock, then migrates up and down.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import type pg from 'pg';
import { DATABASE, PASSWORD, USER, cancel, client, clusterGatewayForSuite, engineGatewayForSuite } from './gateway-fixture.ts';

const CLUSTER_BASE_PORT = 9100;
/** node-pg-migrate's lock key (its runner's PG_MIGRATE_LOCK_ID). */
const PG_MIGRATE_LOCK_ID = '7241865325823964';

/** `node-pg-migrate <args>` over testdata/pg-migrate against `port`: exit code and output. */
function pgMigrate(port: number, ...args: string[]): Promise<{ code: number; out: string }> {
  const bin = join(import.meta.dirname, '../../node_modules/.bin/node-pg-migrate');
  const env = { ...process.env, DATABASE_URL: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}` };
  return new Promise((resolve) => {
    execFile(bin, [...args, '-m', join(import.meta.dirname, 'testdata/pg-migrate')], { env, timeout: 120_000 }, (err, stdout, stderr) =>
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, out: stdout + stderr }));
  });
}

/** The one value of a one-row, one-column result. */
async function value(c: pg.Client, sql: string, params: unknown[] = []): Promise<unknown> {
  const r = await c.query({ text: sql, values: params, rowMode: 'array' });
  return (r.rows[0] as unknown[])[0];
}

/** Whether `p` is still pending after `ms`. */
async function pendingAfter(p: Promise<unknown>, ms: number): Promise<boolean> {
  const marker = Symbol('pending');
  return (await Promise.race([p, new Promise((resolve) => setTimeout(() => resolve(marker), ms))])) === marker;
}

function suite(port: () => number): void {
  void it('excludes, waits for the holder to unlock and hands the lock over', async () => {
    const [a, b] = [await client(port()), await client(port())];
    try {
      assert.equal(await value(a, 'SELECT pg_advisory_lock(42)'), '');
      assert.equal(await value(b, 'SELECT pg_try_advisory_lock(42)'), false);
      // Extended protocol with a parameter, as node-pg-migrate sends it.
      assert.equal(await value(b, 'SELECT pg_try_advisory_lock($1)', ['42']), false);
      const waiting = b.query('SELECT pg_advisory_lock(42)');
      assert.ok(await pendingAfter(waiting, 300), 'the second session waits');
      assert.equal(await value(a, 'SELECT pg_advisory_unlock(42)'), true);
      await waiting;
      assert.equal(await value(a, 'SELECT pg_try_advisory_lock(42)'), false);
      // Held twice, unlocked twice; a third unlock is false with a warning.
      assert.equal(await value(b, 'SELECT pg_try_advisory_lock(42)'), true);
      const notices: string[] = [];
      b.on('notice', (n) => notices.push(`${n.severity ?? ''}: ${n.message ?? ''}`));
      assert.deepEqual((await b.query({ text: 'SELECT pg_advisory_unlock(42), pg_advisory_unlock(42), pg_advisory_unlock(42)', rowMode: 'array' })).rows, [[true, true, false]]);
      assert.deepEqual(notices, ["WARNING: you don't own a lock of type ExclusiveLock"]);
      assert.equal(await value(a, 'SELECT pg_try_advisory_lock(42)'), true);
    } finally {
      await a.end();
      await b.end();
    }
  });

  void it('shares shared locks, and gives transaction-level locks back at COMMIT and session locks at disconnect', async () => {
    const [a, b] = [await client(port()), await client(port())];
    let c = await client(port());
    try {
      assert.equal(await value(a, 'SELECT pg_try_advisory_lock_shared(7, 8)'), true);
      assert.equal(await value(b, 'SELECT pg_try_advisory_lock_shared(7, 8)'), true);
      assert.equal(await value(c, 'SELECT pg_try_advisory_lock(7, 8)'), false);
      // The two-key and one-key spaces are apart.
      assert.equal(await value(c, 'SELECT pg_try_advisory_lock(7)'), true);
      await a.query('BEGIN');
      assert.equal(await value(a, 'SELECT pg_try_advisory_xact_lock(99)'), true);
      assert.equal(await value(b, 'SELECT pg_try_advisory_lock(99)'), false);
      await a.query('COMMIT');
      assert.equal(await value(b, 'SELECT pg_try_advisory_lock(99)'), true);
      await c.end();
      c = await client(port());
      assert.equal(await value(c, 'SELECT pg_try_advisory_lock(7)'), true, 'the lock went with its session');
      assert.equal(await value(a, 'SELECT pg_try_advisory_lock(99)'), false);
      await value(b, 'SELECT pg_advisory_unlock_all()');
      assert.equal(await value(a, 'SELECT pg_try_advisory_lock(99)'), true);
    } finally {
      await a.end();
      await b.end();
      await c.end();
    }
  });

  void it('stops a waiting statement with 57014 on a CancelRequest', async () => {
    const [a, b] = [await client(port()), await client(port())];
    try {
      await value(a, 'SELECT pg_advisory_lock(5)');
      await b.query('BEGIN');
      const waiting = b.query('SELECT pg_advisory_lock(5)');
      assert.ok(await pendingAfter(waiting, 200));
      await cancel(port(), b);
      await assert.rejects(waiting, { code: '57014' });
      await assert.rejects(b.query('SELECT 1'), { code: '25P02' });
      await b.query('ROLLBACK');
      assert.equal(await value(b, 'SELECT pg_try_advisory_lock(5)'), false);
      assert.equal(await value(a, 'SELECT pg_advisory_unlock(5)'), true);
      assert.equal(await value(b, 'SELECT pg_try_advisory_lock(5)'), true);
    } finally {
      await a.end();
      await b.end();
    }
  });

  void it('keeps node-pg-migrate out while another session holds its lock, then migrates up and down', async () => {
    const a = await client(port());
    try {
      await value(a, `SELECT pg_advisory_lock(${PG_MIGRATE_LOCK_ID})`);
      const refused = await pgMigrate(port(), 'up');
      assert.notEqual(refused.code, 0);
      assert.match(refused.out, /Another migration is already running/);
      await value(a, `SELECT pg_advisory_unlock(${PG_MIGRATE_LOCK_ID})`);
      const up = await pgMigrate(port(), 'up');
      assert.equal(up.code, 0, up.out);
      assert.match(up.out, /Migrations complete!/);
      assert.match((await pgMigrate(port(), 'up')).out, /No migrations to run!/);
      assert.deepEqual((await a.query('SELECT name FROM pgmigrations ORDER BY id')).rows.map((r: { name: string }) => r.name), ['1700000000000_init', '1700000000001_more']);
      await a.query("INSERT INTO pgm_users (email, name) VALUES ('a@x', 'Ann')");
      assert.equal((await pgMigrate(port(), 'down')).code, 0);
      await assert.rejects(a.query('SELECT name FROM pgm_users'), { code: '42703' });
      assert.equal(await value(a, `SELECT pg_try_advisory_lock(${PG_MIGRATE_LOCK_ID})`), true, 'the tool gave its lock back');
    } finally {
      await a.end();
    }
  });
}

void describe('advisory locks through the gateway over the engine', () => suite(engineGatewayForSuite()));

void describe('advisory locks through the gateway over a cluster of six replicas', () => suite(clusterGatewayForSuite('gw-advisory', CLUSTER_BASE_PORT).port));
