/**
 * One stream (a gRPC call or a TCP connection) of a link: runs the handshake, then validates each
 * incoming frame and hands its messages to the link. A link outlives its sessions when it redials.
 *
 * Invariant: nothing reaches `link.deliver` before the handshake authenticated the peer, and
 * nothing in here throws to the transport's event handlers: every failure becomes `fail(reason)`,
 * which counts the reason once, closes the wire and tells the link.
 */
import type { FramedLink } from './framed-link.ts';
import { checkFrame, LENGTH_BYTES, singleMessageFrame } from './frame.ts';
import type { DialerHandshake, ServerHandshake } from './handshake.ts';
import type { CloseReason, TransportLimits } from './transport.ts';
import { transportStats, type RejectReason } from './transport-stats.ts';

/** What a session needs from the underlying stream; one adapter per transport. */
export interface Wire {
  /** Outer length prefix per frame: 0 for gRPC (it frames messages itself), 4 for TCP. */
  readonly headerBytes: 0 | 4;
  /** Writes one frame; false means wait for `onceDrain` before writing more. */
  write(frame: Buffer): boolean;
  /**
   * Writes one frame given as consecutive pieces, without joining them (one vectored write); the
   * pieces must stay unchanged until written. Absent where the stream needs each frame as one buffer
   * (gRPC messages).
   */
  writeParts?(parts: readonly Uint8Array[]): boolean;
  onceDrain(callback: () => void): void;
  /** Ends the stream: gracefully for 'local', otherwise as an error. Idempotent. */
  close(reason: CloseReason): void;
}

type State = 'handshake' | 'open' | 'closed';

/** Handshake messages are under 120 bytes; a frame that carries one plus early data stays small. */
const HANDSHAKE_FRAME_BYTES_MAX = 4096;

export class Session {
  private state: State = 'handshake';
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly wire: Wire,
    private readonly link: FramedLink,
    private readonly handshake: ServerHandshake | DialerHandshake,
    private readonly limits: TransportLimits,
  ) {}

  get isOpen(): boolean {
    return this.state === 'open';
  }

  /** Call once the stream exists: the server speaks first, both sides arm the handshake timer. */
  start(hello: Buffer | undefined): void {
    this.timer = setTimeout(() => this.fail('handshake-timeout'), this.limits.handshakeTimeoutMs);
    if (hello !== undefined) this.wire.write(singleMessageFrame(hello, this.wire.headerBytes));
  }

  /** One frame body (without the TCP outer header). */
  receiveFrame(frame: Buffer): void {
    if (this.state === 'closed') return;
    transportStats.framesReceived++;
    transportStats.bytesReceived += frame.length;
    if (frame.length > this.limits.maxFrameBytes) return this.fail('frame-too-large');
    // An unauthenticated peer gets no more than a handshake message's worth of our attention.
    if (this.state === 'handshake' && frame.length > HANDSHAKE_FRAME_BYTES_MAX) return this.fail('handshake-malformed');
    const bad = checkFrame(frame, this.limits.maxMessageBytes);
    if (bad !== undefined) return this.fail(bad);
    const link = this.link;
    link.countFrame();
    try {
      let off = 0;
      while (off < frame.length) {
        const len = frame.readUInt32LE(off);
        const msg = frame.subarray(off + LENGTH_BYTES, off + LENGTH_BYTES + len);
        off += LENGTH_BYTES + len;
        if (this.state === 'open') link.deliver(msg);
        else if (this.state === 'handshake') this.handshakeStep(msg);
        else return;
      }
    } catch (err: unknown) {
      transportStats.handlerErrors++;
      this.fail('handler-error', err);
    }
  }

  private handshakeStep(msg: Uint8Array): void {
    const step = this.handshake.receive(msg);
    if (!step.ok) return this.fail(step.reason);
    if (step.reply !== undefined) this.wire.write(singleMessageFrame(step.reply, this.wire.headerBytes));
    if (step.peer !== undefined) {
      this.state = 'open';
      clearTimeout(this.timer);
      transportStats.linksOpened++;
      this.link.opened(this, step.peer);
    }
  }

  /** The stream ended or failed underneath us. */
  ended(cause?: unknown): void {
    this.finish('remote', cause);
  }

  /** Local close (the link closes or the server shuts down). */
  close(): void {
    this.finish('local', undefined);
  }

  fail(reason: RejectReason | 'handler-error', cause?: unknown): void {
    if (this.state === 'closed') return;
    if (reason !== 'handler-error') transportStats.rejected[reason]++;
    this.finish(reason, cause);
  }

  private finish(reason: CloseReason, cause: unknown): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    clearTimeout(this.timer);
    this.wire.close(reason);
    this.link.ended(this, reason, cause);
  }
}
