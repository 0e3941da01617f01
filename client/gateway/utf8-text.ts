// Text from the wire is UTF-8 (the only client_encoding the gateway speaks), checked as PostgreSQL checks
// it: a query, a name, a text parameter or COPY data with a byte sequence that is not well-formed UTF-8
// (a stray continuation byte, a cut-off sequence, an overlong form, a surrogate, a code point above
// U+10FFFF), or that holds a NUL byte, is refused with 22021 and PostgreSQL's message, never decoded into U+FFFD replacement
// characters that would then be stored as if the client had sent them. A leading U+FEFF is a character
// like any other (Buffer#toString keeps it).

import { isUtf8 } from 'node:buffer';
import { ProtocolError } from './protocol-error.ts';

export const INVALID_BYTE_SEQUENCE = '22021';

/**
 * Text that is not well-formed UTF-8. A ProtocolError, so where nothing more specific is done (the
 * startup packet) it closes the connection; messages and parameters report it as an ERROR.
 */
export class InvalidTextError extends ProtocolError {
  constructor(b: Uint8Array, at: number, to: number) {
    super(invalidUtf8Message(b, at, to), INVALID_BYTE_SEQUENCE);
  }
}

/** The length of the sequence a lead byte announces (PostgreSQL's pg_utf_mblen). */
function sequenceLength(lead: number): number {
  if ((lead & 0x80) === 0) return 1;
  if ((lead & 0xe0) === 0xc0) return 2;
  if ((lead & 0xf0) === 0xe0) return 3;
  if ((lead & 0xf8) === 0xf0) return 4;
  return 1;
}

/**
 * The index of the first byte of `b[from, to)` where it stops being well-formed UTF-8 (a sequence that
 * `to` cuts off included) or holds a NUL, or -1 when all of it is text PostgreSQL accepts.
 */
export function invalidUtf8At(b: Uint8Array, from: number, to: number): number {
  // Nearly all text is fine: node's native check (simdutf) says so at a fraction of the cost of the
  // walk below (COPY data arrives in 64 KiB messages), which only locates what is wrong.
  const view = b.subarray(from, to);
  if (isUtf8(view) && view.indexOf(0) < 0) return -1;
  let i = from;
  while (i < to) {
    const c = b[i]!;
    if (c < 0x80) {
      if (c === 0) return i; // PostgreSQL's text holds no NUL
      i++;
      continue;
    }
    const n = sequenceLength(c) - 1;
    if (n === 0 || i + n >= to) return i;
    let cp = c & (0x3f >> n);
    for (let k = 1; k <= n; k++) {
      const d = b[i + k]!;
      if ((d & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (d & 0x3f);
    }
    const min = n === 1 ? 0x80 : n === 2 ? 0x800 : 0x10000;
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += n + 1;
  }
  return -1;
}

/** PostgreSQL's report: the bytes of the sequence starting at `at`, as many as its lead byte announces. */
export function invalidUtf8Message(b: Uint8Array, at: number, to: number): string {
  const n = Math.min(sequenceLength(b[at] ?? 0), to - at);
  const shown: string[] = [];
  for (let k = 0; k < n; k++) shown.push(`0x${b[at + k]!.toString(16).padStart(2, '0')}`);
  return `invalid byte sequence for encoding "UTF8": ${shown.join(' ')}`;
}

/** `b[from, to)` as a string; throws InvalidTextError when it is not well-formed UTF-8. */
export function utf8Text(b: Buffer, from = 0, to = b.length): string {
  const bad = invalidUtf8At(b, from, to);
  if (bad >= 0) throw new InvalidTextError(b, bad, to);
  return b.toString('utf8', from, to);
}

/**
 * Decodes a stream of chunks (COPY data): each `push` returns the text of the complete sequences so far,
 * keeping a sequence the chunk cuts off for the next one; `end` refuses one still cut off.
 */
export class Utf8Stream {
  private carry: Buffer | null = null;

  push(chunk: Buffer): string {
    const b = this.carry === null ? chunk : Buffer.concat([this.carry, chunk]);
    this.carry = null;
    const bad = invalidUtf8At(b, 0, b.length);
    if (bad < 0) return b.toString('utf8');
    if (cutOff(b, bad)) {
      this.carry = Buffer.from(b.subarray(bad));
      return b.toString('utf8', 0, bad);
    }
    throw new InvalidTextError(b, bad, b.length);
  }

  end(): void {
    const c = this.carry;
    this.carry = null;
    if (c !== null) throw new InvalidTextError(c, 0, c.length);
  }
}

/** Whether the bytes from `at` to the end are the start of a sequence the next chunk may complete. */
function cutOff(b: Uint8Array, at: number): boolean {
  const n = sequenceLength(b[at]!);
  if (n === 1 || b.length - at >= n) return false;
  for (let k = at + 1; k < b.length; k++) if ((b[k]! & 0xc0) !== 0x80) return false;
  return true;
}
