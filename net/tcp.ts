/**
 * Plain TCP framing behind the same Link interface, for measuring against gRPC (DESIGN §3): one
 * connection per link, NODELAY, each frame prefixed by its body length as a u32 little-endian, the
 * same frame bodies and the same handshake as the gRPC transport. No TLS here; decision 0003 says
 * when this would be worth adding.
 */
import * as net from 'node:net';
import { FramedLink } from './framed-link.ts';
import { LENGTH_BYTES } from './frame.ts';
import { DialerHandshake, ServerHandshake } from './handshake.ts';
import { Session, type Wire } from './session.ts';
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

/** Splits a byte stream into frame bodies; a bad outer header rejects the session. */
class FrameReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Bytes needed before the next frame (or header) can be parsed. */
  private need = LENGTH_BYTES;

  constructor(
    private readonly session: Session,
    private readonly limits: TransportLimits,
  ) {}

  get hasPartialFrame(): boolean {
    return this.buffered > 0;
  }

  push(chunk: Buffer): void {
    let buf = chunk;
    if (this.buffered > 0) {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
      if (this.buffered < this.need) return;
      buf = Buffer.concat(this.chunks, this.buffered);
      this.chunks = [];
      this.buffered = 0;
    }
    const session = this.session;
    let off = 0;
    let need = LENGTH_BYTES;
    while (buf.length - off >= LENGTH_BYTES) {
      const len = buf.readUInt32LE(off);
      if (len === 0) return session.fail('frame-empty');
      if (len > this.limits.maxFrameBytes) return session.fail('frame-too-large');
      if (buf.length - off - LENGTH_BYTES < len) {
        need = LENGTH_BYTES + len;
        break;
      }
      session.receiveFrame(buf.subarray(off + LENGTH_BYTES, off + LENGTH_BYTES + len));
      off += LENGTH_BYTES + len;
    }
    if (off < buf.length) {
      const rest = buf.subarray(off);
      this.chunks.push(rest);
      this.buffered = rest.length;
    }
    this.need = need;
  }
}

class SocketWire implements Wire {
  readonly headerBytes = 4;
  private done = false;
  constructor(private readonly socket: net.Socket) {}
  write(frame: Buffer): boolean {
    if (this.done) return true;
    return this.socket.write(frame);
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

/** Wires socket events to a session; returns nothing the caller must keep. */
function attach(socket: net.Socket, session: Session, limits: TransportLimits): void {
  socket.setNoDelay(true);
  socket.setKeepAlive(true, KEEPALIVE_MS);
  const reader = new FrameReader(session, limits);
  socket.on('data', (chunk: Buffer) => reader.push(chunk));
  socket.on('end', () => {
    if (reader.hasPartialFrame) session.fail('frame-truncated');
    else session.ended();
  });
  socket.on('error', (err: unknown) => session.ended(err));
  socket.on('close', () => session.ended());
}

export const tcpTransport: Transport = {
  name: 'tcp',
  listen: listenTcp,
  dial: dialTcp,
};

async function listenTcp(options: ListenOptions): Promise<TransportServer> {
  const limits = resolveLimits(options.limits);
  const sessions = new Set<Session>();
  const sockets = new Set<net.Socket>();
  const links = new Set<FramedLink>();
  let closing = false;

  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    const link = new FramedLink(limits, {
      onOpened: (l) => {
        links.add(l);
        options.onLink(l);
      },
      onFinished: (l) => {
        links.delete(l);
      },
    }, undefined);
    const handshake = new ServerHandshake(options);
    const session = new Session(new SocketWire(socket), link, handshake, limits);
    link.adopt(session);
    attach(socket, session, limits);
    if (closing) return session.close();
    sessions.add(session);
    link.onClose(() => sessions.delete(session));
    session.start(handshake.hello());
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

function dialTcp(options: DialOptions): DialedLink {
  const limits = resolveLimits(options.limits);
  const backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
  const connect = (link: FramedLink): void => {
    const socket = net.connect({ host: options.host, port: options.port, noDelay: true });
    const session = new Session(new SocketWire(socket), link, new DialerHandshake(options, options.peer), limits);
    link.adopt(session);
    attach(socket, session, limits);
    session.start(undefined);
  };
  const link = new FramedLink(limits, { connect, backoff }, options.peer);
  link.start();
  return link;
}
