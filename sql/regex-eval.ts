// Evaluation of the regular expression operators and functions (PostgreSQL 15, functions-matching):
// ~ ~* !~ !~* (bound as textregexeq and friends, so a scan predicate carries them like any function),
// similar_to_escape (SIMILAR TO is `~` over it), substring FROM a pattern or SIMILAR a SQL pattern,
// regexp_replace, regexp_match, regexp_matches, regexp_split_to_array/_table, regexp_count, regexp_instr
// and regexp_substr. Typing is in lower-regex.ts; matching in regex.ts.

import type { Expr } from './expr.ts';
import { strictArgs, type Env } from './eval.ts';
import { SqlArray } from './sql-array.ts';
import { SqlError, SqlState, InvariantError } from './errors.ts';
import type { Row, SqlValue } from './types.ts';
import { compileRegex, cpIndex, groupSpan, noGlobal, pgExec, pgMatches, regexTest, unitOffset, type CompiledRegex, type PgMatch } from './regex.ts';
import { similarSubstring, similarToEscape } from './similar.ts';

type FuncExpr = Extract<Expr, { k: 'func' }>;

export const regexFunctions: ReadonlySet<string> = new Set([
  'textregexeq', 'texticregexeq', 'textregexne', 'texticregexne', 'similar_to_escape', 'substring_regex',
  'substring_similar', 'regexp_replace', 'regexp_match', 'regexp_matches', 'regexp_split_to_array', 'regexp_split_to_table',
  'regexp_count', 'regexp_instr', 'regexp_substr',
]);

export function evalRegexFunction(e: FuncExpr, row: Row, env: Env): SqlValue {
  const v = strictArgs(e.args, row, env);
  if (v === null) return null;
  const s = (k: number): string => String(v[k]);
  const n = (k: number): number => Number(v[k]);
  switch (e.fn) {
    case 'textregexeq': return regexTest(s(0), s(1), false);
    case 'texticregexeq': return regexTest(s(0), s(1), true);
    case 'textregexne': return !regexTest(s(0), s(1), false);
    case 'texticregexne': return !regexTest(s(0), s(1), true);
    case 'similar_to_escape': return similarToEscape(s(0), v.length > 1 ? s(1) : undefined);
    case 'substring_similar': return similarSubstring(s(0), s(1), s(2));
    case 'substring_regex': {
      const c = compileRegex(s(1), '');
      const m = pgExec(c, s(0), 0, c.tr.groups > 0);
      if (m === null) return null;
      return c.tr.groups > 0 ? (m.groups[0] ?? null) : s(0).slice(m.start, m.end);
    }
    case 'regexp_replace': return regexpReplace(v);
    case 'regexp_match': {
      const c = compileRegex(s(1), v.length > 2 ? s(2) : '');
      noGlobal(c, 'regexp_match', 'Use the regexp_matches function instead.');
      const m = pgExec(c, s(0), 0, true);
      return m === null ? null : matchArray(c.tr.groups, s(0), m);
    }
    case 'regexp_matches': {
      // The set of match arrays, read only by the unnest that lower-regex.ts wraps around this call.
      const c = compileRegex(s(1), v.length > 2 ? s(2) : '');
      const ms = pgMatches(c, s(0), 0, c.flags.global, true);
      return new SqlArray('_text' as never, ms.map((m) => matchArray(c.tr.groups, s(0), m)));
    }
    case 'regexp_split_to_array':
    case 'regexp_split_to_table': {
      // The table form is the array's unnest (lower-regex.ts); only the error names it.
      const c = compileRegex(s(1), v.length > 2 ? s(2) : '');
      noGlobal(c, e.fn);
      const str = s(0);
      const out: string[] = [];
      let at = 0;
      for (const m of pgMatches(c, str, 0, true, false, false)) {
        out.push(str.slice(at, m.start));
        at = m.end;
      }
      out.push(str.slice(at));
      return new SqlArray('text', out);
    }
    case 'regexp_count': {
      const c = compileRegex(s(1), v.length > 3 ? s(3) : '');
      noGlobal(c, 'regexp_count');
      return pgMatches(c, s(0), startOffset(s(0), v.length > 2 ? n(2) : 1), true, false).length;
    }
    case 'regexp_instr': {
      // regexp_instr(s, p [, start [, N [, endoption [, flags [, subexpr]]]]])
      const c = compileRegex(s(1), v.length > 5 ? s(5) : '');
      noGlobal(c, 'regexp_instr');
      const nth = positive(v.length > 3 ? n(3) : 1, 'n');
      const endOpt = v.length > 4 ? n(4) : 0;
      if (endOpt !== 0 && endOpt !== 1) throw badParam('endoption', endOpt);
      const sub = subexpr(v.length > 6 ? n(6) : 0);
      const m = nthMatch(c, s(0), v.length > 2 ? n(2) : 1, nth, sub > 0);
      const span = m === null ? null : spanOf(c, s(0), m, sub);
      if (span === null) return 0;
      return cpIndex(s(0), endOpt === 0 ? span[0] : span[1]) + 1;
    }
    case 'regexp_substr': {
      // regexp_substr(s, p [, start [, N [, flags [, subexpr]]]])
      const c = compileRegex(s(1), v.length > 4 ? s(4) : '');
      noGlobal(c, 'regexp_substr');
      const nth = positive(v.length > 3 ? n(3) : 1, 'n');
      const sub = subexpr(v.length > 5 ? n(5) : 0);
      const m = nthMatch(c, s(0), v.length > 2 ? n(2) : 1, nth, sub > 0);
      const span = m === null ? null : spanOf(c, s(0), m, sub);
      return span === null ? null : s(0).slice(span[0], span[1]);
    }
    default:
      throw new InvariantError(`not a regular expression function: ${e.fn}`);
  }
}

/** regexp_match's array: the groups (NULL where a group took no part), or the whole match without groups. */
function matchArray(groups: number, s: string, m: PgMatch): SqlArray {
  if (groups === 0) return new SqlArray('text', [s.slice(m.start, m.end)]);
  return new SqlArray('text', m.groups.map((g) => g ?? null));
}

function badParam(name: string, v: number): SqlError {
  return new SqlError(SqlState.invalidParameterValue, `invalid value for parameter "${name}": ${v}`);
}

function positive(v: number, name: string): number {
  if (v <= 0) throw badParam(name, v);
  return v;
}

function subexpr(v: number): number {
  if (v < 0) throw badParam('subexpr', v);
  return v;
}

/** The UTF-16 offset of a 1-based character `start` argument (PostgreSQL refuses start <= 0). */
function startOffset(s: string, start: number): number {
  return unitOffset(s, positive(start, 'start') - 1);
}

function nthMatch(c: CompiledRegex, s: string, start: number, nth: number, groups: boolean): PgMatch | null {
  const from = startOffset(s, start);
  if (from > s.length || (start - 1 > Array.from(s).length)) return null;
  const ms = pgMatches(c, s, from, true, groups);
  return ms[nth - 1] ?? null;
}

/** The UTF-16 span of the whole match (sub 0) or of group `sub`; null when that group does not exist or took no part. */
function spanOf(c: CompiledRegex, s: string, m: PgMatch, sub: number): [number, number] | null {
  if (sub === 0) return [m.start, m.end];
  if (sub > c.tr.groups) return null;
  const span = groupSpan(c, s, m, sub);
  return span === undefined ? null : [span[0], span[1]];
}

/** regexp_replace(source, pattern, replacement [, start [, N]] [, flags]). */
function regexpReplace(v: readonly SqlValue[]): string {
  const src = String(v[0]);
  let start = 1;
  let nth = -1;
  let flags = '';
  if (v.length === 4 && typeof v[3] === 'string') flags = v[3];
  else if (v.length >= 4) {
    start = Number(v[3]);
    nth = v.length > 4 ? Number(v[4]) : 1;
    if (v.length > 5) flags = String(v[5]);
    positive(start, 'start');
    if (nth < 0) throw badParam('n', nth);
  }
  const c = compileRegex(String(v[1]), flags);
  const repl = String(v[2]);
  const global = nth === 0 || (nth === -1 && c.flags.global);
  const from = startOffset(src, start);
  if (from > src.length) return src;
  const ms = pgMatches(c, src, from, global || nth > 1, /\\[1-9]/.test(repl));
  const chosen = nth > 0 ? ms.slice(nth - 1, nth) : global ? ms : ms.slice(0, 1);
  let out = '';
  let at = 0;
  for (const m of chosen) {
    out += src.slice(at, m.start) + expand(repl, src, m);
    at = m.end;
  }
  return out + src.slice(at);
}

/** The replacement text: \1..\9 the groups, \& the whole match, \\ a backslash; other backslashes stay. */
function expand(repl: string, src: string, m: PgMatch): string {
  if (!repl.includes('\\')) return repl;
  let out = '';
  for (let i = 0; i < repl.length; i++) {
    const ch = repl[i]!;
    const d = repl[i + 1];
    if (ch !== '\\' || d === undefined) {
      out += ch;
      continue;
    }
    if (d >= '1' && d <= '9') {
      out += m.groups[Number(d) - 1] ?? '';
      i++;
    } else if (d === '&') {
      out += src.slice(m.start, m.end);
      i++;
    } else if (d === '\\') {
      out += '\\';
      i++;
    } else out += ch;
  }
  return out;
}
