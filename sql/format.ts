// format(formatstr, args...): PostgreSQL's text_format. A specifier is
//   %[position$][-...][width | * | *position$]type
// with type s (the value's text, NULL as empty), I (quote_ident, NULL refused) or L (quote_literal, NULL
// as the bare word NULL); %% is a percent sign. Positions count arguments from 1; a specifier without
// one takes the argument after the last one used (a `*` width takes one too, before the value's). A
// width pads with spaces on the left, or on the right with the `-` flag or a negative width. The
// errors and their order are PostgreSQL's: the type letter is checked before any argument is fetched.

import { SqlError, SqlState } from './errors.ts';
import { quoteIdentifier, quoteLiteral } from './quote.ts';

/** One parsed specifier. Positions are 1-based; 0 is "the next argument", -1 "none" (no `*` width). */
export interface FormatSpec {
  readonly argPos: number;
  readonly widthPos: number;
  readonly leftAlign: boolean;
  readonly width: number;
  readonly conversion: string;
  /** Index just past the type character. */
  readonly end: number;
}

const int32Max = 2147483647;

function unterminated(): SqlError {
  return new SqlError(SqlState.invalidParameterValue, 'unterminated format() type specifier', undefined, undefined, 'For a single "%" use "%%".');
}

function argumentZero(): SqlError {
  return new SqlError(SqlState.invalidParameterValue, 'format specifies argument 0, but arguments are numbered from 1');
}

/** Code points of the format string, so that an index never splits a surrogate pair. */
class Cursor {
  i: number;
  constructor(readonly cs: readonly string[], start: number) {
    this.i = start;
  }
  get c(): string {
    return this.cs[this.i] as string;
  }
  /** PostgreSQL's ADVANCE_PARSE_POINTER: the specifier may not end here. */
  advance(): void {
    if (++this.i >= this.cs.length) throw unterminated();
  }
  /** A run of digits as an int32, or null when there is none (22003 past int32). */
  digits(): number | null {
    let n: number | null = null;
    while (this.c >= '0' && this.c <= '9') {
      n = (n ?? 0) * 10 + Number(this.c);
      if (n > int32Max) throw new SqlError(SqlState.numericValueOutOfRange, 'number is out of range');
      this.advance();
    }
    return n;
  }
}

/** The specifier whose first character (after `%`) is `cs[start]`; `start` is inside the string. */
export function parseFormatSpec(cs: readonly string[], start: number): FormatSpec {
  const p = new Cursor(cs, start);
  let argPos = -1;
  let widthPos = -1;
  let leftAlign = false;
  let width = 0;
  const first = p.digits();
  if (first !== null && p.c !== '$') return { argPos, widthPos, leftAlign, width: first, conversion: p.c, end: p.i + 1 };
  if (first !== null) {
    if (first === 0) throw argumentZero();
    argPos = first;
    p.advance();
  }
  while (p.c === '-') {
    leftAlign = true;
    p.advance();
  }
  if (p.c === '*') {
    p.advance();
    const n = p.digits();
    if (n === null) widthPos = 0;
    else {
      if ((p.c as string) !== '$') throw new SqlError(SqlState.invalidParameterValue, 'width argument position must be ended by "$"');
      if (n === 0) throw argumentZero();
      widthPos = n;
      p.advance();
    }
  } else {
    width = p.digits() ?? 0;
  }
  return { argPos, widthPos, leftAlign, width, conversion: p.c, end: p.i + 1 };
}

/** A `*` width argument's text as PostgreSQL's pg_strtoint32 reads it. */
function widthOf(text: string): number {
  const m = /^\s*([+-]?\d+)\s*$/.exec(text);
  if (m === null) throw new SqlError(SqlState.invalidTextRepresentation, `invalid input syntax for type integer: "${text}"`);
  const n = Number(m[1]);
  if (n > int32Max || n < -int32Max - 1) throw new SqlError(SqlState.numericValueOutOfRange, `value "${text}" is out of range for type integer`);
  return n;
}

function pad(s: string, width: number, leftAlign: boolean): string {
  if (width === 0) return s;
  if (width < 0) {
    if (width <= -int32Max - 1) throw new SqlError(SqlState.numericValueOutOfRange, 'number is out of range');
    return pad(s, -width, true);
  }
  const fill = Math.max(0, width - Array.from(s).length);
  return leftAlign ? s + ' '.repeat(fill) : ' '.repeat(fill) + s;
}

/**
 * format() over its arguments' texts (each value's output function; null for SQL NULL). The caller
 * returns NULL for a NULL format string.
 */
export function formatString(fmt: string, args: readonly (string | null)[]): string {
  const cs = Array.from(fmt);
  let out = '';
  let next = 0; // 0-based index of the next argument
  const take = (pos: number): string | null => {
    if (pos > 0) next = pos - 1;
    if (next >= args.length) throw new SqlError(SqlState.invalidParameterValue, 'too few arguments for format()');
    return args[next++] ?? null;
  };
  for (let i = 0; i < cs.length; i++) {
    const c = cs[i] as string;
    if (c !== '%') {
      out += c;
      continue;
    }
    if (i + 1 >= cs.length) throw unterminated();
    if (cs[i + 1] === '%') {
      out += '%';
      i++;
      continue;
    }
    const spec = parseFormatSpec(cs, i + 1);
    i = spec.end - 1;
    if (spec.conversion !== 's' && spec.conversion !== 'I' && spec.conversion !== 'L') {
      throw new SqlError(SqlState.invalidParameterValue, `unrecognized format() type specifier "${spec.conversion}"`, undefined, undefined, 'For a single "%" use "%%".');
    }
    let width = spec.width;
    if (spec.widthPos >= 0) {
      const w = take(spec.widthPos);
      width = w === null ? 0 : widthOf(w);
    }
    const v = take(spec.argPos);
    if (v === null && spec.conversion === 'I') throw new SqlError('22004', 'null values cannot be formatted as an SQL identifier');
    const s = v === null ? (spec.conversion === 'L' ? 'NULL' : '') : spec.conversion === 'I' ? quoteIdentifier(v) : spec.conversion === 'L' ? quoteLiteral(v) : v;
    out += pad(s, width, spec.leftAlign);
  }
  return out;
}
