// PostgreSQL's advanced regular expressions (ARE, PostgreSQL 15 docs §9.7.3) translated into JavaScript
// RegExp source with the same meaning, or a 2201B "invalid regular expression: ..." error where the
// meaning cannot be kept (never a silently different match). What changes on the way:
//   - no JS flags but `m`: V8 falls back to its linear-time engine only without `u`, `i` and `d` (regex.ts),
//     so literal characters are \uXXXX escapes (a character beyond the BMP a surrogate pair, which `.`
//     and negated brackets consume whole), Unicode classes are spelled as BMP ranges, and case-insensitive
//     mode expands each character to its case variants as PostgreSQL does (JS's folding differs anyway,
//     e.g. 'ſ' ~* 's');
//   - `.` and negated brackets match a newline unless newline-sensitive (flags n/m/p), `^`/`$` are
//     line anchors only in modes n/m/w (the JS `m` flag); \A \Z are string anchors either way;
//   - \b is backspace, \y/\Y word boundaries, \m/\M start/end of word, \B a backslash, [[:class:]] and
//     \d \s \w are spelled out (non-ASCII characters classify by Unicode properties, as glibc's C.UTF-8);
//   - parentheses inside lookaround constraints do not capture (as in PostgreSQL);
//   - back-references must name a group that always takes part in a match (JS matches an empty string
//     where PostgreSQL fails) and, like lookaround, disable V8's linear-time fallback, so patterns using
//     them (or a counted repetition above 8, which that engine does not take either) may not nest
//     quantifiers (the only way they backtrack exponentially): `nested` below.
// Characters beyond the BMP inside brackets are refused; [[:alpha:]], \w and the like classify BMP
// characters only.
// Modes b (BRE) and e (ERE) are not supported (0A000).

import { SqlError, SqlState } from './errors.ts';

export interface RegexFlags {
  icase: boolean;
  /** `.` and negated brackets exclude newline (flags n, m, p). */
  nlDot: boolean;
  /** `^`/`$` match at line boundaries (flags n, m, w). */
  nlAnchor: boolean;
  expanded: boolean;
  literal: boolean;
  global: boolean;
}

export interface Translated {
  readonly source: string;
  /** JS flags: `m` for line anchors, else none. */
  readonly jsFlags: string;
  readonly groups: number;
  /** The whole RE prefers the shortest match (PostgreSQL's greediness rule). */
  readonly nonGreedy: boolean;
  /** Uses back-references or lookaround (no linear-time fallback in V8). */
  readonly needsBacktracking: boolean;
  /** A quantified group contains a quantifier or an alternation (exponential backtracking possible). */
  readonly nested: boolean;
  /** A capturing group holds an alternation whose branches may match at the same place with different lengths. */
  readonly ambiguousGroups: boolean;
  /**
   * No alternation, no quantified group, only greedy quantifiers, no back-reference or lookaround: JS's
   * first match is then PostgreSQL's longest one (checked by brute force over random patterns of this
   * shape), so no end search is needed.
   */
  readonly simple: boolean;
}

export const PATTERN_LENGTH_MAX = 10_000;

export function regexError(msg: string): SqlError {
  return new SqlError('2201B', `invalid regular expression: ${msg}`);
}

/** The options of a flags argument (regexp_replace(..., 'gi')); `global` only where the caller allows it. */
export function parseFlags(flags: string): RegexFlags {
  const f: RegexFlags = { icase: false, nlDot: false, nlAnchor: false, expanded: false, literal: false, global: false };
  for (const c of flags) {
    if (c === 'g') f.global = true;
    else if (!applyOption(f, c)) throw new SqlError(SqlState.invalidParameterValue, `invalid regular expression option: "${c}"`);
  }
  return f;
}

function applyOption(f: RegexFlags, c: string): boolean {
  switch (c) {
    case 'i': f.icase = true; return true;
    case 'c': f.icase = false; return true;
    case 'n': case 'm': f.nlDot = true; f.nlAnchor = true; return true;
    case 'p': f.nlDot = true; f.nlAnchor = false; return true;
    case 'w': f.nlDot = false; f.nlAnchor = true; return true;
    case 's': f.nlDot = false; f.nlAnchor = false; return true;
    case 'x': f.expanded = true; return true;
    case 't': f.expanded = false; return true;
    case 'q': f.literal = true; return true;
    case 'b': case 'e':
      throw new SqlError(SqlState.featureNotSupported, 'basic and extended regular expressions (options b, e) are not supported; use the default advanced syntax');
    default: return false;
  }
}

const SPACE = ' \\t\\n\\r\\f\\v';
const PAIR = '[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]';
const SURROGATES = '\\uD800-\\uDFFF';

/** BMP ranges (class body syntax) of the characters a Unicode property regex matches; computed once. */
const propertyRanges = new Map<string, string>();
function bmp(property: string): string {
  let r = propertyRanges.get(property);
  if (r !== undefined) return r;
  const re = new RegExp(`^${property}$`, 'u');
  r = '';
  let from = -1;
  for (let cp = 0; cp <= 0x10000; cp++) {
    const inSet = cp < 0x10000 && (cp < 0xd800 || cp > 0xdfff) && re.test(String.fromCharCode(cp));
    if (inSet && from < 0) from = cp;
    if (!inSet && from >= 0) {
      r += from === cp - 1 ? lit(from) : `${lit(from)}-${lit(cp - 1)}`;
      from = -1;
    }
  }
  propertyRanges.set(property, r);
  return r;
}

/** Bodies of [[:name:]]; print and graph also take every character beyond the BMP (`astral`). */
const CLASSES: Record<string, () => string> = {
  alpha: () => bmp('\\p{Alphabetic}'),
  digit: () => '0-9',
  alnum: () => bmp('\\p{Alphabetic}') + '0-9',
  upper: () => bmp('\\p{Uppercase}'),
  lower: () => bmp('\\p{Lowercase}'),
  space: () => SPACE,
  blank: () => ' \\t',
  punct: () => '!-\\/:-@\\[-`\\{-~',
  xdigit: () => '0-9A-Fa-f',
  cntrl: () => bmp('\\p{Cc}'),
  print: () => bmp('\\P{C}'),
  graph: () => bmp('[\\p{L}\\p{M}\\p{N}\\p{P}\\p{S}]'),
  word: () => bmp('\\p{Alphabetic}') + '0-9_',
};
const ASTRAL_CLASSES = new Set(['print', 'graph']);

/** A BMP code point as a JS RegExp literal, valid inside and outside brackets. */
export function lit(cp: number): string {
  const c = String.fromCharCode(cp);
  return /[A-Za-z0-9_]/.test(c) ? c : `\\u${cp.toString(16).padStart(4, '0')}`;
}

/** Any code point outside brackets: a BMP literal or a surrogate pair as one atom. */
function litAny(cp: number): string {
  if (cp <= 0xffff) return lit(cp);
  const u = String.fromCodePoint(cp);
  return `(?:${lit(u.charCodeAt(0))}${lit(u.charCodeAt(1))})`;
}

/** The case variants PostgreSQL tries for a character in case-insensitive mode (itself, lower, upper). */
function caseVariants(cp: number): number[] {
  const c = String.fromCodePoint(cp);
  const out = [cp];
  for (const v of [c.toLowerCase(), c.toUpperCase()]) {
    const w = v.codePointAt(0);
    if (w !== undefined && v.length === String.fromCodePoint(w).length && !out.includes(w)) out.push(w);
  }
  return out;
}

interface Frame {
  /** Index into `out` where this group's content starts. */
  readonly start: number;
  readonly capture: number;
  readonly look: boolean;
  /** The number the first capture group opened inside this one gets. */
  readonly firstGroup: number;
  alt: boolean;
  quantInside: boolean;
  /** PostgreSQL's greediness attribute of this (sub)expression so far: its first quantified atom's. */
  greedy: boolean | null;
}

/** Translates an ARE with the given options into JS RegExp source. */
export function translate(pattern: string, flags: RegexFlags): Translated {
  if (pattern.length > PATTERN_LENGTH_MAX) throw regexError('regular expression is too complex');
  const f = { ...flags };
  const cps = Array.from(pattern, (c) => c.codePointAt(0)!);
  const ch = (k: number): string => (k < cps.length ? String.fromCodePoint(cps[k]!) : '');
  const tail = (k: number): string => String.fromCodePoint(...cps.slice(k, k + 12));
  let i = 0;
  if (pattern.startsWith('***=')) {
    i = 4;
    f.literal = true;
  } else if (pattern.startsWith('***:')) i = 4;
  else if (pattern.startsWith('***')) throw regexError('invalid argument to regex function');
  if (f.literal) {
    const src = cps.slice(i).map((cp) => (f.icase && cp <= 0xffff ? klass(caseVariants(cp).map(lit).join(''), false) : litAny(cp))).join('');
    return { source: src, jsFlags: '', groups: 0, nonGreedy: false, needsBacktracking: false, nested: false, ambiguousGroups: false, simple: true };
  }
  // Embedded options at the start: (?letters)
  if (ch(i) === '(' && ch(i + 1) === '?' && /^[a-z]/.test(ch(i + 2))) {
    let j = i + 2;
    while (j < cps.length && cps[j] !== 0x29) {
      if (!applyOption(f, String.fromCodePoint(cps[j]!))) throw regexError('invalid embedded option');
      j++;
    }
    if (j >= cps.length) throw regexError('invalid embedded option');
    i = j + 1;
  }
  const out: string[] = [];
  const frames: Frame[] = [{ start: 0, capture: 0, firstGroup: 1, look: false, alt: false, quantInside: false, greedy: null }];
  /** Per capture group: whether it always takes part in a match, and whether it is closed. */
  const groupInfo: { closed: boolean; optional: boolean }[] = [];
  let groups = 0;
  let nested = false;
  let ambiguous = false;
  let needsBacktracking = false;
  /** The frame whose greediness the group just closed gave (a quantifier on that group overrides it). */
  let setByGroup: Frame | null = null;
  let topAlt = false;
  /** The last atom's start in `out` (null: nothing quantifiable there) and whether it was a group. */
  let atomStart: number | null = null;
  let atomGroup: Frame | null = null;
  const dotClass = `(?:[^${f.nlDot ? '\\n' : ''}${SURROGATES}]|${PAIR})`;
  /** A counted repetition V8's linear engine does not take. */
  let bigCount = false;
  let anyAlt = false;
  let anyLazy = false;
  let quantifiedGroup = false;
  const inLook = (): boolean => frames.some((fr) => fr.look);
  const char = (cp: number): string => (f.icase && cp <= 0xffff ? caseClass(cp) : litAny(cp));
  const caseClass = (cp: number): string => {
    const vs = caseVariants(cp);
    return vs.length === 1 ? lit(cp) : klass(vs.map(lit).join(''), false);
  };
  const atom = (s: string, group: Frame | null = null): void => {
    setByGroup = null;
    atomStart = out.length;
    atomGroup = group;
    out.push(s);
  };
  const constraint = (s: string): void => {
    setByGroup = null;
    out.push(s);
    atomStart = null;
    atomGroup = null;
  };
  while (i < cps.length) {
    const cp = cps[i]!;
    const c = String.fromCodePoint(cp);
    if (f.expanded && /\s/.test(c)) { i++; continue; }
    if (f.expanded && c === '#') {
      while (i < cps.length && cps[i] !== 0x0a) i++;
      continue;
    }
    i++;
    switch (c) {
      case '(': {
        if (ch(i) === '?') {
          const k = ch(i + 1);
          if (k === '#') {
            while (i < cps.length && cps[i] !== 0x29) i++;
            if (i >= cps.length) throw regexError('parentheses () not balanced');
            i++;
            continue;
          }
          let open: string;
          let look = true;
          if (k === ':') { open = '(?:'; look = false; i += 2; }
          else if (k === '=' || k === '!') { open = `(?${k}`; i += 2; }
          else if (k === '<' && (ch(i + 2) === '=' || ch(i + 2) === '!')) { open = `(?<${ch(i + 2)}`; i += 3; }
          else throw regexError('quantifier operand invalid');
          if (look) needsBacktracking = true;
          frames.push({ start: out.length, capture: 0, firstGroup: groups + 1, look, alt: false, quantInside: false, greedy: null });
          out.push(open);
        } else if (inLook()) {
          frames.push({ start: out.length, capture: 0, firstGroup: groups + 1, look: false, alt: false, quantInside: false, greedy: null });
          out.push('(?:');
        } else {
          groups++;
          groupInfo.push({ closed: false, optional: frames.some((fr) => fr.alt) });
          frames.push({ start: out.length, capture: groups, firstGroup: groups + 1, look: false, alt: false, quantInside: false, greedy: null });
          out.push('(');
        }
        atomStart = null;
        continue;
      }
      case ')': {
        if (frames.length === 1) throw regexError('parentheses () not balanced');
        const fr = frames.pop()!;
        out.push(')');
        if (fr.capture > 0) {
          groupInfo[fr.capture - 1]!.closed = true;
          if (fr.alt && !literalAlternatives(fr, out)) ambiguous = true;
        }
        const parent = frames[frames.length - 1]!;
        parent.quantInside ||= fr.quantInside;
        // A subexpression with alternatives is greedy; otherwise it has its first quantified atom's attribute.
        const attr = fr.alt ? true : fr.greedy;
        setByGroup = null;
        if (parent.greedy === null && attr !== null) {
          parent.greedy = attr;
          setByGroup = parent;
        }
        if (fr.look) {
          atomStart = null;
          atomGroup = null;
        } else {
          atomStart = fr.start;
          atomGroup = fr;
        }
        continue;
      }
      case '|': {
        const fr = frames[frames.length - 1]!;
        fr.alt = true;
        anyAlt = true;
        if (frames.length === 1) topAlt = true;
        // Groups of the branch just ended take no part when another branch matches.
        for (let n = fr.firstGroup; n <= groups; n++) groupInfo[n - 1]!.optional = true;
        constraint('|');
        continue;
      }
      case '*': case '+': case '?': case '{': {
        let min: number;
        let max: number;
        const i0 = i;
        if (c === '{') {
          const m = /^(\d+)(?:(,)(\d*))?\}/.exec(tail(i));
          if (m === null) {
            if (/^\d/.test(tail(i))) throw regexError('invalid repetition count(s)');
            atom(lit(cp));
            continue;
          }
          min = Number(m[1]);
          max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
          if (min > 255 || (max !== Infinity && (max > 255 || max < min))) throw regexError('invalid repetition count(s)');
          if (max > 8 || min > 8) bigCount = true;
          i += m[0].length;
        } else {
          min = c === '+' ? 1 : 0;
          max = c === '?' ? 1 : Infinity;
        }
        if (atomStart === null) throw regexError('quantifier operand invalid');
        const lazy = ch(i) === '?';
        if (lazy) i++;
        if (lazy) anyLazy = true;
        if (atomGroup !== null) quantifiedGroup = true;
        // Only `{m}` takes its atom's greediness; `{1,1}?` is non-greedy (SIMILAR TO's translation relies on it).
        const exact = c === '{' && !cps.slice(i0, i).includes(0x2c);
        const top = frames[frames.length - 1]!;
        if (!exact && atomGroup !== null && setByGroup === top) top.greedy = !lazy;
        else if (!exact) top.greedy ??= !lazy;
        setByGroup = null;
        const q = c === '{' ? `{${min}${max === min ? '' : `,${max === Infinity ? '' : max}`}}` : c;
        out.push(q + (lazy ? '?' : ''));
        const g = atomGroup as Frame | null;
        // Alternatives that are literals, none a prefix of another, leave one way to repeat: not nesting.
        if (g !== null && max > 1 && (g.quantInside || (g.alt && !literalAlternatives(g, out)))) nested = true;
        if (max > 1) frames[frames.length - 1]!.quantInside = true;
        if (g !== null && min === 0) for (let n = g.capture; n <= groups && g.capture > 0; n++) groupInfo[n - 1]!.optional = true;
        if (g !== null && min === 0 && g.capture === 0) markOptionalInside(g, out, groupInfo);
        atomStart = null;
        if (/[*+?{]/.test(ch(i) ?? '') && !(ch(i) === '{' && !/^\{\d/.test(tail(i)))) throw regexError('quantifier operand invalid');
        continue;
      }
      case '.':
        atom(dotClass);
        continue;
      case '^':
        constraint('^');
        continue;
      case '$':
        constraint('$');
        continue;
      case '[': {
        const [src, next] = bracket(cps, i, f);
        i = next;
        atom(src);
        continue;
      }
      case '\\': {
        if (i >= cps.length) throw regexError('invalid escape \\ sequence');
        const e = String.fromCodePoint(cps[i]!);
        i++;
        const ce = charEscape(e, cps, i);
        if (ce !== null) {
          i = ce.next;
          atom(char(ce.cp));
          continue;
        }
        switch (e) {
          case 'd': case 's': case 'w': case 'D': case 'S': case 'W':
            atom(e === e.toLowerCase() ? klass(classEscape(e), false) : negated(classEscape(e.toLowerCase()), false));
            continue;
          case 'A': constraint(f.nlAnchor ? '(?<![\\s\\S])' : '^'); if (f.nlAnchor) needsBacktracking = true; continue;
          case 'Z': constraint(f.nlAnchor ? '(?![\\s\\S])' : '$'); if (f.nlAnchor) needsBacktracking = true; continue;
          case 'y': constraint(wordBoundary()); needsBacktracking = true; continue;
          case 'Y': constraint(`(?!${wordBoundary()})`); needsBacktracking = true; continue;
          case 'm': constraint(`(?<!${word()})(?=${word()})`); needsBacktracking = true; continue;
          case 'M': constraint(`(?<=${word()})(?!${word()})`); needsBacktracking = true; continue;
        }
        if (/[1-9]/.test(e)) {
          let n = Number(e);
          while (i < cps.length && /\d/.test(String.fromCodePoint(cps[i]!)) && n * 10 + Number(String.fromCodePoint(cps[i]!)) <= groups) {
            n = n * 10 + Number(String.fromCodePoint(cps[i]!));
            i++;
          }
          const gi = groupInfo[n - 1];
          // Not a group: two or three octal digits are a character (\170 is 'x').
          const octal = /^[0-7]{2,3}/.exec(e + tail(i).slice(0, 2));
          if ((gi === undefined || !gi.closed) && octal !== null) {
            i += octal[0].length - 1;
            atom(char(parseInt(octal[0], 8)));
            continue;
          }
          if (gi === undefined || !gi.closed || inLook()) throw regexError('invalid backreference number');
          if (gi.optional) throw regexError('a back-reference to a group that may not take part in the match is not supported');
          if (f.icase) throw regexError('back-references in case-insensitive mode are not supported');
          needsBacktracking = true;
          atom(`(?:\\${n})`);
          continue;
        }
        if (/[A-Za-z0-9]/.test(e)) throw regexError('invalid escape \\ sequence');
        atom(char(cps[i - 1]!));
        continue;
      }
      default:
        atom(char(cp));
    }
  }
  if (frames.length !== 1) throw regexError('parentheses () not balanced');
  if (nested && (needsBacktracking || bigCount)) throw regexError('nested quantifiers together with back-references or lookaround constraints are not supported (they could backtrack without bound)');
  const nonGreedy = !topAlt && frames[0]!.greedy === false;
  return { source: out.join(''), jsFlags: f.nlAnchor ? 'm' : '', groups, nonGreedy, needsBacktracking, nested, ambiguousGroups: ambiguous,
    simple: !anyAlt && !anyLazy && !quantifiedGroup && !needsBacktracking };
}

const word = (): string => `[${CLASSES['word']!()}]`;
const wordBoundary = (): string => `(?:(?<=${word()})(?!${word()})|(?<!${word()})(?=${word()}))`;

function klass(body: string, neg: boolean): string {
  return `[${neg ? '^' : ''}${body}]`;
}

function classEscape(e: string): string {
  return e === 'd' ? '0-9' : e === 's' ? SPACE : CLASSES['word']!();
}

/** A negated class that consumes a character beyond the BMP whole (unless `astral`: then never). */
function negated(body: string, astral: boolean): string {
  return astral ? `[^${body}${SURROGATES}]` : `(?:[^${body}${SURROGATES}]|${PAIR})`;
}

/** Marks the capture groups written inside an optional non-capturing group as optional. */
function markOptionalInside(g: Frame, out: readonly string[], info: { optional: boolean }[]): void {
  let n = 0;
  for (let k = 0; k < g.start; k++) if (out[k] === '(') n++;
  for (let k = g.start; k < out.length; k++) if (out[k] === '(') info[n++]!.optional = true;
}

/** Whether a group's alternation is of plain literals none a prefix of another (one branch can match at a place). */
function literalAlternatives(fr: Frame, out: readonly string[]): boolean {
  const parts: string[][] = [[]];
  // Up to the group's ')': anything but literals and '|' (a nested group included) answers no first.
  for (let k = fr.start + 1; k < out.length && out[k] !== ')'; k++) {
    const s = out[k]!;
    if (s === '|') parts.push([]);
    else if (/^(?:[A-Za-z0-9_]|\\u[0-9a-f]{4})$/.test(s)) parts[parts.length - 1]!.push(s);
    else return false;
  }
  const words = parts.map((p) => p.join('\u0000') + '\u0000');
  return words.every((w, a) => w !== '\u0000' && words.every((v, b) => a === b || !v.startsWith(w)));
}

/** A character escape (\n, \t, \x41, \u0041, \U00000041, \cX, \e, \b, \B, octal \0..): its code point. */
function charEscape(e: string, cps: readonly number[], i: number): { cp: number; next: number } | null {
  const simple: Record<string, number> = { a: 7, b: 8, B: 92, e: 27, f: 12, n: 10, r: 13, t: 9, v: 11 };
  if (e in simple) return { cp: simple[e]!, next: i };
  const hex = (n: number, exact: boolean): { cp: number; next: number } => {
    let j = i;
    let s = '';
    while (j < cps.length && s.length < n && /[0-9A-Fa-f]/.test(String.fromCodePoint(cps[j]!))) s += String.fromCodePoint(cps[j++]!);
    if (s === '' || (exact && s.length !== n)) throw regexError('invalid escape \\ sequence');
    const cp = parseInt(s, 16);
    if (cp > 0x10ffff || cp === 0) throw regexError('invalid escape \\ sequence');
    return { cp, next: j };
  };
  if (e === 'x') return hex(8, false);
  if (e === 'u') return hex(4, true);
  if (e === 'U') return hex(8, true);
  if (e === 'c') {
    const x = cps[i];
    if (x === undefined) throw regexError('invalid escape \\ sequence');
    return { cp: x & 0x1f, next: i + 1 };
  }
  if (e === '0') throw regexError('invalid escape \\ sequence');
  return null;
}

/** A bracket expression starting after '[': its JS class and the index after ']'. */
function bracket(cps: readonly number[], i: number, f: RegexFlags): [string, number] {
  let neg = false;
  if (cps[i] === 0x5e) { neg = true; i++; }
  const items: string[] = [];
  const singles: number[] = [];
  let first = true;
  let astral = false;
  /** Bodies of \D \S \W inside the brackets: their complements join the set. */
  const complements: string[] = [];
  const endpoint = (): { cp: number } | { cls: string } | null => {
    const cp = cps[i];
    if (cp === undefined) throw regexError('brackets [] not balanced');
    if (cp === 0x5d && !first) return null;
    first = false;
    if (cp === 0x5b && (cps[i + 1] === 0x3a || cps[i + 1] === 0x2e || cps[i + 1] === 0x3d)) {
      const kind = String.fromCodePoint(cps[i + 1]!);
      let j = i + 2;
      let name = '';
      while (j < cps.length && !(String.fromCodePoint(cps[j]!) === kind && cps[j + 1] === 0x5d)) name += String.fromCodePoint(cps[j++]!);
      if (j >= cps.length) throw regexError('brackets [] not balanced');
      i = j + 2;
      if (kind === ':') {
        const cls = CLASSES[f.icase && (name === 'upper' || name === 'lower') ? 'alpha' : name];
        if (cls === undefined || !Object.hasOwn(CLASSES, name)) throw regexError('invalid character class');
        if (ASTRAL_CLASSES.has(name)) astral = true;
        return { cls: cls() };
      }
      const chars = Array.from(name);
      if (chars.length !== 1) throw regexError('invalid collating element');
      return { cp: chars[0]!.codePointAt(0)! };
    }
    i++;
    if (cp === 0x5c) {
      const e = cps[i] === undefined ? '' : String.fromCodePoint(cps[i]!);
      if (e === '') throw regexError('brackets [] not balanced');
      i++;
      const ce = charEscape(e, cps, i);
      if (ce !== null) {
        i = ce.next;
        return { cp: ce.cp };
      }
      if ('dswDSW'.includes(e)) {
        const body = classEscape(e.toLowerCase());
        if (e === e.toLowerCase()) return { cls: body };
        complements.push(body);
        return { cls: '' };
      }
      if (/[A-Za-z0-9]/.test(e)) throw regexError('invalid escape \\ sequence');
      return { cp: e.codePointAt(0)! };
    }
    return { cp };
  };
  for (;;) {
    const a = endpoint();
    if (a === null) break;
    if ('cls' in a) {
      items.push(a.cls);
      continue;
    }
    if (cps[i] === 0x2d && cps[i + 1] !== 0x5d && cps[i + 1] !== undefined) {
      i++;
      const b = endpoint();
      if (b === null || 'cls' in b) throw regexError('invalid character range');
      if (b.cp < a.cp) throw regexError('invalid character range');
      if (b.cp > 0xffff) throw regexError('characters beyond the Basic Multilingual Plane in brackets are not supported');
      items.push(`${lit(a.cp)}-${lit(b.cp)}`);
      if (f.icase) {
        if (b.cp - a.cp > 5000) throw regexError('case-insensitive character range is too large');
        for (let x = a.cp; x <= b.cp; x++) for (const v of caseVariants(x)) if (v < a.cp || v > b.cp) singles.push(v);
      }
      continue;
    }
    for (const v of f.icase ? caseVariants(a.cp) : [a.cp]) singles.push(v);
  }
  i++;
  if (singles.some((cp) => cp > 0xffff)) throw regexError('characters beyond the Basic Multilingual Plane in brackets are not supported');
  let body = items.join('') + [...new Set(singles)].map(lit).join('');
  if (neg && f.nlDot) body += '\\n';
  if (neg && complements.length > 0) throw regexError('\\D, \\S or \\W inside negated brackets is not supported');
  if (neg) return [negated(body, astral), i];
  const alts = [...(body === '' ? [] : [klass(body, false)]), ...complements.map((c) => negated(c, false)), ...(astral ? [PAIR] : [])];
  return [alts.length === 1 ? alts[0]! : `(?:${alts.join('|')})`, i];
}
