// SQL regular expressions (SIMILAR TO, substring(x SIMILAR p ESCAPE e)): PostgreSQL 15's translation
// into an advanced RE (similar_escape_internal in regexp.c), which `similar_to_escape` returns too, and
// the substring search the SQL standard asks for: the pattern's parts before, between and after the two
// escape-double-quote separators match the whole string, the first part as short as possible, the middle
// one then as long as possible; the middle part is the result.

import { SqlError } from './errors.ts';
import { compileRegex, unitOffset } from './regex.ts';

/** The escape character of `ESCAPE e` (null: none; default backslash). */
function escapeChar(esc: string | undefined): string | null {
  if (esc === undefined) return '\\';
  const cs = Array.from(esc);
  if (cs.length === 0) return null;
  if (cs.length > 1) throw new SqlError('22025', 'invalid escape string', undefined, undefined, 'Escape string must be empty or one character.');
  return cs[0]!;
}

/** The ARE bodies of a SQL regular expression's parts (split at escape-double-quote separators). */
function similarParts(pattern: string, esc: string | undefined): string[] {
  const e = escapeChar(esc);
  const parts: string[] = [''];
  let afterEscape = false;
  let inClass = false;
  let classPos = 0;
  for (const c of pattern) {
    let r = '';
    if (afterEscape) {
      if (c === '"' && !inClass) {
        if (parts.length > 2) throw new SqlError('2200C', 'SQL regular expression may not contain more than two escape-double-quote separators');
        parts.push('');
      } else r = '\\' + c;
      afterEscape = false;
    } else if (e !== null && c === e) afterEscape = true;
    else if (inClass) {
      r = (c === '\\' ? '\\' : '') + c;
      if (c === ']' && classPos > 2) inClass = false;
      else if (c === '^') classPos++;
      else classPos = 3;
    } else if (c === '[') {
      r = c;
      inClass = true;
      classPos = 1;
    } else if (c === '%') r = '.*';
    else if (c === '_') r = '.';
    else if (c === '(') r = '(?:';
    else if (c === '\\' || c === '.' || c === '^' || c === '$') r = '\\' + c;
    else r = c;
    parts[parts.length - 1] += r;
  }
  return parts;
}

/** similar_to_escape(pattern [, escape]): the advanced RE PostgreSQL matches SIMILAR TO with. */
export function similarToEscape(pattern: string, esc: string | undefined): string {
  const [a, b, c] = similarParts(pattern, esc);
  if (b === undefined) return `^(?:${a})$`;
  if (c === undefined) return `^(?:${a}){1,1}?(${b})$`;
  return `^(?:${a}){1,1}?(${b}){1,1}(?:${c})$`;
}

/** Regex executions one substring(... SIMILAR ...) may spend before it gives up (a replica must not hang). */
const SEARCH_STEPS_MAX = 200_000;

/** substring(s SIMILAR pattern ESCAPE esc): the middle part of the match (the whole one without separators), or null. */
export function similarSubstring(s: string, pattern: string, esc: string | undefined): string | null {
  const whole = compileRegex(similarToEscape(pattern, esc), '');
  whole.re.lastIndex = 0;
  if (!whole.re.test(s)) return null;
  const parts = similarParts(pattern, esc);
  if (parts.length === 1) return s;
  const [pre, mid, post] = parts.map((p) => compileRegex(`^(?:${p})$`, '').re);
  const full = (re: RegExp | undefined, x: string): boolean => {
    if (re === undefined) return x === '';
    re.lastIndex = 0;
    return re.test(x);
  };
  const n = Array.from(s).length;
  let steps = 0;
  for (let i = 0; i <= n; i++) {
    const a = unitOffset(s, i);
    if (++steps > SEARCH_STEPS_MAX) throw tooComplex();
    if (!full(pre, s.slice(0, a))) continue;
    for (let j = n; j >= i; j--) {
      const b = unitOffset(s, j);
      if (++steps > SEARCH_STEPS_MAX) throw tooComplex();
      if (full(mid, s.slice(a, b)) && full(post, s.slice(b))) return s.slice(a, b);
    }
  }
  return null;
}

function tooComplex(): SqlError {
  return new SqlError('54000', 'SQL regular expression substring search is too expensive for this string');
}
