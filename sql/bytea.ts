// bytea, PostgreSQL's binary string, as PostgreSQL 15 has it with bytea_output = hex: text input in the
// hex format (`\x` then pairs of hex digits, either case, with spaces, tabs and newlines between the pairs)
// or the escape format (`\\` for a backslash, `\ooo` for any byte, every other byte as is), text output
// `\x` and lower-case hex, byte-wise (memcmp) order with a shorter prefix first, `||`, substring, and
// encode/decode between bytea and text in the hex, base64 and escape formats (utils/adt/varlena.c and
// encode.c; the same SQLSTATEs and messages: 22P02 for a malformed escape, 22023 for bad hex or base64).
//
// A bytea value is a Uint8Array (types.ts). Invariant: the value owns its bytes (never a view into a
// received message, a stored row or a reused buffer: decoders copy) and nobody writes to them after it is
// made, so values may be shared between rows, plans and caches like any other SqlValue.

import { SqlError, SqlState } from './errors.ts';

const utf8 = new TextEncoder();

/** A fresh copy of `src[from, to)`: the bytes a value may keep (see the invariant above). */
export function copyBytes(src: Uint8Array, from = 0, to = src.length): Uint8Array {
  const out = new Uint8Array(to - from);
  out.set(src.subarray(from, to));
  return out;
}

function asBuffer(b: Uint8Array): Buffer {
  return b instanceof Buffer ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}

/** byteaout: `\x` and two lower-case hex digits per byte. */
export function formatBytea(b: Uint8Array): string {
  return '\\x' + asBuffer(b).toString('hex');
}

function badHexDigit(ch: string): SqlError {
  return new SqlError(SqlState.invalidParameterValue, `invalid hexadecimal digit: "${ch}"`);
}

function hexValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  // The whole character, as pg_mblen shows it.
  throw badHexDigit(String.fromCodePoint(text.codePointAt(i) ?? c));
}

/** hex_decode: pairs of hex digits from `from` on, with blanks (space, tab, newline, CR) between pairs. */
function hexDecode(text: string, from: number): Uint8Array {
  const out = new Uint8Array((text.length - from) >> 1);
  let n = 0;
  for (let i = from; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 9 || c === 13) {
      i++;
      continue;
    }
    const hi = hexValue(text, i++);
    if (i >= text.length) throw new SqlError(SqlState.invalidParameterValue, 'invalid hexadecimal data: odd number of digits');
    out[n++] = (hi << 4) | hexValue(text, i++);
  }
  return n === out.length ? out : out.slice(0, n);
}

function badEscape(): SqlError {
  return new SqlError(SqlState.invalidTextRepresentation, 'invalid input syntax for type bytea');
}

const isOctal = (c: number | undefined): boolean => c !== undefined && c >= 48 && c <= 55;

/** The escape format over the text's UTF-8 bytes: `\\` is a backslash, `\ooo` (first digit 0-3) a byte. */
function escapeDecode(text: string): Uint8Array {
  const src = utf8.encode(text);
  const out = new Uint8Array(src.length);
  let n = 0;
  for (let i = 0; i < src.length; ) {
    const c = src[i]!;
    if (c !== 92) {
      out[n++] = c;
      i++;
    } else if (src[i + 1] === 92) {
      out[n++] = 92;
      i += 2;
    } else if (src[i + 1]! >= 48 && src[i + 1]! <= 51 && isOctal(src[i + 2]) && isOctal(src[i + 3])) {
      out[n++] = ((src[i + 1]! - 48) << 6) | ((src[i + 2]! - 48) << 3) | (src[i + 3]! - 48);
      i += 4;
    } else {
      throw badEscape();
    }
  }
  return n === out.length ? out : out.slice(0, n);
}

/** byteain: the hex format when the text starts with `\x` (lower-case x), the escape format otherwise. */
export function parseBytea(text: string): Uint8Array {
  if (text.charCodeAt(0) === 92 && text.charCodeAt(1) === 120) return hexDecode(text, 2);
  return escapeDecode(text);
}

/** Byte-wise order (memcmp), a proper prefix first: -1, 0 or 1. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

export function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** The bytes of every part, one after another. */
export function concatAllBytes(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** position(needle in b): the 1-based position of the first occurrence, 1 for an empty needle, 0 for none. */
export function positionBytes(b: Uint8Array, needle: Uint8Array): number {
  return asBuffer(b).indexOf(asBuffer(needle)) + 1;
}

/**
 * The bytes as a string of one character per byte (latin1), for LIKE: `_` then matches one byte, and
 * `%` and the backslash escape work byte by byte, as PostgreSQL's byteLIKE does.
 */
export function bytesAsLatin1(b: Uint8Array): string {
  return asBuffer(b).toString('latin1');
}

/**
 * bytea_substring: the bytes from 1-based position `start` on, `length` of them when given (counted from
 * `start` even where it lies before the first byte).
 */
export function substrBytes(b: Uint8Array, start: number, length?: number): Uint8Array {
  const from = Math.max(start, 1);
  if (length === undefined) return copyBytes(b, Math.min(from - 1, b.length));
  if (length < 0) throw new SqlError('22011', 'negative substring length not allowed');
  const end = start + length; // exclusive, 1-based (exact: PostgreSQL takes an int4 overflow as "to the end")
  if (end <= from) return new Uint8Array(0);
  return copyBytes(b, Math.min(from - 1, b.length), Math.min(end - 1, b.length));
}

function unknownEncoding(name: string): SqlError {
  return new SqlError(SqlState.invalidParameterValue, `unrecognized encoding: "${name}"`);
}

/** encode(bytea, format): 'hex', 'base64' or 'escape', the name in any case. */
export function encodeBytes(b: Uint8Array, format: string): string {
  switch (format.toLowerCase()) {
    case 'hex':
      return asBuffer(b).toString('hex');
    case 'base64':
      return base64Encode(b);
    case 'escape':
      return escapeEncode(b);
    default:
      throw unknownEncoding(format);
  }
}

/** decode(text, format): 'hex', 'base64' or 'escape', the name in any case. */
export function decodeBytes(text: string, format: string): Uint8Array {
  switch (format.toLowerCase()) {
    case 'hex':
      return hexDecode(text, 0);
    case 'base64':
      return base64Decode(text);
    case 'escape':
      return escapeDecode(text);
    default:
      throw unknownEncoding(format);
  }
}

/**
 * pg_base64_encode: standard base64 with padding, a newline after every 76 characters of complete
 * groups (so 57 bytes end in one), none after the final padded group.
 */
function base64Encode(b: Uint8Array): string {
  const s = asBuffer(b).toString('base64');
  const full = 4 * Math.floor(b.length / 3);
  let out = '';
  let i = 0;
  for (; i + 76 <= full; i += 76) out += s.slice(i, i + 76) + '\n';
  return out + s.slice(i);
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < B64.length; i++) B64_VALUE[B64.charCodeAt(i)] = i;

/**
 * pg_base64_decode, quirks included: blanks anywhere are skipped, `=` may end a group of two or three
 * symbols, and symbols after the end are still read (each later group then yields as many bytes as the
 * first padded one).
 */
function base64Decode(text: string): Uint8Array {
  const out = new Uint8Array(Math.ceil(text.length / 4) * 3);
  let n = 0;
  let buf = 0;
  let pos = 0;
  let end = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) continue;
    let v = 0;
    if (c === 61) {
      if (end === 0) {
        if (pos === 2) end = 1;
        else if (pos === 3) end = 2;
        else throw new SqlError(SqlState.invalidParameterValue, 'unexpected "=" while decoding base64 sequence');
      }
    } else {
      v = c > 0 && c < 127 ? B64_VALUE[c]! : -1;
      if (v < 0) {
        const ch = String.fromCodePoint(text.codePointAt(i) ?? c);
        throw new SqlError(SqlState.invalidParameterValue, `invalid symbol "${ch}" found while decoding base64 sequence`);
      }
    }
    buf = (buf << 6) + v;
    if (++pos === 4) {
      out[n++] = (buf >> 16) & 255;
      if (end === 0 || end > 1) out[n++] = (buf >> 8) & 255;
      if (end === 0 || end > 2) out[n++] = buf & 255;
      buf = 0;
      pos = 0;
    }
  }
  if (pos !== 0) {
    // PostgreSQL adds the hint "Input data is missing padding, is truncated, or is otherwise corrupted.";
    // SqlError carries no hint.
    throw new SqlError(SqlState.invalidParameterValue, 'invalid base64 end sequence');
  }
  return out.slice(0, n);
}

/** esc_encode (PostgreSQL 15): NUL and bytes from 0x80 as `\ooo`, a backslash doubled, the rest as is. */
function escapeEncode(b: Uint8Array): string {
  let out = '';
  for (let i = 0; i < b.length; i++) {
    const c = b[i]!;
    if (c === 0 || c >= 0x80) out += '\\' + (c >> 6) + ((c >> 3) & 7) + (c & 7);
    else if (c === 92) out += '\\\\';
    else out += String.fromCharCode(c);
  }
  return out;
}
