// COMMENT ON: a description kept on the commented object's definition (tables, views, materialized
// views, their columns, indexes, sequences, constraints, enum types), so renames keep it and dropping
// the object drops it; schema public's, extensions' and the database's (schema-privileges.ts) live in
// the catalog's own map.
// COMMENT is DDL like any other: the replicated catalog log replays the statement, so every replica
// and client derives the same comments. NULL or '' removes one. The gateway shows them as
// pg_description rows (client/gateway/catalog-constraints.ts; schema public's: system-catalog.ts).
//
// Errors are PostgreSQL 15's (get_object_address): 42P01 for a missing relation and 42809 for one of
// another kind, 42704 for a missing type, constraint or extension, 42703 for a missing column, each
// naming the object as written (`relation "public.nov" does not exist`). A type Pesto has no
// definition for (a built-in type, a table's row type) and object kinds Pesto does not have are 0A000.

import type { CommentStmt, Node, TypeName } from 'libpg-query';
import type { Catalog, TableDef } from './catalog.ts';
import { primaryKeyName } from './catalog.ts';
import type { DdlOutcome } from './ddl-build.ts';
import { SqlError, SqlState } from './errors.ts';
import { strOf, unsupported } from './lower-expr.ts';
import { noSuchSchema } from './qualified-names.ts';
import { isBuiltInExtension } from './extensions.ts';
import { resolveTypeName } from './lower-type.ts';
import type { DdlActor } from './roles.ts';
import { commentOnDatabase } from './schema-privileges.ts';

const RELATION_KINDS = { OBJECT_TABLE: 'table', OBJECT_VIEW: 'view', OBJECT_MATVIEW: 'materialized view', OBJECT_INDEX: 'index', OBJECT_SEQUENCE: 'sequence' } as const;
type RelationKind = (typeof RELATION_KINDS)[keyof typeof RELATION_KINDS];

/** A relation as COMMENT finds it by name. */
type Relation =
  | { readonly kind: 'table' | 'materialized view'; readonly table: TableDef }
  | { readonly kind: 'view'; readonly name: string }
  | { readonly kind: 'index'; readonly table: TableDef; readonly index: string }
  | { readonly kind: 'sequence'; readonly name: string };

/** `x` with comment `text`, or without one when `text` is undefined. */
function withComment<T extends { readonly comment?: string }>(x: T, text: string | undefined): T {
  const { comment: _, ...rest } = x;
  return (text === undefined ? rest : { ...rest, comment: text }) as T;
}

export function comment(catalog: Catalog, s: CommentStmt, actor: DdlActor): DdlOutcome {
  const text = s.comment === undefined || s.comment === '' ? undefined : s.comment;
  const objtype = s.objtype ?? '';
  const done: DdlOutcome = { tag: 'COMMENT', touched: [] };
  if (objtype in RELATION_KINDS) {
    const names = nameList(s.object);
    commentRelation(catalog, findRelation(catalog, names, RELATION_KINDS[objtype as keyof typeof RELATION_KINDS]), text);
    return done;
  }
  switch (objtype) {
    case 'OBJECT_COLUMN':
      commentColumn(catalog, nameList(s.object), text);
      return done;
    case 'OBJECT_TABCONSTRAINT':
      commentConstraint(catalog, nameList(s.object), text);
      return done;
    case 'OBJECT_TYPE':
      commentType(catalog, s.object, text);
      return done;
    case 'OBJECT_SCHEMA': {
      const name = strOf(s.object as Node);
      if (name !== 'public') {
        if (name === 'pg_catalog' || name === 'information_schema') throw unsupported(`COMMENT ON SCHEMA ${name}`);
        throw noSuchSchema(name);
      }
      catalog.setObjectComment('schema public', text ?? null);
      return done;
    }
    case 'OBJECT_DATABASE':
      return commentOnDatabase(catalog, strOf(s.object as Node), text, actor);
    case 'OBJECT_EXTENSION': {
      const name = strOf(s.object as Node);
      if (catalog.extensionVersion(name) === undefined && !isBuiltInExtension(name)) throw new SqlError(SqlState.undefinedObject, `extension "${name}" does not exist`);
      catalog.setObjectComment(`extension ${name}`, text ?? null);
      return done;
    }
    default:
      throw unsupported(`COMMENT ON ${objtype.replace('OBJECT_', '').replace('TABCONSTRAINT', 'CONSTRAINT').replace('_', ' ')}`);
  }
}

function nameList(o: Node | undefined): string[] {
  return (o !== undefined && 'List' in o ? (o.List.items ?? []) : []).map(strOf);
}

/** The relation `[schema,] name` names; 42P01 when none does, 42809 when it is not a `want` (absent: any kind). */
function findRelation(catalog: Catalog, names: readonly string[], want?: RelationKind): Relation {
  const written = names.join('.');
  const name = names[names.length - 1] ?? '';
  const found = relationNamed(catalog, name);
  if (found === null) throw new SqlError(SqlState.undefinedTable, `relation "${written}" does not exist`);
  if (want !== undefined && found.kind !== want) throw new SqlError(SqlState.wrongObjectType, `"${name}" is not ${want === 'index' ? 'an' : 'a'} ${want}`);
  return found;
}

function relationNamed(catalog: Catalog, name: string): Relation | null {
  const t = catalog.get(name);
  if (t !== undefined) return { kind: t.matview === undefined ? 'table' : 'materialized view', table: t };
  if (catalog.getView(name) !== undefined) return { kind: 'view', name };
  if (catalog.sequence(name) !== undefined) return { kind: 'sequence', name };
  const i = catalog.indexTable(name);
  return i === undefined ? null : { kind: 'index', table: i, index: name };
}

function commentRelation(catalog: Catalog, r: Relation, text: string | undefined): void {
  switch (r.kind) {
    case 'table':
    case 'materialized view':
      catalog.put(withComment(r.table, text));
      return;
    case 'view': {
      const v = catalog.getView(r.name)!;
      catalog.putView(withComment(v, text));
      return;
    }
    case 'sequence':
      catalog.putSequence(withComment(catalog.sequence(r.name)!, text));
      return;
    case 'index': {
      const t = r.table;
      if (t.indexes.some((i) => i.name === r.index)) {
        catalog.put({ ...t, indexes: t.indexes.map((i) => (i.name === r.index ? withComment(i, text) : i)) });
      } else {
        const { pkIndexComment: _, ...rest } = t;
        catalog.put(text === undefined ? rest : { ...rest, pkIndexComment: text });
      }
      return;
    }
  }
}

/** COMMENT ON COLUMN [schema.]relation.column: a table's, a view's or a materialized view's. */
function commentColumn(catalog: Catalog, names: readonly string[], text: string | undefined): void {
  if (names.length < 2) throw new SqlError(SqlState.syntaxError, 'column name must be qualified');
  const column = names[names.length - 1]!;
  const relNames = names.slice(0, -1);
  const r = findRelation(catalog, relNames);
  const noColumn = (): SqlError => new SqlError(SqlState.undefinedColumn, `column "${column}" of relation "${relNames.join('.')}" does not exist`);
  switch (r.kind) {
    case 'table':
    case 'materialized view': {
      const i = r.table.columns.findIndex((c) => c.name === column && !c.hidden && c.dropped !== true);
      if (i < 0) throw noColumn();
      catalog.put({ ...r.table, columns: r.table.columns.map((c, j) => (j === i ? withComment(c, text) : c)) });
      return;
    }
    case 'view': {
      const v = catalog.getView(r.name)!;
      const i = v.columns.findIndex((c) => c.name === column);
      if (i < 0) throw noColumn();
      catalog.putView({ ...v, columns: v.columns.map((c, j) => (j === i ? withComment(c, text) : c)) });
      return;
    }
    case 'index':
      throw new SqlError(SqlState.wrongObjectType, `cannot set comment on relation "${r.index}"`, 'This operation is not supported for indexes.');
    case 'sequence':
      // A sequence's columns (last_value, log_cnt, is_called) cannot take comments in PostgreSQL either.
      if (['last_value', 'log_cnt', 'is_called'].includes(column)) throw new SqlError(SqlState.wrongObjectType, `cannot set comment on relation "${r.name}"`, 'This operation is not supported for sequences.');
      throw noColumn();
  }
}

/** COMMENT ON CONSTRAINT name ON [schema.]table: a primary key, UNIQUE, CHECK or FOREIGN KEY constraint. */
function commentConstraint(catalog: Catalog, names: readonly string[], text: string | undefined): void {
  const name = names[names.length - 1] ?? '';
  const relNames = names.slice(0, -1);
  const r = findRelation(catalog, relNames);
  const table = relNames[relNames.length - 1] ?? '';
  const missing = new SqlError(SqlState.undefinedObject, `constraint "${name}" for table "${table}" does not exist`);
  if (r.kind !== 'table') throw missing;
  const t = r.table;
  if (name === primaryKeyName(t)) {
    const { pkConstraintComment: _, ...rest } = t;
    catalog.put(text === undefined ? rest : { ...rest, pkConstraintComment: text });
    return;
  }
  const set = <T extends { readonly name: string; readonly comment?: string }>(x: T): T => (x.name === name ? withComment(x, text) : x);
  const unique = t.indexes.find((i) => i.name === name && i.constraint);
  if (unique !== undefined) {
    const { constraintComment: _, ...rest } = unique;
    catalog.put({ ...t, indexes: t.indexes.map((i) => (i === unique ? (text === undefined ? rest : { ...rest, constraintComment: text }) : i)) });
    return;
  }
  if (t.checks?.some((k) => k.name === name) === true) {
    catalog.put({ ...t, checks: t.checks.map(set) });
    return;
  }
  if (t.foreignKeys?.some((k) => k.name === name) === true) {
    catalog.put({ ...t, foreignKeys: t.foreignKeys.map(set) });
    return;
  }
  throw missing;
}

function isBuiltInType(tn: TypeName): boolean {
  try {
    resolveTypeName(tn);
    return true;
  } catch {
    return false;
  }
}

/** COMMENT ON TYPE: an enum type's (its array type, a built-in type and a relation's row type are 0A000). */
function commentType(catalog: Catalog, o: Node | undefined, text: string | undefined): void {
  const tn: TypeName = o !== undefined && 'TypeName' in o ? o.TypeName : {};
  const names = (tn.names ?? []).map(strOf);
  const name = names[names.length - 1] ?? '';
  const written = names.join('.');
  const e = names.length > 2 || (names.length === 2 && names[0] !== 'public') ? undefined : catalog.enumType(name);
  const isArray = (tn.arrayBounds ?? []).length > 0;
  if (e !== undefined && !isArray) {
    catalog.putEnum(withComment(e, text));
    return;
  }
  const relationType = catalog.get(name) !== undefined || catalog.getView(name) !== undefined;
  const arrayOfEnum = name.startsWith('_') && catalog.enumType(name.slice(1)) !== undefined;
  if (e !== undefined || relationType || arrayOfEnum || isBuiltInType(tn)) {
    throw unsupported(`COMMENT ON TYPE ${written}${isArray ? '[]' : ''} (Pesto keeps comments on enum types only)`);
  }
  throw new SqlError(SqlState.undefinedObject, `type "${written}" does not exist`);
}
