// A replica's write-ahead log: votes and applied outcomes survive a crash (SIGKILL) and restart,
// through log compaction too.
// After the restart the replica serves the committed versions it had, with their proofs, and
// answers a repeated ST1 with the vote it gave before the crash (PROTOCOL §9: one vote per
// transaction per replica, forever, persisted before it is sent).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeMessage, encodeMessage, encodeTxn } from '../../protocol/codec.ts';
import { publicKeyOf, splitAddress } from '../../protocol/config.ts';
import type { Message, ReadReply, PrepareReply } from '../../protocol/messages.ts';
import { shardId } from '../../protocol/ids.ts';
import { clusterTransport, type DialedLink } from '../../net/index.ts';
import { toKey } from '../../client/pesto-client.ts';
import { runTxn, sleep, startTestCluster, type TestCluster } from './cluster-harness.ts';

const BASE_PORT = 7480;
const VICTIM = 2;

void describe('durability of one replica across a crash', () => {
  let tc: TestCluster;
  let link: DialedLink;
  const received: Message[] = [];

  async function dialVictim(): Promise<void> {
    const addr = splitAddress(tc.config.shards[0]!.replicas[VICTIM]!.address)!;
    link = clusterTransport(tc.config, { kind: 'client', id: tc.clientId }, tc.keyPair.secretKey).dial({
      host: addr.host,
      port: addr.port,
      peer: { kind: 'replica', shard: 0, index: VICTIM },
      identity: { kind: 'client', id: tc.clientId },
      secretKey: tc.keyPair.secretKey,
      publicKeyOf: (p) => publicKeyOf(tc.config, p),
    });
    link.onMessage((bytes) => {
      const d = decodeMessage(bytes);
      if (d.ok) received.push(d.value);
    });
    for (let i = 0; i < 200 && !link.up; i++) await sleep(50);
    assert.ok(link.up, 'no link to the victim replica');
  }

  async function ask<T extends Message['kind']>(msg: Message, kind: T, req: number): Promise<Extract<Message, { kind: T }>> {
    link.send(encodeMessage(msg));
    for (let i = 0; i < 200; i++) {
      const m = received.find((x) => x.kind === kind && 'req' in x && x.req === req);
      if (m !== undefined) return m as Extract<Message, { kind: T }>;
      await sleep(25);
    }
    throw new Error(`no ${kind} for request ${req}`);
  }

  before(async () => {
    // A tiny compaction threshold on size alone, so the restart below also replays a compacted log.
    process.env['PESTO_WAL_COMPACT_BYTES'] = '4096';
    process.env['PESTO_WAL_COMPACT_GARBAGE'] = '0';
    tc = await startTestCluster('durability', BASE_PORT);
  });

  after(async () => {
    link?.close();
    await tc?.stop();
  });

  void it('serves committed versions and repeats its votes after SIGKILL and restart', async () => {
    const client = await tc.connect({ fastPathWaitMs: 60_000 });
    for (let i = 0; i < 5; i++) {
      const r = await runTxn(client, (tx) => tx.put(`dur/${i}`, `value-${i}`));
      assert.equal(r.outcome, 'commit');
    }
    // A transaction this replica votes on, never decided: its vote must be the same after the crash.
    await dialVictim();
    const now = Date.now() * 1000;
    const pending = encodeTxn({ ts: { micros: now, clientId: tc.clientId }, shards: [shardId(0)], reads: [], writes: [{ key: toKey('dur/pending'), value: new Uint8Array([1]) }], deps: [], predicates: [], meta: new Uint8Array(0) });
    const before = await ask({ kind: 'prepare', req: 901, txn: pending }, 'prepareReply', 901);
    assert.equal(before.decision, 'commit');
    link.close();

    await tc.cluster.kill(0, VICTIM);
    await tc.cluster.restart(0, VICTIM);
    await dialVictim();

    const reply: ReadReply = await ask({ kind: 'read', req: 902, key: toKey('dur/3'), ts: { micros: Date.now() * 1000, clientId: tc.clientId }, proof: true }, 'readReply', 902);
    assert.ok(reply.committed !== null, 'the restarted replica lost a committed version');
    assert.equal(Buffer.from(reply.committed.value!).toString(), 'value-3');
    assert.ok(reply.committed.proof !== null && tc.clients[0]!.verifier.verifyCommitted(reply.committed.proof).ok, 'the restored proof verifies');

    const again: PrepareReply = await ask({ kind: 'prepare', req: 903, txn: pending }, 'prepareReply', 903);
    assert.equal(again.decision, before.decision, 'the restarted replica changed its vote');
    assert.ok(again.sig !== null && tc.clients[0]!.verifier.verifyVote(pending.digest, shardId(0), 'commit', again.sig).ok);
  });
});
