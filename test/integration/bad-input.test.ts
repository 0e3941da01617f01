// Bad input never crashes a replica. Against six running replica processes, this file sends what a
// Byzantine client or a stranger on the network could: garbage on the port (raw TCP and raw HTTP/2),
// malformed frames before and after authentication, unknown or impostor peers, well-framed but
// undecodable messages, message kinds replicas never accept, and writebacks and ST2 requests whose
// certificates are forged, duplicated, short, long, from unknown signers or from the wrong shard; and
// a transaction timestamped far in the future. Each input is rejected and counted by reason (read from
// the replica's /metrics, and at the end from the counters it prints when stopped); after each, every
// replica process still runs and a normal transaction still commits on the fast path.
//
// The test holds the replicas' key files (it made the cluster), so it can build certificates out of
// real replica signatures that fail only in the one way each case is about.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { connect as connectHttp2, constants as http2 } from 'node:http2';
import { connect as connectTcp } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { oneWriteTxn, openRawStream, replicaAddressOf, signedBy, totalRejected, votes, writeback, type RawStream } from './bad-input-tools.ts';
import { keyPath, readKeyFile } from '../../cli/keys.ts';
import { LOCAL_CLIENT_COUNT } from '../../cli/local-cluster-config.ts';
import type { PestoClient } from '../../client/pesto-client.ts';
import { grpcTransport, STREAM_PATH, type DialedLink, type PeerIdentity } from '../../net/index.ts';
import { singleMessageFrame } from '../../net/frame.ts';
import { decodeMessage, encodeMessage, encodeTxn } from '../../protocol/codec.ts';
import { publicKeyOf } from '../../protocol/config.ts';
import { keyPairFromSeed, type KeyPair } from '../../protocol/crypto/ed25519.ts';
import { signBatch } from '../../protocol/crypto/signed.ts';
import { pesto } from '../../protocol/gen/pesto.js';
import { shardId, type ShardId, type TxnDigest } from '../../protocol/ids.ts';
import type { Certificate, Message, SigProof, Txn } from '../../protocol/messages.ts';
import { st2Leaf, voteLeaf } from '../../protocol/statements.ts';
import {
  downReplicas,
  rejectedOf,
  runTxn,
  scrape,
  metric,
  sleep,
  startTestCluster,
  stopCounters,
  transportRejectedOf,
  type Metrics,
  type TestCluster,
} from './cluster-harness.ts';

const BASE_PORT = 7460;
const S0: ShardId = shardId(0);
const S1: ShardId = shardId(1);

let tc: TestCluster;
/** Waits for every vote, so "commits on the fast path" is about the replicas, not this machine's load. */
let client: PestoClient;
/** One authenticated link per replica of shard 0, as the local client identity. */
const links: DialedLink[] = [];
/** Decoded messages received on `links`, per replica index. */
const received: Message[][] = [];
const replicaKeys: KeyPair[] = [];
let healthyTxns = 0;

// ---- building bad messages ----
let txnCounter = 0;
const freshTxn = (tsMicros?: number): Txn => oneWriteTxn(tc.clientId, `bad/txn/${txnCounter++}`, tsMicros);

const sigs = (leaf: Uint8Array, signers: readonly number[]): SigProof[] => signedBy(replicaKeys, leaf, signers);

const ALL = [0, 1, 2, 3, 4, 5] as const;

function sendToAll(bytes: Uint8Array): void {
  for (const l of links) l.send(bytes);
}

// ---- observing ----

async function scrapeAll(indexes: readonly number[]): Promise<Metrics[]> {
  return Promise.all(indexes.map((i) => scrape(tc.cluster, 0, i)));
}

/** Every replica still runs, and a normal transaction commits on the fast path. */
async function assertHealthy(): Promise<void> {
  assert.deepEqual(downReplicas(tc), [], 'a replica process is down');
  const n = healthyTxns++;
  const r = await runTxn(client, async (tx) => {
    assert.equal(await tx.getString(`bad/healthy/${n}`), null);
    tx.put(`bad/healthy/${n}`, 'ok');
  });
  assert.deepEqual(r, { kind: 'commit', outcome: 'commit', path: 'fast' }, 'a normal transaction after the bad input');
  assert.deepEqual(client.rejected, {});
}

interface Expectation {
  /** Replicas that receive the input. */
  readonly targets: readonly number[];
  /** The counter the input must move on each target. */
  readonly counter: (m: Metrics) => number;
  /** Also require that no other boundary rejection was counted (message-level inputs). */
  readonly only?: boolean;
}

/** Sends the input, waits until every target counted it, then checks the cluster is healthy. */
async function expectRejected(what: string, e: Expectation, send: () => unknown): Promise<void> {
  const before = await scrapeAll(e.targets);
  await send();
  let afterward = before;
  for (let attempt = 0; attempt < 300; attempt++) {
    afterward = await scrapeAll(e.targets);
    if (afterward.every((m, i) => e.counter(m) > e.counter(before[i]!))) break;
    assert.deepEqual(downReplicas(tc), [], `a replica process died after ${what}`);
    await sleep(100);
  }
  e.targets.forEach((idx, i) => {
    const delta = e.counter(afterward[i]!) - e.counter(before[i]!);
    assert.ok(delta >= 1, `replica ${idx} did not count ${what}`);
    if (e.only === true) assert.equal(totalRejected(afterward[i]!) - totalRejected(before[i]!), delta, `replica ${idx} counted ${what} under another reason too`);
  });
  await assertHealthy();
}

/**
 * A message every replica must reject at its boundary with `reason` (`decode-…`, `writeback-…`, …),
 * or with one of several reasons where the input fails more than one check and which one runs first
 * is the replica's choice (e.g. a shard id the cluster does not have fails at decode, with the
 * configured codec limits, before the certificate check would call it the wrong shard).
 */
async function expectMessageRejected(reason: string | readonly string[], msg: Uint8Array): Promise<void> {
  const reasons = typeof reason === 'string' ? [reason] : reason;
  const counter = (m: Metrics): number => reasons.reduce((sum, r) => sum + rejectedOf(m, r), 0);
  await expectRejected(reasons.join(' or '), { targets: ALL, counter, only: true }, () => sendToAll(msg));
}

const reasonsOf = (reason: string | readonly string[]): string => (typeof reason === 'string' ? reason : reason.join(' or '));

// ---- raw streams (bad-input-tools.ts) ----
const replicaAddress = (index: number): { host: string; port: number } => replicaAddressOf(tc.config, index);
const rawStream = (index: number, as?: { readonly identity: PeerIdentity; readonly keyPair: KeyPair }): Promise<RawStream> => openRawStream(tc.config, index, as);

const asLocalClient = (): { identity: PeerIdentity; keyPair: KeyPair } => ({ identity: { kind: 'client', id: tc.clientId }, keyPair: { publicKey: tc.keyPair.publicKey, secretKey: tc.keyPair.secretKey } });

/** Opens an authenticated raw stream to replica `index`, writes `frame`, and waits for the server to end the stream. */
async function sendRawFrame(index: number, frame: Buffer, authenticated: boolean): Promise<string> {
  const s = await rawStream(index, authenticated ? asLocalClient() : undefined);
  s.call.write(frame);
  const status = await s.closed;
  s.close();
  return status;
}

// ---- the cluster ----

before(async () => {
  // The raw streams below speak gRPC, so this cluster runs the gRPC wire whatever the default.
  tc = await startTestCluster('bad-input', BASE_PORT, { transport: { wire: 'grpc' } });
  client = await tc.connect({ fastPathWaitMs: 60_000 });
  for (const i of tc.indexes) replicaKeys.push(await readKeyFile(keyPath(tc.dataDir, { kind: 'replica', shard: 0, index: i })));
  for (const i of tc.indexes) {
    const { host, port } = replicaAddress(i);
    const link = grpcTransport.dial({
      host,
      port,
      peer: { kind: 'replica', shard: 0, index: i },
      identity: { kind: 'client', id: tc.clientId },
      secretKey: tc.keyPair.secretKey,
      publicKeyOf: (p) => publicKeyOf(tc.config, p),
    });
    received[i] = [];
    link.onMessage((bytes) => {
      const d = decodeMessage(bytes);
      if (d.ok) received[i]!.push(d.value);
    });
    links.push(link);
  }
  for (let attempt = 0; attempt < 300 && !links.every((l) => l.up); attempt++) await sleep(50);
  assert.ok(links.every((l) => l.up), 'could not open an authenticated link to every replica');
  await assertHealthy();
});

after(async () => {
  for (const l of links) l.close();
  await tc?.stop();
});

void describe('garbage on the replica port', () => {
  void it('survives random bytes on a raw TCP connection', async () => {
    const { host, port } = replicaAddress(0);
    await new Promise<void>((resolve) => {
      const socket = connectTcp({ host, port }, () => {
        socket.write(randomBytes(4096));
        socket.end(Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
      });
      socket.on('data', () => undefined);
      socket.on('error', () => resolve());
      socket.on('close', () => resolve());
    });
    await assertHealthy();
  });

  void it('survives a raw HTTP/2 request with a broken gRPC message and one to an unknown path', async (t) => {
    const { host, port } = replicaAddress(1);
    const session = connectHttp2(`http://${host}:${port}`);
    session.on('error', () => undefined);
    const statusOf = (path: string, body: Buffer): Promise<string> =>
      new Promise((resolve) => {
        const req = session.request({ [http2.HTTP2_HEADER_METHOD]: 'POST', [http2.HTTP2_HEADER_PATH]: path, 'content-type': 'application/grpc', te: 'trailers' });
        let status = 'none';
        req.on('response', (h) => {
          status = String(h['grpc-status'] ?? status);
        });
        req.on('trailers', (h) => {
          status = String(h['grpc-status'] ?? status);
        });
        req.on('data', () => undefined);
        req.on('error', () => resolve(`error ${status}`));
        req.on('close', () => resolve(status));
        req.end(body);
      });
    // A gRPC message header announcing 1000 bytes, followed by 3, then the end of the stream.
    const broken = Buffer.from([0, 0, 0, 3, 0xe8, 1, 2, 3]);
    // The compressed flag set, with no grpc-encoding negotiated.
    const compressed = Buffer.from([1, 0, 0, 0, 2, 9, 9]);
    const s1 = await statusOf(STREAM_PATH, broken);
    const s2 = await statusOf(STREAM_PATH, compressed);
    const s3 = await statusOf('/pesto.Nothing/Here', Buffer.from([0, 0, 0, 0, 0]));
    session.close();
    // The broken messages come before any handshake, so what gRPC answers is its own business (a
    // truncated message at the end of the stream is dropped and the call ends OK); what matters is
    // that the replica survives. An unknown method must not succeed.
    t.diagnostic(`grpc-status: truncated message ${s1}, compressed flag ${s2}, unknown method ${s3}`);
    assert.notEqual(s3, '0', 'an unknown method succeeded');
    await assertHealthy();
  });
});

void describe('malformed frames and unauthenticated peers', () => {
  const transport = (index: number, reason: string): Expectation => ({ targets: [index], counter: (m) => transportRejectedOf(m, reason) });

  void it('closes a stream whose first frame is truncated (frame-truncated)', async () => {
    await expectRejected('frame-truncated before the handshake', transport(2, 'frame-truncated'), () => sendRawFrame(2, Buffer.from([1, 2, 3]), false));
  });

  void it('closes a stream whose handshake message is garbage (handshake-malformed)', async () => {
    await expectRejected('handshake-malformed', transport(3, 'handshake-malformed'), () => sendRawFrame(3, singleMessageFrame(randomBytes(40), 0), false));
  });

  void it('refuses a peer whose identity is not in the configuration (auth-unknown-peer)', async () => {
    const stranger = { identity: { kind: 'client', id: 4242 } as const, keyPair: keyPairFromSeed(randomBytes(32)) };
    await expectRejected('auth-unknown-peer', transport(4, 'auth-unknown-peer'), async () => {
      const s = await rawStream(4, stranger);
      await s.closed;
      s.close();
    });
  });

  void it('refuses a peer that claims the local client identity without its key (auth-bad-signature)', async () => {
    const impostor = { identity: { kind: 'client', id: tc.clientId } as const, keyPair: keyPairFromSeed(randomBytes(32)) };
    await expectRejected('auth-bad-signature', transport(5, 'auth-bad-signature'), async () => {
      const s = await rawStream(5, impostor);
      await s.closed;
      s.close();
    });
  });

  void it('refuses a peer that claims to be a replica (auth-bad-signature)', async () => {
    const impostor = { identity: { kind: 'replica', shard: 0, index: 3 } as const, keyPair: keyPairFromSeed(randomBytes(32)) };
    await expectRejected('a replica impostor', transport(0, 'auth-bad-signature'), async () => {
      const s = await rawStream(0, impostor);
      await s.closed;
      s.close();
    });
  });

  void it('closes an authenticated stream that sends an empty frame (frame-empty)', async () => {
    await expectRejected('frame-empty', transport(1, 'frame-empty'), () => sendRawFrame(1, Buffer.alloc(0), true));
  });

  void it('closes an authenticated stream that sends a truncated frame (frame-truncated)', async () => {
    await expectRejected('frame-truncated after the handshake', transport(2, 'frame-truncated'), () => sendRawFrame(2, Buffer.from([10, 0, 0, 0, 1, 2, 3]), true));
  });

  void it('closes an authenticated stream that sends an empty message (message-empty)', async () => {
    await expectRejected('message-empty', transport(3, 'message-empty'), () => sendRawFrame(3, Buffer.from([0, 0, 0, 0]), true));
  });

  void it('closes an authenticated stream that announces a message over the size limit (message-too-large)', async () => {
    await expectRejected('message-too-large', transport(4, 'message-too-large'), () => sendRawFrame(4, Buffer.from([0xff, 0xff, 0xff, 0x7f, 1, 2, 3]), true));
  });
});

void describe('well-framed messages that do not decode', () => {
  const cases: { name: string; reason: string; bytes: () => Uint8Array }[] = [
    { name: 'random bytes', reason: 'malformed', bytes: () => new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x0f]) },
    { name: 'an envelope with no known body', reason: 'unknown-kind', bytes: () => new Uint8Array([0x78, 0x01]) },
    { name: 'a read cut short', reason: 'malformed', bytes: () => encodeMessage({ kind: 'read', req: 1, key: 'bad/k', ts: { micros: Date.now() * 1000, clientId: tc.clientId }, proof: false }).subarray(0, 6) },
    { name: 'a read with a negative timestamp', reason: 'bad-timestamp', bytes: () => pesto.Envelope.encode({ read: { req: 1, key: Buffer.from('bad/k'), ts: { micros: -5, client: 1 } } }).finish() },
    { name: 'a prepare without its transaction', reason: 'missing-field', bytes: () => pesto.Envelope.encode({ prepare: { req: 1 } }).finish() },
    {
      name: 'a prepare whose writes are not sorted',
      reason: 'unsorted',
      bytes: () => {
        const body = pesto.TxnBody.encode({ ts: { micros: Date.now() * 1000, client: tc.clientId }, shards: [0], writes: [{ key: Buffer.from('bad/b'), value: Buffer.from('1') }, { key: Buffer.from('bad/a'), value: Buffer.from('1') }] }).finish();
        return pesto.Envelope.encode({ prepare: { req: 1, txn: body } }).finish();
      },
    },
    {
      name: 'a writeback whose transaction hashes to another digest',
      reason: 'digest-mismatch',
      bytes: () => pesto.Envelope.encode({ writeback: { digest: new Uint8Array(32), txn: freshTxn().bytes, cert: { votes: { decision: 0, shards: [] } } } }).finish(),
    },
    {
      name: 'a writeback with a short root signature',
      reason: 'bad-signature-length',
      bytes: () => {
        const t = freshTxn();
        return pesto.Envelope.encode({ writeback: { digest: t.digest, txn: t.bytes, cert: { votes: { decision: 0, shards: [{ shard: 0, sigs: [{ signer: 0, rootSig: new Uint8Array(10) }] }] } } } }).finish();
      },
    },
  ];
  for (const c of cases) {
    void it(`rejects ${c.name} (decode-${c.reason})`, async () => {
      const bytes = c.bytes();
      const local = decodeMessage(bytes);
      assert.deepEqual(local.ok ? 'decoded' : local.reason, c.reason, 'the crafted input is not the case it claims to be');
      await expectMessageRejected(`decode-${c.reason}`, bytes);
    });
  }
});

void describe('message kinds replicas never accept', () => {
  const digest = (): TxnDigest => freshTxn().digest;
  const cases: { name: string; msg: () => Message }[] = [
    { name: 'a PrepareReply', msg: () => ({ kind: 'prepareReply', req: 1, digest: digest(), shard: S0, decision: 'commit', sig: sigs(voteLeaf(digest(), S0, 'commit'), [0])[0]!, conflict: null, decided: null, conflictPrepared: null }) },
    { name: 'a DecideReply', msg: () => ({ kind: 'decideReply', req: 1, digest: digest(), decision: 'commit', view: 0, logShard: S0, sig: sigs(st2Leaf(digest(), S0, 'commit', 0), [1])[0]! }) },
    { name: 'a ReadReply', msg: () => ({ kind: 'readReply', req: 1, key: 'bad/k', committed: null, prepared: null }) },
    { name: 'a Relay', msg: () => ({ kind: 'relay', req: 1, waitingDigest: digest(), txn: freshTxn() }) },
  ];
  for (const c of cases) {
    void it(`rejects ${c.name} sent to a replica (unexpected-kind)`, async () => {
      await expectMessageRejected('unexpected-kind', encodeMessage(c.msg()));
    });
  }
});

void describe('writebacks and ST2 requests with bad certificates', () => {
  interface CertCase {
    readonly name: string;
    readonly reason: string | readonly string[];
    readonly msg: () => Message;
  }
  const commitVotes = (t: Txn, signers: readonly number[], shard: ShardId = S0): Certificate => ({ kind: 'votes', votes: votes('commit', shard, sigs(voteLeaf(t.digest, shard, 'commit'), signers)) });
  const cases: CertCase[] = [
    {
      name: 'a commit certificate with one forged signature',
      reason: 'writeback-bad-signature',
      msg: () => {
        const t = freshTxn();
        const list = sigs(voteLeaf(t.digest, S0, 'commit'), ALL);
        list[3] = { ...list[3]!, rootSignature: randomBytes(64) };
        return writeback(t, { kind: 'votes', votes: votes('commit', S0, list) });
      },
    },
    {
      name: "a commit certificate signed with the client's key under replica indexes",
      reason: 'writeback-bad-signature',
      msg: () => {
        const t = freshTxn();
        const list = ALL.map((i) => signBatch([voteLeaf(t.digest, S0, 'commit')], tc.keyPair.secretKey, i)[0]!);
        return writeback(t, { kind: 'votes', votes: votes('commit', S0, list) });
      },
    },
    {
      name: "a commit certificate of real replica signatures over another transaction's votes",
      reason: 'writeback-bad-signature',
      msg: () => {
        const t = freshTxn();
        return writeback(t, commitVotes(freshTxn(), ALL));
      },
    },
    {
      name: 'a commit certificate with the same signer twice',
      reason: 'writeback-duplicate-signer',
      msg: () => {
        const t = freshTxn();
        return writeback(t, commitVotes(t, [0, 1, 2, 3, 4, 0]));
      },
    },
    {
      name: 'an ST2 certificate with the same signer twice',
      reason: 'writeback-duplicate-signer',
      msg: () => {
        const t = freshTxn();
        return writeback(t, { kind: 'st2', st2: { decision: 'commit', logShard: S0, view: 0, sigs: sigs(st2Leaf(t.digest, S0, 'commit', 0), [0, 1, 2, 2, 3]) } });
      },
    },
    {
      name: 'a commit certificate with one signature too few (5 of n = 6)',
      reason: 'writeback-wrong-count',
      msg: () => {
        const t = freshTxn();
        return writeback(t, commitVotes(t, [0, 1, 2, 3, 4]));
      },
    },
    {
      name: 'a commit certificate with one signature too many',
      reason: ['decode-too-large', 'writeback-wrong-count'],
      msg: () => {
        const t = freshTxn();
        return writeback(t, commitVotes(t, [0, 1, 2, 3, 4, 5, 5]));
      },
    },
    {
      name: 'an ST2 certificate with too few signers (4 of 4f+1 = 5)',
      reason: 'writeback-wrong-count',
      msg: () => {
        const t = freshTxn();
        return writeback(t, { kind: 'st2', st2: { decision: 'commit', logShard: S0, view: 0, sigs: sigs(st2Leaf(t.digest, S0, 'commit', 0), [0, 1, 2, 3]) } });
      },
    },
    {
      name: 'a fast-abort certificate with too few ABSTAIN votes (3 of 3f+1 = 4)',
      reason: 'writeback-wrong-count',
      msg: () => {
        const t = freshTxn();
        return writeback(t, { kind: 'votes', votes: votes('abstain', S0, sigs(voteLeaf(t.digest, S0, 'abstain'), [0, 1, 2])) });
      },
    },
    {
      name: 'a commit certificate with a signer index outside the shard',
      reason: ['decode-bad-signer', 'writeback-unknown-signer'],
      msg: () => {
        const t = freshTxn();
        const list = sigs(voteLeaf(t.digest, S0, 'commit'), ALL);
        list[5] = { ...list[5]!, signer: 9 };
        return writeback(t, { kind: 'votes', votes: votes('commit', S0, list) });
      },
    },
    {
      name: 'a fast-abort certificate of votes from a shard the transaction does not involve',
      reason: ['decode-bad-shard', 'writeback-wrong-shard'],
      msg: () => {
        const t = freshTxn();
        return writeback(t, { kind: 'votes', votes: votes('abstain', S1, sigs(voteLeaf(t.digest, S1, 'abstain'), [0, 1, 2, 3])) });
      },
    },
    {
      name: 'a commit certificate whose votes name another shard',
      reason: ['decode-bad-shard', 'writeback-missing-shard', 'writeback-wrong-shard'],
      msg: () => {
        const t = freshTxn();
        return writeback(t, commitVotes(t, ALL, S1));
      },
    },
    {
      name: "an ST2 certificate from a logging shard other than the transaction's",
      reason: ['decode-bad-shard', 'writeback-wrong-log-shard'],
      msg: () => {
        const t = freshTxn();
        return writeback(t, { kind: 'st2', st2: { decision: 'commit', logShard: S1, view: 0, sigs: sigs(st2Leaf(t.digest, S1, 'commit', 0), [0, 1, 2, 3, 4]) } });
      },
    },
    {
      name: 'an abort certificate whose committed transaction does not conflict',
      reason: 'writeback-not-conflicting',
      msg: () => {
        const t = freshTxn();
        const c = freshTxn();
        return writeback(t, { kind: 'conflict', conflict: { txn: c, cert: { kind: 'votes', votes: votes('commit', S0, sigs(voteLeaf(c.digest, S0, 'commit'), ALL)) } } });
      },
    },
    {
      name: 'a writeback of a transaction the replica never saw, without the transaction',
      reason: 'writeback-unknown-txn',
      msg: () => {
        const t = freshTxn();
        return { kind: 'writeback', digest: t.digest, cert: commitVotes(t, ALL), txn: null };
      },
    },
    {
      name: 'an ST2 request justified by too few COMMIT votes (3 of 3f+1 = 4)',
      reason: 'decide-wrong-count',
      msg: () => {
        const t = freshTxn();
        return { kind: 'decide', req: 1, digest: t.digest, decision: 'commit', view: 0, logShard: S0, justification: votes('commit', S0, sigs(voteLeaf(t.digest, S0, 'commit'), [0, 1, 2])), txn: t };
      },
    },
    {
      name: 'an ST2 request justified by duplicated votes',
      reason: 'decide-duplicate-signer',
      msg: () => {
        const t = freshTxn();
        return { kind: 'decide', req: 1, digest: t.digest, decision: 'commit', view: 0, logShard: S0, justification: votes('commit', S0, sigs(voteLeaf(t.digest, S0, 'commit'), [0, 1, 1, 2])), txn: t };
      },
    },
    {
      name: 'an ST2 request to log an abort justified by COMMIT votes',
      reason: 'decide-wrong-decision',
      msg: () => {
        const t = freshTxn();
        return { kind: 'decide', req: 1, digest: t.digest, decision: 'abort', view: 0, logShard: S0, justification: votes('commit', S0, sigs(voteLeaf(t.digest, S0, 'commit'), [0, 1, 2, 3])), txn: t };
      },
    },
    {
      name: 'an ST2 request with a forged justification',
      reason: 'decide-bad-signature',
      msg: () => {
        const t = freshTxn();
        const list = sigs(voteLeaf(t.digest, S0, 'commit'), [0, 1, 2, 3]);
        list[0] = { ...list[0]!, rootSignature: randomBytes(64) };
        return { kind: 'decide', req: 1, digest: t.digest, decision: 'commit', view: 0, logShard: S0, justification: votes('commit', S0, list), txn: t };
      },
    },
  ];
  for (const c of cases) {
    void it(`rejects ${c.name} (${reasonsOf(c.reason)})`, async () => {
      await expectMessageRejected(c.reason, encodeMessage(c.msg()));
    });
  }

  void it('applies none of the rejected writebacks', async () => {
    // Every rejected writeback wrote a fresh `bad/txn/N` key; none of them may be visible.
    const r = await runTxn(client, async (tx) => {
      for (let i = 0; i < txnCounter; i++) assert.equal(await tx.getString(`bad/txn/${i}`), null, `bad/txn/${i} was written`);
    });
    assert.equal(r.outcome, 'commit');
  });
});

void describe('timestamps far in the future', () => {
  const HOUR_MICROS = 3600 * 1_000_000;

  void it('makes every replica vote ABSTAIN on a prepare timestamped an hour ahead (clock-ahead)', async () => {
    const t = freshTxn(Date.now() * 1000 + HOUR_MICROS);
    const before = await scrapeAll(ALL);
    for (const r of received) r.length = 0;
    sendToAll(encodeMessage({ kind: 'prepare', req: 77, txn: t }));
    for (let attempt = 0; attempt < 300 && !received.every((r) => r.some((m) => m.kind === 'prepareReply' && m.req === 77)); attempt++) await sleep(50);
    for (const i of ALL) {
      const reply = received[i]!.find((m) => m.kind === 'prepareReply' && m.req === 77);
      assert.ok(reply !== undefined && reply.kind === 'prepareReply', `replica ${i} did not answer`);
      assert.equal(reply.decision, 'abstain', `replica ${i} voted ${reply.decision}`);
    }
    const afterward = await scrapeAll(ALL);
    afterward.forEach((m, i) => {
      const key = 'pesto_replica_abstains_total{reason="clock-ahead"}';
      assert.equal(metric(m, key) - metric(before[i]!, key), 1, `replica ${i} abstain reasons`);
    });
    await assertHealthy();
  });

  void it("aborts a client's transaction whose clock runs an hour ahead", async () => {
    // Another client identity: clients of one id in a process share their timestamps, so a clock an
    // hour ahead here would move every later transaction of this process an hour ahead too.
    const ahead = await tc.connect({ fastPathWaitMs: 60_000, as: LOCAL_CLIENT_COUNT });
    const realNow = Date.now;
    let tx;
    try {
      Date.now = () => realNow() + HOUR_MICROS / 1000;
      tx = ahead.session().begin();
    } finally {
      Date.now = realNow;
    }
    tx.put('bad/future', 'never');
    const r = await tx.commit();
    assert.equal(r.outcome, 'abort', JSON.stringify(r));
    assert.equal(r.outcome === 'abort' ? r.cause : undefined, 'abstained');
    await ahead.close();
    const check = await runTxn(client, async (t2) => {
      assert.equal(await t2.getString('bad/future'), null);
    });
    assert.equal(check.outcome, 'commit');
    await assertHealthy();
  });
});

void describe('rejection counters', () => {
  void it('prints the boundary rejections by reason when a replica stops, matching /metrics', async () => {
    const live = await scrape(tc.cluster, 0, 0);
    // The build a replica runs (the ICU and time zone data SQL's named zones depend on) is one series.
    const build = `pesto_replica_build_info{icu="${process.versions.icu ?? ''}",node="${process.versions.node}",tz="${process.versions.tz ?? ''}"}`;
    assert.equal(live.get(build), 1, `no ${build} in /metrics`);
    await tc.cluster.restart(0, 0);
    const runs = await stopCounters(tc.cluster.logPath(0, 0));
    const last = runs[runs.length - 1];
    assert.ok(last !== undefined, 'the replica printed no counters when it stopped');
    for (const reason of [
      'decode-malformed',
      'decode-unknown-kind',
      'decode-unsorted',
      'unexpected-kind',
      'writeback-bad-signature',
      'writeback-duplicate-signer',
      'writeback-wrong-count',
      'decode-bad-signer',
      'decode-bad-shard',
      'decide-wrong-count',
    ]) {
      assert.ok((last.rejected[reason] ?? 0) >= 1, `no ${reason} in ${JSON.stringify(last.rejected)}`);
      assert.equal(last.rejected[reason], rejectedOf(live, reason), `${reason}: stop line and /metrics disagree`);
    }
    await assertHealthy();
  });
});
