import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatTimestamp } from './datetime.ts';
import { parseTimestamp } from './datetime-input.ts';
import { Region, inputZone, instantOfWallClock, offsetAtInstant, offsetOfWallClock, wallClockOf, zoneByName, type Zone } from './time-zones.ts';

function zone(name: string): Zone {
  const z = zoneByName(name);
  assert.ok(z !== null, name);
  return z;
}

/** A wall clock in `name` as the UTC timestamp it names, both as text. */
const instantOf = (name: string, local: string): string => formatTimestamp(instantOfWallClock(zone(name), parseTimestamp(local).micros));
const wallClockAt = (name: string, utc: string): string => formatTimestamp(wallClockOf(zone(name), parseTimestamp(utc).micros));

void test('a wall clock in a spring-forward gap takes the offset before the transition, as PostgreSQL 15 does', () => {
  assert.equal(instantOf('America/New_York', '2024-03-10 01:59:59'), '2024-03-10 06:59:59');
  assert.equal(instantOf('America/New_York', '2024-03-10 02:00'), '2024-03-10 07:00:00');
  assert.equal(instantOf('America/New_York', '2024-03-10 02:30'), '2024-03-10 07:30:00');
  assert.equal(instantOf('America/New_York', '2024-03-10 03:00'), '2024-03-10 07:00:00');
  assert.equal(instantOf('Europe/Berlin', '2024-03-31 02:30'), '2024-03-31 01:30:00');
  // Southern hemisphere: Sydney springs forward in October.
  assert.equal(instantOf('Australia/Sydney', '2024-10-06 02:30'), '2024-10-05 16:30:00');
});

void test('a wall clock in a fall-back overlap takes the offset after the transition', () => {
  assert.equal(instantOf('America/New_York', '2024-11-03 00:59:59'), '2024-11-03 04:59:59');
  assert.equal(instantOf('America/New_York', '2024-11-03 01:00'), '2024-11-03 06:00:00');
  assert.equal(instantOf('America/New_York', '2024-11-03 01:59:59.5'), '2024-11-03 06:59:59.5');
  assert.equal(instantOf('America/New_York', '2024-11-03 02:00'), '2024-11-03 07:00:00');
  assert.equal(instantOf('Europe/Berlin', '2024-10-27 02:30'), '2024-10-27 01:30:00');
  assert.equal(instantOf('Australia/Sydney', '2024-04-07 02:30'), '2024-04-06 16:30:00');
});

void test('an instant has the offset in effect then, to the second, local mean time included', () => {
  assert.equal(wallClockAt('America/New_York', '2024-03-10 06:59:59.999999'), '2024-03-10 01:59:59.999999');
  assert.equal(wallClockAt('America/New_York', '2024-03-10 07:00'), '2024-03-10 03:00:00');
  assert.equal(wallClockAt('America/New_York', '1880-01-01 12:00'), '1880-01-01 07:03:58');
  assert.equal(wallClockAt('Asia/Kathmandu', '2024-07-01 00:00'), '2024-07-01 05:45:00');
  assert.equal(offsetAtInstant(zone('Asia/Kolkata'), -100), 19_800);
});

void test('instants beyond JavaScript\'s range take the final rules, 400-year cycles earlier', () => {
  // 294000-07-01 is past 275760 AD: New York keeps daylight saving time in July, as PostgreSQL's POSIX rule does.
  assert.equal(wallClockAt('America/New_York', '294000-07-01 12:00'), '294000-07-01 08:00:00');
  assert.equal(wallClockAt('America/New_York', '294000-01-01 12:00'), '294000-01-01 07:00:00');
  assert.equal(instantOf('Europe/Berlin', '294276-12-31 12:00'), '294276-12-31 11:00:00');
  assert.equal(wallClockAt('Asia/Kolkata', '4713-01-01 12:00 BC'), '4713-01-01 17:53:28 BC');
});

void test('names: any case, links and posix/ names; abbreviations fixed; POSIX zones count hours west', () => {
  assert.equal(wallClockAt('AMERICA/new_york', '2024-07-01 12:00'), '2024-07-01 08:00:00');
  assert.equal(wallClockAt('posix/Asia/Calcutta', '2024-07-01 12:00'), '2024-07-01 17:30:00');
  assert.equal(wallClockAt('Etc/GMT+5', '2024-07-01 12:00'), '2024-07-01 07:00:00');
  assert.deepEqual(zoneByName('PST'), { kind: 'fixed', east: -8 * 3600 });
  assert.deepEqual(zoneByName('ist'), { kind: 'fixed', east: 2 * 3600 });
  assert.deepEqual(zoneByName('UTC+3'), { kind: 'fixed', east: -3 * 3600 });
  assert.deepEqual(zoneByName('<+0530>-5:30'), { kind: 'fixed', east: 5.5 * 3600 });
  assert.deepEqual(zoneByName('SystemV/EST5'), { kind: 'fixed', east: -5 * 3600 });
  // ICU's own legacy identifiers are no zones of the IANA database.
  assert.equal(zoneByName('AET'), null);
  assert.equal(zoneByName('nowhere/none'), null);
  assert.equal(zoneByName(' UTC'), null);
  assert.throws(() => zoneByName('MSK'), { code: '0A000' });
  assert.throws(() => zoneByName('FOO5BAR'), { code: '0A000' });
});

void test('input zones: a word that is no zone is bad input (null), a name with punctuation 22023', () => {
  assert.equal(inputZone('foo'), null);
  assert.equal(inputZone('MSK'), 'dynamic');
  assert.throws(() => inputZone('America/Nowhere'), { code: '22023', message: 'time zone "america/nowhere" not recognized' });
});

void test('a region looks a day up once: two Intl lookups for a day without a transition, a bisection for one with', () => {
  const r = new Region('Europe/Berlin');
  const z: Zone = { kind: 'region', region: r };
  const noon = 1_719_835_200; // 2024-07-01 12:00 UTC
  assert.equal(offsetAtInstant(z, noon), 7200);
  assert.equal(r.lookups, 2);
  for (let s = noon - 43_200; s < noon + 43_200; s += 60) assert.equal(offsetAtInstant(z, s), 7200);
  assert.equal(r.lookups, 2);
  const transition = 1_711_846_800; // 2024-03-31 01:00 UTC
  assert.equal(offsetAtInstant(z, transition - 1), 3600);
  assert.equal(offsetAtInstant(z, transition), 7200);
  const afterDay = r.lookups;
  assert.ok(afterDay > 4 && afterDay < 25, String(afterDay));
  assert.equal(offsetOfWallClock(z, transition + 5400), 3600);
  assert.equal(r.lookups, afterDay + 4);
});
