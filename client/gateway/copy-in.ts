// COPY ... FROM STDIN: the sub-protocol (CopyInResponse, then CopyData until CopyDone or CopyFail) and
// the two text formats psql's \copy and pgbench -i send, PostgreSQL's `text` (tab-separated, \N for
// NULL, backslash escapes, a `\.` line ends the data) and `csv` (quotes, unquoted empty = NULL, optional
// header), and `binary` (copy-binary.ts: PostgreSQL's signature and header, then per row a field count and
// each field's length and binary value). Rows become multi-row INSERTs with parameters through the
// backend, in batches, so a cluster backend sees a few hundred statements per 100,000 rows instead of one
// per row. The caller wraps the whole COPY in one transaction. COPY FROM a file or program is refused
// with 0A000; COPY TO STDOUT is copy-out.ts.

import type { CopyStmt, Node } from 'libpg-query';
import { quoteIdent, type TableDef } from '../../sql/catalog.ts';
import { parseText } from '../../sql/types.ts';
import { UTC_ZONE, withSessionZone, type SessionZone } from '../../sql/session-zone.ts';
import type { SqlType, SqlValue } from '../../sql/types.ts';
import { checkQualifiedNames } from '../../sql/qualified-names.ts';
import { SqlError } from '../../sql/errors.ts';
import { BinaryCopyParser, CopyFormatError } from './copy-binary.ts';
import { decodeParam } from './value-format.ts';
import type { FrontendMessage } from './frontend-decoder.ts';
import { GatewayState } from './protocol-error.ts';
import type { BackendError, BackendSession, BackendStatement } from './sql-backend.ts';
import { InvalidTextError, Utf8Stream } from './utf8-text.ts';

export interface CopySpec {
  readonly table: string;
  readonly columns: readonly string[] | null;
  readonly format: 'text' | 'csv' | 'binary';
  readonly delimiter: string;
  readonly nullString: string;
  readonly header: boolean;
  readonly quote: string;
  readonly escape: string;
}

/** A COPY the gateway refuses: 0A000 unless `code` says otherwise (PostgreSQL's option errors). */
export type CopyRefused = { readonly k: 'unsupported'; readonly message: string; readonly code?: string };
type CopyCommand = { readonly k: 'copyFrom'; readonly spec: CopySpec } | CopyRefused;

function optionText(arg: Node | undefined): string | null {
  if (arg === undefined) return null;
  if ('String' in arg) return arg.String.sval ?? '';
  if ('Integer' in arg) return String(arg.Integer.ival ?? 0);
  if ('Boolean' in arg) return arg.Boolean.boolval === true ? 'true' : 'false';
  if ('A_Const' in arg) {
    const c = arg.A_Const;
    if (c.sval !== undefined) return c.sval.sval ?? '';
    if (c.ival !== undefined) return String(c.ival.ival ?? 0);
    if (c.boolval !== undefined) return c.boolval.boolval === true ? 'true' : 'false';
  }
  return null;
}

const truthy = (v: string | null): boolean => v === null || /^(true|on|1|yes|match)$/i.test(v);

/** How COPY data is written (shared with COPY TO, copy-out.ts). */
export type CopyFormat = Omit<CopySpec, 'table' | 'columns'>;

/** The format options of a COPY statement, with PostgreSQL's defaults per format and its checks (copy.c ProcessCopyOptions). */
export function copyFormatOf(c: CopyStmt): { readonly ok: true; readonly format: CopyFormat } | { readonly ok: false; readonly refused: CopyRefused } {
  const refuse = (message: string, code?: string): { ok: false; refused: CopyRefused } => ({ ok: false, refused: code === undefined ? { k: 'unsupported', message } : { k: 'unsupported', message, code } });
  let format: 'text' | 'csv' | 'binary' = 'text';
  let delimiter: string | null = null;
  let nullString: string | null = null;
  let header = false;
  let headerGiven = false;
  let quote: string | null = null;
  let escape: string | null = null;
  for (const o of c.options ?? []) {
    if (!('DefElem' in o)) continue;
    const name = o.DefElem.defname ?? '';
    const v = optionText(o.DefElem.arg);
    switch (name) {
      case 'format':
        if (v === 'csv' || v === 'text' || v === 'binary') format = v;
        else return refuse(`COPY format "${v ?? ''}" not recognized`, '22023');
        break;
      case 'delimiter': delimiter = v; break;
      case 'null': nullString = v; break;
      case 'header': header = truthy(v); headerGiven = true; break;
      case 'quote': quote = v ?? '"'; break;
      case 'escape': escape = v; break;
      case 'freeze':
      case 'encoding':
        break;
      default:
        return refuse(`COPY option "${name}" is not supported`);
    }
  }
  const binary = format === 'binary';
  if (binary && delimiter !== null) return refuse('cannot specify DELIMITER in BINARY mode', '42601');
  if (binary && nullString !== null) return refuse('cannot specify NULL in BINARY mode', '42601');
  if (delimiter !== null && delimiter.length !== 1) return refuse('COPY delimiter must be a single one-byte character');
  if (binary && headerGiven) return refuse('cannot specify HEADER in BINARY mode');
  if (format !== 'csv' && quote !== null) return refuse('COPY quote available only in CSV mode');
  if (format !== 'csv' && escape !== null) return refuse('COPY escape available only in CSV mode');
  return {
    ok: true,
    format: {
      format,
      delimiter: delimiter ?? (format === 'csv' ? ',' : '\t'),
      nullString: nullString ?? (format === 'csv' ? '' : '\\N'),
      header,
      quote: quote ?? '"',
      escape: escape ?? quote ?? '"',
    },
  };
}

/** A COPY's table qualified with a schema this database lacks or a system schema's (sql/qualified-names.ts), refused as PostgreSQL refuses it. */
export function copyRelationRefused(c: CopyStmt): CopyRefused | null {
  if (c.relation === undefined) return null;
  try {
    checkQualifiedNames({ CopyStmt: { relation: c.relation } });
    return null;
  } catch (e) {
    if (e instanceof SqlError) return { k: 'unsupported', message: e.message, code: e.code };
    throw e;
  }
}

export function copySpecOf(c: CopyStmt): CopyCommand {
  if (c.is_from !== true) return { k: 'unsupported', message: 'COPY TO is not supported' };
  if (c.filename !== undefined || c.is_program === true) return { k: 'unsupported', message: 'COPY FROM a file or program is not supported; use COPY FROM STDIN (psql \\copy)' };
  if (c.relation?.relname === undefined) return { k: 'unsupported', message: 'COPY FROM needs a table' };
  const qualified = copyRelationRefused(c);
  if (qualified !== null) return qualified;
  if (c.whereClause !== undefined) return { k: 'unsupported', message: 'COPY FROM ... WHERE is not supported' };
  const f = copyFormatOf(c);
  if (!f.ok) return f.refused;
  const columns = c.attlist === undefined ? null : c.attlist.map((n) => ('String' in n ? n.String.sval ?? '' : ''));
  return { k: 'copyFrom', spec: { table: c.relation.relname, columns, ...f.format } };
}

const ESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/** Splits one text-format line into fields (null for NULL), undoing backslash escapes. */
function textFields(line: string, spec: CopySpec): (string | null)[] {
  const out: (string | null)[] = [];
  let field = '';
  let raw = '';
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] as string;
    if (ch === spec.delimiter) {
      out.push(raw === spec.nullString ? null : field);
      field = raw = '';
      continue;
    }
    if (ch === '\\' && i + 1 < line.length) {
      const nx = line[++i] as string;
      raw += ch + nx;
      if (ESCAPES[nx] !== undefined) field += ESCAPES[nx];
      else if (nx >= '0' && nx <= '7') {
        let oct = nx;
        while (oct.length < 3 && /[0-7]/.test(line[i + 1] ?? '')) oct += line[++i] as string;
        raw += oct.slice(1);
        field += String.fromCharCode(parseInt(oct, 8));
      } else if (nx === 'x' && /[0-9a-fA-F]/.test(line[i + 1] ?? '')) {
        let hex = line[++i] as string;
        if (/[0-9a-fA-F]/.test(line[i + 1] ?? '')) hex += line[++i] as string;
        raw += hex;
        field += String.fromCharCode(parseInt(hex, 16));
      } else field += nx;
      continue;
    }
    field += ch;
    raw += ch;
  }
  out.push(raw === spec.nullString ? null : field);
  return out;
}

/**
 * Incremental parser: feed CopyData payloads, get complete rows. Invariant: `pending` holds the text
 * after the last complete record (a record may span CopyData messages, a CSV record may span lines).
 */
export class CopyRowParser {
  private readonly decoder = new Utf8Stream();
  private pending = '';
  private skipHeader: boolean;
  /** Set once the `\.` end-of-data line was seen; later data is ignored. */
  finished = false;

  constructor(private readonly spec: CopySpec) {
    this.skipHeader = spec.header;
  }

  push(data: Buffer): (string | null)[][] {
    if (this.finished) return [];
    this.pending += this.decoder.push(data);
    return this.drain(false);
  }

  end(): (string | null)[][] {
    if (this.finished) return [];
    this.decoder.end();
    return this.drain(true);
  }

  private drain(atEnd: boolean): (string | null)[][] {
    const rows: (string | null)[][] = [];
    let pos = 0;
    const s = this.pending;
    while (pos < s.length && !this.finished) {
      const rec = this.spec.format === 'csv' ? this.csvRecordEnd(s, pos) : s.indexOf('\n', pos);
      if (rec < 0 && !atEnd) break;
      const stop = rec < 0 ? s.length : rec;
      let line = s.slice(pos, stop);
      pos = rec < 0 ? s.length : rec + 1;
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line === '\\.') {
        this.finished = true;
        break;
      }
      if (this.skipHeader) {
        this.skipHeader = false;
        continue;
      }
      rows.push(this.spec.format === 'csv' ? this.csvFields(line) : textFields(line, this.spec));
    }
    this.pending = s.slice(pos);
    return rows;
  }

  /** Index of the newline ending the CSV record that starts at `from`, or -1 when incomplete. */
  private csvRecordEnd(s: string, from: number): number {
    let quoted = false;
    for (let i = from; i < s.length; i++) {
      const ch = s[i];
      if (quoted) {
        if (ch === this.spec.escape && this.spec.escape !== this.spec.quote && i + 1 < s.length) i++;
        else if (ch === this.spec.quote) {
          if (this.spec.escape === this.spec.quote && s[i + 1] === this.spec.quote) i++;
          else quoted = false;
        }
      } else if (ch === this.spec.quote) quoted = true;
      else if (ch === '\n') return i;
    }
    return -1;
  }

  private csvFields(line: string): (string | null)[] {
    const { delimiter, quote, escape, nullString } = this.spec;
    const out: (string | null)[] = [];
    let field = '';
    let wasQuoted = false;
    let quoted = false;
    for (let i = 0; i <= line.length; i++) {
      const ch = line[i];
      if (quoted) {
        const nx = line[i + 1];
        if (ch === escape && nx !== undefined && (nx === quote || (escape !== quote && nx === escape))) {
          field += nx;
          i++;
        } else if (ch === quote) quoted = false;
        else if (ch !== undefined) field += ch;
        continue;
      }
      if (ch === undefined || ch === delimiter) {
        out.push(!wasQuoted && field === nullString ? null : field);
        field = '';
        wasQuoted = false;
        continue;
      }
      if (ch === quote) {
        quoted = true;
        wasQuoted = true;
      } else field += ch;
    }
    return out;
  }
}


/** One row's fields as read: text, or raw binary values (null: NULL). */
type CopyFields = readonly (string | Buffer | null)[];

export type CopyOutcome = { readonly ok: true; readonly count: number } | { readonly ok: false; readonly error: BackendError };

export interface CopyTarget {
  readonly columns: readonly string[];
  /** The COPY fails with this once its data is read (a materialized view's, as PostgreSQL's); absent: it loads. */
  readonly refused?: BackendError;
}

/**
 * The stored generated columns of `table`, which COPY leaves out both ways, and PostgreSQL's 42P10 when
 * the COPY's column list (`listed`) names one.
 */
export function copyGenerated(table: TableDef | undefined, listed: readonly string[] | null | undefined): { generated: ReadonlySet<string>; error: BackendError | null } {
  const generated = new Set(table?.columns.flatMap((c) => (c.generated !== undefined ? [c.name] : [])) ?? []);
  const g = listed?.find((c) => generated.has(c));
  return { generated, error: g === undefined ? null : { code: '42P10', message: `column "${g}" is a generated column`, detail: 'Generated columns cannot be used in COPY.' } };
}

/**
 * Resolves the target columns (all of the table's but stored generated ones when none are listed); an
 * error before CopyInResponse. A generated column listed is PostgreSQL's 42P10.
 */
export async function copyTarget(backend: BackendSession, spec: CopySpec): Promise<{ ok: true; target: CopyTarget } | { ok: false; error: BackendError }> {
  if ((await backend.views()).some((v) => v.name === spec.table)) {
    return { ok: false, error: { code: GatewayState.wrongObjectType, message: `cannot copy to view "${spec.table}"`, hint: 'To enable copying to a view, provide an INSTEAD OF INSERT trigger.' } };
  }
  const table = (await backend.tables()).find((t) => t.name === spec.table);
  // PostgreSQL takes the data, then refuses it.
  if (table?.matview !== undefined) return { ok: true, target: { columns: [], refused: { code: '42809', message: `cannot copy to materialized view "${spec.table}"` } } };
  const { generated, error } = copyGenerated(table, spec.columns);
  if (error !== null) return { ok: false, error };
  if (spec.columns !== null) return { ok: true, target: { columns: spec.columns } };
  const probe = await backend.prepare(`SELECT * FROM ${quoteIdent(spec.table)} LIMIT 0`, []);
  if (!probe.ok) return probe;
  backend.release(probe.statement);
  return { ok: true, target: { columns: probe.statement.columns.map((c) => c.name).filter((c) => !generated.has(c)) } };
}

/**
 * Reads CopyData until CopyDone/CopyFail from `next` and inserts the rows. After an error the rest of
 * the client's data is drained (PostgreSQL ignores it too) so the connection stays in step.
 */
export async function copyIn(
  backend: BackendSession,
  spec: CopySpec,
  target: CopyTarget,
  next: () => Promise<FrontendMessage | null>,
  /** True once a CancelRequest arrived for this session; checked at every CopyData. */
  cancelled: () => boolean = () => false,
  /** The session's TimeZone, which timestamptz text without an offset is read in. */
  zone: SessionZone = UTC_ZONE,
): Promise<CopyOutcome> {
  const ncols = target.columns.length;
  const parser = spec.format === 'binary' ? new BinaryCopyParser(ncols) : new CopyRowParser(spec);
  // A field is text, or a binary value of its column's type.
  const valueOf = spec.format === 'binary'
    ? (v: string | Buffer, type: SqlType): SqlValue => decodeParam(v as Buffer, 1, type)
    : (v: string | Buffer, type: SqlType): SqlValue => parseText(v as string, type);
  const batchRows = Math.max(1, Math.min(500, Math.floor(2000 / Math.max(1, ncols))));
  const statements = new Map<number, BackendStatement>();
  let pending: CopyFields[] = [];
  let count = 0;
  let failure: BackendError | null = target.refused ?? null;
  /** The rows of the data so far; data that is not UTF-8 fails the COPY (22021) instead. */
  const parse = (rows: () => CopyFields[]): CopyFields[] => {
    try {
      return rows();
    } catch (e) {
      if (e instanceof CopyFormatError) {
        // PostgreSQL's CONTEXT: the row, and the column when the error is in one; none for the header.
        const column = e.column === undefined ? '' : `, column ${target.columns[e.column] ?? ''}`;
        failure = { code: e.code, message: e.message, context: e.line === undefined ? undefined : `COPY ${spec.table}, line ${e.line}${column}` };
        return [];
      }
      if (!(e instanceof InvalidTextError)) throw e;
      failure = { code: e.code, message: e.message, context: `COPY ${spec.table}` };
      return [];
    }
  };

  const insert = async (rows: CopyFields[]): Promise<BackendError | null> => {
    let stmt = statements.get(rows.length);
    if (stmt === undefined) {
      const cols = target.columns.map(quoteIdent).join(', ');
      const values: string[] = [];
      for (let r = 0; r < rows.length; r++) {
        values.push(`(${target.columns.map((_, c) => `$${r * ncols + c + 1}`).join(', ')})`);
      }
      // COPY stores GENERATED ALWAYS identity columns' values as given, as PostgreSQL's COPY does (pg_dump's data).
      const p = await backend.prepare(`INSERT INTO ${quoteIdent(spec.table)} (${cols}) OVERRIDING SYSTEM VALUE VALUES ${values.join(', ')}`, []);
      if (!p.ok) return p.error;
      stmt = p.statement;
      statements.set(rows.length, stmt);
    }
    // Text without an offset is read in the session's zone: the whole batch's values in one stretch.
    const params = withSessionZone(zone, () => paramsOf(rows, stmt));
    if (!Array.isArray(params)) return params;
    const res = await backend.run(stmt, params);
    if (!res.ok) return res.error;
    count += rows.length;
    return null;
  };

  /** The batch's fields as the statement's parameter values, or the error of the first that is not one. */
  const paramsOf = (rows: readonly CopyFields[], stmt: BackendStatement): SqlValue[] | BackendError => {
    const params: SqlValue[] = [];
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r] as CopyFields;
      // As PostgreSQL: extra fields first, then each column in order, so a bad value before a missing
      // one is what is reported. (Its CONTEXT also quotes the line; the fields are all that is kept here.)
      const line = `COPY ${spec.table}, line ${count + r + 1 + (spec.header ? 1 : 0)}`;
      if (row.length > ncols) return { code: GatewayState.badCopyFileFormat, message: 'extra data after last expected column', context: line };
      for (let c = 0; c < ncols; c++) {
        if (c >= row.length) return { code: GatewayState.badCopyFileFormat, message: `missing data for column "${target.columns[c] ?? ''}"`, context: line };
        const v = row[c] ?? null;
        try {
          params.push(v === null ? null : valueOf(v, stmt.paramTypes[r * ncols + c] ?? 'text'));
        } catch (e) {
          const err = e as { code?: string; message?: string; detail?: string };
          const column = `${line}, column ${target.columns[c] ?? ''}`;
          // The DETAIL too (a malformed array literal's "Unexpected end of input.").
          return { code: err.code ?? GatewayState.invalidTextRepresentation, message: err.message ?? String(e), detail: err.detail,
            context: typeof v === 'string' ? `${column}: "${v}"` : column };
        }
      }
    }
    return params;
  };

  const flushFull = async (): Promise<void> => {
    while (failure === null && pending.length >= batchRows) {
      const batch = pending.slice(0, batchRows);
      pending = pending.slice(batchRows);
      failure = await insert(batch);
    }
  };

  for (;;) {
    const m = await next();
    if (m === null) {
      failure ??= { code: GatewayState.protocolViolation, message: 'unexpected EOF on client connection with an open COPY' };
      break;
    }
    if (failure === null && cancelled()) failure = { code: GatewayState.queryCanceled, message: 'canceling statement due to user request' };
    if (m.kind === 'copyData') {
      if (failure === null) {
        for (const row of parse(() => parser.push(m.data))) pending.push(row);
        await flushFull();
      }
    } else if (m.kind === 'copyDone') {
      if (failure === null) {
        for (const row of parse(() => parser.end())) pending.push(row);
        await flushFull();
        if (failure === null && pending.length > 0) failure = await insert(pending);
      }
      break;
    } else if (m.kind === 'copyFail') {
      failure ??= { code: GatewayState.queryCanceled, message: `COPY from stdin failed: ${m.message}` };
      break;
    } else if (m.kind === 'flush' || m.kind === 'sync') {
      continue;
    } else {
      failure ??= { code: GatewayState.protocolViolation, message: `unexpected message type "${m.kind}" during COPY from stdin` };
      break;
    }
  }
  for (const s of statements.values()) backend.release(s);
  return failure === null ? { ok: true, count } : { ok: false, error: failure };
}
