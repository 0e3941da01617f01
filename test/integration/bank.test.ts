// Bank transfers over six real replica processes: 8 concurrent sessions move money between 20
// accounts; transactions that abort (conflicts) are retried with a fresh transaction until they
// commit. At the end the total balance is what the setup put in, no account is negative, and the run
// saw both aborted attempts and transfers that committed on a retry.
//
// One PestoClient with 8 sessions: the local configuration has a single client identity, and its
// sessions share the client's timestamp allocator, so their timestamps never collide.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PestoClient } from '../../client/pesto-client.ts';
import { downReplicas, runTxn, startTestCluster, type TestCluster } from './cluster-harness.ts';

const BASE_PORT = 7400;
const ACCOUNTS = 20;
const INITIAL = 1000;
const WORKERS = 8;
const TRANSFERS = 300;
/** A transfer that aborts this many times in a row means no progress: fail rather than loop. */
const ATTEMPTS_MAX = 100;

const account = (i: number): string => `bank/acct/${String(i).padStart(2, '0')}`;

/** A small seeded generator (mulberry32), so a failing run can be replayed from its seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Tally {
  commits: number;
  abortedAttempts: number;
  committedOnRetry: number;
  skipped: number;
  readonly causes: Record<string, number>;
  readonly paths: Record<string, number>;
}

async function transfer(client: PestoClient, from: number, to: number, amount: number, tally: Tally): Promise<void> {
  for (let attempt = 1; attempt <= ATTEMPTS_MAX; attempt++) {
    let skipped = false;
    const r = await runTxn(client, async (tx) => {
      const a = Number(await tx.getString(account(from)));
      const b = Number(await tx.getString(account(to)));
      assert.ok(Number.isInteger(a) && Number.isInteger(b), `balances read as ${a} and ${b}`);
      if (a < amount) {
        skipped = true;
        return;
      }
      tx.put(account(from), String(a - amount));
      tx.put(account(to), String(b + amount));
    });
    if (r.outcome === 'commit') {
      tally.commits++;
      tally.paths[r.path] = (tally.paths[r.path] ?? 0) + 1;
      if (skipped) tally.skipped++;
      else if (attempt > 1) tally.committedOnRetry++;
      return;
    }
    tally.abortedAttempts++;
    tally.causes[r.cause] = (tally.causes[r.cause] ?? 0) + 1;
  }
  assert.fail(`transfer ${from} -> ${to} of ${amount} aborted ${ATTEMPTS_MAX} times in a row`);
}

void describe('bank transfers over six replica processes', () => {
  let tc: TestCluster;
  let client: PestoClient;

  before(async () => {
    tc = await startTestCluster('bank', BASE_PORT);
    client = await tc.connect();
  });

  after(async () => {
    await tc?.stop();
  });

  void it('creates the accounts in one transaction', async () => {
    const r = await runTxn(client, (tx) => {
      for (let i = 0; i < ACCOUNTS; i++) tx.put(account(i), String(INITIAL));
    });
    assert.equal(r.outcome, 'commit');
  });

  void it('conserves the total balance while 8 concurrent sessions transfer, retrying aborted transfers until they commit', async (t) => {
    const seed = Number(process.env['PESTO_BANK_SEED'] ?? Date.now() % 1_000_000);
    const random = rng(seed);
    const plan = Array.from({ length: TRANSFERS }, () => {
      const from = Math.floor(random() * ACCOUNTS);
      const to = (from + 1 + Math.floor(random() * (ACCOUNTS - 1))) % ACCOUNTS;
      return { from, to, amount: 1 + Math.floor(random() * 50) };
    });
    const tally: Tally = { commits: 0, abortedAttempts: 0, committedOnRetry: 0, skipped: 0, causes: {}, paths: {} };
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let job = plan[next++]; job !== undefined; job = plan[next++]) await transfer(client, job.from, job.to, job.amount, tally);
    };
    await Promise.all(Array.from({ length: WORKERS }, worker));

    const summary = `seed ${seed} (PESTO_BANK_SEED replays the transfer plan, not the interleaving): ${JSON.stringify(tally)}; client ${JSON.stringify(client.core.stats)}`;
    t.diagnostic(summary);
    assert.equal(tally.commits, TRANSFERS, summary);
    assert.ok(tally.abortedAttempts > 0, `no transfer aborted, so nothing conflicted: ${summary}`);
    assert.ok(tally.committedOnRetry > 0, `no aborted transfer committed on a retry: ${summary}`);
    assert.deepEqual(client.rejected, {}, summary);

    const balances: number[] = [];
    const final = await runTxn(client, async (tx) => {
      for (let i = 0; i < ACCOUNTS; i++) balances.push(Number(await tx.getString(account(i))));
    });
    assert.equal(final.outcome, 'commit', summary);
    for (const [i, b] of balances.entries()) assert.ok(Number.isInteger(b) && b >= 0, `account ${i} holds ${b}: ${summary}`);
    assert.equal(
      balances.reduce((s, b) => s + b, 0),
      ACCOUNTS * INITIAL,
      `balances ${balances.join(' ')}: ${summary}`,
    );
    assert.deepEqual(downReplicas(tc), []);
  });
});
