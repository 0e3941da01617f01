// json and jsonb values (PostgreSQL 15's json.c, jsonb.c, jsonfuncs.c). The input grammar and its errors
// follow PostgreSQL's json lexer and recursive-descent parser (common/jsonapi.c): a malformed document
// is 22P02 "invalid input syntax for type json" with the DETAIL PostgreSQL gives ('Token "tru" is
// invalid.', 'Expected ":", but found "}".', 'The input string ended unexpectedly.').
//
//   json   SqlJson: the input text itself, kept byte for byte (whitespace, key order and duplicate keys
//          included), as PostgreSQL's json type. Operators parse it on demand (`JsonNode`, with each
//          node's source span, so `->` returns the value's own text as PostgreSQL does).
//   jsonb  SqlJsonb: the decomposed value (`Jsonb`): numbers are Numeric (their text as numeric prints
//          it: '1e2' is 100, '2.50' keeps its scale), strings unescaped, objects with distinct keys (the
//          last duplicate wins) ordered by key length, then bytes (UTF-8), as PostgreSQL stores them.
//          Its text is the canonical `{"a": 1, "b": [1, 2]}`.
//
// Invariant: a SqlJsonb's `value` is normalised (object keys sorted and distinct), so equal documents
// have equal text apart from numeric scale, and the ordering and keys below see one form.

import { SqlError, SqlState } from './errors.ts';
import { Numeric } from './numeric.ts';

/** An object with its keys in jsonb order (length, then bytes) and no duplicates. */
export class JsonbObject {
  constructor(readonly keys: readonly string[], readonly vals: readonly Jsonb[]) {}
  get(key: string): Jsonb | undefined {
    const i = this.keys.indexOf(key);
    return i < 0 ? undefined : this.vals[i];
  }
}
/** A jsonb value; JS null is JSON null (SQL NULL is never inside a SqlJsonb). */
export type Jsonb = null | boolean | string | Numeric | readonly Jsonb[] | JsonbObject;

export class SqlJson {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export class SqlJsonb {
  #text: string | undefined;
  constructor(readonly value: Jsonb) {}
  toString(): string {
    return (this.#text ??= jsonbText(this.value));
  }
}

/** A parsed json document: every node with its source span [s, e). */
export type JsonNode =
  | { readonly k: 'null' | 'true' | 'false'; readonly s: number; readonly e: number }
  | { readonly k: 'num'; readonly text: string; readonly s: number; readonly e: number }
  | { readonly k: 'str'; readonly v: string; readonly s: number; readonly e: number }
  | { readonly k: 'arr'; readonly items: readonly JsonNode[]; readonly s: number; readonly e: number }
  | { readonly k: 'obj'; readonly keys: readonly string[]; readonly vals: readonly JsonNode[]; readonly s: number; readonly e: number };

function syntaxError(detail: string): SqlError {
  return new SqlError(SqlState.invalidTextRepresentation, 'invalid input syntax for type json', detail);
}

// PostgreSQL's JSON_ALPHANUMERIC_CHAR: what an invalid token extends over.
const alnum = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c >= 0x80;
const isWs = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13;
const isDigit = (c: number): boolean => c >= 48 && c <= 57;

type TokKind = 'str' | 'num' | '{' | '}' | '[' | ']' | ',' | ':' | 'true' | 'false' | 'null' | 'end';
interface Token {
  kind: TokKind;
  s: number;
  e: number;
  /** Unescaped string or number text. */
  v: string;
}

/** json_lex: one token at `at` (after whitespace). */
class Lexer {
  at = 0;
  constructor(readonly t: string, readonly forJsonb: boolean) {}

  next(): Token {
    const t = this.t;
    while (this.at < t.length && isWs(t.charCodeAt(this.at))) this.at++;
    const s = this.at;
    if (s >= t.length) return { kind: 'end', s, e: s, v: '' };
    const c = t[s]!;
    if ('{}[],:'.includes(c)) {
      this.at = s + 1;
      return { kind: c as TokKind, s, e: s + 1, v: c };
    }
    if (c === '"') return this.string(s);
    if (c === '-' || isDigit(c.charCodeAt(0))) return this.number(s);
    let p = s;
    while (p < t.length && alnum(t.charCodeAt(p))) p++;
    if (p === s) p = s + 1;
    const word = t.slice(s, p);
    this.at = p;
    if (word === 'true' || word === 'false' || word === 'null') return { kind: word, s, e: p, v: word };
    throw syntaxError(`Token "${word}" is invalid.`);
  }

  number(s: number): Token {
    const t = this.t;
    let p = s;
    let bad = false;
    if (t[p] === '-') p++;
    if (t[p] === '0') p++;
    else if (p < t.length && isDigit(t.charCodeAt(p))) while (p < t.length && isDigit(t.charCodeAt(p))) p++;
    else bad = true;
    if (!bad && t[p] === '.') {
      p++;
      if (p < t.length && isDigit(t.charCodeAt(p))) while (p < t.length && isDigit(t.charCodeAt(p))) p++;
      else bad = true;
    }
    if (!bad && (t[p] === 'e' || t[p] === 'E')) {
      p++;
      if (t[p] === '+' || t[p] === '-') p++;
      if (p < t.length && isDigit(t.charCodeAt(p))) while (p < t.length && isDigit(t.charCodeAt(p))) p++;
      else bad = true;
    }
    // Trailing letters or digits make the whole run one invalid token ('01', '1.x', '2e').
    let q = p;
    while (q < t.length && alnum(t.charCodeAt(q))) q++;
    if (bad || q > p) throw syntaxError(`Token "${t.slice(s, q)}" is invalid.`);
    this.at = p;
    return { kind: 'num', s, e: p, v: t.slice(s, p) };
  }

  string(s: number): Token {
    const t = this.t;
    let p = s + 1;
    let out = '';
    let hi = -1; // a pending high surrogate
    for (;;) {
      if (p >= t.length) throw syntaxError('The input string ended unexpectedly.');
      const c = t.charCodeAt(p);
      if (c === 34) break;
      if (c < 0x20) throw syntaxError(`Character with value 0x${c.toString(16).padStart(2, '0')} must be escaped.`);
      if (c !== 92) {
        if (hi >= 0) throw syntaxError('Unicode low surrogate must follow a high surrogate.');
        out += t[p];
        p++;
        continue;
      }
      p++;
      if (p >= t.length) throw syntaxError('The input string ended unexpectedly.');
      const e = t[p]!;
      if (e === 'u') {
        const hex = t.slice(p + 1, p + 5);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw syntaxError('"\\u" must be followed by four hexadecimal digits.');
        const cp = parseInt(hex, 16);
        p += 5;
        if (!this.forJsonb) {
          // json checks escapes lexically only (PostgreSQL's json_in keeps the text; lone surrogates pass).
          out += String.fromCharCode(cp);
          continue;
        }
        if (cp >= 0xd800 && cp <= 0xdbff) {
          if (hi >= 0) throw syntaxError('Unicode high surrogate must not follow a high surrogate.');
          hi = cp;
          continue;
        }
        if (cp >= 0xdc00 && cp <= 0xdfff) {
          if (hi < 0) throw syntaxError('Unicode low surrogate must follow a high surrogate.');
          out += String.fromCharCode(hi, cp);
          hi = -1;
          continue;
        }
        if (hi >= 0) throw syntaxError('Unicode low surrogate must follow a high surrogate.');
        if (cp === 0 && this.forJsonb) {
          throw new SqlError(SqlState.untranslatableCharacter, 'unsupported Unicode escape sequence', '\\u0000 cannot be converted to text.');
        }
        out += String.fromCharCode(cp);
        continue;
      }
      if (hi >= 0) throw syntaxError('Unicode low surrogate must follow a high surrogate.');
      const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
      const r = simple[e];
      if (r === undefined) {
        const cp = t.codePointAt(p)!;
        throw syntaxError(`Escape sequence "\\${String.fromCodePoint(cp)}" is invalid.`);
      }
      out += r;
      p++;
    }
    if (hi >= 0) throw syntaxError('Unicode low surrogate must follow a high surrogate.');
    this.at = p + 1;
    return { kind: 'str', s, e: p + 1, v: out };
  }
}

function found(t: string, tok: Token): string {
  return tok.kind === 'end' ? 'The input string ended unexpectedly.' : `"${t.slice(tok.s, tok.e)}"`;
}
function expected(t: string, what: string, tok: Token): SqlError {
  if (tok.kind === 'end') return syntaxError('The input string ended unexpectedly.');
  return syntaxError(`Expected ${what}, but found ${found(t, tok)}.`);
}

/** Parses a json document (PostgreSQL's grammar and errors); `forJsonb` rejects \u0000 as jsonb does. */
export function parseJsonDocument(text: string, forJsonb = false): JsonNode {
  const lx = new Lexer(text, forJsonb);
  let depth = 0;
  const value = (tok: Token, what: string): JsonNode => {
    switch (tok.kind) {
      case 'str':
        return { k: 'str', v: tok.v, s: tok.s, e: tok.e };
      case 'num':
        return { k: 'num', text: tok.v, s: tok.s, e: tok.e };
      case 'true':
      case 'false':
      case 'null':
        return { k: tok.kind, s: tok.s, e: tok.e };
      case '[': {
        if (++depth > 6400) throw new SqlError(SqlState.programLimitExceeded, 'stack depth limit exceeded');
        const items: JsonNode[] = [];
        let t = lx.next();
        if (t.kind !== ']') {
          // Every element, the first too, expects a "JSON value" (PostgreSQL's parse_array_element).
          for (;;) {
            items.push(value(t, 'JSON value'));
            t = lx.next();
            if (t.kind === ']') break;
            if (t.kind !== ',') throw expected(text, '"," or "]"', t);
            t = lx.next();
          }
        }
        depth--;
        return { k: 'arr', items, s: tok.s, e: t.e };
      }
      case '{': {
        if (++depth > 6400) throw new SqlError(SqlState.programLimitExceeded, 'stack depth limit exceeded');
        const keys: string[] = [];
        const vals: JsonNode[] = [];
        let t = lx.next();
        if (t.kind !== '}') {
          let keyWhat = 'string or "}"';
          for (;;) {
            if (t.kind !== 'str') throw expected(text, keyWhat, t);
            keys.push(t.v);
            const colon = lx.next();
            if (colon.kind !== ':') throw expected(text, '":"', colon);
            vals.push(value(lx.next(), 'JSON value'));
            t = lx.next();
            if (t.kind === '}') break;
            if (t.kind !== ',') throw expected(text, '"," or "}"', t);
            t = lx.next();
            keyWhat = 'string';
          }
        }
        depth--;
        return { k: 'obj', keys, vals, s: tok.s, e: t.e };
      }
      default:
        throw expected(text, what, tok);
    }
  };
  const root = value(lx.next(), 'JSON value');
  const end = lx.next();
  if (end.kind !== 'end') throw syntaxError(`Expected end of input, but found ${found(text, end)}.`);
  return root;
}

const utf8 = new TextEncoder();

/** jsonb's key order: shorter (in UTF-8 bytes) first, then byte-wise. */
function compareJsonbKeys(a: string, b: string): number {
  if (a === b) return 0;
  const ab = utf8.encode(a);
  const bb = utf8.encode(b);
  if (ab.length !== bb.length) return ab.length - bb.length;
  for (let i = 0; i < ab.length; i++) if (ab[i] !== bb[i]) return ab[i]! - bb[i]!;
  return 0;
}

function jsonNumber(text: string): Numeric {
  const n = Numeric.parse(text);
  if (n === null) throw new SqlError(SqlState.numericValueOutOfRange, 'value overflows numeric format');
  return n;
}

/** An object from key/value pairs in any order: the last of duplicate keys wins, keys in jsonb order. */
export function jsonbObject(keys: readonly string[], vals: readonly Jsonb[]): JsonbObject {
  const m = new Map<string, Jsonb>();
  keys.forEach((k, i) => m.set(k, vals[i]!));
  const ks = [...m.keys()].sort(compareJsonbKeys);
  return new JsonbObject(ks, ks.map((k) => m.get(k)!));
}

export function jsonbOfNode(n: JsonNode): Jsonb {
  switch (n.k) {
    case 'null': return null;
    case 'true': return true;
    case 'false': return false;
    case 'num': return jsonNumber(n.text);
    case 'str': return n.v;
    case 'arr': return n.items.map(jsonbOfNode);
    case 'obj': return jsonbObject(n.keys, n.vals.map(jsonbOfNode));
  }
}

export function parseJsonb(text: string): SqlJsonb {
  return new SqlJsonb(jsonbOfNode(parseJsonDocument(text, true)));
}
export function parseJson(text: string): SqlJson {
  parseJsonDocument(text);
  return new SqlJson(text);
}

/** PostgreSQL's escape_json: a JSON string literal. */
export function quoteJson(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 34) out += '\\"';
    else if (c === 92) out += '\\\\';
    else if (c >= 0x20) out += s[i];
    else if (c === 8) out += '\\b';
    else if (c === 12) out += '\\f';
    else if (c === 10) out += '\\n';
    else if (c === 13) out += '\\r';
    else if (c === 9) out += '\\t';
    else out += '\\u' + c.toString(16).padStart(4, '0');
  }
  return out + '"';
}

/** jsonb's text output (JsonbToCString): `{"a": 1, "b": [true, null]}`. */
export function jsonbText(v: Jsonb): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return quoteJson(v);
  if (v instanceof Numeric) return v.toString();
  if (v instanceof JsonbObject) return '{' + v.keys.map((k, i) => `${quoteJson(k)}: ${jsonbText(v.vals[i]!)}`).join(', ') + '}';
  return '[' + v.map(jsonbText).join(', ') + ']';
}

/** jsonb_pretty: four-space indents, one member per line, empty containers as {} and []. */
export function jsonbPretty(v: Jsonb, indent = ''): string {
  const inner = indent + '    ';
  if (v instanceof JsonbObject) {
    if (v.keys.length === 0) return '{\n' + indent + '}';
    return '{\n' + v.keys.map((k, i) => `${inner}${quoteJson(k)}: ${jsonbPretty(v.vals[i]!, inner)}`).join(',\n') + '\n' + indent + '}';
  }
  if (Array.isArray(v)) {
    const a = v as readonly Jsonb[];
    if (a.length === 0) return '[\n' + indent + ']';
    return '[\n' + a.map((x) => inner + jsonbPretty(x, inner)).join(',\n') + '\n' + indent + ']';
  }
  return jsonbText(v);
}

export type JsonbKind = 'null' | 'string' | 'number' | 'boolean' | 'array' | 'object';
export function jsonbKind(v: Jsonb): JsonbKind {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'string') return 'string';
  if (v instanceof Numeric) return 'number';
  if (v instanceof JsonbObject) return 'object';
  return 'array';
}

// compareJsonbContainers' order. Nested values: null < string < number < boolean < array < object;
// containers by element (pair) count first, then element by element (objects: key, value, key, value in
// stored order; keys compare as text). At the top a scalar is stored as a one-element "raw scalar" array:
// objects still sort above it, but against an array the element count decides first (so '[]' sorts
// below every scalar), and only on equal counts is the scalar the smaller ('1' < '[0]').
const rank: Readonly<Record<JsonbKind, number>> = { null: 0, string: 1, number: 2, boolean: 3, array: 4, object: 5 };

/** The top-level comparison (SqlJsonb values); `compareJsonb` is the one for nested values. */
export function compareJsonbDocs(a: Jsonb, b: Jsonb, compareText: (x: string, y: string) => number): number {
  const ao = a instanceof JsonbObject;
  const bo = b instanceof JsonbObject;
  if (ao || bo) return ao && bo ? compareJsonb(a, b, compareText) : ao ? 1 : -1;
  const aa = Array.isArray(a);
  const ba = Array.isArray(b);
  if (!aa && !ba) return compareJsonb(a, b, compareText);
  const na = aa ? (a as readonly Jsonb[]).length : 1;
  const nb = ba ? (b as readonly Jsonb[]).length : 1;
  if (na !== nb) return na < nb ? -1 : 1;
  if (aa !== ba) return aa ? 1 : -1;
  return compareJsonb(a, b, compareText);
}

export function compareJsonb(a: Jsonb, b: Jsonb, compareText: (x: string, y: string) => number): number {
  const ka = jsonbKind(a);
  const kb = jsonbKind(b);
  if (ka !== kb) return rank[ka] < rank[kb] ? -1 : 1;
  switch (ka) {
    case 'null': return 0;
    case 'boolean': return a === b ? 0 : a ? 1 : -1;
    case 'string': return compareText(a as string, b as string);
    case 'number': return (a as Numeric).cmp(b as Numeric);
    case 'array': {
      const x = a as readonly Jsonb[];
      const y = b as readonly Jsonb[];
      if (x.length !== y.length) return x.length < y.length ? -1 : 1;
      for (let i = 0; i < x.length; i++) {
        const c = compareJsonb(x[i]!, y[i]!, compareText);
        if (c !== 0) return c;
      }
      return 0;
    }
    case 'object': {
      const x = a as JsonbObject;
      const y = b as JsonbObject;
      if (x.keys.length !== y.keys.length) return x.keys.length < y.keys.length ? -1 : 1;
      for (let i = 0; i < x.keys.length; i++) {
        const ck = compareText(x.keys[i]!, y.keys[i]!);
        if (ck !== 0) return ck < 0 ? -1 : 1;
        const cv = compareJsonb(x.vals[i]!, y.vals[i]!, compareText);
        if (cv !== 0) return cv;
      }
      return 0;
    }
  }
}

/** Equality of nested values (numbers by value: 1.0 = 1). */
export function jsonbEquals(a: Jsonb, b: Jsonb): boolean {
  return compareJsonb(a, b, (x, y) => (x === y ? 0 : x < y ? -1 : 1)) === 0;
}
