/**
 * A CPU profile of any Pesto process over a window, not its whole life (`--cpu-prof` profiles from
 * start to exit, so module loading, cluster start-up and a benchmark's loading phase swamp the part
 * being studied). Load it first, e.g. for every replica of a benchmark's cluster:
 *
 *   PESTO_REPLICA_NODE_FLAGS="--import ./scripts/cpu-sample.mjs" \
 *     CPU_SAMPLE_START_MS=20000 npm run bench -- scan --ranges 10000 --only range --reps 40
 *
 * After `CPU_SAMPLE_START_MS` (25,000) it profiles for `CPU_SAMPLE_MS` (10,000) at
 * `CPU_SAMPLE_INTERVAL_US` (1,000) and writes `cpu-<pid>.cpuprofile` into `CPU_SAMPLE_DIR`
 * (tmp/cpu), readable by Chrome DevTools or any `.cpuprofile` tool. Plain JavaScript so that it loads
 * before tsx's loader; nothing in Pesto imports it. The companion of heap-sample.mjs (decision 0040).
 */
import { profileWindow } from './inspector-window.mjs';

profileWindow({
  name: 'cpu-sample',
  dir: process.env.CPU_SAMPLE_DIR ?? 'tmp/cpu',
  file: `cpu-${process.pid}.cpuprofile`,
  startMs: Number(process.env.CPU_SAMPLE_START_MS ?? 25_000),
  durationMs: Number(process.env.CPU_SAMPLE_MS ?? 10_000),
  start: [['Profiler.enable'], ['Profiler.setSamplingInterval', { interval: Number(process.env.CPU_SAMPLE_INTERVAL_US ?? 1_000) }], ['Profiler.start']],
  stop: 'Profiler.stop',
});
