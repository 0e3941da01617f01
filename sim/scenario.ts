/**
 * Random scenarios for sweeps: one seed picks f, the Byzantine or crashed replicas (at most f), the
 * network's fault rates, a partition, the workload's contention, and Byzantine or crashing clients
 * (drawn from a separate stream, so the rest of a seed's scenario did not change when they came).
 * Replica crash-restarts (from an intact log: amnesia is a negative control only) come from a third
 * stream, on replicas that are otherwise correct.
 * Faulty clients include `equivocate-st2` and `crash-forget` since their gaps were fixed (seeds 21 and 6 of
 * seeds.json; a `crash-forget` client's own later transactions are not awaited, SimClient.awaited). `scenarioFor(seed)` is a pure
 * function of the seed, so a failing sweep seed is replayed by the seed alone (or by the options it
 * printed, which `sim/seeds.json` stores).
 */
import { Prng } from './prng.ts';
import type { ClientBehaviorName } from './client-behavior.ts';
import type { ApplyFaultSpec, ClientFault, ReplicaFault, ReplicaRestart, SimOptions } from './simulation.ts';
import type { ReplicaBehaviorName } from './sim-replica.ts';

const BYZANTINE: readonly ReplicaBehaviorName[] = ['crashed', 'flip-votes', 'garbage-sigs', 'equivocate', 'late-votes'];
const FAULTY_CLIENTS: readonly ClientBehaviorName[] = ['crash-after-st1', 'partial-st1', 'stall-after-decision', 'equivocate-st2', 'crash-forget'];

/** Up to two faulty clients among clients 2.. (client 1 runs the setup and the audit), in 40% of seeds. */
function clientFaultsFor(seed: number, clients: number): ClientFault[] {
  const rng = new Prng(seed ^ 0xb12c);
  if (!rng.chance(0.4)) return [];
  const out: ClientFault[] = [];
  const count = Math.min(clients - 1, rng.range(1, 2));
  for (let k = 0; k < count; k++) out.push({ client: 2 + k, behavior: rng.pick(FAULTY_CLIENTS), every: rng.range(2, 5) });
  return out;
}

/** In 35% of seeds, 1..f otherwise-correct replicas crash within the first 40 ms and restart 1-60 ms later. */
function restartsFor(seed: number, f: number, correct: readonly number[]): ReplicaRestart[] {
  const rng = new Prng(seed ^ 0x7e57);
  if (!rng.chance(0.35)) return [];
  const pool = [...correct];
  const out: ReplicaRestart[] = [];
  const count = Math.min(pool.length, rng.range(1, f));
  for (let k = 0; k < count; k++) {
    const index = pool.splice(rng.int(pool.length), 1)[0]!;
    const crashAtMs = rng.range(0, 40);
    out.push({ index, crashAtMs, restartAtMs: crashAtMs + rng.range(1, 60) });
  }
  return out;
}

export function scenarioFor(seed: number): SimOptions {
  const rng = new Prng(seed ^ 0x5eed);
  const f = rng.chance(0.1) ? 2 : 1;
  const n = 5 * f + 1;
  const faults: ReplicaFault[] = [];
  const faultyCount = rng.int(f + 1);
  const indexes = Array.from({ length: n }, (_, i) => i);
  for (let k = 0; k < faultyCount; k++) {
    const index = indexes.splice(rng.int(indexes.length), 1)[0]!;
    faults.push({ index, behavior: rng.pick(BYZANTINE) });
  }
  const rate = (max: number): number => (rng.chance(0.5) ? Math.round(rng.float() * max * 1000) / 1000 : 0);
  const partition = rng.chance(0.25) ? indexes[rng.int(indexes.length)] : undefined;
  const clients = rng.range(2, 6);
  const clientFaults = clientFaultsFor(seed, clients);
  const restarts = restartsFor(seed, f, indexes);
  return {
    seed,
    f,
    clients,
    accounts: rng.range(3, 12),
    transactions: f === 2 ? 20 : rng.range(20, 40),
    lossRate: rate(0.1),
    dupRate: rate(0.1),
    reorderRate: rate(0.1),
    replicaFaults: faults,
    ...(partition === undefined ? {} : { partitionReplica: partition }),
    ...(clientFaults.length === 0 ? {} : { clientFaults }),
    ...(restarts.length === 0 ? {} : { restarts }),
    healAtMs: rng.range(200, 2000),
  };
}

/** Replica behaviours of SQL scenarios: the query liars (byzantine-queries.ts) and the vote-level ones. */
const SQL_BYZANTINE: readonly ReplicaBehaviorName[] = [
  'query-liar',
  'query-liar',
  'query-wrong-result',
  'query-wrong-reads',
  'query-omit-predicates',
  'query-inflate-versions',
  'query-fake-snapshot',
  'query-withhold',
  'fetch-bad-supplier',
  'fetch-bad-supplier',
  'crashed',
  'flip-votes',
  'equivocate',
  'late-votes',
];

/**
 * A SQL scenario (workload-sql.ts) for sweeps, a pure function of the seed like `scenarioFor`: up to
 * f Byzantine replicas (mostly query liars), in 35% of seeds the apply fault on up to a third of the
 * other replicas (omit or delay), in 25% a client whose range reads skip the eager round, network
 * faults, a partition, faulty clients and crash-restarts as in bank scenarios. In 75% of seeds (all
 * with `readsAfterScans`) transactions read after range reads, as SQL sessions do; in the others each
 * runs one range read, after its point reads (drawn from a separate stream: the rest of a seed's
 * scenario is what it was before the draw existed).
 */
export function sqlScenarioFor(seed: number, readsAfterScans = false): SimOptions {
  const rng = new Prng(seed ^ 0x5c1a);
  const f = rng.chance(0.1) ? 2 : 1;
  const n = 5 * f + 1;
  const faults: ReplicaFault[] = [];
  const indexes = Array.from({ length: n }, (_, i) => i);
  const faultyCount = rng.int(f + 1);
  for (let k = 0; k < faultyCount; k++) {
    const index = indexes.splice(rng.int(indexes.length), 1)[0]!;
    faults.push({ index, behavior: rng.pick(SQL_BYZANTINE) });
  }
  const applyFaults: ApplyFaultSpec[] = [];
  if (rng.chance(0.35)) {
    const count = rng.range(1, Math.floor(n / 3));
    for (let k = 0; k < count && indexes.length > 0; k++) {
      const index = indexes.splice(rng.int(indexes.length), 1)[0]!;
      applyFaults.push(rng.chance(0.5) ? { index, omit: true } : { index, delayMs: rng.range(1, 50) });
    }
  }
  const rate = (max: number): number => (rng.chance(0.5) ? Math.round(rng.float() * max * 1000) / 1000 : 0);
  const partition = rng.chance(0.2) ? indexes[rng.int(indexes.length)] : undefined;
  const clients = rng.range(2, 5);
  const forceSync = rng.chance(0.25) ? [rng.range(1, clients)] : [];
  const clientFaults = clientFaultsFor(seed ^ 0x51, clients);
  const restarts = restartsFor(seed ^ 0x51, f, indexes);
  const afterScans = readsAfterScans || new Prng(seed ^ 0x4a5).chance(0.75);
  // Half the scenarios keep one client asking faulty replicas as often as healthy ones.
  const randomTargets = new Prng(seed ^ 0x7a9).chance(0.5) ? [1] : [];
  return {
    seed,
    workload: 'sql',
    f,
    clients,
    accounts: rng.range(4, 12),
    transactions: f === 2 ? 12 : rng.range(15, 30),
    lossRate: rate(0.08),
    dupRate: rate(0.08),
    reorderRate: rate(0.08),
    replicaFaults: faults,
    ...(applyFaults.length === 0 ? {} : { applyFaults }),
    ...(forceSync.length === 0 ? {} : { forceSyncClients: forceSync }),
    ...(randomTargets.length === 0 ? {} : { randomTargetClients: randomTargets }),
    ...(partition === undefined ? {} : { partitionReplica: partition }),
    ...(clientFaults.length === 0 ? {} : { clientFaults }),
    ...(restarts.length === 0 ? {} : { restarts }),
    ...(afterScans ? { sqlReadsAfterScans: true } : {}),
    healAtMs: rng.range(100, 1500),
  };
}
