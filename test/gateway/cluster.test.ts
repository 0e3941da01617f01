/**
 * Real PostgreSQL clients against the gateway over a real cluster (issue 5): six replica processes over
 * gRPC and, in this process, the gateway with ClusterBackend (client/gateway/cluster-gateway.ts) as the
 * local client identity. psql runs a script (DDL, INSERT, point reads, UPDATE by key, COMMIT, ROLLBACK),
 * the `pg` driver sends unnamed and named parameterised statements and sees 40001 for a lost race, and
 * pgbench runs a TPC-B-like custom script in the simple, extended and prepared protocols with several
 * clients: every error other than a retried 40001 fails the test, and the balances it leaves must add up.
 * Bulk loads (docs/decisions/0012): unmodified `pgbench -i` (scale 1, several minutes on a loaded
 * machine) and its built-in tpcb-like run, and atomicity: a rolled-back or failed load leaves nothing,
 * a concurrent reader sees all of a load or none, writers racing ADD PRIMARY KEY or TRUNCATE stay
 * serializable.
 * psql's \dt, \d table and \copy ... to stdout read the replicated catalog and the rows; psql's cursors
 * and PREPARE/EXECUTE and binary COPY (testdata/cursors.sql, prepare.sql, copy-binary.*: PostgreSQL 15's output) and the drivers' checks (drivers/: psycopg2, psycopg 3, pgjdbc) and knex's migrations run too.
 * Mutated conversations (fuzz-tools.ts) through a second gateway over the same cluster client leave
 * every replica running and the rows no statement of theirs writes intact.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { ClusterBackend } from '../../client/gateway/cluster-backend.ts';
import { startGateway } from '../../client/gateway/gateway-server.ts';
import { DRIVERS, binaryCopySession, psqlScript, runDriverChecks, scriptOutput } from './client-scripts.ts';
import { fuzzGateway } from './fuzz-tools.ts';
import { DATABASE, PASSWORD, USER, clusterGatewayForSuite, withPg } from './gateway-fixture.ts';
import { knexScenario } from './knex-scenario.ts';

const BASE_PORT = 7600;
const BIN = '/usr/lib/postgresql/15/bin';

let port = 0;
const dir = mkdtempSync(join(tmpdir(), 'pesto-gw-cluster-'));

function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

function run(tool: string, args: readonly string[], timeoutMs = 300_000): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(join(BIN, tool), ['-h', '127.0.0.1', '-p', String(port), '-U', USER, ...args], {
      env: { ...process.env, PGPASSWORD: PASSWORD, PGSSLMODE: 'disable', PGCONNECT_TIMEOUT: '10' },
      timeout: timeoutMs,
    }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

const psql = (...args: string[]): ReturnType<typeof run> => run('psql', ['-X', '-v', 'ON_ERROR_STOP=1', '-At', '-d', DATABASE, ...args]);

async function psqlOk(...args: string[]): Promise<string> {
  const r = await psql(...args);
  assert.equal(r.code, 0, `psql ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

function withClient<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  return withPg(port, fn);
}

async function sqlState(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return (e as { code?: string }).code ?? 'no code';
  }
  return 'no error';
}

void describe('the gateway over a real cluster', () => {
  const suite = clusterGatewayForSuite('gateway', BASE_PORT);
  before(() => {
    port = suite.port();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  void it('runs a psql -f script: DDL, INSERT, point SELECT, UPDATE by key, COMMIT, and a ROLLBACK that leaves nothing', async () => {
    const script = file('accounts.sql', `
CREATE TABLE acct (id INT PRIMARY KEY, owner TEXT NOT NULL, balance NUMERIC(12,2));
INSERT INTO acct VALUES (1, 'ann', 100.00), (2, 'bob', 50.50);
SELECT owner, balance FROM acct WHERE id = 1;
UPDATE acct SET balance = balance + 1 WHERE id = 2;
BEGIN;
UPDATE acct SET balance = balance - 10 WHERE id = 1;
UPDATE acct SET balance = balance + 10 WHERE id = 2;
SELECT balance FROM acct WHERE id = 1;
COMMIT;
BEGIN;
INSERT INTO acct VALUES (3, 'cy', 7);
UPDATE acct SET balance = 0 WHERE id = 1;
SELECT owner, balance FROM acct WHERE id = 3;
ROLLBACK;
SELECT id, owner, balance FROM acct WHERE id = 1;
SELECT id, owner, balance FROM acct WHERE id = 2;
SELECT count(*) FROM acct WHERE id = 3;
`);
    assert.equal(
      await psqlOk('-f', script),
      [
        'CREATE TABLE', 'INSERT 0 2', 'ann|100.00', 'UPDATE 1',
        'BEGIN', 'UPDATE 1', 'UPDATE 1', '90.00', 'COMMIT',
        'BEGIN', 'INSERT 0 1', 'UPDATE 1', 'cy|7.00', 'ROLLBACK',
        '1|ann|90.00', '2|bob|61.50', '0', '',
      ].join('\n'),
    );
    // ON_ERROR_STOP: the first error (a duplicate key, a NOT NULL violation) ends the script with its SQLSTATE message.
    const bad = await psql('-f', file('bad.sql', "INSERT INTO acct VALUES (1, 'again', 0);\nSELECT 1;\n"));
    assert.equal(bad.code, 3);
    assert.equal(bad.stdout, '');
    assert.match(bad.stderr, /duplicate key value violates unique constraint/);
    const nul = await psql('-c', 'INSERT INTO acct VALUES (4, NULL, 0)');
    assert.notEqual(nul.code, 0);
    assert.match(nul.stderr, /null value in column "owner"/);
    assert.equal(await psqlOk('-c', 'SELECT count(*) FROM acct WHERE id = 4'), '0\n');
  });

  void it('serves the pg driver: unnamed and named parameterised statements, transactions, SQLSTATEs, 40001 for a lost race', async () => {
    await withClient(async (c) => {
      await c.query('CREATE TABLE kv (k INT PRIMARY KEY, v TEXT, n BIGINT)');
      // Unnamed statements (Parse/Bind/Execute with text parameters).
      const ins = await c.query('INSERT INTO kv VALUES ($1, $2, $3), ($4, $5, $6)', [1, 'one', 10, 2, 'two', 20]);
      assert.equal(ins.rowCount, 2);
      const one = await c.query('SELECT v, n FROM kv WHERE k = $1', [1]);
      assert.deepEqual(one.rows, [{ v: 'one', n: '10' }]);
      assert.equal((await c.query('UPDATE kv SET n = n + $1 WHERE k = $2', [5, 2])).rowCount, 1);
      // Named statements: parsed once, bound and executed many times.
      const get = { name: 'get-kv', text: 'SELECT v, n FROM kv WHERE k = $1' };
      const put = { name: 'put-kv', text: 'INSERT INTO kv (k, v, n) VALUES ($1, $2, $3)' };
      for (let k = 10; k < 15; k++) await c.query({ ...put, values: [k, `v${k}`, k * 100] });
      for (let k = 10; k < 15; k++) assert.deepEqual((await c.query({ ...get, values: [k] })).rows, [{ v: `v${k}`, n: String(k * 100) }]);
      assert.deepEqual((await c.query({ ...get, values: [2] })).rows, [{ v: 'two', n: '25' }]);
      assert.equal((await c.query({ ...get, values: [99] })).rowCount, 0);
      // A transaction sees its own writes; ROLLBACK forgets them.
      await c.query('BEGIN');
      await c.query({ ...put, values: [20, 'tx', 1] });
      assert.equal((await c.query({ ...get, values: [20] })).rowCount, 1);
      await c.query('ROLLBACK');
      assert.equal((await c.query({ ...get, values: [20] })).rowCount, 0);
      // Errors carry PostgreSQL's SQLSTATEs and fail the transaction until ROLLBACK.
      assert.equal(await sqlState(c.query({ ...put, values: [1, 'dup', 0] })), '23505');
      assert.equal(await sqlState(c.query('SELECT nope FROM kv WHERE k = $1', [1])), '42703');
      await c.query('BEGIN');
      assert.equal(await sqlState(c.query({ ...put, values: [2, 'dup', 0] })), '23505');
      assert.equal(await sqlState(c.query({ ...get, values: [1] })), '25P02');
      await c.query('ROLLBACK');
    });
    // Two sessions read and write the same row; the one that commits second cannot commit (40001).
    await withClient(async (a) =>
      withClient(async (b) => {
        await a.query('BEGIN');
        await b.query('BEGIN');
        const va = Number((await a.query('SELECT n FROM kv WHERE k = $1', [1])).rows[0].n);
        const vb = Number((await b.query('SELECT n FROM kv WHERE k = $1', [1])).rows[0].n);
        await a.query('UPDATE kv SET n = $1 WHERE k = $2', [va + 1, 1]);
        await b.query('UPDATE kv SET n = $1 WHERE k = $2', [vb + 1, 1]);
        const outcomes = [await sqlState(a.query('COMMIT')), await sqlState(b.query('COMMIT'))];
        assert.ok(outcomes.includes('40001'), `both committed a read-modify-write of one row: ${outcomes.join(', ')}`);
        const after = await a.query('SELECT n FROM kv WHERE k = $1', [1]);
        assert.equal(Number(after.rows[0].n), 11, 'exactly one increment survived');
      }),
    );
  });

  void it('rolls back to savepoints through the pg driver: writes, an error, DDL; not rows loaded into a new table', async () => {
    await withClient(async (c) => {
      await c.query('CREATE TABLE spx (k INT PRIMARY KEY, v TEXT)');
      await c.query(`INSERT INTO spx VALUES (1, 'a')`);
      // An ORM's nested transaction: a failed inner block is rolled back and the outer one commits.
      await c.query('BEGIN');
      await c.query(`UPDATE spx SET v = 'outer' WHERE k = 1`);
      await c.query('SAVEPOINT inner_block');
      await c.query(`INSERT INTO spx VALUES (2, 'b')`);
      assert.equal(await sqlState(c.query(`INSERT INTO spx VALUES (1, 'dup')`)), '23505');
      assert.equal(await sqlState(c.query('SELECT 1')), '25P02');
      await c.query('ROLLBACK TO SAVEPOINT inner_block');
      assert.deepEqual((await c.query('SELECT k, v FROM spx WHERE k >= 0 ORDER BY k')).rows, [{ k: 1, v: 'outer' }]);
      await c.query(`INSERT INTO spx VALUES (3, 'c')`);
      await c.query('RELEASE SAVEPOINT inner_block');
      await c.query('COMMIT');
      assert.deepEqual((await c.query('SELECT k, v FROM spx WHERE k >= 0 ORDER BY k')).rows, [{ k: 1, v: 'outer' }, { k: 3, v: 'c' }]);
      // DDL after a savepoint goes with it: the table and the column are gone, the commit keeps the rest.
      await c.query('BEGIN');
      await c.query('SAVEPOINT d');
      await c.query('CREATE TABLE spx_new (k INT PRIMARY KEY)');
      await c.query('ALTER TABLE spx ADD COLUMN extra INT');
      await c.query(`INSERT INTO spx VALUES (4, 'd', 40)`);
      await c.query('ROLLBACK TO d');
      assert.equal(await sqlState(c.query('SELECT * FROM spx_new')), '42P01');
      await c.query('ROLLBACK TO d');
      await c.query(`INSERT INTO spx VALUES (5, 'e')`);
      await c.query('COMMIT');
      assert.equal(await sqlState(c.query('SELECT * FROM spx_new')), '42P01');
      assert.deepEqual((await c.query('SELECT * FROM spx WHERE k >= 0 ORDER BY k')).rows, [{ k: 1, v: 'outer' }, { k: 3, v: 'c' }, { k: 5, v: 'e' }]);
      // A unique-index probe fetched while an undone row was in the transaction is fetched again after it.
      await c.query('CREATE TABLE spu (k INT PRIMARY KEY, u TEXT UNIQUE)');
      await c.query('BEGIN');
      await c.query('SAVEPOINT a');
      await c.query(`INSERT INTO spu VALUES (1, 'x')`);
      assert.equal(await sqlState(c.query(`INSERT INTO spu VALUES (3, 'x')`)), '23505');
      await c.query('ROLLBACK TO a');
      await c.query(`INSERT INTO spu VALUES (3, 'x')`);
      await c.query('COMMIT');
      assert.deepEqual((await c.query('SELECT k, u FROM spu WHERE k >= 0')).rows, [{ k: 3, u: 'x' }]);
      // Rows written into a table created in the transaction leave in load batches: no savepoint undoes them.
      await c.query('BEGIN');
      await c.query('CREATE TABLE spx_load (k INT PRIMARY KEY)');
      await c.query('SAVEPOINT l');
      await c.query('INSERT INTO spx_load VALUES (1), (2)');
      assert.equal(await sqlState(c.query('ROLLBACK TO l')), '0A000');
      await c.query('ROLLBACK');
      assert.equal(await sqlState(c.query('SELECT * FROM spx_load')), '42P01');
    });
  });

  void it('loads 1,200 rows with \\copy into a table without a primary key in one transaction, and again', async () => {
    // Hidden row ids: a counter that wrapped after 1024 rows of one transaction made the 1025th a duplicate key.
    await psqlOk('-c', 'CREATE TABLE events (kind TEXT, n INT)');
    const rows = Array.from({ length: 1200 }, (_, i) => `k${i % 7}\t${i}\n`).join('');
    const data = file('events.txt', rows);
    assert.equal(await psqlOk('-c', `\\copy events from '${data}'`), 'COPY 1200\n');
    assert.equal(await psqlOk('-c', `\\copy events from '${data}'`), 'COPY 1200\n');
    assert.equal(await psqlOk('-c', 'SELECT count(*), sum(n), count(DISTINCT kind) FROM events'), `2400|${2 * ((1199 * 1200) / 2)}|7\n`);
  });

  void it('pgbench -i (scale 1, unmodified: 100,000 accounts in one transaction, then ADD PRIMARY KEY), then the built-in tpcb-like script: no failures, balances add up', async () => {
    const init = await run('pgbench', ['-i', '-s', '1', DATABASE], 1_800_000);
    assert.equal(init.code, 0, init.stderr);
    assert.match(init.stderr, /creating primary keys\.\.\.\ndone in /);
    assert.equal(await psqlOk('-c', 'SELECT count(*), sum(bbalance) FROM pgbench_branches', '-c', 'SELECT count(*), sum(tbalance) FROM pgbench_tellers'), '1|0\n10|0\n');
    // One statement reads all 100,000 accounts: one transaction's read set (decision 0072).
    assert.equal(await psqlOk('-c', 'SELECT count(*), sum(abalance) FROM pgbench_accounts'), '100000|0\n');
    // ADD PRIMARY KEY took: aid is the key (a point read, and a duplicate is refused).
    assert.equal(await psqlOk('-c', 'SELECT bid, abalance FROM pgbench_accounts WHERE aid = 99999'), '1|0\n');
    assert.match((await psql('-c', "INSERT INTO pgbench_accounts VALUES (7, 1, 0, '')")).stderr, /duplicate key value violates unique constraint/);
    // Without -n pgbench first VACUUMs and TRUNCATEs pgbench_history (a fresh storage again).
    const b = await run('pgbench', ['-c', '2', '-j', '1', '-t', '10', '--max-tries=50', DATABASE]);
    assert.equal(b.code, 0, b.stderr + b.stdout);
    assert.match(b.stdout, /transaction type: <builtin: TPC-B \(sort of\)>/);
    assert.match(b.stdout, /number of failed transactions: 0 /, b.stdout);
    assert.match(b.stdout, /number of transactions actually processed: 20\/20/, b.stdout);
    assert.doesNotMatch(b.stderr.replace(/.*could not serialize access.*\n?/g, ''), /error|ERROR/, b.stderr);
    // Every committed transaction added one history row and moved one delta into the branch, a teller and an account.
    const sums = await psqlOk('-c', `SELECT (SELECT sum(bbalance) FROM pgbench_branches) = (SELECT sum(tbalance) FROM pgbench_tellers),
      (SELECT sum(tbalance) FROM pgbench_tellers) = (SELECT sum(delta) FROM pgbench_history), (SELECT count(*) FROM pgbench_history), (SELECT sum(delta) FROM pgbench_history)`);
    const [branchesTellers, tellersHistory, count, delta] = sums.trim().split('|');
    assert.deepEqual([branchesTellers, tellersHistory, count], ['t', 't', '20']);
    assert.equal(await psqlOk('-c', 'SELECT sum(abalance) FROM pgbench_accounts'), `${delta}\n`);
  });

  const BULK_ROWS = 12_000; // more than one load batch (load-batches.ts): the load leaves in several
  const bulkSum = (n: number): number => (n * (n + 1)) / 2;

  void it('a load in a transaction that rolls back, or fails part way, leaves the table as it was; its own later reads see it', async () => {
    await psqlOk('-c', 'CREATE TABLE bulk (id INT PRIMARY KEY, v INT NOT NULL)', '-c', 'INSERT INTO bulk VALUES (1, 10), (2, 20), (3, 30)');
    const lines = Array.from({ length: BULK_ROWS }, (_, i) => `${i + 1}\t${i + 1}\n`);
    const good = file('bulk.txt', lines.join(''));
    const bad = file('bulk-bad.txt', lines.map((l, i) => (i === 11_000 ? `${i + 1}\tx\n` : l)).join(''));
    const rolled = await psqlOk('-c', 'BEGIN', '-c', 'TRUNCATE bulk', '-c', `\\copy bulk from '${good}'`,
      '-c', 'SELECT count(*), sum(v) FROM bulk WHERE id <= 5000', '-c', 'SELECT v FROM bulk WHERE id = 11999', '-c', 'SELECT count(*) FROM bulk WHERE id = 1 AND v = 10', '-c', 'ROLLBACK');
    assert.equal(rolled, `BEGIN\nTRUNCATE TABLE\nCOPY ${BULK_ROWS}\n5000|${bulkSum(5000)}\n11999\n0\nROLLBACK\n`);
    const failed = await psql('-c', 'BEGIN', '-c', 'TRUNCATE bulk', '-c', `\\copy bulk from '${bad}'`, '-c', 'COMMIT');
    assert.notEqual(failed.code, 0);
    assert.match(failed.stderr, /invalid input syntax for type integer/);
    assert.equal(await psqlOk('-c', 'SELECT id, v FROM bulk WHERE id <= 5000 ORDER BY id', '-c', 'SELECT count(*) FROM bulk WHERE id > 5000'), '1|10\n2|20\n3|30\n0\n');
    // A COPY into a table the transaction did not create or truncate travels in its one ST1 (within
    // limits.txnKeysMax; past it 54000, large-transactions.test.ts).
    const others = file('bulk-others.txt', Array.from({ length: BULK_ROWS }, (_, i) => `${i + 101}\t0\n`).join(''));
    assert.equal(await psqlOk('-c', 'BEGIN', '-c', `\\copy bulk from '${others}'`, '-c', 'SELECT count(*) FROM bulk', '-c', 'ROLLBACK'), `BEGIN\nCOPY ${BULK_ROWS}\n${BULK_ROWS + 3}\nROLLBACK\n`);
  });

  void it('a concurrent reader sees a table before or after a load, never part of it', async () => {
    const before = `3|60`;
    const after = `5000|${bulkSum(5000)}`;
    const values = (from: number, to: number): string => Array.from({ length: to - from + 1 }, (_, i) => `(${from + i}, ${from + i})`).join(', ');
    await withClient(async (a) =>
      withClient(async (b) => {
        const seen = new Map<string, number>();
        let loading = true;
        const reader = (async (): Promise<void> => {
          while (loading) {
            try {
              const r = await b.query('SELECT count(*) AS n, sum(v) AS s FROM bulk WHERE id <= 5000');
              const k = `${r.rows[0].n}|${r.rows[0].s}`;
              seen.set(k, (seen.get(k) ?? 0) + 1);
            } catch (e) {
              if ((e as { code?: string }).code !== '40001') throw e;
            }
          }
        })();
        await a.query('BEGIN');
        await a.query('TRUNCATE bulk');
        for (let k = 0; k < BULK_ROWS / 1000; k++) await a.query(`INSERT INTO bulk VALUES ${values(k * 1000 + 1, k * 1000 + 1000)}`);
        await a.query('COMMIT');
        loading = false;
        await reader;
        const r = await b.query('SELECT count(*) AS n, sum(v) AS s FROM bulk WHERE id <= 5000');
        assert.equal(`${r.rows[0].n}|${r.rows[0].s}`, after);
        for (const k of seen.keys()) assert.ok(k === before || k === after, `a reader saw part of the load: ${k} (${JSON.stringify([...seen])})`);
        assert.ok(seen.size > 0);
      }),
    );
  });

  void it('ADD PRIMARY KEY and TRUNCATE with concurrent writers to the old storage end serializable', async (t) => {
    await psqlOk('-c', 'CREATE TABLE rekey (k INT, v INT)', '-c', `\\copy rekey from '${file('rekey.txt', Array.from({ length: 6000 }, (_, i) => `${i + 1}\t0\n`).join(''))}'`,
      '-c', 'CREATE TABLE trunc (id INT PRIMARY KEY)', '-c', 'CREATE TABLE ctr (id INT PRIMARY KEY, n INT NOT NULL)', '-c', 'INSERT INTO ctr VALUES (1, 0)');
    // Writer: inserts keys 10001..10008 into rekey while ADD PRIMARY KEY copies it (each insert commits
    // or fails with 40001); the ALTER is retried on 40001 as an application would.
    let inserted = 0;
    let altered = '';
    await withClient(async (a) =>
      withClient(async (w) => {
        const writer = (async (): Promise<void> => {
          for (let k = 10_001; k <= 10_008; k++) {
            const code = await sqlState(w.query('INSERT INTO rekey VALUES ($1, 1)', [k]));
            if (code === 'no error') inserted++;
            else assert.equal(code, '40001');
          }
        })();
        for (let attempt = 0; attempt < 5 && altered !== 'no error'; attempt++) altered = await sqlState(a.query('ALTER TABLE rekey ADD PRIMARY KEY (k)'));
        await writer;
      }),
    );
    assert.ok(altered === 'no error' || altered === '40001', altered);
    // Every committed insert is in the table, whichever side of the swap it was serialized on.
    assert.equal(await psqlOk('-c', 'SELECT count(*) FROM rekey WHERE k <= 5000', '-c', 'SELECT count(*), sum(v) FROM rekey WHERE k > 5000'), `5000\n${1000 + inserted}|${inserted}\n`);
    t.diagnostic(`ADD PRIMARY KEY: ${altered}, concurrent inserts committed: ${inserted}`);
    if (altered === 'no error') assert.match((await psql('-c', 'INSERT INTO rekey VALUES (1, 0)')).stderr, /duplicate key value/);
    // TRUNCATE: writers insert a row and count it in one transaction; the truncating transaction reads
    // the count. In a serial order the rows left are exactly those counted after the truncation.
    let counted = 0;
    let seenAtTruncate = -1;
    await withClient(async (a) =>
      withClient(async (w) => {
        const writer = (async (): Promise<void> => {
          for (let id = 1; id <= 6; id++) {
            await w.query('BEGIN');
            await w.query('INSERT INTO trunc VALUES ($1)', [id]);
            await w.query('UPDATE ctr SET n = n + 1 WHERE id = 1');
            const code = await sqlState(w.query('COMMIT'));
            if (code === 'no error') counted++;
            else assert.equal(code, '40001');
          }
        })();
        for (let attempt = 0; attempt < 10 && seenAtTruncate < 0; attempt++) {
          await a.query('BEGIN');
          const n = Number((await a.query('SELECT n FROM ctr WHERE id = 1')).rows[0].n);
          await a.query('TRUNCATE trunc');
          const code = await sqlState(a.query('COMMIT'));
          if (code === 'no error') seenAtTruncate = n;
          else assert.equal(code, '40001');
        }
        await writer;
      }),
    );
    const [left, total] = (await psqlOk('-c', 'SELECT count(*) FROM trunc', '-c', 'SELECT n FROM ctr WHERE id = 1')).trim().split('\n').map(Number);
    t.diagnostic(`TRUNCATE saw the count at ${seenAtTruncate} (-1: it aborted), ${counted} counted inserts committed, ${left} rows left`);
    assert.equal(total, counted);
    assert.equal(left, seenAtTruncate < 0 ? counted : counted - seenAtTruncate);
  });

  const TPCB = `\\set aid random(1, 50)
\\set tid random(1, 5)
\\set delta random(-500, 500)
BEGIN;
UPDATE acc SET bal = bal + :delta WHERE id = :aid;
SELECT bal FROM acc WHERE id = :aid;
UPDATE tel SET bal = bal + :delta WHERE id = :tid;
INSERT INTO hist (tid, aid, delta) VALUES (:tid, :aid, :delta);
END;
`;

  void it("answers psql's \\dt and \\d table, and \\copy ... to stdout in text and CSV", async () => {
    await psqlOk('-c', "CREATE TABLE descr (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL UNIQUE, note TEXT DEFAULT 'none')",
      '-c', "INSERT INTO descr VALUES (1, 'a', E'tab\\there'), (2, 'b', NULL), (3, 'c, d', 'say \"hi\"')");
    assert.equal(await psqlOk('-c', '\\dt descr*'), 'public|descr|table|pesto\n');
    // -At: the column rows only (what psql prints against PostgreSQL 15 for the same table).
    assert.equal(await psqlOk('-c', '\\d descr'), "id|integer||not null|\nname|character varying(20)||not null|\nnote|text|||'none'::text\n");
    const indexes = await psql('-c', '\\d descr', '-P', 'tuples_only=off');
    assert.match(indexes.stdout, /"descr_pkey" PRIMARY KEY, btree \(id\)\n\s+"descr_name_key" UNIQUE CONSTRAINT, btree \(name\)/);
    assert.equal(await psqlOk('-c', '\\copy descr to stdout'), '1\ta\ttab\\there\n2\tb\t\\N\n3\tc, d\tsay "hi"\n');
    assert.equal(await psqlOk('-c', '\\copy (SELECT id, name, note FROM descr WHERE id > 1 ORDER BY id DESC) to stdout with (format csv, header)'),
      'id,name,note\n3,"c, d","say ""hi"""\n2,b,\n');
  });

  void it('runs psql cursors (DECLARE, FETCH, MOVE, CLOSE, FETCH_COUNT), PREPARE/EXECUTE, binary COPY, system catalog queries and views (\\dv, \\d+ view) as PostgreSQL 15 does; current_user over a scan is the session user', async () => {
    const r = await psqlScript('cursors', port, USER, PASSWORD);
    assert.equal(r.stdout, scriptOutput('cursors').stdout);
    assert.equal(r.stderr, scriptOutput('cursors').stderr);
    assert.deepEqual(await psqlScript('prepare', port, USER, PASSWORD), scriptOutput('prepare'));
    const copied = await binaryCopySession(port, USER, PASSWORD);
    assert.deepEqual({ stdout: copied.stdout, stderr: copied.stderr }, scriptOutput('copy-binary'));
    assert.ok(copied.out.equals(readFileSync(join(import.meta.dirname, 'testdata', 'copy-binary.bin'))), 'binary COPY TO is PostgreSQL 15 byte for byte');
    const c = await psqlScript('system-catalog', port, USER, PASSWORD);
    assert.deepEqual(c, scriptOutput('system-catalog'));
    assert.deepEqual(await psqlScript('views', port, USER, PASSWORD), scriptOutput('views'));
    // A scan with a function only the client answers runs at the client (replicas refuse it).
    await psqlOk('-c', 'CREATE TABLE whoami (id INT PRIMARY KEY, v TEXT)', '-c', "INSERT INTO whoami VALUES (1, 'a'), (2, 'b')");
    assert.equal(await psqlOk('-c', "SELECT current_user, current_database(), v FROM whoami WHERE v > '' ORDER BY id"), 'pesto|pesto|a\npesto|pesto|b\n');
    assert.equal(await psqlOk('-c', "UPDATE whoami SET v = session_user WHERE v > 'a' RETURNING id, v"), '2|pesto\nUPDATE 1\n');
    // The system catalog shows the transaction's tables: a DROP rolled back leaves the table listed.
    const listed = "SELECT count(*) FROM information_schema.tables WHERE table_name = 'whoami'";
    assert.equal(await psqlOk('-c', 'BEGIN', '-c', 'DROP TABLE whoami', '-c', listed, '-c', 'ROLLBACK', '-c', listed), 'BEGIN\nDROP TABLE\n0\nROLLBACK\n1\n');
  });

  void it('knex migrates up, queries, and rolls every migration back (DROP COLUMN, DROP TABLE)', async () => {
    await knexScenario(port, USER, PASSWORD, DATABASE);
  });

  for (const driver of ['psycopg2', 'psycopg3', 'pgjdbc'] as const) {
    void it(`${driver} runs its checks (drivers/) over the cluster`, { skip: DRIVERS[driver].skip }, async () => {
      const r = await runDriverChecks(driver, port, USER, PASSWORD, `${driver}_checks`);
      assert.equal(r.code, 0, r.output);
      assert.match(r.output, /^ok \d+ checks$/m);
    });
  }

  void it('runs a TPC-B-like pgbench script with -M simple, extended and prepared: no failures, balances add up', async () => {
    const rows = (n: number): string => Array.from({ length: n }, (_, i) => `(${i + 1}, 0)`).join(', ');
    await psqlOk('-c', 'CREATE TABLE acc (id INT PRIMARY KEY, bal INT NOT NULL)', '-c', 'CREATE TABLE tel (id INT PRIMARY KEY, bal INT NOT NULL)',
      '-c', 'CREATE TABLE hist (tid INT, aid INT, delta INT)', '-c', `INSERT INTO acc VALUES ${rows(50)}`, '-c', `INSERT INTO tel VALUES ${rows(5)}`);
    const script = file('tpcb.sql', TPCB);
    let total = 0;
    for (const mode of ['simple', 'extended', 'prepared'] as const) {
      const b = await run('pgbench', ['-n', '-f', script, '-M', mode, '-c', '2', '-j', '1', '-t', '8', '--max-tries=50', DATABASE]);
      assert.equal(b.code, 0, `-M ${mode}: ${b.stderr}${b.stdout}`);
      assert.match(b.stdout, /number of transactions actually processed: 16\/16/, `-M ${mode}: ${b.stdout}`);
      assert.match(b.stdout, /number of failed transactions: 0 /, `-M ${mode}: ${b.stdout}`);
      // pgbench prints every error it did not retry; only serialization failures may be retried.
      assert.doesNotMatch(b.stderr.replace(/.*could not serialize access.*\n?/g, ''), /error|ERROR/, `-M ${mode}: ${b.stderr}`);
      total += 16;
      // Conservation: every committed transaction moved the same delta into an account, a teller and the history.
      const sums = await psqlOk('-c', 'SELECT (SELECT sum(bal) FROM acc) = (SELECT sum(bal) FROM tel), (SELECT sum(delta) FROM hist) = (SELECT sum(bal) FROM tel), (SELECT count(*) FROM hist)');
      assert.equal(sums, `t|t|${total}\n`, `-M ${mode}`);
    }
  });

  void it('answers mutated conversations over the cluster in whole messages, closes each, and keeps every replica and row', async () => {
    const seed = Number(process.env['PESTO_FUZZ_SEED'] ?? Date.now() % 2 ** 31);
    const cases = Number(process.env['PESTO_FUZZ_CLUSTER_CASES'] ?? 150);
    await psqlOk('-c', 'CREATE TABLE keep (id INT PRIMARY KEY, v INT NOT NULL)', '-c', 'CREATE TABLE scratch (id INT PRIMARY KEY, t TEXT)',
      '-c', 'INSERT INTO keep VALUES (0, 0), (1, 10), (2, 20)');
    // A second gateway over the same cluster client, trusting: the conversations need no SCRAM exchange.
    const trusting = await startGateway({ port: 0, backend: new ClusterBackend(suite.gateway().sql, { databases: [DATABASE] }), users: 'trust', maxMessageBytes: 256 * 1024 });
    try {
      const outcomes = await fuzzGateway(trusting.port, cases, seed);
      assert.ok((outcomes.get('served') ?? 0) > 0, `seed ${seed}: outcomes ${JSON.stringify([...outcomes])}`);
    } finally {
      await trusting.close();
    }
    for (const i of suite.cluster().indexes) assert.ok(suite.cluster().cluster.isRunning(0, i), `seed ${seed}: replica ${i} stopped`);
    assert.equal(await psqlOk('-c', 'SELECT id, v FROM keep ORDER BY id'), '0|0\n1|10\n2|20\n', `seed ${seed}`);
  });

  void it('runs the TPC-B-like script in pgbench pipeline mode (statements sent together, replies at the Sync): no failures, balances add up', async () => {
    const rows = (n: number): string => Array.from({ length: n }, (_, i) => `(${i + 1}, 0)`).join(', ');
    await psqlOk('-c', 'CREATE TABLE pacc (id INT PRIMARY KEY, bal INT NOT NULL)', '-c', 'CREATE TABLE ptel (id INT PRIMARY KEY, bal INT NOT NULL)',
      '-c', 'CREATE TABLE phist (tid INT, aid INT, delta INT)', '-c', `INSERT INTO pacc VALUES ${rows(50)}`, '-c', `INSERT INTO ptel VALUES ${rows(5)}`);
    const body = TPCB.replace(/\bacc\b/g, 'pacc').replace(/\btel\b/g, 'ptel').replace(/\bhist\b/g, 'phist').replace('BEGIN;', '\\startpipeline\nBEGIN;').replace('END;', 'END;\n\\endpipeline');
    const script = file('tpcb-pipeline.sql', body);
    const b = await run('pgbench', ['-n', '-f', script, '-M', 'prepared', '-c', '2', '-j', '1', '-t', '8', '--max-tries=50', DATABASE]);
    assert.equal(b.code, 0, `${b.stderr}${b.stdout}`);
    assert.match(b.stdout, /number of transactions actually processed: 16\/16/, b.stdout);
    assert.match(b.stdout, /number of failed transactions: 0 /, b.stdout);
    assert.doesNotMatch(b.stderr.replace(/.*could not serialize access.*\n?/g, ''), /error|ERROR/, b.stderr);
    const sums = await psqlOk('-c', 'SELECT (SELECT sum(bal) FROM pacc) = (SELECT sum(bal) FROM ptel), (SELECT sum(delta) FROM phist) = (SELECT sum(bal) FROM ptel), (SELECT count(*) FROM phist)');
    assert.equal(sums, 't|t|16\n');
  });
});
