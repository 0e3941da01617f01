// The replica shell's part of range reads, in process over real TCP links: a sync-round query makes a
// replica dial another replica of its shard (as itself), fetch a missing transaction and answer; fetch
// messages from a client link are dropped and counted. And the log's compaction policy (decision 0062):
// `compactionDue` alone, and a replica with a real log that waits while its log is live and compacts
// once half of it is garbage.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tcpTransport, type DialedLink } from '../../net/index.ts';
import { decodeMessage, encodeMessage, encodeTxn } from '../../protocol/codec.ts';
import { DEFAULT_BATCHING, DEFAULT_GRACE, DEFAULT_LIMITS, DEFAULT_TIMEOUTS, publicKeyOf, type ClusterConfig } from '../../protocol/config.ts';
import { keyPairFromSeed } from '../../protocol/crypto/ed25519.ts';
import { signBatch } from '../../protocol/crypto/signed.ts';
import { clientId, replicaIndex, shardId } from '../../protocol/ids.ts';
import type { Message, Query, Txn, TxnBody, Writeback } from '../../protocol/messages.ts';
import { voteLeaf } from '../../protocol/statements.ts';
import { Engine } from '../../sql/engine.ts';
import { CATALOG_KEY, CatalogVersion } from '../../sql/replicated-catalog.ts';
import { decodeOutcome, encodeParams } from '../../sql/wire-values.ts';
import { encodeRow } from '../../sql/row-codec.ts';
import { rowKey } from '../../sql/row-key.ts';
import { encodeKey } from '../../sql/key-encoding.ts';
import { compactionDue, ReplicaServer } from './replica-server.ts';
import { Wal } from './wal.ts';

const S0 = shardId(0);
const keys = Array.from({ length: 6 }, (_, i) => keyPairFromSeed(new Uint8Array(32).fill(i + 1)));
const clientKey = keyPairFromSeed(new Uint8Array(32).fill(77));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a !== null ? a.port : 0));
    });
  });
}

const engine = await Engine.create();
const catalog = CatalogVersion.empty.apply(engine.parse('CREATE TABLE t (k int PRIMARY KEY, v text)').stmts[0]!).next!;
const table = catalog.catalog.require('t');
const row = (k: number, v: string): { key: string; value: Uint8Array } => ({ key: rowKey(table.id, encodeKey([k], table.pkTypes)), value: encodeRow(table, [k, v]) });

function txnOf(micros: number, over: Partial<TxnBody>): Txn {
  return encodeTxn({ ts: { micros, clientId: 1 }, shards: [S0], reads: [], writes: [], deps: [], predicates: [], meta: new Uint8Array(0), ...over });
}
function committed(t: Txn): Writeback {
  const sigs = keys.map((k, i) => signBatch([voteLeaf(t.digest, S0, 'commit')], k.secretKey, i)[0]!);
  return { kind: 'writeback', digest: t.digest, cert: { kind: 'votes', votes: { decision: 'commit', shards: [{ shard: S0, sigs }] } }, txn: t };
}

/** One shard of the six `keys` at `ports` on loopback, with client 1 (`clientKey`). */
function shardConfig(name: string, ports: readonly number[], limits = DEFAULT_LIMITS): ClusterConfig {
  const cert = { issuedBy: 'test', certificate: new Uint8Array(64) };
  return {
    name,
    f: 1,
    authorities: [],
    shards: [{ id: S0, replicas: keys.map((k, i) => ({ index: replicaIndex(i), address: `127.0.0.1:${ports[i]}`, publicKey: k.publicKey, ...cert })) }],
    clients: [{ id: clientId(1), name: 'test', publicKey: clientKey.publicKey, ...cert }],
    timeouts: DEFAULT_TIMEOUTS,
    batching: DEFAULT_BATCHING,
    grace: DEFAULT_GRACE,
    limits,
  };
}

function dialAsClient(config: ClusterConfig, port: number, index: number): DialedLink {
  return tcpTransport.dial({
    host: '127.0.0.1',
    port,
    peer: { kind: 'replica', shard: 0, index },
    identity: { kind: 'client', id: 1 },
    secretKey: clientKey.secretKey,
    publicKeyOf: (p) => publicKeyOf(config, p),
  });
}

async function until<T>(what: string, f: () => T | undefined): Promise<T> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    const v = f();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

void describe('ReplicaServer range reads between replicas', () => {
  const servers: ReplicaServer[] = [];
  const links: DialedLink[] = [];
  const received: Message[][] = [[], [], []];
  let config: ClusterConfig;
  let base: number;

  before(async () => {
    const ports = await Promise.all(keys.map(() => freePort()));
    config = shardConfig('range-read-shell', ports);
    for (const index of [0, 2]) {
      // A fetch timeout far beyond the test's: the only way to an answer is the fetch (no timing in the test).
      const s = new ReplicaServer({ config, shard: 0, index, keyPair: keys[index]!, port: ports[index]!, transport: tcpTransport, engine, fetchTimeoutMs: 600_000 });
      await s.start();
      servers[index] = s;
      const link = dialAsClient(config, ports[index]!, index);
      link.onMessage((bytes) => {
        const m = decodeMessage(bytes);
        if (m.ok) received[index]!.push(m.value);
      });
      links[index] = link;
    }
    base = Date.now() * 1000 - 1_000_000;
  });

  after(async () => {
    for (const l of links) l?.close();
    await Promise.all(servers.map((s) => s?.stop()));
  });


  void it('a sync round fetches a missing transaction from another replica over a replica link', async () => {
    const ddl = txnOf(base + 10, { writes: [{ key: CATALOG_KEY, value: catalog.value() }] });
    const load = txnOf(base + 20, { writes: [row(1, 'one')] });
    const update = txnOf(base + 30, { writes: [row(1, 'uno')] });
    for (const i of [0, 2]) for (const t of [ddl, load]) links[i]!.send(encodeMessage(committed(t)));
    links[2]!.send(encodeMessage(committed(update)));
    await until('the update at replica 2', () => (servers[2]!.core.txnState(update.key) === 'committed' ? true : undefined));
    await until('the data at replica 0', () => (servers[0]!.core.txnState(load.key) === 'committed' ? true : undefined));

    const q: Query = {
      kind: 'query',
      req: 5,
      ts: { micros: base + 500, clientId: 1 },
      sql: 'SELECT v FROM t WHERE k = $1',
      params: encodeParams([1]),
      ownWrites: [],
      recon: false,
      retry: 1,
      snapshot: [{ digest: update.digest, holders: [2, 3] }],
    };
    links[0]!.send(encodeMessage(q));
    const reply = await until('the query reply', () => received[0]!.find((m) => m.kind === 'queryReply'));
    assert.ok(reply.kind === 'queryReply');
    const o = decodeOutcome(reply.result);
    assert.ok(o.ok);
    assert.deepEqual(o.rows, [['uno']]);
    assert.equal(servers[0]!.core.txnState(update.key), 'committed');
    assert.equal(servers[0]!.core.stats.fetchSupplies, 1);
    assert.equal(servers[2]!.core.stats.fetchesServed, 1);
  });

  void it('an envelope that starts like a read but carries a writeback keeps nothing of the reused frame buffer', async () => {
    // Replicas reuse one buffer for frames that span socket reads (transientMessages); what they keep
    // must come from a copy. Read requests are decoded in place, so a writeback behind a read's field
    // (the generic decoder lets the later body field win) must be decoded again from a copy.
    const value = new Uint8Array(64).fill(0x5a);
    const t = txnOf(base + 40, { writes: [{ key: 'crafted', value }] });
    const read = encodeMessage({ kind: 'read', req: 9, key: 'crafted', ts: { micros: base + 41, clientId: 1 }, proof: false });
    const crafted = new Uint8Array(read.length + encodeMessage(committed(t)).length);
    crafted.set(read);
    crafted.set(encodeMessage(committed(t)), read.length);
    const filler = (byte: number): Uint8Array => new Uint8Array(100_000).fill(byte);
    const rejectedBefore = Object.values(servers[0]!.rejected).reduce((a, b) => a + b, 0);
    // One frame of about 300 KB (one turn's sends), so it spans socket reads; the crafted message first.
    for (const m of [crafted, filler(0xff), filler(0xff), filler(0xff)]) links[0]!.send(m);
    await until('the crafted writeback applied', () => (servers[0]!.core.txnState(t.key) === 'committed' ? true : undefined));
    // Another spanning frame, fillers first: written over the reused buffer from its start.
    for (const m of [filler(0xee), filler(0xee), filler(0xee)]) links[0]!.send(m);
    const rejected = (): number => Object.values(servers[0]!.rejected).reduce((a, b) => a + b, 0);
    await until('the fillers rejected', () => (rejected() === rejectedBefore + 6 ? true : undefined));
    links[0]!.send(encodeMessage({ kind: 'read', req: 10, key: 'crafted', ts: { micros: base + 50, clientId: 1 }, proof: false }));
    const reply = await until('the read reply', () => received[0]!.find((m) => m.kind === 'readReply' && m.req === 10));
    assert.ok(reply.kind === 'readReply');
    assert.ok(reply.committed?.value != null);
    assert.deepEqual([...reply.committed.value], [...value]);
  });

  void it('fetch and fetchReply from a client link are dropped and counted', async () => {
    const before = servers[0]!.rejected['fetch-not-from-replica'] ?? 0;
    const n = received[0]!.length;
    links[0]!.send(encodeMessage({ kind: 'fetch', req: 1, digests: [] }));
    links[0]!.send(encodeMessage({ kind: 'fetchReply', req: 1, decided: [], prepared: [] }));
    await until('the rejections', () => ((servers[0]!.rejected['fetch-not-from-replica'] ?? 0) === before + 2 ? true : undefined));
    assert.equal(servers[0]!.core.stats.fetchesServed, 0);
    assert.equal(received[0]!.length, n, 'no reply');
  });
});

void describe('compactionDue', () => {
  const MiB = 1 << 20;
  void it('waits for the floor, then for half the log to be garbage, and compacts at four floors whatever the estimate', () => {
    // Below or at the floor: never, however much is garbage.
    assert.equal(compactionDue(64 * MiB, 64 * MiB, 0, 0.5), false);
    // Past it: only once the live state is at most half the log.
    assert.equal(compactionDue(100 * MiB, 64 * MiB, 90 * MiB, 0.5), false);
    assert.equal(compactionDue(100 * MiB, 64 * MiB, 50 * MiB, 0.5), true);
    // A log whose garbage the estimate misses is compacted at four times the floor.
    assert.equal(compactionDue(255 * MiB, 64 * MiB, 255 * MiB, 0.5), false);
    assert.equal(compactionDue(256 * MiB, 64 * MiB, 255 * MiB, 0.5), true);
    // Share 0: on size alone (the behaviour before decision 0062).
    assert.equal(compactionDue(64 * MiB + 1, 64 * MiB, 64 * MiB + 1, 0), true);
  });
});

void describe('ReplicaServer log compaction', () => {
  void it('waits while the log past its floor is live, and compacts once half of it is garbage', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pesto-compaction-'));
    const ports = await Promise.all(keys.map(() => freePort()));
    // A history window of 20 ms: a write of a key lets the store drop its versions older than that.
    const config = shardConfig('compaction', ports, { ...DEFAULT_LIMITS, historyWindowMs: 20 });
    const { wal } = Wal.open(join(dir, 'wal.log'), 'none');
    const floor = 64 << 10;
    const server = new ReplicaServer({ config, shard: 0, index: 1, keyPair: keys[1]!, port: ports[1]!, transport: tcpTransport, wal, walCompactBytes: floor });
    await server.start();
    const link = dialAsClient(config, ports[1]!, 1);
    try {
      let req = 0;
      let micros = 0;
      const commit = async (key: string): Promise<void> => {
        micros = Math.max(micros + 1, Date.now() * 1000);
        const t = txnOf(micros, { writes: [{ key, value: new Uint8Array(100).fill(req & 0xff) }] });
        link.send(encodeMessage({ kind: 'prepare', req: ++req, txn: t }));
        link.send(encodeMessage(committed(t)));
        // The key's newest version (the transaction's record itself leaves with the history window).
        await until(`transaction ${req} applied`, () => (server.core.store.get(key)?.committedHead?.txn === t.key ? true : undefined));
      };
      // Every transaction writes a key of its own: all of the log stays live.
      while (wal.size < floor + (16 << 10)) await commit(`live/${req}`);
      await until('the log synced', () => (wal.pending ? undefined : true));
      assert.equal(server.compactionsDone, 0, 'a live log past its floor was compacted');
      const live = server.core.store.liveProofBytes;
      assert.ok(live > wal.size / 2, `live ${live} of ${wal.size}`);
      // One key written again and again: its older proofs become garbage, and the log is compacted
      // well before four floors (where it would be whatever the estimate said).
      while (server.compactionsDone === 0 && wal.bytesWritten < 4 * floor) await commit('hot');
      await until('the compaction', () => (server.compactionsDone > 0 ? true : undefined));
      assert.ok(wal.bytesWritten < 4 * floor, `compacted only after ${wal.bytesWritten} bytes: at the cap, not by its garbage`);
      // The compaction left about the live half (the hot key's garbage went).
      assert.ok(wal.size < 0.75 * wal.bytesWritten, `the compacted log (${wal.size} bytes) holds most of what was appended (${wal.bytesWritten})`);
    } finally {
      link.close();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
