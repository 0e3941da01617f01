/**
 * The write-ahead log's frames (wal.ts): each record as `u32 length, u32 crc32, bytes`, little-endian.
 * A record is never empty, so a zero header marks the end of the records (the preallocated zeros
 * after them, decision 0033). Written through `FrameBuffer` (the log's group buffers, a compaction's
 * slices) and read back by `readFrames`.
 */
import { crc32 } from 'node:zlib';
import { slabCopy } from '../../protocol/pooled.ts';

/** Bytes of a frame's header: the record's length and its CRC-32. */
export const FRAME_HEADER = 8;

/**
 * Frames records into one buffer that is kept and reused: the log appends a turn's records into one
 * (and writes it while the next turn fills the other), a compaction frames each slice into one
 * (replica-server.ts; fresh memory per record and per slice was about half of a compaction's CPU,
 * decision 0039).
 */
export class FrameBuffer {
  #buf: Buffer;
  #length = 0;

  constructor(initialBytes = 0) {
    this.#buf = Buffer.allocUnsafeSlow(initialBytes);
  }

  /** Bytes framed since the last `take`. */
  get length(): number {
    return this.#length;
  }

  /** Appends `record` with its header; `record` may be overwritten afterwards. */
  push(record: Uint8Array): void {
    this.room(record.length).set(record);
    this.seal();
  }

  /**
   * Room for the next record's `size` bytes, written in place by the caller, then framed by `seal`:
   * no copy through a scratch buffer (a log compaction writes the whole state; decision 0062).
   */
  room(size: number): Buffer {
    const need = this.#length + FRAME_HEADER + size;
    if (need > this.#buf.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(need, 2 * this.#buf.length, 4096));
      this.#buf.copy(grown, 0, 0, this.#length);
      this.#buf = grown;
    }
    this.#roomSize = size;
    return this.#buf.subarray(this.#length + FRAME_HEADER, need);
  }

  #roomSize = -1;

  /** Frames the record written into the last `room`; returns its size. */
  seal(): number {
    const size = this.#roomSize;
    if (size <= 0) throw new RangeError(size === 0 ? 'FrameBuffer: an empty record (a zero frame header marks the end of the log)' : 'FrameBuffer.seal without room');
    this.#roomSize = -1;
    const at = this.#length;
    const body = FRAME_HEADER + at;
    this.#buf.writeUInt32LE(size, at);
    this.#buf.writeUInt32LE(crc32(this.#buf.subarray(body, body + size)), at + 4);
    this.#length = body + size;
    return size;
  }

  /**
   * The framed bytes so far, as a view of the kept buffer, and starts over: the view is valid until
   * the next `push` (the caller writes it before framing more into this buffer).
   */
  take(): Buffer {
    const out = this.#buf.subarray(0, this.#length);
    this.#length = 0;
    return out;
  }
}

/**
 * The intact records at the start of `data`, each a copy, and where they end: reading stops at a zero
 * header, a frame running past the end, or a checksum mismatch (a torn or damaged write). The copies
 * share 64 KiB slabs as received messages do (protocol/pooled.ts): an ArrayBuffer per record was a
 * fifth of a restart's CPU (decision 0062), and a restored proof keeps a view of its record.
 */
export function readFrames(data: Buffer): { records: Uint8Array[]; end: number } {
  const records: Uint8Array[] = [];
  let end = 0;
  while (end + FRAME_HEADER <= data.length) {
    const len = data.readUInt32LE(end);
    if (len === 0) break;
    const next = end + FRAME_HEADER + len;
    if (next > data.length) break;
    const body = data.subarray(end + FRAME_HEADER, next);
    if (crc32(body) !== data.readUInt32LE(end + 4)) break;
    const copy = slabCopy(body);
    records.push(new Uint8Array(copy.buffer, copy.byteOffset, copy.length));
    end = next;
  }
  return { records, end };
}
