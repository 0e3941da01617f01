/**
 * Bad input at the gateway over the single-node engine, at random (fuzz-tools.ts): mutated
 * conversations, each answered in whole messages and closed; afterwards the gateway still serves a
 * fresh connection and the table no statement of the corpus writes is intact. With passwords asked
 * for, mutated blind SCRAM exchanges never get in (28P01 for those that reach the check), and the real
 * user still does. The same runs over a real
 * cluster in cluster.test.ts.
 *
 * The PRNG is seeded (`PESTO_FUZZ_SEED` replays a run; the seed is in the test's name and in every
 * failure message), and `PESTO_FUZZ_CASES` sets the number of conversations (default 300).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serialize } from 'pg-protocol';
import pg from 'pg';
import { DATABASE, PASSWORD, RawClient, USER, cstring, dataRow, startTestGateway } from './gateway-fixture.ts';
import { fuzzGateway } from './fuzz-tools.ts';

const CASES = Number(process.env['PESTO_FUZZ_CASES'] ?? 300);
const SEED = Number(process.env['PESTO_FUZZ_SEED'] ?? Date.now() % 2 ** 31);
const KEEP_ROWS = 5;

void test(`the gateway answers ${CASES} mutated conversations in whole messages, closes each, and stays up (seed ${SEED})`, async () => {
  const gw = await startTestGateway({ users: 'trust', maxMessageBytes: 256 * 1024 });
  try {
    const setup = await RawClient.connect(gw.port);
    setup.send(serialize.query('CREATE TABLE keep (id INT PRIMARY KEY, v INT NOT NULL); CREATE TABLE scratch (id INT PRIMARY KEY, t TEXT)'));
    await setup.untilReady();
    setup.send(serialize.query(`INSERT INTO keep VALUES ${Array.from({ length: KEEP_ROWS }, (_, i) => `(${i}, ${i * 10})`).join(', ')}`));
    await setup.untilReady();
    setup.end();

    const outcomes = await fuzzGateway(gw.port, CASES, SEED);
    // The corpus reaches both sides: conversations served and conversations refused at the protocol level.
    assert.ok((outcomes.get('served') ?? 0) > 0 && (outcomes.get('refused') ?? 0) > 0, `outcomes ${JSON.stringify([...outcomes])}`);

    const after = await RawClient.connect(gw.port);
    after.send(serialize.query('SELECT id, v FROM keep ORDER BY id'));
    const ms = await after.untilReady();
    const rows = ms.filter((m) => m.type === 'D').map((m) => dataRow(m.body).map((c) => c?.toString('utf8')));
    assert.deepEqual(rows, Array.from({ length: KEEP_ROWS }, (_, i) => [String(i), String(i * 10)]));
    assert.equal(cstring(ms.find((m) => m.type === 'C')!.body), `SELECT ${KEEP_ROWS}`);
    after.end();
  } finally {
    await gw.close();
  }
});

void test(`the gateway asking for passwords refuses ${CASES} mutated blind SCRAM exchanges in whole messages and still admits its user (seed ${SEED})`, async () => {
  const gw = await startTestGateway({ maxMessageBytes: 256 * 1024 });
  try {
    const outcomes = await fuzzGateway(gw.port, CASES, SEED, { scram: true });
    assert.equal(outcomes.get('served') ?? 0, 0, `a blind exchange got in: ${JSON.stringify([...outcomes])}`);
    assert.ok((outcomes.get('fatal 28P01') ?? 0) > 0, `no exchange reached the password check: ${JSON.stringify([...outcomes])}`);
    const c = new pg.Client({ host: '127.0.0.1', port: gw.port, user: USER, password: PASSWORD, database: DATABASE });
    await c.connect();
    try {
      assert.deepEqual((await c.query('SELECT 1 AS one')).rows, [{ one: 1 }]);
    } finally {
      await c.end();
    }
  } finally {
    await gw.close();
  }
});
