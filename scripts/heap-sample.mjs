/**
 * Allocation sampling for any Pesto process (decision 0040): load it first, e.g. for every replica of
 * a benchmark's cluster and the benchmark itself,
 *
 *   PESTO_REPLICA_NODE_FLAGS="--import ./scripts/heap-sample.mjs" \
 *     node --import ./scripts/heap-sample.mjs --import tsx bench/run.ts kv --seconds 20
 *
 * After `HEAP_SAMPLE_START_MS` (25,000: past a fresh cluster's warm-up) it samples allocations for
 * `HEAP_SAMPLE_MS` (10,000), counting objects the garbage collector has already freed too (what
 * young-generation GC costs is what was allocated, not what survives), and writes
 * `heap-<pid>.heapprofile` into `HEAP_SAMPLE_DIR` (tmp/heap). `scripts/heap-report.ts` sums them up.
 * Plain JavaScript so that it loads before tsx's loader; nothing in Pesto imports it.
 */
import { Session } from 'node:inspector';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.HEAP_SAMPLE_DIR ?? 'tmp/heap';
const startMs = Number(process.env.HEAP_SAMPLE_START_MS ?? 25_000);
const durationMs = Number(process.env.HEAP_SAMPLE_MS ?? 10_000);
const session = new Session();
session.connect();

const fail = (what, err) => process.stderr.write(`heap-sample: ${what}: ${err.message}\n`);

setTimeout(() => {
  session.post('HeapProfiler.enable', (err) => {
    if (err) return fail('enable', err);
    const params = { samplingInterval: 16_384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true };
    session.post('HeapProfiler.startSampling', params, (err2) => {
      if (err2) return fail('startSampling', err2);
      setTimeout(() => {
        session.post('HeapProfiler.stopSampling', (err3, result) => {
          if (err3) return fail('stopSampling', err3);
          mkdirSync(dir, { recursive: true });
          writeFileSync(join(dir, `heap-${process.pid}.heapprofile`), JSON.stringify(result.profile));
        });
      }, durationMs).unref();
    });
  });
}, startMs).unref();
