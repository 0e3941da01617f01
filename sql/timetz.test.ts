import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SqlInterval } from './interval.ts';
import { compareTimeTz, decodeTimeTzBinary, encodeTimeTzBinary, formatTimeTz, resolveZone, timeTzAtZone } from './timetz.ts';
import { parseTimeTz } from './datetime-input.ts';

void test('timetz text: offsets east, stored as seconds west, printed as PostgreSQL prints them', () => {
  const v = parseTimeTz('12:34:56.5+02');
  assert.equal(v.zone, -7200);
  assert.equal(formatTimeTz(v), '12:34:56.5+02');
  assert.equal(formatTimeTz(parseTimeTz('12:00 -03:30')), '12:00:00-03:30');
  assert.equal(formatTimeTz(parseTimeTz('12:00:00+05:30:15')), '12:00:00+05:30:15');
  assert.equal(formatTimeTz(parseTimeTz('1:30 pm')), '13:30:00+00');
  assert.equal(formatTimeTz(parseTimeTz('2020-01-01 12:00 Z')), '12:00:00+00');
  assert.throws(() => parseTimeTz('12:00+16'), { code: '22009' });
  assert.equal(formatTimeTz(parseTimeTz('12:00 PST')), '12:00:00-08');
  assert.throws(() => parseTimeTz('12:00 America/New_York'), { code: '22007' });
  assert.equal(formatTimeTz(parseTimeTz('2024-07-01 12:00 America/New_York')), '12:00:00-04');
  assert.equal(formatTimeTz(parseTimeTz('2024-03-10 02:30 America/New_York')), '02:30:00-05');
  assert.throws(() => parseTimeTz('nope'), { code: '22007' });
});

void test('timetz order: the UTC instant, then the zone; equal only with equal zones', () => {
  const [a, b] = [parseTimeTz('12:00+02'), parseTimeTz('10:00+00')];
  assert.equal(compareTimeTz(a, b), -1);
  assert.equal(compareTimeTz(b, a), 1);
  assert.equal(compareTimeTz(a, parseTimeTz('12:00:00+02')), 0);
  assert.equal(compareTimeTz(parseTimeTz('09:59+00'), a), -1);
});

void test('AT TIME ZONE: a bare offset is POSIX (west), an interval east, wrapping at midnight', () => {
  const t = parseTimeTz('12:00+02');
  assert.equal(formatTimeTz(timeTzAtZone(t, resolveZone('UTC'), 0n)), '10:00:00+00');
  assert.equal(formatTimeTz(timeTzAtZone(t, resolveZone('+05'), 0n)), '05:00:00-05');
  assert.equal(formatTimeTz(timeTzAtZone(t, resolveZone(new SqlInterval(0, 0, 3n * 3_600_000_000n)), 0n)), '13:00:00+03');
  assert.equal(formatTimeTz(timeTzAtZone(parseTimeTz('23:00+00'), resolveZone('-03:30'), 0n)), '02:30:00+03:30');
  assert.throws(() => resolveZone(new SqlInterval(0, 1, 0n)), { code: '22023' });
});

void test('timetz binary: int64 microseconds and int32 zone, round trip', () => {
  const v = parseTimeTz('23:59:59.999999-11:30');
  const b = encodeTimeTzBinary(v);
  assert.equal(b.length, 12);
  assert.deepEqual(decodeTimeTzBinary(b), v);
});
