// Text and binary forms of one-dimensional arrays (sql-array.ts), as PostgreSQL 15's array_in/array_out
// and array_recv/array_send have them (utils/adt/arrayfuncs.c).
//
// Text: '{1,2,NULL}', after its bounds ('[0:1]=') when it starts at 0. An element is quoted on output when it is empty, is NULL in any case, or holds a
// brace, a double quote, a comma, a backslash or white space; inside quotes `"` and `\` are escaped with a
// backslash. On input white space around elements is dropped, a backslash escapes the next character
// anywhere, and an unquoted, unescaped NULL (any case) is a NULL element. Malformed input is 22P02
// "malformed array literal" with PostgreSQL's detail; an element's own errors are its type's.
//
// Binary: int32 number of dimensions (0 for an empty array), int32 flags (1 when a NULL element is
// present), uint32 element type OID, then per dimension int32 length and int32 lower bound, then each
// element as an int32 length (-1 for NULL) and its binary form. Errors as PostgreSQL 15's: 08P01 for a
// message that ends early, 22P03 for an element length past the end or trailing bytes, 42804 for another
// element type, 54000 for too many dimensions or elements.

import { SqlError, SqlState } from './errors.ts';
import { typeDisplayName, typeFromOid, typeOid } from './types.ts';
import { SqlEnum } from './enum-types.ts';
import type { SqlValue } from './types.ts';
import { formatText, parseText } from './value-text.ts';
import { applyTypmod } from './typmod.ts';
import { formatBinary, parseBinary } from './value-binary.ts';
import { ARRAY_SIZE_MAX, SqlArray, arrayTooLarge, multidimensionalArrays, type ArrayElementType } from './sql-array.ts';

/** array_isspace: the white space array input skips. */
const isSpace = (c: string | undefined): boolean =>
  c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\v' || c === '\f';

function malformed(text: string, detail: string): SqlError {
  return new SqlError(SqlState.invalidTextRepresentation, `malformed array literal: "${text}"`, detail);
}

/** array_in for one dimension: the elements parsed with their type's text input (and typmod). */
export function parseArrayText(text: string, elementType: ArrayElementType, typmod = -1): SqlArray {
  let i = 0;
  while (isSpace(text[i])) i++;
  // Dimensions ('[0:1]={1,3}', as a vector cast to its array prints): one, starting at 0 or 1.
  let bounds: { lower: number; upper: number } | null = null;
  if (text[i] === '[') {
    const m = /^\[\s*([+-]?\d+)\s*:\s*([+-]?\d+)\s*\]\s*/.exec(text.slice(i));
    if (m === null) throw malformed(text, 'Missing array dimension value.');
    i += m[0].length;
    if (text[i] === '[') throw multidimensionalArrays();
    bounds = { lower: Number(m[1]), upper: Number(m[2]) };
    if (bounds.lower !== 0 && bounds.lower !== 1) throw new SqlError(SqlState.featureNotSupported, 'array lower bounds other than 1 are not supported');
    if (text[i] !== '=') throw malformed(text, 'Missing "=" after array dimensions.');
    i++;
    while (isSpace(text[i])) i++;
  }
  if (text[i] !== '{') throw malformed(text, 'Array value must start with "{" or dimension information.');
  i++;
  const items: SqlValue[] = [];
  while (isSpace(text[i])) i++;
  if (text[i] === '}') {
    i++;
  } else {
    for (;;) {
      while (isSpace(text[i])) i++;
      const c = text[i];
      if (c === undefined) throw malformed(text, 'Unexpected end of input.');
      if (c === '{') throw multidimensionalArrays();
      if (c === ',' || c === '}') throw malformed(text, `Unexpected "${c}" character.`);
      const el = readElement(text, i);
      i = el.end;
      if (items.length >= ARRAY_SIZE_MAX) throw arrayTooLarge();
      items.push(el.value === null ? null : parseElement(el.value, elementType, typmod));
      const d = text[i];
      i++;
      if (d === '}') break;
      // readElement stops only at a delimiter or a closing brace.
    }
  }
  while (isSpace(text[i])) i++;
  if (i < text.length) throw malformed(text, 'Junk after closing right brace.');
  if (bounds !== null && bounds.upper - bounds.lower + 1 !== items.length) throw malformed(text, 'Specified array dimensions do not match array contents.');
  return new SqlArray(elementType, items, bounds?.lower === 0 && items.length > 0 ? 0 : 1);
}

/** An element's text input; a typmod applies as an explicit cast does (truncating character types). */
function parseElement(text: string, elementType: ArrayElementType, typmod: number): SqlValue {
  const v = parseText(text, elementType);
  return typmod >= 0 && v !== null ? applyTypmod(v, elementType, typmod, true) : v;
}

/**
 * One element from `from` (its first non-blank character) up to the ',' or '}' that ends it, which is at
 * `end`. value is null for an unquoted NULL.
 */
function readElement(text: string, from: number): { value: string | null; end: number } {
  let out = '';
  let i = from;
  if (text[i] === '"') {
    i++;
    for (;;) {
      const c = text[i];
      if (c === undefined) throw malformed(text, 'Unexpected end of input.');
      i++;
      if (c === '"') break;
      if (c === '\\') {
        const e = text[i];
        if (e === undefined) throw malformed(text, 'Unexpected end of input.');
        out += e;
        i++;
      } else {
        out += c;
      }
    }
    while (isSpace(text[i])) i++;
    const d = text[i];
    if (d === undefined) throw malformed(text, 'Unexpected end of input.');
    if (d !== ',' && d !== '}') throw malformed(text, 'Unexpected array element.');
    return { value: out, end: i };
  }
  // Unquoted: trailing white space is dropped unless escaped; `keep` is the length that must stay.
  let keep = 0;
  let escaped = false;
  for (;;) {
    const c = text[i];
    if (c === undefined) throw malformed(text, 'Unexpected end of input.');
    if (c === ',' || c === '}') break;
    if (c === '"') throw malformed(text, 'Unexpected array element.');
    if (c === '{') throw malformed(text, 'Unexpected "{" character.');
    i++;
    if (c === '\\') {
      const e = text[i];
      if (e === undefined) throw malformed(text, 'Unexpected end of input.');
      out += e;
      i++;
      keep = out.length;
      escaped = true;
    } else {
      out += c;
      if (!isSpace(c)) keep = out.length;
    }
  }
  out = out.slice(0, keep);
  if (!escaped && out.length === 4 && out.toLowerCase() === 'null') return { value: null, end: i };
  return { value: out, end: i };
}

const needsQuotes = /[{}",\\ \t\n\r\v\f]/;

/**
 * array_out: '{' elements in their type's text form, quoted where needed, separated by ',' '}', after
 * the bounds ('[0:1]=') when the first subscript is not 1.
 */
export function formatArrayText(a: SqlArray): string {
  const parts: string[] = [];
  for (const v of a.items) {
    if (v === null) {
      parts.push('NULL');
      continue;
    }
    const s = formatText(v, a.elementType);
    if (s === '' || needsQuotes.test(s) || s.toLowerCase() === 'null') {
      parts.push('"' + s.replace(/["\\]/g, '\\$&') + '"');
    } else {
      parts.push(s);
    }
  }
  const bounds = a.lower === 1 || a.items.length === 0 ? '' : `[${a.lower}:${a.lower + a.items.length - 1}]=`;
  return bounds + '{' + parts.join(',') + '}';
}

/**
 * array_send; a vector's value has one dimension even when empty (int2vectorsend is array_send). The
 * element oid of an enum array is its enum's: its elements', else `enumOid` (the column's typmod).
 */
export function formatArrayBinary(a: SqlArray, vector = false, enumOid = -1): Uint8Array {
  const elems = a.items.map((v) => (v === null ? null : formatBinary(v, a.elementType)));
  const dims = a.items.length > 0 || vector;
  const header = dims ? 20 : 12;
  let size = header;
  for (const e of elems) size += 4 + (e === null ? 0 : e.byteLength);
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  dv.setInt32(0, dims ? 1 : 0);
  dv.setInt32(4, elems.includes(null) ? 1 : 0);
  dv.setUint32(8, a.elementType === 'enum' ? enumElementOid(a, enumOid) : elementOid(a.elementType, vector));
  let at = 12;
  if (dims) {
    dv.setInt32(12, a.items.length);
    dv.setInt32(16, a.lower);
    at = 20;
  }
  for (const e of elems) {
    dv.setInt32(at, e === null ? -1 : e.byteLength);
    at += 4;
    if (e !== null) {
      out.set(e, at);
      at += e.byteLength;
    }
  }
  return out;
}

/** PostgreSQL's oid type, oidvector's element type (int4 in the engine). */
const OID_OID = 26;

/** The element type OID of an array's binary form: an oidvector's elements are oids. */
function elementOid(elementType: ArrayElementType, vector: boolean): number {
  return vector && elementType === 'int4' ? OID_OID : typeOid[elementType];
}

function enumElementOid(a: SqlArray, enumOid: number): number {
  for (const x of a.items) if (x instanceof SqlEnum) return x.type.oid;
  return enumOid > 0 ? enumOid : typeOid.enum;
}

function badBinary(message: string): SqlError {
  return new SqlError('22P03', message);
}

function elementName(oid: number): string {
  const t = typeFromOid(oid);
  return oid === OID_OID ? 'oid' : t === undefined ? '???' : typeDisplayName[t];
}

/**
 * array_recv for one dimension with lower bound 1 (0 where `vector`, which int2vectorrecv and
 * oidvectorrecv then require, with no NULL element; an empty vector, which PostgreSQL sends but does
 * not take back, is taken, so stored rows round-trip); `b` may be a view (elements are copied out).
 */
export function parseArrayBinary(b: Uint8Array, elementType: ArrayElementType, vector = false): SqlArray {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  // Reading a header field or an element's length past the end is pq_getmsgint's 08P01; an element
  // length past the end is array_recv's own 22P03 (below).
  const need = (at: number, n: number): void => {
    if (at + n > b.byteLength) throw new SqlError(SqlState.protocolViolation, 'insufficient data left in message');
  };
  need(0, 12);
  const ndim = dv.getInt32(0);
  const flags = dv.getInt32(4);
  const elemOid = dv.getUint32(8);
  if (ndim < 0) throw badBinary(`invalid number of dimensions: ${ndim}`);
  if (ndim > 6) {
    throw new SqlError(SqlState.programLimitExceeded, `number of array dimensions (${ndim}) exceeds the maximum allowed (6)`);
  }
  if (flags !== 0 && flags !== 1) throw badBinary('invalid array flags');
  const expected = elementOid(elementType, vector);
  // An enum array's elements are labels of the enum its oid names, read against the enum the statement
  // expects (lower-enum.ts), which checks them: no catalog here to tell an enum's oid from another's.
  if (elemOid !== expected && elementType !== 'enum') {
    throw new SqlError(
      SqlState.datatypeMismatch,
      `binary data has array element type ${elemOid} (${elementName(elemOid)}) instead of expected ${expected} (${elementName(expected)})`,
    );
  }
  if (ndim > 1) throw multidimensionalArrays();
  const items: SqlValue[] = [];
  let at = 12;
  let lower = 1;
  if (ndim === 1) {
    need(12, 8);
    const n = dv.getInt32(12);
    const lbound = dv.getInt32(16);
    lower = n > 0 && lbound === 0 ? 0 : 1;
    at = 20;
    if (n < 0 || n > ARRAY_SIZE_MAX) throw arrayTooLarge();
    // An array may start at 0 too (a vector cast to its array, as results carry it between replicas and clients).
    if (n > 0 && (vector ? lbound !== 0 : lbound !== 1 && lbound !== 0)) {
      if (vector) throw invalidVector(elementType);
      throw new SqlError(SqlState.featureNotSupported, 'array lower bounds other than 1 are not supported');
    }
    // Every element takes at least its 4-byte length: a count the bytes cannot hold is refused before
    // anything is allocated for it.
    need(at, 4 * n);
    for (let k = 0; k < n; k++) {
      need(at, 4);
      const len = dv.getInt32(at);
      at += 4;
      if (len === -1) {
        items.push(null);
        continue;
      }
      if (len < -1 || at + len > b.byteLength) throw badBinary('insufficient data left in message');
      try {
        items.push(parseBinary(b.subarray(at, at + len), elementType));
      } catch (e) {
        if (e instanceof SqlError && e.code === '22P03') throw badBinary(`improper binary format in array element ${k + 1}`);
        throw e;
      }
      at += len;
    }
  }
  if (at !== b.byteLength) throw badBinary('incorrect binary data format in array');
  if (vector && items.includes(null)) throw invalidVector(elementType);
  return new SqlArray(elementType, items, vector || lower === 0 ? 0 : 1);
}

function invalidVector(elementType: ArrayElementType): SqlError {
  return badBinary(`invalid ${elementType === 'int2' ? 'int2vector' : 'oidvector'} data`);
}

/** int2vectorout / oidvectorout: the elements separated by single spaces ('' when there are none). */
export function formatVectorText(a: SqlArray): string {
  return a.items.map((v) => formatText(v, a.elementType)).join(' ');
}

/**
 * int2vectorin / oidvectorin: elements separated by white space, each read by its element type's input,
 * into a vector subscripted from 0. oidvector's elements are oids, int4 here as the system catalog has
 * them: an oid above 2147483647 (or a negative one, which PostgreSQL wraps) is 0A000.
 */
export function parseVectorText(text: string, elementType: 'int2' | 'int4'): SqlArray {
  const words = text.split(/[ \t\n\r\v\f]+/).filter((w) => w !== '');
  return new SqlArray(elementType, words.map((w) => (elementType === 'int2' ? parseText(w, 'int2') : parseOid(w))), 0);
}

function parseOid(w: string): number {
  if (!/^[+-]?[0-9]+$/.test(w)) throw new SqlError(SqlState.invalidTextRepresentation, `invalid input syntax for type oid: "${w}"`);
  const n = Number(w);
  if (n > 4294967295 || n < -2147483648) throw new SqlError(SqlState.numericValueOutOfRange, `value "${w}" is out of range for type oid`);
  if (n < 0 || n > 2147483647) throw new SqlError(SqlState.featureNotSupported, `oid ${w} is not supported (oids are integers here)`);
  return n;
}
