// CREATE TABLE ... AS query [WITH [NO] DATA] and SELECT ... INTO table. PostgreSQL makes a table with the
// query's result columns (names, types and modifiers) and fills it with the query's rows, as one
// statement. The gateway does exactly that through its backend, in one transaction (the statement's
// own in autocommit): it describes the query (prepare), creates the table, then runs INSERT INTO it
// with the query, so on a cluster the rows are read and written as any INSERT ... SELECT's are.

import type { CreateTableAsStmt, IntoClause, SelectStmt } from 'libpg-query';
import { quoteIdent } from '../../sql/catalog.ts';
import { formatTypeSpec } from '../../sql/types.ts';
import type { EnumTypeDef } from '../../sql/enum-types.ts';
import type { BackendColumn, BackendError, BackendResult, BackendSession } from './sql-backend.ts';
import { tokensOf } from './sql-prepare.ts';

export interface CreateTableAsSpec {
  /** The table, quoted as needed, with its schema when given. */
  readonly table: string;
  readonly temp: boolean;
  /** ` ON COMMIT DROP` or ` ON COMMIT DELETE ROWS` (a temporary table's), else ''. */
  readonly onCommit: string;
  readonly ifNotExists: boolean;
  readonly columnNames: readonly string[];
  readonly withData: boolean;
  readonly query: string;
  /** Where the query starts in the statement's text (0-based), for error positions. */
  readonly queryOffset: number;
}

function intoSpec(into: IntoClause, query: string, queryOffset: number, ifNotExists: boolean): CreateTableAsSpec {
  const rel = into.rel;
  const table = `${rel?.schemaname === undefined ? '' : `${quoteIdent(rel.schemaname)}.`}${quoteIdent(rel?.relname ?? '')}`;
  const columnNames = (into.colNames ?? []).map((n) => ('String' in n ? (n.String.sval ?? '') : ''));
  const onCommit = into.onCommit === 'ONCOMMIT_DROP' ? ' ON COMMIT DROP' : into.onCommit === 'ONCOMMIT_DELETE_ROWS' ? ' ON COMMIT DELETE ROWS' : '';
  return { table, temp: rel?.relpersistence === 't', onCommit, ifNotExists, columnNames, withData: into.skipData !== true, query, queryOffset };
}

/** CREATE TABLE [IF NOT EXISTS] t [(names)] AS query [WITH [NO] DATA]: the query is the text after the top-level AS. */
export function createTableAsOf(node: CreateTableAsStmt, sql: string): CreateTableAsSpec | null {
  if (node.objtype !== 'OBJECT_TABLE' || node.into === undefined) return null;
  const { tokens } = tokensOf(sql);
  const i = topLevel(tokens, 'as');
  if (i === null || i + 1 >= tokens.length) return null;
  // WITH [NO] DATA ends the statement; it is not the query's.
  let end = tokens.length;
  const last = (k: number): string => tokens[end - k]?.text.toLowerCase() ?? '';
  if (last(1) === 'data' && last(2) === 'with') end -= 2;
  else if (last(1) === 'data' && last(2) === 'no' && last(3) === 'with') end -= 3;
  const from = tokens[i + 1]!.start;
  const to = end === tokens.length ? sql.length : tokens[end]!.start;
  return intoSpec(node.into, sql.slice(from, to).replace(/[\s;]+$/, ''), from, node.if_not_exists === true);
}

/** The index of the first token outside parentheses that is the keyword `word`, or null. */
function topLevel(tokens: readonly { text: string }[], word: string): number | null {
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!.text;
    if (t === '(') depth++;
    else if (t === ')') depth--;
    else if (depth === 0 && t.toLowerCase() === word) return i;
  }
  return null;
}

/** SELECT ... INTO [TEMP] [TABLE] t ...: the query is the statement without its INTO clause. */
export function selectIntoOf(node: SelectStmt, sql: string): CreateTableAsSpec | null {
  if (node.intoClause === undefined) return null;
  const { tokens } = tokensOf(sql);
  const i = topLevel(tokens, 'into');
  if (i === null) return null;
  let j = i + 1;
  while (j < tokens.length && /^(temp|temporary|unlogged|local|global|table)$/i.test(tokens[j]!.text)) j++;
  j++; // the name
  if (tokens[j]?.text === '.') j += 2; // schema.name
  const to = j < tokens.length ? tokens[j]!.start : sql.length;
  const query = `${sql.slice(0, tokens[i]!.start)}${sql.slice(to)}`.replace(/[\s;]+$/, '');
  return intoSpec(node.intoClause, query, 0, false);
}

const fail = (code: string, message: string): { ok: false; error: BackendError } => ({ ok: false, error: { code, message } });

/** The column definitions of the new table: the query's columns under the given names (a column of an enum type, of `enums`, by the type's name). */
function columnDefs(spec: CreateTableAsSpec, columns: readonly BackendColumn[], enums: readonly EnumTypeDef[]): { ok: true; defs: string } | { ok: false; error: BackendError } {
  if (spec.columnNames.length > columns.length) return fail('42601', 'too many column names were specified');
  const names = columns.map((c, i) => spec.columnNames[i] ?? c.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup !== undefined) return fail('42701', `column "${dup}" specified more than once`);
  // PostgreSQL's CheckAttributeType: no table has a column of the pseudo-type void (pg_sleep's).
  const pseudo = columns.findIndex((c) => c.type === 'void');
  if (pseudo >= 0) return fail('42P16', `column "${names[pseudo] ?? ''}" has pseudo-type void`);
  const type = (c: BackendColumn): string => {
    if (c.type === 'enum') return quoteIdent(enums.find((e) => e.oid === c.typmod)?.name ?? '');
    return c.type === 'bpchar' && c.typmod < 0 ? 'bpchar' : formatTypeSpec({ type: c.type, typmod: c.typmod });
  };
  return { ok: true, defs: columns.map((c, i) => `${quoteIdent(names[i] as string)} ${type(c)}`).join(', ') };
}

/**
 * Runs the statement through `session`: `inBlock` says a transaction block is open (else the statement
 * gets one of its own, rolled back if any step fails). Tag: SELECT n, or CREATE TABLE AS without data.
 */
export async function createTableAs(session: BackendSession, spec: CreateTableAsSpec, inBlock: boolean): Promise<BackendResult> {
  const shifted = (r: { ok: false; error: BackendError }): { ok: false; error: BackendError } =>
    r.error.position === undefined ? r : { ok: false, error: { ...r.error, position: r.error.position + spec.queryOffset } };
  const p = await session.prepare(spec.query, []);
  if (!p.ok) return shifted(p);
  session.release(p.statement);
  if (p.statement.paramTypes.length > 0) return fail('42P02', 'there is no parameter $1');
  if (!p.statement.returnsRows) return fail('42601', 'CREATE TABLE AS needs a query that returns rows');
  const defs = columnDefs(spec, p.statement.columns, await session.enums());
  if (!defs.ok) return defs;
  if (!inBlock) {
    const b = await session.begin();
    if (!b.ok) return b;
  }
  const end = async (r: BackendResult): Promise<BackendResult> => {
    if (inBlock) return r;
    if (!r.ok) {
      await session.rollback();
      return r;
    }
    const c = await session.commit();
    return c.ok ? r : c;
  };
  const created = await session.execute(`CREATE ${spec.temp ? 'TEMP ' : ''}TABLE ${spec.ifNotExists ? 'IF NOT EXISTS ' : ''}${spec.table} (${defs.defs})${spec.onCommit}`);
  if (!created.ok) return end(created);
  // IF NOT EXISTS over an existing table: its notice, and nothing inserted.
  if (!spec.withData || created.notices.length > 0) return end({ ...created, tag: 'CREATE TABLE AS' });
  const inserted = await session.execute(`INSERT INTO ${spec.table} ${spec.query}`);
  if (!inserted.ok) return end(inserted.error.position === undefined ? inserted : shifted({ ok: false, error: { ...inserted.error, position: inserted.error.position - `INSERT INTO ${spec.table} `.length } }));
  const n = /(\d+)$/.exec(inserted.tag)?.[1] ?? '0';
  return end({ ok: true, tag: `SELECT ${n}`, returnsRows: false, columns: [], rows: [], notices: [...created.notices, ...inserted.notices] });
}
