/**
 * The fixture of the range-read tests (range-reads.test.ts, sync-reuse.test.ts): a replica core loaded
 * with two tables through a committed DDL and load, the single-node engine holding the same rows as the
 * reference, and helpers to ask queries and read replies.
 */
import assert from 'node:assert/strict';
import { encodeTxn } from '../../protocol/codec.ts';
import { keyPairFromSeed } from '../../protocol/crypto/ed25519.ts';
import { signBatch } from '../../protocol/crypto/signed.ts';
import type { ReplicaIndex, ShardId } from '../../protocol/ids.ts';
import type { Certificate, Key, Message, Query, QueryReply, Txn, TxnBody, WriteEntry, Writeback } from '../../protocol/messages.ts';
import { voteLeaf } from '../../protocol/statements.ts';
import { ts, type Timestamp } from '../../protocol/timestamp.ts';
import type { TableDef } from '../../sql/catalog.ts';
import { Engine } from '../../sql/engine.ts';
import { CATALOG_KEY, CatalogVersion } from '../../sql/replicated-catalog.ts';
import { primaryKeyOf } from '../../sql/memory-store.ts';
import type { Row, SqlValue } from '../../sql/types.ts';
import { decodeOutcome, encodeOutcome, encodeParams } from '../../sql/wire-values.ts';
import type { ApplyFault } from './range-reads.ts';
import { ReplicaCore, type ReplicaEffect } from './replica-core.ts';
import { encodeRow } from '../../sql/row-codec.ts';
import { rowKey } from '../../sql/row-key.ts';

// f = 1: n = 6. The core trusts the shell to have verified certificates; we still sign for real.
export const N = 6;
export const S0 = 0 as ShardId;
export const NOW = 10_000_000;
export const keys = Array.from({ length: N }, (_, i) => keyPairFromSeed(new Uint8Array(32).fill(i + 1)));
export const tsAt = (micros: number, client = 1): Timestamp => ts(NOW - 1_000_000 + micros, client);
export const Q_TS = tsAt(500, 9);

export const engine = await Engine.create();

// ---- the schema and data, in the single-node engine (the reference) and as replicated values ----

export const DDL = [
  'CREATE TABLE acct (w int, id int, bal numeric(10,2), tag text, PRIMARY KEY (w, id))',
  'CREATE INDEX acct_tag ON acct (tag)',
  'CREATE TABLE log (msg text)',
];

export function catalogAfter(ddl: readonly string[]): CatalogVersion {
  let v = CatalogVersion.empty;
  for (const sql of ddl) v = v.apply(engine.parse(sql).stmts[0]!).next!;
  return v;
}
export const CATALOG = catalogAfter(DDL);
export const acct = CATALOG.catalog.require('acct');
export const logT = CATALOG.catalog.require('log');

export const ref = await Engine.create();
export const refSession = ref.session();
for (const sql of DDL) assert.ok(refSession.execute(sql).ok);
export const tags = ["'a'", "'b'", "'ab'", 'NULL'];
for (let w = 1; w <= 3; w++) {
  const vals: string[] = [];
  for (let id = 1; id <= 10; id++) vals.push(`(${w}, ${id}, ${((w * id * 7) % 100) + 0.25}, ${tags[(w + id) % 4]})`);
  assert.ok(refSession.execute(`INSERT INTO acct VALUES ${vals.join(', ')}`).ok);
}

export function refRows(table: TableDef): Row[] {
  return [...ref.store.scan({ table: ref.catalog.require(table.name), index: null, lo: '', hi: null, predicate: null, mode: 'read', reverse: false })].map((r) => r.row);
}
export const keyOf = (table: TableDef, row: Row): Key => rowKey(table.id, primaryKeyOf(table, row));
export const rowWrite = (table: TableDef, row: Row): WriteEntry => ({ key: keyOf(table, row), value: encodeRow(table, row) });
assert.ok(refSession.execute("INSERT INTO log VALUES ('apple'), ('banana'), ('avocado')").ok);
export const LOG_ROWS: Row[] = refRows(logT);
export const acctRow = (w: number, id: number): Row => refRows(acct).find((r) => r[0] === w && r[1] === id)!;

// ---- transactions and certificates ----

export function txnOf(at: Timestamp, over: Partial<TxnBody> = {}): Txn {
  const writes = [...(over.writes ?? [])].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return encodeTxn({ ts: at, shards: [S0], reads: [], deps: [], predicates: [], meta: new Uint8Array(0), ...over, writes });
}

export function commitCert(t: Txn): Certificate {
  return { kind: 'votes', votes: { decision: 'commit', shards: [{ shard: S0, sigs: keys.map((k, i) => signBatch([voteLeaf(t.digest, S0, 'commit')], k.secretKey, i)[0]!) }] } };
}
export function abortCert(t: Txn): Certificate {
  return { kind: 'votes', votes: { decision: 'abstain', shards: [{ shard: S0, sigs: [0, 1, 2, 3].map((i) => signBatch([voteLeaf(t.digest, S0, 'abstain')], keys[i]!.secretKey, i)[0]!) }] } };
}
export const committed = (t: Txn): Writeback => ({ kind: 'writeback', digest: t.digest, cert: commitCert(t), txn: t });

export const DDL_TXN = txnOf(tsAt(10), { writes: [{ key: CATALOG_KEY, value: CATALOG.value() }] });
export const LOAD_TXN = txnOf(tsAt(20), { writes: [...refRows(acct).map((r) => rowWrite(acct, r)), ...LOG_ROWS.map((r) => rowWrite(logT, r))] });

export function newCore(index = 0, over: { engine?: Engine | null; applyFault?: ApplyFault; txnKeysMax?: number; messageBytesMax?: number; syncReuseBytesMax?: number } = {}): ReplicaCore {
  const e = over.engine === undefined ? engine : over.engine;
  return new ReplicaCore(
    {
      shard: S0,
      index: index as ReplicaIndex,
      f: 1,
      owns: () => true,
      clockSkewMaxMicros: 1_000_000,
      gcWindowMicros: 5_000_000,
      ...(e === null ? {} : { engine: e }),
      ...(over.applyFault === undefined ? {} : { applyFault: over.applyFault }),
      ...(over.syncReuseBytesMax === undefined ? {} : { syncReuseBytesMax: over.syncReuseBytesMax }),
      ...(over.txnKeysMax === undefined && over.messageBytesMax === undefined ? {} : { limits: { txnKeysMax: over.txnKeysMax ?? 10_000, messageBytesMax: over.messageBytesMax ?? 4 << 20 } }),
    },
    { nowMicros: () => NOW },
  );
}

/** Signs pending `sign` effects as the shell would; returns every effect. */
export function drain(core: ReplicaCore): ReplicaEffect[] {
  const all: ReplicaEffect[] = [];
  for (let effects = core.takeEffects(); effects.length > 0; effects = core.takeEffects()) {
    all.push(...effects);
    for (const e of effects) if (e.kind === 'sign') core.onSigned(e.ref, signBatch([e.leaf], keys[core.opts.index]!.secretKey, core.opts.index)[0]!);
  }
  return all;
}

/**
 * A replica holding the schema and the rows. With a fault, it restored them from its log (the fault
 * applies to writebacks from then on).
 */
export function loadedCore(index = 0, over: Parameters<typeof newCore>[1] = {}): ReplicaCore {
  const core = newCore(index, over);
  if (over.applyFault !== undefined) {
    core.restore([DDL_TXN, LOAD_TXN].map((t) => ({ kind: 'writeback', writeback: committed(t), txn: t })));
    return core;
  }
  core.handle(1, committed(DDL_TXN));
  core.handle(1, committed(LOAD_TXN));
  drain(core);
  return core;
}

export const sent = (effects: ReplicaEffect[]): Message[] => effects.flatMap((e) => (e.kind === 'send' ? [e.msg] : []));
export const replies = (effects: ReplicaEffect[]): QueryReply[] => sent(effects).filter((m): m is QueryReply => m.kind === 'queryReply');
export const toReplicas = (effects: ReplicaEffect[]): Extract<ReplicaEffect, { kind: 'sendReplica' }>[] => effects.flatMap((e) => (e.kind === 'sendReplica' ? [e] : []));

export function query(sql: string, params: SqlValue[] = [], over: Partial<Query> = {}): Query {
  return { kind: 'query', req: 7, ts: Q_TS, sql, params: encodeParams(params), ownWrites: [], recon: false, retry: 0, snapshot: [], ...over };
}

/** Sends `q` and returns the one reply it got at once. */
export function ask(core: ReplicaCore, q: Query): QueryReply {
  core.handle(50, q);
  const r = replies(drain(core));
  assert.equal(r.length, 1, `one reply to ${q.sql}`);
  return r[0]!;
}

/** The single-node engine's outcome bytes for the same statement (the replica's must be identical). */
export function refOutcome(sql: string, params: SqlValue[] = []): Uint8Array {
  const r = refSession.execute(sql, params);
  return encodeOutcome(r.ok ? { ok: true, columns: r.columns, rows: r.rows } : { ok: false, code: r.error.code, message: r.error.message, detail: r.error.detail });
}

export function rowsOf(reply: QueryReply): Row[] {
  const o = decodeOutcome(reply.result);
  if (!o.ok) assert.fail(`error outcome ${o.code}: ${o.message}`);
  return o.rows.map((r) => [...r]);
}

export function errorOf(reply: QueryReply): string {
  const o = decodeOutcome(reply.result);
  assert.equal(o.ok, false, 'an error outcome');
  return o.ok ? '' : o.code;
}

export const balOf = (reply: QueryReply): string[] => rowsOf(reply).map((r) => String(r[0]));
