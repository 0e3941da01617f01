/**
 * A replica's write-ahead log: an append-only file of framed records (`u32 length, u32 crc32,
 * bytes`, little-endian) with group commit. Records appended during one event-loop turn are
 * written with one `write` and made durable with one `fdatasync` (`flushAsync`), before anything
 * that depends on them leaves the process (the replica server orders this). On open, the log is read
 * back up to the first torn or damaged frame (a crash in the middle of a write), and the file is cut
 * there.
 *
 * The sync runs on the thread pool, one group at a time, each group written at its own file offset
 * (positional writes, in order) while the event loop keeps appending into a second buffer. The write
 * itself runs on the event loop while the disk takes it at once (it only copies into the page cache),
 * and on the thread pool for a second after one took longer than `WRITE_STALL_MS`: `writeSync`
 * blocked replicas for 5-25 ms per write whenever the file system was committing its journal for
 * the six replicas' syncs (strace under `bench kv`, 64 clients), and every read and vote of that
 * replica waited with it; always writing on the thread pool instead cost an extra trip through it per
 * group, which showed at 4 clients (decision 0018).
 *
 * `sync: 'none'` skips the fdatasync (for measurements and tests; a crash of the machine, not of the
 * process, can then lose the last records).
 */
import { closeSync, constants, existsSync, fdatasync, fdatasyncSync, fstatSync, ftruncateSync, openSync, readFileSync, renameSync, write, writeSync } from 'node:fs';
import { crc32 } from 'node:zlib';

export type WalSync = 'fdatasync' | 'none';

const HEADER = 8;
const INITIAL_BUFFER_BYTES = 64 * 1024;
/** A write on the event loop that took longer than this moves writes to the thread pool... */
const WRITE_STALL_MS = 2;
/** ...for this long (then the event loop tries again). */
const POOL_WRITES_AFTER_STALL_MS = 1000;

export interface WalOptions {
  /** Always write on the thread pool (tests of that path); default: adaptive, see above. */
  readonly writeOnPool?: boolean;
}

/** Read-write, created when missing, not O_APPEND: every write names its offset (positional writes ignore it with O_APPEND). */
const OPEN_FLAGS = constants.O_RDWR | constants.O_CREAT;

export class Wal {
  #fd: number;
  /** Framed records appended since the last write started; appends go here while a write is in flight. */
  #buf: Buffer = Buffer.allocUnsafe(INITIAL_BUFFER_BYTES);
  /** The other buffer: the one being written while a write is in flight, else free for the next swap. */
  #spare: Buffer = Buffer.allocUnsafe(INITIAL_BUFFER_BYTES);
  #pendingBytes = 0;
  /**
   * Log positions in bytes appended since open (never reset, not file offsets): the end of the last
   * record appended, the end of the last urgent one, the end of what was handed to a write, and the
   * end of what a completed sync made durable. Invariant: durable <= written <= appended, urgentEnd <= appended.
   */
  #appended = 0;
  #urgentEnd = 0;
  #written = 0;
  #durable = 0;
  /** A write (and its sync) is on the thread pool; `#next` waits for it. Invariant: at most one. */
  #inflight = false;
  /** Callbacks of `flushAsync` calls made while a write was in flight: the next group covers them. */
  #next: (() => void)[] = [];
  #closing = false;
  /** Until this time (performance.now ms) group writes go to the thread pool (after a stall). */
  #poolWritesUntilMs = 0;
  flushes = 0;
  bytesWritten = 0;
  /** Writes on the event loop that took longer than WRITE_STALL_MS. */
  writeStalls = 0;

  private constructor(
    fd: number,
    readonly path: string,
    readonly sync: WalSync,
    readonly options: WalOptions,
  ) {
    this.#fd = fd;
    this.#size = fstatSync(fd).size;
  }

  /** File size once every write handed out so far completes (the offset of the next write). */
  #size: number;

  /** Bytes in the log file (after the last flush). */
  get size(): number {
    return this.#size;
  }

  /** No write or sync is in flight (compaction swaps the file only then). */
  get idle(): boolean {
    return !this.#inflight;
  }

  /** Opens (creating) the log at `path`; returns it with the intact records, in order. */
  static open(path: string, sync: WalSync, options: WalOptions = {}): { wal: Wal; records: Uint8Array[]; discardedBytes: number } {
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
    const fd = openSync(path, OPEN_FLAGS, 0o644);
    if (valid < size) ftruncateSync(fd, valid);
    return { wal: new Wal(fd, path, sync, options), records, discardedBytes: size - valid };
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

  /**
   * Writes everything appended since the last flush and makes it durable, on the event loop (tests,
   * compaction and close; the replica's group commits use `flushAsync`). Only while idle.
   */
  flush(): void {
    if (this.#inflight) throw new Error('Wal.flush while an asynchronous write is in flight');
    this.#urgent = false;
    const n = this.#pendingBytes;
    if (n > 0) {
      let off = 0;
      while (off < n) off += writeSync(this.#fd, this.#buf, off, n - off, this.#size + off);
      this.#wrote(n);
    }
    if (this.sync === 'fdatasync' && this.#written > this.#durable) fdatasyncSync(this.#fd);
    this.#durable = this.#written;
  }

  /**
   * Group commit without waiting for the disk on the event loop: what is pending now is written (see
   * above) and made durable on the thread pool, then `done` is called. A call made while a group is in flight waits for it and
   * then starts the next group, which covers everything appended until it starts; `durable` only
   * grows. Errors are fatal to the replica.
   */
  flushAsync(done: () => void): void {
    if (this.#inflight) {
      this.#next.push(done);
      return;
    }
    this.#startGroup([done]);
  }

  #startGroup(callbacks: readonly (() => void)[]): void {
    this.#urgent = false;
    const n = this.#pendingBytes;
    if (n === 0 && (this.sync === 'none' || this.#written <= this.#durable)) {
      this.#durable = this.#written;
      for (const cb of callbacks) cb();
      return;
    }
    const buf = this.#buf;
    this.#buf = this.#spare;
    this.#spare = buf;
    const at = this.#size;
    this.#wrote(n);
    const target = this.#written;
    this.#inflight = true;
    const synced = (err: NodeJS.ErrnoException | null): void => {
      if (err !== null) return this.#failed(err);
      this.#durable = Math.max(this.#durable, target);
      this.#inflight = false;
      for (const cb of callbacks) cb();
      const next = this.#next;
      if (this.#closing) return this.#closeNow();
      if (next.length > 0) {
        this.#next = [];
        this.#startGroup(next);
      }
    };
    const written = (): void => {
      if (this.sync === 'fdatasync') fdatasync(this.#fd, synced);
      else synced(null);
    };
    if (n === 0) return written();
    const startMs = performance.now();
    if (this.options.writeOnPool !== true && startMs >= this.#poolWritesUntilMs) {
      let done = 0;
      while (done < n) done += writeSync(this.#fd, buf, done, n - done, at + done);
      const tookMs = performance.now() - startMs;
      if (tookMs > WRITE_STALL_MS) {
        this.writeStalls++;
        this.#poolWritesUntilMs = startMs + tookMs + POOL_WRITES_AFTER_STALL_MS;
      }
      return written();
    }
    let off = 0;
    const more = (err: NodeJS.ErrnoException | null, bytes: number): void => {
      if (err !== null) return this.#failed(err);
      off += bytes;
      if (off < n) write(this.#fd, buf, off, n - off, at + off, more);
      else written();
    };
    write(this.#fd, buf, 0, n, at, more);
  }

  /** Accounts `n` pending bytes as handed to a write at the current end of the file. */
  #wrote(n: number): void {
    this.#pendingBytes = 0;
    this.#written = this.#appended;
    if (n === 0) return;
    this.flushes++;
    this.bytesWritten += n;
    this.#size += n;
  }

  #failed(err: NodeJS.ErrnoException): void {
    // A write or sync still in flight when the log was closed (the replica stopping) no longer matters.
    if (this.#closed) return;
    throw err;
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
    this.#fd = openSync(this.path, OPEN_FLAGS, 0o644);
    this.#size = all.length;
    this.compactions++;
  }

  compactions = 0;

  #closed = false;

  /**
   * Writes and syncs what is pending, then closes the file. With a group in flight, that happens when
   * it completes (the process may exit first: what was not durable is lost as in a crash, and nothing
   * that depended on it was sent).
   */
  close(): void {
    if (this.#closed || this.#closing) return;
    if (this.#inflight) {
      this.#closing = true;
      return;
    }
    this.#closeNow();
  }

  #closeNow(): void {
    this.flush();
    for (const cb of this.#next.splice(0)) cb();
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
