// DATE and TIMESTAMP (without time zone) values, their PostgreSQL ISO text forms, and calendar
// arithmetic on the proleptic Gregorian calendar, computed without the JS Date object (sql/ is a
// deterministic core: the current time only ever comes from the execution context).

import { SqlError, SqlState } from './errors.ts';
import { floorSeconds, instantOfWallClock, offsetAtInstant, wallClockOf } from './time-zones.ts';
import { sessionZone } from './session-zone.ts';

export const MICROS_PER_DAY = 86_400_000_000;
const DAY = 86_400_000_000n;

/**
 * A date: days since 1970-01-01, or one of PostgreSQL's two infinite dates, 'infinity' and
 * '-infinity', kept as PostgreSQL keeps them (DATEVAL_NOEND, DATEVAL_NOBEGIN: INT32_MAX and INT32_MIN
 * days since 2000-01-01), so its binary form is PostgreSQL's and every comparison orders them last
 * and first.
 */
export class SqlDate {
  /** Days since 1970-01-01; DATE_INFINITY_DAYS or DATE_NEG_INFINITY_DAYS for the infinite dates. */
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
/** 2000-01-01 in days since 1970-01-01. */
export const PG_EPOCH_DAYS = 10_957;

/** 'infinity' and '-infinity' as timestamps: PostgreSQL's DT_NOEND and DT_NOBEGIN (INT64_MAX and INT64_MIN microseconds since 2000), counted from 1970. */
export const TIMESTAMP_INFINITY_MICROS = PG_EPOCH_MICROS + 0x7fff_ffff_ffff_ffffn;
export const TIMESTAMP_NEG_INFINITY_MICROS = PG_EPOCH_MICROS - 0x8000_0000_0000_0000n;
/** 'infinity' and '-infinity' as dates: PostgreSQL's DATEVAL_NOEND and DATEVAL_NOBEGIN (INT32_MAX and INT32_MIN days since 2000), counted from 1970. */
export const DATE_INFINITY_DAYS = PG_EPOCH_DAYS + 0x7fff_ffff;
export const DATE_NEG_INFINITY_DAYS = PG_EPOCH_DAYS - 0x8000_0000;

/**
 * A timestamp (with or without time zone): microseconds since 1970-01-01 00:00:00, as a bigint. A double
 * holds microseconds exactly only within about 285 years of 1970 (2^53); PostgreSQL's range reaches
 * 294276 AD, and '9999-12-31 23:59:59.999999' is a common sentinel. 'infinity' and '-infinity' are
 * PostgreSQL's own (TIMESTAMP_INFINITY_MICROS, TIMESTAMP_NEG_INFINITY_MICROS), beyond either end of the
 * range: the calendar getters (`days`, `timeOfDay`) mean nothing for them, so whatever takes a
 * timestamp apart asks `isFiniteTimestamp` first.
 * Invariant: within PostgreSQL's range, [TIMESTAMP_MIN, TIMESTAMP_END), or one of the two infinities.
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

export const TIMESTAMP_INFINITY = new SqlTimestamp(TIMESTAMP_INFINITY_MICROS);
export const TIMESTAMP_NEG_INFINITY = new SqlTimestamp(TIMESTAMP_NEG_INFINITY_MICROS);
export const DATE_INFINITY = new SqlDate(DATE_INFINITY_DAYS);
export const DATE_NEG_INFINITY = new SqlDate(DATE_NEG_INFINITY_DAYS);

/** TIMESTAMP_NOT_FINITE's negation. */
export const isFiniteTimestamp = (t: SqlTimestamp): boolean => t.micros !== TIMESTAMP_INFINITY_MICROS && t.micros !== TIMESTAMP_NEG_INFINITY_MICROS;
/** DATE_NOT_FINITE's negation. */
export const isFiniteDate = (d: SqlDate): boolean => d.days !== DATE_INFINITY_DAYS && d.days !== DATE_NEG_INFINITY_DAYS;

/** The timestamp of PostgreSQL's int64 microseconds since 2000 (binary forms): its infinities included; another value outside the range is 22008. */
export function timestampOfPg(pgMicros: bigint): SqlTimestamp {
  const micros = pgMicros + PG_EPOCH_MICROS;
  if (micros === TIMESTAMP_INFINITY_MICROS) return TIMESTAMP_INFINITY;
  if (micros === TIMESTAMP_NEG_INFINITY_MICROS) return TIMESTAMP_NEG_INFINITY;
  return checkedTimestamp(micros);
}

/** The date of PostgreSQL's int32 days since 2000 (binary forms): its infinities included; another value outside the range is 22008. */
export function dateOfPg(pgDays: number): SqlDate {
  const days = pgDays + PG_EPOCH_DAYS;
  if (days === DATE_INFINITY_DAYS) return DATE_INFINITY;
  if (days === DATE_NEG_INFINITY_DAYS) return DATE_NEG_INFINITY;
  return checkedDate(days);
}

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
  if (days === DATE_INFINITY_DAYS) return 'infinity';
  if (days === DATE_NEG_INFINITY_DAYS) return '-infinity';
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
  if (micros === TIMESTAMP_INFINITY_MICROS) return 'infinity';
  if (micros === TIMESTAMP_NEG_INFINITY_MICROS) return '-infinity';
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
  if (micros === TIMESTAMP_INFINITY_MICROS || micros === TIMESTAMP_NEG_INFINITY_MICROS) return formatTimestamp(micros);
  const east = sessionOffsetAt(micros);
  // UTC (the default) as before the zone: no shift, no offset to spell.
  const s = formatTimestamp(east === 0 ? micros : micros + BigInt(east) * 1_000_000n);
  const off = east === 0 ? '+00' : formatOffset(east);
  return s.endsWith(' BC') ? `${s.slice(0, -3)}${off} BC` : `${s}${off}`;
}

/** An instant's wall clock in the session's zone (timestamptz -> timestamp; an infinity stays itself). */
export function localOf(t: SqlTimestamp): SqlTimestamp {
  return isFiniteTimestamp(t) ? checkedTimestamp(wallClockOf(sessionZone(), t.micros)) : t;
}

/** The instant a wall clock in the session's zone names (timestamp -> timestamptz; DetermineTimeZoneOffset; an infinity stays itself). */
export function instantOfLocal(t: SqlTimestamp): SqlTimestamp {
  return isFiniteTimestamp(t) ? checkedTimestamp(instantOfWallClock(sessionZone(), t.micros)) : t;
}

/** date2timestamp: a date's midnight; the infinite dates are the infinite timestamps. */
export function dateToTimestamp(d: SqlDate): SqlTimestamp {
  if (d.days === DATE_INFINITY_DAYS) return TIMESTAMP_INFINITY;
  if (d.days === DATE_NEG_INFINITY_DAYS) return TIMESTAMP_NEG_INFINITY;
  const micros = SqlTimestamp.of(d.days, 0).micros;
  if (micros >= TIMESTAMP_END) throw new SqlError(SqlState.datetimeFieldOverflow, 'date out of range for timestamp');
  return new SqlTimestamp(micros);
}

/** timestamp_date: the day of a wall clock; the infinite timestamps are the infinite dates. */
export function timestampToDate(t: SqlTimestamp): SqlDate {
  if (t.micros === TIMESTAMP_INFINITY_MICROS) return DATE_INFINITY;
  if (t.micros === TIMESTAMP_NEG_INFINITY_MICROS) return DATE_NEG_INFINITY;
  return new SqlDate(t.days);
}

/** date_pli and date_mii: an infinite date stays itself; a finite one past the range is 22008. */
export function addDays(d: SqlDate, days: number): SqlDate {
  return isFiniteDate(d) ? checkedDate(d.days + days) : d;
}

/** date_mi: the days between two finite dates (22008 for an infinite one). */
export function daysBetween(a: SqlDate, b: SqlDate): number {
  if (!isFiniteDate(a) || !isFiniteDate(b)) throw new SqlError(SqlState.datetimeFieldOverflow, 'cannot subtract infinite dates');
  return a.days - b.days;
}

/**
 * datetime_timestamp (date + time, `micros` into the day, negative for date - time) and
 * datetimetz_timestamptz (date + timetz, `micros` the time's UTC): an infinite date gives the infinite
 * timestamp; a date past the timestamp range is 22008 "date out of range for timestamp".
 */
export function dateAtTime(d: SqlDate, micros: number): SqlTimestamp {
  const midnight = dateToTimestamp(d);
  return isFiniteTimestamp(midnight) ? checkedTimestamp(midnight.micros + BigInt(micros)) : midnight;
}

/** C's `%g` (six significant digits, trailing zeros dropped), for PostgreSQL's messages that print a double. */
function printfG(x: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'nan' : x > 0 ? 'inf' : '-inf';
  const [mant = '', exp = '0'] = x.toExponential(5).split('e');
  const e = Number(exp);
  if (e >= -4 && e < 6) return String(Number(x.toPrecision(6)));
  const m = mant.includes('.') ? mant.replace(/0+$/, '').replace(/\.$/, '') : mant;
  return `${m}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

/** to_timestamp(double precision) (float8_timestamptz): seconds since 1970; the infinities are the infinite timestamps. */
export function timestampOfEpochSeconds(seconds: number): SqlTimestamp {
  if (Number.isNaN(seconds)) throw new SqlError(SqlState.invalidParameterValue, 'timestamp cannot be NaN');
  if (!Number.isFinite(seconds)) return seconds > 0 ? TIMESTAMP_INFINITY : TIMESTAMP_NEG_INFINITY;
  const outOfRange = (): SqlError => new SqlError(SqlState.datetimeFieldOverflow, `timestamp out of range: "${printfG(seconds)}"`);
  if (seconds < Number(TIMESTAMP_MIN / 1_000_000n) || seconds >= Number(TIMESTAMP_END / 1_000_000n)) throw outOfRange();
  // PostgreSQL rounds the seconds since 2000 to the microsecond (rint: half to even).
  const pg = (seconds - Number(PG_EPOCH_MICROS / 1_000_000n)) * 1_000_000;
  const r = Math.round(pg);
  const micros = BigInt(r - pg === 0.5 && r % 2 !== 0 ? r - 1 : r) + PG_EPOCH_MICROS;
  if (micros < TIMESTAMP_MIN || micros >= TIMESTAMP_END) throw outOfRange();
  return new SqlTimestamp(micros);
}
