/**
 * Frames: the unit of one stream write. A frame body is a run of messages, each prefixed by its
 * length as a u32 little-endian; a frame holds at least one message. gRPC carries one frame per
 * stream message (gRPC does the outer framing); TCP prefixes every frame with its body length as a
 * u32 little-endian (`headerBytes` = 4). Received messages are handed out as views into the frame
 * (no copy); a frame is validated completely before any of its messages is delivered, so a
 * malformed frame delivers nothing.
 */
import type { RejectReason } from './transport-stats.ts';

export const LENGTH_BYTES = 4;

/** Checks a frame body; undefined when it is a well-formed run of non-empty messages within limits. */
export function checkFrame(frame: Buffer, maxMessageBytes: number): RejectReason | undefined {
  const end = frame.length;
  if (end === 0) return 'frame-empty';
  let off = 0;
  while (off < end) {
    if (off + LENGTH_BYTES > end) return 'frame-truncated';
    const len = frame.readUInt32LE(off);
    if (len === 0) return 'message-empty';
    if (len > maxMessageBytes) return 'message-too-large';
    off += LENGTH_BYTES + len;
    if (off > end) return 'frame-truncated';
  }
  return undefined;
}

/**
 * Encodes `messages[from..to)` (whose lengths plus prefixes sum to `bodyBytes`) as one frame with
 * `headerBytes` (0 or 4) of outer length in front. One allocation per frame.
 */
export function encodeFrame(messages: readonly Uint8Array[], from: number, to: number, bodyBytes: number, headerBytes: number): Buffer {
  const out = Buffer.allocUnsafe(headerBytes + bodyBytes);
  let off = 0;
  if (headerBytes !== 0) off = out.writeUInt32LE(bodyBytes, 0);
  for (let i = from; i < to; i++) {
    const m = messages[i]!;
    off = out.writeUInt32LE(m.length, off);
    out.set(m, off);
    off += m.length;
  }
  return out;
}

/**
 * What goes in front of `messageBytes` bytes of a message framed alone: the outer length (with
 * `headerBytes` 4) and the message's length prefix. Written before the message itself, the message is
 * sent uncopied (a vectored write).
 */
export function singleMessageHead(messageBytes: number, headerBytes: number): Buffer {
  const head = Buffer.allocUnsafe(headerBytes + LENGTH_BYTES);
  if (headerBytes !== 0) head.writeUInt32LE(LENGTH_BYTES + messageBytes, 0);
  head.writeUInt32LE(messageBytes, headerBytes);
  return head;
}

/** One message alone in a frame (handshake steps). */
export function singleMessageFrame(message: Uint8Array, headerBytes: number): Buffer {
  return encodeFrame([message], 0, 1, LENGTH_BYTES + message.length, headerBytes);
}
