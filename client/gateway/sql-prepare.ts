// SQL-level PREPARE and EXECUTE (PostgreSQL's prepared statements by name, one namespace with the
// extended protocol's Parse/Bind: a statement prepared either way can be used either way, and
// DEALLOCATE drops both kinds).
//
// - `PREPARE name [(type, ...)] AS statement`: the statement text after AS is prepared by the backend
//   with the declared types as hints (parameters not declared are inferred, as for Parse).
// - `EXECUTE name [(arg, ...)]`: each argument is an expression; it is coerced to its parameter's type
//   as PostgreSQL's assignment coercion does. Literals (the common case) are read as a parameter's text
//   is; any other expression is evaluated by the backend, in one `SELECT arg, ...` of the argument list
//   as written, and its value cast when its type differs (42804 where PostgreSQL has no assignment
//   cast, such as text to integer). Subqueries are refused, as PostgreSQL refuses them, so evaluating
//   the arguments reads nothing.

import type { EnumTypeDef } from '../../sql/enum-types.ts';
import { scanSync } from 'libpg-query';
import type { ExecuteStmt, Node, PrepareStmt, TypeName } from 'libpg-query';
import { canCast, castValue } from '../../sql/cast.ts';
import { resolveTypeName } from '../../sql/lower-type.ts';
import { arrayElementType, isArrayType, isStringType, typeDisplayName, type SqlType, type SqlValue } from '../../sql/types.ts';
import { parseText } from '../../sql/value-text.ts';
import { UTC_ZONE, withSessionZone, type SessionZone } from '../../sql/session-zone.ts';
import { GatewayState } from './protocol-error.ts';
import type { BackendError, BackendSession } from './sql-backend.ts';
import { decodeParam } from './value-format.ts';

export interface PrepareSpec {
  readonly name: string;
  /** Declared parameter types ('$1' first), each with its 1-based position in the statement (a type that does not exist is reported at run time). */
  readonly typeNames: readonly { readonly type: TypeName; readonly position: number }[];
  /** The prepared statement's own text (after AS) and the position of its first character in the statement. */
  readonly query: string;
  readonly queryPosition: number;
}

/**
 * One EXECUTE argument, with its 1-based position in the statement: a literal (its text, null for NULL,
 * and its type: 'unknown' for a quoted string, as PostgreSQL types literals), or an expression the
 * backend evaluates.
 */
type ExecuteArg =
  | { readonly k: 'literal'; readonly text: string | null; readonly type: 'unknown' | 'int4' | 'numeric' | 'bool'; readonly position: number }
  | { readonly k: 'expr'; readonly position: number }
  /** A subquery: PostgreSQL refuses it in an EXECUTE parameter (0A000). */
  | { readonly k: 'subquery'; readonly position: number };

export interface ExecuteSpec {
  readonly name: string;
  readonly args: readonly ExecuteArg[];
  /**
   * `SELECT <the argument list as written>`, when some argument is an expression, and what to add to a
   * position in it for the same character's position in the statement.
   */
  readonly evaluate: { readonly sql: string; readonly offset: number } | null;
}

type Failed = { readonly ok: false; readonly error: BackendError };
type Token = { readonly text: string; readonly start: number; readonly end: number };

/** Tokens with offsets in characters (the scanner counts UTF-8 bytes, as PostgreSQL does); `at` converts a byte offset. */
export function tokensOf(sql: string): { tokens: Token[]; at: (byteOffset: number) => number } {
  const bytes = Buffer.from(sql, 'utf8');
  const at = (b: number): number => bytes.toString('utf8', 0, b).length;
  return { tokens: scanSync(sql).tokens.map((t) => ({ text: t.text, start: at(t.start), end: at(t.end) })), at };
}

/** The text after the first top-level AS (the grammar has one there: PREPARE name [(types)] AS stmt). */
export function prepareSpecOf(node: PrepareStmt, sql: string): PrepareSpec | null {
  const { tokens, at } = tokensOf(sql);
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.text === '(') depth++;
    else if (t.text === ')') depth--;
    else if (depth === 0 && t.text.toLowerCase() === 'as' && i + 1 < tokens.length) {
      const typeNames = (node.argtypes ?? []).flatMap((n) => ('TypeName' in n ? [{ type: n.TypeName, position: at(n.TypeName.location ?? 0) + 1 }] : []));
      const from = tokens[i + 1]!.start;
      return { name: node.name ?? '', typeNames, query: sql.slice(from).replace(/[\s;]+$/, ''), queryPosition: from + 1 };
    }
  }
  return null;
}

function literalOf(n: Node, position: number): ExecuteArg {
  if ('A_Const' in n) {
    const c = n.A_Const;
    if (c.isnull === true) return { k: 'literal', text: null, type: 'unknown', position };
    if (c.sval !== undefined) return { k: 'literal', text: c.sval.sval ?? '', type: 'unknown', position };
    if (c.ival !== undefined) return { k: 'literal', text: String(c.ival.ival ?? 0), type: 'int4', position };
    if (c.fval !== undefined) return { k: 'literal', text: c.fval.fval ?? '', type: 'numeric', position };
    if (c.boolval !== undefined) return { k: 'literal', text: c.boolval.boolval === true ? 'true' : 'false', type: 'bool', position };
  }
  return JSON.stringify(n).includes('"SubLink"') ? { k: 'subquery', position } : { k: 'expr', position };
}

/** Each argument's position is where its text starts in the parenthesized list after the name. */
export function executeSpecOf(node: ExecuteStmt, sql: string): ExecuteSpec {
  const { tokens } = tokensOf(sql);
  const open = tokens.findIndex((t) => t.text === '(');
  const starts: number[] = [];
  let close = -1;
  let depth = 0;
  for (let i = open; i >= 0 && i < tokens.length && close < 0; i++) {
    const t = tokens[i]!;
    if (t.text === ')' && --depth === 0) close = i;
    else if (depth === 1 && (t.text === ',' || i === open + 1)) starts.push((t.text === ',' ? tokens[i + 1] ?? t : t).start + 1);
    if (t.text === '(') depth++;
  }
  const args = (node.params ?? []).map((p, i) => literalOf(p, starts[i] ?? 0));
  const evaluate = args.some((a) => a.k !== 'literal') && close > open
    ? { sql: `SELECT ${sql.slice(tokens[open]!.end, tokens[close]!.start)}`, offset: tokens[open]!.end - 'SELECT '.length }
    : null;
  return { name: node.name ?? '', args, evaluate };
}

/** The declared parameter types, resolved (an unknown type name is PostgreSQL's 42704); `enums`: the session's enum types. */
export function declaredTypes(spec: PrepareSpec, enums: readonly EnumTypeDef[] = []): { ok: true; types: SqlType[] } | Failed {
  const types: SqlType[] = [];
  const lookup = { enumType: (name: string): EnumTypeDef | undefined => enums.find((e) => e.name === name) };
  for (const tn of spec.typeNames) {
    // oid, which the gateway's catalog keeps as int4 (pg_dump's `PREPARE dumpEnumType(pg_catalog.oid)`).
    const names = (tn.type.names ?? []).map((n) => ('String' in n ? n.String.sval : ''));
    if (names[names.length - 1] === 'oid' && (names.length === 1 || names[0] === 'pg_catalog') && (tn.type.arrayBounds ?? []).length === 0) {
      types.push('int4');
      continue;
    }
    try {
      types.push(resolveTypeName(tn.type, lookup).type);
    } catch (e) {
      return failure(e, tn.position);
    }
  }
  return { ok: true, types };
}

/** An error preparing the statement after AS, its position moved to the whole PREPARE's text. */
export function prepareError(error: BackendError, spec: PrepareSpec): Failed {
  return { ok: false, error: { ...error, position: error.position === undefined ? undefined : error.position + spec.queryPosition - 1 } };
}

/** An error thrown by a conversion or a type lookup, reported at `position`. */
function failure(e: unknown, position: number | undefined): Failed {
  const x = e as { code?: unknown; message?: unknown };
  const code = typeof x.code === 'string' ? x.code : GatewayState.invalidTextRepresentation;
  return { ok: false, error: { code, message: typeof x.message === 'string' ? x.message : String(e), position } };
}

/**
 * Whether PostgreSQL coerces `from` to `to` by assignment: within the numeric types, within the date and
 * time types, anything to a string type (I/O conversion), arrays element by element; not text to a
 * number, nor boolean to integer (explicit casts only).
 */
function assignable(from: SqlType, to: SqlType): boolean {
  if (from === to || from === 'unknown' || isStringType(to)) return true;
  if (isArrayType(from) && isArrayType(to)) return assignable(arrayElementType(from), arrayElementType(to));
  if (from === 'bool' || to === 'bool' || isStringType(from)) return false;
  return canCast(from, to);
}

/** The argument values of an EXECUTE, each of its parameter's type. */
export async function executeArgs(spec: ExecuteSpec, types: readonly SqlType[], backend: BackendSession, zone: SessionZone = UTC_ZONE): Promise<{ ok: true; params: SqlValue[] } | Failed> {
  if (spec.args.length !== types.length) {
    return {
      ok: false,
      error: {
        code: GatewayState.syntaxError,
        message: `wrong number of parameters for prepared statement "${spec.name}"`,
        detail: `Expected ${types.length} parameters but got ${spec.args.length}.`,
      },
    };
  }
  const sub = spec.args.find((a) => a.k === 'subquery');
  if (sub !== undefined) return { ok: false, error: { code: GatewayState.featureNotSupported, message: 'cannot use subquery in EXECUTE parameter', position: sub.position } };
  let evaluated: { readonly row: readonly SqlValue[]; readonly types: readonly SqlType[] } | null = null;
  if (spec.evaluate !== null) {
    const r = await backend.execute(spec.evaluate.sql);
    if (!r.ok) {
      const p = r.error.position;
      return { ok: false, error: { ...r.error, position: p === undefined ? undefined : p + spec.evaluate.offset } };
    }
    evaluated = { row: r.rows[0] ?? [], types: r.columns.map((c) => c.type) };
  }
  // Literals are read, and values cast, in the session's zone (a timestamptz without an offset).
  return withSessionZone(zone, () => {
    const params: SqlValue[] = [];
    for (let i = 0; i < types.length; i++) {
      const arg = spec.args[i]!;
      const to = types[i]!;
      let position: number | undefined = arg.position;
      try {
        if (arg.k === 'literal' && (arg.type === 'unknown' || arg.text === null)) {
          // An untyped literal is read by the parameter type's input function, as a text parameter is
          // (its errors point at the literal, as PostgreSQL's parse-time coercion does).
          params.push(arg.text === null ? null : decodeParam(Buffer.from(arg.text, 'utf8'), 0, to));
          continue;
        }
        position = undefined; // a cast of a value fails at run time, with no position
        const from: SqlType = arg.k === 'literal' ? arg.type : evaluated!.types[i] ?? 'unknown';
        const value = arg.k === 'literal' ? parseText(arg.text!, arg.type) : evaluated!.row[i] ?? null;
        if (!assignable(from, to)) {
          return {
            ok: false,
            error: {
              code: GatewayState.datatypeMismatch,
              message: `parameter $${i + 1} of type ${typeDisplayName[from]} cannot be coerced to the expected type ${typeDisplayName[to]}`,
              hint: 'You will need to rewrite or cast the expression.',
              position: arg.position,
            },
          };
        }
        params.push(castValue(value, from, to, -1, false));
      } catch (e) {
        return failure(e, position);
      }
    }
    return { ok: true, params };
  });
}
