import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encodeTxn } from '../../protocol/codec.ts';
import { digestKey, type DigestKey, type ShardId } from '../../protocol/ids.ts';
import type { CommittedTxn, Dependency, Key, ReadEntry, Txn, TxnBody, WriteEntry } from '../../protocol/messages.ts';
import { ts, ZERO_TS, type Timestamp } from '../../protocol/timestamp.ts';
import { DEFAULT_GRACE } from '../../protocol/config.ts';
import { CatalogLookup, graceMicros } from './semantic-cc.ts';
import { Store } from './store.ts';
import { validate, type ValidationContext, type Verdict } from './validation.ts';

const s = (n: number): ShardId => n as ShardId;
const T = ts(1_000, 1);
const NOW = 1_000;

function txnOf(over: Partial<TxnBody>): Txn {
  return encodeTxn({ ts: T, shards: [s(0)], reads: [], writes: [], deps: [], predicates: [], meta: new Uint8Array(0), ...over });
}

/** A commit proof whose identity is all validation cares about (the shell verifies certificates). */
function proofOf(at: Timestamp, writes: WriteEntry[] = []): CommittedTxn {
  const txn = txnOf({ ts: at, writes });
  return { txn, cert: { kind: 'votes', votes: { decision: 'commit', shards: [{ shard: s(0), sigs: [] }] } } };
}

const rd = (key: Key, version: Timestamp): ReadEntry => ({ key, version });
const wr = (key: Key): WriteEntry => ({ key, value: new Uint8Array([7]) });

const WRITER = proofOf(ts(600, 2), [wr('a')]);
const READER = proofOf(ts(1_500, 3));
const DEP = txnOf({ ts: ts(900, 4), writes: [wr('d')] });
const dep = (at: Timestamp, shard = 0): Dependency => ({ digest: DEP.digest, shard: s(shard), ts: at });

type Status = ReturnType<ValidationContext['txnStatus']>;

/** Steps 2, 7 and 8 with nothing to find: no SQL tables in these key-value cases (semantic-cc.test.ts). */
function semantic(store: Store): Pick<ValidationContext, 'store' | 'owns' | 'grace' | 'catalogs'> {
  return { store, owns: () => true, grace: graceMicros(DEFAULT_GRACE), catalogs: new CatalogLookup() };
}

interface Case {
  readonly name: string;
  readonly body: Partial<TxnBody>;
  readonly setup?: (store: Store) => void;
  readonly ctx?: Partial<Omit<ValidationContext, 'store'>>;
  readonly depStatus?: Status;
  /** An `ok` verdict without its key states (checked for every case against the store). */
  readonly expect: Exclude<Verdict, { kind: 'ok' }> | Omit<Extract<Verdict, { kind: 'ok' }>, 'states'>;
}

function committedWrite(key: Key, at: Timestamp, proof: CommittedTxn) {
  return (store: Store): void => store.getOrCreate(key).addCommitted({ ts: at, value: new Uint8Array([1]), txn: proof.txn.key, proof });
}

function preparedWrite(key: Key, at: Timestamp) {
  return (store: Store): void => store.getOrCreate(key).addPrepared({ ts: at, value: new Uint8Array([2]), txn: 'p' as DigestKey, proof: null });
}

const cases: Case[] = [
  { name: 'votes ok when nothing conflicts', body: { reads: [rd('a', ts(500, 2))], writes: [wr('b')] }, setup: committedWrite('a', ts(500, 2), proofOf(ts(500, 2), [wr('a')])), expect: { kind: 'ok' } },
  { name: 'abstains when T is further ahead of the clock than the skew bound', body: {}, ctx: { nowMicros: 800, clockSkewMaxMicros: 100 }, expect: { kind: 'abstain', reason: 'clock-ahead' } },
  { name: 'accepts T exactly at the clock skew bound', body: {}, ctx: { nowMicros: 900, clockSkewMaxMicros: 100 }, expect: { kind: 'ok' } },
  { name: 'abstains when T is below the low watermark', body: {}, ctx: { lowWatermark: ts(1_000, 2) }, expect: { kind: 'abstain', reason: 'too-old' } },
  { name: 'abstains when a read version equals T', body: { reads: [rd('a', T)] }, expect: { kind: 'abstain', reason: 'read-version-not-below-ts' } },
  { name: 'abstains when a read version is above T', body: { reads: [rd('a', ts(2_000, 0))] }, expect: { kind: 'abstain', reason: 'read-version-not-below-ts' } },
  {
    name: 'aborts a reader that missed a newer committed write below T, carrying the writer proof',
    body: { reads: [rd('a', ts(500, 2))] },
    setup: committedWrite('a', ts(600, 2), WRITER),
    expect: { kind: 'abort', reason: 'read-committed-conflict', conflict: WRITER },
  },
  {
    name: 'ignores a committed write above T',
    body: { reads: [rd('a', ts(500, 2))] },
    setup: committedWrite('a', ts(1_200, 2), proofOf(ts(1_200, 2), [wr('a')])),
    expect: { kind: 'ok' },
  },
  { name: 'abstains when a prepared write lies between the read version and T', body: { reads: [rd('a', ZERO_TS)] }, setup: preparedWrite('a', ts(700, 5)), expect: { kind: 'abstain', reason: 'read-prepared-conflict', prepared: 'p' as DigestKey } },
  { name: 'ignores a prepared write above T', body: { reads: [rd('a', ZERO_TS)] }, setup: preparedWrite('a', ts(1_100, 5)), expect: { kind: 'ok' } },
  {
    name: 'aborts a writer that a committed later reader missed, carrying the reader proof',
    body: { writes: [wr('b')] },
    setup: (st) => st.getOrCreate('b').addCommittedRead({ readerTs: ts(1_500, 3), version: ts(500, 2), txn: READER.txn.key, proof: READER }),
    expect: { kind: 'abort', reason: 'write-committed-read-conflict', conflict: READER },
  },
  {
    name: 'ignores a committed later reader that read at or above T',
    body: { writes: [wr('b')] },
    setup: (st) => st.getOrCreate('b').addCommittedRead({ readerTs: ts(1_500, 3), version: ts(1_200, 0), txn: READER.txn.key, proof: READER }),
    expect: { kind: 'ok' },
  },
  {
    name: 'ignores a committed earlier reader',
    body: { writes: [wr('b')] },
    setup: (st) => st.getOrCreate('b').addCommittedRead({ readerTs: ts(800, 3), version: ts(500, 2), txn: READER.txn.key, proof: READER }),
    expect: { kind: 'ok' },
  },
  {
    name: 'abstains when a prepared later reader read below T',
    body: { writes: [wr('b')] },
    setup: (st) => st.getOrCreate('b').addPreparedRead({ readerTs: ts(1_500, 3), version: ts(500, 2), txn: 'r' as DigestKey, proof: null }),
    expect: { kind: 'abstain', reason: 'write-prepared-read-conflict', prepared: 'r' as DigestKey },
  },
  {
    name: 'prefers a proven abort to an abstain found earlier',
    body: { reads: [rd('a', ZERO_TS)], writes: [wr('b')] },
    setup: (st) => {
      preparedWrite('a', ts(700, 5))(st);
      st.getOrCreate('b').addCommittedRead({ readerTs: ts(1_500, 3), version: ts(500, 2), txn: READER.txn.key, proof: READER });
    },
    expect: { kind: 'abort', reason: 'write-committed-read-conflict', conflict: READER },
  },
  {
    // Named, so the client finishes it when this replica knows it (sim SQL seed 439: a crashed client's
    // transaction prepared at 3f+1 replicas blocked every later reader of its writes).
    name: 'abstains when a dependency is not prepared here, naming it',
    body: { deps: [dep(ts(900, 4))] },
    depStatus: 'unknown',
    expect: { kind: 'abstain', reason: 'dependency-missing', prepared: DEP.key },
  },
  { name: 'abstains when a dependency aborted here', body: { deps: [dep(ts(900, 4))] }, depStatus: 'aborted', expect: { kind: 'abstain', reason: 'dependency-aborted' } },
  { name: 'accepts a prepared dependency', body: { deps: [dep(ts(900, 4))] }, depStatus: 'prepared', expect: { kind: 'ok' } },
  { name: 'accepts a committed dependency', body: { deps: [dep(ts(900, 4))] }, depStatus: 'committed', expect: { kind: 'ok' } },
  { name: 'abstains when a dependency is not below T', body: { deps: [dep(ts(1_000, 9))] }, depStatus: 'prepared', expect: { kind: 'abstain', reason: 'dependency-late' } },
  { name: 'ignores a dependency of another shard', body: { shards: [s(0), s(1)], deps: [dep(ts(900, 4), 1)] }, depStatus: 'unknown', expect: { kind: 'ok' } },
  {
    name: 'checks only keys this shard owns',
    body: { shards: [s(0), s(1)], reads: [rd('a', ts(500, 2))], writes: [wr('b')] },
    setup: (st) => {
      committedWrite('a', ts(600, 2), WRITER)(st);
      st.getOrCreate('b').addCommittedRead({ readerTs: ts(1_500, 3), version: ts(500, 2), txn: READER.txn.key, proof: READER });
    },
    ctx: { owns: (k: Key) => k !== 'a' && k !== 'b' },
    expect: { kind: 'ok' },
  },
  {
    name: 'abstains on a write of a key every shard stores (the catalog) when a shard is left out',
    body: { shards: [s(1)], writes: [{ key: '\x00\x00\x00\x00catalog', value: new Uint8Array([1]) }] },
    ctx: { shardCount: 2 },
    expect: { kind: 'abstain', reason: 'system-write-not-on-every-shard' },
  },
  { name: 'accepts a catalog write that involves every shard', body: { shards: [s(0), s(1)], writes: [{ key: '\x00\x00\x00\x00catalog', value: new Uint8Array([1]) }] }, ctx: { shardCount: 2 }, expect: { kind: 'ok' } },
  {
    name: 'still checks read versions of keys it does not own',
    body: { shards: [s(0), s(1)], reads: [rd('a', ts(1_000, 5))] },
    ctx: { owns: () => false },
    expect: { kind: 'abstain', reason: 'read-version-not-below-ts' },
  },
];

void describe('validate (PROTOCOL §5)', () => {
  for (const c of cases) {
    void it(c.name, () => {
      const store = new Store();
      c.setup?.(store);
      const body = txnOf(c.body).body;
      const depKeys = body.deps.map((d) => digestKey(d.digest));
      const ctx: ValidationContext = {
        ...semantic(store),
        owns: () => true,
        shard: s(0),
        shardCount: 1,
        txnStatus: (k) => (k === DEP.key ? (c.depStatus ?? 'unknown') : 'unknown'),
        nowMicros: NOW,
        clockSkewMaxMicros: 0,
        lowWatermark: ZERO_TS,
        ...c.ctx,
      };
      const v = validate(ctx, body, depKeys);
      if (v.kind !== 'ok') {
        assert.deepEqual(v, c.expect);
        return;
      }
      const { states, ...rest } = v;
      assert.deepEqual(rest, c.expect);
      // The states validation found, at the body's positions, for prepare and commit to reuse.
      assert.equal(states.reads?.length, body.reads.length);
      assert.equal(states.writes.length, body.writes.length);
      body.reads.forEach((r, i) => assert.equal(states.reads![i], ctx.owns(r.key) ? store.get(r.key) : undefined));
      body.writes.forEach((w, i) => assert.equal(states.writes[i], ctx.owns(w.key) ? store.get(w.key) : undefined));
    });
  }

  void it('leaves keys it does not own without a state', () => {
    const store = new Store();
    committedWrite('a', ts(500, 2), proofOf(ts(500, 2), [wr('a')]))(store);
    committedWrite('b', ts(500, 2), proofOf(ts(500, 2), [wr('b')]))(store);
    const v = validate(
      { ...semantic(store), owns: (k) => k !== 'b', shard: s(0), shardCount: 1, txnStatus: () => 'unknown', nowMicros: NOW, clockSkewMaxMicros: 0, lowWatermark: ZERO_TS },
      txnOf({ reads: [rd('a', ts(500, 2)), rd('b', ts(500, 2))], writes: [wr('b')] }).body,
      [],
    );
    assert.ok(v.kind === 'ok');
    assert.equal(v.states.reads![0], store.get('a'));
    assert.equal(v.states.reads![1], undefined);
    assert.equal(v.states.writes[0], undefined);
  });

  void it('reports the conflicting proof by identity, not a copy', () => {
    const store = new Store();
    committedWrite('a', ts(600, 2), WRITER)(store);
    const v = validate(
      { ...semantic(store), shard: s(0), shardCount: 1, txnStatus: () => 'unknown', nowMicros: NOW, clockSkewMaxMicros: 0, lowWatermark: ZERO_TS },
      txnOf({ reads: [rd('a', ZERO_TS)] }).body,
      [],
    );
    assert.equal(v.kind, 'abort');
    assert.ok(v.kind === 'abort' && v.conflict === WRITER);
  });
});
