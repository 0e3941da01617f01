import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DATE_INFINITY_DAYS, DATE_NEG_INFINITY_DAYS, TIMESTAMP_INFINITY_MICROS, TIMESTAMP_NEG_INFINITY_MICROS, formatDate, formatTimestamp, formatTimestampTz, SqlTimestamp,
} from './datetime.ts';
import { NowUnavailable, parseDate, parseTime, parseTimeTz, parseTimestamp, parseTimestampTz, type DateTimeInputOptions } from './datetime-input.ts';
import { splitFields } from './datetime-fields.ts';
import { formatTimeTz } from './timetz.ts';
import { failure } from './errors.testkit.ts';

/** 2026-12-07 23:42:00.123456 UTC, the transaction's timestamp of these tests. */
const now = new SqlTimestamp(1_796_686_920_123_456n);
const all = (text: string, opts: DateTimeInputOptions = { now }): string[] => {
  const out = (f: () => string): string => {
    try {
      return f();
    } catch (e) {
      return failure(() => {
        throw e;
      });
    }
  };
  return [
    out(() => formatDate(parseDate(text, opts).days)),
    out(() => formatTimestamp(parseTimestamp(text, opts).micros)),
    out(() => formatTimestampTz(parseTimestampTz(text, opts).micros)),
    out(() => parseTime(text, opts).toString()),
    out(() => formatTimeTz(parseTimeTz(text, opts))),
  ];
};

void test('splits text into fields as ParseDateTime does', () => {
  const kinds = (s: string): string | undefined => splitFields(s)?.map((f) => `${f.kind}:${f.text}`).join(' ');
  assert.equal(kinds('Mon Dec 07 23:42:00.5 2026 UTC'), 'string:mon string:dec number:07 time:23:42:00.5 number:2026 string:utc');
  assert.equal(kinds('1999-01-08 04:05:06 -8:00'), 'date:1999-01-08 time:04:05:06 tz:-8:00');
  assert.equal(kinds('08-Jan-99 J2451187 2026.341 america/new_york'), 'date:08-jan-99 string:j number:2451187 number:2026.341 date:america/new_york');
  assert.equal(kinds('December 7, 2026 -infinity'), 'string:december number:7 number:2026 special:-infinity');
  assert.equal(splitFields('2026-12-07 \u00e9'), null);
  assert.equal(splitFields('1 '.repeat(26)), null);
});

void test('reads the spellings PostgreSQL 15 reads, as every type takes them', () => {
  // Each input with PostgreSQL 15's date, timestamp, timestamptz, time and timetz for it (TimeZone UTC, DateStyle ISO, MDY).
  const cases: [string, string[]][] = [
    ['Mon Dec 07 23:42:00.123456 2026 UTC', ['2026-12-07', '2026-12-07 23:42:00.123456', '2026-12-07 23:42:00.123456+00',
      '22007 invalid input syntax for type time: "Mon Dec 07 23:42:00.123456 2026 UTC"',
      '22007 invalid input syntax for type time with time zone: "Mon Dec 07 23:42:00.123456 2026 UTC"']],
    ['1999-01-08 04:05:06 -8:00', ['1999-01-08', '1999-01-08 04:05:06', '1999-01-08 12:05:06+00', '04:05:06', '04:05:06-08']],
    ['2020-07-01 10:00 America/New_York', ['2020-07-01', '2020-07-01 10:00:00', '2020-07-01 14:00:00+00', '10:00:00', '10:00:00-04']],
    ['now', ['2026-12-07', '2026-12-07 23:42:00.123456', '2026-12-07 23:42:00.123456+00', '23:42:00.123456', '23:42:00.123456+00']],
    ['04:05 PM', ['22007 invalid input syntax for type date: "04:05 PM"', '22007 invalid input syntax for type timestamp: "04:05 PM"',
      '22007 invalid input syntax for type timestamp with time zone: "04:05 PM"', '16:05:00', '16:05:00+00']],
  ];
  for (const [input, outputs] of cases) assert.deepEqual(all(input), outputs, input);
});

void test('reads dates in their many orders and forms', () => {
  const cases: [string, string][] = [
    ['December 7, 2026', '2026-12-07'], ['7 Dec 2026', '2026-12-07'], ['1/8/1999', '1999-01-08'], ['08-Jan-99', '1999-01-08'],
    ['Jan-08-1999', '1999-01-08'], ['1999-Jan-08', '1999-01-08'], ['19990108', '1999-01-08'], ['990108', '1999-01-08'],
    ['2026.341', '2026-12-07'], ['J2461382', '2026-12-07'], ['y2026m12d07', '2026-12-07'], ['January 8, 99 BC', '0099-01-08 BC'],
    ['1-8-69', '2069-01-08'], ['1/8/70', '1970-01-08'], ['epoch', '1970-01-01'], ['today', '2026-12-07'],
    ['tomorrow', '2026-12-08'], ['yesterday', '2026-12-06'], ['08-jan-99x', '1999-01-08'], ['2026-12-07 at 10:00', '2026-12-07'],
  ];
  for (const [input, output] of cases) assert.equal(formatDate(parseDate(input, { now }).days), output, input);
});

void test('reads dates of numbers in DateStyle order', () => {
  assert.equal(formatDate(parseDate('1/8/1999', { order: 'DMY' }).days), '1999-08-01');
  assert.equal(formatDate(parseDate('99/1/8', { order: 'YMD' }).days), '1999-01-08');
  assert.equal(formatDate(parseDate('99 jan 8', { order: 'YMD' }).days), '1999-01-08');
});

void test("fails as PostgreSQL 15 does, with its SQLSTATE, message and hint", () => {
  assert.equal(failure(() => parseTimestamp('December 7th, 2026')), '22007 invalid input syntax for type timestamp: "December 7th, 2026"');
  assert.equal(failure(() => parseDate('2026-02-29')), '22008 date/time field value out of range: "2026-02-29"');
  assert.equal(failure(() => parseDate('13/1/2026')), '22008 date/time field value out of range: "13/1/2026"');
  assert.throws(() => parseDate('13/1/2026'), { hint: 'Perhaps you need a different "datestyle" setting.' });
  assert.equal(failure(() => parseTimestampTz('2026-12-07 10:00 +16')), '22009 time zone displacement out of range: "2026-12-07 10:00 +16"');
  assert.equal(failure(() => parseTimestampTz('2026-12-07 10:00 Nowhere/Zone')), '22023 time zone "nowhere/zone" not recognized');
  assert.equal(failure(() => parseDate('5874898-01-01')), '22008 date out of range: "5874898-01-01"');
  assert.equal(failure(() => parseTimestamp('294277-01-01')), '22008 timestamp out of range: "294277-01-01"');
  assert.equal(failure(() => parseTimeTz('10:30 Europe/Berlin')), '22007 invalid input syntax for type time with time zone: "10:30 Europe/Berlin"');
});

void test('needs the transaction time for now and its kin, and says so without one', () => {
  assert.throws(() => parseTimestampTz('now'), NowUnavailable);
  assert.throws(() => parseDate('today'), NowUnavailable);
});

void test('reads infinity and -infinity in any case as PostgreSQL 15 does, for dates and timestamps only', () => {
  assert.equal(parseTimestamp('infinity').micros, TIMESTAMP_INFINITY_MICROS);
  assert.equal(parseTimestampTz(' -INFINITY ').micros, TIMESTAMP_NEG_INFINITY_MICROS);
  assert.equal(parseDate('Infinity').days, DATE_INFINITY_DAYS);
  assert.equal(parseDate('-infinity').days, DATE_NEG_INFINITY_DAYS);
  assert.equal(String(parseTimestampTz('infinity')), 'infinity');
  assert.equal(String(parseDate('-infinity')), '-infinity');
  // PostgreSQL 15 has no '+infinity' for these types, and no infinite time at all.
  assert.equal(failure(() => parseDate('+infinity')), '22007 invalid input syntax for type date: "+infinity"');
  assert.equal(failure(() => parseTime('infinity')), '22007 invalid input syntax for type time: "infinity"');
});
