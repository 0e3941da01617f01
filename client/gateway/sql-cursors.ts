// SQL cursors: DECLARE, FETCH, MOVE and CLOSE, as PostgreSQL 15 runs them. psycopg's server-side
// cursors, psql's FETCH_COUNT and ORMs' batched iteration use them. A cursor's query runs once, at
// DECLARE, in the session's transaction (the backend returns whole results, and a Pesto transaction reads
// at one timestamp, so the rows are the ones PostgreSQL's cursor would return); FETCH and MOVE page
// through the kept rows.
//
// Rules kept (PostgreSQL 15):
// - A cursor without WITH HOLD needs a transaction block (25P01 outside one; a multi-statement Query's
//   implicit block counts) and is closed when its transaction ends. A WITH HOLD cursor survives its
//   transaction's commit, and is dropped if that transaction rolls back.
// - Cursors and named protocol portals share one namespace (42P03 for a name in use); an unknown name is
//   34000. psycopg describes a declared cursor as a protocol portal (Describe 'P').
// - Positions run from 0 (before the first row) to n + 1 (after the last). NO SCROLL refuses any backward
//   movement with 55000; without NO SCROLL backward fetches work (the rows are kept).
// - A BINARY cursor's rows go out in binary format in the simple query protocol.
// Not kept: ROLLBACK TO a savepoint does not close cursors declared after it; and since the query runs
// whole at DECLARE, an error in a row (1 / 0) is reported by DECLARE, where PostgreSQL reports it at the
// FETCH that reaches the row.

import { scanSync } from 'libpg-query';
import type { DeclareCursorStmt, FetchStmt } from 'libpg-query';
import { GatewayState } from './protocol-error.ts';
import type { BackendColumn, BackendResult, BackendRows } from './sql-backend.ts';
import type { SqlValue } from '../../sql/types.ts';

export interface DeclareSpec {
  readonly name: string;
  /** The cursor's query: the statement's text after FOR, with its $n parameters. */
  readonly query: string;
  readonly hold: boolean;
  readonly noScroll: boolean;
  readonly binary: boolean;
}

export type FetchDirection = 'forward' | 'backward' | 'absolute' | 'relative';

export interface FetchSpec {
  readonly name: string;
  readonly direction: FetchDirection;
  /** Rows for forward/backward (Infinity for ALL), the target for absolute/relative. */
  readonly count: number;
  readonly move: boolean;
}

// DeclareCursorStmt options (parsenodes.h).
const CURSOR_OPT_BINARY = 0x1;
const CURSOR_OPT_NO_SCROLL = 0x4;
const CURSOR_OPT_HOLD = 0x20;
/** FETCH ALL as the parser reports it (LONG_MAX, cut to 32 bits by the WebAssembly build). */
const FETCH_ALL_MIN = 2147483647;

/** The DECLARE statement's parts, or null when its query text cannot be located (the backend then reports it). */
export function declareSpecOf(node: DeclareCursorStmt, sql: string): DeclareSpec | null {
  const options = node.options ?? 0;
  // The query is what follows the first FOR after CURSOR (a name spelled FOR must be quoted: it is reserved).
  const bytes = Buffer.from(sql, 'utf8');
  let cursorSeen = false;
  let from = -1;
  for (const t of scanSync(sql).tokens) {
    const word = t.text.toUpperCase();
    if (word === 'CURSOR' && !t.text.startsWith('"')) cursorSeen = true;
    else if (cursorSeen && word === 'FOR') {
      from = t.end;
      break;
    }
  }
  if (from < 0) return null;
  return {
    name: node.portalname ?? '',
    query: bytes.toString('utf8', from).trim(),
    hold: (options & CURSOR_OPT_HOLD) !== 0,
    noScroll: (options & CURSOR_OPT_NO_SCROLL) !== 0,
    binary: (options & CURSOR_OPT_BINARY) !== 0,
  };
}

export function fetchSpecOf(node: FetchStmt): FetchSpec {
  const n = Number(node.howMany ?? 0);
  const all = n >= FETCH_ALL_MIN;
  const name = node.portalname ?? '';
  const move = node.ismove === true;
  switch (node.direction) {
    case 'FETCH_BACKWARD':
      // FETCH BACKWARD 0, like FETCH 0, is FETCH RELATIVE 0.
      if (n === 0) return { name, move, direction: 'relative', count: 0 };
      return { name, move, direction: 'backward', count: all ? Infinity : n };
    case 'FETCH_ABSOLUTE':
      return { name, move, direction: 'absolute', count: n };
    case 'FETCH_RELATIVE':
      return { name, move, direction: 'relative', count: n };
    default:
      // FETCH n with a negative n goes backward; FETCH 0 is FETCH RELATIVE 0.
      if (n === 0) return { name, move, direction: 'relative', count: 0 };
      return n < 0 ? { name, move, direction: 'backward', count: -n } : { name, move, direction: 'forward', count: all ? Infinity : n };
  }
}

/**
 * The rows (0-based indices, in the order returned) a FETCH or MOVE takes from `total` rows at position
 * `pos` (0 = before the first, total + 1 = after the last), and the position after it.
 */
export function cursorStep(total: number, pos: number, direction: FetchDirection, count: number): { rows: number[]; pos: number } {
  const rows: number[] = [];
  switch (direction) {
    case 'forward': {
      let p = pos;
      while (rows.length < count && p < total) rows.push(p++); // row p + 1, 1-based
      return { rows, pos: rows.length < count ? total + 1 : p };
    }
    case 'backward': {
      let p = pos;
      while (rows.length < count && p > 1) rows.push(--p - 1);
      return { rows, pos: rows.length < count ? 0 : p };
    }
    case 'absolute':
      return onRow(total, count >= 0 ? count : total + count + 1);
    case 'relative':
      return onRow(total, pos + count);
  }
}

/** Positions on 1-based row `target` and returns it, or moves off the end on the side it fell. */
function onRow(total: number, target: number): { rows: number[]; pos: number } {
  if (target >= 1 && target <= total) return { rows: [target - 1], pos: target };
  return { rows: [], pos: target > total ? total + 1 : 0 };
}

/**
 * Whether PostgreSQL runs the step backward (so a NO SCROLL cursor refuses it): any backward count, an
 * absolute position from the end or at or before the current row (except from the start), and
 * re-fetching the current row.
 */
export function stepsBack(total: number, pos: number, direction: FetchDirection, count: number): boolean {
  switch (direction) {
    case 'forward':
      return false;
    case 'backward':
      return count > 0;
    case 'absolute':
      return count < 0 || (pos > 0 && count <= pos);
    case 'relative':
      return count < 0 || (count === 0 && pos >= 1 && pos <= total);
  }
}

interface Cursor {
  readonly columns: readonly BackendColumn[];
  readonly rows: readonly (readonly SqlValue[])[];
  readonly hold: boolean;
  readonly noScroll: boolean;
  readonly binary: boolean;
  /** Declared in the transaction still open (a WITH HOLD cursor is dropped if it rolls back). */
  inTransaction: boolean;
  pos: number;
}

const fail = (code: string, message: string): BackendResult => ({ ok: false, error: { code, message } });
const done = (tag: string): BackendRows => ({ ok: true, tag, returnsRows: false, columns: [], rows: [], notices: [] });

/** One session's open cursors. */
export class SqlCursors {
  readonly #open = new Map<string, Cursor>();

  has(name: string): boolean {
    return this.#open.has(name);
  }

  /** The columns FETCH from `name` returns, and whether its rows go out in binary (BINARY cursor). */
  shape(name: string): { columns: readonly BackendColumn[]; binary: boolean } | undefined {
    const c = this.#open.get(name);
    return c === undefined ? undefined : { columns: c.columns, binary: c.binary };
  }

  /**
   * DECLARE: runs the query (`run`) and keeps its rows. `inBlock`: a transaction block is open;
   * `nameTaken`: a protocol portal has the name.
   */
  async declare(spec: DeclareSpec, inBlock: boolean, nameTaken: boolean, run: () => Promise<BackendResult>): Promise<BackendResult> {
    if (!inBlock && !spec.hold) return fail(GatewayState.noActiveSqlTransaction, 'DECLARE CURSOR can only be used in transaction blocks');
    if (nameTaken || this.#open.has(spec.name)) return fail(GatewayState.duplicateCursor, `cursor "${spec.name}" already exists`);
    const r = await run();
    if (!r.ok) return r;
    if (!r.returnsRows) return fail(GatewayState.syntaxError, 'DECLARE CURSOR needs a query that returns rows');
    this.#open.set(spec.name, { columns: r.columns, rows: r.rows, hold: spec.hold, noScroll: spec.noScroll, binary: spec.binary, inTransaction: inBlock, pos: 0 });
    return done('DECLARE CURSOR');
  }

  /** FETCH (rows, tagged `FETCH n`) or MOVE (`MOVE n`). */
  fetch(spec: FetchSpec): BackendResult {
    const c = this.#open.get(spec.name);
    if (c === undefined) return fail(GatewayState.invalidCursorName, `cursor "${spec.name}" does not exist`);
    if (c.noScroll && stepsBack(c.rows.length, c.pos, spec.direction, spec.count)) {
      return { ok: false, error: { code: GatewayState.objectNotInPrerequisiteState, message: 'cursor can only scan forward', hint: 'Declare it with SCROLL option to enable backward scan.' } };
    }
    const step = cursorStep(c.rows.length, c.pos, spec.direction, spec.count);
    c.pos = step.pos;
    const n = step.rows.length;
    if (spec.move) return done(`MOVE ${n}`);
    return { ok: true, tag: `FETCH ${n}`, returnsRows: true, columns: c.columns, rows: step.rows.map((i) => c.rows[i]!), notices: [] };
  }

  /** CLOSE name (34000 if unknown) or CLOSE ALL (name null). */
  close(name: string | null): BackendResult {
    if (name === null) {
      this.#open.clear();
      return done('CLOSE CURSOR ALL');
    }
    if (!this.#open.delete(name)) return fail(GatewayState.invalidCursorName, `cursor "${name}" does not exist`);
    return done('CLOSE CURSOR');
  }

  /** The transaction ended: cursors without HOLD close; a HOLD cursor stays if it committed. */
  endTransaction(committed: boolean): void {
    for (const [name, c] of this.#open) {
      if (!c.hold || (c.inTransaction && !committed)) this.#open.delete(name);
      else c.inTransaction = false;
    }
  }
}
