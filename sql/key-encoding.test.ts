import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeKey, encodeKeyValue, prefixEnd } from './key-encoding.ts';
import { Numeric } from './numeric.ts';
import { parseText } from './value-text.ts';
import { compareValues } from './ops.ts';
import type { SqlType, SqlValue } from './types.ts';

function assertOrdered(values: SqlValue[], t: SqlType): void {
  for (let i = 0; i < values.length; i++) {
    for (let j = 0; j < values.length; j++) {
      const a = values[i] ?? null;
      const b = values[j] ?? null;
      const sql = a === null || b === null ? (a === b ? 0 : a === null ? 1 : -1) : Math.sign(compareValues(a, b, t));
      const ka = encodeKey([a], [t]);
      const kb = encodeKey([b], [t]);
      const enc = ka < kb ? -1 : ka > kb ? 1 : 0;
      assert.equal(enc, sql, `${String(a)} vs ${String(b)} as ${t}`);
    }
  }
}

void test('integer encodings sort like the integers, int8 beyond 2^53 included, NULL last', () => {
  assertOrdered([-(2n ** 63n), -9007199254740993n, -5, -1, 0, 1, 255, 256, 65536, 2 ** 40, 9007199254740993n, 2n ** 63n - 1n, null], 'int8');
});

void test('numeric encodings sort by value whatever the scale', () => {
  const vals = ['-1000', '-10.5', '-10.25', '-1', '-0.001', '0', '0.00', '0.001', '0.5', '1', '1.0', '1.01', '9.99', '10', '100.5', '1e20'];
  assertOrdered(vals.map((s) => Numeric.parse(s)), 'numeric');
  assert.equal(encodeKey([Numeric.parse('1.50')], ['numeric']), encodeKey([Numeric.parse('1.5')], ['numeric']));
});

void test('text encodings sort bytewise (C collation), with embedded prefixes and non-ASCII', () => {
  assertOrdered(['', 'a', 'a\u0000', 'aa', 'ab', 'b', 'B', 'é', 'z', '日本', null], 'text');
});

void test('float, date and timestamp encodings sort by value', () => {
  assertOrdered([-Infinity, -1e300, -1.5, -0, 0, 1e-300, 2.5, 1e300, Infinity, NaN], 'float8');
  assertOrdered(['1999-12-31', '2000-01-01', '2024-02-29', '0044-03-15 BC'].map((s) => parseText(s, 'date')), 'date');
  assertOrdered(['1970-01-01 00:00:00', '1969-12-31 23:59:59.5', '2024-01-01 12:00:00'].map((s) => parseText(s, 'timestamp')), 'timestamp');
});

void test('the infinite dates and timestamps sort first and last, beyond both ends of the range', () => {
  const dates = ['-infinity', '4714-11-24 BC', '2000-01-01', '5874897-12-31', 'infinity'].map((s) => parseText(s, 'date'));
  assertOrdered([...dates, null], 'date');
  // 294247 AD and later are past 2^63 microseconds from 1970: they take 8 bytes more and still sort below infinity.
  const stamps = ['-infinity', '4714-11-24 00:00:00 BC', '2000-01-01', '294247-01-10 04:00:54.775806', '294270-01-01', '294276-12-31 23:59:59.999999', 'infinity'];
  assertOrdered([...stamps.map((s) => parseText(s, 'timestamp')), null], 'timestamp');
  assertOrdered(stamps.map((s) => parseText(s, 'timestamptz')), 'timestamptz');
});

void test('timestamp keys are the microseconds since 1970 that stored keys have always held', () => {
  const hex = (s: string, t: SqlType): string => Buffer.from(encodeKeyValue(parseText(s, t), t), 'latin1').toString('hex');
  // Tag 0x02, then the microseconds since 1970 as offset binary.
  assert.equal(hex('1970-01-01 00:00:00', 'timestamp'), '028000000000000000');
  assert.equal(hex('2000-01-01 00:00:00+00', 'timestamptz'), '0280035d013b37e000');
  assert.equal(hex('-infinity', 'timestamp'), '020000000000000000');
  assert.equal(hex('infinity', 'timestamp'), '02' + 'ff'.repeat(16));
  // With a column after them, the long keys still sort by the timestamp first.
  const types: SqlType[] = ['timestamp', 'int4'];
  const keys = ['294247-01-10 04:00:54.775806', '294247-01-10 04:00:54.775807', '294276-12-31 23:59:59.999999', 'infinity'].map((s) => encodeKey([parseText(s, 'timestamp'), 1], types));
  for (let i = 1; i < keys.length; i++) assert.ok(keys[i - 1]! < keys[i]! && prefixEnd(keys[i - 1]!) <= keys[i]!, `key ${i}`);
});

void test('composite keys sort column by column and a prefix bounds its range', () => {
  const types: SqlType[] = ['int4', 'text'];
  const a = encodeKey([1, 'zz'], types);
  const b = encodeKey([2, ''], types);
  assert.ok(a < b);
  const p = encodeKey([1], ['int4']);
  assert.ok(a > p && a < prefixEnd(p));
  assert.ok(b > prefixEnd(p));
});

void test('array encodings sort like btarraycmp (stored keys of array columns): element-wise, NULL elements last, a prefix first', () => {
  const arr = (t: string, et: SqlType): SqlValue => parseText(t, et);
  const texts = ['{}', '{""}', '{a}', '{a,NULL}', '{a,b}', '{a,b,c}', '{ab}', '{"a\\\\b"}', '{b}', '{NULL}', '{NULL,a}', '{héllo}'].map((t) => arr(t, '_text'));
  assertOrdered([...texts, null], '_text');
  const ints = ['{}', '{-1}', '{1}', '{1,2}', '{1,NULL}', '{2}', '{NULL}', '{9007199254740993}'].map((t) => arr(t, '_int8'));
  assertOrdered([...ints, null], '_int8');
  assertOrdered(['{1.5}', '{1.50,0}', '{1.500}', '{2}'].map((t) => arr(t, '_numeric')), '_numeric');
  // An array column followed by another key column: the array ends before the next column starts.
  const k = (a: string, i: number): string => encodeKey([arr(a, '_text'), i], ['_text', 'int4']);
  assert.ok(k('{a}', 9) < k('{a,b}', 0));
  assert.ok(k('{a}', 1) < k('{a}', 2));
  assert.ok(k('{a,NULL}', 0) < k('{NULL}', 0));
});
