// The TCP stream splitter: frames cut at every kind of chunk boundary come out whole and in order, a
// reused assembly buffer only when asked, frames kept past delivery intact when the socket reads into one
// buffer again, and bad lengths fail the session wherever they are cut.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FrameReader, type FrameSink } from './frame-reader.ts';
import { DEFAULT_LIMITS, type TransportLimits } from './transport.ts';

/** A seeded generator (xorshift32), so a failing cut can be replayed. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x1_0000_0000;
  };
}

function streamOf(frames: readonly Buffer[]): Buffer {
  return Buffer.concat(frames.flatMap((f) => {
    const h = Buffer.alloc(4);
    h.writeUInt32LE(f.length);
    return [h, f];
  }));
}

class Sink implements FrameSink {
  /** Each frame as delivered (a view), and a copy taken at delivery. */
  readonly views: Buffer[] = [];
  readonly copies: Buffer[] = [];
  readonly failures: string[] = [];
  receiveFrame(frame: Buffer): void {
    this.views.push(frame);
    this.copies.push(Buffer.from(frame));
  }
  fail(reason: Parameters<FrameSink['fail']>[0]): void {
    this.failures.push(reason);
  }
}

/**
 * Feeds `stream` in chunks whose sizes `cut` draws: fresh buffers, or with `shared` views of one buffer
 * that is overwritten with junk once each chunk is pushed (a dialed socket's `onread` buffer).
 */
function feed(reader: FrameReader, stream: Buffer, cut: () => number, shared?: Buffer): void {
  for (let off = 0; off < stream.length; ) {
    const n = Math.min(stream.length - off, Math.max(1, cut()), shared?.length ?? Infinity);
    const chunk = shared === undefined ? Buffer.from(stream.subarray(off, off + n)) : shared.subarray(0, n);
    if (shared !== undefined) stream.copy(shared, 0, off, off + n);
    reader.push(chunk);
    shared?.fill(0xee);
    off += n;
  }
}

const limits: TransportLimits = { ...DEFAULT_LIMITS, maxFrameBytes: 1 << 20, maxMessageBytes: (1 << 20) - 4 };

void describe('FrameReader', () => {
  for (const [reuse, chunksReused] of [[false, false], [true, false], [false, true], [true, true]] as const) {
    void test(`delivers every frame whole and in order whatever the chunk boundaries (reuse ${reuse}, chunks reused ${chunksReused})`, () => {
      const next = rng((reuse ? 7 : 11) + (chunksReused ? 100 : 0));
      const shared = chunksReused ? Buffer.alloc(300_000) : undefined;
      for (let round = 0; round < 40; round++) {
        const maxChunk = [1, 3, 7, 100, 65_536, 300_000][round % 6]!;
        const frames = Array.from({ length: 1 + Math.floor(next() * 30) }, (_, i) => {
          const len = 1 + Math.floor(next() ** 3 * Math.min(200_000, maxChunk * 100));
          return Buffer.alloc(len, (round * 31 + i) & 0xff);
        });
        const stream = streamOf(frames);
        const sink = new Sink();
        const reader = new FrameReader(sink, limits, reuse, chunksReused);
        feed(reader, stream, () => Math.floor(next() * maxChunk) + 1, shared);
        assert.deepEqual(sink.failures, []);
        assert.equal(reader.hasPartialFrame, false);
        assert.equal(sink.copies.length, frames.length);
        for (let i = 0; i < frames.length; i++) assert.ok(sink.copies[i]!.equals(frames[i]!), `round ${round} frame ${i}`);
        // Without reuse a delivered frame is never written again (whether or not its chunk is), so views
        // kept past delivery stay true.
        if (!reuse) for (let i = 0; i < frames.length; i++) assert.ok(sink.views[i]!.equals(frames[i]!), `round ${round} kept frame ${i}`);
      }
    });
  }

  for (const reuse of [false, true]) {
    void test(`assembles frames above the upfront size as their bytes arrive (reuse ${reuse})`, () => {
      const next = rng(3);
      const frames = [2_500_000, 1_500_000, 3_000_000].map((n) => Buffer.from(Array.from({ length: n }, () => Math.floor(next() * 256))));
      const sink = new Sink();
      const reader = new FrameReader(sink, { ...limits, maxFrameBytes: 4 << 20, maxMessageBytes: (4 << 20) - 4 }, reuse);
      feed(reader, streamOf(frames), () => 65_536);
      assert.deepEqual(sink.failures, []);
      assert.equal(sink.copies.length, 3);
      for (let i = 0; i < 3; i++) assert.ok(sink.copies[i]!.equals(frames[i]!), `frame ${i}`);
      if (!reuse) for (let i = 0; i < 3; i++) assert.ok(sink.views[i]!.equals(frames[i]!), `kept frame ${i}`);
    });
  }

  void test('with reuse, frames that span chunks share one assembly buffer', () => {
    const sink = new Sink();
    const reader = new FrameReader(sink, limits, true);
    feed(reader, streamOf([Buffer.alloc(1000, 1), Buffer.alloc(2000, 2), Buffer.alloc(500, 3)]), () => 100);
    assert.equal(sink.views.length, 3);
    assert.equal(sink.views[0]!.buffer, sink.views[1]!.buffer);
    assert.equal(sink.views[1]!.buffer, sink.views[2]!.buffer);
    assert.deepEqual(sink.copies.map((c) => [c.length, c[0]]), [[1000, 1], [2000, 2], [500, 3]]);
  });

  void test('a partial frame at the end of the stream is reported', () => {
    const sink = new Sink();
    const reader = new FrameReader(sink, limits, false);
    const stream = streamOf([Buffer.alloc(10, 1), Buffer.alloc(10, 2)]);
    reader.push(stream.subarray(0, 16));
    assert.equal(sink.copies.length, 1);
    assert.equal(reader.hasPartialFrame, true);
    const headOnly = new FrameReader(sink, limits, false);
    headOnly.push(Buffer.from([5, 0]));
    assert.equal(headOnly.hasPartialFrame, true);
  });

  for (const [what, len, reason] of [['empty', 0, 'frame-empty'], ['oversized', (1 << 20) + 1, 'frame-too-large']] as const) {
    void test(`fails the session on an ${what} frame, whether or not its length spans chunks`, () => {
      for (const at of [1, 2, 3, 4, 5, 9]) {
        const sink = new Sink();
        const reader = new FrameReader(sink, limits, true);
        const stream = Buffer.alloc(8 + 9);
        stream.writeUInt32LE(4, 0);
        stream.write('abcd', 4);
        stream.writeUInt32LE(len, 8);
        reader.push(stream.subarray(0, at));
        reader.push(stream.subarray(at));
        assert.deepEqual(sink.failures, [reason], `cut at ${at}`);
        assert.equal(sink.copies.length, 1);
      }
    });
  }
});
