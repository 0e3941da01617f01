/**
 * The transport interface the replica and client shells code against (DESIGN §3): authenticated
 * links to peers that carry opaque protocol messages, with two implementations: TCP framing
 * (tcp.ts, the default since decision 0026) and gRPC bidi streams (grpc.ts), each optionally over
 * mutual TLS (tls.ts).
 *
 * Guarantees of a link: messages arrive in the order they were sent, whole, at most once, and only
 * after both ends authenticated each other (handshake.ts); the shell never sees bytes from an
 * unauthenticated peer. Messages sent during one event-loop turn leave in one stream write.
 * Non-guarantees: delivery. A dialed link reconnects with backoff when its stream breaks and
 * messages written to the broken stream are lost; the protocol tolerates loss. Anything malformed
 * closes that one stream with a counted reason (transport-stats.ts) and never throws.
 *
 * A received message is a view into the frame it came in: it stays valid (nothing reuses the
 * memory), but holding it keeps the whole frame alive, so copy what you keep for long.
 */
import type { EndpointKeys } from './handshake.ts';
import type { PeerIdentity } from './peer-identity.ts';
import type { RejectReason } from './transport-stats.ts';

export type MessageHandler = (message: Uint8Array) => void;

/** Why a link (or one stream of a dialed link) closed. */
export type CloseReason = 'local' | 'remote' | 'handler-error' | RejectReason;
export type CloseHandler = (reason: CloseReason, cause?: unknown) => void;

/** Per-link counters (the process-wide sums are in `transportStats`). */
export interface LinkStats {
  /** Stream writes: one coalesced frame each. */
  readonly framesWritten: number;
  readonly messagesSent: number;
  readonly framesReceived: number;
  readonly messagesReceived: number;
  /** Messages `send` accepted but discarded (see `transportStats.dropped` for reasons). */
  readonly dropped: number;
}

export interface Link {
  /** The authenticated peer (for a dialed link: the peer it dials, once up). */
  readonly peer: PeerIdentity;
  readonly stats: LinkStats;
  /** Queues one message; the queue goes out in one write at the end of this event-loop turn. */
  send(message: Uint8Array): void;
  /** Installs the (single) receiver; replaces an earlier one. */
  onMessage(handler: MessageHandler): void;
  /** Called once when the link is closed for good. */
  onClose(handler: CloseHandler): void;
  close(): void;
}

/** A link that redials its peer with backoff whenever its stream breaks, until `close()`. */
export interface DialedLink extends Link {
  /** True while an authenticated stream is open. */
  readonly up: boolean;
  /** Each time a stream finishes its handshake. */
  onUp(handler: () => void): void;
  /** Each time an up stream breaks (a redial follows unless the link is closed). */
  onDown(handler: CloseHandler): void;
}

export interface TransportServer {
  /** The bound port (useful with port 0). */
  readonly port: number;
  /** Links currently open. */
  readonly linkCount: number;
  /** Stops accepting, closes every link. */
  close(): Promise<void>;
}

export interface TransportLimits {
  /** Largest single message accepted or sent. */
  readonly maxMessageBytes: number;
  /** Largest frame (one stream write) accepted; outgoing queues are split to fit. */
  readonly maxFrameBytes: number;
  /** Bytes a link may hold queued (peer slow, down or not yet connected) before `send` drops. */
  readonly maxQueuedBytes: number;
  readonly handshakeTimeoutMs: number;
}

export const DEFAULT_LIMITS: TransportLimits = {
  maxMessageBytes: 4 * 1024 * 1024,
  maxFrameBytes: 16 * 1024 * 1024,
  maxQueuedBytes: 64 * 1024 * 1024,
  handshakeTimeoutMs: 5000,
};

export interface BackoffOptions {
  readonly initialMs: number;
  readonly maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 50, maxMs: 2000 };

export interface EndpointOptions extends EndpointKeys {
  readonly limits?: Partial<TransportLimits>;
  /**
   * The message handlers copy whatever they keep of a message before returning, so the transport may
   * reuse the bytes it delivered (TCP: one frame-assembly buffer per connection instead of one per
   * frame that spans reads; decision 0045). Default false: delivered bytes are never written again.
   */
  readonly transientMessages?: boolean;
}

export interface ListenOptions extends EndpointOptions {
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 0 (ephemeral). */
  readonly port?: number;
  /** Called for every link that completed its handshake; install handlers synchronously. */
  readonly onLink: (link: Link) => void;
}

export interface DialOptions extends EndpointOptions {
  readonly host: string;
  readonly port: number;
  /** The identity the server must prove; anything else is rejected ('auth-wrong-peer'). */
  readonly peer: PeerIdentity;
  readonly backoff?: Partial<BackoffOptions>;
}

export interface Transport {
  readonly name: 'grpc' | 'tcp';
  listen(options: ListenOptions): Promise<TransportServer>;
  /** Returns at once; the link comes up in the background and queues sends meanwhile. */
  dial(options: DialOptions): DialedLink;
}

export function resolveLimits(partial: Partial<TransportLimits> | undefined): TransportLimits {
  const limits = { ...DEFAULT_LIMITS, ...partial };
  if (!(limits.maxMessageBytes > 0 && limits.maxMessageBytes + 4 <= limits.maxFrameBytes)) {
    throw new RangeError(`transport limits: need 0 < maxMessageBytes (${limits.maxMessageBytes}) <= maxFrameBytes (${limits.maxFrameBytes}) - 4`);
  }
  if (limits.maxFrameBytes > 0xffff_ffff) throw new RangeError('transport limits: maxFrameBytes must fit in u32');
  return limits;
}
