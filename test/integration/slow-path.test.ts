// With one of six replica processes crashed (SIGKILL), only 5 = 4f+1 replicas vote: the fast path
// (n COMMIT votes) is out of reach, so commits go through ST2 and still succeed. After the replica is
// restarted, commits keep working and the restarted replica takes part again.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { downReplicas, metric, runTxn, scrape, startTestCluster, type TestCluster } from './cluster-harness.ts';
import type { PestoClient } from '../../client/pesto-client.ts';

const BASE_PORT = 7440;
const CRASHED = 5;
const TRANSACTIONS = 6;

void describe('slow path with one replica process down', () => {
  let tc: TestCluster;
  let client: PestoClient;

  before(async () => {
    tc = await startTestCluster('slow-path', BASE_PORT);
    client = await tc.connect();
  });

  after(async () => {
    await tc?.stop();
  });

  void it('commits on the fast path while all six replicas run', async () => {
    const fast = await tc.connect({ fastPathWaitMs: 60_000 });
    const r = await runTxn(fast, (tx) => tx.put('slow/warmup', 'ok'));
    assert.deepEqual(r, { kind: 'commit', outcome: 'commit', path: 'fast' });
  });

  void it('commits through the slow path when one replica is killed', async () => {
    await tc.cluster.kill(0, CRASHED);
    assert.deepEqual(downReplicas(tc), [CRASHED]);
    const slowBefore = client.core.stats.slowCommits;
    for (let i = 0; i < TRANSACTIONS; i++) {
      const r = await runTxn(client, async (tx) => {
        const prev = await tx.getString(`slow/counter`);
        tx.put(`slow/counter`, String(Number(prev ?? '0') + 1));
        tx.put(`slow/down/${i}`, 'x');
      });
      assert.deepEqual(r, { kind: 'commit', outcome: 'commit', path: 'slow' }, `transaction ${i}`);
    }
    assert.equal(client.core.stats.slowCommits - slowBefore, TRANSACTIONS);
    assert.deepEqual(client.rejected, {});
    // The five live replicas logged the ST2 decisions.
    for (const i of tc.indexes.filter((x) => x !== CRASHED)) {
      const m = await scrape(tc.cluster, 0, i);
      assert.ok(metric(m, 'pesto_replica_st2_adopted_total') >= TRANSACTIONS, `replica ${i} logged fewer than ${TRANSACTIONS} ST2 decisions`);
    }
    const read = await runTxn(client, async (tx) => {
      assert.equal(await tx.getString('slow/counter'), String(TRANSACTIONS));
    });
    assert.equal(read.outcome, 'commit');
  });

  void it('keeps committing after the killed replica is restarted, and the restarted replica votes again', async () => {
    await tc.cluster.restart(0, CRASHED);
    assert.deepEqual(downReplicas(tc), []);
    // The client redials the restarted replica in the background; until its link is up commits take
    // the slow path, after that the fast one. Either way they commit. Run transactions until the
    // restarted replica has voted on some (bounded: it must rejoin, not merely stay out of the way).
    let committed = 0;
    let voted = 0;
    for (let i = 0; i < 60 && voted === 0; i++) {
      const r = await runTxn(client, (tx) => tx.put(`slow/after/${i}`, 'y'));
      assert.equal(r.outcome, 'commit', `transaction ${i} after restart: ${JSON.stringify(r)}`);
      committed++;
      voted = metric(await scrape(tc.cluster, 0, CRASHED), 'pesto_replica_votes_total{decision="commit"}');
      // The client redials with backoff (up to 2 s after a long outage): give it time, not just turns.
      if (voted === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(voted > 0, `the restarted replica voted on none of ${committed} transactions`);
    // With all six up again, a client that waits for the last vote gets the fast path.
    const fast = await tc.connect({ fastPathWaitMs: 60_000 });
    const r = await runTxn(fast, (tx) => tx.put('slow/after/fast', 'z'));
    assert.deepEqual(r, { kind: 'commit', outcome: 'commit', path: 'fast' });
  });
});
