import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodePredicate, encodePredicate } from './predicate-codec.ts';

const utf8 = new TextEncoder();
const json = (o: unknown): Uint8Array => utf8.encode(JSON.stringify(o));
const binaryKeys = ['', '\x00', '\x80\x00\x01\xff', 'abc', '\x03\x7f\x80'];

void test('a predicate round-trips its excused keys, any byte included, as hex', () => {
  const bytes = encodePredicate({ indexId: null, lo: '\x80', hi: null, filter: null, keys: binaryKeys });
  const text = new TextDecoder().decode(bytes);
  assert.ok(text.includes('"kx":["","00","800001ff","616263","037f80"]'), text);
  assert.deepEqual(decodePredicate(bytes)?.keys, new Set(binaryKeys));
  assert.equal(decodePredicate(encodePredicate({ indexId: 2, lo: '', hi: '\x05', filter: null, keys: null }))?.keys, null);
});

void test('the older latin1 key list still decodes; malformed key lists do not', () => {
  assert.deepEqual(decodePredicate(json({ i: null, lo: '', hi: null, f: null, k: binaryKeys }))?.keys, new Set(binaryKeys));
  for (const bad of [{ kx: ['0'] }, { kx: ['0G'] }, { kx: ['AB'] }, { kx: [1] }, { kx: 'ab' }, { kx: ['ab'], k: ['x'] }, { k: [1] }]) {
    assert.equal(decodePredicate(json({ i: null, lo: '', hi: null, f: null, ...bad })), null, JSON.stringify(bad));
  }
});
