/**
 * The gRPC transport (the default until decision 0026; `transport.wire: grpc`): one long-lived gRPC bidi stream (`/pesto.Peer/Stream`) per link, each
 * stream message one frame (frame.ts), identity serializers (bytes in, bytes out: the protocol
 * encodes its own messages). Channel options follow the measured model: channelz off, a 16 MiB
 * HTTP/2 flow-control window. Without a `TlsEndpoint` the credentials are insecure (local clusters,
 * measurements); with one, grpc-js's SSL credentials run mutual TLS pinned as net/tls.ts describes
 * (decision 0026). The handshake authenticates both ends either way (decision 0003).
 */
import * as grpc from '@grpc/grpc-js';
import { FramedLink } from './framed-link.ts';
import { DialerHandshake, ServerHandshake } from './handshake.ts';
import { Session, type Wire } from './session.ts';
import { certificateKey, NO_CHANNEL_KEY, pinServer, TLS_SERVER_NAME, type TlsEndpoint } from './tls.ts';
import {
  DEFAULT_BACKOFF,
  resolveLimits,
  type CloseReason,
  type DialedLink,
  type DialOptions,
  type ListenOptions,
  type Transport,
  type TransportServer,
} from './transport.ts';

export const STREAM_PATH = '/pesto.Peer/Stream';
const FLOW_CONTROL_WINDOW = 16 * 1024 * 1024;
/**
 * Room for gRPC to carry a full frame: we check the frame limit ourselves, with a counted reason.
 * Caveat: a gRPC message beyond maxFrameBytes + this slack is refused inside grpc-js
 * (RESOURCE_EXHAUSTED to the peer) before our handler sees it, so the server does not count it.
 */
const GRPC_SLACK_BYTES = 1024;

const identity = (b: Buffer): Buffer => b;

export const peerService: grpc.ServiceDefinition = {
  stream: {
    path: STREAM_PATH,
    requestStream: true,
    responseStream: true,
    requestSerialize: identity,
    requestDeserialize: identity,
    responseSerialize: identity,
    responseDeserialize: identity,
  },
};

export interface GrpcTransportOptions {
  /** Mutual TLS on every connection; absent: insecure credentials. */
  readonly tls?: TlsEndpoint;
}

function channelOptions(maxFrameBytes: number, backoffMaxMs: number, secure: boolean): grpc.ChannelOptions {
  return {
    // Certificates are pinned by key (net/tls.ts); a fixed SNI name keeps IP addresses out of it.
    ...(secure ? { 'grpc.ssl_target_name_override': TLS_SERVER_NAME } : {}),
    'grpc.enable_channelz': 0,
    'grpc-node.flow_control_window': FLOW_CONTROL_WINDOW,
    'grpc.max_receive_message_length': maxFrameBytes + GRPC_SLACK_BYTES,
    'grpc.max_send_message_length': maxFrameBytes + GRPC_SLACK_BYTES,
    'grpc.initial_reconnect_backoff_ms': 50,
    'grpc.max_reconnect_backoff_ms': backoffMaxMs,
    // Each dialed link owns its channel and its HTTP/2 connection.
    'grpc.use_local_subchannel_pool': 1,
  };
}

/** status code used to tell the peer why we hung up (only 'local' is a clean end). */
function statusFor(reason: CloseReason): grpc.status {
  if (reason.startsWith('auth-')) return grpc.status.UNAUTHENTICATED;
  if (reason === 'handshake-timeout') return grpc.status.DEADLINE_EXCEEDED;
  if (reason === 'handler-error') return grpc.status.INTERNAL;
  return grpc.status.INVALID_ARGUMENT;
}

class ServerCallWire implements Wire {
  readonly headerBytes = 0;
  private done = false;
  constructor(private readonly call: grpc.ServerDuplexStream<Buffer, Buffer>) {}
  write(frame: Buffer): boolean {
    if (this.done) return true;
    return this.call.write(frame);
  }
  onceDrain(callback: () => void): void {
    this.call.once('drain', callback);
  }
  close(reason: CloseReason): void {
    if (this.done) return;
    this.done = true;
    if (reason === 'local' || reason === 'remote') {
      if (!this.call.writableEnded) this.call.end();
      return;
    }
    this.call.emit('error', { code: statusFor(reason), details: reason });
  }
}

class ClientCallWire implements Wire {
  readonly headerBytes = 0;
  private done = false;
  constructor(private readonly call: grpc.ClientDuplexStream<Buffer, Buffer>) {}
  write(frame: Buffer): boolean {
    if (this.done) return true;
    return this.call.write(frame);
  }
  onceDrain(callback: () => void): void {
    this.call.once('drain', callback);
  }
  close(): void {
    if (this.done) return;
    this.done = true;
    this.call.cancel();
  }
}

export function createGrpcTransport(transportOptions: GrpcTransportOptions = {}): Transport {
  const endpoint = transportOptions.tls;
  return {
    name: 'grpc',
    listen: (options) => listenGrpc(options, endpoint),
    dial: (options) => dialGrpc(options, endpoint),
  };
}

function serverCredentials(endpoint: TlsEndpoint | undefined): grpc.ServerCredentials {
  if (endpoint === undefined) return grpc.ServerCredentials.createInsecure();
  return grpc.ServerCredentials.createSsl(Buffer.from(endpoint.ca), [{ private_key: Buffer.from(endpoint.privateKey), cert_chain: Buffer.from(endpoint.certificate) }], true);
}

/** The TLS client certificate's key of a call (TLS on), or undefined (insecure). */
function channelKeyOf(call: grpc.ServerDuplexStream<Buffer, Buffer>, endpoint: TlsEndpoint | undefined): Uint8Array | undefined {
  if (endpoint === undefined) return undefined;
  return certificateKey(call.getAuthContext().sslPeerCertificate?.raw) ?? NO_CHANNEL_KEY;
}

/** gRPC with insecure channel credentials plus the handshake (local development, benchmarks). */
export const grpcTransport: Transport = createGrpcTransport();

async function listenGrpc(options: ListenOptions, endpoint: TlsEndpoint | undefined): Promise<TransportServer> {
  const limits = resolveLimits(options.limits);
  const server = new grpc.Server(channelOptions(limits.maxFrameBytes, DEFAULT_BACKOFF.maxMs, false));
  const sessions = new Set<Session>();
  const links = new Set<FramedLink>();
  let closing = false;

  const onStream = (call: grpc.ServerDuplexStream<Buffer, Buffer>): void => {
    const wire = new ServerCallWire(call);
    const link = new FramedLink(limits, {
      onOpened: (l) => {
        links.add(l);
        options.onLink(l);
      },
      onFinished: (l) => {
        links.delete(l);
      },
    }, undefined);
    const handshake = new ServerHandshake(options, channelKeyOf(call, endpoint));
    const session = new Session(wire, link, handshake, limits);
    link.adopt(session);
    if (closing) return session.close();
    sessions.add(session);
    link.onClose(() => sessions.delete(session));
    call.on('data', (frame: Buffer) => session.receiveFrame(frame));
    call.on('end', () => session.ended());
    call.on('error', (err: unknown) => session.ended(err));
    call.on('cancelled', () => session.ended());
    call.on('close', () => session.ended());
    session.start(handshake.hello());
  };
  server.addService(peerService, { stream: onStream });

  const host = options.host ?? '127.0.0.1';
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${host}:${options.port ?? 0}`, serverCredentials(endpoint), (err, bound) => {
      if (err !== null) reject(err);
      else resolve(bound);
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
        server.tryShutdown(() => resolve());
        // Streams we ended may still be draining; do not wait on a slow peer.
        setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, 200).unref();
      });
    },
  };
}

function dialGrpc(options: DialOptions, endpoint: TlsEndpoint | undefined): DialedLink {
  const limits = resolveLimits(options.limits);
  const backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
  const credentials =
    endpoint === undefined
      ? grpc.credentials.createInsecure()
      : grpc.credentials.createSsl(Buffer.from(endpoint.ca), Buffer.from(endpoint.privateKey), Buffer.from(endpoint.certificate), {
          checkServerIdentity: pinServer(options.publicKeyOf(options.peer)),
        });
  const client = new grpc.Client(`${options.host}:${options.port}`, credentials, channelOptions(limits.maxFrameBytes, backoff.maxMs, endpoint !== undefined));
  const connect = (link: FramedLink): void => {
    const call = client.makeBidiStreamRequest<Buffer, Buffer>(STREAM_PATH, identity, identity, new grpc.Metadata());
    const session = new Session(new ClientCallWire(call), link, new DialerHandshake(options, options.peer), limits);
    link.adopt(session);
    call.on('data', (frame: Buffer) => session.receiveFrame(frame));
    call.on('end', () => session.ended());
    call.on('error', (err: unknown) => session.ended(err));
    call.on('close', () => session.ended());
    session.start(undefined);
  };
  const link = new FramedLink(limits, { connect, backoff, onFinished: () => client.close() }, options.peer);
  link.start();
  return link;
}
