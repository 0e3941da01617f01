/**
 * Process-wide transport counters, shared by the gRPC and TCP implementations. Plain numbers in
 * plain objects so the hot path only increments; prom-client collectors read them on scrape.
 *
 * - `rejected[reason]`: streams closed because the peer sent something invalid or failed to
 *   authenticate (each rejection closes exactly one stream and counts once).
 * - `dropped[reason]`: outgoing messages this process discarded instead of sending. The protocol
 *   tolerates loss, so the transport drops rather than blocks or grows without bound.
 */
export const REJECT_REASONS = [
  'frame-empty',
  'frame-truncated',
  'frame-too-large',
  'message-empty',
  'message-too-large',
  'handshake-malformed',
  'handshake-version',
  'handshake-timeout',
  'handshake-unexpected',
  'auth-unknown-peer',
  'auth-wrong-peer',
  'auth-bad-signature',
  /** TLS refused before the handshake: a plaintext peer, an untrusted or missing certificate (decision 0026). */
  'tls-handshake',
  /** A TLS certificate whose key is not the configured key of the peer dialed or authenticated. */
  'tls-wrong-peer',
] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

export const DROP_REASONS = [
  /** `send` on a link closed for good, or still queued when it closed. */
  'closed',
  /** The queue already held `maxQueuedBytes` (peer slow, down or not yet connected). */
  'queue-full',
  /** The message alone exceeds `maxMessageBytes`, or is empty. */
  'invalid-size',
  /** Arrived before any `onMessage` handler was installed. */
  'no-handler',
] as const;
export type DropReason = (typeof DROP_REASONS)[number];

export interface TransportStats {
  readonly rejected: Record<RejectReason, number>;
  readonly dropped: Record<DropReason, number>;
  /** Stream writes (one coalesced frame each); compare with messagesSent for the batching factor. */
  framesWritten: number;
  messagesSent: number;
  bytesWritten: number;
  framesReceived: number;
  messagesReceived: number;
  bytesReceived: number;
  /** Links that completed the handshake (both directions). */
  linksOpened: number;
  /** Dial attempts after the first, per dialed link. */
  reconnects: number;
  /** onMessage handlers that threw; the link is closed (reason 'handler-error'). */
  handlerErrors: number;
}

function zeros<K extends string>(keys: readonly K[]): Record<K, number> {
  const out = {} as Record<K, number>;
  for (const k of keys) out[k] = 0;
  return out;
}

export const transportStats: TransportStats = {
  rejected: zeros(REJECT_REASONS),
  dropped: zeros(DROP_REASONS),
  framesWritten: 0,
  messagesSent: 0,
  bytesWritten: 0,
  framesReceived: 0,
  messagesReceived: 0,
  bytesReceived: 0,
  linksOpened: 0,
  reconnects: 0,
  handlerErrors: 0,
};
