// With no contention (each transaction on its own keys, one after the other), every commit over six
// real replica processes takes the fast path: all n replicas vote COMMIT and no ST2 round is needed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runTxn, scrape, metric, startTestCluster, type TestCluster } from './cluster-harness.ts';

const BASE_PORT = 7420;
const TRANSACTIONS = 20;

void describe('fast path over six replica processes', () => {
  let tc: TestCluster;

  before(async () => {
    tc = await startTestCluster('fast-path', BASE_PORT);
  });

  after(async () => {
    await tc?.stop();
  });

  void it('commits every uncontended transaction on the fast path', async () => {
    // The fast path needs all n votes; waiting long for the last one costs nothing when all replicas
    // are up, and keeps a slow vote on this shared machine from turning into the slow path.
    const client = await tc.connect({ fastPathWaitMs: 60_000 });
    const paths: string[] = [];
    for (let i = 0; i < TRANSACTIONS; i++) {
      const r = await runTxn(client, async (tx) => {
        assert.equal(await tx.getString(`fast/${i}/a`), null);
        tx.put(`fast/${i}/a`, `a${i}`);
        tx.put(`fast/${i}/b`, `b${i}`);
      });
      assert.equal(r.outcome, 'commit', `transaction ${i}: ${JSON.stringify(r)}`);
      paths.push(r.path);
    }
    assert.deepEqual(paths, new Array<string>(TRANSACTIONS).fill('fast'));
    assert.equal(client.core.stats.fastCommits, TRANSACTIONS);
    assert.equal(client.core.stats.slowCommits, 0);
    assert.deepEqual(client.rejected, {});

    // What was committed is there: read it back in one more transaction.
    const check = await runTxn(client, async (tx) => {
      for (let i = 0; i < TRANSACTIONS; i++) {
        assert.equal(await tx.getString(`fast/${i}/a`), `a${i}`);
        assert.equal(await tx.getString(`fast/${i}/b`), `b${i}`);
      }
    });
    assert.equal(check.outcome, 'commit');
  });

  void it('has every replica vote COMMIT and log no ST2 decision', async () => {
    for (const i of tc.indexes) {
      const m = await scrape(tc.cluster, 0, i);
      assert.equal(metric(m, 'pesto_replica_votes_total{decision="abstain"}'), 0, `replica ${i} abstained`);
      assert.equal(metric(m, 'pesto_replica_votes_total{decision="abort"}'), 0, `replica ${i} voted abort`);
      assert.ok(metric(m, 'pesto_replica_votes_total{decision="commit"}') >= TRANSACTIONS, `replica ${i} voted commit fewer than ${TRANSACTIONS} times`);
      assert.equal(metric(m, 'pesto_replica_st2_adopted_total'), 0, `replica ${i} logged an ST2 decision`);
    }
  });
});
