/**
 * A replica's write-ahead log: an append-only file of framed records (wal-frames.ts) with group
 * commit. Records appended during one event-loop turn are
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
 * Compaction (`startCompaction`, `compactionWrite`, `finishCompaction`; replica-server.ts drives it)
 * never blocks the event loop: the caller writes a checkpoint of its state into a new file in slices,
 * on the thread pool, while the log goes on taking records. The new file gets the records the log
 * took since the compaction started (its tail, copied over in rounds while the log goes on), then,
 * with group commits held back for one short step (the last bit of the tail, an fdatasync, the rename
 * and a sync of the directory), it replaces the log. A crash at any point leaves the old log or the
 * new one, each complete.
 *
 * Preallocation (decision 0033): with `fdatasync`, the file is kept zero-filled (written and synced
 * zeros, not a hole) past the end of the records: once a group leaves less than `PREALLOC_LOW_BYTES`
 * of zeros, `PREALLOC_BYTES` more are written and fsynced on the thread pool beside the groups (a
 * group that would reach them waits for that step). A group's write then overwrites blocks the file
 * already has, below its size, and its `fdatasync` flushes data only: appending past the end changed
 * the file's size in every group, and every such sync committed the file system's journal, which the
 * six replicas of a local shard took turns at.
 * The reader stops at a zero frame header (records are never empty); at open, a tail that is not all
 * zeros (a torn group) is cut as before, so stale bytes never follow the records a later group writes.
 *
 * `sync: 'none'` skips the fdatasync (for measurements and tests; a crash of the machine, not of the
 * process, can then lose the last records).
 */
import { close, closeSync, constants, fdatasync, fdatasyncSync, fstatSync, fsync, ftruncateSync, open, openSync, read, rename, rmSync, write, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { FRAME_HEADER, FrameBuffer, readLogFile } from './wal-frames.ts';

export type WalSync = 'fdatasync' | 'none';

const INITIAL_BUFFER_BYTES = 64 * 1024;
/** A write on the event loop that took longer than this moves writes to the thread pool... */
const WRITE_STALL_MS = 2;
/** ...for this long (then the event loop tries again). */
const POOL_WRITES_AFTER_STALL_MS = 1000;

export interface WalOptions {
  /** Always write on the thread pool (tests of that path); default: adaptive, see above. */
  readonly writeOnPool?: boolean;
}

/** Compaction copies the log's tail in rounds until less than this is left for its final step. */
const TAIL_CATCH_UP_BYTES = 256 * 1024;
/** At most this many such rounds (the log may grow as fast as it is copied). */
const TAIL_CATCH_UP_ROUNDS = 8;
const COPY_CHUNK_BYTES = 1 << 20;
/** Zeros written past the records' end in one step (writing 2 MiB took 22-35 ms here, 256 KiB 3-5)... */
const PREALLOC_BYTES = 256 << 10;
/** ...when a group leaves fewer than this. */
const PREALLOC_LOW_BYTES = 128 << 10;
let zeros: Buffer | null = null;

/** A compaction in progress: the new file, and how much of the old log's tail it has. */
interface Compaction {
  readonly fd: number;
  readonly path: string;
  /** Bytes in the new file so far. */
  size: number;
  /** Offset in the old file up to which its records are in the new file (from the start: the tail). */
  copied: number;
  /** An asynchronous step (a write, a copy, a sync) is on the thread pool. */
  busy: boolean;
}

/** Read-write, created when missing, not O_APPEND: every write names its offset (positional writes ignore it with O_APPEND). */
const OPEN_FLAGS = constants.O_RDWR | constants.O_CREAT;

export class Wal {
  #fd: number;
  /** Framed records appended since the last write started; appends go here while a write is in flight. */
  #pending = new FrameBuffer(INITIAL_BUFFER_BYTES);
  /** The other buffer: the one being written while a write is in flight, else free for the next swap. */
  #spare = new FrameBuffer(INITIAL_BUFFER_BYTES);
  /**
   * Log positions in bytes appended since open (never reset, not file offsets): the end of the last
   * record appended, the end of the last urgent one, the end of what was handed to a write, and the
   * end of what a completed sync made durable. Invariant: durable <= written <= appended, urgentEnd <= appended.
   */
  #appendedEnd = 0;
  #urgentEnd = 0;
  #written = 0;
  #durable = 0;
  /** A write (and its sync) is on the thread pool; `#next` waits for it. Invariant: at most one. */
  #inflight = false;
  /** Callbacks of `flushAsync` calls made while a write was in flight: the next group covers them. */
  #next: (() => void)[] = [];
  #closing = false;
  /** File offset up to which every write handed out has completed (the tail a compaction may copy). */
  #completeEnd = 0;
  #compaction: Compaction | null = null;
  /** A step that needs the file to itself (a compaction's switch), waiting for the group in flight. */
  #exclusiveWaiting: (() => void) | null = null;
  /** Until this time (performance.now ms) group writes go to the thread pool (after a stall). */
  #poolWritesUntilMs = 0;
  flushes = 0;
  bytesWritten = 0;
  /** Zero-filled extensions of the file (preallocation). */
  preallocations = 0;
  /** Writes on the event loop that took longer than WRITE_STALL_MS. */
  writeStalls = 0;

  private constructor(
    fd: number,
    readonly path: string,
    readonly sync: WalSync,
    readonly options: WalOptions,
    end: number,
  ) {
    this.#fd = fd;
    this.#size = end;
    this.#completeEnd = end;
    this.#allocated = fstatSync(fd).size;
  }

  /** Bytes the file has: the records, then written zeros (preallocation, see above). */
  #allocated: number;
  /** Zeros are being written from `#fillFrom` (a group reaching that far waits; so do switch and close). */
  #filling = false;
  #fillFrom = 0;

  /** File size once every write handed out so far completes (the offset of the next write). */
  #size: number;

  /** Bytes in the log file (after the last flush). */
  get size(): number {
    return this.#size;
  }

  /** No write or sync is in flight (a group's, or the zeros' step). */
  get idle(): boolean {
    return !this.#inflight && !this.#filling;
  }

  /** Opens (creating) the log at `path`; returns it with the intact records, in order. */
  static open(path: string, sync: WalSync, options: WalOptions = {}): { wal: Wal; records: Uint8Array[]; discardedBytes: number } {
    const fd = openSync(path, OPEN_FLAGS, 0o644);
    // Read in chunks, not with readFileSync, which refuses files over 2 GiB (wal-frames.ts).
    const size = fstatSync(fd).size;
    const { records, end: valid, zeroTail } = readLogFile(fd, size);
    // Zeros after the records are the preallocated end; anything else there is a torn group, cut so
    // that no stale byte ever follows what later groups write.
    if (valid < size && !zeroTail) ftruncateSync(fd, valid);
    // A compaction the process did not finish: the old log is the log.
    rmSync(compactionPath(path), { force: true });
    return { wal: new Wal(fd, path, sync, options, valid), records, discardedBytes: zeroTail ? 0 : size - valid };
  }

  /** Something appended is not written yet. */
  get pending(): boolean {
    return this.#pending.length > 0;
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
    if (record.length === 0) throw new RangeError('Wal.append: an empty record (a zero frame header marks the end of the log)');
    this.#pending.push(record);
    this.#queued(record.length, urgent);
  }

  /** Room for a record of `size` bytes, written in place and then queued by `seal` (as `append` queues). */
  room(size: number): Buffer {
    return this.#pending.room(size);
  }

  seal(urgent = true): void {
    this.#queued(this.#pending.seal(), urgent);
  }

  #queued(size: number, urgent: boolean): void {
    this.#appendedEnd += FRAME_HEADER + size;
    if (urgent) {
      this.#urgent = true;
      this.#urgentEnd = this.#appendedEnd;
    }
  }

  /**
   * Writes everything appended since the last flush and makes it durable, on the event loop (tests,
   * compaction and close; the replica's group commits use `flushAsync`). Only while idle.
   */
  flush(): void {
    if (!this.idle) throw new Error('Wal.flush while an asynchronous write is in flight');
    this.#urgent = false;
    const buf = this.#pending.take();
    const n = buf.length;
    if (n > 0) {
      let off = 0;
      while (off < n) off += writeSync(this.#fd, buf, off, n - off, this.#size + off);
      this.#wrote(n);
      this.#completeEnd = this.#size;
      this.#allocated = Math.max(this.#allocated, this.#size);
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
    const n = this.#pending.length;
    if (this.#filling && this.#size + n > this.#fillFrom) {
      // It would write where zeros are being written: after that step (#maybeFill calls #afterInflight).
      this.#next.push(...callbacks);
      return;
    }
    this.#urgent = false;
    if (n === 0 && (this.sync === 'none' || this.#written <= this.#durable)) {
      this.#durable = this.#written;
      for (const cb of callbacks) cb();
      return;
    }
    // Swap: this group's buffer is written while the next turns append into the other one; it is
    // framed into again only after the swap back, which waits for this group (one in flight).
    const group = this.#pending;
    this.#pending = this.#spare;
    this.#spare = group;
    const buf = group.take();
    const at = this.#size;
    this.#wrote(n);
    const target = this.#written;
    this.#inflight = true;
    const synced = (err: NodeJS.ErrnoException | null): void => {
      if (err !== null) return this.#failed(err);
      this.#durable = Math.max(this.#durable, target);
      this.#inflight = false;
      for (const cb of callbacks) cb();
      if (!this.#inflight) this.#afterInflight();
    };
    const written = (): void => {
      this.#completeEnd = at + n;
      this.#allocated = Math.max(this.#allocated, at + n);
      if (this.sync === 'fdatasync') fdatasync(this.#fd, synced);
      else synced(null);
      this.#maybeFill();
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

  /** Writes more zeros past the end when few are left (see above), beside the groups. */
  #maybeFill(): void {
    if (this.#filling || this.sync !== 'fdatasync' || this.#closing || this.#closed || this.#allocated - this.#size >= PREALLOC_LOW_BYTES) return;
    this.#filling = true;
    const from = this.#allocated;
    this.#fillFrom = from;
    zeros ??= Buffer.alloc(PREALLOC_BYTES);
    writeAll(this.#fd, zeros, from, (err) => {
      if (err !== null) return this.#failed(err);
      // fsync, not fdatasync: the file's size changed.
      fsync(this.#fd, (serr) => {
        if (serr !== null) return this.#failed(serr);
        this.#allocated = Math.max(this.#allocated, from + PREALLOC_BYTES);
        this.#filling = false;
        this.preallocations++;
        if (!this.#inflight) this.#afterInflight();
      });
    });
  }

  /** The file is free again: a waiting exclusive step, else close, else the next group. */
  #afterInflight(): void {
    const exclusive = this.#exclusiveWaiting;
    if (exclusive !== null) {
      if (this.#filling) return; // the zeros' step calls again when it completes
      this.#exclusiveWaiting = null;
      this.#inflight = true;
      return exclusive();
    }
    if (this.#closing) return this.#maybeCloseNow();
    const next = this.#next;
    if (next.length > 0) {
      this.#next = [];
      this.#startGroup(next);
    }
  }

  /** Accounts `n` bytes taken from the pending buffer as handed to a write at the current end of the file. */
  #wrote(n: number): void {
    this.#written = this.#appendedEnd;
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

  /** A compaction is in progress. */
  get compacting(): boolean {
    return this.#compaction !== null;
  }

  /**
   * Starts a compaction: a new file the caller fills with `compactionWrite` (records that recreate its
   * state as of now or later), then `finishCompaction`. The records appended from now on stay in the
   * log and follow the caller's in the new file. One at a time.
   */
  startCompaction(): void {
    if (this.#compaction !== null) throw new Error('Wal.startCompaction while a compaction is in progress');
    if (this.#closed || this.#closing) throw new Error('Wal.startCompaction on a closed log');
    const path = compactionPath(this.path);
    // Records appended before now and not written yet are written at or after this offset: in the tail.
    // Read-write like the log it becomes (a later compaction reads its tail back).
    this.#compaction = { fd: openSync(path, OPEN_FLAGS | constants.O_TRUNC, 0o644), path, size: 0, copied: this.#size, busy: false };
  }

  /** Appends framed records (wal-frames.ts) to the compaction's file on the thread pool; then `done`. */
  compactionWrite(frames: Uint8Array, done: () => void): void {
    const c = this.#activeCompaction();
    this.#compactionStep(c, (next) => writeAll(c.fd, frames, c.size, (err) => {
      if (err !== null) return this.#failed(err);
      c.size += frames.length;
      next();
    }), done);
  }

  /**
   * Completes the compaction: the caller's records are made durable, the log's tail is copied after
   * them (in rounds, while the log goes on), and the new file replaces the log (group commits wait for
   * that last step only). Then `done`.
   */
  finishCompaction(done: () => void): void {
    const c = this.#activeCompaction();
    let rounds = 0;
    const catchUp = (): void => {
      if (rounds++ < TAIL_CATCH_UP_ROUNDS && this.#completeEnd - c.copied > TAIL_CATCH_UP_BYTES) {
        const end = this.#completeEnd;
        return this.#compactionStep(c, (next) => this.#copyTail(c, end, next), catchUp);
      }
      // The last of the tail and the switch, with the file to ourselves (a close waits for it).
      this.#exclusive(() => {
        c.busy = true;
        this.#switchTo(c, () => {
          c.busy = false;
          this.#inflight = false;
          done();
          if (!this.#inflight) this.#afterInflight();
        });
      });
    };
    this.#compactionStep(c, (next) => fdatasync(c.fd, (err) => (err !== null ? this.#failed(err) : next())), catchUp);
  }

  #activeCompaction(): Compaction {
    const c = this.#compaction;
    if (c === null || c.busy) throw new Error('Wal: no compaction in progress, or one step of it is already running');
    return c;
  }

  /**
   * Runs one asynchronous step of compaction `c`; `then` runs after it unless the log was closed
   * meanwhile (the compaction is then abandoned: its file goes, the old log stays).
   */
  #compactionStep(c: Compaction, step: (next: () => void) => void, then: () => void): void {
    c.busy = true;
    step(() => {
      c.busy = false;
      if (this.#closing || this.#closed) {
        this.#abandonCompaction();
        return this.#maybeCloseNow();
      }
      then();
    });
  }

  /** Runs `op` once nothing is in flight (a group or the zeros' step), holding later groups back until it clears `#inflight`. */
  #exclusive(op: () => void): void {
    if (!this.idle) {
      this.#exclusiveWaiting = op;
      return;
    }
    this.#inflight = true;
    op();
  }

  /** Copies the old log's bytes from `c.copied` to `end` into the compaction's file. */
  #copyTail(c: Compaction, end: number, next: () => void): void {
    const buf = Buffer.allocUnsafe(Math.min(COPY_CHUNK_BYTES, Math.max(1, end - c.copied)));
    const more = (): void => {
      if (c.copied >= end) return next();
      const n = Math.min(buf.length, end - c.copied);
      read(this.#fd, buf, 0, n, c.copied, (err, got) => {
        if (err !== null) return this.#failed(err);
        if (got === 0) return this.#failed(new Error(`Wal: the log ended at ${c.copied} while copying its tail to ${end}`));
        writeAll(c.fd, buf.subarray(0, got), c.size, (werr) => {
          if (werr !== null) return this.#failed(werr);
          c.size += got;
          c.copied += got;
          more();
        });
      });
    };
    more();
  }

  /** With the file to ourselves: the rest of the tail, fdatasync, rename over the log, sync the directory, switch. */
  #switchTo(c: Compaction, next: () => void): void {
    this.#copyTail(c, this.#size, () =>
      fdatasync(c.fd, (err) => {
        if (err !== null) return this.#failed(err);
        rename(c.path, this.path, (rerr) => {
          if (rerr !== null) return this.#failed(rerr);
          // Until the directory is durable a crash could bring the old name back: nothing is appended
          // to the new file before.
          syncDirectory(dirname(this.path), (derr) => {
            if (derr !== null) return this.#failed(derr);
            const old = this.#fd;
            this.#fd = c.fd;
            this.#size = c.size;
            this.#completeEnd = c.size;
            this.#allocated = c.size;
            this.#compaction = null;
            this.compactions++;
            close(old, () => next());
          });
        });
      }),
    );
  }

  /** Drops an unfinished compaction (the log was closed): its file goes. */
  #abandonCompaction(): void {
    const c = this.#compaction;
    if (c === null || c.busy) return;
    this.#compaction = null;
    closeSync(c.fd);
    rmSync(c.path, { force: true });
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
    this.#closing = true;
    this.#maybeCloseNow();
  }

  /** Closes once nothing is in flight on either file (a compaction in progress is abandoned). */
  #maybeCloseNow(): void {
    if (this.#closed || !this.#closing || !this.idle || this.#compaction?.busy === true) return;
    this.#abandonCompaction();
    this.#closeNow();
  }

  #closeNow(): void {
    this.#closing = false;
    this.flush();
    for (const cb of this.#next.splice(0)) cb();
    this.#closed = true;
    closeSync(this.#fd);
  }
}

function compactionPath(path: string): string {
  return `${path}.compact`;
}

/** Writes all of `bytes` at `position` on the thread pool. */
function writeAll(fd: number, bytes: Uint8Array, position: number, done: (err: NodeJS.ErrnoException | null) => void): void {
  let off = 0;
  const more = (err: NodeJS.ErrnoException | null, n: number): void => {
    if (err !== null) return done(err);
    off += n;
    if (off < bytes.length) write(fd, bytes, off, bytes.length - off, position + off, more);
    else done(null);
  };
  write(fd, bytes, 0, bytes.length, position, more);
}

/** fsync of a directory, so a rename in it survives a crash of the machine. */
function syncDirectory(dir: string, done: (err: NodeJS.ErrnoException | null) => void): void {
  open(dir, constants.O_RDONLY, (err, fd) => {
    if (err !== null) return done(err);
    fsync(fd, (serr) => close(fd, () => done(serr)));
  });
}
