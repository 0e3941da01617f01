import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFloat, formatText, parseText } from './value-text.ts';
import { Numeric } from './numeric.ts';
import { SqlError } from './errors.ts';

void test('prints floats like PostgreSQL 12+ (shortest round trip, exponent outside 1e-4..1e15)', () => {
  const cases: [number, string][] = [
    [0.1, '0.1'], [1e15, '1e+15'], [123456789012345, '123456789012345'], [0.0001, '0.0001'], [0.00001, '1e-05'],
    [1 / 3, '0.3333333333333333'], [-0, '-0'], [Infinity, 'Infinity'], [NaN, 'NaN'], [1e100, '1e+100'], [2.5, '2.5'],
  ];
  for (const [v, s] of cases) assert.equal(formatFloat(v), s, String(v));
  assert.equal(formatFloat(Math.fround(0.1), true), '0.1');
  assert.equal(formatFloat(1e6, true), '1e+06');
  assert.equal(formatFloat(123456, true), '123456');
});

void test('prints booleans, dates, timestamps and numerics as PostgreSQL does', () => {
  assert.equal(formatText(true, 'bool'), 't');
  assert.equal(formatText(parseText('2024-01-02', 'date'), 'date'), '2024-01-02');
  assert.equal(formatText(parseText('2024-01-02 03:04:05', 'timestamp'), 'timestamp'), '2024-01-02 03:04:05');
  assert.equal(formatText(parseText('2024-01-02 03:04:05.25', 'timestamp'), 'timestamp'), '2024-01-02 03:04:05.25');
  assert.equal(formatText(parseText('1.5', 'numeric', ((10 << 16) | 2) + 4), 'numeric'), '1.50');
  assert.equal(formatText(Numeric.fromInteger(5), 'numeric'), '5');
  assert.equal(formatText(9007199254740993n, 'int8'), '9007199254740993');
});

void test('rejects malformed input with PostgreSQL SQLSTATEs', () => {
  const code = (f: () => unknown): string => {
    try {
      f();
    } catch (e) {
      if (e instanceof SqlError) return e.code;
    }
    return 'none';
  };
  assert.equal(code(() => parseText('abc', 'int4')), '22P02');
  assert.equal(code(() => parseText('3000000000', 'int4')), '22003');
  assert.equal(code(() => parseText('99999999999999999999', 'int8')), '22003');
  assert.equal(code(() => parseText('2024-13-01', 'date')), '22008');
  assert.equal(code(() => parseText('nope', 'date')), '22007');
  assert.equal(code(() => parseText('maybe', 'bool')), '22P02');
  assert.equal(code(() => parseText('abcdef', 'varchar', 3 + 4)), '22001');
});

void test('reads int8 beyond 2^53 exactly', () => {
  assert.equal(parseText('9223372036854775807', 'int8'), 9223372036854775807n);
  assert.equal(parseText('42', 'int8'), 42);
});
