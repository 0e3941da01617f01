/**
 * A transaction older than the replicas' history window (limits.historyWindowMs) can no longer read:
 * replicas refuse reads below their low watermark without answering. Before the client checked the
 * age of its transactions, such a read was retried forever (a psql session that sat in BEGIN longer
 * than the window hung on its next SELECT). Now the statement fails with 40001 and a retry at a fresh
 * timestamp works. The cluster here has a 4 s window, so with the default 2 s of allowed clock skew a
 * transaction stops reading once it is 2 s old.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Engine, type ExecResult } from '../../sql/engine.ts';
import { SqlClient, type SqlSession } from '../../client/sql/sql-session.ts';
import { TransactionTooOldError } from '../../client/pesto-client.ts';
import { startTestCluster, type TestCluster } from './cluster-harness.ts';

const BASE_PORT = 7700;
const WINDOW_MS = 4000;
const STALE_MS = WINDOW_MS - 2000;

let tc: TestCluster;

/** Runs `text` and asserts it succeeded. */
async function ok(s: SqlSession, text: string): Promise<ExecResult & { ok: true }> {
  const r = await s.execute(text);
  if (!r.ok) assert.fail(`${text}: ${r.error.code} ${r.error.message}`);
  return r as ExecResult & { ok: true };
}
let sql: SqlClient;

void describe('transactions older than the history window', () => {
  before(async () => {
    tc = await startTestCluster('history-window', BASE_PORT, { limits: { historyWindowMs: WINDOW_MS } });
    sql = new SqlClient(await tc.connect(), await Engine.create());
    const s = sql.session();
    await ok(s, 'CREATE TABLE hw (id int PRIMARY KEY, v int)');
    await ok(s, 'INSERT INTO hw VALUES (1, 10), (2, 20), (3, 30)');
    await s.close();
  });
  after(async () => {
    await tc?.stop();
  });

  void it('a point read and a range read of an old transaction fail with 40001; the retry commits', { timeout: 60_000 }, async () => {
    const s = sql.session();
    await s.begin();
    assert.equal(Number((await ok(s, 'SELECT v FROM hw WHERE id = 1')).rows[0]?.[0]), 10);
    await sleep(WINDOW_MS + 500); // past the window itself: replicas would not answer this read at all
    const point = await s.execute('SELECT v FROM hw WHERE id = 2');
    assert.equal(point.ok ? 'ok' : point.error.code, '40001');
    await s.rollback();

    await s.begin();
    await ok(s, 'UPDATE hw SET v = v + 1 WHERE id = 3');
    await sleep(STALE_MS + 500);
    const range = await s.execute('SELECT sum(v) FROM hw');
    assert.equal(range.ok ? 'ok' : range.error.code, '40001');
    await s.rollback();

    // A fresh transaction reads and commits, and the rolled-back update left nothing behind.
    await s.begin();
    assert.equal(Number((await ok(s, 'SELECT sum(v) FROM hw')).rows[0]?.[0]), 60);
    assert.ok((await s.commit()).ok);
    await s.close();
  });

  void it('the key-value API throws TransactionTooOldError (retryable) instead of waiting forever', { timeout: 30_000 }, async () => {
    const client = tc.clients[0]!;
    const tx = client.session().begin();
    await sleep(STALE_MS + 500);
    await assert.rejects(tx.get('some-key'), (e: unknown) => e instanceof TransactionTooOldError && e.retryable);
    tx.abort();
    assert.ok(client.core.stats.tooOld >= 1);
  });
});
