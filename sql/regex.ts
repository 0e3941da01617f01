// Matching with PostgreSQL's regular expressions on top of JavaScript RegExp (the translation is in
// regex-parse.ts). Compiled patterns are cached (bounded), so a scan compiles each pattern once.
//
// PostgreSQL's match is the leftmost one, and at that start the longest (or, for a non-greedy RE, the
// shortest) possible: JS backtracking finds the leftmost start but may stop at another end (`a|ab` on
// 'ab', or `a?(ab)?`). `pgExec` therefore searches the end among JS matches pinned by a lookahead on the
// remaining length (binary search: "a match ends at or after p" is monotone in p), then takes the groups
// of the match pinned to that end.
//
// Bounded work: patterns are at most PATTERN_LENGTH_MAX characters, and V8 switches a regex that
// backtracks too much to its linear-time engine (the flags below; the result is the same). That engine
// takes no back-references, lookaround, large counted repetitions or the JS flags u, i and d, so the
// yes/no test (`test`) has no flag but `m`, regex-parse.ts refuses nested quantifiers in patterns the
// engine cannot take, and the functions here (which pin ends with a lookahead) refuse nested quantifiers
// outright: without nesting, backtracking is polynomial.

import { setFlagsFromString } from 'node:v8';
import { SqlError, SqlState } from './errors.ts';
import { parseFlags, regexError, translate, type RegexFlags, type Translated } from './regex-parse.ts';

setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
setFlagsFromString('--regexp-backtracks-before-fallback=50000');

export interface CompiledRegex {
  readonly tr: Translated;
  readonly flags: RegexFlags;
  /** Search regex (flag g for lastIndex; no d, which would keep V8 from its linear-time fallback). */
  readonly re: RegExp;
  /** The plain regex for a yes/no test. */
  readonly test: RegExp;
}

const CACHE_MAX = 1000;
const cache = new Map<string, CompiledRegex>();

/** A pattern compiled with its flags argument; errors are PostgreSQL's (2201B, 22023). */
export function compileRegex(pattern: string, flags: string): CompiledRegex {
  const key = flags + '\u0000' + pattern;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const f = parseFlags(flags);
  const tr = translate(pattern, f);
  let re: RegExp;
  let test: RegExp;
  try {
    re = new RegExp(tr.source, tr.jsFlags + 'g');
    test = new RegExp(tr.source, tr.jsFlags);
  } catch (e) {
    throw regexError(`regular expression could not be translated (${e instanceof Error ? e.message : String(e)})`);
  }
  const c = { tr, flags: f, re, test };
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(key, c);
  return c;
}

/** `text ~ pattern` (ci: ~*). */
export function regexTest(text: string, pattern: string, ci: boolean): boolean {
  const c = compileRegex(pattern, ci ? 'i' : '');
  return c.test.test(text);
}

export interface PgMatch {
  /** UTF-16 offsets of the whole match. */
  readonly start: number;
  readonly end: number;
  /** Captured groups (undefined: did not take part). */
  readonly groups: readonly (string | undefined)[];
}

/** Whether `c` may be used where match boundaries or groups are returned (see the module comment). */
function checkExtractable(c: CompiledRegex, wantGroups: boolean): void {
  if (c.tr.nested) throw regexError('nested quantifiers are not supported in functions that return matches');
  if (wantGroups && c.tr.ambiguousGroups) {
    throw regexError('a parenthesized alternation whose branches can match different lengths is not supported in functions that return subexpressions');
  }
}

const pinned = new Map<string, RegExp>();

/** `c`'s pattern, sticky, constrained to end where `tail` (a lookahead on the remaining text) holds. */
function pinnedRegex(c: CompiledRegex, tail: string): RegExp {
  const key = c.tr.jsFlags + '\u0000' + c.tr.source + '\u0000' + tail;
  let re = pinned.get(key);
  if (re === undefined) {
    re = new RegExp(`(?:${c.tr.source})${tail}`, c.tr.jsFlags + 'y');
    if (pinned.size >= CACHE_MAX) pinned.delete(pinned.keys().next().value as string);
    pinned.set(key, re);
  }
  return re;
}

function execAt(re: RegExp, s: string, at: number): RegExpExecArray | null {
  re.lastIndex = at;
  return re.exec(s);
}

/** PostgreSQL's match of `c` in `s` at or after UTF-16 offset `from`, or null. */
export function pgExec(c: CompiledRegex, s: string, from: number, wantGroups: boolean): PgMatch | null {
  checkExtractable(c, wantGroups);
  c.re.lastIndex = from;
  const m = c.re.exec(s);
  if (m === null) return null;
  const start = m.index;
  let rem = s.length - (start + m[0].length);
  const remStart = s.length - start;
  // Remaining-length constraints (UTF-16 units; a match never ends inside a surrogate pair): "ends at or
  // after" = at most r units remain; "at or before" = at least r.
  const atMost = (r: number): RegExp => pinnedRegex(c, `(?![\\s\\S]{${r + 1}})`);
  const atLeast = (r: number): RegExp => pinnedRegex(c, `(?=[\\s\\S]{${r}})`);
  let best = rem;
  if (c.tr.simple) return { start, end: start + m[0].length, groups: m.slice(1) };
  if (!c.tr.nonGreedy) {
    // Longest: the fewest remaining units among matches from `start`.
    if (rem > 0 && execAt(atMost(rem - 1), s, start) !== null) {
      let lo = 0;
      let hi = rem - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (execAt(atMost(mid), s, start) !== null) hi = mid;
        else lo = mid + 1;
      }
      best = lo;
    }
  } else if (rem < remStart && execAt(atLeast(rem + 1), s, start) !== null) {
    let lo = rem + 1;
    let hi = remStart;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (execAt(atLeast(mid), s, start) !== null) lo = mid;
      else hi = mid - 1;
    }
    best = lo;
  }
  if (best === rem) return { start, end: start + m[0].length, groups: m.slice(1) };
  const exact = execAt(exactEnd(c, best), s, start);
  if (exact === null) throw regexError('internal matching failure');
  return { start, end: s.length - best, groups: exact.slice(1) };
}

function exactEnd(c: CompiledRegex, rem: number): RegExp {
  return pinnedRegex(c, `(?=[\\s\\S]{${rem}}(?![\\s\\S]))`);
}

/** The UTF-16 span of group `n` (1-based) of match `m`, or undefined when it took no part. */
export function groupSpan(c: CompiledRegex, s: string, m: PgMatch, n: number): [number, number] | undefined {
  const r = exactEnd(c, s.length - m.end);
  const withIndices = new RegExp(r.source, r.flags + 'd');
  const x = execAt(withIndices, s, m.start);
  return x?.indices?.[n];
}

/**
 * Every match as PostgreSQL's regexp functions walk them (setup_regexp_matches): the next search starts
 * where the last match ended, one character further after an empty one; `degenerate` false drops the
 * empty matches at the end and those ending no later than the previous match (regexp_split_*).
 */
export function pgMatches(c: CompiledRegex, s: string, from: number, global: boolean, wantGroups: boolean, degenerate = true): PgMatch[] {
  const out: PgMatch[] = [];
  let at = from;
  let prevEnd = 0;
  while (at <= s.length) {
    const m = pgExec(c, s, at, wantGroups);
    if (m === null) break;
    if (degenerate || (m.start < s.length && m.end > prevEnd)) out.push(m);
    prevEnd = m.end;
    if (!global) break;
    at = m.end;
    if (m.start === m.end) at += at < s.length && isHighSurrogate(s.charCodeAt(at)) ? 2 : 1;
  }
  return out;
}

function isHighSurrogate(u: number): boolean {
  return u >= 0xd800 && u <= 0xdbff;
}

/** The code-point index (0-based) of UTF-16 offset `at`. */
export function cpIndex(s: string, at: number): number {
  return Array.from(s.slice(0, at)).length;
}

/** The UTF-16 offset of code-point index `n` (clamped to the end). */
export function unitOffset(s: string, n: number): number {
  let i = 0;
  while (n > 0 && i < s.length) {
    i += isHighSurrogate(s.charCodeAt(i)) && i + 1 < s.length ? 2 : 1;
    n--;
  }
  return i;
}

/** Refuses the `g` option in functions that take one match (PostgreSQL's message and hint). */
export function noGlobal(c: CompiledRegex, fn: string, hint?: string): void {
  if (c.flags.global) throw new SqlError(SqlState.invalidParameterValue, `${fn}() does not support the "global" option`, undefined, undefined, hint);
}
