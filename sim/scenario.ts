/**
 * Random scenarios for sweeps: one seed picks f, the Byzantine or crashed replicas (at most f), the
 * network's fault rates, a partition, and the workload's contention. `scenarioFor(seed)` is a pure
 * function of the seed, so a failing sweep seed is replayed by the seed alone (or by the options it
 * printed, which `sim/seeds.json` stores).
 */
import { Prng } from './prng.ts';
import type { ReplicaFault, SimOptions } from './simulation.ts';
import type { ReplicaBehaviorName } from './sim-replica.ts';

const BYZANTINE: readonly ReplicaBehaviorName[] = ['crashed', 'flip-votes', 'garbage-sigs', 'equivocate'];

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
  return {
    seed,
    f,
    clients: rng.range(2, 6),
    accounts: rng.range(3, 12),
    transactions: f === 2 ? 20 : rng.range(20, 40),
    lossRate: rate(0.1),
    dupRate: rate(0.1),
    reorderRate: rate(0.1),
    replicaFaults: faults,
    ...(partition === undefined ? {} : { partitionReplica: partition }),
    healAtMs: rng.range(200, 2000),
  };
}
