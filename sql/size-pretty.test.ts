import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Numeric } from './numeric.ts';
import { sizeBytes, sizePretty, sizePrettyNumeric } from './size-pretty.ts';

void test('rounds sizes half away from zero at each unit boundary as PostgreSQL 15 does', () => {
  const cases: [bigint, string][] = [
    [0n, '0 bytes'], [10239n, '10239 bytes'], [10240n, '10 kB'], [10752n, '11 kB'], [-10752n, '-11 kB'],
    [10751n, '10 kB'], [20971007n, '20 MB'], [20971008n, '20 MB'], [21495807n, '20 MB'], [21495808n, '21 MB'],
    [9223372036854775807n, '8192 PB'], [-9223372036854775808n, '-8192 PB'],
  ];
  for (const [n, want] of cases) assert.equal(sizePretty(n), want, String(n));
});

void test('shows numeric sizes with their fraction in bytes and truncated past them', () => {
  const cases: [string, string][] = [
    ['1.5', '1.5 bytes'], ['-1.5', '-1.5 bytes'], ['10240.7', '10 kB'], ['123456789012345678901234567890', '109651655766237 PB'],
  ];
  for (const [n, want] of cases) assert.equal(sizePrettyNumeric(Numeric.parse(n) as Numeric), want, n);
});

void test('reads sizes with units, fractions and exponents', () => {
  const cases: [string, bigint][] = [
    ['1kB', 1024n], [' 1.5 MB ', 1572864n], ['1e3', 1000n], ['-2 gb', -2147483648n], ['1 PB', 1125899906842624n], ['.5 kB', 512n], ['0.5', 1n],
  ];
  for (const [s, want] of cases) assert.equal(sizeBytes(s), want, s);
  assert.throws(() => sizeBytes('abc'), /invalid size: "abc"/);
  assert.throws(() => sizeBytes('1eb'), (e: Error & { detail?: string }) => e.detail === 'Invalid size unit: "eb".');
  assert.throws(() => sizeBytes('99999999999 PB'), /bigint out of range/);
});
