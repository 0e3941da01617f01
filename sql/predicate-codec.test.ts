import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodePredicate, encodePredicate, excusedKeys, withExcusedKeys } from './predicate-codec.ts';

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

void test('a predicate names its session zone by name; an unknown or malformed zone refuses it', () => {
  const bytes = encodePredicate({ indexId: null, lo: '', hi: null, filter: null, keys: null, zone: 'Asia/Tokyo' });
  assert.equal(decodePredicate(bytes)?.zone?.name, 'Asia/Tokyo');
  assert.equal(decodePredicate(encodePredicate({ indexId: null, lo: '', hi: null, filter: null, keys: null }))?.zone, null);
  for (const tz of ['Nowhere/Land', 7, '', 'x'.repeat(101)]) assert.equal(decodePredicate(json({ i: null, lo: '', hi: null, f: null, tz })), null, String(tz));
});

void test('the older latin1 key list still decodes; malformed key lists do not', () => {
  assert.deepEqual(decodePredicate(json({ i: null, lo: '', hi: null, f: null, k: binaryKeys }))?.keys, new Set(binaryKeys));
  // A bad key anywhere in the list refuses the predicate at decode, though the set is built only when used.
  for (const bad of [{ kx: ['0'] }, { kx: ['ab', '00', 'abc'] }, { kx: ['ab', 'Ab'] }, { kx: ['0G'] }, { kx: ['AB'] }, { kx: [1] }, { kx: 'ab' }, { kx: ['ab'], k: ['x'] }, { k: [1] }]) {
    assert.equal(decodePredicate(json({ i: null, lo: '', hi: null, f: null, ...bad })), null, JSON.stringify(bad));
  }
});

void test("the client names a predicate's excused rows: its table's reads and own writes, sorted and distinct (decision 0019)", () => {
  const t5 = '\x00\x00\x00\x05';
  const t6 = '\x00\x00\x00\x06';
  const reads = [{ key: '\x00\x00\x00\x00catalog' }, { key: `${t5}\x80a` }, { key: `${t5}\x80c` }, { key: `${t6}\x80z` }];
  const own = [{ key: `${t5}\x80b` }, { key: `${t5}\x80c` }, { key: `${t6}\x80y` }];
  assert.deepEqual(excusedKeys(new Set([5]), reads, []), new Map([[5, ['\x80a', '\x80c']]]));
  assert.deepEqual(excusedKeys(new Set([5, 6]), reads, own), new Map([[5, ['\x80a', '\x80b', '\x80c']], [6, ['\x80y', '\x80z']]]));
  assert.deepEqual(excusedKeys(new Set([7]), reads, own), new Map([[7, []]]));

  const sent = encodePredicate({ indexId: null, lo: '\x80', hi: null, filter: null, keys: null });
  const named = withExcusedKeys(sent, ['\x80a', '\x80c']);
  assert.deepEqual(decodePredicate(named), { indexId: null, lo: '\x80', hi: null, filter: null, zone: null, keys: new Set(['\x80a', '\x80c']) });
  assert.deepEqual(named, encodePredicate({ indexId: null, lo: '\x80', hi: null, filter: null, keys: ['\x80a', '\x80c'] }), 'the bytes replicas used to send');
  // A list a reply carried (an older or Byzantine replica's) is replaced, never merged.
  assert.deepEqual(decodePredicate(withExcusedKeys(json({ i: null, lo: '', hi: null, f: null, k: ['x'] }), []))?.keys, new Set());
  const malformed = utf8.encode('{"i":');
  assert.equal(withExcusedKeys(malformed, ['\x80a']), malformed);
});
