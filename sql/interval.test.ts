import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  compareIntervals, decodeIntervalBinary, encodeIntervalBinary, formatInterval, parseInterval,
} from './interval.ts';
import { failure } from './errors.testkit.ts';
import { encodeKey } from './key-encoding.ts';
import { formatText, parseText } from './value-text.ts';
import { formatBinary, parseBinary } from './value-binary.ts';
import { decodeParams, encodeParams } from './wire-values.ts';

void test('reads PostgreSQL 15 interval input and prints it in IntervalStyle postgres', () => {
  // Each input with PostgreSQL 15's output for it.
  const cases: [string, string][] = [
    ['1 day', '1 day'], ['2 hours 30 minutes', '02:30:00'],
    ['1 year 2 mons 3 days 04:05:06.789', '1 year 2 mons 3 days 04:05:06.789'],
    ['-1 day +02:00', '-1 days +02:00:00'], ['P1Y2M3DT4H5M6S', '1 year 2 mons 3 days 04:05:06'],
    ['@ 1 day ago', '-1 days'], ['10', '00:00:10'],
    ['1y 2mon 3w 4d 5h 6m 7s 8ms 9us', '1 year 2 mons 25 days 05:06:07.008009'],
    ['1.5 years', '1 year 6 mons'], ['1.5 mons', '1 mon 15 days'], ['1.5 days', '1 day 12:00:00'],
    ['1 12:00', '1 day 12:00:00'], ['0', '00:00:00'], ['-1 days -02:00:00', '-1 days -02:00:00'],
    ['1 day ago', '-1 days'], ['P1.5D', '1 day 12:00:00'], ['PT1.5S', '00:00:01.5'], ['P1DT', '1 day'],
    ['3 days -1 hours', '3 days -01:00:00'], ['-1 year +2 mons', '-10 mons'], ['100:00:00', '100:00:00'],
    ['1 day 10', '1 day 00:00:10'], ['.5 hours', '00:30:00'], ['1 sec 1 ms', '00:00:01.001'],
  ];
  for (const [input, output] of cases) assert.equal(formatInterval(parseInterval(input)), output, input);
});

void test('rejects bad interval input with PostgreSQL 15 SQLSTATEs and messages', () => {
  const cases: [string, string][] = [
    ['1 day 2 days', '22007 invalid input syntax for type interval: "1 day 2 days"'],
    ['1 2', '22007 invalid input syntax for type interval: "1 2"'],
    ['abc', '22007 invalid input syntax for type interval: "abc"'],
    ['', '22007 invalid input syntax for type interval: ""'],
    ['-P1D', '22007 invalid input syntax for type interval: "-P1D"'],
    ['1:60', '22015 interval field value out of range: "1:60"'],
    ['99999999999 days', '22015 interval field value out of range: "99999999999 days"'],
  ];
  for (const [input, message] of cases) assert.equal(failure(() => parseInterval(input)), message, input);
});

void test('binary form is int64 microseconds, int32 days, int32 months and round-trips', () => {
  // The bytes are PostgreSQL 15's interval_send('1 year 2 mons -3 days 04:05:06.789').
  const v = parseInterval('1 year 2 mons -3 days 04:05:06.789');
  assert.equal(Buffer.from(encodeIntervalBinary(v)).toString('hex'), '000000036c97ca88' + 'fffffffd' + '0000000e');
  assert.deepEqual(decodeIntervalBinary(encodeIntervalBinary(v)), v);
  assert.match(failure(() => decodeIntervalBinary(new Uint8Array(15))), /^08P01 /);
});

void test('orders by the 30-day month, 24-hour day span, so 1 mon equals 30 days', () => {
  const p = parseInterval;
  assert.equal(compareIntervals(p('1 mon'), p('30 days')), 0);
  assert.equal(compareIntervals(p('1 day'), p('24:00:00')), 0);
  assert.equal(compareIntervals(p('1 mon'), p('29 days 23:59:59.999999')), 1);
  assert.equal(compareIntervals(p('-1 days +02:00'), p('00:00:00')), -1);
  assert.equal(compareIntervals(p('1 year'), p('365 days')), -1);
});

void test('keys order and collide as the spans compare, also before a second key column', () => {
  const texts = ['-1 year', '-1 days +02:00', '0', '00:00:00.000001', '1 day', '24:00:00', '1 mon', '30 days', '1 year', '178000000 years'];
  const values = texts.map((t) => parseInterval(t));
  for (const a of values) {
    for (const b of values) {
      const ka = encodeKey([a, 1], ['interval', 'int4']);
      const kb = encodeKey([b, 0], ['interval', 'int4']);
      const byKey = ka < kb ? -1 : ka > kb ? 1 : 0;
      const bySpan = compareIntervals(a, b);
      // Equal spans fall through to the second column (1 > 0).
      assert.equal(byKey, bySpan === 0 ? 1 : bySpan, `${a.toString()} vs ${b.toString()}`);
    }
  }
  assert.equal(encodeKey([parseInterval('1 mon')], ['interval']), encodeKey([parseInterval('30 days')], ['interval']));
});

void test('text and binary forms round-trip through the value layer and wire values', () => {
  const v = parseInterval('-1 year +2 mons -3 days +04:05:06.000789');
  assert.equal(formatText(v, 'interval'), '-10 mons -3 days +04:05:06.000789');
  assert.deepEqual(parseText(formatText(v, 'interval'), 'interval'), v);
  assert.deepEqual(parseBinary(formatBinary(v, 'interval'), 'interval'), v);
  assert.deepEqual(decodeParams(encodeParams([v, null])), [v, null]);
});
