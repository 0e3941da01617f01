// Frontend (client-to-server) messages of the PostgreSQL v3 protocol: a streaming framer that cuts the
// socket's byte stream into messages, whatever the TCP read boundaries, and a decoder that turns each
// frame into a readonly, discriminated `FrontendMessage`.
//
// The first frame of a connection has no type byte (startup, SSLRequest, GSSENCRequest, CancelRequest);
// every later frame is `type:u8 length:i32 body`. Limits: a startup frame above 10,000 bytes (PostgreSQL's
// own MAX_STARTUP_PACKET_LENGTH) or any frame above `maxMessageBytes`, a length below 4, an unknown type
// byte or a malformed body throw ProtocolError; the connection shell answers FATAL and closes.

import { ProtocolError, GatewayState } from './protocol-error.ts';
import { WireReader } from './wire-reader.ts';
import { InvalidTextError } from './utf8-text.ts';

export const PROTOCOL_V3 = 196608;
export const SSL_REQUEST_CODE = 80877103;
export const GSSENC_REQUEST_CODE = 80877104;
export const CANCEL_REQUEST_CODE = 80877102;
const MAX_STARTUP_BYTES = 10_000;

export type StartupPacket =
  | { readonly kind: 'startup'; readonly params: ReadonlyMap<string, string> }
  | { readonly kind: 'sslRequest' }
  | { readonly kind: 'gssEncRequest' }
  | { readonly kind: 'cancel'; readonly processId: number; readonly secretKey: number };

export type FrontendMessage =
  | { readonly kind: 'query'; readonly sql: string }
  | { readonly kind: 'parse'; readonly name: string; readonly sql: string; readonly paramTypeOids: readonly number[] }
  | {
      readonly kind: 'bind';
      readonly portal: string;
      readonly statement: string;
      readonly paramFormats: readonly number[];
      readonly params: readonly (Buffer | null)[];
      readonly resultFormats: readonly number[];
    }
  | { readonly kind: 'describe'; readonly target: 'S' | 'P'; readonly name: string }
  | { readonly kind: 'execute'; readonly portal: string; readonly maxRows: number }
  | { readonly kind: 'close'; readonly target: 'S' | 'P'; readonly name: string }
  | { readonly kind: 'sync' }
  | { readonly kind: 'flush' }
  | { readonly kind: 'copyData'; readonly data: Buffer }
  | { readonly kind: 'copyDone' }
  | { readonly kind: 'copyFail'; readonly message: string }
  /** PasswordMessage, SASLInitialResponse and SASLResponse share the type byte 'p'; auth reads the body. */
  | { readonly kind: 'authResponse'; readonly body: Buffer }
  | { readonly kind: 'terminate' }
  /**
   * A Query, Parse, Bind, Describe, Execute or Close whose text is not well-formed UTF-8: the session
   * answers it with an ERROR (22021), as PostgreSQL does, and the connection stays (`simple`: a Query).
   */
  | { readonly kind: 'invalidText'; readonly simple: boolean; readonly code: string; readonly message: string };

export type FrontendKind = FrontendMessage['kind'];

/** Cuts a byte stream into frames. Call `push` per socket chunk, then `next` until it returns null. */
export class MessageFramer {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private startupPhase = true;

  constructor(private readonly maxMessageBytes: number) {}

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.buffered += chunk.length;
  }

  get pendingBytes(): number {
    return this.buffered;
  }

  /** The next whole frame: its type byte (0 for a startup frame) and body, or null when incomplete. */
  next(): { readonly type: number; readonly body: Buffer } | null {
    const header = this.startupPhase ? 4 : 5;
    if (this.buffered < header) return null;
    const head = this.peek(header);
    const type = this.startupPhase ? 0 : (head[0] as number);
    const len = head.readInt32BE(this.startupPhase ? 0 : 1);
    if (len < (this.startupPhase ? 8 : 4)) throw new ProtocolError(`invalid message length ${len}`);
    const limit = this.startupPhase ? MAX_STARTUP_BYTES : this.maxMessageBytes;
    if (len > limit) {
      throw new ProtocolError(`message of ${len} bytes exceeds the limit of ${limit} bytes`, GatewayState.programLimitExceeded);
    }
    const total = len + (this.startupPhase ? 0 : 1);
    if (this.buffered < total) return null;
    const frame = this.take(total);
    if (this.startupPhase) {
      // Only SSLRequest and GSSENCRequest are followed by another untyped packet.
      const code = frame.readInt32BE(4);
      if (code !== SSL_REQUEST_CODE && code !== GSSENC_REQUEST_CODE) this.startupPhase = false;
    }
    return { type, body: frame.subarray(header) };
  }

  private peek(n: number): Buffer {
    const first = this.chunks[0] as Buffer;
    if (first.length >= n) return first;
    this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0] as Buffer;
  }

  private take(n: number): Buffer {
    let first = this.chunks[0] as Buffer;
    if (first.length < n) {
      // Concatenate once, only when the whole frame has arrived (no quadratic copying of big messages).
      first = Buffer.concat(this.chunks);
      this.chunks = [first];
    }
    this.buffered -= n;
    if (first.length === n) this.chunks.shift();
    else this.chunks[0] = first.subarray(n);
    return first.subarray(0, n);
  }
}

export function decodeStartup(body: Buffer): StartupPacket {
  const r = new WireReader(body);
  const code = r.int32();
  if (code === SSL_REQUEST_CODE) {
    r.end();
    return { kind: 'sslRequest' };
  }
  if (code === GSSENC_REQUEST_CODE) {
    r.end();
    return { kind: 'gssEncRequest' };
  }
  if (code === CANCEL_REQUEST_CODE) {
    const processId = r.int32();
    const secretKey = r.int32();
    r.end();
    return { kind: 'cancel', processId, secretKey };
  }
  if (code >> 16 !== 3) {
    throw new ProtocolError(`unsupported frontend protocol ${code >> 16}.${code & 0xffff}: server supports 3.0`, GatewayState.featureNotSupported);
  }
  const params = new Map<string, string>();
  for (;;) {
    const key = r.cstring();
    if (key === '') break;
    params.set(key, r.cstring());
  }
  r.end();
  return { kind: 'startup', params };
}

function int16List(r: WireReader): number[] {
  const n = r.int16();
  if (n < 0) throw new ProtocolError('invalid message format: negative count');
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(r.int16());
  return out;
}

function target(r: WireReader): 'S' | 'P' {
  const t = r.byte();
  if (t === 0x53) return 'S';
  if (t === 0x50) return 'P';
  throw new ProtocolError(`invalid DESCRIBE/CLOSE message subtype ${t}`);
}

export function decodeFrontend(type: number, body: Buffer): FrontendMessage {
  try {
    return decodeBody(type, body);
  } catch (e) {
    if (!(e instanceof InvalidTextError)) throw e;
    return { kind: 'invalidText', simple: type === 0x51, code: e.code, message: e.message };
  }
}

function decodeBody(type: number, body: Buffer): FrontendMessage {
  const r = new WireReader(body);
  let m: FrontendMessage;
  switch (String.fromCharCode(type)) {
    case 'Q':
      m = { kind: 'query', sql: r.cstring() };
      break;
    case 'P': {
      const name = r.cstring();
      const sql = r.cstring();
      const n = r.int16();
      if (n < 0) throw new ProtocolError('invalid message format: negative count');
      const paramTypeOids: number[] = [];
      for (let i = 0; i < n; i++) paramTypeOids.push(r.int32() >>> 0);
      m = { kind: 'parse', name, sql, paramTypeOids };
      break;
    }
    case 'B': {
      const portal = r.cstring();
      const statement = r.cstring();
      const paramFormats = int16List(r);
      const n = r.int16();
      if (n < 0) throw new ProtocolError('invalid message format: negative count');
      const params: (Buffer | null)[] = [];
      for (let i = 0; i < n; i++) {
        const len = r.int32();
        params.push(len === -1 ? null : r.bytes(len));
      }
      const resultFormats = int16List(r);
      m = { kind: 'bind', portal, statement, paramFormats, params, resultFormats };
      break;
    }
    case 'D':
      m = { kind: 'describe', target: target(r), name: r.cstring() };
      break;
    case 'E':
      m = { kind: 'execute', portal: r.cstring(), maxRows: r.int32() };
      break;
    case 'C':
      m = { kind: 'close', target: target(r), name: r.cstring() };
      break;
    case 'S':
      m = { kind: 'sync' };
      break;
    case 'H':
      m = { kind: 'flush' };
      break;
    case 'd':
      return { kind: 'copyData', data: r.rest() };
    case 'c':
      m = { kind: 'copyDone' };
      break;
    case 'f':
      m = { kind: 'copyFail', message: r.cstringLenient() };
      break;
    case 'p':
      return { kind: 'authResponse', body: r.rest() };
    case 'X':
      m = { kind: 'terminate' };
      break;
    default:
      throw new ProtocolError(`invalid frontend message type ${type}`);
  }
  r.end();
  return m;
}
