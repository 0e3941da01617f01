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
