// Bad input never crashes a replica, at random. Against six running replica processes, this file sends
// valid encodings of every message kind a client sends (read, prepare, writeback with a real commit
// certificate, decide and elect with real votes, fetch, and SQL queries over a real table in every
// mode a client uses: eager, recon, own writes, a sync round naming a snapshot), each with one to four
// mutations (bits flipped, bytes and varint-sized fields overwritten, slices cut, repeated or
// inserted), on authenticated links as the local client. Mutations that still decode reach the replica
// cores with odd content (other keys, timestamps, digests, SQL, parameters, snapshot entries).
// Afterwards every replica process still runs, a normal transaction commits on the fast path, the
// table's rows read back as written through SQL, and each replica counted rejections (the mutations
// reached its boundary).
//
// The PRNG is seeded (`PESTO_FUZZ_SEED` replays a run; the seed is in the test's name and the failure
// messages), and `PESTO_FUZZ_REPLICA_CASES` sets the number of messages (default 1,500).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { keyPath, readKeyFile } from '../../cli/keys.ts';
import type { PestoClient } from '../../client/pesto-client.ts';
import { SqlClient } from '../../client/sql/sql-session.ts';
import { clusterTransport, type DialedLink } from '../../net/index.ts';
import { encodeMessage, encodeTxn } from '../../protocol/codec.ts';
import { publicKeyOf } from '../../protocol/config.ts';
import type { KeyPair } from '../../protocol/crypto/ed25519.ts';
import { shardId, type ShardId } from '../../protocol/ids.ts';
import type { Message, Txn, VoteCert } from '../../protocol/messages.ts';
import { voteLeaf } from '../../protocol/statements.ts';
import type { TableDef } from '../../sql/catalog.ts';
import { Engine } from '../../sql/engine.ts';
import { encodeRow } from '../../sql/row-codec.ts';
import { rowKey } from '../../sql/row-key.ts';
import { encodeKey } from '../../sql/key-encoding.ts';
import { encodeParams } from '../../sql/wire-values.ts';
import { oneWriteTxn, replicaAddressOf, signedBy, totalRejected, votes, writeback } from './bad-input-tools.ts';
import { downReplicas, runTxn, scrape, sleep, startTestCluster, type TestCluster } from './cluster-harness.ts';
import { Prng } from '../../sim/prng.ts';
import { mutate } from '../fuzz-mutate.ts';

const BASE_PORT = 7900;
const S0: ShardId = shardId(0);
const ALL = [0, 1, 2, 3, 4, 5] as const;
const CASES = Number(process.env['PESTO_FUZZ_REPLICA_CASES'] ?? 1500);
const SEED = Number(process.env['PESTO_FUZZ_SEED'] ?? Date.now() % 2 ** 31);
const ROWS = 20;

let tc: TestCluster;
let client: PestoClient;
let sql: SqlClient;
let table: TableDef;
const links: DialedLink[] = [];
const replicaKeys: KeyPair[] = [];


let counter = 0;
const freshTxn = (): Txn => oneWriteTxn(tc.clientId, `fz/txn/${counter++}`);

const commitVotes = (t: Txn, signers: readonly number[]): VoteCert => votes('commit', S0, signedBy(replicaKeys, voteLeaf(t.digest, S0, 'commit'), signers));

/** A valid message of a kind a client sends, chosen by `rand`. */
function validMessage(rand: () => number): Message {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const req = counter++;
  const ts = { micros: Date.now() * 1000, clientId: tc.clientId };
  switch (Math.floor(rand() * 7)) {
    case 0:
      return { kind: 'read', req, key: pick([`fz/txn/${Math.floor(rand() * counter)}`, rowKey(table.id, encodeKey([Math.floor(rand() * ROWS)], ['int4']))]), ts, proof: rand() < 0.3 };
    case 1:
      return { kind: 'prepare', req, txn: freshTxn() };
    case 2: {
      const t = freshTxn();
      return writeback(t, { kind: 'votes', votes: commitVotes(t, ALL) });
    }
    case 3:
    case 4: {
      const own = rand() < 0.3 ? [{ key: rowKey(table.id, encodeKey([ROWS + 1], ['int4'])), value: encodeRow(table, [ROWS + 1, 1, 'own']) }] : [];
      const snapshot = rand() < 0.3 ? [{ digest: freshTxn().digest, holders: [0, 1] }] : [];
      return {
        kind: 'query', req, ts,
        sql: pick(['SELECT * FROM fz_t WHERE id >= $1 AND id < $2', 'SELECT count(*), sum(v) FROM fz_t WHERE v > $1', 'SELECT t FROM fz_t WHERE id = $1', 'UPDATE fz_t SET v = v + 1 WHERE id < $1', 'SELECT * FROM nosuch']),
        params: encodeParams([Math.floor(rand() * ROWS), ROWS]), ownWrites: own, recon: rand() < 0.3, retry: snapshot.length > 0 ? 1 : 0, snapshot,
      };
    }
    case 5: {
      const t = freshTxn();
      const decide = { kind: 'decide' as const, req, digest: t.digest, decision: 'commit' as const, view: 0, logShard: S0, justification: commitVotes(t, [0, 1, 2, 3]), txn: t };
      return rand() < 0.5 ? decide : { kind: 'elect', req, view: 1, decide };
    }
    default:
      return { kind: 'fetch', req, digests: [freshTxn().digest] };
  }
}

before(async () => {
  tc = await startTestCluster('replica-fuzz', BASE_PORT);
  client = await tc.connect({ fastPathWaitMs: 60_000 });
  sql = new SqlClient(await tc.connect(), await Engine.create());
  for (const i of tc.indexes) replicaKeys.push(await readKeyFile(keyPath(tc.dataDir, { kind: 'replica', shard: 0, index: i })));
  const s = sql.session();
  assert.ok((await s.execute('CREATE TABLE fz_t (id INT PRIMARY KEY, v INT NOT NULL, t TEXT)')).ok);
  const values = Array.from({ length: ROWS }, (_, i) => `(${i}, ${i * 3}, 'r${i}')`).join(', ');
  assert.ok((await s.execute(`INSERT INTO fz_t VALUES ${values}`)).ok);
  const def = (await s.catalog()).catalog.get('fz_t');
  assert.ok(def !== undefined);
  table = def;
  const transport = clusterTransport(tc.config, { kind: 'client', id: tc.clientId }, tc.keyPair.secretKey);
  for (const i of tc.indexes) {
    const link = transport.dial({
      ...replicaAddressOf(tc.config, i),
      peer: { kind: 'replica', shard: 0, index: i },
      identity: { kind: 'client', id: tc.clientId },
      secretKey: tc.keyPair.secretKey,
      publicKeyOf: (p) => publicKeyOf(tc.config, p),
    });
    link.onMessage(() => undefined);
    links.push(link);
  }
  for (let attempt = 0; attempt < 300 && !links.every((l) => l.up); attempt++) await sleep(50);
  assert.ok(links.every((l) => l.up), 'could not open an authenticated link to every replica');
});

after(async () => {
  for (const l of links) l.close();
  await tc?.stop();
});

void describe('mutated client messages', () => {
  void it(`leave every replica running and serving after ${CASES} of them (seed ${SEED})`, async () => {
    const prng = new Prng(SEED); // the simulator's seeded generator
    const rand = (): number => prng.float();
    for (let i = 0; i < CASES; i++) {
      // Half of them get one byte changed in place, which most often still decodes and reaches the core.
      const bytes = mutate(encodeMessage(validMessage(rand)), rand, { light: 0.5 });
      links[Math.floor(rand() * links.length)]!.send(bytes);
      // A pause now and then: the replicas answer as they go, and a dead one shows up early.
      if (i % 100 === 99) {
        await sleep(20);
        assert.deepEqual(downReplicas(tc), [], `seed ${SEED}: a replica process is down after ${i + 1} messages`);
      }
    }
    await sleep(500);
    assert.deepEqual(downReplicas(tc), [], `seed ${SEED}: a replica process is down`);
    assert.ok(links.every((l) => l.up), `seed ${SEED}: a replica closed the authenticated link`);

    const r = await runTxn(client, async (tx) => {
      assert.equal(await tx.getString('fz/healthy'), null);
      tx.put('fz/healthy', 'ok');
    });
    assert.deepEqual(r, { kind: 'commit', outcome: 'commit', path: 'fast' }, `seed ${SEED}: a normal transaction after the fuzz`);
    const rows = await sql.session().execute('SELECT id, v, t FROM fz_t ORDER BY id');
    assert.ok(rows.ok, `seed ${SEED}: ${rows.ok ? '' : rows.error.message}`);
    assert.deepEqual(rows.rows, Array.from({ length: ROWS }, (_, i) => [i, i * 3, `r${i}`]), `seed ${SEED}`);

    // The mutations reached the replicas' boundaries: each replica refused some of what it got.
    for (const i of tc.indexes) assert.ok(totalRejected(await scrape(tc.cluster, 0, i)) > 0, `seed ${SEED}: replica ${i} rejected nothing`);
  });
});
