/**
 * The simulator's SQL workload (issue 4 over the simulator): one table of accounts, range reads with
 * predicates that invite phantoms, point reads, and writes of encoded rows, driven straight through
 * the client core (`query`, `read`, `write`, `noteRead`, `commit`) with statements built here. The
 * client's SQL session (client/sql/sql-session.ts) is async and runs over the client shell; the
 * simulator cannot await (a run is one synchronous loop of virtual events), so this workload does
 * what the session does, by hand, in callbacks:
 *
 * - setup: a DDL transaction reads CATALOG_KEY (absent) and writes the catalog that
 *   `CREATE TABLE acct (id int PRIMARY KEY, bal int NOT NULL, tag text)` yields
 *   (sql/replicated-catalog.ts); a load transaction range-reads the empty table and writes `rows`
 *   rows at the even ids of [0, 2 rows), each with the same balance. Odd ids are free for inserts.
 * - every later transaction notes the catalog version it knows (`noteRead`, as the session does with
 *   its cached catalog), then runs one of these, chosen at random and retried with the same intent
 *   after an abort:
 *   - `transfer`: point-reads two rows, moves an amount if the funds allow;
 *   - `scan-transfer`: range-reads the rows of an id range and moves an amount between two of them
 *     (sometimes all of it, leaving a zero balance);
 *   - `insert`: range-reads count and sum of an id range, point-reads a free id in it and a funding
 *     row, inserts the new row (funded, else with balance 0), then range-reads the range again over
 *     its own buffered writes: concurrent inserts into ranges others scan are the phantoms;
 *   - `close`: point-reads two rows, moves the first's balance to the second, deletes the first;
 *   - `report` (read-only): a filter on a non-key column over the whole table, a BETWEEN range with a
 *     filter and an ORDER BY on a non-key column, a primary-key point query and an IN list, all as
 *     range reads;
 *   - `sweep`: the reconnaissance read of `DELETE FROM acct WHERE id in range AND bal = 0`, then
 *     deletes the rows it returned.
 *   Every transaction conserves the total balance. Every row written carries a tag unique to its
 *   writer, so a result names the versions it saw (no ABA).
 * - audit: a read-only transaction range-reads the count and sum of the table and every row.
 *
 * Everything each transaction did is logged in order (`ops`): point reads with the bytes seen,
 * queries with their parameters and result bytes, writes with the bytes written. The checker
 * (checker-sql.ts) replays the committed transactions serially in timestamp order and re-evaluates
 * every query on the state below its timestamp plus the transaction's own earlier writes.
 */
import type { Node } from 'libpg-query';
import type { Key, WriteEntry } from '../protocol/messages.ts';
import { shardOfTable } from '../protocol/sharding.ts';
import { formatTs, type Timestamp } from '../protocol/timestamp.ts';
import type { OpResult } from '../client/core/results.ts';
import type { TableDef } from '../sql/catalog.ts';
import type { Engine } from '../sql/engine.ts';
import { encodeKey } from '../sql/key-encoding.ts';
import { CATALOG_KEY, CatalogVersion } from '../sql/replicated-catalog.ts';
import { decodeRow, encodeRow } from '../sql/row-codec.ts';
import { rowKey } from '../sql/row-key.ts';
import type { SqlValue } from '../sql/types.ts';
import { decodeOutcome, encodeParams } from '../sql/wire-values.ts';
import type { SimNetwork } from './network.ts';
import type { Prng } from './prng.ts';
import type { SimClient } from './sim-client.ts';

export const CREATE_TABLE = 'CREATE TABLE acct (id int PRIMARY KEY, bal int NOT NULL, tag text)';

/** The statements the workload runs as range reads; checker-sql.ts evaluates each on its own. */
export const SQL_QUERIES = {
  rangeRows: { sql: 'SELECT id, bal, tag FROM acct WHERE id >= $1 AND id < $2 ORDER BY id', recon: false },
  rangeAgg: { sql: 'SELECT count(*), sum(bal) FROM acct WHERE id >= $1 AND id < $2', recon: false },
  filterAgg: { sql: 'SELECT count(*), sum(bal) FROM acct WHERE bal >= $1', recon: false },
  betweenLow: { sql: 'SELECT id, tag FROM acct WHERE id BETWEEN $1 AND $2 AND bal < $3 ORDER BY bal DESC, id', recon: false },
  pointQuery: { sql: 'SELECT bal, tag FROM acct WHERE id = $1', recon: false },
  inList: { sql: 'SELECT count(*), sum(bal) FROM acct WHERE id IN ($1, $2, $3)', recon: false },
  sweepRecon: { sql: 'DELETE FROM acct WHERE id >= $1 AND id < $2 AND bal = 0', recon: true },
  total: { sql: 'SELECT count(*), sum(bal) FROM acct', recon: false },
} as const;

export type SqlQueryName = keyof typeof SQL_QUERIES;

export type SqlOp =
  | { readonly k: 'read'; readonly key: Key; readonly value: Uint8Array | null }
  | { readonly k: 'query'; readonly q: SqlQueryName; readonly params: readonly number[]; readonly result: Uint8Array; readonly syncRounds: number }
  | { readonly k: 'write'; readonly key: Key; readonly value: Uint8Array | null };

export type SqlTxnKind = 'ddl' | 'load' | 'transfer' | 'scan-transfer' | 'insert' | 'close' | 'report' | 'sweep' | 'audit' | 'shadow';

export interface SqlTxnLog {
  readonly client: number;
  readonly kind: SqlTxnKind;
  readonly ts: Timestamp;
  readonly ops: SqlOp[];
  /** `unknown`: a faulty client's transaction, decided (or not) by the replicas, not by its client. */
  outcome: 'pending' | 'commit' | 'abort' | 'failed' | 'unknown';
  /** Pending for its client, committed by correct replicas (workload-bank.ts TxnLog). */
  committedAtReplicas?: boolean;
  path: string;
  startedUs: number;
  endedUs: number;
}

export interface SqlWorkloadOptions {
  /** Rows loaded at setup (ids 0, 2, ..., 2 (rows - 1)). */
  readonly rows: number;
  readonly initialBalance: number;
  /** Committed work transactions after which the clients stop. */
  readonly transactions: number;
  readonly amountMax: number;
  readonly thinkUs: number;
  /** Transactions begun after which the clients give up (a livelock: the checker reports it). */
  readonly attemptsMax: number;
  /**
   * Whether a transaction may read (point or range) after a range read: `insert` range-reads, then
   * point-reads, then range-reads again; `report` runs four range reads. That is what SQL sessions do
   * (and it found the gap of sim/README.md). When false, every transaction's range read comes after
   * its point reads and is its only one.
   */
  readonly readsAfterScans: boolean;
}

/** A row of `acct`. */
export interface AcctRow {
  readonly id: number;
  readonly bal: number;
  readonly tag: string;
}

/** What a transaction means to do, drawn once and kept across retries. */
type Intent =
  | { readonly k: 'transfer'; readonly a: number; readonly b: number; readonly amount: number }
  | { readonly k: 'scan-transfer'; readonly lo: number; readonly hi: number; readonly pickA: number; readonly pickB: number; readonly amount: number; readonly all: boolean }
  | { readonly k: 'insert'; readonly lo: number; readonly hi: number; readonly id: number; readonly funder: number; readonly amount: number }
  | { readonly k: 'close'; readonly a: number; readonly b: number }
  | { readonly k: 'report'; readonly min: number; readonly lo: number; readonly hi: number; readonly below: number; readonly point: number; readonly ids: readonly [number, number, number]; readonly only: number }
  | { readonly k: 'sweep'; readonly lo: number; readonly hi: number };

const WEIGHTS: readonly [Intent['k'], number][] = [
  ['transfer', 16],
  ['scan-transfer', 22],
  ['insert', 24],
  ['close', 6],
  ['report', 20],
  ['sweep', 12],
];

/** The table of the workload's catalog, for the checker (decoding rows) and the workload (encoding them). */
export function acctCatalog(engine: Engine): CatalogVersion {
  const node = engine.parse(CREATE_TABLE).stmts[0] as Node;
  const next = CatalogVersion.empty.apply(node).next;
  if (next === null) throw new Error('CREATE TABLE changed nothing');
  return next;
}

export function acctTable(cv: CatalogVersion): TableDef {
  const t = cv.catalog.get('acct');
  if (t === undefined) throw new Error('no acct table in the catalog');
  return t;
}

export function acctKey(table: TableDef, id: number): Key {
  return rowKey(table.id, encodeKey([id], table.pkTypes));
}

export function decodeAcct(table: TableDef, bytes: Uint8Array): AcctRow {
  const r = decodeRow(table, bytes);
  return { id: Number(r[0]), bal: Number(r[1]), tag: String(r[2]) };
}

/** One transaction of the workload, in callbacks: any failed operation ends it (`onFail`). */
class SqlRun {
  readonly txn: number;
  readonly log: SqlTxnLog;
  readonly own = new Map<Key, Uint8Array | null>();
  #over = false;

  constructor(
    readonly w: SqlWorkload,
    readonly c: SimClient,
    kind: SqlTxnKind,
    readonly onFail: (run: SqlRun, why: string) => void,
  ) {
    this.txn = c.begin();
    this.log = w.logTxn(c, this.txn, kind);
  }

  get tag(): string {
    return `${this.c.id}.${this.txn}`;
  }

  noteCatalog(): void {
    const cat = this.w.catalogRead;
    if (cat !== null) this.c.noteRead(this.txn, CATALOG_KEY, cat.version, cat.value);
  }

  #fail(why: string): void {
    if (this.#over) return;
    this.#over = true;
    this.c.abort(this.txn);
    this.log.outcome = 'failed';
    this.log.path = why;
    this.log.endedUs = this.w.net.nowMicros;
    this.w.net.note(`c${this.c.id} ${this.log.kind} ${formatTs(this.log.ts)} -> failed ${why}`);
    this.onFail(this, why);
  }

  read(key: Key, k: (value: Uint8Array | null, version: Timestamp) => void): void {
    this.c.read(this.txn, key, (r) => {
      if (r.kind !== 'read') return this.#fail(r.kind === 'failed' ? `read-${r.reason}` : 'read-unexpected');
      this.log.ops.push({ k: 'read', key, value: r.value });
      k(r.value, r.version);
    });
  }

  readRow(id: number, k: (row: AcctRow | null) => void): void {
    const table = this.w.table;
    this.read(acctKey(table, id), (v) => k(v === null ? null : decodeAcct(table, v)));
  }

  query(q: SqlQueryName, params: readonly number[], k: (rows: readonly SqlValue[][]) => void): void {
    const spec = SQL_QUERIES[q];
    const ownWrites: WriteEntry[] = [...this.own].map(([key, value]) => ({ key, value })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const shard = shardOfTable(this.w.table.id, this.c.cluster.shardCount);
    this.c.query(this.txn, { shard, sql: spec.sql, params: encodeParams(params), ownWrites, recon: spec.recon }, (r) => {
      if (r.kind !== 'query') return this.#fail(r.kind === 'failed' ? r.reason : 'query-unexpected');
      this.log.ops.push({ k: 'query', q, params, result: r.result, syncRounds: r.syncRounds });
      let o;
      try {
        o = decodeOutcome(r.result);
      } catch {
        return this.#fail('query-result-undecodable');
      }
      if (!o.ok) {
        this.w.noteQueryError(`${o.code} ${o.message}`);
        return this.#fail(`query-error-${o.code}`);
      }
      k(o.rows as SqlValue[][]);
    });
  }

  write(key: Key, value: Uint8Array | null): void {
    this.own.set(key, value);
    this.c.write(this.txn, key, value);
    this.log.ops.push({ k: 'write', key, value });
  }

  writeRow(row: AcctRow): void {
    this.write(acctKey(this.w.table, row.id), encodeRow(this.w.table, [row.id, row.bal, row.tag]));
  }

  deleteRow(id: number): void {
    this.write(acctKey(this.w.table, id), null);
  }

  commit(done: (r: OpResult) => void): void {
    if (this.#over) return;
    this.#over = true;
    this.c.commit(this.txn, (r) => {
      this.w.endTxn(this.log, r);
      done(r);
    });
  }
}

/** Above every id the workload writes (ranges may reach past `idSpace`, so inserts may too). */
const AUDIT_ID_END = 1 << 30;

const asRow = (r: readonly SqlValue[]): AcctRow => ({ id: Number(r[0]), bal: Number(r[1]), tag: String(r[2]) });

export class SqlWorkload {
  readonly history: SqlTxnLog[] = [];
  readonly catalog: CatalogVersion;
  readonly table: TableDef;
  /** The committed catalog every transaction notes (set once the DDL commits). */
  catalogRead: { readonly version: Timestamp; readonly value: Uint8Array | null } | null = null;
  committedWork = 0;
  setupDone = false;
  /** Error outcomes of range reads, by SQLSTATE and message (a stale catalog on a lagging replica, say). */
  readonly queryErrors: Record<string, number> = {};
  #active = 0;

  constructor(
    readonly net: SimNetwork,
    readonly clients: readonly SimClient[],
    readonly prng: Prng,
    readonly opts: SqlWorkloadOptions,
    engine: Engine,
  ) {
    this.catalog = acctCatalog(engine);
    this.table = acctTable(this.catalog);
    for (const c of clients) {
      c.onShadow = (_of, shadow) => {
        // A made-up read-only transaction: it writes nothing, so the replay only needs its outcome.
        this.history.push({ client: c.id, kind: 'shadow', ts: shadow.body.ts, ops: [], outcome: 'unknown', path: 'shadow', startedUs: this.net.nowMicros, endedUs: -1 });
      };
    }
  }

  /** Ids range over [0, idSpace): the loaded rows are the even ones. */
  get idSpace(): number {
    return 2 * this.opts.rows;
  }

  get finished(): boolean {
    return (this.committedWork >= this.opts.transactions || this.gaveUp) && this.#active === 0;
  }

  get targetReached(): boolean {
    return this.committedWork >= this.opts.transactions;
  }

  get gaveUp(): boolean {
    return this.history.length >= this.opts.attemptsMax;
  }

  pending(): SqlTxnLog[] {
    return this.history.filter((t) => t.outcome === 'pending');
  }

  noteQueryError(what: string): void {
    this.queryErrors[what] = (this.queryErrors[what] ?? 0) + 1;
  }

  /** DDL, then the load, each retried until it commits; then every client's loop. */
  start(): void {
    const c = this.clients[0]!;
    const again = (): void => this.net.schedule(this.opts.thinkUs, () => this.start());
    const run = new SqlRun(this, c, 'ddl', again);
    run.read(CATALOG_KEY, (v, version) => {
      if (v !== null) {
        // An earlier attempt committed after all (its client heard no outcome): the catalog is in place.
        this.catalogRead = { version, value: v };
        run.commit(() => this.#load(version));
        return;
      }
      run.write(CATALOG_KEY, this.catalog.value());
      run.commit((r) => {
        if (run.log.outcome !== 'commit' || r.kind !== 'commit') return again();
        this.#load(run.log.ts);
      });
    });
  }

  #load(ddlTs: Timestamp): void {
    this.catalogRead ??= { version: ddlTs, value: this.catalog.value() };
    const c = this.clients[0]!;
    const again = (): void => this.net.schedule(this.opts.thinkUs, () => this.#load(ddlTs));
    const run = new SqlRun(this, c, 'load', again);
    run.noteCatalog();
    run.query('total', [], (rows) => {
      if (Number(rows[0]?.[0] ?? 0) === 0) {
        for (let i = 0; i < this.opts.rows; i++) run.writeRow({ id: 2 * i, bal: this.opts.initialBalance, tag: 'load' });
      }
      run.commit(() => {
        if (run.log.outcome !== 'commit') return again();
        this.setupDone = true;
        for (const client of this.clients) this.#next(client, null);
      });
    });
  }

  #draw(): Intent {
    const rng = this.prng;
    let pick = rng.int(WEIGHTS.reduce((s, [, w]) => s + w, 0));
    let kind: Intent['k'] = 'transfer';
    for (const [k, w] of WEIGHTS) {
      if (pick < w) {
        kind = k;
        break;
      }
      pick -= w;
    }
    const n = this.idSpace;
    const id = (): number => (rng.chance(0.6) ? 2 * rng.int(this.opts.rows) : rng.int(n));
    const range = (): { lo: number; hi: number } => {
      const lo = rng.int(n);
      return { lo, hi: lo + rng.range(2, Math.max(3, Math.ceil(n / 3))) };
    };
    switch (kind) {
      case 'transfer': {
        const a = id();
        return { k: 'transfer', a, b: (a + 1 + rng.int(n - 1)) % n, amount: rng.range(1, this.opts.amountMax) };
      }
      case 'scan-transfer':
        return { k: 'scan-transfer', ...range(), pickA: rng.int(1000), pickB: rng.int(1000), amount: rng.range(1, this.opts.amountMax), all: rng.chance(0.2) };
      case 'insert': {
        const r = range();
        return { k: 'insert', ...r, id: r.lo + rng.int(r.hi - r.lo), funder: id(), amount: rng.range(1, this.opts.amountMax) };
      }
      case 'close': {
        const a = id();
        return { k: 'close', a, b: (a + 1 + rng.int(n - 1)) % n };
      }
      case 'report': {
        const r = range();
        return { k: 'report', min: rng.range(0, 2 * this.opts.initialBalance), lo: r.lo, hi: r.hi, below: rng.range(0, 2 * this.opts.initialBalance), point: id(), ids: [id(), id(), id()], only: rng.int(4) };
      }
      case 'sweep':
        return { k: 'sweep', ...range() };
    }
  }

  #next(c: SimClient, retry: Intent | null): void {
    if (this.committedWork >= this.opts.transactions || this.gaveUp) return;
    this.#active += c.awaited;
    const intent = retry ?? this.#draw();
    const again = (): void => {
      this.#active -= c.awaited;
      this.net.schedule(this.opts.thinkUs, () => this.#next(c, intent));
    };
    const run = new SqlRun(this, c, intent.k, again);
    run.noteCatalog();
    const finish = (): void =>
      run.commit(() => {
        this.#active -= c.awaited;
        const fault = c.faultyTxns.get(run.txn);
        if (fault !== undefined) {
          // A faulty transaction: the replicas decide it; the client goes on with a new intent.
          run.log.outcome = 'unknown';
          run.log.path = fault;
          this.net.schedule(this.opts.thinkUs, () => this.#next(c, null));
        } else if (run.log.outcome === 'commit') {
          this.committedWork++;
          this.net.schedule(this.opts.thinkUs, () => this.#next(c, null));
        } else {
          this.net.schedule(this.opts.thinkUs, () => this.#next(c, intent));
        }
      });
    this.#body(run, intent, finish);
  }

  #body(run: SqlRun, it: Intent, finish: () => void): void {
    const tag = run.tag;
    switch (it.k) {
      case 'transfer':
        return run.readRow(it.a, (a) =>
          run.readRow(it.b, (b) => {
            if (a !== null && b !== null && a.bal >= it.amount) {
              run.writeRow({ id: a.id, bal: a.bal - it.amount, tag });
              run.writeRow({ id: b.id, bal: b.bal + it.amount, tag });
            }
            finish();
          }),
        );
      case 'scan-transfer':
        return run.query('rangeRows', [it.lo, it.hi], (rows) => {
          if (rows.length >= 2) {
            const a = asRow(rows[it.pickA % rows.length]!);
            let bi = it.pickB % rows.length;
            if (bi === it.pickA % rows.length) bi = (bi + 1) % rows.length;
            const b = asRow(rows[bi]!);
            const amount = it.all ? a.bal : Math.min(a.bal, it.amount);
            if (amount > 0) {
              run.writeRow({ id: a.id, bal: a.bal - amount, tag });
              run.writeRow({ id: b.id, bal: b.bal + amount, tag });
            }
          }
          finish();
        });
      case 'insert': {
        const insert = (): void =>
          run.readRow(it.id, (existing) => {
            if (existing !== null) return finish();
            run.readRow(it.funder, (funder) => {
              let bal = 0;
              if (funder !== null && funder.id !== it.id && funder.bal >= it.amount) {
                bal = it.amount;
                run.writeRow({ id: funder.id, bal: funder.bal - it.amount, tag });
              }
              run.writeRow({ id: it.id, bal, tag });
              // Over the transaction's own writes: the new row must be counted.
              if (!this.opts.readsAfterScans) return run.query('rangeAgg', [it.lo, it.hi], () => finish());
              run.query('rangeAgg', [it.lo, it.hi], () => run.query('pointQuery', [it.id], () => finish()));
            });
          });
        if (!this.opts.readsAfterScans) return insert();
        return run.query('rangeAgg', [it.lo, it.hi], insert);
      }
      case 'close':
        return run.readRow(it.a, (a) =>
          run.readRow(it.b, (b) => {
            if (a !== null && b !== null) {
              run.writeRow({ id: b.id, bal: b.bal + a.bal, tag });
              run.deleteRow(a.id);
            }
            finish();
          }),
        );
      case 'report':
        if (!this.opts.readsAfterScans) {
          const one: readonly [SqlQueryName, number[]][] = [
            ['filterAgg', [it.min]],
            ['betweenLow', [it.lo, it.hi, it.below]],
            ['pointQuery', [it.point]],
            ['inList', [...it.ids]],
          ];
          const [q, params] = one[it.only]!;
          return run.query(q, params, () => finish());
        }
        return run.query('filterAgg', [it.min], () =>
          run.query('betweenLow', [it.lo, it.hi, it.below], () => run.query('pointQuery', [it.point], () => run.query('inList', [...it.ids], () => finish()))),
        );
      case 'sweep':
        return run.query('sweepRecon', [it.lo, it.hi], (rows) => {
          for (const r of rows) run.deleteRow(Number(r[0]));
          finish();
        });
    }
  }

  /**
   * Reads the whole table in one read-only transaction, retried until it commits: every row, and
   * (with `readsAfterScans`) count and sum in a second range read.
   */
  audit(c: SimClient, done: (log: SqlTxnLog) => void): void {
    const again = (): void => this.net.schedule(this.opts.thinkUs, () => this.audit(c, done));
    const run = new SqlRun(this, c, 'audit', again);
    run.noteCatalog();
    const commit = (): void =>
      run.commit(() => {
        if (run.log.outcome === 'commit') done(run.log);
        else again();
      });
    run.query('rangeRows', [0, AUDIT_ID_END], () => (this.opts.readsAfterScans ? run.query('total', [], commit) : commit()));
  }

  logTxn(c: SimClient, txn: number, kind: SqlTxnKind): SqlTxnLog {
    const ts = c.core.timestampOf(txn)!;
    const log: SqlTxnLog = { client: c.id, kind, ts, ops: [], outcome: 'pending', path: '', startedUs: this.net.nowMicros, endedUs: -1 };
    this.history.push(log);
    this.net.note(`c${c.id} begin ${kind} ${formatTs(ts)}`);
    return log;
  }

  endTxn(log: SqlTxnLog, r: OpResult): void {
    log.endedUs = this.net.nowMicros;
    if (r.kind !== 'commit') {
      log.outcome = 'failed';
      log.path = r.kind === 'failed' ? r.reason : 'unexpected';
    } else {
      log.outcome = r.outcome;
      log.path = r.outcome === 'abort' ? `${r.path}:${r.cause}` : r.path;
    }
    this.net.note(`c${log.client} ${log.kind} ${formatTs(log.ts)} -> ${log.outcome} ${log.path}`);
  }
}

/** Total balance and row count an audit saw (its scan of every row), or null. */
export function auditTotals(log: SqlTxnLog): { count: number; sum: number } | null {
  const op = log.ops.find((o) => o.k === 'query' && o.q === 'rangeRows');
  if (op === undefined || op.k !== 'query') return null;
  const o = decodeOutcome(op.result);
  if (!o.ok) return null;
  return { count: o.rows.length, sum: o.rows.reduce((s, r) => s + Number(r[1]), 0) };
}
