// extract(field FROM ...) and date_part(field, ...) of dates, timestamps and timestamps with time zone,
// as PostgreSQL 15's extract_date, timestamp_part_common and timestamptz_part_common: the field named
// by DecodeUnits' words, or DecodeSpecial's (its units and reserved words: only 'epoch' means
// something here), lower-cased and compared on at most ten characters ('microseconds' is
// 'microsecon'); a word that is neither is 22023 "not recognized", a unit the type lacks 0A000 "not
// supported". extract returns numeric, date_part double precision (a date's date_part is its
// timestamp's, as PostgreSQL's SQL function casts it).
//
// The infinite values give NULL for units that go round (day, month, hour, ...) and plus or minus
// infinity for those that only grow (year, century, julian, epoch, ...). A double holds that; Pesto's
// numeric has no infinity, so extract's numeric result for them is 0A000 with a hint toward date_part.

import { SqlError, SqlState } from './errors.ts';
import { Numeric } from './numeric.ts';
import type { SqlDate, SqlTimestamp} from './datetime.ts';
import {
  DATE_NEG_INFINITY_DAYS, PG_EPOCH_MICROS, TIMESTAMP_NEG_INFINITY_MICROS, civilFromDays, clockOf, daysFromCivil,
  isFiniteDate, isFiniteTimestamp, localOf, sessionOffsetAt,
} from './datetime.ts';

type Unit =
  | 'microsecond' | 'millisecond' | 'second' | 'minute' | 'hour' | 'day' | 'month' | 'quarter' | 'week' | 'dow' | 'isodow' | 'doy'
  | 'timezone' | 'timezone_hour' | 'timezone_minute' | 'year' | 'decade' | 'century' | 'millennium' | 'julian' | 'isoyear' | 'epoch';

/** What a field word is: a unit (DecodeUnits' table, then DecodeSpecial's), a reserved word (only 'epoch' extracts), or neither. */
type Decoded = { readonly kind: 'unit'; readonly unit: Unit } | { readonly kind: 'reserved'; readonly epoch: boolean } | { readonly kind: 'unknown' };

const UNIT_WORDS: Readonly<Record<string, Unit>> = {
  // deltatktbl (DecodeUnits)
  c: 'century', cent: 'century', centuries: 'century', century: 'century',
  d: 'day', day: 'day', days: 'day',
  dec: 'decade', decade: 'decade', decades: 'decade', decs: 'decade',
  h: 'hour', hour: 'hour', hours: 'hour', hr: 'hour', hrs: 'hour',
  m: 'minute', min: 'minute', mins: 'minute', minute: 'minute', minutes: 'minute',
  microsecon: 'microsecond', us: 'microsecond', usec: 'microsecond', usecond: 'microsecond', useconds: 'microsecond', usecs: 'microsecond',
  mil: 'millennium', millennia: 'millennium', millennium: 'millennium', mils: 'millennium',
  millisecon: 'millisecond', ms: 'millisecond', msec: 'millisecond', msecond: 'millisecond', mseconds: 'millisecond', msecs: 'millisecond',
  mon: 'month', mons: 'month', month: 'month', months: 'month',
  qtr: 'quarter', quarter: 'quarter',
  s: 'second', sec: 'second', second: 'second', seconds: 'second', secs: 'second',
  timezone: 'timezone', timezone_h: 'timezone_hour', timezone_m: 'timezone_minute',
  w: 'week', week: 'week', weeks: 'week',
  y: 'year', year: 'year', years: 'year', yr: 'year', yrs: 'year',
  // datetktbl's units (DecodeSpecial)
  mm: 'minute', j: 'julian', jd: 'julian', julian: 'julian', dow: 'dow', doy: 'doy', isodow: 'isodow', isoyear: 'isoyear',
};
/** datetktbl's reserved words. */
const RESERVED_WORDS: ReadonlySet<string> = new Set(['allballs', 'epoch', 'infinity', '-infinity', 'now', 'today', 'tomorrow', 'yesterday']);
/** deltatktbl's words that are neither units nor reserved ("@", "ago"): DecodeSpecial is not tried for them. */
const OTHER_DELTA_WORDS: ReadonlySet<string> = new Set(['@', 'ago']);

/** downcase_truncate_identifier: ASCII letters lower-cased, cut to NAMEDATALEN - 1 bytes. */
function lowUnits(field: string): string {
  const low = field.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const bytes = new TextEncoder().encode(low);
  return bytes.length <= 63 ? low : new TextDecoder().decode(bytes.subarray(0, 63)).replace(/\uFFFD$/, '');
}

/** DecodeUnits then DecodeSpecial, which compare at most TOKMAXLEN (10) characters. */
function decodeField(low: string): Decoded {
  const key = low.slice(0, 10);
  const unit = UNIT_WORDS[key];
  if (unit !== undefined && Object.hasOwn(UNIT_WORDS, key)) return { kind: 'unit', unit };
  if (OTHER_DELTA_WORDS.has(key)) return { kind: 'unknown' };
  if (RESERVED_WORDS.has(key)) return { kind: 'reserved', epoch: key === 'epoch' };
  return { kind: 'unknown' };
}

type TypeName = 'date' | 'timestamp without time zone' | 'timestamp with time zone';

const notSupported = (low: string, type: TypeName): SqlError => new SqlError(SqlState.featureNotSupported, `unit "${low}" not supported for type ${type}`);
const notRecognized = (low: string, type: TypeName): SqlError => new SqlError(SqlState.invalidParameterValue, `unit "${low}" not recognized for type ${type}`);

/** The units an infinite value has no value of (NULL); the growing ones are plus or minus infinity. */
const OSCILLATING: ReadonlySet<Unit> = new Set(['microsecond', 'millisecond', 'second', 'minute', 'hour', 'day', 'month', 'quarter', 'week', 'dow', 'isodow', 'doy', 'timezone', 'timezone_hour', 'timezone_minute']);
const GROWING: ReadonlySet<Unit> = new Set(['year', 'decade', 'century', 'millennium', 'julian', 'isoyear', 'epoch']);
/** A date's units: no clock, no zone. */
const DATE_UNITS: ReadonlySet<Unit> = new Set(['day', 'month', 'quarter', 'week', 'dow', 'isodow', 'doy', 'year', 'decade', 'century', 'millennium', 'julian', 'isoyear']);

/** NonFiniteTimestampTzPart and extract_date's infinite case: null, or the signed infinity. */
function nonFinitePart(d: Decoded, low: string, negative: boolean, type: TypeName): number | null {
  if (d.kind === 'unknown') throw notRecognized(low, type);
  const unit: Unit | null = d.kind === 'unit' ? d.unit : d.epoch ? 'epoch' : null;
  if (unit !== null && GROWING.has(unit)) return negative ? -Infinity : Infinity;
  if (unit !== null && OSCILLATING.has(unit) && (type !== 'date' || DATE_UNITS.has(unit))) return null;
  throw notSupported(low, type);
}

/** An infinite result as extract's numeric (which Pesto's numeric cannot hold) or date_part's double. */
function infiniteResult(r: number | null, numeric: boolean, low: string): Numeric | number | null {
  if (r === null || !numeric) return r;
  throw new SqlError(
    SqlState.featureNotSupported,
    `extract(${low} from ${r > 0 ? 'infinity' : '-infinity'}) would be numeric ${r > 0 ? 'Infinity' : '-Infinity'}, which Pesto's numeric does not represent`,
    undefined, undefined, 'date_part() returns double precision, which does.',
  );
}

/** j2day: 0 for Sunday. */
const dayOfWeek = (julian: number): number => (((julian + 1) % 7) + 7) % 7;
/** date2j of a civil date (astronomical years). */
const date2j = (y: number, m: number, d: number): number => daysFromCivil(y, m, d) + 2_440_588;

/** date2isoweek and date2isoyear: the ISO week and its year (astronomical) of a civil date. */
function isoWeekAndYear(year: number, mon: number, mday: number): { week: number; year: number } {
  const dayn = date2j(year, mon, mday);
  let y = year;
  let day4 = date2j(y, 1, 4);
  let day0 = dayOfWeek(day4 - 1);
  if (dayn < day4 - day0) {
    y--;
    day4 = date2j(y, 1, 4);
    day0 = dayOfWeek(day4 - 1);
  }
  let week = Math.trunc((dayn - (day4 - day0)) / 7) + 1;
  if (week >= 52) {
    const next4 = date2j(y + 1, 1, 4);
    const next0 = dayOfWeek(next4 - 1);
    if (dayn >= next4 - next0) {
      // date2isoweek keeps the week it counted from the next year's start, date2isoyear moves the year.
      week = Math.trunc((dayn - (next4 - next0)) / 7) + 1;
      y++;
    }
  }
  return { week, year: y };
}

/** The calendar units shared by dates and timestamps, of astronomical year `y` (0 is 1 BC). */
function calendarPart(unit: Unit, y: number, m: number, d: number): number | null {
  const c = (x: number): number => Math.trunc(x) + 0;
  switch (unit) {
    case 'day': return d;
    case 'month': return m;
    case 'quarter': return c((m - 1) / 3) + 1;
    case 'week': return isoWeekAndYear(y, m, d).week;
    case 'year': return y > 0 ? y : y - 1;
    case 'decade': return y >= 0 ? c(y / 10) : -c((8 - (y - 1)) / 10);
    case 'century': return y > 0 ? c((y + 99) / 100) : -c((99 - (y - 1)) / 100);
    case 'millennium': return y > 0 ? c((y + 999) / 1000) : -c((999 - (y - 1)) / 1000);
    case 'isoyear': {
      const iy = isoWeekAndYear(y, m, d).year;
      return iy <= 0 ? iy - 1 : iy;
    }
    case 'dow': return dayOfWeek(date2j(y, m, d));
    case 'isodow': return dayOfWeek(date2j(y, m, d)) || 7;
    case 'doy': return date2j(y, m, d) - date2j(y, 1, 1) + 1;
    default: return null;
  }
}

/** extract(field FROM date): numeric (extract_date). */
export function extractDate(field: string, v: SqlDate): Numeric | null {
  const low = lowUnits(field);
  const d = decodeField(low);
  if (!isFiniteDate(v) && d.kind !== 'unknown') return infiniteResult(nonFinitePart(d, low, v.days === DATE_NEG_INFINITY_DAYS, 'date'), true, low) as Numeric | null;
  if (d.kind === 'reserved') {
    if (d.epoch) return Numeric.fromInteger(BigInt(v.days) * 86_400n);
    throw notSupported(low, 'date');
  }
  if (d.kind === 'unknown') throw notRecognized(low, 'date');
  if (d.unit === 'julian') return Numeric.fromInteger(v.days + 2_440_588);
  const [y, m, day] = civilFromDays(v.days);
  const r = DATE_UNITS.has(d.unit) ? calendarPart(d.unit, y, m, day) : null;
  if (r === null) throw notSupported(low, 'date');
  return Numeric.fromInteger(r);
}

/**
 * extract(field FROM timestamp [with time zone]) (numeric) and date_part(field, ...) (double): the wall
 * clock's fields, the session zone's for a timestamp with time zone, which also has the zone's offset.
 */
export function extractTimestamp(field: string, t: SqlTimestamp, tz: boolean, numeric: boolean): Numeric | number | null {
  const type: TypeName = tz ? 'timestamp with time zone' : 'timestamp without time zone';
  const low = lowUnits(field);
  const d = decodeField(low);
  if (!isFiniteTimestamp(t)) return infiniteResult(nonFinitePart(d, low, t.micros === TIMESTAMP_NEG_INFINITY_MICROS, type), numeric, low);
  if (d.kind === 'reserved') {
    if (!d.epoch) throw notSupported(low, type);
    return numeric ? epochNumeric(t.micros) : epochSeconds(t.micros);
  }
  if (d.kind === 'unknown') throw notRecognized(low, type);
  const local = tz ? localOf(t) : t;
  const { h, mi, s, us } = clockOf(local);
  const secUs = s * 1_000_000 + us;
  const num = (n: number): Numeric | number => (numeric ? Numeric.fromInteger(n) : n);
  switch (d.unit) {
    case 'timezone':
    case 'timezone_hour':
    case 'timezone_minute': {
      if (!tz) throw notSupported(low, type);
      const east = sessionOffsetAt(t.micros);
      return num(d.unit === 'timezone' ? east : d.unit === 'timezone_hour' ? Math.trunc(east / 3600) + 0 : Math.trunc(east / 60) % 60 + 0);
    }
    case 'microsecond': return num(secUs);
    case 'millisecond': return numeric ? new Numeric(BigInt(secUs), 3) : s * 1000 + us / 1000;
    case 'second': return numeric ? new Numeric(BigInt(secUs), 6) : s + us / 1_000_000;
    case 'minute': return num(mi);
    case 'hour': return num(h);
    case 'julian': {
      const day = local.days + 2_440_588;
      const dayUs = ((h * 60 + mi) * 60 + s) * 1_000_000 + us;
      if (!numeric) return day + ((h * 60 + mi) * 60 + s + us / 1_000_000) / 86_400;
      return Numeric.fromInteger(day).add(Numeric.fromInteger(dayUs).div(Numeric.fromInteger(86_400_000_000)));
    }
    default: {
      const [y, m, dd] = civilFromDays(local.days);
      const r = calendarPart(d.unit, y, m, dd);
      if (r === null) throw notSupported(low, type);
      return num(r);
    }
  }
}

/** Whether PostgreSQL's int64 `timestamp - epoch` (SetEpochTimestamp, 1970 in microseconds since 2000) would overflow: from 294247 AD. */
const pastInt64 = (micros: bigint): boolean => micros >= 0x7fff_ffff_ffff_ffffn;

/** timestamp_part's epoch as a double: PostgreSQL subtracts in int64 unless that would overflow. */
function epochSeconds(micros: bigint): number {
  return pastInt64(micros) ? (Number(micros - PG_EPOCH_MICROS) + Number(PG_EPOCH_MICROS)) / 1_000_000 : Number(micros) / 1_000_000;
}

/** extract's epoch: the microseconds as seconds with six decimals, or past int64 numeric_div's (to select_div_scale's four decimals here) rounded to six. */
function epochNumeric(micros: bigint): Numeric {
  return pastInt64(micros) ? Numeric.fromInteger(micros).div(Numeric.fromInteger(1_000_000)).round(6) : new Numeric(micros, 6);
}
