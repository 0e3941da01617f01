// COPY ... TO STDOUT (what psql's `\copy ... to` sends): `COPY table [(columns)] TO STDOUT` and
// `COPY (query) TO STDOUT`, in PostgreSQL's `text` format (tab-separated, \N for NULL, backslash
// escapes) or `csv` (quoted where needed, empty for NULL, optional header line). The rows come from the
// backend as one query (a table becomes `SELECT columns FROM table`), so on a cluster a COPY TO is one
// range read at one timestamp; the gateway then streams CopyOutResponse, one CopyData per row and
// CopyDone. Values are written with the engine's text output, as in query results. COPY TO a file or
// program and the binary format are refused with 0A000.

import type { CopyStmt } from 'libpg-query';
import { formatText, type SqlType, type SqlValue } from '../../sql/types.ts';
import { copyFormatOf, copyGenerated, copyRelationRefused, type CopyFormat, type CopyRefused } from './copy-in.ts';
import { quoteIdent, type TableDef } from '../../sql/catalog.ts';
import type { BackendWriter } from './backend-encoder.ts';
import { writeBinaryCopy } from './copy-binary.ts';
import type { BackendError, BackendRows, BackendSession } from './sql-backend.ts';

export interface CopyOutSpec extends CopyFormat {
  /** The query whose rows are copied. */
  readonly query: string;
  /** The relation `COPY name TO` names (a view is refused, as in PostgreSQL); absent for COPY (query) TO. */
  readonly relation?: string;
  /** The columns `COPY name (columns) TO` lists; absent for all of them or COPY (query) TO. */
  readonly columns?: readonly string[];
}

/**
 * The query of a COPY of `table`'s rows as PostgreSQL 15 copies them: without a column list, every
 * column but the stored generated ones; a generated column listed is 42P10.
 */
function copyOutQuery(spec: CopyOutSpec, relation: string, table: TableDef | undefined): { ok: true; query: string } | { ok: false; error: BackendError } {
  const { generated, error } = copyGenerated(table, spec.columns);
  if (error !== null) return { ok: false, error };
  if (table === undefined || generated.size === 0 || spec.columns !== undefined) return { ok: true, query: spec.query };
  const cols = table.columns.filter((c) => !c.hidden && c.generated === undefined).map((c) => quoteIdent(c.name)).join(', ');
  return { ok: true, query: `SELECT ${cols} FROM ${quoteIdent(relation)}` };
}

/** What COPY relation TO reads: views and materialized views are refused as PostgreSQL 15 refuses them (42809). */
export async function copyOutSource(backend: BackendSession, spec: CopyOutSpec): Promise<{ ok: true; query: string } | { ok: false; error: BackendError }> {
  if (spec.relation === undefined) return { ok: true, query: spec.query };
  const table = (await backend.tables()).find((t) => t.name === spec.relation);
  const view = table === undefined && (await backend.views()).some((v) => v.name === spec.relation) ? 'view' : table?.matview !== undefined ? 'materialized view' : null;
  if (view !== null) return { ok: false, error: { code: '42809', message: `cannot copy from ${view} "${spec.relation}"`, hint: 'Try the COPY (SELECT ...) TO variant.' } };
  return copyOutQuery(spec, spec.relation, table);
}

type CopyOutCommand = { readonly k: 'copyTo'; readonly spec: CopyOutSpec } | CopyRefused;

/**
 * The text of `(query)` right after COPY in `sql`: from the opening parenthesis to its match, skipping
 * quoted literals, identifiers and comments. null when the statement does not start that way.
 */
function parenthesisedQuery(sql: string): string | null {
  const m = /^\s*copy\s*\(/i.exec(sql);
  if (m === null) return null;
  let depth = 1;
  for (let i = m[0].length; i < sql.length; i++) {
    const ch = sql[i];
    if (ch === "'" || ch === '"') {
      const end = sql.indexOf(ch, i + 1);
      if (end < 0) return null;
      i = end; // a doubled quote closes and reopens: the scan continues inside the literal
      continue;
    }
    if (ch === '-' && sql[i + 1] === '-') {
      const nl = sql.indexOf('\n', i);
      if (nl < 0) return null;
      i = nl;
      continue;
    }
    if (ch === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      if (end < 0) return null;
      i = end + 1;
      continue;
    }
    if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return sql.slice(m[0].length, i).trim();
  }
  return null;
}

export function copyOutSpecOf(c: CopyStmt, sql: string): CopyOutCommand {
  if (c.filename !== undefined || c.is_program === true) return { k: 'unsupported', message: 'COPY TO a file or program is not supported; use COPY TO STDOUT (psql \\copy ... to)' };
  const f = copyFormatOf(c);
  if (!f.ok) return f.refused;
  let query: string | null;
  const relation = c.relation?.relname;
  const qualified = copyRelationRefused(c);
  if (qualified !== null) return qualified;
  if (relation !== undefined) {
    const cols = c.attlist === undefined ? '*' : c.attlist.map((n) => quoteIdent('String' in n ? n.String.sval ?? '' : '')).join(', ');
    query = `SELECT ${cols} FROM ${quoteIdent(relation)}`;
  } else {
    query = c.query === undefined ? null : parenthesisedQuery(sql);
  }
  if (query === null) return { k: 'unsupported', message: 'COPY TO needs a table or a parenthesised query' };
  const columns = relation === undefined || c.attlist === undefined ? {} : { columns: c.attlist.map((n) => ('String' in n ? n.String.sval ?? '' : '')) };
  return { k: 'copyTo', spec: { query, ...(relation === undefined ? {} : { relation }), ...columns, ...f.format } };
}

const TEXT_ESCAPES: Record<string, string> = { '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v' };

function textField(v: string, spec: CopyFormat): string {
  let out = '';
  for (const ch of v) out += TEXT_ESCAPES[ch] ?? (ch === spec.delimiter ? `\\${ch}` : ch);
  return out;
}

function csvField(v: string, spec: CopyFormat): string {
  const needsQuotes = v === spec.nullString || v === '\\.' || v.includes(spec.delimiter) || v.includes(spec.quote) || v.includes('\n') || v.includes('\r');
  if (!needsQuotes) return v;
  let out = spec.quote;
  for (const ch of v) out += ch === spec.quote || ch === spec.escape ? spec.escape + ch : ch;
  return out + spec.quote;
}

/** One line (with its newline) of COPY output for a row of values of `types`. */
function copyLine(row: readonly SqlValue[], types: readonly SqlType[], spec: CopyFormat): string {
  const fields = row.map((v, i) => {
    if (v === null) return spec.nullString;
    const text = typeof v === 'string' ? v : formatText(v, types[i] ?? 'text');
    return spec.format === 'csv' ? csvField(text, spec) : textField(text, spec);
  });
  return `${fields.join(spec.delimiter)}\n`;
}

/** The header line (column names; PostgreSQL 15 writes one in both formats), or null when there is none. */
function copyHeader(names: readonly string[], spec: CopyFormat): string | null {
  if (!spec.header) return null;
  return `${names.map((n) => (spec.format === 'csv' ? csvField(n, spec) : textField(n, spec))).join(spec.delimiter)}\n`;
}

/** COPY ... TO STDOUT of a query's rows: CopyOutResponse, one CopyData per row, CopyDone; returns the command tag. */
export function writeCopyOut(out: BackendWriter, r: BackendRows, spec: CopyOutSpec): string {
  if (spec.format === 'binary') {
    writeBinaryCopy(out, r);
    out.copyDone();
    return `COPY ${r.rows.length}`;
  }
  const utf8 = new TextEncoder();
  const types = r.columns.map((c) => c.type);
  out.copyOutResponse(r.columns.length);
  const header = copyHeader(r.columns.map((c) => c.name), spec);
  if (header !== null) out.copyData(utf8.encode(header));
  for (const row of r.rows) out.copyData(utf8.encode(copyLine(row, types, spec)));
  out.copyDone();
  return `COPY ${r.rows.length}`;
}
