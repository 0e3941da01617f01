import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  addInterval, addIntervals, age, extractInterval, justifyDays, justifyHours, justifyInterval, negateInterval, scaleInterval, timestampDiff,
} from './interval-arith.ts';
import { formatInterval, parseInterval } from './interval.ts';
import { formatTimestamp } from './datetime.ts';
import { parseTimestamp } from './datetime-input.ts';
import { failure } from './errors.testkit.ts';

const ts = parseTimestamp;
const iv = parseInterval;

void test('adds months first with month-end clamping, then days, then time (PostgreSQL 15 answers)', () => {
  const cases: [string, string, 1 | -1, string][] = [
    ['2024-01-31', '1 mon', 1, '2024-02-29 00:00:00'],
    ['2023-01-31', '1 mon', 1, '2023-02-28 00:00:00'],
    ['2024-03-31 10:00', '1 mon 1 day 01:00', -1, '2024-02-28 09:00:00'],
    ['2024-01-31', '-1 mon +1 day', 1, '2024-01-01 00:00:00'],
    ['2024-12-15', '14 mons', 1, '2026-02-15 00:00:00'],
    ['2024-01-01', '00:00:00.000001', -1, '2023-12-31 23:59:59.999999'],
  ];
  for (const [t, i, sign, out] of cases) assert.equal(formatTimestamp(addInterval(ts(t), iv(i), sign).micros), out, `${t} ${sign} ${i}`);
  assert.equal(failure(() => addInterval(ts('294276-12-31'), iv('1 day'), 1)), '22008 timestamp out of range');
});

void test('timestamp minus timestamp keeps whole days in the days field with the sign of the difference', () => {
  assert.equal(formatInterval(timestampDiff(ts('2024-03-01'), ts('2024-01-30 12:00'))), '30 days 12:00:00');
  assert.equal(formatInterval(timestampDiff(ts('2024-01-01'), ts('2024-01-02 06:30'))), '-1 days -06:30:00');
});

void test('adds, subtracts and negates field-wise, 22008 past a field width', () => {
  assert.equal(formatInterval(addIntervals(iv('1 mon'), iv('1 day 01:00'), -1)), '1 mon -1 days -01:00:00');
  assert.equal(formatInterval(negateInterval(iv('1 year -2 days +03:00'))), '-1 years +2 days -03:00:00');
  assert.equal(failure(() => addIntervals(iv('2147483647 days'), iv('1 day'), 1)), '22008 interval out of range');
});

void test('multiplies and divides spilling month fractions into 30-day days and day fractions into time', () => {
  const cases: [string, number, '*' | '/', string][] = [
    ['1 mon', 1.5, '*', '1 mon 15 days'], ['1 day', 3, '/', '08:00:00'], ['1 year 1 day', 2, '*', '2 years 2 days'],
    ['1 mon 1 day', 0.3, '*', '9 days 07:12:00'],
  ];
  for (const [i, f, op, out] of cases) assert.equal(formatInterval(scaleInterval(iv(i), f, op)), out, `${i} ${op} ${f}`);
  assert.equal(failure(() => scaleInterval(iv('1 day'), 0, '/')), '22012 division by zero');
  assert.equal(failure(() => scaleInterval(iv('1 year'), 1e12, '*')), '22008 interval out of range');
});

void test('extracts interval fields as PostgreSQL 15 does, with their signs and numeric scales', () => {
  const i = iv('1 year 14 mons 3 days 25:59:06.5');
  const fields: [string, string][] = [
    ['epoch', '68651946.500000'], ['day', '3'], ['hour', '25'], ['minute', '59'], ['second', '6.500000'], ['month', '2'],
    ['year', '2'], ['milliseconds', '6500.000'], ['microseconds', '6500000'],
  ];
  for (const [f, out] of fields) assert.equal(extractInterval(f, i).toString(), out, f);
  assert.equal(extractInterval('minute', iv('-1 days -02:03:04.25')).toString(), '-3');
  assert.equal(failure(() => extractInterval('dow', i)), '0A000 unit "dow" not supported for type interval');
  assert.equal(failure(() => extractInterval('foo', i)), '22023 unit "foo" not recognized for type interval');
});

void test('justify_days, justify_hours and justify_interval give every field one sign (PostgreSQL 15 answers)', () => {
  const cases: [(i: ReturnType<typeof iv>) => ReturnType<typeof iv>, string, string][] = [
    [justifyDays, '65 days 01:00', '2 mons 5 days 01:00:00'], [justifyDays, '1 mon -35 days', '-5 days'],
    [justifyHours, '50:30:00', '2 days 02:30:00'], [justifyHours, '1 day -50:00', '-1 days -02:00:00'],
    [justifyInterval, '1 mon -1 hour', '29 days 23:00:00'], [justifyInterval, '-1 mon 61 days -25:00', '29 days 23:00:00'],
  ];
  for (const [f, input, out] of cases) assert.equal(formatInterval(f(iv(input))), out, `${f.name}(${input})`);
});

void test('age subtracts calendar fields, borrowing the earlier month length for days (PostgreSQL 15 answers)', () => {
  const cases: [string, string, string][] = [
    ['2024-03-31', '2024-02-29', '1 mon 2 days'], ['2024-02-29', '2024-03-31', '-1 mons -2 days'],
    ['2001-04-10', '1957-06-13', '43 years 9 mons 27 days'], ['2024-01-01 00:00:00.5', '2023-12-31 23:59:59.75', '00:00:00.75'],
    ['2023-01-31 12:00', '2024-03-01', '-1 years -1 mons -12:00:00'],
  ];
  for (const [a, b, out] of cases) assert.equal(formatInterval(age(ts(a), ts(b))), out, `age(${a}, ${b})`);
});
