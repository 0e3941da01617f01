/**
 * Real PostgreSQL 15 tools against the gateway: psql scripts (-f with ON_ERROR_STOP, -c, \copy) and
 * pgbench (a custom TPC-B-like script in simple, extended and prepared modes; `pgbench -i` through COPY
 * then the built-in tpcb-like run), each bounded by a transaction count, never by time. Results are
 * checked by the data they leave behind (balances conserved), not by timings.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATABASE, PASSWORD, USER, startTestGateway } from './gateway-fixture.ts';

const BIN = '/usr/lib/postgresql/15/bin';

function run(tool: string, args: string[], port: number): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(join(BIN, tool), ['-h', '127.0.0.1', '-p', String(port), '-U', USER, ...args], {
      env: { ...process.env, PGPASSWORD: PASSWORD, PGSSLMODE: 'prefer', PGCONNECT_TIMEOUT: '10' },
      // Generous: a loaded 2-core machine made `pgbench -i -s 1` take over two minutes once.
      timeout: 600_000,
    }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1;
      resolve({ code, stdout, stderr: err?.killed === true ? `${stderr}\n(${tool} killed after the test's timeout)` : stderr });
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'pesto-gw-'));
const file = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

const psql = (port: number, ...args: string[]): ReturnType<typeof run> => run('psql', ['-X', '-v', 'ON_ERROR_STOP=1', '-At', '-d', DATABASE, ...args], port);

void test('runs a psql -f script with ON_ERROR_STOP and stops at the first error', async () => {
  const gw = await startTestGateway();
  try {
    const script = file('ok.sql', `
CREATE TABLE acct (id INT PRIMARY KEY, owner TEXT, balance NUMERIC(12,2));
INSERT INTO acct VALUES (1, 'ann', 100.00), (2, 'bob', 50.50);
BEGIN;
UPDATE acct SET balance = balance - 10 WHERE id = 1;
UPDATE acct SET balance = balance + 10 WHERE id = 2;
COMMIT;
SET application_name = 'psql-test';
SHOW application_name;
SELECT owner, balance FROM acct ORDER BY id;
SELECT sum(balance) FROM acct;
`);
    const ok = await psql(gw.port, '-f', script);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.stdout, 'CREATE TABLE\nINSERT 0 2\nBEGIN\nUPDATE 1\nUPDATE 1\nCOMMIT\nSET\npsql-test\nann|90.00\nbob|60.50\n150.50\n');
    const bad = file('bad.sql', `SELECT 1;\nSELECT * FROM missing;\nSELECT 2;\n`);
    const failed = await psql(gw.port, '-f', bad);
    assert.equal(failed.code, 3);
    assert.equal(failed.stdout, '1\n');
    assert.match(failed.stderr, /relation "missing" does not exist/);
  } finally {
    await gw.close();
  }
});

void test('runs psql -c commands and loads a file with \\copy in text and CSV formats', async () => {
  const gw = await startTestGateway();
  try {
    const r = await psql(gw.port, '-c', 'CREATE TABLE c (id INT PRIMARY KEY, name TEXT, d DATE)', '-c', 'SELECT version()');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^CREATE TABLE\nPostgreSQL 15/);
    const text = file('c.txt', '1\tone\t2024-01-01\n2\t\\N\t\\N\n');
    const csv = file('c.csv', 'id,name,d\n3,"three, quoted",2024-03-03\n4,,\n');
    const load = await psql(gw.port, '-c', `\\copy c from '${text}'`, '-c', `\\copy c from '${csv}' with (format csv, header true)`, '-c', 'SELECT id, name, d FROM c ORDER BY id');
    assert.equal(load.code, 0, load.stderr);
    assert.equal(load.stdout, 'COPY 2\nCOPY 2\n1|one|2024-01-01\n2||\n3|three, quoted|2024-03-03\n4||\n');
  } finally {
    await gw.close();
  }
});

void test('a \\copy with a bad value fails with PostgreSQL 15\'s message and CONTEXT (line and column), and loads nothing', async () => {
  const gw = await startTestGateway();
  try {
    const bad = file('bad.csv', 'id,name,d\n1,one,2024-01-01\nabc,two,2024-01-02\n');
    const r = await psql(gw.port, '-c', 'CREATE TABLE cb (id INT PRIMARY KEY, name TEXT, d DATE)', '-c', `\\copy cb from '${bad}' with (format csv, header true)`);
    assert.notEqual(r.code, 0);
    // What psql prints against PostgreSQL 15 for the same file (the header is line 1).
    assert.equal(r.stderr, 'ERROR:  invalid input syntax for type integer: "abc"\nCONTEXT:  COPY cb, line 3, column id: "abc"\n');
    const after = await psql(gw.port, '-c', 'SELECT count(*) FROM cb');
    assert.equal(after.stdout, '0\n');
  } finally {
    await gw.close();
  }
});

const TPCB = `\\set aid random(1, 100)
\\set tid random(1, 10)
\\set delta random(-500, 500)
BEGIN;
UPDATE acc SET bal = bal + :delta WHERE id = :aid;
SELECT bal FROM acc WHERE id = :aid;
UPDATE tel SET bal = bal + :delta WHERE id = :tid;
INSERT INTO hist (tid, aid, delta) VALUES (:tid, :aid, :delta);
END;
`;

for (const mode of ['simple', 'extended', 'prepared'] as const) {
  void test(`runs a custom pgbench script with -M ${mode} and conserves balances`, async () => {
    const gw = await startTestGateway();
    try {
      const setup = await psql(gw.port, '-c', `CREATE TABLE acc (id INT PRIMARY KEY, bal INT NOT NULL)`, '-c', `CREATE TABLE tel (id INT PRIMARY KEY, bal INT NOT NULL)`,
        '-c', `CREATE TABLE hist (tid INT, aid INT, delta INT)`);
      assert.equal(setup.code, 0, setup.stderr);
      const rows = (n: number): string => Array.from({ length: n }, (_, i) => `(${i + 1}, 0)`).join(', ');
      const fill = await psql(gw.port, '-c', `INSERT INTO acc VALUES ${rows(100)}`, '-c', `INSERT INTO tel VALUES ${rows(10)}`);
      assert.equal(fill.code, 0, fill.stderr);
      const b = await run('pgbench', ['-n', '-f', file(`tpcb-${mode}.sql`, TPCB), '-M', mode, '-t', '150', '-c', '1', DATABASE], gw.port);
      assert.equal(b.code, 0, b.stderr + b.stdout);
      assert.match(b.stdout, /number of transactions actually processed: 150\/150/);
      assert.match(b.stdout, /number of failed transactions: 0 /);
      const sums = await psql(gw.port, '-c', 'SELECT (SELECT sum(bal) FROM acc) = (SELECT sum(bal) FROM tel), (SELECT sum(delta) FROM hist) = (SELECT sum(bal) FROM tel), (SELECT count(*) FROM hist)');
      assert.equal(sums.stdout, 't|t|150\n');
    } finally {
      await gw.close();
    }
  });
}

void test('initialises with pgbench -i -s 1 through COPY and runs the built-in tpcb-like script', async () => {
  const gw = await startTestGateway();
  try {
    const init = await run('pgbench', ['-i', '-s', '1', DATABASE], gw.port);
    assert.equal(init.code, 0, init.stderr);
    const counts = await psql(gw.port, '-c', 'SELECT (SELECT count(*) FROM pgbench_accounts), (SELECT count(*) FROM pgbench_tellers), (SELECT count(*) FROM pgbench_branches)');
    assert.equal(counts.stdout, '100000|10|1\n');
    const b = await run('pgbench', ['-t', '100', '-c', '1', '-M', 'prepared', DATABASE], gw.port);
    assert.equal(b.code, 0, b.stderr + b.stdout);
    assert.match(b.stdout, /number of transactions actually processed: 100\/100/);
    const sums = await psql(gw.port, '-c', `SELECT (SELECT sum(abalance) FROM pgbench_accounts) = (SELECT sum(bbalance) FROM pgbench_branches),
      (SELECT sum(tbalance) FROM pgbench_tellers) = (SELECT sum(delta) FROM pgbench_history), (SELECT count(*) FROM pgbench_history)`);
    assert.equal(sums.stdout, 't|t|100\n');
  } finally {
    await gw.close();
  }
});
