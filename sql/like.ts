// LIKE / ILIKE pattern matching: '%' matches any sequence, '_' one character, backslash escapes the next
// character (PostgreSQL's default escape). Compiled matchers are cached per pattern.

import { SqlError, SqlState } from './errors.ts';

const cache = new Map<string, (s: string) => boolean>();

export function likeMatcher(pattern: string, ci: boolean): (s: string) => boolean {
  const key = (ci ? 'i:' : 's:') + pattern;
  let m = cache.get(key);
  if (m !== undefined) return m;
  let re = '^';
  let prefixOnly = true;
  let literal = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] ?? '';
    if (c === '\\') {
      i++;
      if (i >= pattern.length) {
        throw new SqlError('22025', 'LIKE pattern must not end with escape character');
      }
      const d = pattern[i] ?? '';
      re += d.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      if (prefixOnly) literal += d;
    } else if (c === '%') {
      re += '[\\s\\S]*';
      if (prefixOnly && i !== pattern.length - 1) prefixOnly = false;
      else if (prefixOnly) {
        // trailing '%': pattern is literal + '%'
      }
    } else if (c === '_') {
      re += '[\\s\\S]';
      prefixOnly = false;
    } else {
      re += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      if (prefixOnly) literal += c;
    }
  }
  re += '$';
  if (!ci && prefixOnly && pattern.endsWith('%') && !pattern.endsWith('\\%')) {
    m = (s: string): boolean => s.startsWith(literal);
  } else {
    const rx = new RegExp(re, ci ? 'isu' : 'su');
    m = (s: string): boolean => rx.test(s);
  }
  if (cache.size > 1000) cache.clear();
  cache.set(key, m);
  return m;
}
