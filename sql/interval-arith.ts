// Arithmetic with intervals as PostgreSQL 15 does it (utils/adt/timestamp.c): timestamp ± interval adds
// the months first (clamping the day to the end of a shorter month: 2024-01-31 + '1 mon' is 2024-02-29),
// then the days, then the time; timestamp - timestamp is the difference in microseconds with whole
// 24-hour days moved into the days field (interval_justify_hours); interval ± interval and unary minus
// are field-wise; interval * and / a number spill the fractions of months into days (30 each) and of
// days into time (24 hours each), rounded to the microsecond, as interval_mul and interval_div.
// timestamptz ± interval (timestamptz_pl_interval) adds the months, then the days, to its wall clock in
// the session's zone, each time back to an instant there, then the time: '1 day' across a daylight-saving
// change keeps the wall clock (23 or 25 hours).

import { SqlError, SqlState } from './errors.ts';
import {
  MICROS_PER_DAY, SqlTimestamp, TIMESTAMP_NEG_INFINITY_MICROS, checkedTimestamp, civilFromDays, daysFromCivil, instantOfLocal, isFiniteTimestamp, localOf,
} from './datetime.ts';
import { sessionZone } from './session-zone.ts';
import { makeInterval, outOfRange, type SqlInterval } from './interval.ts';
import { Numeric } from './numeric.ts';

const usPerDay = BigInt(MICROS_PER_DAY);

const daysInMonth = (y: number, m: number): number => daysFromCivil(m === 12 ? y + 1 : y, m === 12 ? 1 : m + 1, 1) - daysFromCivil(y, m, 1);

/**
 * timestamp_pl_interval (sign 1) and timestamp_mi_interval (sign -1): an infinite timestamp stays
 * itself; each step (months, days, time) is 22008 past the range, as PostgreSQL checks each.
 */
export function addInterval(ts: SqlTimestamp, iv: SqlInterval, sign: 1 | -1): SqlTimestamp {
  if (!isFiniteTimestamp(ts)) return ts;
  let t = ts;
  if (iv.months !== 0) {
    const [y, m, d] = civilFromDays(t.days);
    const total = y * 12 + (m - 1) + sign * iv.months;
    const ny = Math.floor(total / 12);
    const nm = total - ny * 12 + 1;
    t = checkedTimestamp(SqlTimestamp.of(daysFromCivil(ny, nm, Math.min(d, daysInMonth(ny, nm))), t.timeOfDay).micros);
  }
  const s = BigInt(sign);
  if (iv.days !== 0) t = checkedTimestamp(t.micros + s * BigInt(iv.days) * usPerDay);
  return iv.micros === 0n ? t : checkedTimestamp(t.micros + s * iv.micros);
}

/** timestamptz_pl_interval (sign 1) and timestamptz_mi_interval (sign -1): months and days on the session zone's wall clock. */
export function addIntervalTz(ts: SqlTimestamp, iv: SqlInterval, sign: 1 | -1): SqlTimestamp {
  if (!isFiniteTimestamp(ts)) return ts;
  if (sessionZone().kind === 'fixed' || (iv.months === 0 && iv.days === 0)) return addInterval(ts, iv, sign);
  let t = ts;
  if (iv.months !== 0) t = instantOfLocal(addInterval(localOf(t), makeInterval(iv.months, 0, 0n), sign));
  if (iv.days !== 0) t = instantOfLocal(addInterval(localOf(t), makeInterval(0, iv.days, 0n), sign));
  return checkedTimestamp(t.micros + BigInt(sign) * iv.micros);
}

/** timestamp_mi: the microseconds between, whole days in the days field, both with the difference's sign (22008 for an infinite one). */
export function timestampDiff(a: SqlTimestamp, b: SqlTimestamp): SqlInterval {
  if (!isFiniteTimestamp(a) || !isFiniteTimestamp(b)) throw new SqlError(SqlState.datetimeFieldOverflow, 'cannot subtract infinite timestamps');
  const diff = a.micros - b.micros;
  const days = diff / usPerDay;
  return makeInterval(0, Number(days), diff - days * usPerDay);
}

export function addIntervals(a: SqlInterval, b: SqlInterval, sign: 1 | -1): SqlInterval {
  return makeInterval(a.months + sign * b.months, a.days + sign * b.days, a.micros + BigInt(sign) * b.micros);
}

export function negateInterval(a: SqlInterval): SqlInterval {
  return makeInterval(-a.months, -a.days, -a.micros);
}

const tsRound = (x: number): number => Math.round(x * 1e6) / 1e6;
/** C's (int) conversion of a double already checked to be in range: truncation toward zero. */
const toInt = (x: number): number => Math.trunc(x) + 0;

/** interval_mul (op '*') and interval_div (op '/') by a float8. */
export function scaleInterval(iv: SqlInterval, factor: number, op: '*' | '/'): SqlInterval {
  if (op === '/' && factor === 0) throw new SqlError(SqlState.divisionByZero, 'division by zero');
  const apply = (x: number): number => (op === '*' ? x * factor : x / factor);
  const monthsExact = apply(iv.months);
  const daysExact = apply(iv.days);
  if (!Number.isFinite(monthsExact) || Math.abs(monthsExact) >= 2147483648) throw outOfRange();
  if (!Number.isFinite(daysExact) || Math.abs(daysExact) >= 2147483648) throw outOfRange();
  const months = toInt(monthsExact);
  let days = toInt(daysExact);
  const monthRemainderDays = tsRound((monthsExact - months) * 30);
  let secRemainder = tsRound((daysExact - days + monthRemainderDays - toInt(monthRemainderDays)) * 86400);
  if (Math.abs(secRemainder) >= 86400) {
    days += toInt(secRemainder / 86400);
    secRemainder -= toInt(secRemainder / 86400) * 86400;
  }
  days += toInt(monthRemainderDays);
  const time = Math.round(apply(Number(iv.micros)) + secRemainder * 1e6);
  if (!Number.isFinite(time) || Math.abs(time) >= 2 ** 63) throw outOfRange();
  return makeInterval(months, days, BigInt(time));
}

/**
 * extract(field FROM interval) as PostgreSQL 15's interval_part_common with numeric results: the
 * months split into years and months, the days field as is, the time split into hours (not capped at
 * 24), minutes and seconds, all with the sign of their field; epoch counts a year as 365.25 days and a
 * month as 30. date_part is the same as a float8.
 */
export function extractInterval(field: string, iv: SqlInterval): Numeric {
  const f = field.toLowerCase();
  const years = Math.trunc(iv.months / 12);
  const secUs = iv.micros % 60_000_000n;
  const int = (n: number | bigint): Numeric => Numeric.fromInteger(n);
  switch (f) {
    case 'microsecond': case 'microseconds': case 'us': case 'usec': case 'usecs': case 'useconds':
      return int(secUs);
    case 'millisecond': case 'milliseconds': case 'ms': case 'msec': case 'msecs': case 'mseconds':
      return new Numeric(secUs, 3);
    case 'second': case 'seconds': case 's': case 'sec': case 'secs':
      return new Numeric(secUs, 6);
    case 'minute': case 'minutes': case 'm': case 'min': case 'mins':
      return int((iv.micros / 60_000_000n) % 60n);
    case 'hour': case 'hours': case 'h': case 'hr': case 'hrs':
      return int(iv.micros / 3_600_000_000n);
    case 'day': case 'days': case 'd':
      return int(iv.days);
    case 'month': case 'months': case 'mon': case 'mons':
      return int(iv.months - years * 12 + 0);
    case 'quarter': case 'qtr':
      return int(Math.trunc((iv.months - years * 12) / 3) + 1);
    case 'year': case 'years': case 'y': case 'yr': case 'yrs':
      return int(years);
    case 'decade': case 'decades': case 'dec': case 'decs':
      return int(Math.trunc(years / 10));
    case 'century': case 'centuries': case 'c': case 'cent':
      return int(Math.trunc(years / 100));
    case 'millennium': case 'millennia': case 'mil': case 'mils':
      return int(Math.trunc(years / 1000));
    case 'epoch': {
      const secs = 31_557_600n * BigInt(years) + 2_592_000n * BigInt(iv.months - years * 12) + 86_400n * BigInt(iv.days);
      return new Numeric(secs * 1_000_000n + iv.micros, 6);
    }
    case 'dow': case 'doy': case 'isodow': case 'isoyear': case 'week': case 'timezone': case 'timezone_hour': case 'timezone_minute': case 'julian':
      throw new SqlError(SqlState.featureNotSupported, `unit "${field}" not supported for type interval`);
    default:
      throw new SqlError(SqlState.invalidParameterValue, `unit "${field}" not recognized for type interval`);
  }
}

/** Days and time of one sign: a day moved between them where their signs differ. */
function daysAndTimeOneSign(days: number, time: bigint): [number, bigint] {
  if (days > 0 && time < 0n) return [days - 1, time + usPerDay];
  if (days < 0 && time > 0n) return [days + 1, time - usPerDay];
  return [days, time];
}

/** justify_hours: whole 24-hour days of the time into the days field, then days and time of one sign. */
export function justifyHours(iv: SqlInterval): SqlInterval {
  const wholeDays = iv.micros / usPerDay;
  const [days, time] = daysAndTimeOneSign(iv.days + Number(wholeDays), iv.micros - wholeDays * usPerDay);
  return makeInterval(iv.months, days, time);
}

/** justify_days: whole 30-day months of the days into the months field, then months and days of one sign. */
export function justifyDays(iv: SqlInterval): SqlInterval {
  const wholeMonths = Math.trunc(iv.days / 30);
  let days = iv.days - wholeMonths * 30;
  let months = iv.months + wholeMonths;
  if (months > 0 && days < 0) {
    days += 30;
    months--;
  } else if (months < 0 && days > 0) {
    days -= 30;
    months++;
  }
  return makeInterval(months, days, iv.micros);
}

/** justify_interval: both, with every field given one sign (PostgreSQL 15's interval_justify_interval). */
export function justifyInterval(iv: SqlInterval): SqlInterval {
  let months = iv.months;
  let days = iv.days;
  let time = iv.micros;
  if ((days > 0 && time > 0n) || (days < 0 && time < 0n)) {
    const wm = Math.trunc(days / 30);
    days -= wm * 30;
    months += wm;
  }
  const wd = time / usPerDay;
  time -= wd * usPerDay;
  days += Number(wd);
  const wm = Math.trunc(days / 30);
  days -= wm * 30;
  months += wm;
  if (months > 0 && (days < 0 || (days === 0 && time < 0n))) {
    days += 30;
    months--;
  } else if (months < 0 && (days > 0 || (days === 0 && time > 0n))) {
    days -= 30;
    months++;
  }
  [days, time] = daysAndTimeOneSign(days, time);
  return makeInterval(months, days, time);
}

/**
 * age(a, b) as PostgreSQL 15's timestamp_age: the calendar fields of a minus those of b, the later
 * minus the earlier, each negative field borrowing from the next (a day borrows the length of the
 * earlier timestamp's month), then the sign put back. So age('2024-03-31', '2024-02-29') is 1 mon 2 days.
 * PostgreSQL 15 takes 'infinity' apart like any timestamp (INT64_MAX microseconds since 2000:
 * 294277-01-09 04:00:54.775807, which `days` and `timeOfDay` give too) and '-infinity' not at all (22008, its Julian
 * day is negative); so does this.
 */
export function age(a: SqlTimestamp, b: SqlTimestamp): SqlInterval {
  if (a.micros === TIMESTAMP_NEG_INFINITY_MICROS || b.micros === TIMESTAMP_NEG_INFINITY_MICROS) throw new SqlError(SqlState.datetimeFieldOverflow, 'timestamp out of range');
  const split = (t: SqlTimestamp): number[] => {
    const day = t.days;
    const tod = t.timeOfDay;
    const [y, m, d] = civilFromDays(day);
    const us = tod % 1_000_000;
    const s = Math.floor(tod / 1_000_000);
    return [y, m, d, Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60, us];
  };
  const t1 = split(a);
  const t2 = split(b);
  const before = a.micros < b.micros;
  let [year, mon, mday, hour, min, sec, us] = t1.map((x, i) => (before ? -1 : 1) * (x - (t2[i] ?? 0))) as [number, number, number, number, number, number, number];
  while (us < 0) { us += 1_000_000; sec--; }
  while (sec < 0) { sec += 60; min--; }
  while (min < 0) { min += 60; hour--; }
  while (hour < 0) { hour += 24; mday--; }
  const [ry, rm] = before ? [t1[0] ?? 0, t1[1] ?? 1] : [t2[0] ?? 0, t2[1] ?? 1];
  while (mday < 0) { mday += daysInMonth(ry, rm); mon--; }
  while (mon < 0) { mon += 12; year--; }
  const sign = before ? -1 : 1;
  const time = ((BigInt(hour) * 60n + BigInt(min)) * 60n + BigInt(sec)) * 1_000_000n + BigInt(us);
  return makeInterval(sign * (year * 12 + mon) + 0, sign * mday + 0, BigInt(sign) * time);
}

/** date_trunc's units, as PostgreSQL's DecodeUnits spells them, from the largest to the smallest. */
const truncUnits: readonly [RegExp, string][] = [
  [/^(?:millennium|millennia|mils?)$/, 'millennium'], [/^(?:century|centuries|c|cent)$/, 'century'],
  [/^(?:decades?|decs?)$/, 'decade'], [/^(?:years?|y|yrs?)$/, 'year'], [/^(?:quarter|qtr)$/, 'quarter'],
  [/^(?:months?|mons?)$/, 'month'], [/^(?:days?|d)$/, 'day'], [/^(?:hours?|h|hrs?)$/, 'hour'],
  [/^(?:minutes?|m|mins?)$/, 'minute'], [/^(?:seconds?|s|secs?)$/, 'second'],
  [/^(?:milliseconds?|ms|msecs?|mseconds)$/, 'millisecond'], [/^(?:microseconds?|us|usecs?|useconds)$/, 'microsecond'],
];

/**
 * date_trunc(field, interval) as PostgreSQL 15's interval_trunc: the interval split into years, months,
 * days, hours, minutes, seconds and microseconds (each truncated toward zero), the fields below `field`
 * zeroed. A week is 0A000 (months have fractional weeks), as are units an interval has no field for.
 */
export function truncInterval(field: string, iv: SqlInterval): SqlInterval {
  const f = field.toLowerCase();
  const unit = truncUnits.find(([re]) => re.test(f))?.[1];
  if (unit === undefined) {
    if (/^(?:weeks?|w)$/.test(f)) throw new SqlError(SqlState.featureNotSupported, `unit "${field}" not supported for type interval`, 'Months usually have fractional weeks.');
    if (/^(?:dow|doy|isodow|isoyear|timezone|timezone_hour|timezone_minute|julian|j|epoch)$/.test(f)) {
      throw new SqlError(SqlState.featureNotSupported, `unit "${field}" not supported for type interval`);
    }
    throw new SqlError(SqlState.invalidParameterValue, `unit "${field}" not recognized for type interval`);
  }
  const rank = truncUnits.findIndex(([, u]) => u === unit);
  const keep = (u: string): boolean => truncUnits.findIndex(([, x]) => x === u) <= rank;
  let years = Math.trunc(iv.months / 12);
  let months = iv.months - years * 12;
  if (unit === 'millennium') years = Math.trunc(years / 1000) * 1000;
  if (unit === 'century') years = Math.trunc(years / 100) * 100;
  if (unit === 'decade') years = Math.trunc(years / 10) * 10;
  if (!keep('quarter')) months = 0;
  else if (unit === 'quarter') months = 3 * Math.trunc(months / 3);
  const hours = iv.micros / 3_600_000_000n;
  const minutes = (iv.micros / 60_000_000n) % 60n;
  const seconds = (iv.micros / 1_000_000n) % 60n;
  let fraction = iv.micros % 1_000_000n;
  if (!keep('millisecond')) fraction = 0n;
  else if (unit === 'millisecond') fraction = (fraction / 1000n) * 1000n;
  const time = (keep('hour') ? hours * 3_600_000_000n : 0n) + (keep('minute') ? minutes * 60_000_000n : 0n)
    + (keep('second') ? seconds * 1_000_000n : 0n) + fraction;
  return makeInterval(years * 12 + months + 0, keep('day') ? iv.days : 0, time);
}
