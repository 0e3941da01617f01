/**
 * TCP framing behind the Link interface, the default wire (DESIGN §3, decisions 0003 and 0026): one
 * connection per link, NODELAY, each frame prefixed by its body length as a u32 little-endian, the
 * same frame bodies and the same handshake as the gRPC transport. With a `TlsEndpoint` every
 * connection is node:tls (TLS 1.3, mutual, pinned as net/tls.ts describes) and the handshake runs
 * inside it; a peer that fails TLS is refused and counted ('tls-handshake', 'tls-wrong-peer').
 */
import * as net from 'node:net';
import * as tls from 'node:tls';
import { FramedLink } from './framed-link.ts';
import { FrameReader } from './frame-reader.ts';
import { DialerHandshake, ServerHandshake } from './handshake.ts';
import { Session, type Wire } from './session.ts';
import { certificateKey, NO_CHANNEL_KEY, pinServer, TLS_SERVER_NAME, TlsWrongPeerError, type TlsEndpoint } from './tls.ts';
import { transportStats } from './transport-stats.ts';
import {
  DEFAULT_BACKOFF,
  resolveLimits,
  type CloseReason,
  type DialedLink,
  type DialOptions,
  type ListenOptions,
  type Transport,
  type TransportLimits,
  type TransportServer,
} from './transport.ts';

const KEEPALIVE_MS = 10_000;

class SocketWire implements Wire {
  readonly headerBytes = 4;
  private done = false;
  constructor(private readonly socket: net.Socket) {}
  write(frame: Buffer): boolean {
    if (this.done) return true;
    return this.socket.write(frame);
  }
  writeParts(parts: readonly Uint8Array[]): boolean {
    if (this.done) return true;
    const socket = this.socket;
    socket.cork();
    let ok = true;
    for (const p of parts) ok = socket.write(p);
    socket.uncork();
    return ok;
  }
  onceDrain(callback: () => void): void {
    this.socket.once('drain', callback);
  }
  close(reason: CloseReason): void {
    if (this.done) return;
    this.done = true;
    if (reason === 'local') this.socket.end();
    else this.socket.destroy();
  }
}

/**
 * Wires socket events to a session; returns the frame reader, which the caller keeps only to feed it
 * itself: with `chunksReused` the socket was made with `onread` (dialed plaintext connections, see
 * `dialRead`), reads into one reused buffer and emits no 'data'.
 */
function attach(socket: net.Socket, session: Session, limits: TransportLimits, transientMessages: boolean, chunksReused = false): FrameReader {
  socket.setNoDelay(true);
  socket.setKeepAlive(true, KEEPALIVE_MS);
  const reader = new FrameReader(session, limits, transientMessages, chunksReused);
  if (!chunksReused) socket.on('data', (chunk: Buffer) => reader.push(chunk));
  socket.on('end', () => {
    if (reader.hasPartialFrame) session.fail('frame-truncated');
    else session.ended();
  });
  socket.on('error', (err: unknown) => session.ended(err));
  socket.on('close', () => session.ended());
  return reader;
}

/** Bytes a dialed plaintext connection reads at once into `dialReadBuffer`. */
const DIAL_READ_BYTES = 256 << 10;
let dialReadBuffer: Buffer | null = null;

/**
 * The `onread` of a dialed plaintext connection (decision 0049): the socket reads into one buffer that
 * every such connection of the process shares (a read's bytes are handed to `push` and consumed before
 * the next read of any socket), instead of a fresh 64 KiB buffer per read. A 780 KB reply then took
 * about 4 reads and 200 µs of CPU to receive instead of 12 reads and 1,000 µs; a 300-byte ping-pong
 * message 27 µs instead of 33 (a loopback micro-benchmark, decision 0049). Node offers `onread` only
 * where the socket is created, so accepted connections keep the 'data' path.
 */
function dialRead(push: (chunk: Buffer) => void): net.OnReadOpts {
  dialReadBuffer ??= Buffer.allocUnsafeSlow(DIAL_READ_BYTES);
  return {
    buffer: dialReadBuffer,
    callback: (nread: number, buf: Uint8Array) => {
      push(Buffer.from(buf.buffer, buf.byteOffset, nread));
      return true;
    },
  };
}

export interface TcpTransportOptions {
  /** Mutual TLS on every connection; absent: plaintext. */
  readonly tls?: TlsEndpoint;
}

export function createTcpTransport(transportOptions: TcpTransportOptions = {}): Transport {
  const endpoint = transportOptions.tls;
  return {
    name: 'tcp',
    listen: (options) => listenTcp(options, endpoint),
    dial: (options) => dialTcp(options, endpoint),
  };
}

/** Plaintext TCP framing (local clusters, measurements). */
export const tcpTransport: Transport = createTcpTransport();

function tlsContextOptions(endpoint: TlsEndpoint): tls.SecureContextOptions {
  return { key: endpoint.privateKey, cert: endpoint.certificate, ca: endpoint.ca, minVersion: 'TLSv1.3' };
}

async function listenTcp(options: ListenOptions, endpoint: TlsEndpoint | undefined): Promise<TransportServer> {
  const limits = resolveLimits(options.limits);
  const sessions = new Set<Session>();
  const sockets = new Set<net.Socket>();
  const links = new Set<FramedLink>();
  let closing = false;

  const onSocket = (socket: net.Socket, channelKey: Uint8Array | undefined): void => {
    const link = new FramedLink(limits, {
      onOpened: (l) => {
        links.add(l);
        options.onLink(l);
      },
      onFinished: (l) => {
        links.delete(l);
      },
    }, undefined);
    const handshake = new ServerHandshake(options, channelKey);
    const session = new Session(new SocketWire(socket), link, handshake, limits);
    link.adopt(session);
    attach(socket, session, limits, options.transientMessages === true);
    if (closing) return session.close();
    sessions.add(session);
    link.onClose(() => sessions.delete(session));
    session.start(handshake.hello());
  };
  const server =
    endpoint === undefined
      ? net.createServer((socket) => onSocket(socket, undefined))
      : tls.createServer({ ...tlsContextOptions(endpoint), requestCert: true, rejectUnauthorized: true, handshakeTimeout: limits.handshakeTimeoutMs }, (socket) =>
          onSocket(socket, certificateKey(socket.getPeerCertificate().raw) ?? NO_CHANNEL_KEY),
        );
  // Every accepted connection, TLS or not yet, so close() can cut the ones that hang.
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // A plaintext peer, a certificate the authorities did not issue, none at all, or a stalled TLS handshake.
  server.on('tlsClientError', (_err: Error, socket: tls.TLSSocket) => {
    transportStats.rejected['tls-handshake']++;
    socket.destroy();
  });

  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : 0);
    });
  });

  return {
    port,
    get linkCount() {
      return links.size;
    },
    close: async () => {
      closing = true;
      for (const s of [...sessions]) s.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Ended sockets whose peer does not answer would hold close() open; cut them.
        setTimeout(() => {
          for (const s of sockets) s.destroy();
        }, 200).unref();
      });
    },
  };
}

function dialTcp(options: DialOptions, endpoint: TlsEndpoint | undefined): DialedLink {
  const limits = resolveLimits(options.limits);
  const backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
  const secureContext = endpoint === undefined ? undefined : tls.createSecureContext(tlsContextOptions(endpoint));
  const connect = (link: FramedLink): void => {
    let socket: net.Socket;
    let reader: FrameReader | undefined;
    if (secureContext === undefined) {
      socket = net.connect({ host: options.host, port: options.port, noDelay: true, onread: dialRead((chunk) => reader!.push(chunk)) });
    } else {
      const tlsSocket = tls.connect({
        host: options.host,
        port: options.port,
        secureContext,
        servername: TLS_SERVER_NAME,
        checkServerIdentity: pinServer(options.publicKeyOf(options.peer)),
      });
      countTlsFailure(tlsSocket);
      socket = tlsSocket;
    }
    const session = new Session(new SocketWire(socket), link, new DialerHandshake(options, options.peer), limits);
    link.adopt(session);
    reader = attach(socket, session, limits, options.transientMessages === true, secureContext === undefined);
    session.start(undefined);
  };
  const link = new FramedLink(limits, { connect, backoff }, options.peer);
  link.start();
  return link;
}

/** Counts a dialed connection that reached the server but failed TLS (the pin counts its own refusals). */
function countTlsFailure(socket: tls.TLSSocket): void {
  let reached = false;
  let secured = false;
  socket.once('connect', () => (reached = true));
  socket.once('secureConnect', () => (secured = true));
  socket.once('error', (err: unknown) => {
    if (reached && !secured && !(err instanceof TlsWrongPeerError)) transportStats.rejected['tls-handshake']++;
  });
}
