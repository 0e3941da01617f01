/**
 * A replica's write-ahead log: an append-only file of framed records (`u32 length, u32 crc32,
 * bytes`, little-endian) with group commit. Records appended during one event-loop turn are
 * written with one `write` and made durable with one `fdatasync` (`flush`), before anything that
 * depends on them leaves the process (the replica server orders this). On open, the log is read back
 * up to the first torn or damaged frame (a crash in the middle of a write), and the file is cut there.
 *
 * `sync: 'none'` skips the fdatasync (for measurements and tests; a crash of the machine, not of the
 * process, can then lose the last records).
 */
import { closeSync, existsSync, fdatasync, fdatasyncSync, fstatSync, ftruncateSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { crc32 } from 'node:zlib';

export type WalSync = 'fdatasync' | 'none';

const HEADER = 8;

export class Wal {
  #fd: number;
  /** Framed records appended since the last write, in one buffer reused from write to write. */
  #buf: Buffer = Buffer.allocUnsafe(64 * 1024);
  #pendingBytes = 0;
  /**
   * Log positions in bytes appended since open (never reset, not file offsets): the end of the last
   * record appended, the end of the last urgent one, the end of what was written, and the end of
   * what a completed sync made durable. Invariant: durable <= written <= appended, urgentEnd <= appended.
   */
  #appended = 0;
  #urgentEnd = 0;
  #written = 0;
  #durable = 0;
  flushes = 0;
  bytesWritten = 0;

  private constructor(
    fd: number,
    readonly path: string,
    readonly sync: WalSync,
  ) {
    this.#fd = fd;
    this.#size = fstatSync(fd).size;
  }

  #size: number;

  /** Bytes in the log file (after the last flush). */
  get size(): number {
    return this.#size;
  }

  /** Opens (creating) the log at `path`; returns it with the intact records, in order. */
  static open(path: string, sync: WalSync): { wal: Wal; records: Uint8Array[]; discardedBytes: number } {
    const records: Uint8Array[] = [];
    let valid = 0;
    let size = 0;
    if (existsSync(path)) {
      const data = readFileSync(path);
      size = data.length;
      while (valid + HEADER <= data.length) {
        const len = data.readUInt32LE(valid);
        const sum = data.readUInt32LE(valid + 4);
        const end = valid + HEADER + len;
        if (end > data.length) break;
        const body = data.subarray(valid + HEADER, end);
        if (crc32(body) !== sum) break;
        records.push(new Uint8Array(body));
        valid = end;
      }
    }
    const fd = openSync(path, 'a+');
    if (valid < size) ftruncateSync(fd, valid);
    return { wal: new Wal(fd, path, sync), records, discardedBytes: size - valid };
  }

  /** Something appended is not written yet. */
  get pending(): boolean {
    return this.#pendingBytes > 0;
  }

  /** A record that must be durable before the replica acts on it is waiting (votes, ST2 decisions). */
  get urgent(): boolean {
    return this.#urgent;
  }

  #urgent = false;

  /** Position just after the last urgent record appended: sends that depend on it wait until `durable` reaches it. */
  get urgentEnd(): number {
    return this.#urgentEnd;
  }

  /** Position up to which records are durable (a sync covering them completed). */
  get durable(): number {
    return this.#durable;
  }

  /**
   * Queues a record. `urgent` records (a vote, a decision) must be durable before anything that
   * depends on them leaves the process; the others (applied outcomes, which peers can resend) ride
   * along with the next sync or a periodic one.
   */
  append(record: Uint8Array, urgent = true): void {
    const need = this.#pendingBytes + HEADER + record.length;
    if (need > this.#buf.length) {
      const grown = Buffer.allocUnsafe(Math.max(need, 2 * this.#buf.length));
      this.#buf.copy(grown, 0, 0, this.#pendingBytes);
      this.#buf = grown;
    }
    const at = this.#pendingBytes;
    this.#buf.writeUInt32LE(record.length, at);
    this.#buf.writeUInt32LE(crc32(record), at + 4);
    this.#buf.set(record, at + HEADER);
    this.#pendingBytes = need;
    this.#appended += HEADER + record.length;
    if (urgent) {
      this.#urgent = true;
      this.#urgentEnd = this.#appended;
    }
  }

  /** Writes everything appended since the last flush and makes it durable. */
  flush(): void {
    this.write();
    // Also what an asynchronous sync still in flight was to cover.
    if (this.sync === 'fdatasync' && this.#written > this.#durable) fdatasyncSync(this.#fd);
    this.#durable = this.#written;
  }

  /**
   * Group commit without blocking the event loop: writes what is pending now, then makes it durable on
   * the thread pool and calls `done` (at once with `sync: 'none'`). Several may be in flight: each
   * covers what was written before it started, and `durable` only grows. Errors are fatal to the replica.
   */
  flushAsync(done: () => void): void {
    this.write();
    const target = this.#written;
    if (this.sync === 'none') {
      this.#durable = Math.max(this.#durable, target);
      return done();
    }
    fdatasync(this.#fd, (err) => {
      if (err !== null) {
        // A sync still in flight when the log was closed (the replica stopping) no longer matters.
        if (this.#closed) return;
        throw err;
      }
      this.#durable = Math.max(this.#durable, target);
      done();
    });
  }

  /** Writes what is pending (not yet durable); false when there was nothing. */
  write(): boolean {
    this.#urgent = false;
    const n = this.#pendingBytes;
    if (n === 0) return false;
    // writeSync copies into the page cache, so the buffer is free for the next records at once.
    let off = 0;
    while (off < n) off += writeSync(this.#fd, this.#buf, off, n - off);
    this.#pendingBytes = 0;
    this.#written = this.#appended;
    this.flushes++;
    this.bytesWritten += n;
    this.#size += n;
    return true;
  }

  /**
   * Replaces the whole log by `records` (compaction): written to a temporary file, made durable, then
   * renamed over the log, so a crash at any point leaves either the old log or the new one.
   */
  rewrite(records: readonly Uint8Array[]): void {
    this.flush();
    const tmp = `${this.path}.compact`;
    const fd = openSync(tmp, 'w');
    const frames: Uint8Array[] = [];
    for (const r of records) frames.push(frame(r));
    const all = Buffer.concat(frames);
    let off = 0;
    while (off < all.length) off += writeSync(fd, all, off, all.length - off);
    fdatasyncSync(fd);
    closeSync(fd);
    renameSync(tmp, this.path);
    closeSync(this.#fd);
    this.#fd = openSync(this.path, 'a');
    this.#size = all.length;
    this.compactions++;
  }

  compactions = 0;

  #closed = false;

  close(): void {
    this.flush();
    this.#closed = true;
    closeSync(this.#fd);
  }
}

function frame(record: Uint8Array): Buffer {
  const f = Buffer.allocUnsafe(HEADER + record.length);
  f.writeUInt32LE(record.length, 0);
  f.writeUInt32LE(crc32(record), 4);
  f.set(record, HEADER);
  return f;
}
