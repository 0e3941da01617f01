/**
 * `node --import tsx scripts/micro-scan.ts`: CPU cost of one range read's pieces, in one process, without a
 * cluster (a loaded machine makes cluster runs noisy; CPU time of these steps is steadier). The table
 * and queries are bench/scan.ts's: `scan_t(id int primary key, cat int, pad text)` with `cat = id % 100`,
 * loaded as committed transactions of `--batch` (10) rows into a real ReplicaCore with the SQL engine.
 * (A script, not a bench case: benchmarks may not import replica internals, test/architecture.test.ts.)
 *
 * Steps, each in CPU ms per range read (median of `--reps` runs after a warm-up):
 * - `replicaMs`: the replica core answers the Query (execution, read set, predicates, snapshot vote);
 * - `encodeMs`: the reply's wire encoding (once per target);
 * - `decodesMs`: the client decodes 3f+1 = 4 replies (equal bytes, each its own copy);
 * - `matchMs`: the client's matching of 3f+1 replies (RangeRead.add for 4 equal replies);
 * - `nameKeysMs`: the client keeps each predicate with the rows it excuses, unnamed (decisions 0019 and 0051: they
 *   are compared with the final read set and, only when needed, named at commit, priced in `txnEncodeMs`);
 * - `resultDecodeMs`: the client decodes the result rows once;
 * - `clientMs` = the 4 decodes + matching + naming + result decode; `allMs` = 5 (replica + encode) + clientMs,
 *   the CPU one range read costs the cluster (3f+1 = 4 replicas execute, decision 0047; the client decodes their replies);
 * and the reply's size. `--cold` forgets every row replicas kept from earlier scans (decision 0019) before
 * each read, so each read pays what a first scan of its rows costs (the cluster benchmark's random range
 * starts mostly meet rows not scanned before).
 * `--digest` prices digest-only replies (decisions 0027, 0053): of the 3f+1 replicas asked, one encodes
 * the full reply (`encodeMs`), 3f = 3 a digest-only one (`encodeDigestMs`: the hash of result and read
 * set included); the client decodes 1 full and 3 digest replies and matches them (hashing the full
 * reply's body); `allMs` = 4 replicaMs + encodeMs + 3 encodeDigestMs + clientMs.
 * `--commit` also prices the read-only transaction that follows each read (bench/scan.ts commits it):
 * `txnEncodeMs` (the client writes its predicates' bytes, encodes its body and the Prepare), `prepareDecodeMs` (a replica decodes the
 * Prepare), `prepareMs` (the core validates and prepares it), `voteLogMs` (the vote's log record encoded),
 * `writebackDecodeMs` and `writebackMs` (a replica decodes and applies the commit certificate),
 * `writebackLogMs` (its log record encoded), `txnBytes`; `commitAllMs` = txnEncodeMs + 6 x the rest,
 * the CPU that commit costs the cluster outside signatures, the transport and the disk.
 * `--alloc` adds `replicaAllocKb`, the JavaScript heap's growth over the replica's step: the bytes it
 * allocated when run with a young generation too large to collect during it (node
 * --max-semi-space-size=512; the median ignores the odd read a collection cut short).
 * `--pollute-mb N` writes one byte per 64-byte line of an N MiB array before each read, so each read
 * starts with caches another process's work would have left (decision 0049: with 64, a 1%-filtered
 * 10,000-row scan cost 1.8-2.1 ms against 1.0, what replicas take in the cluster).
 * Usage: --ranges 10,100,1000,10000 --batch 10 --reps 5 --only replica --cold --pollute-mb N --digest --commit --alloc --json
 */
import { decodeMessage, encodeMessage, encodeTxn } from '../protocol/codec.ts';
import { encodeLogRecord, type LogRecord } from '../protocol/log-record.ts';
import { keyPairFromSeed } from '../protocol/crypto/ed25519.ts';
import { signBatch } from '../protocol/crypto/signed.ts';
import type { ReplicaIndex, ShardId } from '../protocol/ids.ts';
import type { Certificate, Message, Query, QueryReply, ReadEntry, Txn } from '../protocol/messages.ts';
import { quorums } from '../protocol/quorum.ts';
import { voteLeaf } from '../protocol/statements.ts';
import { ts, type Timestamp } from '../protocol/timestamp.ts';
import { RangeRead } from '../client/core/range-read.ts';
import { ReplicaCore } from '../replica/core/replica-core.ts';
import { Engine } from '../sql/engine.ts';
import { primaryKeyOf } from '../sql/memory-store.ts';
import { CATALOG_KEY, CatalogVersion } from '../sql/replicated-catalog.ts';
import { encodeRow } from '../sql/row-codec.ts';
import { rowKey, tableKeyRange } from '../sql/row-key.ts';
import { ExcusedRows, predicatesToSend, type HeldPredicate } from '../client/core/active-txn.ts';
import { decodeOutcome, encodeParams } from '../sql/wire-values.ts';
import { median, parseFlags, round } from '../bench/stats.ts';

const S0 = 0 as ShardId;
const N = 6;
const NOW = 1_000_000_000;
const CATEGORIES = 100;
const RANGE_SQL = 'SELECT * FROM scan_t WHERE id >= $1 AND id < $2';
const RANGE_FILTERED_SQL = 'SELECT * FROM scan_t WHERE id >= $1 AND id < $2 AND cat = 0';

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function timed<T>(fn: () => T): { value: T; ms: number } {
  const t = cpuMs();
  const value = fn();
  return { value, ms: cpuMs() - t };
}

async function main(args: readonly string[]): Promise<void> {
  const flags = parseFlags(args);
  const ranges = (flags.get('ranges') ?? '10,100,1000,10000').split(',').map(Number);
  const batch = Number(flags.get('batch') ?? 10);
  const reps = Number(flags.get('reps') ?? 5);
  const rows = Math.max(...ranges) + 500;
  const json = flags.has('json');
  const replicaOnly = flags.get('only') === 'replica';
  const cold = flags.has('cold');
  const polluteBytes = Number(flags.get('pollute-mb') ?? 0) * (1 << 20);
  const pollution = polluteBytes > 0 ? new Uint8Array(polluteBytes) : null;
  const digest = flags.has('digest');
  const withCommit = flags.has('commit');
  const alloc = flags.has('alloc');

  const engine = await Engine.create();
  const ddl = engine.parse('CREATE TABLE scan_t (id int PRIMARY KEY, cat int NOT NULL, pad text NOT NULL)').stmts[0]!;
  const catalog = CatalogVersion.empty.apply(ddl).next!;
  const table = catalog.catalog.require('scan_t');
  const keys = Array.from({ length: N }, (_, i) => keyPairFromSeed(new Uint8Array(32).fill(i + 1)));
  const core = new ReplicaCore(
    {
      shard: S0,
      index: 0 as ReplicaIndex,
      f: 1,
      owns: () => true,
      clockSkewMaxMicros: 1_000_000,
      gcWindowMicros: 500_000_000,
      engine,
      limits: { txnKeysMax: 4 * rows, messageBytesMax: 64 << 20 },
    },
    { nowMicros: () => NOW },
  );
  const commitCert = (t: Txn): Certificate => ({
    kind: 'votes',
    votes: { decision: 'commit', shards: [{ shard: S0, sigs: keys.map((k, i) => signBatch([voteLeaf(t.digest, S0, 'commit')], k.secretKey, i)[0]!) }] },
  });
  const apply = (at: Timestamp, writes: { key: string; value: Uint8Array | null }[]): void => {
    writes.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const t = encodeTxn({ ts: at, shards: [S0], reads: [], deps: [], predicates: [], meta: new Uint8Array(0), writes });
    core.handle(1, { kind: 'writeback', digest: t.digest, cert: commitCert(t), txn: t });
    core.takeEffects();
  };
  apply(ts(NOW - 100_000_000, 1), [{ key: CATALOG_KEY, value: catalog.value() }]);
  for (let from = 0, i = 0; from < rows; from += batch, i++) {
    const writes: { key: string; value: Uint8Array | null }[] = [];
    for (let id = from; id < Math.min(rows, from + batch); id++) {
      const row = [id, id % CATEGORIES, `pad-${String(id).padStart(8, '0')}-xxxxxxxxxxxx`];
      writes.push({ key: rowKey(table.id, primaryKeyOf(table, row)), value: encodeRow(table, row) });
    }
    // 5 ms apart, as a real load commits them (1,050 transactions in ~5 s): SemanticCC walks the writes
    // within its grace window (25 ms) of a table version, so packing them closer prices a walk no cluster does.
    apply(ts(NOW - 90_000_000 + 5000 * i, 2), writes);
  }

  const q = quorums(1);
  let req = 1;
  /** The replica decodes `bytes`, handles the message and encodes the log record it persists: CPU ms of each step. */
  const atReplica = (bytes: Uint8Array, what: string): { decodeMs: number; handleMs: number; logMs: number; record: LogRecord } => {
    const dec = timed(() => decodeMessage(bytes.slice()));
    if (!dec.value.ok) throw new Error(`${what} does not decode: ${dec.value.reason}`);
    const msg = dec.value.value;
    const handled = timed(() => {
      core.handle(7, msg);
      return core.takeEffects();
    });
    const persist = handled.value.find((e) => e.kind === 'persist');
    if (persist?.kind !== 'persist') throw new Error(`the replica logged nothing for the ${what}`);
    const log = timed(() => encodeLogRecord(persist.record));
    return { decodeMs: dec.ms, handleMs: handled.ms, logMs: log.ms, record: persist.record };
  };
  // The read-only transaction of one read, prepared and committed at the replica (--commit).
  const commitOnce = (at: Timestamp, reads: readonly ReadEntry[], held: readonly HeldPredicate[]): Record<string, number> => {
    const catalogRead = core.store.get(CATALOG_KEY)!.committed.at(-1)!.ts;
    const all = [...reads];
    if (!all.some((r) => r.key === CATALOG_KEY)) all.push({ key: CATALOG_KEY, version: catalogRead });
    all.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const enc = timed(() => {
      // The predicates' bytes are written at commit, over the final read set (client/core/active-txn.ts).
      const t = encodeTxn({ ts: at, shards: [S0], reads: all, deps: [], predicates: predicatesToSend(held, all), meta: new Uint8Array(0), writes: [] });
      return { t, bytes: encodeMessage({ kind: 'prepare', req: req++, txn: t }) };
    });
    const txn = enc.value.t;
    const prep = atReplica(enc.value.bytes, 'prepare');
    if (prep.record.kind !== 'vote' || prep.record.decision !== 'commit') throw new Error('the read-only transaction did not prepare');
    const wb = atReplica(encodeMessage({ kind: 'writeback', digest: txn.digest, cert: commitCert(txn), txn: null }), 'writeback');
    const replicaSide = prep.decodeMs + prep.handleMs + prep.logMs + wb.decodeMs + wb.handleMs + wb.logMs;
    return {
      txnEncodeMs: enc.ms,
      prepareDecodeMs: prep.decodeMs,
      prepareMs: prep.handleMs,
      voteLogMs: prep.logMs,
      writebackDecodeMs: wb.decodeMs,
      writebackMs: wb.handleMs,
      writebackLogMs: wb.logMs,
      txnBytes: txn.bytes.length,
      commitAllMs: enc.ms + 6 * replicaSide,
    };
  };
  const measureOnce = (size: number, filtered: boolean): Record<string, number> => {
    const start = Math.floor(Math.random() * (rows - size + 1));
    const query: Query = {
      kind: 'query',
      req: req++,
      ts: ts(NOW - 100_000 + req, 9), // distinct per read: each read-only transaction (--commit) has its own
      sql: filtered ? RANGE_FILTERED_SQL : RANGE_SQL,
      params: encodeParams([start, start + size]),
      ownWrites: [],
      recon: false,
      retry: 0,
      snapshot: [],
    };
    if (cold) {
      const r = tableKeyRange(table.id, '', null);
      for (const k of core.store.keysInRange(r.lo, r.hi)) core.store.get(k)!.scanned = null;
    }
    if (pollution !== null) for (let i = 0; i < pollution.length; i += 64) pollution[i] = (pollution[i]! + 1) & 0xff;
    const heapBefore = alloc ? process.memoryUsage().heapUsed : 0;
    const replica = timed(() => {
      core.handle(50, query);
      const out: Message[] = [];
      for (const e of core.takeEffects()) if (e.kind === 'send') out.push(e.msg);
      return out[0] as QueryReply;
    });
    const allocKb = alloc ? { replicaAllocKb: Math.round((process.memoryUsage().heapUsed - heapBefore) / 1024) } : {};
    if (replicaOnly) return { replicaMs: replica.ms, reads: replica.value.reads.length, ...allocKb };
    const enc = timed(() => encodeMessage(replica.value));
    const encDigest = digest ? timed(() => encodeMessage({ ...replica.value, digestOnly: true })) : null;
    // The client decodes 3f+1 = 4 replies, each its own bytes (equal bytes from correct replicas).
    const copies = [0, 1, 2, 3].map((i) => (encDigest !== null && i >= 1 ? encDigest.value : enc.value).slice());
    const dec = timed(() =>
      copies.map((b) => {
        const d = decodeMessage(b);
        if (!d.ok) throw new Error(`reply does not decode: ${d.reason}`);
        return d.value as QueryReply;
      }),
    );
    const replies = dec.value;
    const match = timed(() => {
      const rr = new RangeRead(S0, query.ts, q, 3, false, digest);
      rr.ask([0, 1, 2, 3]);
      let step = rr.add(0, replies[0]!);
      for (let i = 1; i < 4; i++) step = rr.add(i, replies[i]!);
      if (step.k !== 'done') throw new Error('4 equal replies did not match');
      return step.ok;
    });
    // The client keeps each predicate with the rows it excuses (decision 0019), named only at commit (0051).
    const named = timed(() => {
      const ok = match.value;
      return ok.predicates.map((p): HeldPredicate => ({ ...p, excused: new ExcusedRows(p.table, ok.reads, query.ownWrites) }));
    });
    const result = timed(() => decodeOutcome(match.value.result));
    const commitCosts = withCommit ? commitOnce(query.ts, match.value.reads, named.value) : {};
    const o = result.value;
    const want = filtered ? Math.ceil((start + size) / CATEGORIES) - Math.ceil(start / CATEGORIES) : size;
    if (!o.ok || o.rows.length !== want) throw new Error(`expected ${want} rows`);
    if (named.value.length !== match.value.predicates.length) throw new Error('predicates lost');
    return { replicaMs: replica.ms, encodeMs: enc.ms, ...(encDigest === null ? {} : { encodeDigestMs: encDigest.ms, digestReplyBytes: encDigest.value.length }), decodesMs: dec.ms, matchMs: match.ms, nameKeysMs: named.ms, resultDecodeMs: result.ms, replyBytes: enc.value.length, reads: replica.value.reads.length, ...allocKb, ...commitCosts };
  };

  for (const size of ranges) {
    for (const filtered of [false, true]) {
      measureOnce(size, filtered);
      const runs = Array.from({ length: reps }, () => measureOnce(size, filtered));
      const line: Record<string, number> = { rows: size, selectivity: filtered ? 1 / CATEGORIES : 1 };
      for (const k of Object.keys(runs[0]!)) line[k] = round(median(runs.map((r) => r[k]!)), 3);
      if (!replicaOnly) {
        line['clientMs'] = round(line['decodesMs']! + line['matchMs']! + line['nameKeysMs']! + line['resultDecodeMs']!, 3);
        // What one range read costs the cluster in CPU: 3f+1 = 4 replicas execute and encode, the client the rest.
        const encodes = digest ? line['encodeMs']! + 3 * line['encodeDigestMs']! : 4 * line['encodeMs']!;
        line['allMs'] = round(4 * line['replicaMs']! + encodes + line['clientMs']!, 3);
      }
      if (json) process.stdout.write(`${JSON.stringify(line)}\n`);
      else process.stderr.write(`${Object.entries(line).map(([k, v]) => `${k}=${v}`).join(' ')}\n`);
    }
  }
}

await main(process.argv.slice(2));
