import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { FRAME_HEADER, FrameBuffer, readFrames, readLogFile } from './wal-frames.ts';
import { Wal } from './wal.ts';

const bytes = (...v: number[]): Uint8Array => new Uint8Array(v);

/** Records framed as the log stores them (`u32 length, u32 crc32, bytes`), written out here independently of FrameBuffer. */
function frames(records: readonly Uint8Array[]): Buffer {
  const out = Buffer.alloc(records.reduce((n, r) => n + FRAME_HEADER + r.length, 0));
  let at = 0;
  for (const r of records) {
    out.writeUInt32LE(r.length, at);
    out.writeUInt32LE(crc32(r), at + 4);
    out.set(r, at + FRAME_HEADER);
    at += FRAME_HEADER + r.length;
  }
  return out;
}

const flushed = (wal: Wal): Promise<void> => new Promise((resolve) => wal.flushAsync(resolve));
const compactionWritten = (wal: Wal, data: Uint8Array): Promise<void> => new Promise((resolve) => wal.compactionWrite(data, resolve));
const compactionFinished = (wal: Wal): Promise<void> => new Promise((resolve) => wal.finishCompaction(resolve));
/** Resolves once nothing is in flight, the zeros' step included (it runs beside the groups). */
async function quiet(wal: Wal): Promise<void> {
  while (!wal.idle) await new Promise((resolve) => setTimeout(resolve, 1));
}

async function withDir(fn: (dir: string) => void | Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'pesto-wal-'));
  try {
    await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The log at `path` reopens whole, with exactly `expected`. */
function assertReopens(path: string, expected: readonly Uint8Array[]): void {
  const again = Wal.open(path, 'none');
  assert.equal(again.discardedBytes, 0);
  assert.deepEqual(again.records, expected);
  again.wal.close();
}

void describe('Wal', () => {
  void it('gives back the flushed records in order after a reopen', () =>
    withDir((dir) => {
      const path = join(dir, 'wal.log');
      const { wal } = Wal.open(path, 'fdatasync');
      wal.append(bytes(1, 2, 3));
      wal.append(bytes(0));
      wal.flush();
      wal.append(bytes(4));
      assert.throws(() => wal.append(bytes()), /empty record/);
      wal.close();
      assertReopens(path, [bytes(1, 2, 3), bytes(0), bytes(4)]);
    }));

  void it('keeps the file zero-filled past the records, and appends after a reopen land at the records\' end', () =>
    withDir(async (dir) => {
      const path = join(dir, 'wal.log');
      const { wal } = Wal.open(path, 'fdatasync');
      wal.append(bytes(1, 2));
      await flushed(wal);
      assert.equal(wal.size, 8 + 2);
      await quiet(wal);
      wal.close();
      assert.equal(wal.preallocations, 1);
      assert.ok(statSync(path).size >= 8 + 2 + (256 << 10), 'zeros written past the records');
      const again = Wal.open(path, 'fdatasync');
      assert.deepEqual(again.records, [bytes(1, 2)]);
      assert.equal(again.discardedBytes, 0, 'zeros are not a torn tail');
      assert.equal(again.wal.size, 8 + 2);
      again.wal.append(bytes(3));
      await flushed(again.wal);
      await quiet(again.wal);
      again.wal.close();
      assert.equal(again.wal.preallocations, 0, 'the zeros kept from before still cover it');
      assertReopens(path, [bytes(1, 2), bytes(3)]);
    }));

  void it('writes zeros beside the groups as the log grows, and a group that would reach them waits', () =>
    withDir(async (dir) => {
      const path = join(dir, 'wal.log');
      const { wal } = Wal.open(path, 'fdatasync');
      const expected: Uint8Array[] = [];
      const groups: Promise<void>[] = [];
      // 40 groups of 30 KiB: about 1.2 MiB, several zero steps, with groups started while one runs.
      for (let g = 0; g < 40; g++) {
        const r = new Uint8Array(30_000).fill(g + 1);
        expected.push(r);
        wal.append(r);
        groups.push(flushed(wal));
        if (g % 3 === 0) await groups[groups.length - 1];
      }
      await Promise.all(groups);
      await quiet(wal);
      wal.close();
      assert.ok(wal.preallocations >= 3, `${wal.preallocations} zero steps`);
      assertReopens(path, expected);
    }));

  void it('writes a compaction in slices through one reused, growing frame buffer', () =>
    withDir(async (dir) => {
      const path = join(dir, 'wal.log');
      const { wal } = Wal.open(path, 'fdatasync');
      wal.append(bytes(1));
      await flushed(wal);
      wal.startCompaction();
      const out = new FrameBuffer();
      const scratch = new Uint8Array(5000);
      const expected: Uint8Array[] = [];
      // Slices of growing records from one scratch array (overwritten after each push, as the log's
      // record scratch is), each written before the next is framed.
      for (let slice = 0; slice < 4; slice++) {
        for (let r = 0; r < 3; r++) {
          const len = 1 + slice * 1500 + r;
          const rec = scratch.subarray(0, len).fill(10 * slice + r);
          out.push(rec);
          expected.push(new Uint8Array(len).fill(10 * slice + r));
        }
        const framed = out.take();
        assert.equal(out.length, 0);
        assert.deepEqual(framed, frames(expected.slice(-3)), `slice ${slice} framed as frames() frames`);
        await compactionWritten(wal, framed);
      }
      await compactionFinished(wal);
      wal.close();
      assertReopens(path, expected);
    }));

  void it('frames records written in place (room, then seal) as it frames pushed ones, through growth, and in the log', () =>
    withDir(async (dir) => {
      const out = new FrameBuffer(16);
      const expected: Uint8Array[] = [];
      for (let r = 0; r < 40; r++) {
        const len = 1 + ((r * 37) % 300);
        const rec = new Uint8Array(len).fill(r);
        expected.push(rec);
        if (r % 3 === 0) out.push(rec);
        else {
          // A room larger than asked for is never handed out: the record is exactly `len` bytes.
          const room = out.room(len);
          assert.equal(room.length, len);
          room.set(rec);
          assert.equal(out.seal(), len);
        }
      }
      assert.deepEqual(out.take(), frames(expected));
      assert.throws(() => out.seal(), /without room/);
      out.room(0);
      assert.throws(() => out.seal(), /empty record/);

      const path = join(dir, 'wal.log');
      const { wal } = Wal.open(path, 'fdatasync');
      wal.room(3).set(bytes(7, 8, 9));
      wal.seal(false);
      assert.equal(wal.urgent, false);
      wal.append(bytes(1));
      wal.room(2).set(bytes(4, 5));
      wal.seal();
      assert.equal(wal.urgent, true);
      assert.equal(wal.urgentEnd, 3 * FRAME_HEADER + 6);
      await flushed(wal);
      wal.close();
      assertReopens(path, [bytes(7, 8, 9), bytes(1), bytes(4, 5)]);
    }));

  void it('cuts a torn group in the zeros, so its stale frames never reappear after later groups', () =>
    withDir(async (dir) => {
      const path = join(dir, 'wal.log');
      const { wal } = Wal.open(path, 'fdatasync');
      wal.append(bytes(1));
      await flushed(wal);
      wal.close();
      // A torn group: its first frame never reached the disk, a later one did (a whole, valid frame).
      const stale = frames([bytes(6, 6, 6)]);
      const data = readFileSync(path);
      stale.copy(data, 9 + 8 + 3);
      writeFileSync(path, data);
      const again = Wal.open(path, 'fdatasync');
      assert.deepEqual(again.records, [bytes(1)]);
      assert.ok(again.discardedBytes > 0);
      assert.equal(statSync(path).size, 9, 'cut at the records\' end');
      // A later group of exactly the torn frame's length would otherwise end where the stale frame starts.
      again.wal.append(bytes(2, 2, 2));
      await flushed(again.wal);
      again.wal.close();
      assertReopens(path, [bytes(1), bytes(2, 2, 2)]);
    }));

  void it('cuts a torn or damaged tail and keeps what came before', () =>
    withDir((dir) => {
      const path = join(dir, 'wal.log');
      const { wal } = Wal.open(path, 'none');
      wal.append(bytes(9, 9));
      wal.close();
      appendFileSync(path, Buffer.from([5, 0, 0, 0, 1, 2, 3, 4, 7])); // a frame claiming 5 bytes, holding 1
      const again = Wal.open(path, 'none');
      assert.deepEqual(again.records, [bytes(9, 9)]);
      assert.equal(again.discardedBytes, 9);
      again.wal.append(bytes(8));
      again.wal.close();
      assert.deepEqual(Wal.open(path, 'none').records, [bytes(9, 9), bytes(8)], 'appends continue after the cut');
    }));

  void it('rejects a frame whose checksum does not match', () =>
    withDir((dir) => {
      const path = join(dir, 'wal.log');
      const { wal } = Wal.open(path, 'none');
      wal.append(bytes(1, 1, 1, 1));
      wal.close();
      const data = readFileSync(path);
      data[data.length - 1] = 2;
      appendFileSync(join(dir, 'copy.log'), data);
      assert.deepEqual(Wal.open(join(dir, 'copy.log'), 'none').records, []);
    }));

  void it('replaces the log by a compacted one, keeps what was appended meanwhile, and keeps appending', () =>
    withDir(async (dir) => {
      const path = join(dir, 'wal.log');
      const { wal } = Wal.open(path, 'fdatasync');
      for (let i = 0; i < 100; i++) wal.append(new Uint8Array(100).fill(i));
      wal.flush();
      const before = wal.size;
      wal.startCompaction();
      assert.ok(wal.compacting);
      // Appended after the start, before the checkpoint is written: the tail.
      wal.append(bytes(7));
      await flushed(wal);
      await compactionWritten(wal, frames([bytes(42), bytes(4, 2)]));
      wal.append(bytes(8), false);
      const finished = compactionFinished(wal);
      // A group asked for while the compaction finishes waits for the switch, then lands in the new file.
      wal.append(bytes(9));
      const group = flushed(wal);
      await Promise.all([finished, group]);
      assert.equal(wal.compacting, false);
      assert.equal(wal.compactions, 1);
      assert.equal(wal.durable, wal.urgentEnd);
      // Records' bytes, not the file's: a group after the switch may have the zeros' step
      // (preallocation, decision 0033) grow the new file past its records, depending on timing.
      await quiet(wal);
      assert.ok(wal.size < before, `compacted ${wal.size} bytes of records, before ${before}`);
      assert.ok(statSync(path).size >= wal.size);
      assert.equal(existsSync(`${path}.compact`), false);
      wal.append(bytes(10));
      // A second compaction reads its tail back from the file the first one made.
      wal.startCompaction();
      await compactionWritten(wal, frames([bytes(43)]));
      for (let i = 0; i < 4; i++) {
        wal.append(new Uint8Array(100_000).fill(i));
        await flushed(wal);
      }
      await compactionFinished(wal);
      assert.equal(wal.compactions, 2);
      wal.append(bytes(11));
      wal.close();
      const tail = [0, 1, 2, 3].map((i) => new Uint8Array(100_000).fill(i));
      assert.deepEqual(Wal.open(path, 'none').records, [bytes(43), bytes(10), ...tail, bytes(11)]);
    }));

  for (const writeOnPool of [false, true]) {
    void it(`copies a long tail in rounds while groups keep coming (${writeOnPool ? 'writes on the thread pool' : 'adaptive writes'})`, () =>
      withDir(async (dir) => {
        const path = join(dir, 'wal.log');
        const { wal } = Wal.open(path, 'fdatasync', { writeOnPool });
        wal.append(bytes(1));
        wal.flush();
        wal.startCompaction();
        const expected: Uint8Array[] = [bytes(0)];
        let appending = true;
        let g = 0;
        // Groups of ~100 KB back to back for as long as the compaction runs (past the catch-up threshold).
        const pump = async (): Promise<void> => {
          while (appending || g < 10) {
            const r = new Uint8Array(100_000).fill(g++ % 251);
            expected.push(r);
            wal.append(r);
            await flushed(wal);
          }
        };
        const pumped = pump();
        await compactionWritten(wal, frames([bytes(0)]));
        // A tail past the catch-up threshold (256 KB) before finishing, so it is copied in rounds.
        while (g < 5) await new Promise<void>((resolve) => setTimeout(resolve, 5));
        await compactionFinished(wal);
        appending = false;
        await pumped;
        wal.close();
        assertReopens(path, expected);
      }));
  }

  void it('abandons a compaction the log is closed during, keeping the old log whole', () =>
    withDir(async (dir) => {
      const path = join(dir, 'wal.log');
      const { wal } = Wal.open(path, 'fdatasync');
      wal.append(bytes(1));
      wal.flush();
      wal.startCompaction();
      let wrote = false;
      wal.compactionWrite(frames([bytes(42)]), () => (wrote = true));
      wal.append(bytes(2));
      wal.close();
      await new Promise<void>((resolve) => setTimeout(resolve, 100));
      assert.equal(wrote, false, 'the compaction does not go on after close');
      assert.equal(existsSync(`${path}.compact`), false);
      assert.deepEqual(Wal.open(path, 'none').records, [bytes(1), bytes(2)]);
    }));

  void it('ignores and removes the file of a compaction a crash interrupted', () =>
    withDir((dir) => {
      const path = join(dir, 'wal.log');
      const { wal } = Wal.open(path, 'none');
      wal.append(bytes(1));
      wal.close();
      writeFileSync(`${path}.compact`, frames([bytes(42)]));
      const again = Wal.open(path, 'none');
      assert.deepEqual(again.records, [bytes(1)]);
      assert.equal(existsSync(`${path}.compact`), false);
      again.wal.close();
    }));

  void it('reports an urgent record durable only once a sync that wrote it completes', () =>
    withDir(async (dir) => {
      const { wal } = Wal.open(join(dir, 'wal.log'), 'fdatasync');
      wal.append(bytes(1), false);
      assert.equal(wal.urgentEnd, 0, 'an outcome is not urgent');
      wal.append(bytes(2, 3));
      const first = wal.urgentEnd;
      assert.equal(first, 8 + 1 + 8 + 2);
      assert.ok(wal.durable < first);
      const synced = flushed(wal);
      // Appended while that sync runs: not covered by it.
      wal.append(bytes(4));
      const second = wal.urgentEnd;
      assert.ok(wal.durable < first, 'nothing is durable before the sync completes');
      await synced;
      assert.equal(wal.durable, first);
      assert.ok(wal.durable < second);
      // Two syncs in flight (a periodic one and a group commit): durable only grows.
      const a = flushed(wal);
      const b = flushed(wal);
      await Promise.all([a, b]);
      assert.equal(wal.durable, second);
      wal.append(bytes(5));
      wal.close();
      assert.equal(wal.durable, wal.urgentEnd, 'close makes everything durable');
    }));

  for (const writeOnPool of [false, true]) {
    void it(`keeps records in append order when groups are written ${writeOnPool ? 'on the thread pool' : 'adaptively'} while more are appended`, () =>
      withDir(async (dir) => {
        const path = join(dir, 'wal.log');
        const { wal } = Wal.open(path, 'fdatasync', { writeOnPool });
        const expected: Uint8Array[] = [];
        const groups: Promise<void>[] = [];
        for (let g = 0; g < 20; g++) {
          // Big enough to need the buffers to grow while a group is in flight.
          for (let i = 0; i < 5; i++) {
            const r = new Uint8Array(1 + ((g * 7919 + i * 104729) % 40_000)).fill(g * 5 + i);
            expected.push(r);
            wal.append(r, i % 2 === 0);
          }
          groups.push(flushed(wal));
          assert.equal(wal.idle, false, 'a group is in flight');
        }
        await Promise.all(groups);
        await quiet(wal);
        assert.equal(wal.durable, wal.urgentEnd);
        wal.close();
        assertReopens(path, expected);
      }));
  }

  void it('closes after the group in flight and writes what was appended meanwhile', () =>
    withDir(async (dir) => {
      const path = join(dir, 'wal.log');
      const { wal } = Wal.open(path, 'fdatasync');
      wal.append(bytes(1));
      const first = flushed(wal);
      wal.append(bytes(2));
      const second = flushed(wal);
      wal.append(bytes(3));
      wal.close();
      await Promise.all([first, second]);
      assert.equal(wal.durable, wal.urgentEnd, 'everything appended before close is durable');
      assert.deepEqual(Wal.open(path, 'none').records, [bytes(1), bytes(2), bytes(3)]);
    }));
});

void describe('readLogFile', () => {
  // Records of many sizes, one far larger than the chunks read.
  const records = Array.from({ length: 60 }, (_, i) => new Uint8Array(i === 30 ? 5000 : 1 + ((i * 53) % 300)).fill(i + 1));
  const good = frames(records);
  const damaged = Buffer.from(frames([bytes(9, 9, 9)]));
  damaged[FRAME_HEADER] = 8; // its checksum no longer matches
  const cases: [string, Buffer][] = [
    ['records and preallocated zeros', Buffer.concat([good, Buffer.alloc(10_000)])],
    ['records only', good],
    ['a torn last frame', Buffer.concat([good, frames([new Uint8Array(400).fill(3)]).subarray(0, 200)])],
    ['a frame whose checksum fails, then more', Buffer.concat([good, damaged, frames([bytes(1)])])],
    ['zeros with a stray byte far behind', Buffer.concat([good, Buffer.alloc(9_000), bytes(5), Buffer.alloc(100)])],
    ['a header running past the end', Buffer.concat([good, Buffer.from([0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0])])],
    ['nothing', Buffer.alloc(0)],
    ['fewer bytes than a header', Buffer.from([1, 2, 3])],
  ];

  void it('reads, chunk by chunk, what readFrames reads from the whole file, and sees whether the rest is zeros', () =>
    withDir((dir) => {
      for (const [what, data] of cases) {
        const path = join(dir, 'log');
        writeFileSync(path, data);
        const whole = readFrames(data);
        for (const chunk of [1, 7, 64, 4096, 1 << 20]) {
          const fd = openSync(path, 'r');
          try {
            const got = readLogFile(fd, data.length, chunk);
            assert.equal(got.end, whole.end, `${what}, chunks of ${chunk}: end`);
            assert.deepEqual(got.records, whole.records, `${what}, chunks of ${chunk}: records`);
            assert.equal(got.zeroTail, data.subarray(whole.end).every((b) => b === 0), `${what}, chunks of ${chunk}: zero tail`);
          } finally {
            closeSync(fd);
          }
        }
      }
      // The cases cover what they claim.
      assert.equal(readFrames(cases[0]![1]).records.length, records.length);
      assert.equal(readFrames(cases[3]![1]).records.length, records.length);
    }));
});
