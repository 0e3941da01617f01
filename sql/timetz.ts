// time with time zone (timetz), as PostgreSQL 15 has it (utils/adt/date.c): a time of day and the zone
// it was given in. A time given without a zone and a time cast to timetz take the session zone's offset
// on the transaction's date (sql/session-zone.ts); a timestamptz cast to timetz (current_time) its offset then.
//
// A value keeps the local time (microseconds since midnight, [0, 24:00:00]) and the zone as PostgreSQL
// stores it: seconds WEST of UTC (so '+02' is -7200), within ±15:59:59. Comparison (timetz_cmp) is by
// the UTC instant (time + zone), then by zone, so '12:00+02' sorts before '10:00+00', and the two are not
// equal. Text output is time_out's text and the offset east, `+HH[:MM[:SS]]`; binary (timetz_send) the
// int64 microseconds then the int32 zone.
//
// Text input is read by the date/time input parser all five types share (datetime-input.ts parseTimeTz).
// AT TIME ZONE takes those names (time-zones.ts: the database through Intl), POSIX zones and intervals;
// a zone of the database gives a time of day its offset at the transaction's timestamp, as PostgreSQL
// does (now(), the same on every replica). Dynamic abbreviations (MSK) are 0A000.

import { SqlError, SqlState } from './errors.ts';
import { MICROS_PER_DAY, SqlTimestamp, formatOffset, sessionOffsetAt } from './datetime.ts';
import { sessionNow, sessionZone } from './session-zone.ts';
import { SqlInterval } from './interval.ts';
import { extractInterval } from './interval-arith.ts';
import { Numeric } from './numeric.ts';
import { SqlTime, formatTime, roundTime, wrapTime } from './time.ts';
import { abbreviationOffset, dynamicUnsupported, floorSeconds, offsetAtInstant, offsetOfWallClock, wallClockOf, zoneByName, type Zone } from './time-zones.ts';

/** PostgreSQL's TZDISP_LIMIT: a zone is within ±15:59:59. */
const ZONE_LIMIT = 16 * 3600 - 1;

export class SqlTimeTz {
  /** Invariant: micros an integer in [0, MICROS_PER_DAY]; zone an integer in [-ZONE_LIMIT, ZONE_LIMIT]. */
  constructor(
    readonly micros: number,
    /** Seconds west of UTC (PostgreSQL's TimeTzADT.zone). */
    readonly zone: number,
  ) {}
  toString(): string {
    return formatTimeTz(this);
  }
  /** The UTC time of day, in microseconds (may leave [0, a day) ). */
  get utc(): number {
    return this.micros + this.zone * 1_000_000;
  }
}

export function formatTimeTz(v: SqlTimeTz): string {
  return formatTime(v.micros) + formatOffset(-v.zone);
}

const offsetRe = /^([+-])(\d{1,2})(?::?(\d{2})(?::?(\d{2}))?)?$/;

/**
 * A zone as seconds EAST of UTC: a numeric offset (`+02`, `-0330`, `+05:30:15`), Z, UTC or GMT; null
 * when `text` is none of these. 22009 when the displacement is beyond ±15:59:59.
 */
function offsetEast(text: string, whole: string): number | null {
  const t = text.trim();
  if (/^(?:z|utc|gmt|zulu)$/i.test(t)) return 0;
  const m = offsetRe.exec(t);
  if (m === null) return null;
  const secs = Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
  if (Number(m[3] ?? 0) > 59 || Number(m[4] ?? 0) > 59 || secs > ZONE_LIMIT) {
    throw new SqlError(SqlState.invalidTimeZoneDisplacementValue, `time zone displacement out of range: "${whole}"`);
  }
  return m[1] === '-' ? -secs : secs;
}

/** timetz(p): the time rounded as time(p)'s, the zone kept. */
export function roundTimeTz(v: SqlTimeTz, precision: number): SqlTimeTz {
  const r = roundTime(new SqlTime(v.micros), precision);
  return r.micros === v.micros ? v : new SqlTimeTz(r.micros, v.zone);
}

/** timetz_cmp: by the UTC instant, then by zone. */
export function compareTimeTz(a: SqlTimeTz, b: SqlTimeTz): number {
  const d = a.utc - b.utc;
  if (d !== 0) return d < 0 ? -1 : 1;
  return a.zone === b.zone ? 0 : a.zone < b.zone ? -1 : 1;
}

/** timetz ± interval: the interval's time field added modulo a day, the zone kept. */
export function addTimeTzInterval(t: SqlTimeTz, iv: SqlInterval, sign: 1 | -1): SqlTimeTz {
  return new SqlTimeTz(wrapTime(BigInt(t.micros) + (sign === 1 ? iv.micros : -iv.micros)).micros, t.zone);
}

/**
 * The session zone's offset east for a time of day on the transaction's date there (time_timetz and
 * timetz_in without a zone: DetermineTimeZoneOffset of today's date with that time).
 */
function sessionOffsetOfTime(micros: number): number {
  const zone = sessionZone();
  if (zone.kind === 'fixed') return zone.east;
  const local = floorSeconds(wallClockOf(zone, sessionNow()));
  const midnight = local - (((local % 86_400) + 86_400) % 86_400);
  return offsetOfWallClock(zone, midnight + Math.floor(micros / 1_000_000));
}

/** A time of day in the session's zone, its offset checked as timetz's (22009). */
function inSessionZone(micros: number): SqlTimeTz {
  const east = sessionOffsetOfTime(micros);
  if (Math.abs(east) > ZONE_LIMIT) throw new SqlError(SqlState.invalidTimeZoneDisplacementValue, 'time zone displacement out of range');
  return new SqlTimeTz(micros, -east);
}

/** time -> timetz: in the session's zone. */
export function timeToTimeTz(t: SqlTime): SqlTimeTz {
  return inSessionZone(t.micros);
}

/** timestamptz -> timetz: its time of day in the session's zone, with the offset at that instant. */
export function timeOfDayTz(t: SqlTimestamp): SqlTimeTz {
  const east = sessionOffsetAt(t.micros);
  if (Math.abs(east) > ZONE_LIMIT) throw new SqlError(SqlState.invalidTimeZoneDisplacementValue, 'time zone displacement out of range');
  return new SqlTimeTz(new SqlTimestamp(t.micros + BigInt(east) * 1_000_000n).timeOfDay, -east);
}

/**
 * The zone of AT TIME ZONE and timezone(): a zone text (UTC and its aliases, a numeric offset with
 * POSIX's sign: '+05' is five hours WEST, as PostgreSQL reads a bare offset as a POSIX zone; or a name,
 * time-zones.ts) or an interval (hours east; 22023 when it has months or days). 22023 for a name that is
 * no zone.
 */
export function resolveZone(zone: string | SqlInterval): Zone {
  if (zone instanceof SqlInterval) {
    if (zone.months !== 0 || zone.days !== 0) {
      throw new SqlError(SqlState.invalidParameterValue, `interval time zone "${zone.toString()}" must not include months or days`);
    }
    return { kind: 'fixed', east: Number(zone.micros / 1_000_000n) };
  }
  if (/^\s*[+-]\d/.test(zone)) {
    const east = offsetEast(zone, zone);
    if (east !== null) return { kind: 'fixed', east: -east };
  }
  const named = zoneByName(zone);
  if (named === null) throw new SqlError(SqlState.invalidParameterValue, `time zone "${zone}" not recognized`);
  return named;
}

/**
 * `t AT TIME ZONE zone` (timetz_zone, timetz_izone): the same instant in `zone`. A region's offset is
 * the one in effect at `nowMicros`, the transaction's timestamp, as PostgreSQL takes it (so the same on
 * every replica).
 */
export function timeTzAtZone(t: SqlTimeTz, zone: Zone, nowMicros: bigint): SqlTimeTz {
  const west = -offsetAtInstant(zone, floorSeconds(nowMicros));
  const day = MICROS_PER_DAY;
  let micros = (t.utc - west * 1_000_000) % day;
  if (micros < 0) micros += day;
  return new SqlTimeTz(micros, west);
}

const clockUnits = /^(?:microseconds?|us|usecs?|useconds|milliseconds?|ms|msecs?|mseconds|seconds?|s|secs?|minutes?|m|mins?|hours?|h|hrs?)$/;
const dateUnits = /^(?:days?|d|months?|mons?|quarter|qtr|years?|y|yrs?|decades?|decs?|century|centuries|c|cent|millennium|millennia|mils?|dow|doy|isodow|isoyear|weeks?|w|julian|j)$/;

/** extract(field FROM timetz): the clock's fields, epoch (UTC seconds), timezone, timezone_hour, timezone_minute. */
export function extractTimeTz(field: string, t: SqlTimeTz): Numeric {
  const f = field.toLowerCase();
  if (clockUnits.test(f)) return extractInterval(f, new SqlInterval(0, 0, BigInt(t.micros)));
  if (f === 'epoch') return extractInterval(f, new SqlInterval(0, 0, BigInt(t.utc)));
  if (f === 'timezone') return Numeric.fromInteger(-t.zone);
  if (f === 'timezone_hour') return Numeric.fromInteger(Math.trunc(-t.zone / 3600));
  if (f === 'timezone_minute') return Numeric.fromInteger(Math.trunc((-t.zone % 3600) / 60));
  if (dateUnits.test(f)) throw new SqlError(SqlState.featureNotSupported, `unit "${field}" not supported for type time with time zone`);
  throw new SqlError(SqlState.invalidParameterValue, `unit "${field}" not recognized for type time with time zone`);
}

/** timetz_send: int64 microseconds, then int32 zone (seconds west). */
export function encodeTimeTzBinary(v: SqlTimeTz): Uint8Array {
  const out = new Uint8Array(12);
  const dv = new DataView(out.buffer);
  dv.setBigInt64(0, BigInt(v.micros));
  dv.setInt32(8, v.zone);
  return out;
}

/** timetz_recv: 22008 outside the day or the zone range, as PostgreSQL rejects them. */
export function decodeTimeTzBinary(b: Uint8Array): SqlTimeTz {
  if (b.length !== 12) throw new SqlError(SqlState.protocolViolation, 'insufficient data left in message');
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const us = dv.getBigInt64(0);
  if (us < 0n || us > BigInt(MICROS_PER_DAY)) throw new SqlError(SqlState.datetimeFieldOverflow, 'time out of range');
  const zone = dv.getInt32(8);
  if (zone < -ZONE_LIMIT || zone > ZONE_LIMIT) throw new SqlError(SqlState.invalidTimeZoneDisplacementValue, 'time zone displacement out of range');
  return new SqlTimeTz(Number(us), zone);
}
