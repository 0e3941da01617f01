/**
 * Transactions at the cluster's limits (decision 0072), through the gateway over six replica processes
 * configured small (limits.txnKeysMax 3,000 rows, limits.messageBytesMax 256 KiB): whatever fits one
 * message runs, however many statements read it; the statement that would take a transaction past the
 * limits fails with 54000, the transaction is then failed as after any error, and nothing hangs. Before,
 * reads of several statements added up unchecked and the COMMIT was resent for ever.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type pg from 'pg';
import { clusterGatewayForSuite, queryFailure, withPg } from './gateway-fixture.ts';

const BASE_PORT = 9400;
/** The suite on a cluster of default limits. */
const DEFAULT_LIMITS_PORT = 9440;
const KEYS_MAX = 3000;


const count = async (c: pg.Client, sql: string): Promise<number> => Number((await c.query(sql)).rows[0].n);

void describe('transactions at the limits of one message (limits.txnKeysMax 3,000, limits.messageBytesMax 256 KiB)', () => {
  const { port } = clusterGatewayForSuite('gw-large-txn', BASE_PORT, { limits: { txnKeysMax: KEYS_MAX, messageBytesMax: 256 << 10 } });

  void it('loads, reads and counts what fits; a statement past the row or byte limits fails with 54000 and leaves the rows as they were', async () => {
    await withPg(port(), async (c) => {
      // A table created in the same transaction loads in batches (decision 0012): more rows than one message holds.
      await c.query('BEGIN');
      await c.query('CREATE TABLE big (id INT PRIMARY KEY, v INT NOT NULL)');
      await c.query('INSERT INTO big SELECT g, g % 7 FROM generate_series(1, 3500) g');
      await c.query('COMMIT');
      await c.query('CREATE TABLE small (id INT PRIMARY KEY, pad TEXT NOT NULL)');
      await c.query("INSERT INTO small SELECT g, repeat('p', 1000) FROM generate_series(1, 100) g");

      // One statement over more rows than a transaction may read: the replicas refuse it alike.
      const whole = await queryFailure(c, 'SELECT count(*) AS n FROM big');
      assert.equal(whole.code, '54000');
      assert.match(whole.message, /query reads 3501 rows; a transaction reads at most 3000/);
      assert.equal(await count(c, 'SELECT count(*) AS n FROM big WHERE id <= 2900'), 2900);

      // Statements of one transaction that read the same rows again: each row counts once.
      await c.query('BEGIN');
      assert.equal(await count(c, 'SELECT count(*) AS n FROM big WHERE id <= 2000'), 2000);
      assert.equal(await count(c, 'SELECT count(*) AS n FROM big WHERE id > 1000 AND id <= 2500'), 1500);
      assert.equal(await count(c, 'SELECT count(*) AS n FROM big WHERE id <= 2500'), 2500);
      // Reading 1,000 more rows would make 3,500: the statement fails, and so does the transaction.
      const reads = await queryFailure(c, 'SELECT count(*) AS n FROM big WHERE id > 2500');
      assert.equal(reads.code, '54000');
      assert.match(reads.message, /^transaction too large for the cluster: it reads more than 3000 rows \(limits\.txnKeysMax\)$/);
      assert.equal((await queryFailure(c, 'SELECT 1')).code, '25P02');
      await c.query('ROLLBACK');

      // Reads and writes share the message: 150 KB of writes leave no room for 2,000 reads.
      await c.query('BEGIN');
      await c.query("UPDATE small SET pad = repeat('q', 1500) WHERE id <= 100");
      const bytes = await queryFailure(c, 'SELECT count(*) AS n FROM big WHERE id <= 2000');
      assert.equal(bytes.code, '54000');
      assert.match(bytes.message, /^transaction too large for the cluster: its reads and writes take about \d+ KiB \(\d+ KiB of reads; the cluster takes at most 192 KiB per transaction: limits\.messageBytesMax\)$/);
      await c.query('ROLLBACK');
      // The same in the other order: the write that crosses the line fails.
      await c.query('BEGIN');
      assert.equal(await count(c, 'SELECT count(*) AS n FROM big WHERE id <= 2000'), 2000);
      const writes = await queryFailure(c, "UPDATE small SET pad = repeat('q', 1500) WHERE id <= 100");
      assert.equal(writes.code, '54000');
      assert.match(writes.message, /its reads and writes take about/);
      await c.query('ROLLBACK');

      // More written rows than a transaction holds, into a table it did not create: 54000 at once. (A table
      // without a primary key: its inserts are blind, no reads count against the bytes first.)
      await c.query('CREATE TABLE log (v INT)');
      const many = await queryFailure(c, 'INSERT INTO log SELECT g FROM generate_series(1, 3001) g');
      assert.equal(many.code, '54000');
      assert.match(many.message, /it writes more than 3000 rows \(limits\.txnKeysMax\)/);

      // Nothing of the failed transactions landed, and the cluster takes the next transaction as usual.
      assert.equal(await count(c, "SELECT count(*) AS n FROM small WHERE pad = repeat('p', 1000)"), 100);
      assert.equal(await count(c, 'SELECT count(*) AS n FROM big WHERE id > 3000'), 500);
      assert.equal(await count(c, 'SELECT count(*) AS n FROM log'), 0);
      await c.query('BEGIN');
      await c.query('UPDATE big SET v = v + 1 WHERE id <= 1000');
      assert.equal(await count(c, 'SELECT count(*) AS n FROM big WHERE id > 1000 AND id <= 2900'), 1900);
      await c.query('COMMIT');
      assert.equal(await count(c, 'SELECT sum(v) AS n FROM big WHERE id <= 1000'), 1000 + Array.from({ length: 1000 }, (_, i) => (i + 1) % 7).reduce((a, b) => a + b, 0));
    });
  });
});

void describe('rows and keys at the default limits (values up to a transaction body, keys up to 4 KiB)', () => {
  const { port } = clusterGatewayForSuite('gw-large-values', DEFAULT_LIMITS_PORT);

  void it('a 3 MB value is written and read back; a primary key too long for the cluster fails with 54000 and reads as absent, nothing hangs', async () => {
    await withPg(port(), async (c) => {
      await c.query('CREATE TABLE docs (id TEXT PRIMARY KEY, body BYTEA NOT NULL)');
      // Values were refused undecoded past 1 MiB, and the commit was resent for ever.
      const body = Buffer.alloc(3 << 20, 7);
      await c.query('INSERT INTO docs VALUES ($1, $2)', ['big', body]);
      const back = await c.query('SELECT length(body) AS n, body FROM docs WHERE id = $1', ['big']);
      assert.equal(Number(back.rows[0].n), 3 << 20);
      assert.ok(Buffer.compare(back.rows[0].body as Buffer, body) === 0);
      const long = 'k'.repeat(5000);
      const failed = await queryFailure(c, `INSERT INTO docs VALUES ('${long}', '\\x00')`);
      assert.equal(failed.code, '54000');
      assert.match(failed.message, /^transaction too large for the cluster: it writes a key of \d+ bytes \(at most 4096/);
      // No row can have that key: a point read of it finds none without asking the replicas.
      assert.equal((await c.query('SELECT count(*) AS n FROM docs WHERE id = $1', [long])).rows[0].n, '0');
      await c.query('BEGIN');
      assert.equal((await c.query('SELECT id FROM docs WHERE id = $1', [long])).rowCount, 0);
      await c.query("UPDATE docs SET body = '\\x01' WHERE id = 'big'");
      await c.query('COMMIT');
      assert.equal((await c.query("SELECT length(body) AS n FROM docs WHERE id = 'big'")).rows[0].n, 1);
      // A statement the replicas would refuse undecoded (over 1 MiB of SQL text): 54000 at once.
      const list = Array.from({ length: 120_000 }, (_, i) => `'id${i}'`).join(',');
      const text = await queryFailure(c, `SELECT count(*) AS n FROM docs WHERE id IN (${list})`);
      assert.equal(text.code, '54000');
      assert.match(text.message, /^transaction too large for the cluster: a statement of \d+ characters \(at most 1048576\)$/);
      assert.equal((await c.query('SELECT count(*) AS n FROM docs')).rows[0].n, '1');
    });
  });
});
