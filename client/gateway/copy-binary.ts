// PostgreSQL's binary COPY format (copyfromparse.c, copyto.c): the 11-byte signature "PGCOPY\n\377\r\n\0",
// a 32-bit flags field (bit 16: OIDs, refused; other high bits are critical flags, refused), a 32-bit
// header extension length and the extension (skipped); then per row a 16-bit field count (-1: the end
// marker) and per field a 32-bit length (-1: NULL) and the value in its type's binary form
// (value-format.ts). Reading, the data may arrive cut anywhere across CopyData messages; data ending
// at a row boundary without the marker is accepted, as PostgreSQL does. Errors are 22P04 with
// PostgreSQL's messages.

import type { BackendWriter } from './backend-encoder.ts';
import { GatewayState } from './protocol-error.ts';
import type { BackendRows } from './sql-backend.ts';
import { writeValue } from './value-format.ts';

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const OIDS_FLAG = 1 << 16;

/** Bad binary COPY data, with the row (1-based, as PostgreSQL's CONTEXT counts lines) and column it was found in. */
export class CopyFormatError extends Error {
  override readonly name = 'CopyFormatError';
  readonly code = GatewayState.badCopyFileFormat;
  constructor(message: string, readonly line?: number, readonly column?: number) {
    super(message);
  }
}

/** Incremental reader of binary COPY data: push CopyData payloads, get complete rows of raw field values. */
export class BinaryCopyParser {
  #buf: Buffer = Buffer.alloc(0);
  #headerRead = false;
  /** Rows read so far. */
  #rows = 0;
  /** The column the data ran out in, when it ran out inside a row. */
  #cutAt = -1;
  /** Set once the end marker was read; later data is an error. */
  finished = false;

  constructor(private readonly columns: number) {}

  push(data: Buffer): (Buffer | null)[][] {
    if (this.finished) {
      if (data.length > 0) throw new CopyFormatError('received copy data after EOF marker', this.#rows + 1);
      return [];
    }
    this.#buf = this.#buf.length === 0 ? data : Buffer.concat([this.#buf, data]);
    return this.#drain();
  }

  /** CopyDone: the rows still buffered; data cut inside the header or a row is an error. */
  end(): (Buffer | null)[][] {
    const rows = this.finished ? [] : this.#drain();
    if (!this.#headerRead) throw new CopyFormatError('COPY file signature not recognized');
    if (!this.finished && this.#buf.length > 0) throw new CopyFormatError('unexpected EOF in COPY data', this.#rows + 1, this.#cutAt >= 0 ? this.#cutAt : undefined);
    return rows;
  }

  #drain(): (Buffer | null)[][] {
    const b = this.#buf;
    let pos = 0;
    if (!this.#headerRead) {
      const h = this.#header(b);
      if (h < 0) return [];
      pos = h;
      this.#headerRead = true;
    }
    const rows: (Buffer | null)[][] = [];
    this.#cutAt = -1;
    while (pos + 2 <= b.length) {
      const line = this.#rows + 1;
      const count = b.readInt16BE(pos);
      if (count === -1) {
        this.finished = true;
        if (pos + 2 < b.length) throw new CopyFormatError('received copy data after EOF marker', line);
        pos += 2;
        break;
      }
      if (count !== this.columns) throw new CopyFormatError(`row field count is ${count}, expected ${this.columns}`, line);
      const fields: (Buffer | null)[] = [];
      let at = pos + 2;
      for (let i = 0; i < count; i++) {
        this.#cutAt = i;
        if (at + 4 > b.length) break;
        const len = b.readInt32BE(at);
        at += 4;
        if (len === -1) {
          fields.push(null);
          continue;
        }
        if (len < 0) throw new CopyFormatError('invalid field size', line, i);
        if (at + len > b.length) break;
        fields.push(b.subarray(at, at + len));
        at += len;
      }
      if (fields.length < count) break; // the row continues in the next CopyData
      this.#cutAt = -1;
      this.#rows++;
      rows.push(fields);
      pos = at;
    }
    this.#buf = b.subarray(pos);
    return rows;
  }

  /** The header's length, or -1 when it has not all arrived. */
  #header(b: Buffer): number {
    if (b.length < SIGNATURE.length) {
      if (!SIGNATURE.subarray(0, b.length).equals(b)) throw new CopyFormatError('COPY file signature not recognized');
      return -1;
    }
    if (!b.subarray(0, SIGNATURE.length).equals(SIGNATURE)) throw new CopyFormatError('COPY file signature not recognized');
    if (b.length < SIGNATURE.length + 8) return -1;
    const flags = b.readInt32BE(SIGNATURE.length);
    if ((flags & OIDS_FLAG) !== 0) throw new CopyFormatError('invalid COPY file header (WITH OIDS)');
    if ((flags & ~OIDS_FLAG) >>> 16 !== 0) throw new CopyFormatError('unrecognized critical flags in COPY file header');
    const extension = b.readInt32BE(SIGNATURE.length + 4);
    if (extension < 0) throw new CopyFormatError('invalid COPY file header (missing length)');
    const end = SIGNATURE.length + 8 + extension;
    return b.length < end ? -1 : end;
  }
}

/**
 * COPY ... TO STDOUT (FORMAT binary): one CopyData per row, the header in the first one and the end
 * marker in a last one of its own, as PostgreSQL sends them (psycopg's reader expects the header and the
 * first row in one message).
 */
export function writeBinaryCopy(out: BackendWriter, r: BackendRows): void {
  const n = r.columns.length;
  const types = r.columns.map((c) => c.type);
  out.copyOutResponse(n, true);
  const header = (): void => {
    out.bytes(SIGNATURE);
    out.int32(0); // flags
    out.int32(0); // header extension length
  };
  r.rows.forEach((row, i) => {
    out.begin('d');
    if (i === 0) header();
    out.int16(n);
    for (let c = 0; c < n; c++) writeValue(out, row[c] ?? null, types[c]!, 1, r.columns[c]!.typmod);
    out.end();
  });
  out.begin('d');
  if (r.rows.length === 0) header();
  out.int16(-1);
  out.end();
}
