// to_char(timestamp | timestamptz | date, template) as PostgreSQL 15's formatting.c writes it in the C
// locale (a timestamptz as its wall clock in the session's zone, TZ and OF its zone there): template patterns (HH24, MI, SS, MS, US, FF1-FF6, YYYY, MM, Month, Mon, DD,
// Day, Dy, D, DDD, IW, IYYY, WW, W, Q, CC, J, AM/PM, BC/AD, TZ, OF, ...), the FM prefix (no padding) and
// the TH/th suffix (ordinal); the template is parsed by datetime-template.ts, its text nodes copied.

import { civilFromDays, clockOf, daysFromCivil, localOf, sessionOffsetAt, type SqlTimestamp } from './datetime.ts';
import { sessionZoneAbbreviation } from './session-zone.ts';
import { parseTemplate } from './datetime-template.ts';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const ROMAN = ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X', 'XI', 'XII'];

/** Calendar fields of one timestamp, computed once per call. */
interface Fields {
  readonly y: number; // astronomical year (0 = 1 BC)
  readonly m: number;
  readonly d: number;
  readonly days: number; // since 1970-01-01
  readonly h: number;
  readonly mi: number;
  readonly s: number;
  readonly us: number;
  /** A timestamptz's zone in the session: its abbreviation and offset east (null for timestamp and date). */
  readonly zone: { readonly abbrev: string; readonly east: number } | null;
}

const pad = (n: number, w: number): string => (n < 0 ? '-' + String(-n).padStart(w, '0') : String(n).padStart(w, '0'));

function ordinal(n: number, upper: boolean): string {
  const t = n % 100;
  const s = t >= 11 && t <= 13 ? 'th' : n % 10 === 1 ? 'st' : n % 10 === 2 ? 'nd' : n % 10 === 3 ? 'rd' : 'th';
  return upper ? s.toUpperCase() : s;
}

/** ISO 8601 week-numbering year and week of a day. */
function isoWeek(days: number): { year: number; week: number } {
  const dow = (((days + 3) % 7) + 7) % 7; // Monday = 0
  const thursday = days - dow + 3;
  const [year] = civilFromDays(thursday);
  const firstThursday = daysFromCivil(year, 1, 4);
  const week1Monday = firstThursday - ((((firstThursday + 3) % 7) + 7) % 7);
  return { year, week: Math.floor((days - week1Monday) / 7) + 1 };
}

function cased(word: string, pattern: string): string {
  if (pattern === pattern.toUpperCase()) return word.toUpperCase();
  if (pattern === pattern.toLowerCase()) return word.toLowerCase();
  return word;
}

/** One pattern's text; `fm`: no padding. Numeric patterns return their number for TH. */
function field(p: string, f: Fields, fm: boolean): { text: string; n?: number } {
  const east = f.zone?.east ?? 0;
  const num = (n: number, w: number): { text: string; n: number } => ({ text: fm ? String(n) : pad(n, w), n });
  const bc = f.y <= 0;
  const year = bc ? 1 - f.y : f.y;
  const dayOfYear = f.days - daysFromCivil(f.y, 1, 1) + 1;
  const dow = (((f.days + 4) % 7) + 7) % 7; // Sunday = 0
  const isoYear = (): number => {
    const iy = isoWeek(f.days).year;
    return iy <= 0 ? 1 - iy : iy;
  };
  switch (p) {
    case 'HH24': return num(f.h, 2);
    case 'HH12':
    case 'HH': return num(f.h % 12 === 0 ? 12 : f.h % 12, 2);
    case 'MI': return num(f.mi, 2);
    case 'SS': return num(f.s, 2);
    case 'SSSS':
    case 'SSSSS': return { text: String(f.h * 3600 + f.mi * 60 + f.s), n: f.h * 3600 + f.mi * 60 + f.s };
    case 'MS': return num(Math.floor(f.us / 1000), 3);
    case 'US': return num(f.us, 6);
    case 'FF1': case 'FF2': case 'FF3': case 'FF4': case 'FF5': case 'FF6': {
      const digits = Number(p[2]);
      return num(Math.floor(f.us / 10 ** (6 - digits)), digits);
    }
    case 'AM': case 'PM': return { text: f.h < 12 ? 'AM' : 'PM' };
    case 'am': case 'pm': return { text: f.h < 12 ? 'am' : 'pm' };
    case 'A.M.': case 'P.M.': return { text: f.h < 12 ? 'A.M.' : 'P.M.' };
    case 'a.m.': case 'p.m.': return { text: f.h < 12 ? 'a.m.' : 'p.m.' };
    case 'Y,YYY': return { text: `${Math.floor(year / 1000)},${pad(year % 1000, 3)}`, n: year };
    case 'YYYY': return num(year, 4);
    case 'YYY': return num(year % 1000, 3);
    case 'YY': return num(year % 100, 2);
    case 'Y': return num(year % 10, 1);
    case 'IYYY': return num(isoYear(), 4);
    case 'IYY': return num(isoYear() % 1000, 3);
    case 'IY': return num(isoYear() % 100, 2);
    case 'I': return num(isoYear() % 10, 1);
    case 'IDDD': {
      const w = isoWeek(f.days);
      return num((w.week - 1) * 7 + (dow === 0 ? 7 : dow), 3);
    }
    case 'ID': return num(dow === 0 ? 7 : dow, 1);
    case 'BC': case 'AD': return { text: bc ? 'BC' : 'AD' };
    case 'bc': case 'ad': return { text: bc ? 'bc' : 'ad' };
    case 'B.C.': case 'A.D.': return { text: bc ? 'B.C.' : 'A.D.' };
    case 'b.c.': case 'a.d.': return { text: bc ? 'b.c.' : 'a.d.' };
    case 'MONTH': case 'Month': case 'month': {
      const name = cased(MONTHS[f.m - 1]!, p);
      return { text: fm ? name : name.padEnd(9) };
    }
    case 'MON': case 'Mon': case 'mon': return { text: cased(MONTHS[f.m - 1]!.slice(0, 3), p) };
    case 'MM': return num(f.m, 2);
    case 'DAY': case 'Day': case 'day': {
      const name = cased(DAYS[dow]!, p);
      return { text: fm ? name : name.padEnd(9) };
    }
    case 'DY': case 'Dy': case 'dy': return { text: cased(DAYS[dow]!.slice(0, 3), p) };
    case 'DDD': return num(dayOfYear, 3);
    case 'DD': return num(f.d, 2);
    case 'D': return num(dow + 1, 1);
    case 'WW': return num(Math.floor((dayOfYear - 1) / 7) + 1, 2);
    case 'W': return num(Math.floor((f.d - 1) / 7) + 1, 1);
    case 'IW': return num(isoWeek(f.days).week, 2);
    case 'CC': {
      const cc = bc ? -Math.floor((year - 1) / 100) - 1 : Math.floor((year - 1) / 100) + 1;
      return num(cc, 2);
    }
    case 'J': return { text: String(f.days + 2_440_588), n: f.days + 2_440_588 };
    case 'Q': return num(Math.floor((f.m - 1) / 3) + 1, 1);
    case 'RM': return { text: fm ? ROMAN[f.m - 1]! : ROMAN[f.m - 1]!.padEnd(4) };
    case 'rm': return { text: (fm ? ROMAN[f.m - 1]! : ROMAN[f.m - 1]!.padEnd(4)).toLowerCase() };
    // A timestamptz shows the session zone's abbreviation and offset then; a timestamp none, offsets +00.
    case 'TZ': return { text: f.zone?.abbrev.toUpperCase() ?? '' };
    case 'tz': return { text: f.zone?.abbrev.toLowerCase() ?? '' };
    case 'TZH': return { text: `${east < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(east) / 3600), 2)}` };
    case 'TZM': return { text: pad(Math.floor((Math.abs(east) % 3600) / 60), 2) };
    case 'OF': {
      const abs = Math.abs(east);
      const h = fm ? String(Math.floor(abs / 3600)) : pad(Math.floor(abs / 3600), 2);
      return { text: `${east < 0 ? '-' : '+'}${h}${abs % 3600 !== 0 ? `:${pad(Math.floor((abs % 3600) / 60), 2)}` : ''}` };
    }
    case 'FX': return { text: '' };
    default: return { text: p };
  }
}

/** to_char of a timestamp (`tz` false) or of a timestamptz, written as its wall clock in the session's zone. */
export function toChar(at: SqlTimestamp, template: string, tz: boolean): string {
  const t = tz ? localOf(at) : at;
  const [y, m, d] = civilFromDays(t.days);
  const f: Fields = { y, m, d, days: t.days, ...clockOf(t), zone: tz ? { abbrev: sessionZoneAbbreviation(at.micros), east: sessionOffsetAt(at.micros) } : null };
  let out = '';
  for (const node of parseTemplate(template)) {
    if (node.kind !== 'field') {
      out += node.ch;
      continue;
    }
    const r = field(node.key.pattern, f, node.fm);
    out += r.text;
    if (node.suffix !== '' && r.n !== undefined) out += ordinal(r.n, node.suffix === 'TH');
  }
  return out;
}
