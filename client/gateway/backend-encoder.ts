// Backend (server-to-client) messages of the PostgreSQL v3 protocol, written into one growing buffer per
// connection. The session appends replies as it goes and the connection flushes them in one socket write
// at ReadyForQuery, Flush, CopyInResponse or an authentication step: PostgreSQL's own batching, and with
// TCP_NODELAY one segment per round trip.

export type TxnStatusByte = 'I' | 'T' | 'E';

/** One column of a RowDescription. */
export interface FieldDescription {
  readonly name: string;
  readonly typeOid: number;
  readonly typeLen: number;
  readonly typmod: number;
  /** 0 text, 1 binary. */
  readonly format: number;
}

/** Fields of an ErrorResponse or NoticeResponse (PostgreSQL's one-letter codes S, V, C, M, D, H, P, W). */
export interface ErrorFields {
  readonly severity: 'ERROR' | 'FATAL' | 'PANIC' | 'WARNING' | 'NOTICE' | 'DEBUG' | 'INFO' | 'LOG';
  readonly code: string;
  readonly message: string;
  readonly detail?: string | undefined;
  readonly hint?: string | undefined;
  readonly position?: number | undefined;
  /** PostgreSQL's W field (CONTEXT). */
  readonly context?: string | undefined;
}

const INITIAL_BYTES = 16 * 1024;
/** Below this size `Buffer.allocUnsafe` slices Node's shared pool (half of `Buffer.poolSize`). */
const POOLED_BYTES_MAX = Buffer.poolSize >>> 1;

export class BackendWriter {
  private buf = Buffer.allocUnsafe(INITIAL_BYTES);
  private pos = 0;
  private start = -1;

  get size(): number {
    return this.pos;
  }

  /**
   * Hands over everything written so far. A small batch (the replies to one statement) is copied into
   * Node's shared buffer pool and this buffer is kept: a fresh 16 KiB buffer per ReadyForQuery was an
   * allocation outside the pool per statement. A large one (a big result) is handed over whole and a
   * fresh buffer started, so it is never copied.
   */
  take(): Buffer {
    const n = this.pos;
    this.pos = 0;
    if (n < POOLED_BYTES_MAX) {
      const out = Buffer.allocUnsafe(n);
      this.buf.copy(out, 0, 0, n);
      return out;
    }
    const out = this.buf.subarray(0, n);
    this.buf = Buffer.allocUnsafe(Math.max(INITIAL_BYTES, Math.min(this.buf.length, 1 << 20)));
    return out;
  }

  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  begin(type: string): void {
    this.ensure(5);
    this.buf[this.pos] = type.charCodeAt(0);
    this.start = this.pos + 1;
    this.pos += 5;
  }

  end(): void {
    this.buf.writeInt32BE(this.pos - this.start, this.start);
    this.start = -1;
  }

  byte(v: number): void {
    this.ensure(1);
    this.buf[this.pos++] = v;
  }

  int16(v: number): void {
    this.ensure(2);
    this.buf.writeInt16BE(v, this.pos);
    this.pos += 2;
  }

  int32(v: number): void {
    this.ensure(4);
    this.buf.writeInt32BE(v | 0, this.pos);
    this.pos += 4;
  }

  cstring(s: string): void {
    const n = Buffer.byteLength(s);
    this.ensure(n + 1);
    this.pos += this.buf.write(s, this.pos, 'utf8');
    this.buf[this.pos++] = 0;
  }

  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** A length-prefixed UTF-8 value (a DataRow column or a parameter), or -1 for NULL. */
  lengthPrefixedText(s: string | null): void {
    if (s === null) {
      this.int32(-1);
      return;
    }
    const n = Buffer.byteLength(s);
    this.ensure(n + 4);
    this.buf.writeInt32BE(n, this.pos);
    this.pos += 4;
    this.pos += this.buf.write(s, this.pos, 'utf8');
  }

  /** Reserves `n` bytes and returns the buffer and offset to fill them at (binary column values). */
  reserve(n: number): { readonly buf: Buffer; readonly at: number } {
    this.ensure(n);
    const at = this.pos;
    this.pos += n;
    return { buf: this.buf, at };
  }

  // ---- Messages -----------------------------------------------------------------------------------

  authenticationOk(): void {
    this.begin('R');
    this.int32(0);
    this.end();
  }

  authenticationSasl(mechanisms: readonly string[]): void {
    this.begin('R');
    this.int32(10);
    for (const m of mechanisms) this.cstring(m);
    this.byte(0);
    this.end();
  }

  authenticationSaslContinue(data: string): void {
    this.begin('R');
    this.int32(11);
    this.bytes(Buffer.from(data, 'utf8'));
    this.end();
  }

  authenticationSaslFinal(data: string): void {
    this.begin('R');
    this.int32(12);
    this.bytes(Buffer.from(data, 'utf8'));
    this.end();
  }

  parameterStatus(name: string, value: string): void {
    this.begin('S');
    this.cstring(name);
    this.cstring(value);
    this.end();
  }

  backendKeyData(processId: number, secretKey: number): void {
    this.begin('K');
    this.int32(processId);
    this.int32(secretKey);
    this.end();
  }

  readyForQuery(status: TxnStatusByte): void {
    this.begin('Z');
    this.byte(status.charCodeAt(0));
    this.end();
  }

  rowDescription(fields: readonly FieldDescription[]): void {
    this.begin('T');
    this.int16(fields.length);
    for (const f of fields) {
      this.cstring(f.name);
      this.int32(0); // table oid
      this.int16(0); // column attribute number
      this.int32(f.typeOid);
      this.int16(f.typeLen);
      this.int32(f.typmod);
      this.int16(f.format);
    }
    this.end();
  }

  parameterDescription(typeOids: readonly number[]): void {
    this.begin('t');
    this.int16(typeOids.length);
    for (const oid of typeOids) this.int32(oid);
    this.end();
  }

  commandComplete(tag: string): void {
    this.begin('C');
    this.cstring(tag);
    this.end();
  }

  emptyQueryResponse(): void {
    this.begin('I');
    this.end();
  }

  errorResponse(e: ErrorFields): void {
    this.fields('E', e);
  }

  noticeResponse(e: ErrorFields): void {
    this.fields('N', e);
  }

  private fields(type: 'E' | 'N', e: ErrorFields): void {
    this.begin(type);
    const put = (code: string, v: string): void => {
      this.byte(code.charCodeAt(0));
      this.cstring(v);
    };
    put('S', e.severity);
    put('V', e.severity);
    put('C', e.code);
    put('M', e.message);
    if (e.detail !== undefined) put('D', e.detail);
    if (e.hint !== undefined) put('H', e.hint);
    if (e.position !== undefined) put('P', String(e.position));
    if (e.context !== undefined) put('W', e.context);
    this.byte(0);
    this.end();
  }

  parseComplete(): void {
    this.begin('1');
    this.end();
  }

  bindComplete(): void {
    this.begin('2');
    this.end();
  }

  closeComplete(): void {
    this.begin('3');
    this.end();
  }

  noData(): void {
    this.begin('n');
    this.end();
  }

  portalSuspended(): void {
    this.begin('s');
    this.end();
  }

  copyInResponse(columnCount: number, binary: boolean): void {
    this.copyResponse('G', columnCount, binary);
  }

  copyOutResponse(columnCount: number, binary = false): void {
    this.copyResponse('H', columnCount, binary);
  }

  private copyResponse(type: 'G' | 'H', columnCount: number, binary: boolean): void {
    this.begin(type);
    this.byte(binary ? 1 : 0);
    this.int16(columnCount);
    for (let i = 0; i < columnCount; i++) this.int16(binary ? 1 : 0);
    this.end();
  }

  copyData(data: Uint8Array): void {
    this.begin('d');
    this.bytes(data);
    this.end();
  }

  copyDone(): void {
    this.begin('c');
    this.end();
  }
}
