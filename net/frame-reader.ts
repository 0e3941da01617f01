import { slabCopy } from '../protocol/pooled.ts';
import { LENGTH_BYTES } from './frame.ts';
import type { Session } from './session.ts';
import type { TransportLimits } from './transport.ts';

/** What a FrameReader hands frames to (a Session). */
export type FrameSink = Pick<Session, 'receiveFrame' | 'fail'>;

/**
 * Splits a byte stream into frame bodies; a bad outer header rejects the session. Whole frames inside a
 * received chunk are delivered as views of it; a frame that spans chunks is assembled by copying each
 * chunk's part into a buffer as it arrives (one copy, no list of chunks). With `reuse` (the endpoint's
 * handler copies what it keeps: EndpointOptions.transientMessages) that buffer serves every spanning
 * frame of the connection; otherwise each spanning frame gets one of its own, since its messages may be
 * kept as views.
 *
 * With `chunksReused` the chunks themselves are a buffer the socket reads into again once `push` returns
 * (tcp.ts, a dialed connection's `onread`): whole frames inside a chunk then reach an endpoint that keeps
 * messages as a private copy (`slabCopy`), and as views only when it copies what it keeps itself (`reuse`).
 */
export class FrameReader {
  /** The 4-byte length of a frame whose header spans chunks, as far as received. */
  private readonly head = Buffer.alloc(LENGTH_BYTES);
  private headHave = 0;
  /** Length of the frame being assembled (-1: none, or its header not complete yet). */
  private len = -1;
  private body: Buffer | null = null;
  private bodyHave = 0;
  /** Whether a whole frame inside a chunk is copied before delivery: the chunk is reused, its frames are kept. */
  private readonly copyWholeFrames: boolean;

  constructor(
    private readonly session: FrameSink,
    private readonly limits: TransportLimits,
    private readonly reuse: boolean,
    chunksReused = false,
  ) {
    this.copyWholeFrames = chunksReused && !reuse;
  }

  get hasPartialFrame(): boolean {
    return this.headHave > 0 || this.len >= 0;
  }

  push(chunk: Buffer): void {
    let off = 0;
    while (off < chunk.length) {
      if (this.len < 0) {
        let len: number;
        if (this.headHave === 0 && chunk.length - off >= LENGTH_BYTES) {
          len = chunk.readUInt32LE(off);
          off += LENGTH_BYTES;
          if (!this.checkLength(len)) return;
          if (chunk.length - off >= len) {
            // The whole frame is in this chunk: delivered as a view of it (of a copy, if the chunk is
            // overwritten after this returns and the endpoint keeps views).
            const frame = chunk.subarray(off, off + len);
            this.session.receiveFrame(this.copyWholeFrames ? slabCopy(frame) : frame);
            off += len;
            continue;
          }
        } else {
          // The length itself spans chunks.
          const take = Math.min(LENGTH_BYTES - this.headHave, chunk.length - off);
          chunk.copy(this.head, this.headHave, off, off + take);
          this.headHave += take;
          off += take;
          if (this.headHave < LENGTH_BYTES) return;
          this.headHave = 0;
          len = this.head.readUInt32LE(0);
          if (!this.checkLength(len)) return;
        }
        this.len = len;
        if (off === chunk.length) return;
      }
      // The frame spans chunks: this chunk's part goes to the assembly buffer.
      const take = Math.min(this.len - this.bodyHave, chunk.length - off);
      const body = this.room(this.bodyHave + take);
      chunk.copy(body, this.bodyHave, off, off + take);
      this.bodyHave += take;
      off += take;
      if (this.bodyHave < this.len) return;
      const frame = body.subarray(0, this.len);
      this.len = -1;
      this.bodyHave = 0;
      if (!this.reuse) this.body = null;
      this.session.receiveFrame(frame);
    }
  }

  private checkLength(len: number): boolean {
    if (len === 0) this.session.fail('frame-empty');
    else if (len > this.limits.maxFrameBytes) this.session.fail('frame-too-large');
    else return true;
    return false;
  }

  /**
   * The assembly buffer with room for `need` bytes of the current frame (its first `bodyHave` kept).
   * It is sized to the frame when that is at most UPFRONT_BYTES, else it doubles as bytes arrive, so a
   * peer that announces a large frame and sends little of it holds little memory. Reused, it keeps at
   * least REUSED_FRAME_BUFFER_BYTES.
   */
  private room(need: number): Buffer {
    const body = this.body;
    if (body !== null && body.length >= need) return body;
    const len = this.len;
    let size = len <= UPFRONT_BYTES ? len : Math.min(len, Math.max(need, 2 * (body?.length ?? 0), UPFRONT_BYTES));
    if (this.reuse) size = Math.max(size, REUSED_FRAME_BUFFER_BYTES);
    const grown = Buffer.allocUnsafeSlow(size);
    if (body !== null && this.bodyHave > 0) body.copy(grown, 0, 0, this.bodyHave);
    this.body = grown;
    return grown;
  }
}

/** A spanning frame up to this size gets its whole buffer at once; a larger one grows to it. */
const UPFRONT_BYTES = 1 << 20;
/** Smallest frame-assembly buffer a connection with transient messages keeps. */
const REUSED_FRAME_BUFFER_BYTES = 64 << 10;
