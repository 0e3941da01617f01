// The first step of PostgreSQL's date/time text input (ParseDateTime in src/backend/utils/adt/datetime.c):
// the text split into fields, each with a kind that says how the decoder (datetime-decode.ts) reads it.
// A run of digits followed by ':' is a time ('04:05:06.7'); by '-', '/' or '.' a date ('1999-01-08',
// '1/8/1999', '08-jan-99', but '2026.341' is a number); otherwise a number ('20261207', '7'). A run of
// letters is a string (a month, a weekday, a keyword, a zone abbreviation), or a date or a zone name
// when punctuation or digits follow a word that is no keyword ('america/new_york', 'utc+3'). A sign
// starts a numeric zone ('-08:00') or a special word ('-infinity'). Other punctuation only separates.
// Letters are lower-cased, as PostgreSQL's field texts are (its messages quote them so).
//
// Also here: the keyword table (datetktbl) the decoder and DecodeDate look words up in. PostgreSQL 15's;
// it has no ordinal suffixes ('7th' is an error) and no ISO week dates.

export const FieldKind = { number: 'number', string: 'string', date: 'date', time: 'time', tz: 'tz', special: 'special' } as const;
export type FieldKind = (typeof FieldKind)[keyof typeof FieldKind];

export interface Field {
  text: string;
  kind: FieldKind;
}

/** PostgreSQL's MAXDATEFIELDS and the work buffer's size (MAXDATELEN + MAXDATEFIELDS): longer input is bad format. */
const FIELDS_MAX = 25;
const BUFFER_MAX = 128 + 25;

/** ASCII classes of a character code (NaN past the end is none of them), as C's <ctype.h> in the C locale. */
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isAlpha = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
const isAlnum = (c: number): boolean => isDigit(c) || isAlpha(c);
const isSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13);
const isPunct = (c: number): boolean => (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126);
export const isAsciiDigit = (c: string | undefined): boolean => c !== undefined && isDigit(c.charCodeAt(0));
export const isAsciiAlpha = (c: string | undefined): boolean => c !== undefined && isAlpha(c.charCodeAt(0));
const COLON = 58;
const MINUS = 45;
const PLUS = 43;
const SLASH = 47;
const DOT = 46;
const UNDERSCORE = 95;

/** The fields of `text`, or null where PostgreSQL's ParseDateTime returns DTERR_BAD_FORMAT. */
export function splitFields(text: string): Field[] | null {
  const fields: Field[] = [];
  let used = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (fields.length >= FIELDS_MAX) return null;
    const start = i;
    let prefix = '';
    let kind: FieldKind;
    if (isDigit(c)) {
      while (isDigit(text.charCodeAt(i))) i++;
      if (text.charCodeAt(i) === COLON) {
        kind = FieldKind.time;
        i++;
        while (isDigit(text.charCodeAt(i)) || text.charCodeAt(i) === COLON || text.charCodeAt(i) === DOT) i++;
      } else if (text.charCodeAt(i) === MINUS || text.charCodeAt(i) === SLASH || text.charCodeAt(i) === DOT) {
        const delim = text.charCodeAt(i++);
        if (isDigit(text.charCodeAt(i))) {
          kind = delim === DOT ? FieldKind.number : FieldKind.date;
          while (isDigit(text.charCodeAt(i))) i++;
          // Only matching delimiters make a three-field date.
          if (text.charCodeAt(i) === delim) {
            kind = FieldKind.date;
            i++;
            while (isDigit(text.charCodeAt(i)) || text.charCodeAt(i) === delim) i++;
          }
        } else {
          kind = FieldKind.date;
          while (isAlnum(text.charCodeAt(i)) || text.charCodeAt(i) === delim) i++;
        }
      } else kind = FieldKind.number;
    } else if (c === DOT) {
      i++;
      while (isDigit(text.charCodeAt(i))) i++;
      kind = FieldKind.number;
    } else if (isAlpha(c)) {
      kind = FieldKind.string;
      while (isAlpha(text.charCodeAt(i))) i++;
      // A date with a text month, or a zone name with punctuation ('america/new_york', 'utc+3'), unless
      // the word before a digit or '+' is a keyword ('j2451187', 'y2001').
      const n = text.charCodeAt(i);
      let isDate = n === MINUS || n === SLASH || n === DOT;
      if (!isDate && (n === PLUS || isDigit(n))) isDate = !KEYWORDS.has(text.slice(start, i).toLowerCase());
      if (isDate) {
        kind = FieldKind.date;
        do i++;
        while (text.charCodeAt(i) === PLUS || text.charCodeAt(i) === MINUS || text.charCodeAt(i) === SLASH || text.charCodeAt(i) === UNDERSCORE || text.charCodeAt(i) === DOT || text.charCodeAt(i) === COLON || isAlnum(text.charCodeAt(i)));
      }
    } else if (c === PLUS || c === MINUS) {
      prefix = text[i++] as string;
      while (isSpace(text.charCodeAt(i))) i++;
      const from = i;
      if (isDigit(text.charCodeAt(i))) {
        kind = FieldKind.tz;
        i++;
        while (isDigit(text.charCodeAt(i)) || text.charCodeAt(i) === COLON || text.charCodeAt(i) === DOT || text.charCodeAt(i) === MINUS) i++;
      } else if (isAlpha(text.charCodeAt(i))) {
        kind = FieldKind.special;
        while (isAlpha(text.charCodeAt(i))) i++;
      } else return null;
      prefix += text.slice(from, i).toLowerCase();
    } else if (isPunct(c)) {
      i++;
      continue;
    } else return null;
    // Letters are lower-cased; a sign's field drops the white space after the sign.
    const f = prefix !== '' ? prefix : text.slice(start, i).toLowerCase();
    used += f.length + 1;
    if (used > BUFFER_MAX) return null;
    fields.push({ text: f, kind });
  }
  return fields;
}

// What a keyword is (PostgreSQL's token types; their bit positions make the decoder's field masks).
export const T = {
  reserved: 0, month: 1, year: 2, day: 3, julian: 4, tz: 5, dtz: 6, dyntz: 7, ignore: 8, ampm: 9, hour: 10, minute: 11,
  second: 12, millisecond: 13, microsecond: 14, doy: 15, dow: 16, units: 17, adbc: 18, isotime: 23, dtzmod: 28, unknown: 31,
} as const;
export type TokenType = (typeof T)[keyof typeof T];

/** Reserved words' meanings. */
export type Reserved = 'now' | 'today' | 'tomorrow' | 'yesterday' | 'zulu' | 'epoch' | 'late' | 'early';
/** What a unit keyword labels the next number as ('j2451187', 'y2001m02d04'), or 't' before an ISO time. */
export type Unit = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'julian' | 'time' | 'dow' | 'doy' | 'isodow' | 'isoyear';

export type Keyword =
  | { readonly type: typeof T.reserved; readonly value: Reserved }
  | { readonly type: typeof T.units | typeof T.isotime; readonly value: Unit }
  | { readonly type: typeof T.month | typeof T.dow | typeof T.dtzmod; readonly value: number }
  | { readonly type: typeof T.ampm; readonly value: 'am' | 'pm' }
  | { readonly type: typeof T.adbc; readonly value: 'ad' | 'bc' }
  | { readonly type: typeof T.ignore; readonly value: 0 };

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_NAMES = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const DAYS: Record<string, number> = {
  sun: 0, sunday: 0, mon: 1, monday: 1, tue: 2, tues: 2, tuesday: 2, wed: 3, weds: 3, wednesday: 3,
  thu: 4, thur: 4, thurs: 4, thursday: 4, fri: 5, friday: 5, sat: 6, saturday: 6,
};
const UNITS: Record<string, Unit> = {
  y: 'year', m: 'month', d: 'day', h: 'hour', mm: 'minute', s: 'second', j: 'julian', jd: 'julian', julian: 'julian',
  dow: 'dow', doy: 'doy', isodow: 'isodow', isoyear: 'isoyear',
};
const RESERVED: Record<string, Reserved> = {
  now: 'now', today: 'today', tomorrow: 'tomorrow', yesterday: 'yesterday', allballs: 'zulu', epoch: 'epoch',
  infinity: 'late', '-infinity': 'early',
};

/** PostgreSQL 15's datetktbl, by lower-cased word. */
export const KEYWORDS: ReadonlyMap<string, Keyword> = new Map<string, Keyword>([
  ...MONTHS.map((m, i): [string, Keyword] => [m, { type: T.month, value: i + 1 }]),
  ...MONTH_NAMES.map((m, i): [string, Keyword] => [m, { type: T.month, value: i + 1 }]),
  ['sept', { type: T.month, value: 9 }],
  ...Object.entries(DAYS).map(([d, v]): [string, Keyword] => [d, { type: T.dow, value: v }]),
  ...Object.entries(UNITS).map(([u, v]): [string, Keyword] => [u, { type: T.units, value: v }]),
  ...Object.entries(RESERVED).map(([r, v]): [string, Keyword] => [r, { type: T.reserved, value: v }]),
  ['t', { type: T.isotime, value: 'time' }],
  ['am', { type: T.ampm, value: 'am' }],
  ['pm', { type: T.ampm, value: 'pm' }],
  ['ad', { type: T.adbc, value: 'ad' }],
  ['bc', { type: T.adbc, value: 'bc' }],
  ['at', { type: T.ignore, value: 0 }],
  ['on', { type: T.ignore, value: 0 }],
  ['dst', { type: T.dtzmod, value: 3600 }],
]);
