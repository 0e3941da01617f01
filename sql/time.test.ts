import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SqlTime, addTimeInterval, decodeTimeBinary, encodeTimeBinary, makeTime, roundTime, wrapTime } from './time.ts';
import { parseTime } from './datetime-input.ts';
import { parseInterval } from './interval.ts';
import { truncInterval } from './interval-arith.ts';
import { failure } from './errors.testkit.ts';
import { encodeKey } from './key-encoding.ts';
import { compareValues } from './ops.ts';
import { formatText, parseText } from './value-text.ts';
import { formatBinary, parseBinary } from './value-binary.ts';
import { decodeParams, encodeParams } from './wire-values.ts';

void test('reads PostgreSQL 15 time input and prints it as PostgreSQL does', () => {
  // Each input with PostgreSQL 15's output for it.
  const cases: [string, string][] = [
    ['10:00', '10:00:00'], ['10:00:01.5', '10:00:01.5'], ['1000', '10:00:00'], ['100000', '10:00:00'],
    ['allballs', '00:00:00'], ['24:00:00', '24:00:00'], ['2003-04-12 04:05:06', '04:05:06'], ['04:05 PM', '16:05:00'],
    ['12:00 AM', '00:00:00'], ['12:30 PM', '12:30:00'], ['T10:20', '10:20:00'], ['10:20:30.1234567', '10:20:30.123457'],
    ['23:59:59.9999999', '24:00:00'], ['1:2:3', '01:02:03'], ['040506', '04:05:06'], ['04:05:06+02', '04:05:06'],
    [' 10:00 ', '10:00:00'], ['04:05:06 UTC', '04:05:06'],
  ];
  for (const [input, output] of cases) assert.equal(parseTime(input).toString(), output, input);
});

void test('rejects what PostgreSQL 15 rejects, with its SQLSTATE and message', () => {
  assert.equal(failure(() => parseTime('10')), '22007 invalid input syntax for type time: "10"');
  assert.equal(failure(() => parseTime('')), '22007 invalid input syntax for type time: ""');
  assert.equal(failure(() => parseTime('epoch')), '22007 invalid input syntax for type time: "epoch"');
  assert.equal(failure(() => parseTime('10:00 xyz')), '22007 invalid input syntax for type time: "10:00 xyz"');
  assert.equal(failure(() => parseTime('24:00:00.1')), '22008 date/time field value out of range: "24:00:00.1"');
  assert.equal(failure(() => parseTime('25:00')), '22008 date/time field value out of range: "25:00"');
  assert.equal(failure(() => parseTime('10:60')), '22008 date/time field value out of range: "10:60"');
  assert.equal(failure(() => parseTime('13:00 PM')), '22008 date/time field value out of range: "13:00 PM"');
  // A date joined to the time by T is read as a time and a zone: PostgreSQL 15.18 rejects it.
  assert.equal(failure(() => parseTime('2003-04-12T04:05')), '22007 invalid input syntax for type time: "2003-04-12T04:05"');
});

void test('rounds to a precision half up, reaching 24:00:00 at the end of the day', () => {
  assert.equal(roundTime(parseTime('10:20:30.5'), 0).toString(), '10:20:31');
  assert.equal(roundTime(parseTime('23:59:59.5'), 0).toString(), '24:00:00');
  assert.equal(roundTime(parseTime('10:00:00.125'), 2).toString(), '10:00:00.13');
  assert.equal(roundTime(parseTime('10:00:00.123456'), 6).toString(), '10:00:00.123456');
});

void test('wraps time ± interval into the day and ignores the interval\'s months and days', () => {
  const at = (t: string, iv: string, sign: 1 | -1): string => addTimeInterval(parseTime(t), parseInterval(iv), sign).toString();
  assert.equal(at('23:00', '2 hours', 1), '01:00:00');
  assert.equal(at('01:00', '2 hours', -1), '23:00:00');
  assert.equal(at('10:00', '1 mon 1 day 1 hour', 1), '11:00:00');
  assert.equal(at('24:00', '0', 1), '00:00:00');
  assert.equal(at('10:00', '-50 hours', 1), '08:00:00');
  assert.equal(wrapTime(-1n).toString(), '23:59:59.999999');
});

void test('make_time checks its fields as PostgreSQL does', () => {
  assert.equal(makeTime(8, 15, 23.5).toString(), '08:15:23.5');
  assert.equal(makeTime(24, 0, 0).toString(), '24:00:00');
  assert.equal(makeTime(10, 0, 60).toString(), '10:01:00');
  assert.equal(failure(() => makeTime(25, 0, 0)), '22008 time field value out of range: 25:00:00');
  assert.equal(failure(() => makeTime(10, 60, 0)), '22008 time field value out of range: 10:60:00');
  assert.equal(failure(() => makeTime(-1, 0, 0)), '22008 time field value out of range: -1:00:00');
});

void test('date_trunc over an interval zeroes the fields below the unit, as interval_trunc', () => {
  const tr = (unit: string, iv: string): string => truncInterval(unit, parseInterval(iv)).toString();
  assert.equal(tr('hour', '10:30:05'), '10:00:00');
  assert.equal(tr('second', '-1 day -10:30:15.5'), '-1 days -10:30:15');
  assert.equal(tr('month', '1 year 2 mons 3 days 04:00'), '1 year 2 mons');
  assert.equal(tr('quarter', '1 year 5 mons'), '1 year 3 mons');
  assert.equal(tr('decade', '15 years 2 mons'), '10 years');
  assert.equal(tr('millisecond', '10:30:15.5555'), '10:30:15.555');
  assert.equal(failure(() => tr('week', '1 day')), '0A000 unit "week" not supported for type interval');
  assert.equal(failure(() => tr('fortnight', '1 day')), '22023 unit "fortnight" not recognized for type interval');
});

void test('keys order as the times compare, 24:00:00 last', () => {
  const values = ['00:00', '00:00:00.000001', '09:59:59.999999', '10:00', '23:59:59.999999', '24:00'].map((t) => parseTime(t));
  for (const a of values) {
    for (const b of values) {
      const ka = encodeKey([a], ['time']);
      const kb = encodeKey([b], ['time']);
      assert.equal(ka < kb ? -1 : ka > kb ? 1 : 0, Math.sign(compareValues(a, b)), `${a.toString()} vs ${b.toString()}`);
    }
  }
});

void test('text and binary forms round-trip through the value layer and wire values', () => {
  const v = parseTime('12:34:56.789012');
  assert.equal(formatText(v, 'time'), '12:34:56.789012');
  assert.deepEqual(parseText('12:34:56.789012', 'time'), v);
  assert.deepEqual(parseText('12:34:56.789012', 'time', 3), new SqlTime(45_296_789_000));
  assert.deepEqual([...encodeTimeBinary(v)], [0, 0, 0, 10, 139, 230, 38, 20]);
  assert.deepEqual(parseBinary(formatBinary(v, 'time'), 'time'), v);
  assert.deepEqual(decodeParams(encodeParams([v, null])), [v, null]);
  assert.equal(failure(() => decodeTimeBinary(Uint8Array.of(0, 0, 0, 20, 30, 0, 0, 0))), '22008 time out of range');
  assert.equal(failure(() => decodeTimeBinary(Uint8Array.of(255, 255, 255, 255, 255, 255, 255, 255))), '22008 time out of range');
});
