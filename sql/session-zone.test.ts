import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatOffset, formatTimestampTz } from './datetime.ts';
import { parseTimestampTz } from './datetime-input.ts';
import { currentSessionZone, offsetZoneName, timeZoneSetting, UTC_ZONE, withSessionZone, type SessionZone } from './session-zone.ts';

function zone(value: string): SessionZone {
  const z = timeZoneSetting(value);
  if (!('zone' in z)) throw new Error(z.error);
  return z;
}

void describe('TimeZone settings', () => {
  // Checked against PostgreSQL 15's SET TIME ZONE and SHOW.
  const accepted: [string, string][] = [
    ['europe/berlin', 'Europe/Berlin'], ['UTC', 'UTC'], ['utc', 'UTC'], ['Etc/UTC', 'Etc/UTC'], ['us/eastern', 'US/Eastern'],
    ['posix/Europe/Berlin', 'posix/Europe/Berlin'], ['EST', 'EST'], ['EST5EDT', 'EST5EDT'], ['UTC+3', 'UTC+3'], ['<+03>-3', '<+03>-3'],
    ['-5', '<-05>+05'], ['5.5', '<+05:30>-05:30'], ['+5.5', '<+05:30>-05:30'], ['20', '<+20>-20'], ['0', '<+00>-00'], ['1e1', '<+10>-10'],
    ['167', '<+167>-167'], ['-167.99', '<-167:59:24>+167:59:24'], ["INTERVAL '02:00:00'", '<+02>-02'], ["INTERVAL '-05:30:00'", '<-05:30>+05:30'],
    ['<+05:30>-05:30', '<+05:30>-05:30'],
  ];
  for (const [value, shown] of accepted) {
    void it(`accepts ${value} as ${shown}, and its shown name gives the same zone back`, () => {
      const z = zone(value);
      assert.equal(z.name, shown);
      assert.deepEqual(zone(z.name).zone, z.zone);
    });
  }

  const refused: [string, string | undefined][] = [
    ['PST', undefined], ['IST', undefined], ['Z', undefined], ['Foo/Bar', undefined], ['', undefined],
    ['200', 'UTC timezone offset is out of range.'], ["INTERVAL '1 day'", 'Cannot specify days in time zone interval.'],
    ["INTERVAL '1 mon'", 'Cannot specify months in time zone interval.'],
  ];
  for (const [value, detail] of refused) {
    void it(`refuses ${JSON.stringify(value)} with PostgreSQL's message`, () => {
      const z = timeZoneSetting(value);
      assert.ok(!('zone' in z));
      assert.equal(z.error, `invalid value for parameter "TimeZone": "${value}"`);
      assert.equal(z.detail, detail);
    });
  }

  void it('names fixed offsets as pg_tzset_offset does', () => {
    assert.equal(offsetZoneName(7200), '<+02>-02');
    assert.equal(offsetZoneName(-(5 * 3600 + 30 * 60 + 15)), '<-05:30:15>+05:30:15');
  });
});

void describe('timestamptz in the session zone', () => {
  void it('writes offsets as EncodeTimezone does', () => {
    assert.deepEqual([3600, -19800, 3208, -(167 * 3600), 0].map(formatOffset), ['+01', '-05:30', '+00:53:28', '-167', '+00']);
  });

  void it('writes and reads timestamptz in the zone and puts the previous zone back, also after a throw', () => {
    const t = parseTimestampTz('2020-07-01 12:00+00');
    assert.equal(formatTimestampTz(t.micros), '2020-07-01 12:00:00+00');
    withSessionZone(zone('Asia/Kolkata'), () => {
      assert.equal(formatTimestampTz(t.micros), '2020-07-01 17:30:00+05:30');
      assert.equal(parseTimestampTz('2020-07-01 17:30').micros, t.micros);
    });
    assert.throws(() => withSessionZone(zone('Europe/Berlin'), () => {
      throw new Error('boom');
    }));
    assert.equal(currentSessionZone(), UTC_ZONE);
    assert.equal(formatTimestampTz(parseTimestampTz('4713-01-01 00:00+00 BC').micros), '4713-01-01 00:00:00+00 BC');
  });
});
