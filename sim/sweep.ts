/**
 * Long simulation sweeps (DESIGN §9: a fixed set of seeds runs in CI, long sweeps by script):
 *
 *   npm run sim -- --seeds 200 [--from N] [--stop]
 *
 * Runs `scenarioFor(seed)` for each seed, prints one line per failure (with the options to replay
 * it) and a summary. `--stop` ends at the first failure. Exits 1 when any seed failed. Save a
 * failing seed's options in sim/seeds.json so sim.test.ts replays it forever.
 */
import { scenarioFor } from './scenario.ts';
import { formatFailure, runSimulation } from './simulation.ts';

function argValue(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  if (i < 0) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!Number.isInteger(v) || v < 0) throw new Error(`${name} needs a non-negative integer`);
  return v;
}

const seeds = argValue('--seeds', 50);
const from = argValue('--from', 1);
const stopAtFirst = process.argv.includes('--stop');
const started = Date.now();
let failed = 0;
let committed = 0;
let aborted = 0;
let fast = 0;
let slow = 0;
for (let seed = from; seed < from + seeds; seed++) {
  const options = scenarioFor(seed);
  const r = runSimulation(options);
  committed += r.committed;
  aborted += r.aborted;
  fast += r.fastCommits;
  slow += r.slowCommits;
  if (r.ok) {
    process.stdout.write('.');
    continue;
  }
  failed++;
  process.stdout.write(`\n${formatFailure(r, options)}\n`);
  if (stopAtFirst) break;
}
const secs = ((Date.now() - started) / 1000).toFixed(1);
process.stdout.write(
  `\nseeds ${from}..${from + seeds - 1}: ${seeds - failed} ok, ${failed} failed; ${committed} commits (${fast} fast, ${slow} slow), ${aborted} aborts; ${secs} s\n`,
);
process.exitCode = failed === 0 ? 0 : 1;
