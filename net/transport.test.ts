// Behaviour of both transports over 127.0.0.1: delivery, coalescing, redial, limits, bad input
// and authentication. Every case runs against gRPC and TCP; nothing here asserts timing.
import assert from 'node:assert/strict';
import * as net from 'node:net';
import { after, describe, test } from 'node:test';
import * as tls from 'node:tls';
import * as grpc from '@grpc/grpc-js';
import sodium from 'sodium-native';
import { certifyAuthorityTls, certifyMemberTls } from '../protocol/config.ts';
import type { PublicKey } from '../protocol/crypto/ed25519.ts';
import { authorityTbs, certificateDer, memberTbs } from '../protocol/x509.ts';
import { createGrpcTransport, grpcTransport, STREAM_PATH } from './grpc.ts';
import { clientPeer, peerKey, replicaPeer, type PeerIdentity } from './peer-identity.ts';
import { createTcpTransport, tcpTransport } from './tcp.ts';
import { TLS_SERVER_NAME, tlsEndpoint, type TlsEndpoint } from './tls.ts';
import type { DialedLink, Link, Transport, TransportLimits, TransportServer } from './transport.ts';
import { transportStats, type RejectReason } from './transport-stats.ts';

interface KeyPair {
  readonly publicKey: Buffer;
  readonly secretKey: Buffer;
}

function keyPair(): KeyPair {
  const publicKey = Buffer.alloc(32);
  const secretKey = Buffer.alloc(64);
  sodium.crypto_sign_keypair(publicKey, secretKey);
  return { publicKey, secretKey };
}

const SERVER = replicaPeer(0, 0);
const DIALER = replicaPeer(0, 1);
const OTHER = clientPeer(7);
const STRANGER = clientPeer(99);
const keys = new Map<string, KeyPair>([
  [peerKey(SERVER), keyPair()],
  [peerKey(DIALER), keyPair()],
  [peerKey(OTHER), keyPair()],
]);
const strangerKeys = keyPair();
const publicKeyOf = (p: PeerIdentity): Uint8Array | undefined => keys.get(peerKey(p))?.publicKey;
const secretOf = (p: PeerIdentity): Buffer => keys.get(peerKey(p))!.secretKey;

/** Polls until `cond` holds; the test runner's timeout bounds the wait. */
async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 5));
}

function waitUp(link: DialedLink): Promise<void> {
  return link.up ? Promise.resolve() : new Promise((resolve) => link.onUp(resolve));
}

const toClose: { close(): unknown }[] = [];
after(async () => {
  for (const c of toClose.reverse()) await c.close();
});

async function echoServer(transport: Transport, limits?: Partial<TransportLimits>, port = 0, identity = SERVER, secretKey = secretOf(SERVER)): Promise<TransportServer & { links: Link[] }> {
  const links: Link[] = [];
  const server = await transport.listen({
    identity,
    secretKey,
    publicKeyOf,
    port,
    ...(limits === undefined ? {} : { limits }),
    onLink: (link) => {
      links.push(link);
      link.onMessage((m) => link.send(m));
    },
  });
  toClose.push(server);
  return Object.assign(server, { links });
}

function dial(transport: Transport, port: number, opts: { identity?: PeerIdentity; secretKey?: Uint8Array; peer?: PeerIdentity; limits?: Partial<TransportLimits> } = {}): DialedLink {
  const identity = opts.identity ?? DIALER;
  const link = transport.dial({
    identity,
    secretKey: opts.secretKey ?? secretOf(identity),
    publicKeyOf,
    host: '127.0.0.1',
    port,
    peer: opts.peer ?? SERVER,
    backoff: { initialMs: 10, maxMs: 100 },
    ...(opts.limits === undefined ? {} : { limits: opts.limits }),
  });
  toClose.push(link);
  return link;
}

function collect(link: Link): string[] {
  const got: string[] = [];
  link.onMessage((m) => got.push(Buffer.from(m).toString()));
  return got;
}

/**
 * Sends `messages` in one event-loop turn on a fresh link to an echo server, once the link is up; resolves
 * when all came back, with what came back and how many frames the sends took.
 */
async function echoInOneTurn(transport: Transport, messages: readonly string[]): Promise<{ link: DialedLink; got: string[]; frames: number }> {
  const server = await echoServer(transport);
  const link = dial(transport, server.port);
  const got = collect(link);
  await waitUp(link);
  const before = link.stats.framesWritten;
  for (const m of messages) link.send(Buffer.from(m));
  await until(() => got.length === messages.length);
  return { link, got, frames: link.stats.framesWritten - before };
}

async function rejectedBy(reason: RejectReason, act: () => Promise<void> | void): Promise<void> {
  const before = transportStats.rejected[reason];
  await act();
  await until(() => transportStats.rejected[reason] > before);
}

/** Sends raw frame bodies on a gRPC stream that never authenticates. */
function rawGrpc(port: number, frames: Buffer[]): () => void {
  return rawGrpcOn(new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure()), frames);
}

/** Sends raw frame bodies on a stream of `client`; returns what closes both. */
function rawGrpcOn(client: grpc.Client, frames: Buffer[]): () => void {
  const call = client.makeBidiStreamRequest<Buffer, Buffer>(STREAM_PATH, (b) => b, (b) => b, new grpc.Metadata());
  call.on('error', () => undefined);
  call.on('data', () => undefined);
  for (const f of frames) call.write(f);
  return () => {
    call.cancel();
    client.close();
  };
}

/** Sends raw bytes on a TCP connection that never authenticates. */
function rawTcp(port: number, bytes: Buffer[], end: boolean): () => void {
  const socket = net.connect({ host: '127.0.0.1', port });
  socket.on('error', () => undefined);
  for (const b of bytes) socket.write(b);
  if (end) socket.end();
  return () => socket.destroy();
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}

/** A frame body whose one message claims more bytes than it has. */
const truncatedBody = Buffer.concat([u32(10), Buffer.from('abc')]);
const garbageMessage = Buffer.concat([u32(5), Buffer.from([0xff, 0x00, 0x01, 0x02, 0x03])]);

for (const transport of [grpcTransport, tcpTransport]) {
  void describe(`${transport.name} transport`, () => {
    void test('delivers messages in order, both ways, only after the handshake', async () => {
      const server = await echoServer(transport);
      const link = dial(transport, server.port);
      const got = collect(link);
      const sent: string[] = [];
      for (let i = 0; i < 500; i++) {
        sent.push(`m${i}`);
        link.send(Buffer.from(`m${i}`));
      }
      await until(() => got.length === sent.length);
      assert.deepEqual(got, sent);
      assert.deepEqual(server.links[0]?.peer, DIALER);
      assert.deepEqual(link.peer, SERVER);
    });

    void test('coalesces the messages sent in one event-loop turn into one stream write', async () => {
      const { link, frames } = await echoInOneTurn(transport, Array.from({ length: 200 }, (_, i) => `x${i}`));
      assert.equal(frames, 1);
      assert.equal(link.stats.messagesSent, 200);
    });

    void test('writes large messages in order among small ones, uncopied on TCP (a frame each)', async () => {
      const sent = ['a', `big:${'x'.repeat(100_000)}`, 'b', `big:${'y'.repeat(16 << 10)}`, `small:${'z'.repeat((16 << 10) - 7)}`, 'c'];
      const { got, frames } = await echoInOneTurn(transport, sent);
      assert.deepEqual(got, sent);
      // TCP: 'a' | the 100 KB message | 'b' | the 16 KiB one | the rest; gRPC frames need one buffer each.
      assert.equal(frames, transport === tcpTransport ? 5 : 1);
    });

    void test('splits a queue larger than the frame limit into several frames', async () => {
      const limits = { maxMessageBytes: 1000, maxFrameBytes: 4096 };
      const server = await echoServer(transport, limits);
      const link = dial(transport, server.port, { limits });
      const got = collect(link);
      await waitUp(link);
      for (let i = 0; i < 20; i++) link.send(Buffer.alloc(900, i));
      await until(() => got.length === 20);
      assert.equal(link.stats.framesWritten, 5);
    });

    void test('redials after the server restarts and delivers again', async () => {
      const first = await echoServer(transport);
      const port = first.port;
      const link = dial(transport, port);
      const got = collect(link);
      await waitUp(link);
      let downs = 0;
      link.onDown(() => downs++);
      await first.close();
      await until(() => downs === 1);
      await echoServer(transport, undefined, port);
      await waitUp(link);
      link.send(Buffer.from('after restart'));
      await until(() => got.includes('after restart'));
    });

    void test('queues sends while the peer is not yet reachable and delivers them once up', async () => {
      const probe = await echoServer(transport);
      const port = probe.port;
      await probe.close();
      const link = dial(transport, port);
      const got = collect(link);
      link.send(Buffer.from('early'));
      await echoServer(transport, undefined, port);
      await until(() => got.includes('early'));
    });

    void test('rejects and counts a message over the receiver limit; other links keep working', async () => {
      const server = await echoServer(transport, { maxMessageBytes: 1024 });
      const good = dial(transport, server.port, { identity: OTHER });
      const goodGot = collect(good);
      const big = dial(transport, server.port, { limits: { maxMessageBytes: 8192 } });
      await waitUp(big);
      await rejectedBy('message-too-large', () => big.send(Buffer.alloc(2048, 1)));
      big.close();
      good.send(Buffer.from('still fine'));
      await until(() => goodGot.includes('still fine'));
    });

    void test('drops and counts a send over the local message limit instead of throwing', async () => {
      const server = await echoServer(transport);
      const link = dial(transport, server.port, { limits: { maxMessageBytes: 100 } });
      const before = transportStats.dropped['invalid-size'];
      link.send(Buffer.alloc(101));
      link.send(new Uint8Array(0));
      assert.equal(transportStats.dropped['invalid-size'] - before, 2);
      assert.equal(link.stats.dropped, 2);
    });

    void test('rejects truncated, empty and garbage frames from a raw client without crashing', async () => {
      const server = await echoServer(transport, { maxMessageBytes: 1024, maxFrameBytes: 64 * 1024 });
      const good = dial(transport, server.port);
      const goodGot = collect(good);
      await waitUp(good);
      if (transport.name === 'grpc') {
        await rejectedBy('frame-truncated', () => void toClose.push({ close: rawGrpc(server.port, [truncatedBody]) }));
        await rejectedBy('frame-empty', () => void toClose.push({ close: rawGrpc(server.port, [Buffer.alloc(0)]) }));
        await rejectedBy('message-empty', () => void toClose.push({ close: rawGrpc(server.port, [u32(0)]) }));
        await rejectedBy('handshake-malformed', () => void toClose.push({ close: rawGrpc(server.port, [garbageMessage]) }));
        await rejectedBy('frame-too-large', () => void toClose.push({ close: rawGrpc(server.port, [Buffer.alloc(64 * 1024 + 8)]) }));
      } else {
        const frame = (body: Buffer): Buffer => Buffer.concat([u32(body.length), body]);
        await rejectedBy('frame-truncated', () => void toClose.push({ close: rawTcp(server.port, [frame(truncatedBody)], false) }));
        await rejectedBy('frame-truncated', () => void toClose.push({ close: rawTcp(server.port, [u32(100), Buffer.alloc(10)], true) }));
        await rejectedBy('frame-empty', () => void toClose.push({ close: rawTcp(server.port, [u32(0)], false) }));
        await rejectedBy('frame-too-large', () => void toClose.push({ close: rawTcp(server.port, [u32(0xffff_fff0)], false) }));
        await rejectedBy('message-empty', () => void toClose.push({ close: rawTcp(server.port, [frame(u32(0))], false) }));
        await rejectedBy('handshake-malformed', () => void toClose.push({ close: rawTcp(server.port, [frame(garbageMessage)], false) }));
      }
      good.send(Buffer.from('still fine'));
      await until(() => goodGot.includes('still fine'));
    });

    void test('rejects a dialer whose public key the configuration does not know', async () => {
      const server = await echoServer(transport);
      let link: DialedLink | undefined;
      await rejectedBy('auth-unknown-peer', () => void (link = dial(transport, server.port, { identity: STRANGER, secretKey: strangerKeys.secretKey })));
      link?.close();
      assert.equal(server.linkCount, 0);
    });

    void test('rejects a dialer whose signature does not verify', async () => {
      const server = await echoServer(transport);
      let link: DialedLink | undefined;
      await rejectedBy('auth-bad-signature', () => void (link = dial(transport, server.port, { identity: DIALER, secretKey: strangerKeys.secretKey })));
      link?.close();
      assert.equal(server.linkCount, 0);
    });

    void test('refuses a server that is not the peer the dialer meant', async () => {
      const server = await echoServer(transport);
      const link = dial(transport, server.port, { peer: replicaPeer(0, 5) });
      await rejectedBy('auth-wrong-peer', () => undefined);
      assert.equal(link.up, false);
      link.close();
    });

    void test('refuses a server whose proof does not verify', async () => {
      const server = await echoServer(transport, undefined, 0, SERVER, strangerKeys.secretKey);
      const link = dial(transport, server.port);
      await rejectedBy('auth-bad-signature', () => undefined);
      assert.equal(link.up, false);
      link.close();
    });

    void test('closes a stream that does not finish its handshake in time', async () => {
      const server = await echoServer(transport, { handshakeTimeoutMs: 20 });
      const silent = transport.name === 'grpc' ? rawGrpc(server.port, []) : rawTcp(server.port, [], false);
      toClose.push({ close: silent });
      await rejectedBy('handshake-timeout', () => undefined);
    });

    void test('closes the link and reports the error when a message handler throws', async () => {
      const server = await echoServer(transport);
      const link = dial(transport, server.port);
      link.onMessage(() => {
        throw new Error('handler bug');
      });
      const closed = new Promise<string>((resolve) => link.onClose((reason) => resolve(reason)));
      link.send(Buffer.from('boom'));
      assert.equal(await closed, 'handler-error');
    });
  });
}

// ---- TLS (decision 0026) ----

/** A trust authority and the TLS endpoints it issues for members' keys. */
function tlsAuthority(name: string): { endpointFor(member: PeerIdentity, keys: KeyPair): TlsEndpoint } {
  const authority = keyPair();
  const pair = { publicKey: authority.publicKey as Uint8Array as PublicKey, secretKey: authority.secretKey };
  const ca = certificateDer(authorityTbs('test', name, authority.publicKey), certifyAuthorityTls(pair, 'test', name));
  return {
    endpointFor: (member, memberKeys) =>
      tlsEndpoint([ca], certificateDer(memberTbs('test', name, authority.publicKey, member, memberKeys.publicKey), certifyMemberTls(pair, 'test', name, member, memberKeys.publicKey)), memberKeys.secretKey),
  };
}

const trusted = tlsAuthority('trusted');
const foreign = tlsAuthority('foreign');
const keysOf = (p: PeerIdentity): KeyPair => keys.get(peerKey(p))!;
const TLS_WIRES = [
  { name: 'grpc', make: (tls: TlsEndpoint): Transport => createGrpcTransport({ tls }), plain: grpcTransport },
  { name: 'tcp', make: (tls: TlsEndpoint): Transport => createTcpTransport({ tls }), plain: tcpTransport },
] as const;

/** Resolves once `link` has failed `n` more connection attempts (its redials), having never come up. */
async function failedAttempts(link: DialedLink, n: number): Promise<void> {
  const before = transportStats.reconnects;
  await until(() => transportStats.reconnects >= before + n);
  assert.equal(link.up, false);
}

/** Raw frame bodies over a TLS connection with a valid certificate that never authenticates. */
function rawTlsTcp(port: number, endpoint: TlsEndpoint, bytes: Buffer[]): () => void {
  const socket = tls.connect({ host: '127.0.0.1', port, key: endpoint.privateKey, cert: endpoint.certificate, ca: endpoint.ca, servername: TLS_SERVER_NAME, checkServerIdentity: () => undefined });
  socket.on('error', () => undefined);
  socket.once('secureConnect', () => {
    for (const b of bytes) socket.write(b);
  });
  return () => socket.destroy();
}

function rawTlsGrpc(port: number, endpoint: TlsEndpoint, frames: Buffer[]): () => void {
  const credentials = grpc.credentials.createSsl(Buffer.from(endpoint.ca), Buffer.from(endpoint.privateKey), Buffer.from(endpoint.certificate), { checkServerIdentity: () => undefined });
  return rawGrpcOn(new grpc.Client(`127.0.0.1:${port}`, credentials, { 'grpc.ssl_target_name_override': TLS_SERVER_NAME }), frames);
}

for (const wire of TLS_WIRES) {
  const serverTls = wire.make(trusted.endpointFor(SERVER, keysOf(SERVER)));
  const dialerTls = wire.make(trusted.endpointFor(DIALER, keysOf(DIALER)));
  void describe(`${wire.name} transport over TLS`, () => {
    void test('delivers messages both ways over mutual TLS, after the handshake', async () => {
      const server = await echoServer(serverTls);
      const link = dial(dialerTls, server.port);
      const got = collect(link);
      for (let i = 0; i < 100; i++) link.send(Buffer.from(`t${i}`));
      await until(() => got.length === 100);
      assert.deepEqual(got, Array.from({ length: 100 }, (_, i) => `t${i}`));
      assert.deepEqual(server.links[0]?.peer, DIALER);
      assert.deepEqual(link.peer, SERVER);
    });

    void test('refuses a dialer whose certificate another authority issued', async () => {
      const server = await echoServer(serverTls);
      const link = dial(wire.make(foreign.endpointFor(DIALER, keysOf(DIALER))), server.port);
      if (wire.name === 'tcp') await rejectedBy('tls-handshake', () => undefined);
      await failedAttempts(link, 2);
      assert.equal(server.linkCount, 0);
      link.close();
    });

    void test('refuses a plaintext dialer', async () => {
      // The TLS server waits for a ClientHello that never comes: short handshake timeouts on both ends.
      const server = await echoServer(serverTls, { handshakeTimeoutMs: 200 });
      const link = dial(wire.plain, server.port, { limits: { handshakeTimeoutMs: 200 } });
      if (wire.name === 'tcp') await rejectedBy('tls-handshake', () => undefined);
      await failedAttempts(link, 2);
      assert.equal(server.linkCount, 0);
      link.close();
    });

    void test('refuses a server whose certificate is another member\'s key', async () => {
      // The server answers the handshake as SERVER but presents OTHER's (validly issued) certificate.
      const server = await echoServer(wire.make(trusted.endpointFor(OTHER, keysOf(OTHER))));
      let link: DialedLink | undefined;
      await rejectedBy('tls-wrong-peer', () => void (link = dial(dialerTls, server.port)));
      assert.equal(link?.up, false);
      assert.equal(server.linkCount, 0);
      link?.close();
    });

    void test('refuses a dialer whose handshake identity is not its certificate\'s', async () => {
      // OTHER's TLS session carrying DIALER's handshake: a member relaying another's identity.
      const server = await echoServer(serverTls);
      let link: DialedLink | undefined;
      await rejectedBy('tls-wrong-peer', () => void (link = dial(wire.make(trusted.endpointFor(OTHER, keysOf(OTHER))), server.port)));
      assert.equal(server.linkCount, 0);
      link?.close();
    });

    void test('rejects and counts bad frames from an authenticated-by-TLS raw client', async () => {
      const server = await echoServer(serverTls, { maxMessageBytes: 1024, maxFrameBytes: 64 * 1024 });
      const good = dial(dialerTls, server.port);
      const goodGot = collect(good);
      await waitUp(good);
      const rawEndpoint = trusted.endpointFor(OTHER, keysOf(OTHER));
      if (wire.name === 'grpc') {
        await rejectedBy('frame-truncated', () => void toClose.push({ close: rawTlsGrpc(server.port, rawEndpoint, [truncatedBody]) }));
        await rejectedBy('frame-empty', () => void toClose.push({ close: rawTlsGrpc(server.port, rawEndpoint, [Buffer.alloc(0)]) }));
        await rejectedBy('handshake-malformed', () => void toClose.push({ close: rawTlsGrpc(server.port, rawEndpoint, [garbageMessage]) }));
      } else {
        const frame = (body: Buffer): Buffer => Buffer.concat([u32(body.length), body]);
        await rejectedBy('frame-truncated', () => void toClose.push({ close: rawTlsTcp(server.port, rawEndpoint, [frame(truncatedBody)]) }));
        await rejectedBy('frame-too-large', () => void toClose.push({ close: rawTlsTcp(server.port, rawEndpoint, [u32(0xffff_fff0)]) }));
        await rejectedBy('handshake-malformed', () => void toClose.push({ close: rawTlsTcp(server.port, rawEndpoint, [frame(garbageMessage)]) }));
        // Plaintext bytes at a TLS port are not a TLS handshake.
        await rejectedBy('tls-handshake', () => void toClose.push({ close: rawTcp(server.port, [frame(garbageMessage)], false) }));
      }
      good.send(Buffer.from('still fine'));
      await until(() => goodGot.includes('still fine'));
    });
  });
}
