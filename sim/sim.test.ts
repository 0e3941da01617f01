/**
 * The simulator's fixed seeds (DESIGN §9): each runs a whole cluster of real cores over the seeded
 * network and must pass every check (conservation, serial replay in timestamp order, agreement,
 * liveness after the faults heal). Failing seeds found by sweeps live in seeds.json and replay here
 * forever. No timing assertions: everything runs on virtual time.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { formatFailure, runSimulation, type SimOptions, type SimReport } from './simulation.ts';

function expectOk(options: SimOptions): SimReport {
  const r = runSimulation(options);
  assert.ok(r.ok, formatFailure(r, options));
  assert.ok(r.committed > 0, `seed ${options.seed}: nothing committed`);
  return r;
}

void test('commits transfers on the fast path and conserves the total with no faults', () => {
  const r = expectOk({ seed: 1, clients: 3, accounts: 10, transactions: 30 });
  assert.equal(r.auditTotal, 10 * 100);
  assert.ok(r.fastCommits > 0);
  assert.equal(r.network.dropped, 0);
});

void test('the same seed gives the same report, byte for byte', () => {
  const options: SimOptions = { seed: 7, transactions: 20, lossRate: 0.05, dupRate: 0.05, reorderRate: 0.05, replicaFaults: [{ index: 3, behavior: 'flip-votes' }] };
  const a = JSON.stringify(runSimulation(options));
  const b = JSON.stringify(runSimulation(options));
  assert.equal(a, b);
  assert.notEqual(JSON.stringify(runSimulation({ ...options, seed: 8 })), a);
});

// Seed 3 of this configuration found the lost-writeback liveness bug; it is replayed from seeds.json.
for (const seed of [2, 3, 12]) {
  void test(`stays serializable under message loss, duplication and reordering (seed ${seed})`, () => {
    const r = expectOk({ seed, transactions: 30, lossRate: 0.08, dupRate: 0.08, reorderRate: 0.1, healAtMs: 800 });
    assert.ok(r.network.dropped > 0 && r.network.duplicated > 0);
  });
}

void test('commits on the slow path with one crashed replica (f = 1)', () => {
  const r = expectOk({ seed: 4, transactions: 25, replicaFaults: [{ index: 2, behavior: 'crashed' }], lossRate: 0.02 });
  assert.equal(r.fastCommits, 0);
  assert.ok(r.slowCommits > 0);
});

void test('a replica that flips its votes and ST2 decisions cannot break safety', () => {
  expectOk({ seed: 5, transactions: 25, replicaFaults: [{ index: 0, behavior: 'flip-votes' }], dupRate: 0.05 });
});

void test('a replica that signs garbage is rejected at the client boundary', () => {
  const r = expectOk({ seed: 6, transactions: 25, replicaFaults: [{ index: 4, behavior: 'garbage-sigs' }] });
  assert.ok((r.rejectedByClients['vote-bad-signature'] ?? 0) > 0);
});

void test('an equivocating replica cannot break safety', () => {
  expectOk({ seed: 9, transactions: 25, replicaFaults: [{ index: 1, behavior: 'equivocate' }], reorderRate: 0.1 });
});

void test('a replica cut off by a partition does not stop progress, before or after the heal', () => {
  expectOk({ seed: 10, transactions: 25, partitionReplica: 3, lossRate: 0.05, healAtMs: 500 });
});

void test('f = 2 (11 replicas) with one Byzantine and one crashed replica', () => {
  expectOk({ seed: 11, f: 2, clients: 3, transactions: 15, replicaFaults: [{ index: 5, behavior: 'flip-votes' }, { index: 8, behavior: 'crashed' }], lossRate: 0.03 });
});

// Byzantine and crashing clients (client-behavior.ts): every k-th transaction of a faulty client
// misbehaves; correct clients must stay safe and, once faults heal, keep committing (the cores'
// recovery finishes what the faulty client left prepared).
void test('a client that crashes after its ST1 leaves prepared writes that correct clients finish', () => {
  const r = expectOk({ seed: 21, transactions: 30, clientFaults: [{ client: 2, behavior: 'crash-after-st1', every: 3 }] });
  assert.ok((r.clientFaultEvents['faulty'] ?? 0) > 0);
  assert.ok(r.recoveries > 0);
  assert.ok(r.faultyTxns.committed > 0, 'a recovered transaction of the crashed client committed');
});

void test('a client that sends its ST1 to at most 3f+1 replicas cannot block the keys', () => {
  const r = expectOk({ seed: 32, transactions: 30, clientFaults: [{ client: 2, behavior: 'partial-st1', every: 2 }, { client: 4, behavior: 'crash-after-st1', every: 4 }], replicaFaults: [{ index: 1, behavior: 'flip-votes' }] });
  assert.ok((r.clientFaultEvents['faulty'] ?? 0) > 0);
});

void test('a client that decides but never writes back is finished by correct clients, under message loss', () => {
  const r = expectOk({
    seed: 31,
    transactions: 30,
    lossRate: 0.05,
    dupRate: 0.05,
    reorderRate: 0.05,
    healAtMs: 500,
    clientFaults: [{ client: 2, behavior: 'crash-after-st1', every: 3 }, { client: 3, behavior: 'stall-after-decision', every: 2 }],
  });
  assert.ok(r.recoveries > 0);
});

void test('f = 2 with a crashed replica and a client crashing on every other transaction', () => {
  expectOk({ seed: 33, f: 2, clients: 3, transactions: 15, clientFaults: [{ client: 2, behavior: 'crash-after-st1', every: 2 }], replicaFaults: [{ index: 5, behavior: 'crashed' }] });
});

void test('two shards: transfers across them commit atomically, with an equivocating replica in shard 1 and a client abandoning transactions', () => {
  const r = expectOk({ seed: 46, transactions: 30, shards: 2, replicaFaults: [{ shard: 1, index: 3, behavior: 'equivocate' }], clientFaults: [{ client: 2, behavior: 'crash-after-st1', every: 3 }] });
  assert.ok(r.slowCommits > 0 && r.recoveries > 0);
});

// Seed 23: the client splits ST2 COMMIT and ABORT across the logging shard (no side reaches 4f+1).
const EQUIVOCATION: SimOptions = { seed: 23, transactions: 30, clientFaults: [{ client: 2, behavior: 'equivocate-st2', every: 2 }] };

void test('a client that logs both COMMIT and ABORT with ST2 cannot break safety', () => {
  const r = runSimulation(EQUIVOCATION);
  assert.ok((r.clientFaultEvents['equivocated'] ?? 0) > 0, 'the client equivocated');
  const unsafe = r.violations.filter((v) => !v.startsWith('liveness'));
  assert.deepEqual(unsafe, [], formatFailure(r, EQUIVOCATION));
});

void test('correct clients finish a transaction whose client equivocated on ST2, through the view-change fallback', () => {
  expectOk(EQUIVOCATION);
});

// Replica crash-restart (SimOptions.restarts): the process stops (drops everything, no ticks), then a
// new core is restored from its log with fresh volatile state. From an intact log it is a correct
// replica: safety and liveness must hold.
for (const [seed, index, crashAtMs, restartAtMs] of [
  [41, 2, 5, 15],
  [42, 0, 10, 12],
  [43, 5, 15, 40],
] as const) {
  void test(`a replica that crashes and restarts from its log during the bank workload (f = 1, seed ${seed})`, () => {
    const r = expectOk({ seed, transactions: 30, restarts: [{ index, crashAtMs, restartAtMs }] });
    assert.equal(r.restarted.count, 1);
    assert.ok(r.restarted.records > 0, 'the restarted replica had a log to restore');
  });
}

void test('f = 2 with two replicas crashing and restarting from their logs at different times', () => {
  const r = expectOk({ seed: 45, f: 2, clients: 3, transactions: 15, restarts: [{ index: 3, crashAtMs: 5, restartAtMs: 15 }, { index: 7, crashAtMs: 12, restartAtMs: 30 }] });
  assert.equal(r.restarted.count, 2);
});

void test('a replica crash-restart under message loss, duplication and reordering', () => {
  const r = expectOk({ seed: 44, transactions: 30, lossRate: 0.05, dupRate: 0.05, reorderRate: 0.05, healAtMs: 60, restarts: [{ index: 1, crashAtMs: 8, restartAtMs: 25 }] });
  assert.ok(r.network.dropped > 0);
});

// Recoveries resend ST1 to restarted replicas: their logged votes must answer them.
const RESTARTS_WITH_RECOVERY: SimOptions = {
  seed: 64,
  transactions: 30,
  clientFaults: [{ client: 2, behavior: 'crash-after-st1', every: 2 }, { client: 3, behavior: 'crash-after-st1', every: 2 }],
  restarts: [{ index: 0, crashAtMs: 6, restartAtMs: 7 }, { index: 1, crashAtMs: 6, restartAtMs: 7 }, { index: 2, crashAtMs: 12, restartAtMs: 13 }],
};
const WHOLE_CLUSTER_RESTART: SimOptions = { seed: 61, transactions: 30, restarts: [0, 1, 2, 3, 4, 5].map((index) => ({ index, crashAtMs: 10, restartAtMs: 11 })) };

void test('replicas restarted from their logs keep one vote per transaction while crashed clients are recovered', () => {
  const r = expectOk(RESTARTS_WITH_RECOVERY);
  assert.ok(r.recoveries > 0);
});

void test('every replica of the shard crashes at once and restarts from its log', () => {
  expectOk(WHOLE_CLUSTER_RESTART);
});

// Negative controls: a restart with an empty log (amnesia) is a durability bug on purpose; the
// checker must catch it. One amnesiac replica is within f for agreement and serializability, but
// its second, different vote breaks PROTOCOL §9 (one vote per transaction per replica, forever).
const amnesia = (o: SimOptions): SimOptions => ({ ...o, restarts: (o.restarts ?? []).map((rs) => ({ ...rs, log: 'empty' as const })) });

void test('negative control: an amnesiac replica votes twice differently and the checker reports it', () => {
  const options = amnesia(RESTARTS_WITH_RECOVERY);
  const r = runSimulation(options);
  assert.ok(!r.ok, 'amnesia went unnoticed');
  assert.ok(r.violations.some((v) => v.startsWith('one-vote: ')), r.violations.join('\n'));
});

void test('negative control: a whole shard restarting with empty logs breaks conservation and the serial replay', () => {
  const r = runSimulation(amnesia(WHOLE_CLUSTER_RESTART));
  assert.ok(r.violations.some((v) => v.startsWith('conservation: ')), r.violations.join('\n'));
  assert.ok(r.violations.some((v) => v.startsWith('serializability: ')), r.violations.join('\n'));
});

interface SavedSeed {
  readonly options: SimOptions;
  readonly reason: string;
  /** Set while the bug is open: the test is then marked todo (npm test stays green). */
  readonly todo?: string;
}

const saved = JSON.parse(readFileSync(new URL('./seeds.json', import.meta.url), 'utf8')) as SavedSeed[];
for (const s of saved) {
  void test(`saved seed ${s.options.seed}: ${s.reason}`, s.todo === undefined ? {} : { todo: s.todo }, () => {
    expectOk(s.options);
  });
}

void test('a replica that votes late on purpose does not make every commit wait for it (decision 0030)', () => {
  const r = expectOk({ seed: 10, clients: 3, transactions: 300, replicaFaults: [{ index: 2, behavior: 'late-votes' }] });
  // Waiting for its votes each time would commit nearly everything on the fast path (the same run
  // without the fault: 267 fast, 36 slow), each commit stretched to the late vote; each client marks
  // the replica often late after ten windows with late votes (decisions 0037, 0038) and then goes slow
  // without it. Its votes are not always late (when the 3f+1 votes were slow, 3 ms is within the
  // short wait), so it is unmarked now and then: 120 fast, 184 slow.
  assert.ok(r.slowCommits > r.fastCommits, `fast ${r.fastCommits}, slow ${r.slowCommits}`);
});
