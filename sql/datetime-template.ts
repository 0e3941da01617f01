// The date/time template patterns of PostgreSQL 15's formatting.c, parsed once for both directions:
// to_char (to-char.ts) writes each node, to_date and to_timestamp (to-date.ts) read the input against it.
// Keywords match case-sensitively against PostgreSQL's table (so 'Dd' is D then d, and 'mOn' is text), longest
// first; one prefix (FM or TM, either case) may precede a keyword and a TH/th suffix may follow one. Double
// quotes enclose literal text, inside which a backslash takes the next character as it is; outside them a
// backslash is only special before a double quote. Any other character is a node of its own: a separator
// (ASCII punctuation), a space, or text.

/** Which calendar a field belongs to: PostgreSQL refuses a template mixing Gregorian and ISO week fields. */
export type DateMode = 'none' | 'gregorian' | 'isoweek';

export interface Keyword {
  /** As written in the template (error messages name it so). */
  readonly name: string;
  /** The pattern to_char and to_date switch on: the name, upper-cased unless the case decides the output. */
  readonly pattern: string;
  /** Whether the field reads digits (a digit field that follows makes a number field fixed-width). */
  readonly isDigit: boolean;
  readonly mode: DateMode;
}

export type TemplateNode =
  | { readonly kind: 'field'; readonly key: Keyword; readonly fm: boolean; readonly suffix: '' | 'TH' | 'th' }
  /** `separator`: unquoted ASCII punctuation; `space`: unquoted white space; `text`: anything else. */
  | { readonly kind: 'separator' | 'space' | 'text'; readonly ch: string };

const NON_DIGIT = new Set(['A.D.', 'A.M.', 'AD', 'AM', 'B.C.', 'BC', 'DAY', 'Day', 'DY', 'Dy',
  'FX', 'MONTH', 'Month', 'MON', 'Mon', 'OF', 'P.M.', 'PM', 'RM', 'TZH', 'TZ']);
const ISO_WEEK = new Set(['IDDD', 'ID', 'IW', 'IYYY', 'IYY', 'IY', 'I']);
const GREGORIAN = new Set(['D', 'DD', 'DDD', 'MM', 'MONTH', 'Month', 'MON', 'Mon', 'RM', 'WW', 'W', 'Y,YYY', 'YYYY', 'YYY', 'YY', 'Y']);
/** Lower-case names whose output differs from their upper-case pattern's (to-char.ts switches on them). */
const CASED = new Set(['a.d.', 'a.m.', 'ad', 'am', 'b.c.', 'bc', 'p.m.', 'pm', 'month', 'mon', 'day', 'dy', 'rm', 'tz']);

const UPPER = [
  'A.D.', 'A.M.', 'AD', 'AM', 'B.C.', 'BC', 'CC', 'DAY', 'DDD', 'DD', 'DY', 'D', 'FF1', 'FF2', 'FF3', 'FF4', 'FF5', 'FF6', 'FX',
  'HH24', 'HH12', 'HH', 'IDDD', 'ID', 'IW', 'IYYY', 'IYY', 'IY', 'I', 'J', 'MI', 'MM', 'MONTH', 'MON', 'MS', 'OF', 'P.M.', 'PM', 'Q',
  'RM', 'SSSSS', 'SSSS', 'SS', 'TZH', 'TZM', 'TZ', 'US', 'WW', 'W', 'Y,YYY', 'YYYY', 'YYY', 'YY', 'Y',
];

function keyword(name: string): Keyword {
  const upper = name.toUpperCase();
  const canonical = name === 'Month' || name === 'Mon' || name === 'Day' || name === 'Dy' ? name : upper;
  return {
    name,
    pattern: CASED.has(name) || canonical !== upper ? name : upper,
    isDigit: !NON_DIGIT.has(canonical),
    mode: ISO_WEEK.has(upper) ? 'isoweek' : GREGORIAN.has(canonical) ? 'gregorian' : 'none',
  };
}

/** Every keyword, longest first so that a name is never cut short by a shorter one it starts with. */
const KEYWORDS: readonly Keyword[] = [...UPPER, 'Month', 'Mon', 'Day', 'Dy', ...UPPER.map((k) => k.toLowerCase())]
  .sort((a, b) => b.length - a.length)
  .map(keyword);

const isSeparator = (c: string): boolean => c > ' ' && c < '\x7f' && !/[A-Za-z0-9]/.test(c);

/** A template's nodes, in order. */
export function parseTemplate(template: string): TemplateNode[] {
  const nodes: TemplateNode[] = [];
  let i = 0;
  while (i < template.length) {
    const prefix = template.slice(i, i + 2);
    let fm = false;
    if (prefix === 'FM' || prefix === 'fm' || prefix === 'TM' || prefix === 'tm') {
      fm = prefix === 'FM' || prefix === 'fm';
      i += 2;
      if (i >= template.length) break;
    }
    const key = KEYWORDS.find((k) => template.startsWith(k.name, i));
    if (key !== undefined) {
      i += key.name.length;
      const s = template.slice(i, i + 2);
      const suffix = s === 'TH' || s === 'th' ? s : '';
      i += suffix.length;
      nodes.push({ kind: 'field', key, fm, suffix });
      continue;
    }
    const c = template[i]!;
    if (c === '"') {
      i++;
      while (i < template.length) {
        if (template[i] === '"') {
          i++;
          break;
        }
        if (template[i] === '\\' && i + 1 < template.length) i++;
        const cp = String.fromCodePoint(template.codePointAt(i)!);
        nodes.push({ kind: 'text', ch: cp });
        i += cp.length;
      }
      continue;
    }
    if (c === '\\' && template[i + 1] === '"') i++;
    const cp = String.fromCodePoint(template.codePointAt(i)!);
    nodes.push({ kind: isSeparator(cp) ? 'separator' : /^[ \t\n\v\f\r]$/.test(cp) ? 'space' : 'text', ch: cp });
    i += cp.length;
  }
  return nodes;
}
