import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createKeyed, hash as jitHash } from 'blake3-jit';
import { keyedHash } from 'blake3-wasm';
import { blake3, blake3Into, hashNode, keyedHash32, keyWords, MERKLE_NODE_KEY } from './blake3.ts';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Deterministic test bytes: BLAKE3 of a counter. */
function bytes32(i: number): Uint8Array {
  return blake3(Uint8Array.of(i & 0xff, i >> 8));
}

void describe('blake3', () => {
  void it('matches the official vectors for the empty string and "abc"', () => {
    assert.equal(hex(blake3(new Uint8Array(0))), 'af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262');
    assert.equal(hex(blake3(enc('abc'))), '6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85');
  });

  void it('equals blake3-jit at every length of one chunk and beyond (our one-chunk compression chain)', () => {
    let x = 7;
    for (let len = 0; len <= 1100; len++) {
      const data = new Uint8Array(len);
      for (let i = 0; i < len; i++) data[i] = x = (x * 1103515245 + 12345) & 0xff;
      assert.equal(hex(blake3(data)), hex(jitHash(data)), `length ${len}`);
      const out = new Uint8Array(40);
      blake3Into(data, out, 3);
      assert.equal(hex(out.subarray(3, 35)), hex(jitHash(data)), `length ${len} at an offset`);
    }
  });

  void it('writes into a caller buffer at any offset without touching the bytes around it', () => {
    const out = new Uint8Array(40).fill(0xaa);
    blake3Into(enc('abc'), out, 5);
    assert.equal(hex(out.subarray(5, 37)), '6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85');
    assert.deepEqual([...out.subarray(0, 5), ...out.subarray(37)], Array<number>(8).fill(0xaa));
    const exact = new Uint8Array(32);
    blake3Into(new Uint8Array(0), exact);
    assert.equal(hex(exact), 'af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262');
  });

  void it('computes inner nodes as keyed BLAKE3 of left ‖ right, equal to two independent implementations', () => {
    for (let i = 0; i < 64; i++) {
      const left = bytes32(2 * i);
      const right = bytes32(2 * i + 1);
      const both = new Uint8Array(64);
      both.set(left);
      both.set(right, 32);
      const out = new Uint8Array(32);
      hashNode(left, right, out);
      assert.equal(hex(out), hex(createKeyed(MERKLE_NODE_KEY).update(both).finalize()));
      assert.equal(hex(out), keyedHash(Buffer.from(MERKLE_NODE_KEY), Buffer.from(both)).toString('hex'));
    }
  });

  void it('computes keyed BLAKE3 of 32 bytes in one compression, equal to two independent implementations', () => {
    for (let i = 0; i < 64; i++) {
      const key = bytes32(3 * i + 7);
      const msg = new Uint8Array(40);
      msg.set(bytes32(3 * i + 8), 5);
      const out = new Uint8Array(36).fill(0xee);
      keyedHash32(keyWords(key), msg, 5, out, 2, 32);
      const expected = hex(createKeyed(key).update(msg.subarray(5, 37)).finalize());
      assert.equal(hex(out.subarray(2, 34)), expected);
      assert.equal(hex(out.subarray(2, 34)), keyedHash(Buffer.from(key), Buffer.from(msg.subarray(5, 37))).toString('hex'));
      assert.deepEqual([out[0], out[1], out[34], out[35]], [0xee, 0xee, 0xee, 0xee], 'writes only its output bytes');
      const short = new Uint8Array(16);
      keyedHash32(keyWords(key), msg, 5, short, 0, 16);
      assert.equal(hex(short), expected.slice(0, 32));
    }
    assert.throws(() => keyWords(new Uint8Array(31)), /32 bytes/);
  });

  void it('lets the node output alias an input', () => {
    const left = bytes32(1);
    const right = bytes32(2);
    const expected = new Uint8Array(32);
    hashNode(left, right, expected);
    const aliased = left.slice();
    hashNode(aliased, right, aliased);
    assert.deepEqual(aliased, expected);
  });

  void it('never gives a node the plain-mode digest of the same 64 bytes (domain separation)', () => {
    const left = bytes32(3);
    const right = bytes32(4);
    const both = new Uint8Array(64);
    both.set(left);
    both.set(right, 32);
    const node = new Uint8Array(32);
    hashNode(left, right, node);
    assert.notEqual(hex(node), hex(blake3(both)));
  });
});
