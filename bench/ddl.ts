/**
 * `npm run bench -- ddl`: what a DDL statement costs as a database's DDL history grows (decision 0077).
 * A fresh local shard (n = 6, f = 1) and one SQL session run `--history` statements (1,000) as pairs
 * `CREATE TABLE ddl_i (k int PRIMARY KEY, v text)` / `DROP TABLE ddl_i`, the churn of an application
 * that makes and drops tables (temporary tables are such tables on a cluster). At every `--every`
 * (200) statements it times `--window` (20) further pairs and prints the median of each statement's
 * wall time and the catalog value's size then.
 *
 * `--compact-at N`: the client writes the catalog as one image once its log passes N entries
 * (default: the client's default, sql/replicated-catalog.ts CATALOG_COMPACT_AT); `--compact-at never`
 * keeps the whole log, as before images existed, for comparison in one build.
 *
 * Flags: --history 1000 --every 200 --window 20 --compact-at N|never --base-port 7260 --json (one JSON object per line:
 * `history`, `createMs`, `dropMs`, `catalogBytes`, `logEntries`).
 */
import { CATALOG_KEY } from '../sql/replicated-catalog.ts';
import { must, startBenchCluster } from './bench-cluster.ts';
import { median, parseFlags, round } from './stats.ts';

export async function runDdlBench(args: string[]): Promise<void> {
  const flags = parseFlags(args);
  const history = Number(flags.get('history') ?? 1000);
  const every = Number(flags.get('every') ?? 200);
  const window = Number(flags.get('window') ?? 20);
  const compact = flags.get('compact-at');
  const json = flags.has('json');
  const cluster = await startBenchCluster({ name: 'ddl', basePort: Number(flags.get('base-port') ?? 7260) });
  try {
    const sql = await cluster.sqlClient({}, compact === undefined ? {} : { catalogCompactAt: compact === 'never' ? Infinity : Number(compact) });
    const s = sql.session();
    let n = 0;
    const pair = async (): Promise<{ createMs: number; dropMs: number }> => {
      const name = `ddl_${n++}`;
      let t = performance.now();
      must(await s.execute(`CREATE TABLE ${name} (k int PRIMARY KEY, v text)`), `create ${name}`);
      const createMs = performance.now() - t;
      t = performance.now();
      must(await s.execute(`DROP TABLE ${name}`), `drop ${name}`);
      return { createMs, dropMs: performance.now() - t };
    };
    for (let done = 0; ; ) {
      const timed = [];
      for (let i = 0; i < window; i++) timed.push(await pair());
      const tx = sql.client.session().begin();
      const value = (await tx.read(CATALOG_KEY)).value;
      tx.abort();
      const entries = value === null ? 0 : (JSON.parse(new TextDecoder().decode(value)) as unknown[]).length;
      const line = {
        history: done, createMs: round(median(timed.map((x) => x.createMs))), dropMs: round(median(timed.map((x) => x.dropMs))),
        catalogBytes: value?.length ?? 0, logEntries: entries,
      };
      process.stdout.write(json ? `${JSON.stringify(line)}\n` : `after ${line.history} DDL: CREATE ${line.createMs} ms, DROP ${line.dropMs} ms, catalog ${line.catalogBytes} bytes in ${line.logEntries} entries\n`);
      if (done >= history) break;
      for (let i = 0; i < every / 2; i++) await pair();
      done += every + window * 2;
    }
  } finally {
    await cluster.stop();
  }
}
