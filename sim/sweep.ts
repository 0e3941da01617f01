/**
 * Long simulation sweeps (DESIGN §9: a fixed set of seeds runs in CI, long sweeps by script):
 *
 *   npm run sim -- --seeds 200 [--from N] [--stop] [--workload bank|sql|mix] [--reads-after-scans]
 *                  [--shards N [--fault-shard S]]
 *
 * Runs, for each seed, `scenarioFor(seed)` (bank), `sqlScenarioFor(seed)` (sql), or both (mix, the
 * default); prints one line per failure (with the options to replay it) and a summary. `--stop` ends
 * at the first failure. `--reads-after-scans`: every SQL scenario's transactions read after range
 * reads (by default 75% of them do). `--shards N`: every scenario runs on N shards (transactions span
 * the shards their keys live on; SQL tables and the catalog are on different shards), with the
 * replica faults, apply faults and restarts in shard `--fault-shard` (default 0; a partition stays in
 * shard 0). Exits 1 when any run failed. Save a failing run's options in sim/seeds.json (bank) or
 * sim/sql-seeds.json (sql) so the tests replay it forever.
 */
import { scenarioFor, sqlScenarioFor } from './scenario.ts';
import { simEngine } from './sim-engine.ts';
import { formatFailure, runSimulation, type SimOptions } from './simulation.ts';

function argValue(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  if (i < 0) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!Number.isInteger(v) || v < 0) throw new Error(`${name} needs a non-negative integer`);
  return v;
}

function argWord(name: string, fallback: string, allowed: readonly string[]): string {
  const i = process.argv.indexOf(name);
  if (i < 0) return fallback;
  const v = process.argv[i + 1] ?? '';
  if (!allowed.includes(v)) throw new Error(`${name} is one of ${allowed.join(', ')}`);
  return v;
}

const seeds = argValue('--seeds', 50);
const from = argValue('--from', 1);
const stopAtFirst = process.argv.includes('--stop');
const workload = argWord('--workload', 'mix', ['bank', 'sql', 'mix']);
const readsAfterScans = process.argv.includes('--reads-after-scans');
const shards = argValue('--shards', 1);
const faultShard = argValue('--fault-shard', 0);
if (faultShard >= shards) throw new Error('--fault-shard must name one of the --shards');

/** The scenario on `shards` shards, its replica faults in shard `faultShard`. */
function onShards(o: SimOptions): SimOptions {
  if (shards === 1) return o;
  const shard = faultShard;
  return {
    ...o,
    shards,
    ...(o.replicaFaults === undefined ? {} : { replicaFaults: o.replicaFaults.map((x) => ({ ...x, shard })) }),
    ...(o.applyFaults === undefined ? {} : { applyFaults: o.applyFaults.map((x) => ({ ...x, shard })) }),
    ...(o.restarts === undefined ? {} : { restarts: o.restarts.map((x) => ({ ...x, shard })) }),
  };
}
const engine = workload === 'bank' ? undefined : await simEngine();
const started = Date.now();
let runs = 0;
let failed = 0;
let committed = 0;
let aborted = 0;
let fast = 0;
let slow = 0;
let queries = 0;
let syncRounds = 0;
let queriesFailed = 0;
outer: for (let seed = from; seed < from + seeds; seed++) {
  const scenarios: SimOptions[] = [];
  if (workload !== 'sql') scenarios.push(scenarioFor(seed));
  if (workload !== 'bank') scenarios.push(sqlScenarioFor(seed, readsAfterScans));
  for (const scenario of scenarios) {
    const options = onShards(scenario);
    runs++;
    const r = runSimulation(options, engine);
    committed += r.committed;
    aborted += r.aborted;
    fast += r.fastCommits;
    slow += r.slowCommits;
    queries += r.queries.issued;
    syncRounds += r.queries.syncRounds;
    queriesFailed += r.queries.failed;
    if (r.ok) {
      process.stdout.write(options.workload === 'sql' ? 'q' : '.');
      continue;
    }
    failed++;
    process.stdout.write(`\n${formatFailure(r, options)}\n`);
    if (stopAtFirst) break outer;
  }
}
const secs = ((Date.now() - started) / 1000).toFixed(1);
process.stdout.write(
  `\nseeds ${from}..${from + seeds - 1} (${workload}): ${runs - failed} runs ok, ${failed} failed; ${committed} commits (${fast} fast, ${slow} slow), ${aborted} aborts; ` +
    `${queries} range reads (${syncRounds} sync rounds, ${queriesFailed} gave up); ${secs} s\n`,
);
process.exitCode = failed === 0 ? 0 : 1;
