// Schema qualifiers of the names a statement uses. A Pesto database has one schema of its own, public
// (and the gateway's system schemas, pg_catalog and information_schema, for reading), so a name
// qualified with any other schema names something that does not exist. The statement code below this
// check looks relations, types and objects up by their last name, so without it `DROP TABLE other.t`
// would drop public.t and `CREATE TABLE other.t` would create it. Errors are PostgreSQL 15's for a
// schema that does not exist: 42P01 for a relation a query reads or writes (`relation "other.t" does
// not exist`), 3F000 for every other use (`schema "other" does not exist`), 42501 for a DDL target in
// pg_catalog. `pg_temp` names the session's temporary tables: a session rewrites such names to its
// tables' internal ones before this check (sql/temp-tables.ts); one left here is taken as public.
// ALTER ... IF EXISTS of a relation in another schema is skipped with PostgreSQL's notice (`skippedAlter`).

import type { CreateSchemaStmt, Node } from 'libpg-query';
import { SqlError, SqlState } from './errors.ts';

/** Schemas whose names resolve to Pesto's one schema. */
const OWN = new Set(['public', 'pg_temp']);
/** Schemas the gateway's system catalog answers reads of. */
const SYSTEM = new Set(['pg_catalog', 'information_schema']);
/** Statements whose relations are read or written (42P01 for a missing schema); every other use is 3F000. */
const QUERIES = new Set(['SelectStmt', 'InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt']);
/** DDL that creates the relation its RangeVar names (42501 in pg_catalog, as heap_create says). */
const CREATES = new Set(['CreateStmt', 'ViewStmt', 'CreateSeqStmt', 'IntoClause', 'CreateTableAsStmt']);

export function noSuchSchema(schema: string, location?: number): SqlError {
  return new SqlError(SqlState.invalidSchemaName, `schema "${schema}" does not exist`, undefined, undefined, undefined, location);
}

/**
 * The unqualified name of a qualified name list (DROP's and COMMENT's objects: `[schema,] name`),
 * or null when its schema is not one of this database's (the caller skips it under IF EXISTS, else
 * throws `noSuchSchema`).
 */
export function ownName(items: readonly string[]): string | null {
  if (items.length > 1 && !OWN.has(items[items.length - 2]!)) return null;
  return items[items.length - 1] ?? '';
}

/** ALTER TABLE / INDEX / VIEW / MATERIALIZED VIEW / SEQUENCE's command tags, by the object kind the statement names. */
const ALTER_TAGS: Readonly<Record<string, string>> = {
  OBJECT_TABLE: 'ALTER TABLE', OBJECT_INDEX: 'ALTER INDEX', OBJECT_VIEW: 'ALTER VIEW', OBJECT_MATVIEW: 'ALTER MATERIALIZED VIEW', OBJECT_SEQUENCE: 'ALTER SEQUENCE',
};

/**
 * ALTER ... IF EXISTS of a relation qualified with a schema this database lacks: PostgreSQL skips it
 * with its notice (`relation "t" does not exist, skipping`) where the schema check would say 3F000.
 * Null for every other statement.
 */
export function skippedAlter(stmt: Node): { readonly tag: string; readonly notice: string } | null {
  let rv: RangeVarLike | undefined;
  let tag = 'ALTER TABLE';
  if ('AlterTableStmt' in stmt && stmt.AlterTableStmt.missing_ok === true) {
    rv = stmt.AlterTableStmt.relation;
    tag = ALTER_TAGS[stmt.AlterTableStmt.objtype ?? ''] ?? tag;
  } else if ('RenameStmt' in stmt && stmt.RenameStmt.missing_ok === true) {
    rv = stmt.RenameStmt.relation;
    const s = stmt.RenameStmt;
    tag = ALTER_TAGS[s.renameType === 'OBJECT_COLUMN' || s.renameType === 'OBJECT_TABCONSTRAINT' ? s.relationType ?? '' : s.renameType ?? ''] ?? tag;
  } else if ('AlterSeqStmt' in stmt && stmt.AlterSeqStmt.missing_ok === true) {
    rv = stmt.AlterSeqStmt.sequence;
    tag = 'ALTER SEQUENCE';
  }
  const schema = rv?.schemaname;
  if (rv === undefined || schema === undefined || OWN.has(schema) || SYSTEM.has(schema)) return null;
  return { tag, notice: `relation "${rv.relname ?? ''}" does not exist, skipping` };
}

/** Throws PostgreSQL's error for the first name in `stmt` qualified with a schema this database lacks. */
export function checkQualifiedNames(stmt: Node): void {
  walk(stmt, false, null);
}

function walk(x: unknown, inQuery: boolean, parent: string | null): void {
  if (Array.isArray(x)) {
    for (const v of x) walk(v, inQuery, parent);
    return;
  }
  if (typeof x !== 'object' || x === null) return;
  const o = x as Record<string, unknown>;
  for (const k in o) {
    const v = o[k];
    if (typeof v !== 'object' || v === null) continue;
    switch (k) {
      case 'RangeVar':
        checkRangeVar(v as RangeVarLike, inQuery, parent);
        break;
      case 'TypeName':
      case 'typeName':
        checkTypeName(v as TypeNameLike | readonly Node[]);
        walk(v, inQuery, k);
        break;
      case 'DropStmt':
        // DROP's objects are checked where they are dropped (ddl.ts): IF EXISTS skips one with a notice.
        break;
      case 'CommentStmt':
        checkCommentObject(v as { objtype?: string; object?: Node });
        break;
      case 'A_Const':
        break;
      default:
        // A RangeVar is a plain object under fields like `relation`, `view`, `sequence`, `rel`.
        if (RANGE_VAR_FIELDS.has(k)) checkRangeVar(v as RangeVarLike, inQuery, parent);
        else walk(v, inQuery || QUERIES.has(k), /^[A-Z]/.test(k) ? k : parent);
    }
  }
}

interface RangeVarLike {
  readonly schemaname?: string;
  readonly relname?: string;
  readonly location?: number;
}
interface TypeNameLike {
  readonly names?: readonly Node[];
  readonly location?: number;
}

/** Fields whose value is a RangeVar's fields (libpg-query writes those without the RangeVar wrapper). */
export const RANGE_VAR_FIELDS: ReadonlySet<string> = new Set(['relation', 'view', 'sequence', 'rel', 'pktable']);

function checkRangeVar(rv: RangeVarLike, inQuery: boolean, parent: string | null): void {
  const schema = rv.schemaname;
  if (schema === undefined || OWN.has(schema)) return;
  if (SYSTEM.has(schema)) {
    if (inQuery) return; // the gateway's system catalog answers it, or resolution fails with 42P01
    if (parent !== null && CREATES.has(parent)) {
      throw new SqlError(SqlState.insufficientPrivilege, `permission denied to create "${schema}.${rv.relname ?? ''}"`,
        'System catalog modifications are currently disallowed.');
    }
    throw new SqlError(SqlState.insufficientPrivilege, `permission denied: "${rv.relname ?? ''}" is a system catalog`);
  }
  if (inQuery) throw new SqlError(SqlState.undefinedTable, `relation "${schema}.${rv.relname ?? ''}" does not exist`, undefined, undefined, undefined, rv.location);
  throw noSuchSchema(schema, rv.location);
}

function stringsOf(items: readonly Node[] | undefined): string[] {
  return (items ?? []).map((n) => ('String' in n ? n.String.sval ?? '' : ''));
}

/** A type's name: a TypeName, or the bare name list CREATE TYPE and ALTER TYPE carry. */
function checkTypeName(t: TypeNameLike | readonly Node[]): void {
  const names = stringsOf(isNodeList(t) ? t : t.names);
  if (names.length < 2) return;
  const schema = names[names.length - 2]!;
  if (OWN.has(schema) || SYSTEM.has(schema)) return;
  throw noSuchSchema(schema, isNodeList(t) ? undefined : t.location);
}

function isNodeList(t: TypeNameLike | readonly Node[]): t is readonly Node[] {
  return Array.isArray(t);
}

/**
 * COMMENT ON kinds whose object names a relation (or a column or constraint on one): the relation's
 * position from the end of the qualified name (1: the last).
 */
export const COMMENTED_RELATIONS: Readonly<Record<string, number>> = {
  OBJECT_TABLE: 1, OBJECT_VIEW: 1, OBJECT_MATVIEW: 1, OBJECT_INDEX: 1, OBJECT_SEQUENCE: 1, OBJECT_FOREIGN_TABLE: 1, OBJECT_COLUMN: 2, OBJECT_TABCONSTRAINT: 2,
};

function checkCommentObject(s: { objtype?: string; object?: Node }): void {
  const o = s.object;
  const fromEnd = COMMENTED_RELATIONS[s.objtype ?? ''];
  if (o === undefined || !('List' in o) || fromEnd === undefined) return;
  const names = stringsOf(o.List.items);
  // COMMENT ON TABLE s.t (VIEW, INDEX, ...), COLUMN s.t.c, CONSTRAINT c ON s.t: the schema is the name
  // before the relation's.
  const relationAt = names.length - fromEnd;
  const schema = relationAt >= 1 ? names[relationAt - 1]! : undefined;
  if (schema !== undefined && !OWN.has(schema)) throw noSuchSchema(schema);
}

/**
 * CREATE SCHEMA: public exists (42P06, or a notice under IF NOT EXISTS, as migration tools send it);
 * another schema is 0A000, since a Pesto database keeps its objects in public only.
 */
export function createSchema(s: CreateSchemaStmt): { readonly k: 'noop'; readonly tag: string; readonly notice?: string } {
  const name = s.schemaname ?? '';
  if (name !== 'public') throw new SqlError(SqlState.featureNotSupported, `CREATE SCHEMA ${name} is not supported: a Pesto database keeps its tables, views, sequences and types in schema public`);
  if (s.schemaElts !== undefined && s.schemaElts.length > 0) throw new SqlError(SqlState.featureNotSupported, 'CREATE SCHEMA with elements is not supported');
  if (s.if_not_exists !== true) throw new SqlError('42P06', 'schema "public" already exists');
  return { k: 'noop', tag: 'CREATE SCHEMA', notice: 'schema "public" already exists, skipping' };
}

/** DROP SCHEMA [IF EXISTS]: another schema does not exist (3F000, or a notice under IF EXISTS); public holds the database (0A000). */
export function dropSchemas(names: readonly string[], missingOk: boolean): { readonly tag: string; readonly touched: readonly number[]; readonly notice?: string } {
  const notices: string[] = [];
  for (const name of names) {
    if (name === 'public') throw new SqlError(SqlState.featureNotSupported, 'DROP SCHEMA public is not supported: it holds every table, view, sequence and type of a Pesto database');
    if (!missingOk) throw noSuchSchema(name);
    notices.push(`schema "${name}" does not exist, skipping`);
  }
  return { tag: 'DROP SCHEMA', touched: [], ...(notices.length > 0 ? { notice: notices.join('\n') } : {}) };
}
