// The pieces PostgreSQL's date/time decoder reads single fields with (datetime.c: DecodeDate,
// DecodeNumber, DecodeNumberField, DecodeTime, DecodeTimezone, ValidateDate), over the broken-down
// value `Tm` and the mask of the fields seen so far. A piece that fails throws `DecodeFailure` with
// PostgreSQL's error kind; the entry points (datetime-input.ts) turn it into the SQL error that names the
// input and the type. C's integer parsing (strtoint, atoi) and strtod are reproduced where the result
// depends on them (a field of 11 digits, '10:' as 10:00).

import { daysFromCivil, civilFromDays, isLeap } from './datetime.ts';
import { rint } from './numeric.ts';
import { isAsciiAlpha, isAsciiDigit, KEYWORDS, T } from './datetime-fields.ts';

/** PostgreSQL's DTERR_* kinds: bad format (22007), field overflow (22008), the same with a DateStyle hint, zone displacement (22009). */
export type FailureKind = 'bad-format' | 'field-overflow' | 'md-field-overflow' | 'tz-overflow';

export class DecodeFailure extends Error {
  constructor(readonly kind: FailureKind) {
    super(kind);
  }
}
export const fail = (kind: FailureKind): never => {
  throw new DecodeFailure(kind);
};

/** DateStyle's field order for dates of numbers only. */
export type DateOrder = 'MDY' | 'DMY' | 'YMD';

/** A broken-down date and time (PostgreSQL's struct pg_tm and fsec): a year <= 0 is 1 - (year BC). */
export interface Tm {
  year: number;
  mon: number;
  mday: number;
  yday: number;
  hour: number;
  min: number;
  sec: number;
  fsec: number;
}

/** Each token type's bit in a decoder's mask of the fields seen (PostgreSQL's DTK_M). */
export const MASK = Object.fromEntries(Object.entries(T).map(([k, v]) => [k, 2 ** v])) as Record<keyof typeof T, number>;
const YEAR = MASK.year;
const MONTH = MASK.month;
const DAY = MASK.day;
export const DATE_M = YEAR | MONTH | DAY;
export const ALL_SECS_M = MASK.second | MASK.millisecond | MASK.microsecond;
export const TIME_M = MASK.hour | MASK.minute | ALL_SECS_M;

export const USECS_PER_DAY = 86_400_000_000;
const INT_MAX = 2_147_483_647;
/** Julian day number of 1970-01-01. */
const UNIX_EPOCH_JDATE = 2_440_588;

export const date2j = (y: number, m: number, d: number): number => daysFromCivil(y, m, d) + UNIX_EPOCH_JDATE;
export function j2date(jd: number, tm: Tm): void {
  [tm.year, tm.mon, tm.mday] = civilFromDays(jd - UNIX_EPOCH_JDATE);
}

/** C's strtol over a field's digits (the fields hold no signs here): the value and where it stopped; null on overflow of int. */
export function strtoint(s: string, from = 0): { value: number; end: number } | null {
  let end = from;
  let value = 0;
  for (let c = s.charCodeAt(end); c >= 48 && c <= 57; c = s.charCodeAt(++end)) {
    value = value * 10 + (c - 48);
    if (value > INT_MAX) {
      while (isAsciiDigit(s[end])) end++;
      return null;
    }
  }
  return { value, end };
}

/** glibc's atoi over digits: strtol clamped to long, then the low 32 bits. */
function atoi(s: string): number {
  const b = BigInt(s === '' ? '0' : s);
  return Number(BigInt.asIntN(32, b > 2n ** 63n - 1n ? 2n ** 63n - 1n : b));
}


/** ParseFraction: '.digits' (just '.' is 0) as a fraction; bad format on anything after the digits. */
export function parseFraction(s: string): number {
  if (s === '.') return 0;
  const m = /^\.\d*/.exec(s);
  if (m === null || m[0].length !== s.length || s === '.') return fail('bad-format');
  return Number('0' + s);
}
export const parseFractionalSecond = (s: string): number => rint(parseFraction(s) * 1_000_000);

/** DecodeTime: hh:mm, hh:mm:ss[.fff], or mm:ss.fff. */
export function decodeTime(str: string, tm: Tm): number {
  const h = strtoint(str) ?? fail('field-overflow');
  if (str[h.end] !== ':') fail('bad-format');
  const mi = strtoint(str, h.end + 1) ?? fail('field-overflow');
  tm.hour = h.value;
  tm.min = mi.value;
  let cp = mi.end;
  if (cp === str.length) {
    tm.sec = 0;
    tm.fsec = 0;
  } else if (str[cp] === '.') {
    tm.fsec = parseFractionalSecond(str.slice(cp));
    tm.sec = tm.min;
    tm.min = tm.hour;
    tm.hour = 0;
  } else if (str[cp] === ':') {
    const s = strtoint(str, cp + 1) ?? fail('field-overflow');
    tm.sec = s.value;
    cp = s.end;
    tm.fsec = 0;
    if (str[cp] === '.') tm.fsec = parseFractionalSecond(str.slice(cp));
    else if (cp !== str.length) fail('bad-format');
  } else fail('bad-format');
  if (tm.min > 59 || tm.sec > 60 || tm.fsec > 1_000_000) fail('field-overflow');
  return TIME_M;
}

/** time_overflows: each field in range and the whole at most 24:00:00. */
export function timeOverflows(tm: Tm): boolean {
  if (tm.hour < 0 || tm.min < 0 || tm.min > 59 || tm.sec < 0 || tm.sec > 60 || tm.fsec < 0 || tm.fsec > 1_000_000) return true;
  return ((tm.hour * 60 + tm.min) * 60 + tm.sec) * 1_000_000 + tm.fsec > USECS_PER_DAY;
}

/** DecodeTimezone: '+hh', '-hh:mm[:ss]', '+hhmm'; seconds WEST of UTC (PostgreSQL's sign). */
export function decodeTimezone(str: string): number {
  if (str[0] !== '+' && str[0] !== '-') fail('bad-format');
  const h = strtoint(str, 1) ?? fail('tz-overflow');
  let hr = h.value;
  let min = 0;
  let sec = 0;
  let cp = h.end;
  if (str[cp] === ':') {
    const m = strtoint(str, cp + 1) ?? fail('tz-overflow');
    min = m.value;
    cp = m.end;
    if (str[cp] === ':') {
      const s = strtoint(str, cp + 1) ?? fail('tz-overflow');
      sec = s.value;
      cp = s.end;
    }
  } else if (cp === str.length && str.length > 3) {
    min = hr % 100;
    hr = Math.trunc(hr / 100);
  }
  if (hr > 15 || min >= 60 || sec >= 60) fail('tz-overflow');
  const east = (hr * 60 + min) * 60 + sec;
  if (cp !== str.length) fail('bad-format');
  return str[0] === '-' ? east : -east;
}

/** Output of the decoders that also track two-digit years. */
export interface DateState {
  is2digits: boolean;
}

/**
 * DecodeNumberField: a run of digits as yyyymmdd / yymmdd (no date yet) or hhmmss / hhmm, with an
 * optional fraction of a second. Returns the mask it filled and whether it read a date or a time.
 */
export function decodeNumberField(str: string, fmask: number, tm: Tm, st: DateState): { tmask: number; kind: 'date' | 'time' } {
  let s = str;
  const dot = s.indexOf('.');
  if (dot >= 0) {
    const frac = s.slice(dot);
    // strtod reads the leading '.digits'; anything after is ignored here.
    tm.fsec = frac === '.' ? 0 : rint(Number('0' + (/^\.\d*/.exec(frac)?.[0] ?? '.')) * 1_000_000);
    s = s.slice(0, dot);
  } else if ((fmask & DATE_M) !== DATE_M && s.length >= 6) {
    const len = s.length;
    tm.mday = atoi(s.slice(len - 2));
    tm.mon = atoi(s.slice(len - 4, len - 2));
    tm.year = atoi(s.slice(0, len - 4));
    if (len - 4 === 2) st.is2digits = true;
    return { tmask: DATE_M, kind: 'date' };
  }
  if ((fmask & TIME_M) !== TIME_M) {
    if (s.length === 6) {
      tm.sec = atoi(s.slice(4));
      tm.min = atoi(s.slice(2, 4));
      tm.hour = atoi(s.slice(0, 2));
      return { tmask: TIME_M, kind: 'time' };
    }
    if (s.length === 4) {
      tm.sec = 0;
      tm.min = atoi(s.slice(2));
      tm.hour = atoi(s.slice(0, 2));
      return { tmask: TIME_M, kind: 'time' };
    }
  }
  return fail('bad-format');
}

/** DecodeNumber: one number in a date, placed by what is known so far and DateStyle's order. Returns its mask. */
export function decodeNumber(str: string, haveTextMonth: boolean, fmask: number, tm: Tm, st: DateState, order: DateOrder): number {
  const n = strtoint(str) ?? fail('field-overflow');
  if (n.end === 0) fail('bad-format');
  const val = n.value;
  const flen = str.length;
  if (str[n.end] === '.') {
    // More than two digits before the point: a date or a run-together time (2001.360, 040506.789).
    if (n.end > 2) return decodeNumberField(str, fmask | DATE_M, tm, st).tmask;
    tm.fsec = parseFractionalSecond(str.slice(n.end));
  } else if (n.end !== flen) fail('bad-format');
  // A day of the year after a year alone.
  if (flen === 3 && (fmask & DATE_M) === YEAR && val >= 1 && val <= 366) {
    tm.yday = val;
    return MASK.doy | MONTH | DAY;
  }
  let tmask: number;
  switch (fmask & DATE_M) {
    case 0:
      if (flen >= 3 || order === 'YMD') {
        tmask = YEAR;
        tm.year = val;
      } else if (order === 'DMY') {
        tmask = DAY;
        tm.mday = val;
      } else {
        tmask = MONTH;
        tm.mon = val;
      }
      break;
    case YEAR:
      tmask = MONTH;
      tm.mon = val;
      break;
    case MONTH:
      if (haveTextMonth && (flen >= 3 || order === 'YMD')) {
        tmask = YEAR;
        tm.year = val;
      } else {
        tmask = DAY;
        tm.mday = val;
      }
      break;
    case YEAR | MONTH:
      tmask = DAY;
      if (haveTextMonth && flen >= 3 && st.is2digits) {
        // DD-MON-YYYY: the first number was the day after all.
        tm.mday = tm.year;
        tm.year = val;
        st.is2digits = false;
      } else tm.mday = val;
      break;
    case DAY:
      tmask = MONTH;
      tm.mon = val;
      break;
    case MONTH | DAY:
      tmask = YEAR;
      tm.year = val;
      break;
    case DATE_M:
      return decodeNumberField(str, fmask, tm, st).tmask;
    default:
      return fail('bad-format');
  }
  if (tmask === YEAR) st.is2digits = flen <= 2;
  return tmask;
}

/** DecodeDate: a date field ('1999-01-08', '1/8/1999', '08-jan-99', 'jan-08-1999'): text months first, then numbers. */
export function decodeDate(str: string, fmask0: number, tm: Tm, st: DateState, order: DateOrder): number {
  let fmask = fmask0;
  let tmask = 0;
  const parts: (string | null)[] = [];
  let i = 0;
  while (i < str.length && parts.length < 25) {
    while (i < str.length && !isAsciiDigit(str[i]) && !isAsciiAlpha(str[i])) i++;
    if (i >= str.length) fail('bad-format');
    const start = i;
    if (isAsciiDigit(str[i])) while (isAsciiDigit(str[i])) i++;
    else while (isAsciiAlpha(str[i])) i++;
    parts.push(str.slice(start, i));
    // PostgreSQL ends the part by overwriting the character after it, whatever it is ('08-jan-99x').
    if (i < str.length) i++;
  }
  let haveTextMonth = false;
  for (let k = 0; k < parts.length; k++) {
    const p = parts[k] as string;
    if (!isAsciiAlpha(p[0])) continue;
    const kw = KEYWORDS.get(p);
    if (kw?.type === T.ignore) continue;
    if (kw?.type !== T.month) return fail('bad-format');
    tm.mon = kw.value;
    haveTextMonth = true;
    if (fmask & MONTH) fail('bad-format');
    fmask |= MONTH;
    tmask |= MONTH;
    parts[k] = null;
  }
  for (const p of parts) {
    if (p === null) continue;
    if (p.length === 0) fail('bad-format');
    const dmask = decodeNumber(p, haveTextMonth, fmask, tm, st, order);
    if (fmask & dmask) fail('bad-format');
    fmask |= dmask;
    tmask |= dmask;
  }
  if ((fmask & ~(MASK.doy | MASK.tz)) !== DATE_M) fail('bad-format');
  return tmask;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** ValidateDate: years of AD/BC and two digits made absolute, a day of the year placed, months and days checked. */
export function validateDate(fmask: number, isJulian: boolean, is2digits: boolean, bc: boolean, tm: Tm): void {
  if (fmask & YEAR) {
    if (isJulian) {
      // The Julian day's year is already right.
    } else if (bc) {
      if (tm.year <= 0) fail('field-overflow');
      tm.year = -(tm.year - 1);
    } else if (is2digits) {
      if (tm.year < 0) fail('field-overflow');
      if (tm.year < 70) tm.year += 2000;
      else if (tm.year < 100) tm.year += 1900;
    } else if (tm.year <= 0) fail('field-overflow');
  }
  if (fmask & MASK.doy) j2date(date2j(tm.year, 1, 1) + tm.yday - 1, tm);
  if (fmask & MONTH && (tm.mon < 1 || tm.mon > 12)) fail('md-field-overflow');
  if (fmask & DAY && (tm.mday < 1 || tm.mday > 31)) fail('md-field-overflow');
  if ((fmask & DATE_M) === DATE_M) {
    const dim = tm.mon === 2 && isLeap(tm.year) ? 29 : (DAYS_IN_MONTH[tm.mon - 1] as number);
    if (tm.mday > dim) fail('field-overflow');
  }
}
