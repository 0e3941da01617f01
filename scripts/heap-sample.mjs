/**
 * Allocation sampling for any Pesto process (decision 0040): load it first, e.g. for every replica of
 * a benchmark's cluster and the benchmark itself,
 *
 *   PESTO_REPLICA_NODE_FLAGS="--import ./scripts/heap-sample.mjs" \
 *     node --import ./scripts/heap-sample.mjs --import tsx bench/run.ts kv --seconds 20
 *
 * After `HEAP_SAMPLE_START_MS` (25,000: past a fresh cluster's warm-up) it samples allocations for
 * `HEAP_SAMPLE_MS` (10,000), counting objects the garbage collector has already freed too (what
 * young-generation GC costs is what was allocated, not what survives; `HEAP_SAMPLE_LIVE=1` counts only
 * what is still alive at the window's end, to find what a process keeps), and writes
 * `heap-<pid>.heapprofile` into `HEAP_SAMPLE_DIR` (tmp/heap). `scripts/heap-report.ts` sums them up.
 * Plain JavaScript so that it loads before tsx's loader; nothing in Pesto imports it.
 */
import { profileWindow } from './inspector-window.mjs';

const live = process.env.HEAP_SAMPLE_LIVE === '1';

profileWindow({
  name: 'heap-sample',
  dir: process.env.HEAP_SAMPLE_DIR ?? 'tmp/heap',
  file: `heap-${process.pid}.heapprofile`,
  startMs: Number(process.env.HEAP_SAMPLE_START_MS ?? 25_000),
  durationMs: Number(process.env.HEAP_SAMPLE_MS ?? 10_000),
  start: [['HeapProfiler.enable'], ['HeapProfiler.startSampling', { samplingInterval: 16_384, includeObjectsCollectedByMajorGC: !live, includeObjectsCollectedByMinorGC: !live }]],
  stop: 'HeapProfiler.stopSampling',
});
