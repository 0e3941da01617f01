/**
 * The Link both transports hand out: an outgoing queue coalesced into one frame per event-loop
 * turn, delivery to the installed handler, and (for dialed links) redial with backoff.
 *
 * Why the queue: one stream write per message costs gRPC 1.8x in throughput
 * (reference/node-commit-path-model.md), so `send` only pushes and a single `setImmediate` per
 * turn writes everything queued as one frame (split at `maxFrameBytes`). When a write reports
 * backpressure the link waits for 'drain' and keeps coalescing meanwhile. The queue survives a
 * broken stream of a dialed link, bounded by `maxQueuedBytes`; frames already written to the broken
 * stream are lost. `send` keeps a reference to the message, so do not mutate it afterwards (a large
 * message is handed to the socket itself and read while the kernel takes it).
 */
import { encodeFrame, LENGTH_BYTES, singleMessageHead } from './frame.ts';
import type { PeerIdentity } from './peer-identity.ts';
import type { Session } from './session.ts';
import type { BackoffOptions, CloseHandler, CloseReason, DialedLink, MessageHandler, TransportLimits } from './transport.ts';
import { transportStats, type DropReason } from './transport-stats.ts';

export interface FramedLinkHooks {
  /**
   * Dialed links: opens a new stream towards the peer. It must call `link.adopt(session)` before
   * the session can report anything. Absent for accepted links.
   */
  readonly connect?: (link: FramedLink) => void;
  readonly backoff?: BackoffOptions;
  /** A session finished its handshake (accepted links: hand the link to the server's onLink). */
  readonly onOpened?: (link: FramedLink) => void;
  /** The link closed for good (release per-link resources). */
  readonly onFinished?: (link: FramedLink) => void;
}

const PLACEHOLDER_PEER: PeerIdentity = { kind: 'client', id: 0 };

/**
 * Messages from this size on are written without being copied into a frame, where the wire can write
 * pieces: a frame buffer of their size is fresh memory (page faults, and a sweep later) that cost a
 * replica more than encoding a 10,000-row reply's read set (decision 0048).
 */
const DIRECT_BYTES = 16 << 10;

export class FramedLink implements DialedLink {
  readonly stats = { framesWritten: 0, messagesSent: 0, framesReceived: 0, messagesReceived: 0, dropped: 0 };
  /** Invariant: the peer authenticated by the current or last session (dialed: the dialed peer). */
  peer: PeerIdentity;
  private session: Session | undefined;
  private isUp = false;
  private closed = false;
  private queue: Uint8Array[] = [];
  /** Invariant: sum over `queue` of (LENGTH_BYTES + length). */
  private queueBytes = 0;
  private flushScheduled = false;
  private waitingDrain = false;
  private handler: MessageHandler | undefined;
  private readonly closeHandlers: CloseHandler[] = [];
  private readonly upHandlers: (() => void)[] = [];
  private readonly downHandlers: CloseHandler[] = [];
  private redialTimer: NodeJS.Timeout | undefined;
  private backoffMs: number;
  // Bound once per link, so the hot path allocates no closures.
  private readonly flushBound = (): void => this.flush();
  private readonly drainBound = (): void => {
    this.waitingDrain = false;
    if (this.queue.length > 0) this.flush();
  };
  private readonly redialBound = (): void => this.redial();

  constructor(
    private readonly limits: TransportLimits,
    private readonly hooks: FramedLinkHooks,
    peer: PeerIdentity | undefined,
  ) {
    this.peer = peer ?? PLACEHOLDER_PEER;
    this.backoffMs = hooks.backoff?.initialMs ?? 0;
  }

  get up(): boolean {
    return this.isUp;
  }

  /** Starts the first dial (dialed links only). */
  start(): void {
    this.hooks.connect?.(this);
  }

  send(message: Uint8Array): void {
    const len = message.length;
    if (this.closed) return this.drop('closed');
    if (len === 0 || len > this.limits.maxMessageBytes) return this.drop('invalid-size');
    const cost = LENGTH_BYTES + len;
    if (this.queueBytes + cost > this.limits.maxQueuedBytes) return this.drop('queue-full');
    this.queue.push(message);
    this.queueBytes += cost;
    if (!this.flushScheduled && this.isUp && !this.waitingDrain) {
      this.flushScheduled = true;
      setImmediate(this.flushBound);
    }
  }

  onMessage(handler: MessageHandler): void {
    this.handler = handler;
  }

  onClose(handler: CloseHandler): void {
    this.closeHandlers.push(handler);
  }

  onUp(handler: () => void): void {
    this.upHandlers.push(handler);
  }

  onDown(handler: CloseHandler): void {
    this.downHandlers.push(handler);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.redialTimer);
    this.session?.close();
    this.finish('local', undefined);
  }

  // ---- called by Session ----

  countFrame(): void {
    this.stats.framesReceived++;
  }

  deliver(message: Uint8Array): void {
    this.stats.messagesReceived++;
    transportStats.messagesReceived++;
    const handler = this.handler;
    if (handler === undefined) {
      transportStats.dropped['no-handler']++;
      return;
    }
    handler(message);
  }

  /** Makes `session` the link's current stream (before it starts). */
  adopt(session: Session): void {
    this.session = session;
  }

  opened(session: Session, peer: PeerIdentity): void {
    if (session !== this.session || this.closed) return session.close();
    this.peer = peer;
    this.isUp = true;
    this.waitingDrain = false;
    this.backoffMs = this.hooks.backoff?.initialMs ?? 0;
    this.hooks.onOpened?.(this);
    for (const h of this.upHandlers) h();
    if (this.queue.length > 0 && !this.flushScheduled && this.isUp) {
      this.flushScheduled = true;
      setImmediate(this.flushBound);
    }
  }

  ended(session: Session, reason: CloseReason, cause: unknown): void {
    if (session !== this.session) return;
    this.session = undefined;
    const wasUp = this.isUp;
    this.isUp = false;
    this.waitingDrain = false;
    if (wasUp) for (const h of this.downHandlers) h(reason, cause);
    if (this.closed) return;
    if (this.hooks.connect === undefined || reason === 'handler-error') {
      this.closed = true;
      this.finish(reason, cause);
      return;
    }
    this.scheduleRedial();
  }

  // ---- internals ----

  private drop(reason: DropReason): void {
    this.stats.dropped++;
    transportStats.dropped[reason]++;
  }

  private scheduleRedial(): void {
    const backoff = this.hooks.backoff;
    if (backoff === undefined) return;
    const delay = this.backoffMs * (0.8 + 0.4 * Math.random());
    this.backoffMs = Math.min(backoff.maxMs, Math.max(1, this.backoffMs * 2));
    this.redialTimer = setTimeout(this.redialBound, delay);
  }

  private redial(): void {
    if (this.closed || this.hooks.connect === undefined) return;
    transportStats.reconnects++;
    this.hooks.connect(this);
  }

  private finish(reason: CloseReason, cause: unknown): void {
    const dropped = this.queue.length;
    if (dropped > 0) {
      this.stats.dropped += dropped;
      transportStats.dropped.closed += dropped;
      this.queue = [];
      this.queueBytes = 0;
    }
    this.hooks.onFinished?.(this);
    for (const h of this.closeHandlers) h(reason, cause);
  }

  private flush(): void {
    this.flushScheduled = false;
    const session = this.session;
    if (!this.isUp || session === undefined || this.waitingDrain) return;
    const q = this.queue;
    const n = q.length;
    if (n === 0) return;
    const wire = session.wire;
    const maxBody = this.limits.maxFrameBytes;
    const direct = wire.writeParts !== undefined;
    let from = 0;
    while (from < n) {
      let to = from;
      let bytes = 0;
      let ok: boolean;
      if (direct && q[from]!.length >= DIRECT_BYTES) {
        // A large message goes alone and uncopied: its header, then the message itself (decision 0048).
        const m = q[from]!;
        to = from + 1;
        bytes = LENGTH_BYTES + m.length;
        ok = wire.writeParts!([singleMessageHead(m.length, wire.headerBytes), m]);
      } else {
        while (to < n) {
          const len = q[to]!.length;
          const add = LENGTH_BYTES + len;
          if (bytes + add > maxBody || (direct && len >= DIRECT_BYTES)) break;
          bytes += add;
          to++;
        }
        ok = wire.write(encodeFrame(q, from, to, bytes, wire.headerBytes));
      }
      this.queueBytes -= bytes;
      this.stats.framesWritten++;
      this.stats.messagesSent += to - from;
      transportStats.framesWritten++;
      transportStats.messagesSent += to - from;
      transportStats.bytesWritten += wire.headerBytes + bytes;
      from = to;
      if (!ok) {
        this.waitingDrain = true;
        wire.onceDrain(this.drainBound);
        break;
      }
    }
    if (from === n) q.length = 0;
    else q.splice(0, from);
  }
}
