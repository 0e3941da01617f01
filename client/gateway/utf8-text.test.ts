import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidTextError, Utf8Stream, invalidUtf8At, invalidUtf8Message, utf8Text } from './utf8-text.ts';

const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function wellFormed(b: Uint8Array): boolean {
  try {
    fatal.decode(b);
    return true;
  } catch {
    return false;
  }
}

void test('finds the first byte where text stops being UTF-8, as PostgreSQL and the WHATWG decoder judge it', () => {
  const cases: [number[], number][] = [
    [[0x61, 0x62], -1],
    [[0xef, 0xbb, 0xbf, 0x61], -1], // a leading U+FEFF is a character
    [[0xc3, 0xa9], -1],
    [[0xf0, 0x9f, 0x98, 0x80], -1],
    [[0x61, 0x80], 1], // a stray continuation byte
    [[0x61, 0xe9, 0x27], 1], // a lead byte followed by ASCII
    [[0x61, 0xe2, 0x82], 1], // cut off by the end
    [[0xc0, 0xaf], 0], // overlong '/'
    [[0xe0, 0x80, 0xaf], 0], // overlong, three bytes
    [[0xf0, 0x80, 0x80, 0xaf], 0], // overlong, four bytes
    [[0xed, 0xa0, 0x80], 0], // a surrogate (U+D800)
    [[0xf4, 0x90, 0x80, 0x80], 0], // above U+10FFFF
    [[0xf8, 0x88, 0x80, 0x80, 0x80], 0], // five-byte forms do not exist
    [[0xff], 0],
    [[0x61, 0x00, 0x62], 1], // well-formed, but text holds no NUL
  ];
  for (const [bytes, at] of cases) {
    const b = Buffer.from(bytes);
    assert.equal(invalidUtf8At(b, 0, b.length), at, Buffer.from(bytes).toString('hex'));
    assert.equal(at === -1, wellFormed(b) && !b.includes(0), Buffer.from(bytes).toString('hex'));
  }
});

void test('agrees with the WHATWG decoder on 20,000 random byte strings', () => {
  let seed = 12345;
  const rand = (n: number): number => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed % n;
  };
  const interesting = [0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xf8, 0xff];
  for (let i = 0; i < 20_000; i++) {
    const b = Buffer.alloc(1 + rand(8));
    for (let k = 0; k < b.length; k++) b[k] = rand(3) === 0 ? rand(256) : interesting[rand(interesting.length)]!;
    assert.equal(invalidUtf8At(b, 0, b.length) === -1, wellFormed(b) && !b.includes(0), b.toString('hex'));
  }
});

void test('reports the bad sequence as PostgreSQL does, as many bytes as its lead byte announces', () => {
  const b = Buffer.from([0x61, 0xe9, 0x27]);
  assert.equal(invalidUtf8Message(b, 1, b.length), 'invalid byte sequence for encoding "UTF8": 0xe9 0x27');
  assert.equal(invalidUtf8Message(Buffer.from([0xff, 0x61]), 0, 2), 'invalid byte sequence for encoding "UTF8": 0xff');
  assert.throws(() => utf8Text(Buffer.from([0x61, 0xff, 0x62])), (e: unknown) => e instanceof InvalidTextError && e.code === '22021' && /0xff$/.test(e.message));
  assert.equal(utf8Text(Buffer.from('\uFEFFcafé')), '\uFEFFcafé');
  assert.equal(utf8Text(Buffer.from('xcafé\0', 'utf8'), 1, 6), 'café');
});

void test('a stream keeps a sequence its chunk cuts off for the next chunk and refuses one never completed', () => {
  const all = Buffer.from('a€b😀c');
  for (let cut = 0; cut <= all.length; cut++) {
    for (let cut2 = cut; cut2 <= all.length; cut2++) {
      const s = new Utf8Stream();
      const text = s.push(all.subarray(0, cut)) + s.push(all.subarray(cut, cut2)) + s.push(all.subarray(cut2));
      s.end();
      assert.equal(text, 'a€b😀c', `${cut}/${cut2}`);
    }
  }
  const cutOff = new Utf8Stream();
  assert.equal(cutOff.push(Buffer.from([0x61, 0xe2, 0x82])), 'a');
  assert.throws(() => cutOff.end(), /0xe2 0x82$/);
  const bad = new Utf8Stream();
  assert.equal(bad.push(Buffer.from([0x61, 0xe2])), 'a');
  assert.throws(() => bad.push(Buffer.from([0x41])), /0xe2 0x41$/);
  assert.throws(() => new Utf8Stream().push(Buffer.from([0x61, 0xc0, 0xaf])), InvalidTextError);
});
