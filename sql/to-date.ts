// to_date(text, text) and to_timestamp(text, text): the input read against a template (datetime-template.ts)
// as PostgreSQL 15's formatting.c does it (DCH_from_char, then do_to_timestamp).
//
// Reading. Outside FX mode, white space is skipped at the start and around fields; a separator or space of
// the template takes one separator or space of the input if there is one, and any other template character
// takes one input character whatever it is. Number fields read their pattern's width (YYYY four digits,
// MM two) unless FM is given or the next node is not a digit field, when they read as many digits as there
// are. Names (Month, Mon, Day, Dy, AM, BC, RM) match case-insensitively. A field set twice to different
// values is an error; 0 counts as unset, as in PostgreSQL. Reading stops at the end of the input or of the
// template, so fields past either are simply missing.
//
// Assembly. Missing fields default to PostgreSQL's zeroed struct: year 0 (1 BC), January, the 1st,
// midnight. Two- and three-digit years move to the nearest year to 2020; CC with a year of at most two
// digits picks the century; J sets the whole date; ISO week fields (IYYY, IW, ID, IDDD) cannot be mixed
// with Gregorian ones. Day-of-month overflow is checked only when year, month and day were all given
// (to_date('02-30', 'MM-DD') is 1 BC's March 1st, as PostgreSQL computes it). TZ and OF are refused, as
// PostgreSQL 15 refuses them; TZH/TZM give the input's offset, else the session's zone is used.

import { SqlError, SqlState } from './errors.ts';
import { checkedDate, checkedTimestamp, civilFromDays, daysFromCivil, isLeap, MICROS_PER_DAY, PG_EPOCH_MICROS, type SqlDate, type SqlTimestamp } from './datetime.ts';
import { parseTemplate, type DateMode, type TemplateNode } from './datetime-template.ts';
import { sessionZone } from './session-zone.ts';
import { instantOfWallClock } from './time-zones.ts';

type FieldNode = Extract<TemplateNode, { kind: 'field' }>;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const WORDS: Record<string, readonly string[]> = {
  MONTH: MONTHS, MON: MONTHS.map((m) => m.slice(0, 3)), DAY: DAYS, DY: DAYS.map((d) => d.slice(0, 3)),
  AM: ['am', 'pm', 'AM', 'PM'], 'A.M.': ['a.m.', 'p.m.', 'A.M.', 'P.M.'], AD: ['ad', 'bc', 'AD', 'BC'], 'A.D.': ['a.d.', 'b.c.', 'A.D.', 'B.C.'],
  RM: ['xii', 'xi', 'x', 'ix', 'viii', 'vii', 'vi', 'v', 'iv', 'iii', 'ii', 'i'],
};
/** Patterns that read another's list (PM reads AM's: either meridiem goes with either pattern). */
const SAME_WORDS: Record<string, string> = { PM: 'AM', 'P.M.': 'A.M.', BC: 'AD', 'B.C.': 'A.D.' };

/** The fields read, each 0 while unset (PostgreSQL's TmFromChar). */
interface FromChar {
  mode: DateMode;
  hh: number; pm: number; mi: number; ss: number; ssss: number; d: number; dd: number; ddd: number; mm: number;
  ms: number; year: number; bc: number; ww: number; w: number; cc: number; j: number; us: number; yysz: number;
  clock12: boolean; tzsign: number; tzh: number; tzm: number; ff: number;
}
type IntField = 'hh' | 'pm' | 'mi' | 'ss' | 'ssss' | 'd' | 'dd' | 'ddd' | 'mm' | 'ms' | 'year' | 'bc' | 'ww' | 'w' | 'cc' | 'j' | 'us' | 'tzh' | 'tzm';

const isSpace = (c: string | undefined): boolean => c !== undefined && ' \t\n\v\f\r'.includes(c);
const isSeparator = (c: string | undefined): boolean => c !== undefined && c > ' ' && c < '\x7f' && !/[A-Za-z0-9]/.test(c);
const badFormat = (message: string, detail?: string, hint?: string): SqlError => new SqlError(SqlState.invalidDatetimeFormat, message, detail, undefined, hint);
const FM_HINT = 'If your source string is not fixed-width, try using the "FM" modifier.';

/** C's strtol over `s` from `at`: white space, a sign, digits; `end` is `at` when no digits follow. */
function strtol(s: string, at: number): { value: number; end: number } {
  const m = /^[ \t\n\v\f\r]*([+-]?)(\d+)/.exec(s.slice(at));
  if (m === null) return { value: 0, end: at };
  const digits = Number(m[2]);
  return { value: m[1] === '-' ? -digits : digits, end: at + m[0].length };
}

class Reader {
  pos = 0;
  /** Input characters skipped beyond what the template asked for (outside FX mode). */
  extraSkip = 0;
  readonly out: FromChar = {
    mode: 'none', hh: 0, pm: 0, mi: 0, ss: 0, ssss: 0, d: 0, dd: 0, ddd: 0, mm: 0, ms: 0, year: 0, bc: 0, ww: 0, w: 0, cc: 0, j: 0, us: 0,
    yysz: 0, clock12: false, tzsign: 0, tzh: 0, tzm: 0, ff: 0,
  };
  constructor(readonly s: string, readonly nodes: readonly TemplateNode[]) {}

  set(field: IntField, value: number, node: FieldNode): void {
    const cur = this.out[field];
    if (cur !== 0 && cur !== value) {
      throw badFormat(`conflicting values for "${node.key.name}" field in formatting string`, 'This value contradicts a previous setting for the same field type.');
    }
    this.out[field] = value;
  }

  /** Whether the node after `index` cannot hold digits, so that a number field may read any width. */
  nextIsSeparator(index: number): boolean {
    const n = this.nodes[index]!;
    if (n.kind === 'field' && n.suffix !== '') return true;
    const next = this.nodes[index + 1];
    if (next === undefined) return true;
    if (next.kind === 'field') return !next.key.isDigit;
    return !/^\d$/.test(next.ch);
  }

  /** A number of `len` characters (or any width), into `field`; returns the characters consumed. */
  int(field: IntField | null, index: number, len: number): number {
    const node = this.nodes[index] as FieldNode;
    const init = this.pos;
    const s = this.s;
    while (isSpace(s[this.pos])) this.pos++;
    const copy = s.slice(this.pos, this.pos + len);
    let value: number;
    if (node.fm || this.nextIsSeparator(index)) {
      const r = strtol(s, init);
      value = r.value;
      this.pos = r.end;
    } else {
      const remain = s.length - this.pos;
      if (remain < len) {
        throw badFormat(`source string too short for "${node.key.name}" formatting field`, `Field requires ${len} characters, but only ${remain} remain.`, FM_HINT);
      }
      const r = strtol(copy, 0);
      if (r.end > 0 && r.end < len) {
        throw badFormat(`invalid value "${copy}" for "${node.key.name}"`, `Field requires ${len} characters, but only ${r.end} could be parsed.`, FM_HINT);
      }
      value = r.value;
      this.pos += r.end;
    }
    if (this.pos === init) throw badFormat(`invalid value "${copy}" for "${node.key.name}"`, 'Value must be an integer.');
    if (value < -2147483648 || value > 2147483647) {
      throw new SqlError(SqlState.datetimeFieldOverflow, `value for "${node.key.name}" in source string is out of range`, 'Value must be in the range -2147483648 to 2147483647.');
    }
    if (field !== null) this.set(field, value, node);
    return this.pos - init;
  }

  /** The index in `words` of the first one the input starts with, ignoring case. */
  word(words: readonly string[], node: FieldNode): number {
    const rest = this.s.slice(this.pos);
    const at = words.findIndex((w) => w.length <= rest.length && rest.slice(0, w.length).toLowerCase() === w.toLowerCase());
    if (at < 0) {
      const shown = rest.split(/[ \t\n\r\f]/)[0]!;
      throw badFormat(`invalid value "${shown}" for "${node.key.name}"`, 'The given value did not match any of the allowed values for this field.');
    }
    this.pos += words[at]!.length;
    return at;
  }

  skipTh(node: FieldNode): void {
    if (node.suffix !== '') this.pos = Math.min(this.s.length, this.pos + 2);
  }
}

function readField(r: Reader, index: number): void {
  const node = r.nodes[index] as FieldNode;
  const p = node.key.pattern.toUpperCase();
  const out = r.out;
  const num = (field: IntField | null, len = node.key.name.length): number => {
    const used = r.int(field, index, len);
    r.skipTh(node);
    return used;
  };
  const partialYear = (): void => {
    if (num('year') < 4) out.year = nearest2020(out.year);
  };
  switch (p) {
    case 'FX': return;
    case 'AM': case 'PM': case 'A.M.': case 'P.M.':
      r.set('pm', r.word(WORDS[SAME_WORDS[p] ?? p]!, node) % 2, node);
      out.clock12 = true;
      return;
    case 'AD': case 'BC': case 'A.D.': case 'B.C.':
      r.set('bc', r.word(WORDS[SAME_WORDS[p] ?? p]!, node) % 2, node);
      return;
    case 'HH': case 'HH12':
      num('hh', 2);
      out.clock12 = true;
      return;
    case 'HH24': num('hh', 2); return;
    case 'MI': num('mi'); return;
    case 'SS': num('ss'); return;
    case 'SSSS': case 'SSSSS': num('ssss'); return;
    case 'MS': {
      const len = num('ms', 3);
      out.ms *= len === 1 ? 100 : len === 2 ? 10 : 1;
      return;
    }
    case 'US': case 'FF1': case 'FF2': case 'FF3': case 'FF4': case 'FF5': case 'FF6': {
      if (p !== 'US') out.ff = Number(p[2]);
      const len = num('us', p === 'US' ? 6 : out.ff);
      out.us *= 10 ** Math.max(0, 6 - len);
      return;
    }
    case 'TZ': case 'OF':
      throw new SqlError(SqlState.featureNotSupported, `formatting field "${node.key.name}" is only supported in to_char`);
    case 'TZH': {
      const c = r.s[r.pos];
      if (c === '+' || c === '-' || c === ' ') {
        out.tzsign = c === '-' ? -1 : 1;
        r.pos++;
      } else {
        out.tzsign = r.extraSkip > 0 && r.s[r.pos - 1] === '-' ? -1 : 1;
      }
      r.int('tzh', index, 2);
      return;
    }
    case 'TZM':
      if (out.tzsign === 0) out.tzsign = 1;
      r.int('tzm', index, 2);
      return;
    case 'MONTH': case 'MON': r.set('mm', r.word(WORDS[p]!, node) + 1, node); return;
    case 'DAY': case 'DY':
      // Set as Sunday = 0, then moved to D's numbering: a second day name always conflicts, as in PostgreSQL.
      r.set('d', r.word(WORDS[p]!, node), node);
      out.d++;
      return;
    case 'RM': r.set('mm', 12 - r.word(WORDS.RM!, node), node); return;
    case 'MM': num('mm'); return;
    case 'DDD': num('ddd'); return;
    case 'IDDD': num('ddd', 3); return;
    case 'DD': num('dd'); return;
    case 'D': num('d'); return;
    case 'ID':
      num('d', 1);
      if (++out.d > 7) out.d = 1;
      return;
    case 'WW': case 'IW': num('ww'); return;
    case 'W': num('w'); return;
    case 'Q': num(null); return; // read, and ignored, as PostgreSQL does
    case 'CC': num('cc'); return;
    case 'J': num('j'); return;
    case 'Y,YYY': {
      const m = /^[ \t\n\v\f\r]*([+-]?\d+),[ \t\n\v\f\r]*([+-]\d{1,2}|\d{1,3})/.exec(r.s.slice(r.pos));
      if (m === null) throw badFormat('invalid input string for "Y,YYY"');
      r.set('year', Number(m[1]) * 1000 + Number(m[2]), node);
      out.yysz = 4;
      r.pos += m[0].length;
      r.skipTh(node);
      return;
    }
    case 'YYYY': case 'IYYY': num('year'); out.yysz = 4; return;
    case 'YYY': case 'IYY': partialYear(); out.yysz = 3; return;
    case 'YY': case 'IY': partialYear(); out.yysz = 2; return;
    case 'Y': case 'I': partialYear(); out.yysz = 1; return;
    default: throw new Error(`unhandled template pattern ${p}`);
  }
}

/** A year of fewer than four digits as the nearest such year to 2020 (PostgreSQL's adjust_partial_year_to_2020). */
function nearest2020(year: number): number {
  if (year < 70) return year + 2000;
  if (year < 100) return year + 1900;
  if (year < 520) return year + 2000;
  if (year < 1000) return year + 1000;
  return year;
}

/** The template's fields read from `s` (DCH_from_char). */
function readAll(s: string, template: string): FromChar {
  const r = new Reader(s, parseTemplate(template));
  let fx = false;
  for (let i = 0; i < r.nodes.length && r.pos < s.length; i++) {
    const n = r.nodes[i]!;
    const isFx = n.kind === 'field' && n.key.pattern === 'FX';
    if (!fx && !isFx && (n.kind === 'field' || i === 0)) {
      while (isSpace(s[r.pos])) {
        r.pos++;
        r.extraSkip++;
      }
    }
    if (n.kind !== 'field') {
      if (n.kind === 'text') {
        // Any one input character, unless extra white space skipped before stands in for it.
        if (!fx && r.extraSkip > 0) r.extraSkip--;
        else r.pos += String.fromCodePoint(s.codePointAt(r.pos)!).length;
      } else if (fx) r.pos += String.fromCodePoint(s.codePointAt(r.pos)!).length;
      else {
        r.extraSkip--;
        if (isSpace(s[r.pos]) || isSeparator(s[r.pos])) {
          r.pos++;
          r.extraSkip++;
        }
      }
      continue;
    }
    if (n.key.mode !== 'none') {
      if (r.out.mode === 'none') r.out.mode = n.key.mode;
      else if (r.out.mode !== n.key.mode) {
        throw badFormat('invalid combination of date conventions', undefined, 'Do not mix Gregorian and ISO week date conventions in a formatting template.');
      }
    }
    if (isFx) fx = true;
    readField(r, i);
    if (!fx) {
      r.extraSkip = 0;
      while (isSpace(s[r.pos])) {
        r.pos++;
        r.extraSkip++;
      }
    }
  }
  return r.out;
}

const CUMULATIVE = [[0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365], [0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335, 366]];
const MONTH_DAYS = [[31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31], [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]];
const JULIAN_1970 = 2_440_588;

/** Days since 1970 of the Monday starting ISO week `week` of ISO year `year` (PostgreSQL's isoweek2j). */
function isoWeekStart(year: number, week: number): number {
  const day4 = daysFromCivil(year, 1, 4);
  const dow = ((((day4 - 1 + 4) % 7) + 7) % 7); // of the day before, Sunday = 0
  return (week - 1) * 7 + day4 - dow;
}

interface Parsed {
  /** Days since 1970 of the date read (its day of month may overflow into the next month, as in PostgreSQL). */
  readonly days: number;
  /** Microseconds since midnight. */
  readonly timeMicros: number;
  /** Offset east of UTC in seconds, when TZH/TZM gave one. */
  readonly offsetSecs: number | null;
  /** FF1-FF6's digits: to_timestamp rounds its result to them. */
  readonly ff: number;
}

const fieldOverflow = (s: string): SqlError => new SqlError(SqlState.datetimeFieldOverflow, `date/time field value out of range: "${s}"`);

/** The date and time `s` holds under `template` (do_to_timestamp). */
function parse(s: string, template: string): Parsed {
  const f = readAll(s, template);
  let year = 0;
  let mon = 1;
  let mday = 1;
  let hour = 0;
  let min = 0;
  let sec = 0;
  let yearSet = false;
  let monSet = false;
  let daySet = false;
  // J and ISO week fields set the whole date, which later fields may still change.
  const setDays = (days: number): void => {
    [year, mon, mday] = civilFromDays(days);
    yearSet = monSet = daySet = true;
  };
  if (f.ssss !== 0) {
    hour = Math.trunc(f.ssss / 3600);
    min = Math.trunc((f.ssss % 3600) / 60);
    sec = f.ssss % 60;
  }
  if (f.ss !== 0) sec = f.ss;
  if (f.mi !== 0) min = f.mi;
  if (f.hh !== 0) hour = f.hh;
  if (f.clock12) {
    if (hour < 1 || hour > 12) throw badFormat(`hour "${hour}" is invalid for the 12-hour clock`, undefined, 'Use the 24-hour clock, or give an hour between 1 and 12.');
    if (f.pm !== 0 && hour < 12) hour += 12;
    else if (f.pm === 0 && hour === 12) hour = 0;
  }
  if (f.year !== 0) {
    if (f.cc !== 0 && f.yysz <= 2) {
      const cc = f.bc !== 0 ? -f.cc : f.cc;
      year = f.year % 100;
      if (year !== 0) year = cc >= 0 ? year + (cc - 1) * 100 : (cc + 1) * 100 - year + 1;
      else year = cc * 100 + (cc >= 0 ? 0 : 1);
    } else {
      year = f.bc !== 0 ? -f.year : f.year;
      if (year < 0) year++;
    }
    yearSet = true;
  } else if (f.cc !== 0) {
    const cc = f.bc !== 0 ? -f.cc : f.cc;
    year = cc >= 0 ? (cc - 1) * 100 + 1 : cc * 100 + 1;
    yearSet = true;
  }
  if (f.j !== 0) setDays(f.j - JULIAN_1970);
  let ddd = f.ddd;
  let dd = f.dd;
  if (f.ww !== 0) {
    if (f.mode === 'isoweek') {
      const start = isoWeekStart(year, f.ww);
      setDays(f.d === 0 ? start : start + (f.d > 1 ? f.d - 2 : 6));
    } else ddd = (f.ww - 1) * 7 + 1;
  }
  if (f.w !== 0) dd = (f.w - 1) * 7 + 1;
  if (dd !== 0) {
    mday = dd;
    daySet = true;
  }
  if (f.mm !== 0) {
    mon = f.mm;
    monSet = true;
  }
  if (ddd !== 0 && (mon <= 1 || mday <= 1)) {
    if (year === 0 && f.bc === 0) throw badFormat('cannot calculate day of year without year information');
    if (f.mode === 'isoweek') setDays(isoWeekStart(year, 1) - 1 + ddd);
    else {
      const sums = CUMULATIVE[isLeap(year) ? 1 : 0]!;
      let i = 1;
      while (i <= 12 && ddd > sums[i]!) i++;
      if (mon <= 1) mon = i;
      if (mday <= 1) mday = ddd - (sums[i - 1] ?? 0);
      monSet = daySet = true;
    }
  }
  const fsec = f.ms * 1000 + f.us;
  if ((monSet && (mon < 1 || mon > 12)) || (daySet && (mday < 1 || mday > 31))) throw fieldOverflow(s);
  if (yearSet && monSet && daySet && mday > MONTH_DAYS[isLeap(year) ? 1 : 0]![mon - 1]!) throw fieldOverflow(s);
  if (hour < 0 || hour >= 24 || min < 0 || min >= 60 || sec < 0 || sec >= 60 || fsec < 0 || fsec >= 1_000_000) throw fieldOverflow(s);
  let offsetSecs: number | null = null;
  if (f.tzsign !== 0) {
    if (f.tzh < 0 || f.tzh > 15 || f.tzm < 0 || f.tzm >= 60) {
      throw new SqlError(SqlState.invalidTimeZoneDisplacementValue, `time zone displacement out of range: "${s}"`);
    }
    offsetSecs = f.tzsign * (f.tzh * 3600 + f.tzm * 60);
  }
  return { ff: f.ff, days: daysFromCivil(year, mon, mday), timeMicros: ((hour * 60 + min) * 60 + sec) * 1_000_000 + fsec, offsetSecs };
}

/** to_date(text, text). */
export function toDate(s: string, template: string): SqlDate {
  return checkedDate(parse(s, template).days, s);
}

/** to_timestamp(text, text): the wall clock read, at its TZH/TZM offset or else in the session's zone. */
export function toTimestamp(s: string, template: string): SqlTimestamp {
  const p = parse(s, template);
  const local = BigInt(p.days) * BigInt(MICROS_PER_DAY) + BigInt(p.timeMicros);
  const t = checkedTimestamp(p.offsetSecs === null ? instantOfWallClock(sessionZone(), local) : local - BigInt(p.offsetSecs * 1_000_000));
  return p.ff === 0 ? t : checkedTimestamp(roundMicros(t.micros, p.ff));
}

/** Microseconds rounded to `digits` fractional digits, halves away from PostgreSQL's epoch (AdjustTimestampForTypmod). */
function roundMicros(micros: bigint, digits: number): bigint {
  const unit = 10n ** BigInt(6 - digits);
  const sincePg = micros - PG_EPOCH_MICROS;
  const abs = sincePg < 0n ? -sincePg : sincePg;
  const rounded = ((abs + unit / 2n) / unit) * unit;
  return (sincePg < 0n ? -rounded : rounded) + PG_EPOCH_MICROS;
}
