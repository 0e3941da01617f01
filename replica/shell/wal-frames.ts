/**
 * The write-ahead log's frames (wal.ts): each record as `u32 length, u32 crc32, bytes`, little-endian.
 * A record is never empty, so a zero header marks the end of the records (the preallocated zeros
 * after them, decision 0033). Written through `FrameBuffer` (the log's group buffers, a compaction's
 * slices) and read back by `readLogFile`.
 */
import { readSync } from 'node:fs';
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
    this.#room = this.#buf.subarray(this.#length + FRAME_HEADER, need);
    return this.#room;
  }

  /** The view the last `room` handed out (its record's checksum is taken over it), until `seal`. */
  #room: Buffer | null = null;

  /** Frames the record written into the last `room`; returns its size. */
  seal(): number {
    const room = this.#room;
    if (room === null) throw new RangeError('FrameBuffer.seal without room');
    if (room.length === 0) throw new RangeError('FrameBuffer: an empty record (a zero frame header marks the end of the log)');
    this.#room = null;
    const at = this.#length;
    this.#buf.writeUInt32LE(room.length, at);
    this.#buf.writeUInt32LE(crc32(room), at + 4);
    this.#length = at + FRAME_HEADER + room.length;
    return room.length;
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
 * The frame at `at` in `buf` (of which `len` bytes are valid): the offset after it, or why there is
 * none: `end` (a zero header: the end of the records), `short` (it runs past `len`), `bad` (its
 * checksum does not match: a torn or damaged write).
 */
function frameAt(buf: Buffer, at: number, len: number): number | 'end' | 'short' | 'bad' {
  if (at + FRAME_HEADER > len) return 'short';
  const size = buf.readUInt32LE(at);
  if (size === 0) return 'end';
  const next = at + FRAME_HEADER + size;
  if (next > len) return 'short';
  return crc32(buf.subarray(at + FRAME_HEADER, next)) === buf.readUInt32LE(at + 4) ? next : 'bad';
}

/**
 * A copy of a record's bytes. The copies share 64 KiB slabs as received messages do
 * (protocol/pooled.ts): an ArrayBuffer per record was a fifth of a restart's CPU (decision 0062), and a
 * restored proof keeps a view of its record.
 */
function recordCopy(body: Uint8Array): Uint8Array {
  const copy = slabCopy(body);
  return new Uint8Array(copy.buffer, copy.byteOffset, copy.length);
}

const ZEROS = Buffer.alloc(64 << 10);

/** Whether `buf[from, to)` is all zeros (compared natively, a 64 KiB piece at a time). */
function allZeros(buf: Buffer, from: number, to: number): boolean {
  for (let at = from; at < to; at += ZEROS.length) {
    const n = Math.min(ZEROS.length, to - at);
    if (buf.compare(ZEROS, 0, n, at, at + n) !== 0) return false;
  }
  return true;
}

/** Bytes `readLogFile` reads at a time. */
const READ_CHUNK_BYTES = 16 << 20;

/** Copies up to `len` bytes from offset `pos` of a log into `buf` at `off`; returns how many (0 at its end). */
type ReadAt = (buf: Buffer, off: number, len: number, pos: number) => number;

/**
 * The intact records at the start of the file `fd` (its first `size` bytes), each a copy, and where
 * they end: reading stops at a zero header, a frame running past the end, or a checksum mismatch (a
 * torn or damaged write). Also whether everything after the records is zeros (the preallocated end,
 * decision 0033) rather than a torn group. Read `chunkBytes` at a time (a frame larger than that is
 * read whole): a log is never in memory at once, so one larger than the 2 GiB that `readFileSync`
 * refuses (decision 0062) still opens.
 */
export function readLogFile(fd: number, size: number, chunkBytes = READ_CHUNK_BYTES): { records: Uint8Array[]; end: number; zeroTail: boolean } {
  return scanLog((buf, off, len, pos) => readSync(fd, buf, off, len, pos), size, chunkBytes);
}

/** `readLogFile` over a log already in memory (measurements, tests), read as one chunk. */
export function readFrames(data: Buffer): { records: Uint8Array[]; end: number } {
  const { records, end } = scanLog((buf, off, len, pos) => data.copy(buf, off, pos, pos + len), data.length, Math.max(FRAME_HEADER, data.length));
  return { records, end };
}

/** `readLogFile` over any source of the log's bytes. */
function scanLog(readAt: ReadAt, size: number, chunkBytes: number): { records: Uint8Array[]; end: number; zeroTail: boolean } {
  const records: Uint8Array[] = [];
  let buf = Buffer.allocUnsafe(Math.max(FRAME_HEADER, chunkBytes));
  /** Log offset of `buf[0]`, and how many bytes of `buf` hold log data. */
  let bufStart = 0;
  let bufLen = 0;
  let end = 0;
  /** Keeps the bytes from log offset `from` on, then reads at least `need` more bytes if the log has them; false at its end. */
  const more = (from: number, need: number): boolean => {
    const keep = bufStart + bufLen - from;
    if (keep + need > buf.length) {
      const grown = Buffer.allocUnsafe(Math.max(keep + need, buf.length));
      buf.copy(grown, 0, from - bufStart, bufLen);
      buf = grown;
    } else buf.copy(buf, 0, from - bufStart, bufLen);
    bufStart = from;
    bufLen = keep;
    let read = 0;
    while (read < need && bufStart + bufLen < size) {
      const n = readAt(buf, bufLen, Math.min(buf.length - bufLen, size - bufStart - bufLen), bufStart + bufLen);
      if (n === 0) break;
      bufLen += n;
      read += n;
    }
    return read > 0;
  };
  for (;;) {
    const next = frameAt(buf, end - bufStart, bufLen);
    if (typeof next === 'number') {
      records.push(recordCopy(buf.subarray(end - bufStart + FRAME_HEADER, next)));
      end = bufStart + next;
      continue;
    }
    if (next !== 'short') break;
    // The frame's whole length when its header is in, else a header's.
    const at = end - bufStart;
    const want = at + FRAME_HEADER <= bufLen ? FRAME_HEADER + buf.readUInt32LE(at) : FRAME_HEADER;
    if (end + want > size || !more(end, Math.max(chunkBytes, want - (bufLen - at)))) break;
  }
  // The rest of the log, from the records' end: zeros only?
  let zeroTail = true;
  let from = end;
  for (;;) {
    zeroTail = allZeros(buf, from - bufStart, bufLen);
    if (!zeroTail || bufStart + bufLen >= size) break;
    from = bufStart + bufLen;
    if (!more(from, chunkBytes)) break;
  }
  return { records, end, zeroTail };
}
