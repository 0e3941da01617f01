/**
 * Instance DDL on the cluster (issue 4, docs/decisions/0012): the catalog change a DDL statement
 * writes, and the storage moves it needs. TRUNCATE and row rewrites (ALTER TABLE ... ADD PRIMARY KEY /
 * ADD COLUMN / ALTER COLUMN TYPE) move a table to a fresh storage id; rewritten rows are copied in chunks of range reads
 * and leave in load batches (load-batches.ts); a new unique index is checked against the table's rows.
 * The session (sql-session.ts) calls `runDdl` and lends it its range read.
 */
import { StatementDraws } from './statement-draws.ts';
import type { Node } from 'libpg-query';
import { quoteIdent, type IndexDef, type TableDef } from '../../sql/catalog.ts';
import { SqlError, SqlState } from '../../sql/errors.ts';
import { orphanOf } from '../../sql/foreign-keys.ts';
import { primaryKeyOf, uniqueEntryPrefix, uniqueIndexDuplicated } from '../../sql/memory-store.ts';
import { CATALOG_KEY, type CatalogVersion, type DdlDataAction } from '../../sql/replicated-catalog.ts';
import { CatalogImageError } from '../../sql/catalog-image.ts';
import type { Row, SqlValue } from '../../sql/types.ts';
import type { StatementOutcome } from '../../sql/wire-values.ts';
import { encodeRow } from '../../sql/row-codec.ts';
import { rowKey } from '../../sql/row-key.ts';
import type { PestoClient } from '../pesto-client.ts';
import { allocateStorage } from './load-batches.ts';
import { counterKey, counterValue } from './sequence-values.ts';
import type { SqlTxn } from './sql-txn.ts';
import type { ExecContext, SessionIdentity } from '../../sql/exec-context.ts';
import { SqlTimestamp } from '../../sql/datetime.ts';
import { withSessionZone, type SessionZone } from '../../sql/session-zone.ts';
import { randomBytes } from 'node:crypto';

/** The session's range read of `sql` (PROTOCOL §4.2); throws 40001 when replicas cannot agree. */
export type RangeRead = (txn: SqlTxn, sql: string, params: readonly SqlValue[], recon: boolean, table: TableDef | null, readsAsPredicates?: number) => Promise<StatementOutcome>;

/** What `runDdl` needs from the session running it. */
export interface DdlEnv {
  readonly client: PestoClient;
  /** Whether an explicit transaction is open (BEGIN ... COMMIT/ROLLBACK), asked when the statement needs it. */
  readonly explicit: () => boolean;
  readonly rangeRead: RangeRead;
  /** Who runs the statement (its privileges are checked; it owns what it creates: sql/roles.ts). */
  readonly identity: SessionIdentity;
  /** The client's clock (ADD COLUMN ... DEFAULT clock_timestamp()). */
  readonly clockMicros: () => number;
  /** The session's TimeZone: what the statement and its rewrites evaluate in (ADD COLUMN ... DEFAULT now()::date). */
  readonly zone: SessionZone;
  /** Log entries beyond which the catalog is written as one image (CATALOG_COMPACT_AT by default). */
  readonly catalogCompactAt: number;
}

/** Applies a DDL statement in `txn`: its storage moves and row copies, then the new catalog. Returns the statement's outcome (tag, notice). */
export async function runDdl(env: DdlEnv, txn: SqlTxn, node: Node): Promise<ReturnType<CatalogVersion['apply']>['outcome']> {
  // What a rewrite evaluates per row (ADD COLUMN ... DEFAULT now() / gen_random_uuid()): the transaction's time, fresh random bytes.
  const ctx: ExecContext = {
    source: { scan: () => [], get: () => null }, // a DEFAULT reads no table
    writes: null, recorder: null, now: new SqlTimestamp(BigInt(txn.ts.micros)),
    nextRowId: () => txn.nextRowId(), sequences: undefined, random: (n) => randomBytes(n), identity: env.identity,
    ...new StatementDraws(env.clockMicros).sessionTime(txn, 0, false),
  };
  // Expressions run in the session's zone, each synchronous call wrapped (sql/session-zone.ts).
  const inZone = <A, R>(f: (a: A) => R): ((a: A) => R) => (a) => withSessionZone(env.zone, () => f(a), BigInt(txn.ts.micros));
  let { next, outcome, actions } = inZone((n: Node) => txn.catalog.apply(n, ctx))(node);
  if (actions.some((a) => a.k === 'rewrite' || a.k === 'truncate')) ({ next, outcome, actions } = await onFreshStorage(env, txn, node, actions, ctx));
  actions = actions.map((a) => (a.k === 'rewrite' ? { ...a, transform: inZone(a.transform) } : a.k === 'validate' ? { ...a, test: inZone(a.test) } : a));
  // A table the statement rewrites is checked over the rows the rewrite makes (its storage now holds
  // only the old rows, under the old catalog, and with several shards on another shard).
  const rewritten = new Set(actions.flatMap((a) => (a.k === 'rewrite' ? [a.after.name] : [])));
  const tests = (name: string): ((row: Row) => void)[] => actions.flatMap((a) => (a.k === 'validate' && a.table.name === name ? [a.test] : []));
  for (const a of actions) {
    // The old storage as the statement found it (the rows' layout `transform` expects).
    if (a.k === 'rewrite') await copyRows(env, txn, txn.catalog.catalog.require(a.before.name), a.after, a.transform, tests(a.after.name));
    else if (a.k === 'unique') await checkUnique(env, txn, a.table, a.index);
    else if (a.k === 'validate' && !rewritten.has(a.table.name)) for (const row of await allRows(env, txn, a.table)) a.test(row);
    else if (a.k === 'sequence') txn.put(counterKey(a.seq), counterValue(a.state));
    else if (a.k === 'foreign-key') {
      const [child, parent] = await Promise.all([allRows(env, txn, a.child), allRows(env, txn, a.parent)]);
      const e = orphanOf(a.child, a.parent, a.fk, child, parent);
      if (e !== null) throw e;
    }
  }
  let cv = next;
  // A table created inside a transaction gets a fresh storage at once: a load into it may then leave
  // in batches (autocommit CREATE TABLE has no rows to load and keeps its catalog id).
  const created = 'CreateStmt' in node ? node.CreateStmt.relation?.relname : undefined;
  if (cv !== null && env.explicit() && created !== undefined && txn.catalog.catalog.get(created) === undefined) {
    const id = await allocateStorage(env.client);
    cv = cv.withStorage(created, id);
    txn.addFresh(id);
  }
  if (cv !== null && cv.log.length > env.catalogCompactAt) cv = compacted(cv);
  if (cv !== null) {
    txn.scans = new Map(); // fetched under the old table definitions
    txn.catalog = cv;
    txn.catalogWritten = true;
    txn.put(CATALOG_KEY, cv.value());
  }
  return outcome;
}

/**
 * The catalog as one image when it can be written as one (decision 0077), else as it is: the log then
 * grows on, as it did before images existed, and the next DDL tries again.
 */
function compacted(cv: CatalogVersion): CatalogVersion {
  try {
    return cv.compact();
  } catch (e) {
    if (e instanceof CatalogImageError) return cv;
    throw e;
  }
}

/** Every row of the table at T (a reconnaissance read: its predicate makes a concurrent writer conflict). */
async function allRows(env: DdlEnv, txn: SqlTxn, table: TableDef): Promise<readonly Row[]> {
  const o = await env.rangeRead(txn, `DELETE FROM ${quoteIdent(table.name)}`, [], true, table);
  if (!o.ok) throw new SqlError(o.code, o.message, o.detail);
  return o.rows;
}

/** A new unique index on a table that may hold rows: no two rows may repeat its key (23505 as the engine says). */
async function checkUnique(env: DdlEnv, txn: SqlTxn, table: TableDef, index: IndexDef): Promise<void> {
  const seen = new Set<string>();
  for (const row of await allRows(env, txn, table)) {
    const k = uniqueEntryPrefix(index, row);
    if (k === null) continue;
    if (seen.has(k)) throw uniqueIndexDuplicated(table, index, row);
    seen.add(k);
  }
}

/**
 * TRUNCATE and row rewrites (ADD PRIMARY KEY, ADD COLUMN, ALTER COLUMN TYPE) move each table they touch to a fresh
 * storage (docs/decisions/0012), switched before the statement in the catalog log: the old storage
 * keeps the definition its rows were written with, the new one starts empty (truncated: no reads,
 * no deletes) and gets the statement's layout. Returns the statement applied after the switches.
 */
async function onFreshStorage(env: DdlEnv, txn: SqlTxn, node: Node, actions: readonly DdlDataAction[], ctx: ExecContext): Promise<ReturnType<CatalogVersion['apply']>> {
  let cv = txn.catalog;
  const names = new Set(actions.flatMap((a) => (a.k === 'truncate' ? [a.table.name] : a.k === 'rewrite' ? [a.after.name] : [])));
  for (const name of names) {
    const id = await allocateStorage(env.client);
    cv = cv.withStorage(name, id);
    txn.addFresh(id);
  }
  const out = withSessionZone(env.zone, () => cv.apply(node, ctx), BigInt(txn.ts.micros));
  return { ...out, actions: oneRewrite(out.actions) };
}

/**
 * The rewrites of one statement (ALTER TABLE ... ADD COLUMN x, ALTER y TYPE z, ...: each subcommand's
 * `before` is the previous one's `after`) as one, in the first one's place: the rows are copied once,
 * through every transform in order.
 */
function oneRewrite(actions: readonly DdlDataAction[]): readonly DdlDataAction[] {
  const rewrites = actions.filter((a) => a.k === 'rewrite');
  if (rewrites.length < 2) return actions;
  const first = rewrites[0]!;
  const merged: DdlDataAction = { k: 'rewrite', before: first.before, after: rewrites[rewrites.length - 1]!.after, transform: (row) => rewrites.reduce((r, a) => a.transform(r), row) };
  return actions.flatMap((a): DdlDataAction[] => (a === first ? [merged] : a.k === 'rewrite' ? [] : [a]));
}

/**
 * Copies every row of `before` (its old storage) through `transform` into `after` (the fresh one).
 * The old storage is read in chunks by primary key, each a range read whose rows join the read set
 * only through its predicates (readsAsPredicates: a writer of the old storage conflicts with them,
 * SemanticCC and write monotonicity), and the copies leave in load batches. Two rows with one new
 * primary key, or one key of a unique index whose types changed, fail the statement with 23505, as
 * PostgreSQL's index build does.
 */
async function copyRows(env: DdlEnv, txn: SqlTxn, before: TableDef, after: TableDef, transform: (row: Row) => Row, tests: readonly ((row: Row) => void)[]): Promise<void> {
  const cols = before.columns.map((c) => quoteIdent(c.name)).join(', ');
  const pkCol = before.pk.length === 1 ? quoteIdent(before.columns[before.pk[0]!]!.name) : null;
  let chunk = Math.max(16, Math.min(5000, txn.limits.txnKeysMax >> 1));
  let last: SqlValue | undefined;
  const seen = new Set<string>();
  // Unique indexes whose key types changed (ALTER COLUMN TYPE): converted rows may now repeat a key.
  const changed = after.indexes.filter((x) => x.unique).filter((x) => {
    const old = before.indexes.find((y) => y.name === x.name);
    return old === undefined || old.types.some((ty, j) => ty !== x.types[j]);
  }).map((index) => ({ index, keys: new Set<string>() }));
  // Rows read within twice the grace periods below the table version keep read-set entries (QuerySpec.readsAsPredicates).
  const { monotonicityMs, nonMonotonicityMs } = env.client.opts.config.grace;
  const window = 2000 * (monotonicityMs + nonMonotonicityMs);
  for (;;) {
    const sql = pkCol === null
      ? `SELECT ${cols} FROM ${quoteIdent(before.name)}`
      : `SELECT ${cols} FROM ${quoteIdent(before.name)}${last === undefined ? '' : ` WHERE ${pkCol} > $1`} LIMIT ${chunk}`;
    const o = await env.rangeRead(txn, sql, last === undefined ? [] : [last], false, before, window);
    if (!o.ok) {
      // A chunk whose read set or result would not fit a message: smaller chunks.
      if (o.code === SqlState.programLimitExceeded && pkCol !== null && chunk > 16) {
        chunk >>= 1;
        continue;
      }
      throw new SqlError(o.code, o.message, o.detail);
    }
    for (const raw of o.rows) {
      const row = transform(raw as Row);
      for (const test of tests) test(row);
      const pk = primaryKeyOf(after, row);
      if (seen.has(pk)) {
        const names = after.pk.map((i) => after.columns[i]!.name);
        throw new SqlError(SqlState.uniqueViolation, `could not create unique index "${after.name}_pkey"`, `Key (${names.join(', ')})=(${after.pk.map((i) => String(row[i])).join(', ')}) is duplicated.`);
      }
      seen.add(pk);
      for (const { index, keys } of changed) {
        const k = uniqueEntryPrefix(index, row);
        if (k === null) continue;
        if (keys.has(k)) throw uniqueIndexDuplicated(after, index, row);
        keys.add(k);
      }
      txn.put(rowKey(after.id, pk), encodeRow(after, row));
      txn.writes.put(after, pk, row);
    }
    await txn.settle();
    if (pkCol === null || o.rows.length < chunk) return;
    last = (o.rows[o.rows.length - 1] as SqlValue[])[before.pk[0]!];
  }
}
