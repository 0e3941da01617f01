// PostgreSQL's date/time decoders over the fields of datetime-fields.ts (datetime.c: DecodeDateTime for
// date, timestamp and timestamptz; DecodeTimeOnly for time and timetz). Each field is read by its kind
// and what the fields before it filled (a mask, so a second month or a second time is bad format); unit
// letters label the number after them ('j2451187', 'y2001m02d04'), 't' an ISO time; words are zone
// abbreviations first, then keywords, then zone names. At the end the date is validated (two-digit
// years, BC, the day of the year), AM/PM applied, and the zone's offset fixed: a zone of the database
// at the wall-clock time read, else the session's zone.
//
// The current time ('now', 'today', 'tomorrow', 'yesterday', and a time's date where a zone needs
// one) is the transaction's timestamp, passed in; without one (input read where no transaction runs)
// such input is 0A000. Dynamic abbreviations (whose offset follows a zone's history) are 0A000 where
// their offset is needed (sql/time-zones.ts).

import { SqlError, SqlState } from './errors.ts';
import type { SqlTimestamp } from './datetime.ts';
import { FieldKind, KEYWORDS, T, isAsciiDigit, type Field, type Keyword, type Reserved, type Unit } from './datetime-fields.ts';
import {
  ALL_SECS_M, DATE_M, MASK, TIME_M, USECS_PER_DAY, date2j, decodeDate, decodeNumber, decodeNumberField, decodeTime, decodeTimezone, fail,
  j2date, parseFraction, parseFractionalSecond, strtoint, timeOverflows, validateDate, type DateOrder, type DateState, type Tm,
} from './datetime-decode-parts.ts';
import { abbreviationOffset, dynamicUnsupported, isDaylightAbbreviation, offsetOfWallClock, wallClockOf, zoneByName, type Zone } from './time-zones.ts';

export interface DecodeContext {
  /** The transaction's timestamp, for 'now' and its kin; null where none is known. */
  readonly now: SqlTimestamp | null;
  /** The session's zone, for input without one. */
  readonly sessionZone: Zone;
  readonly order: DateOrder;
  /** Whether the type keeps the zone's offset (timestamptz, timetz): only then is a dynamic abbreviation's needed. */
  readonly keepsZone: boolean;
}

export type DecodedKind = 'date' | 'time' | 'epoch' | 'late' | 'early';

export interface Decoded {
  kind: DecodedKind;
  tm: Tm;
  /** Seconds west of UTC (PostgreSQL's sign). */
  tz: number;
}

/** Input that reads the current time where none is known (0A000); binding leaves such a cast to the evaluator. */
export class NowUnavailable extends SqlError {
  constructor() {
    super(SqlState.featureNotSupported, 'the current date and time are not known where this input is read (use now() or CURRENT_DATE)');
  }
}

/** The current wall clock of the session's zone, broken down (GetCurrentDateTime / GetCurrentTimeUsec). */
function currentTm(ctx: DecodeContext): Tm {
  if (ctx.now === null) throw new NowUnavailable();
  const local = wallClockOf(ctx.sessionZone, ctx.now.micros);
  const day = BigInt(USECS_PER_DAY);
  const days = local >= 0n ? local / day : -((-local + day - 1n) / day);
  let rest = Number(local - days * day);
  const tm = newTm();
  j2date(Number(days) + 2_440_588, tm);
  tm.hour = Math.floor(rest / 3_600_000_000);
  rest -= tm.hour * 3_600_000_000;
  tm.min = Math.floor(rest / 60_000_000);
  rest -= tm.min * 60_000_000;
  tm.sec = Math.floor(rest / 1_000_000);
  tm.fsec = rest - tm.sec * 1_000_000;
  return tm;
}

const newTm = (): Tm => ({ year: 0, mon: 0, mday: 0, yday: 0, hour: 0, min: 0, sec: 0, fsec: 0 });

/** DetermineTimeZoneOffset: the zone's offset (seconds west) at the wall-clock time `tm`. */
export function zoneOffsetAt(zone: Zone, tm: Tm): number {
  if (zone.kind === 'fixed') return -zone.east;
  const local = (date2j(tm.year, tm.mon, tm.mday) - 2_440_588) * 86_400 + (tm.hour * 60 + tm.min) * 60 + tm.sec;
  return -offsetOfWallClock(zone, local);
}

/** pg_tzset: a zone of the database or a POSIX zone; 22023 when `name` is none, if `strict`. */
function namedZone(name: string, strict: boolean): Zone {
  const z = zoneByName(name);
  if (z !== null) return z;
  if (strict) throw new SqlError(SqlState.invalidParameterValue, `time zone "${name}" not recognized`);
  return fail('bad-format');
}

/** A word: a zone abbreviation (fixed, or 'dynamic'), else a keyword, else unknown. */
type Word = { readonly type: typeof T.tz | typeof T.dtz; readonly west: number } | { readonly type: typeof T.dyntz } | Keyword | { readonly type: typeof T.unknown };
function lookupWord(text: string): Word {
  const a = abbreviationOffset(text);
  if (typeof a === 'number') return { type: isDaylightAbbreviation(text) ? T.dtz : T.tz, west: -a };
  if (a === 'dynamic') return { type: T.dyntz };
  return KEYWORDS.get(text) ?? { type: T.unknown };
}

/** A number after a unit label ('j2451187', 'h04'); shared by both decoders. */
function labelledNumber(field: Field, ptype: Unit, fmask: number, tm: Tm, st: DateState, s: State): number {
  const n = strtoint(field.text) ?? fail('field-overflow');
  const rest = field.text.slice(n.end);
  if (rest[0] === '.') {
    if (ptype !== 'julian' && ptype !== 'time' && ptype !== 'second') fail('bad-format');
  } else if (rest !== '') fail('bad-format');
  const val = n.value;
  switch (ptype) {
    case 'year':
      tm.year = val;
      return MASK.year;
    case 'month':
      if (fmask & MASK.month && fmask & MASK.hour) {
        tm.min = val;
        return MASK.minute;
      }
      tm.mon = val;
      return MASK.month;
    case 'day':
      tm.mday = val;
      return MASK.day;
    case 'hour':
      tm.hour = val;
      return MASK.hour;
    case 'minute':
      tm.min = val;
      return MASK.minute;
    case 'second':
      tm.sec = val;
      if (rest[0] === '.') {
        tm.fsec = parseFractionalSecond(rest);
        return ALL_SECS_M;
      }
      return MASK.second;
    case 'julian': {
      j2date(val, tm);
      s.isJulian = true;
      if (rest[0] !== '.') return DATE_M;
      const time = parseFraction(rest) * USECS_PER_DAY;
      // dt2time: the fraction of the day as a time (truncated to microseconds).
      let us = Math.trunc(time);
      tm.hour = Math.trunc(us / 3_600_000_000);
      us -= tm.hour * 3_600_000_000;
      tm.min = Math.trunc(us / 60_000_000);
      us -= tm.min * 60_000_000;
      tm.sec = Math.trunc(us / 1_000_000);
      tm.fsec = us - tm.sec * 1_000_000;
      return DATE_M | TIME_M;
    }
    case 'time': {
      const r = decodeNumberField(field.text, fmask | DATE_M, tm, st);
      if (r.tmask !== TIME_M) fail('bad-format');
      return r.tmask;
    }
    default:
      return fail('bad-format');
  }
}

interface State {
  isJulian: boolean;
}

/** The end of both decoders: the date validated, AM/PM applied. */
function finishFields(fmask: number, s: State, st: DateState, bc: boolean, mer: 'am' | 'pm' | null, tm: Tm): void {
  validateDate(fmask, s.isJulian, st.is2digits, bc, tm);
  if (mer !== null && tm.hour > 12) fail('field-overflow');
  if (mer === 'am' && tm.hour === 12) tm.hour = 0;
  else if (mer === 'pm' && tm.hour !== 12) tm.hour += 12;
}

/** DecodeDateTime: the fields of a date, timestamp or timestamptz. */
export function decodeDateTime(fields: Field[], ctx: DecodeContext): Decoded {
  const tm = newTm();
  const st: DateState = { is2digits: false };
  const s: State = { isJulian: false };
  let kind: DecodedKind = 'date';
  let tz = 0;
  let fmask = 0;
  let ptype: Unit | null = null;
  let mer: 'am' | 'pm' | null = null;
  let haveTextMonth = false;
  let bc = false;
  let namedTz: Zone | null = null;
  let dynamicAbbrev: string | null = null;
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i] as Field;
    let tmask = 0;
    switch (f.kind) {
      case FieldKind.date:
        if (ptype === 'julian') {
          // An integral Julian day with a zone attached ('j2451187-08').
          const n = strtoint(f.text) ?? fail('field-overflow');
          j2date(n.value, tm);
          s.isJulian = true;
          tz = decodeTimezone(f.text.slice(n.end));
          tmask = DATE_M | TIME_M | MASK.tz;
          ptype = null;
        } else if (ptype !== null || (fmask & (MASK.month | MASK.day)) === (MASK.month | MASK.day)) {
          // A date already: a zone name with punctuation, or a run-together time and zone (hhmmss-zz).
          if (isAsciiDigit(f.text[0]) || ptype !== null) {
            if (ptype !== null) {
              if (ptype !== 'time') fail('bad-format');
              ptype = null;
            }
            if ((fmask & TIME_M) === TIME_M) fail('bad-format');
            const dash = f.text.indexOf('-');
            if (dash < 0) fail('bad-format');
            tz = decodeTimezone(f.text.slice(dash));
            tmask = decodeNumberField(f.text.slice(0, dash), fmask, tm, st).tmask | MASK.tz;
          } else {
            namedTz = namedZone(f.text, true);
            tmask = MASK.tz;
          }
        } else tmask = decodeDate(f.text, fmask, tm, st, ctx.order);
        break;
      case FieldKind.time:
        if (ptype !== null) {
          if (ptype !== 'time') fail('bad-format');
          ptype = null;
        }
        tmask = decodeTime(f.text, tm);
        if (timeOverflows(tm)) fail('field-overflow');
        break;
      case FieldKind.tz:
        tz = decodeTimezone(f.text);
        tmask = MASK.tz;
        break;
      case FieldKind.number:
        if (ptype !== null) {
          tmask = labelledNumber(f, ptype, fmask, tm, st, s);
          ptype = null;
          kind = 'date';
        } else {
          const dot = f.text.indexOf('.');
          const flen = f.text.length;
          if (dot >= 0 && !(fmask & DATE_M)) tmask = decodeDate(f.text, fmask, tm, st, ctx.order);
          else if (dot >= 0 && dot > 2) tmask = decodeNumberField(f.text, fmask, tm, st).tmask;
          else if (flen >= 6 && (!(fmask & DATE_M) || !(fmask & TIME_M))) tmask = decodeNumberField(f.text, fmask, tm, st).tmask;
          else tmask = decodeNumber(f.text, haveTextMonth, fmask, tm, st, ctx.order);
        }
        break;
      case FieldKind.string:
      case FieldKind.special: {
        const w = lookupWord(f.text);
        if (w.type === T.ignore) continue;
        tmask = 2 ** w.type;
        switch (w.type) {
          case T.reserved:
            ({ tmask, kind } = reservedInDate(w.value, tm, ctx, tmask, kind));
            if (w.value === 'now' || w.value === 'zulu') tz = w.value === 'zulu' ? 0 : zoneOffsetAt(ctx.sessionZone, tm);
            break;
          case T.month:
            // A numeric month already and no day: it was the day ('8 jan 1999' read in MDY).
            if (fmask & MASK.month && !haveTextMonth && !(fmask & MASK.day) && tm.mon >= 1 && tm.mon <= 31) {
              tm.mday = tm.mon;
              tmask = MASK.day;
            }
            haveTextMonth = true;
            tm.mon = w.value;
            break;
          case T.dtzmod:
            tmask |= MASK.dtz;
            tz -= w.value;
            break;
          case T.dtz:
            tmask |= MASK.tz;
            tz = w.west;
            break;
          case T.tz:
            tz = w.west;
            break;
          case T.dyntz:
            tmask |= MASK.tz;
            dynamicAbbrev = f.text;
            break;
          case T.ampm:
            mer = w.value;
            break;
          case T.adbc:
            bc = w.value === 'bc';
            break;
          case T.dow:
            break;
          case T.units:
            tmask = 0;
            ptype = w.value;
            break;
          case T.isotime: {
            tmask = 0;
            if ((fmask & DATE_M) !== DATE_M) fail('bad-format');
            const next = fields[i + 1];
            if (next === undefined || (next.kind !== FieldKind.number && next.kind !== FieldKind.time && next.kind !== FieldKind.date)) fail('bad-format');
            ptype = w.value;
            break;
          }
          case T.unknown:
            namedTz = namedZone(f.text, false);
            tmask = MASK.tz;
            break;
          default:
            return fail('bad-format');
        }
        break;
      }
      default:
        return fail('bad-format');
    }
    if (tmask & fmask) fail('bad-format');
    fmask |= tmask;
  }
  finishFields(fmask, s, st, bc, mer, tm);
  if (kind === 'date') {
    if ((fmask & DATE_M) !== DATE_M) fail('bad-format');
    if (namedTz !== null) {
      if (fmask & MASK.dtzmod) fail('bad-format');
      tz = zoneOffsetAt(namedTz, tm);
    }
    if (dynamicAbbrev !== null) {
      if (fmask & MASK.dtzmod) fail('bad-format');
      if (ctx.keepsZone) throw dynamicUnsupported(dynamicAbbrev);
    }
    if (!(fmask & MASK.tz)) {
      if (fmask & MASK.dtzmod) fail('bad-format');
      tz = zoneOffsetAt(ctx.sessionZone, tm);
    }
  }
  return { kind, tm, tz };
}

/** A reserved word in a date or timestamp: the current time, a day relative to it, midnight, or a special value. */
function reservedInDate(word: Reserved, tm: Tm, ctx: DecodeContext, tmask: number, kind: DecodedKind): { tmask: number; kind: DecodedKind } {
  switch (word) {
    case 'now':
      Object.assign(tm, currentTm(ctx));
      return { tmask: DATE_M | TIME_M | MASK.tz, kind: 'date' };
    case 'today':
    case 'tomorrow':
    case 'yesterday': {
      const cur = currentTm(ctx);
      j2date(date2j(cur.year, cur.mon, cur.mday) + (word === 'today' ? 0 : word === 'tomorrow' ? 1 : -1), tm);
      return { tmask: DATE_M, kind: 'date' };
    }
    case 'zulu':
      tm.hour = 0;
      tm.min = 0;
      tm.sec = 0;
      return { tmask: TIME_M | MASK.tz, kind: 'date' };
    case 'epoch':
    case 'late':
    case 'early':
      return { tmask, kind: word };
    default:
      return { tmask, kind };
  }
}

export { lookupWord, labelledNumber, finishFields, namedZone, currentTm, newTm };
export type { State };
