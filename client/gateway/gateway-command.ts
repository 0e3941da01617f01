// What the gateway does with one SQL statement before any backend sees it. Transaction control, SET,
// RESET, SHOW, DISCARD, PREPARE/EXECUTE/DEALLOCATE, DECLARE/FETCH/MOVE/CLOSE (cursors), UNLISTEN, COPY and a few catalog queries are the gateway's own
// business (transaction states belong to the wire protocol; settings and prepared statements are per
// connection; COPY is a sub-protocol); everything else goes to the backend. Classification is cached per statement text, so a benchmark's repeated statements cost
// one map lookup. Utility statements are parsed with the real PostgreSQL grammar (libpg-query); the hot
// BEGIN/COMMIT forms are recognised by pattern.

import { parseSync } from 'libpg-query';
import type { Node } from 'libpg-query';
import { recogniseCatalogQuery, type CatalogQuery } from './catalog-queries.ts';
import { copySpecOf, type CopySpec } from './copy-in.ts';
import { copyOutSpecOf, type CopyOutSpec } from './copy-out.ts';
import { declareSpecOf, fetchSpecOf, type DeclareSpec, type FetchSpec } from './sql-cursors.ts';
import { EXPLAIN_COLUMNS, explainAnalyze, explainAnalyzeOf } from './gateway-explain.ts';
import { createTableAs, createTableAsOf, selectIntoOf } from './gateway-ctas.ts';
import type { BackendColumn, BackendResult, BackendSession } from './sql-backend.ts';
import { setValueText } from '../../sql/set-args.ts';
import type { SavepointOp } from '../../sql/lower-statement.ts';
import { executeSpecOf, prepareSpecOf, type ExecuteSpec, type PrepareSpec } from './sql-prepare.ts';

export type GatewayCommand =
  | { readonly k: 'begin'; readonly tag: 'BEGIN' | 'START TRANSACTION' }
  | { readonly k: 'commit' }
  | { readonly k: 'rollback' }
  /**
   * SAVEPOINT, RELEASE [SAVEPOINT] and ROLLBACK TO [SAVEPOINT] name: run by the backend, then followed by
   * the session's settings (`name` null: it does not parse). ROLLBACK TO is the one statement besides
   * ROLLBACK a failed transaction accepts.
   */
  | { readonly k: 'savepoint'; readonly op: SavepointOp; readonly name: string | null }
  | { readonly k: 'set'; readonly name: string; readonly value: string | null; readonly tag: 'SET' | 'RESET'; readonly local?: boolean }
  | { readonly k: 'resetAll' }
  /** SET TRANSACTION ..., SET SESSION CHARACTERISTICS AS TRANSACTION ...: accepted, every transaction is serializable. */
  | { readonly k: 'setIgnored' }
  | { readonly k: 'show'; readonly name: string }
  /** DISCARD ALL resets the session (settings, prepared statements, portals, temporary tables); TEMP drops its temporary tables; PLANS and SEQUENCES hold nothing here. */
  | { readonly k: 'discard'; readonly what: 'ALL' | 'PLANS' | 'SEQUENCES' | 'TEMP' }
  /** PREPARE name [(types)] AS statement, EXECUTE name [(args)]: the session's prepared statements (sql-prepare.ts). */
  | { readonly k: 'prepare'; readonly spec: PrepareSpec }
  | { readonly k: 'executePrepared'; readonly spec: ExecuteSpec }
  /** DEALLOCATE [PREPARE] name | ALL: the session's prepared statements, protocol-level ones included (one namespace, as in PostgreSQL). */
  | { readonly k: 'deallocate'; readonly name: string | null }
  /** DECLARE name CURSOR FOR query, FETCH/MOVE, CLOSE name | ALL: the session's SQL cursors (sql-cursors.ts). */
  | { readonly k: 'declare'; readonly spec: DeclareSpec }
  | { readonly k: 'fetch'; readonly spec: FetchSpec }
  | { readonly k: 'closeCursor'; readonly name: string | null }
  /** UNLISTEN: nothing is ever listened to (LISTEN is refused). */
  | { readonly k: 'unlisten' }
  | { readonly k: 'copyFrom'; readonly spec: CopySpec }
  | { readonly k: 'copyTo'; readonly spec: CopyOutSpec }
  /** Refused: 0A000 unless `code` says otherwise. */
  | { readonly k: 'unsupported'; readonly message: string; readonly code?: string }
  | { readonly k: 'catalog'; readonly query: CatalogQuery }
  /**
   * A statement the gateway runs as several backend statements: EXPLAIN ANALYZE (gateway-explain.ts),
   * CREATE TABLE AS and SELECT INTO (gateway-ctas.ts). `inBlock`: a transaction block is open.
   */
  | { readonly k: 'composite'; readonly columns: readonly BackendColumn[] | null; run(session: BackendSession, inBlock: boolean): Promise<BackendResult> }
  | { readonly k: 'backend' };

const TXN_OPTIONS = /^(?:\s*,?\s*(?:isolation\s+level\s+(?:serializable|repeatable\s+read|read\s+committed|read\s+uncommitted)|read\s+(?:write|only)|(?:not\s+)?deferrable))*\s*;?\s*$/i;
const BEGIN = /^\s*(begin|start\s+transaction)(?:\s+(?:work|transaction)(?![\w$]))?([\s\S]*)$/i;
const COMMIT = /^\s*(?:commit|end)(?:\s+(?:work|transaction))?\s*;?\s*$/i;
const ROLLBACK = /^\s*(?:rollback|abort)(?:\s+(?:work|transaction))?\s*;?\s*$/i;
const ROLLBACK_TO = /^\s*(?:rollback|abort)(?:\s+(?:work|transaction))?\s+to\s/i;
const SAVEPOINT = /^\s*(?:savepoint|release)\s/i;
const UTILITY = /^\s*(?:set|reset|show|copy|explain|discard|deallocate|prepare|execute|close|unlisten|declare|fetch|move)\b/i;
/** CREATE TABLE ... AS and SELECT ... INTO (parsed to tell them from CREATE TABLE and SELECT). */
const TABLE_AS = /^\s*(?:create\s[\s\S]*\bas\b|select\s[\s\S]*\binto\b)/i;
const CATALOG_HINT = /pg_catalog|current_setting|set_config|pg_backend_pid|pg_is_in_recovery|information_schema|\bpg_|regclass|regtype|_description\b/i;

const BACKEND: GatewayCommand = { k: 'backend' };
const cache = new Map<string, GatewayCommand>();
const CACHE_MAX = 4096;

export function classify(sql: string): GatewayCommand {
  let c = cache.get(sql);
  if (c === undefined) {
    c = classifyUncached(sql);
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(sql, c);
  }
  return c;
}

function classifyUncached(sql: string): GatewayCommand {
  const b = BEGIN.exec(sql);
  if (b !== null && TXN_OPTIONS.test(b[2] as string)) {
    return { k: 'begin', tag: /^start/i.test(b[1] as string) ? 'START TRANSACTION' : 'BEGIN' };
  }
  if (COMMIT.test(sql)) return { k: 'commit' };
  if (ROLLBACK.test(sql)) return { k: 'rollback' };
  if (ROLLBACK_TO.test(sql)) return { k: 'savepoint', op: 'rollback-to', name: savepointOf(sql)?.name ?? null };
  if (SAVEPOINT.test(sql)) return { k: 'savepoint', ...(savepointOf(sql) ?? { op: 'savepoint', name: null }) };
  if (UTILITY.test(sql)) return classifyUtility(sql);
  if (TABLE_AS.test(sql)) {
    const c = classifyUtility(sql);
    if (c.k !== 'backend') return c;
  }
  if (CATALOG_HINT.test(sql)) {
    const q = recogniseCatalogQuery(sql);
    if (q !== null) return { k: 'catalog', query: q };
  }
  return BACKEND;
}

/** The savepoint statement `sql` is, with its savepoint's name as PostgreSQL folds it; null for another or one that does not parse. */
function savepointOf(sql: string): { op: SavepointOp; name: string } | null {
  let node: Node | undefined;
  try {
    const stmts = parseSync(sql).stmts ?? [];
    node = stmts.length === 1 ? stmts[0]?.stmt : undefined;
  } catch {
    return null; // the backend reports the syntax error
  }
  if (node === undefined || !('TransactionStmt' in node)) return null;
  const t = node.TransactionStmt;
  const op = t.kind === 'TRANS_STMT_SAVEPOINT' ? 'savepoint' : t.kind === 'TRANS_STMT_RELEASE' ? 'release' : t.kind === 'TRANS_STMT_ROLLBACK_TO' ? 'rollback-to' : null;
  return op === null || t.savepoint_name === undefined ? null : { op, name: t.savepoint_name };
}

function classifyUtility(sql: string): GatewayCommand {
  let stmts: Node[];
  try {
    stmts = (parseSync(sql).stmts ?? []).map((s) => s.stmt).filter((s): s is Node => s !== undefined);
  } catch {
    return BACKEND; // the backend reports the syntax error with its position
  }
  const node = stmts[0];
  if (stmts.length !== 1 || node === undefined) return BACKEND;
  if ('VariableSetStmt' in node) {
    const v = node.VariableSetStmt;
    const name = v.name ?? '';
    switch (v.kind) {
      case 'VAR_SET_VALUE':
        return { k: 'set', name, value: setValueText(v.args ?? []), tag: 'SET', local: v.is_local === true };
      case 'VAR_SET_DEFAULT':
        return { k: 'set', name, value: null, tag: 'SET', local: v.is_local === true };
      case 'VAR_RESET':
        return { k: 'set', name, value: null, tag: 'RESET' };
      case 'VAR_RESET_ALL':
        return { k: 'resetAll' };
      case 'VAR_SET_MULTI':
      case 'VAR_SET_CURRENT':
        return { k: 'setIgnored' };
      default:
        return BACKEND;
    }
  }
  if ('VariableShowStmt' in node) return { k: 'show', name: node.VariableShowStmt.name ?? '' };
  if ('CopyStmt' in node) return node.CopyStmt.is_from === true ? copySpecOf(node.CopyStmt) : copyOutSpecOf(node.CopyStmt, sql);
  if ('DiscardStmt' in node) {
    const t = node.DiscardStmt.target;
    return { k: 'discard', what: t === 'DISCARD_PLANS' ? 'PLANS' : t === 'DISCARD_SEQUENCES' ? 'SEQUENCES' : t === 'DISCARD_TEMP' ? 'TEMP' : 'ALL' };
  }
  if ('PrepareStmt' in node) {
    const spec = prepareSpecOf(node.PrepareStmt, sql);
    return spec === null ? BACKEND : { k: 'prepare', spec };
  }
  if ('ExecuteStmt' in node) return { k: 'executePrepared', spec: executeSpecOf(node.ExecuteStmt, sql) };
  if ('DeallocateStmt' in node) return { k: 'deallocate', name: node.DeallocateStmt.name ?? null };
  if ('ClosePortalStmt' in node) return { k: 'closeCursor', name: node.ClosePortalStmt.portalname ?? null };
  if ('UnlistenStmt' in node) return { k: 'unlisten' };
  if ('DeclareCursorStmt' in node) {
    const spec = declareSpecOf(node.DeclareCursorStmt, sql);
    return spec === null ? BACKEND : { k: 'declare', spec };
  }
  if ('FetchStmt' in node) return { k: 'fetch', spec: fetchSpecOf(node.FetchStmt) };
  if ('ExplainStmt' in node) {
    const spec = explainAnalyzeOf(node.ExplainStmt, sql);
    return spec === null ? BACKEND : { k: 'composite', columns: EXPLAIN_COLUMNS, run: (session) => explainAnalyze(session, spec) };
  }
  const into = 'CreateTableAsStmt' in node ? createTableAsOf(node.CreateTableAsStmt, sql) : 'SelectStmt' in node ? selectIntoOf(node.SelectStmt, sql) : null;
  if (into !== null) return { k: 'composite', columns: null, run: (session, inBlock) => createTableAs(session, into, inBlock) };
  return BACKEND;
}

/** One statement of a query string, and the characters before it there (error positions count from the string's start). */
export interface StatementText {
  readonly text: string;
  readonly offset: number;
}

/**
 * Splits a simple-query string into statements, as PostgreSQL does before running any of them. The
 * common single-statement case costs a regular-expression test; anything else is parsed. A syntax
 * error anywhere returns the whole text as one statement, so the backend reports it and nothing runs.
 */
export function splitStatements(sql: string): StatementText[] {
  const trimmed = sql.replace(/[\s;]+$/, '');
  if (trimmed.trim() === '') return [];
  if (!trimmed.includes(';') && !trimmed.includes('--') && !trimmed.includes('/*')) return [{ text: trimmed, offset: 0 }];
  let parsed: ReturnType<typeof parseSync>;
  try {
    parsed = parseSync(sql);
  } catch {
    return [{ text: sql, offset: 0 }];
  }
  // Statement locations are byte offsets into the UTF-8 text, as in PostgreSQL.
  const bytes = Buffer.from(sql, 'utf8');
  const out: StatementText[] = [];
  for (const s of parsed.stmts ?? []) {
    const from = s.stmt_location ?? 0;
    const to = s.stmt_len === undefined || s.stmt_len === 0 ? bytes.length : from + s.stmt_len;
    const raw = bytes.toString('utf8', from, to);
    const text = raw.trim();
    out.push({ text, offset: bytes.toString('utf8', 0, from).length + raw.indexOf(text) });
  }
  return out;
}

/** `e` with its position moved from its statement's text to the query string's (`offset` characters before it). */
export function atOffset<E extends { readonly position?: number | undefined }>(e: E, offset: number): E {
  return e.position === undefined || offset === 0 ? e : { ...e, position: e.position + offset };
}
