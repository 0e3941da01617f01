// A bounds-checked reader over one message body. Every read past the end, and every C string without
// its terminating NUL, throws a ProtocolError: a malformed message can never be half-understood. A C
// string that is not well-formed UTF-8 throws InvalidTextError (22021, utf8-text.ts).

import { ProtocolError } from './protocol-error.ts';
import { utf8Text } from './utf8-text.ts';

const lenientText = (b: Buffer, from: number, to: number): string => b.toString('utf8', from, to);

export class WireReader {
  private pos: number;

  constructor(private readonly buf: Buffer, start = 0) {
    this.pos = start;
  }

  get remaining(): number {
    return this.buf.length - this.pos;
  }

  private need(n: number, what: string): void {
    if (n < 0 || this.pos + n > this.buf.length) throw new ProtocolError(`invalid message format: truncated ${what}`);
  }

  byte(): number {
    this.need(1, 'byte');
    return this.buf[this.pos++] as number;
  }

  int16(): number {
    this.need(2, 'int16');
    const v = this.buf.readInt16BE(this.pos);
    this.pos += 2;
    return v;
  }

  int32(): number {
    this.need(4, 'int32');
    const v = this.buf.readInt32BE(this.pos);
    this.pos += 4;
    return v;
  }

  cstring(): string {
    return this.#cstring(utf8Text);
  }

  /** A C string whose bytes need not be UTF-8 (a CopyFail reason: invalid bytes become U+FFFD). */
  cstringLenient(): string {
    return this.#cstring(lenientText);
  }

  #cstring(decode: (b: Buffer, from: number, to: number) => string): string {
    const end = this.buf.indexOf(0, this.pos);
    if (end < 0) throw new ProtocolError('invalid message format: unterminated string');
    const s = decode(this.buf, this.pos, end);
    this.pos = end + 1;
    return s;
  }

  bytes(n: number): Buffer {
    this.need(n, 'bytes');
    const b = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }

  rest(): Buffer {
    const b = this.buf.subarray(this.pos);
    this.pos = this.buf.length;
    return b;
  }

  /** Declares the message fully read; trailing bytes are a protocol violation, as in PostgreSQL. */
  end(): void {
    if (this.pos !== this.buf.length) throw new ProtocolError('invalid message format: trailing bytes');
  }
}
