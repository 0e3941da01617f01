/**
 * pg_sleep, pg_sleep_for and pg_sleep_until through the gateway over the engine (sql/session-time.ts,
 * client/gateway/statement-sleep.ts), with real `pg` connections: a sleep really waits, per row and in
 * order, without holding up another session's statements (the event loop stays free); the simple and
 * extended protocols both wait; a CancelRequest ends a sleep with 57014 (and fails the transaction block
 * it ran in, 25P02 until ROLLBACK); pg_sleep in a statement that writes is 0A000; the void they return
 * is a column of type 2278 whose value is empty in text and binary. What an slt file cannot show
 * (test/sql/functions-more.slt has the values and errors).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { serialize } from 'pg-protocol';
import { cancel, client, dataRow, engineGatewayForSuite, RawClient, rowDescription, startTestGateway, types } from './gateway-fixture.ts';

/** How long `p` takes, in milliseconds. */
async function elapsedMs(p: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await p();
  return performance.now() - start;
}

void describe('pg_sleep through the gateway over the engine', () => {
  const port = engineGatewayForSuite();

  void it('waits as long as asked, per row and in order, in both protocols', async () => {
    const c = await client(port());
    try {
      const simple = await elapsedMs(() => c.query('SELECT pg_sleep(0.2)'));
      assert.ok(simple >= 190 && simple < 2000, `pg_sleep(0.2) took ${simple} ms`);
      const r = await c.query({ text: 'SELECT pg_sleep($1), 1 AS one', values: [0.1], rowMode: 'array' });
      assert.deepEqual(r.rows, [['', 1]]);
      const rows = await elapsedMs(() => c.query('SELECT pg_sleep(0.05) FROM generate_series(1, 4)'));
      assert.ok(rows >= 190, `four rows of pg_sleep(0.05) took ${rows} ms`);
      const forAndUntil = await elapsedMs(() => c.query("SELECT pg_sleep_for('100 milliseconds'), pg_sleep_until(clock_timestamp() + interval '100 milliseconds')"));
      assert.ok(forAndUntil >= 90, `pg_sleep_for and pg_sleep_until took ${forAndUntil} ms`);
      assert.ok(await elapsedMs(() => c.query("SELECT pg_sleep(-1), pg_sleep('NaN'), pg_sleep_until(now() - interval '1 day')")) < 1000);
    } finally {
      await c.end();
    }
  });

  void it('leaves other sessions running while one sleeps', async () => {
    const [a, b] = [await client(port()), await client(port())];
    try {
      const sleeping = a.query('SELECT pg_sleep(1)');
      const other = await elapsedMs(() => b.query('SELECT 1'));
      assert.ok(other < 500, `another session's statement took ${other} ms`);
      await sleeping;
    } finally {
      await a.end();
      await b.end();
    }
  });

  void it('ends a sleep with 57014 on a cancel request, failing its transaction block', async () => {
    const c = await client(port());
    try {
      const start = performance.now();
      // The expectation is attached at once: the statement fails before the cancel's connection closes.
      const sleeping = assert.rejects(c.query('SELECT pg_sleep(30)'), { code: '57014', message: 'canceling statement due to user request' });
      await new Promise((resolve) => setTimeout(resolve, 200));
      await cancel(port(), c);
      await sleeping;
      assert.ok(performance.now() - start < 5000);
      await c.query('BEGIN');
      const inBlock = assert.rejects(c.query('SELECT pg_sleep(1e300)'), { code: '57014' });
      await new Promise((resolve) => setTimeout(resolve, 200));
      await cancel(port(), c);
      await inBlock;
      await assert.rejects(c.query('SELECT 1'), { code: '25P02' });
      await c.query('ROLLBACK');
      assert.deepEqual((await c.query({ text: 'SELECT 1', rowMode: 'array' })).rows, [[1]]);
    } finally {
      await c.end();
    }
  });

  void it('returns void: a column of type oid 2278 whose value is empty, not NULL, in text and binary', async () => {
    const c = await client(port());
    try {
      const text = await c.query({ text: "SELECT pg_sleep(0), pg_sleep_for('0 s'), pg_sleep_until(now()), pg_sleep(NULL)", rowMode: 'array' });
      assert.deepEqual(text.fields.map((f) => f.dataTypeID), [2278, 2278, 2278, 2278]);
      assert.deepEqual(text.rows, [['', '', '', null]]);
      const locks = await c.query({ text: 'SELECT pg_advisory_lock(1), pg_advisory_unlock(1), pg_advisory_unlock_all()', rowMode: 'array' });
      assert.deepEqual(locks.fields.map((f) => f.dataTypeID), [2278, 16, 2278]);
      assert.deepEqual(locks.rows, [['', true, '']]);
      assert.deepEqual((await c.query({ text: "SELECT typname, typtype FROM pg_type WHERE oid = 2278", rowMode: 'array' })).rows, [['void', 'p']]);
      // No table has a column of a pseudo-type (PostgreSQL's CheckAttributeType).
      await assert.rejects(c.query('CREATE TABLE sleep_void AS SELECT pg_sleep(0)'), { code: '42P16', message: 'column "pg_sleep" has pseudo-type void' });
    } finally {
      await c.end();
    }
  });

  void it('sends void in binary as no bytes (void_send), not NULL', async () => {
    const trusting = await startTestGateway({ users: 'trust' });
    const c = await RawClient.connect(trusting.port);
    try {
      c.send(
        serialize.parse({ text: 'SELECT pg_sleep($1), pg_sleep(NULL)', types: [701] }),
        serialize.bind({ values: ['0'], binary: true }),
        serialize.describe({ type: 'P' }),
        serialize.execute(),
        serialize.sync(),
      );
      const ms = await c.untilReady();
      assert.equal(types(ms), '12TDCZ');
      assert.deepEqual(rowDescription(ms[2]!.body).map((f) => [f.typeOid, f.format]), [[2278, 1], [2278, 1]]);
      assert.deepEqual(dataRow(ms[3]!.body), [Buffer.alloc(0), null]);
    } finally {
      c.end();
      await trusting.close();
    }
  });

  void it('refuses pg_sleep in a statement that writes', async () => {
    const c = await client(port());
    try {
      await c.query('CREATE TABLE sleep_t (a int)');
      await assert.rejects(c.query('INSERT INTO sleep_t SELECT 1 FROM (SELECT pg_sleep(0)) s'), { code: '0A000' });
    } finally {
      await c.end();
    }
  });
});
