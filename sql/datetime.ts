// DATE and TIMESTAMP (without time zone) values, their PostgreSQL ISO text forms, and calendar
// arithmetic on the proleptic Gregorian calendar, computed without the JS Date object (sql/ is a
// deterministic core: the current time only ever comes from the execution context).

import { SqlError, SqlState } from './errors.ts';
import { floorSeconds, instantOfWallClock, offsetAtInstant, wallClockOf } from './time-zones.ts';
import { sessionZone } from './session-zone.ts';

export const MICROS_PER_DAY = 86_400_000_000;
const DAY = 86_400_000_000n;

export class SqlDate {
  /** Days since 1970-01-01. */
  readonly days: number;
  constructor(days: number) {
    this.days = days;
  }
  toString(): string {
    return formatDate(this.days);
  }
}

/** PostgreSQL's epoch, 2000-01-01 00:00 UTC, in Unix microseconds (its binary forms count from it). */
export const PG_EPOCH_MICROS = 946_684_800_000_000n;

/**
 * A timestamp (with or without time zone): microseconds since 1970-01-01 00:00:00, as a bigint. A double
 * holds microseconds exactly only within about 285 years of 1970 (2^53); PostgreSQL's range reaches
 * 294276 AD, and '9999-12-31 23:59:59.999999' is a common sentinel.
 * Invariant: within PostgreSQL's range, [TIMESTAMP_MIN, TIMESTAMP_END).
 */
export class SqlTimestamp {
  readonly micros: bigint;
  constructor(micros: bigint) {
    this.micros = micros;
  }
  /** The timestamp at `micros` into day `days` (both integers; micros may exceed a day). */
  static of(days: number, micros: number): SqlTimestamp {
    return new SqlTimestamp(BigInt(days) * DAY + BigInt(micros));
  }
  /** Days since 1970-01-01 (floored). */
  get days(): number {
    return Number(floorDiv(this.micros, DAY));
  }
  /** Microseconds since the start of its day, in [0, MICROS_PER_DAY). */
  get timeOfDay(): number {
    return Number(this.micros - floorDiv(this.micros, DAY) * DAY);
  }
  toString(): string {
    return formatTimestamp(this.micros);
  }
}

/** PostgreSQL's timestamp range in Unix microseconds: 4714-11-24 00:00:00 BC up to 294277-01-01 00:00:00 (excluded). */
export const TIMESTAMP_MIN = -210_866_803_200_000_000n;
export const TIMESTAMP_END = 9_224_318_016_000_000_000n;
/** PostgreSQL's date range in days since 1970-01-01: 4714-11-24 BC up to 5874898-01-01 (excluded). */
export const DATE_MIN = -2_440_588;
export const DATE_END = 2_145_042_906;

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && (a < 0n) !== (b < 0n) ? q - 1n : q;
}

/** `micros` as a timestamp, or 22008 "timestamp out of range" outside PostgreSQL's range. */
export function checkedTimestamp(micros: bigint, text?: string): SqlTimestamp {
  if (micros < TIMESTAMP_MIN || micros >= TIMESTAMP_END) {
    throw new SqlError(SqlState.datetimeFieldOverflow, text === undefined ? 'timestamp out of range' : `timestamp out of range: "${text}"`);
  }
  return new SqlTimestamp(micros);
}

/** `days` as a date, or 22008 "date out of range" outside PostgreSQL's range. */
export function checkedDate(days: number, text?: string): SqlDate {
  if (!(days >= DATE_MIN && days < DATE_END)) {
    throw new SqlError(SqlState.datetimeFieldOverflow, text === undefined ? 'date out of range' : `date out of range: "${text}"`);
  }
  return new SqlDate(days);
}

/** Days since 1970-01-01 of a civil date (Howard Hinnant's days_from_civil). */
export function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export function civilFromDays(days: number): [number, number, number] {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

const pad = (n: number, w: number): string => String(n).padStart(w, '0');

export function formatDate(days: number): string {
  const [y, m, d] = civilFromDays(days);
  if (y <= 0) return `${pad(1 - y, 4)}-${pad(m, 2)}-${pad(d, 2)} BC`;
  return `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
}

/** A timestamp's time of day as hours, minutes, seconds and microseconds. */
export function clockOf(t: SqlTimestamp): { h: number; mi: number; s: number; us: number } {
  let rest = t.timeOfDay;
  const h = Math.floor(rest / 3_600_000_000);
  rest -= h * 3_600_000_000;
  const mi = Math.floor(rest / 60_000_000);
  rest -= mi * 60_000_000;
  const s = Math.floor(rest / 1_000_000);
  return { h, mi, s, us: rest - s * 1_000_000 };
}

export function formatTimestamp(micros: bigint): string {
  const t = new SqlTimestamp(micros);
  const { h, mi, s, us } = clockOf(t);
  const [y, m, d] = civilFromDays(t.days);
  const ymd = `${pad(y <= 0 ? 1 - y : y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
  let time = `${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}`;
  if (us > 0) time += '.' + pad(us, 6).replace(/0+$/, '');
  return `${ymd} ${time}${y <= 0 ? ' BC' : ''}`;
}

/** Whether proleptic Gregorian year `y` (astronomical: 0 is 1 BC) is a leap year. */
export const isLeap = (y: number): boolean => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);

/** An offset east of UTC as PostgreSQL writes it after a time (EncodeTimezone): '+01', '-05:30', '+00:53:28'. */
export function formatOffset(east: number): string {
  const abs = Math.abs(east);
  let s = `${east < 0 ? '-' : '+'}${pad(Math.floor(abs / 3600), 2)}`;
  const rest = abs % 3600;
  if (rest !== 0) {
    s += `:${pad(Math.floor(rest / 60), 2)}`;
    if (rest % 60 !== 0) s += `:${pad(rest % 60, 2)}`;
  }
  return s;
}

/** The session zone's offset east of UTC, in seconds, at an instant. */
export function sessionOffsetAt(micros: bigint): number {
  const zone = sessionZone();
  return zone.kind === 'fixed' ? zone.east : offsetAtInstant(zone, floorSeconds(micros));
}

/** A timestamp with time zone as PostgreSQL writes it in the session's zone: '2020-01-01 04:00:00+01'. */
export function formatTimestampTz(micros: bigint): string {
  const east = sessionOffsetAt(micros);
  // UTC (the default) as before the zone: no shift, no offset to spell.
  const s = formatTimestamp(east === 0 ? micros : micros + BigInt(east) * 1_000_000n);
  const off = east === 0 ? '+00' : formatOffset(east);
  return s.endsWith(' BC') ? `${s.slice(0, -3)}${off} BC` : `${s}${off}`;
}

/** An instant's wall clock in the session's zone (timestamptz -> timestamp). */
export function localOf(t: SqlTimestamp): SqlTimestamp {
  return checkedTimestamp(wallClockOf(sessionZone(), t.micros));
}

/** The instant a wall clock in the session's zone names (timestamp -> timestamptz; DetermineTimeZoneOffset). */
export function instantOfLocal(t: SqlTimestamp): SqlTimestamp {
  return checkedTimestamp(instantOfWallClock(sessionZone(), t.micros));
}

export function dateToTimestamp(d: SqlDate): SqlTimestamp {
  return checkedTimestamp(SqlTimestamp.of(d.days, 0).micros);
}

export function timestampToDate(t: SqlTimestamp): SqlDate {
  return new SqlDate(t.days);
}
