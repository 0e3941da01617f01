// The system catalog drivers and ORMs query: pg_catalog's pg_type, pg_namespace, pg_range, pg_enum,
// pg_class, pg_attribute, pg_tables, pg_views and pg_database (the session's database), pg_index, pg_constraint,
// pg_attrdef, pg_description, pg_statio_all_tables, pg_am and pg_collation (catalog-constraints.ts), pg_sequence,
// pg_sequences, pg_depend and information_schema.sequences (catalog-sequences.ts), and
// information_schema's tables, views, columns, table_constraints, key_column_usage,
// constraint_column_usage, referential_constraints and check_constraints, as tables of a single-node
// engine in the gateway. A SELECT whose every table is one of these runs there, with all the engine's SQL (joins, grouping,
// parameters), instead of on the backend, which has no pg_catalog. postgres.js reads pg_type's array
// types on connect; knex's hasTable/hasColumn read information_schema; Sequelize's sync reads the
// constraint tables.
//
// pg_type lists the types the engine has (sql/types.ts) and their one-dimensional array types. The tables describing the database's own
// tables (pg_class, pg_attribute, pg_tables, information_schema) are filled from the session's backend
// (`tables()`, the catalog its transaction sees) before each query; engine calls are synchronous, so no
// other session's query runs between the filling and the query. Object ids of tables and indexes are
// psql-describe.ts's (OID_BASE + id). Columns are a subset of PostgreSQL 15's, in its order, with its
// types mapped to the engine's: oid and regproc as integer and text, "char" as text; name is name.
// pg_index, pg_constraint, pg_attrdef, pg_description, pg_statio_all_tables and pg_am are
// catalog-constraints.ts's; calls of the catalog functions that read them (pg_get_indexdef, ...) are
// rewritten into subqueries over them before the query is prepared (catalog-functions.ts); format_type
// is the engine's own function. Sequelize's sync and describeTable/showIndex read these.
// regclass and regtype casts are lookups in catalog-names.ts's tables (an oid, or with ::text the name).

import type { EnumTypeDef } from '../../sql/enum-types.ts';
import { enumTypeRows } from './catalog-enums.ts';
import { parseSync } from 'libpg-query';
import type { Node } from 'libpg-query';
import { quoteIdent, rowTypeOid, type ColumnDef, type TableDef, type ViewDef } from '../../sql/catalog.ts';
import { viewDefinition } from '../../sql/views.ts';
import { writableColumns } from '../../sql/view-dml.ts';
import { Engine } from '../../sql/engine.ts';
import { uniqueKeyOf } from '../../sql/foreign-keys.ts';
import { isArrayType, isVectorType, sqlTypes, typeDisplayName, typeFromOid, typeLen, typeOid, typeOidOf, type SqlType, type SqlValue } from '../../sql/types.ts';
import { resultOf } from './engine-backend.ts';
import type { CatalogContext, CatalogQuery } from './catalog-queries.ts';
import { OID_BASE, defaultText, identText, objectNames } from './psql-describe.ts';
import { publicQualifier, qualifyNames } from './catalog-qualify.ts';
import { eachNode } from '../../sql/parse-tree.ts';
import { PG_DEPEND, SEQUENCE_TABLES, sequenceRows } from './catalog-sequences.ts';
import type { SequenceDef } from '../../sql/sequences.ts';
import type { BackendResult, RoleCatalog } from './sql-backend.ts';
import { isSuperuserName, ownersOf, PG_AUTHID, ROLE_TABLES, roleRows } from './catalog-roles.ts';
import { ownerOf } from '../../sql/privileges.ts';
import { PG_DATABASE_OWNER } from '../../sql/schema-privileges.ts';
import { PG_DESCRIPTION, AM_ROWS, COLLATION_ROWS, collationOf, CONSTRAINT_TABLES, PESTO_DEFINITION, PG_AM, PG_COLLATION, PKEY_OID, checkDefinition, commentRows, constraintTableRows, type Table } from './catalog-constraints.ts';
import { RegCastSchemaError, regclassConstants, rewriteCatalogFunctions } from './catalog-functions.ts';
import { DUMP_EMPTY_TABLES, PG_DEFAULT_ACL, PG_INIT_PRIVS, PG_REWRITE, viewRuleRows, PG_ATTRIBUTE, attributeRow, PG_CLASS, classRow, PG_SETTINGS, PG_TABLESPACE, TABLESPACE_ROWS, settingsRows } from './catalog-dump.ts';
import type { SessionSettings } from './session-settings.ts';
import { missingRelation, PESTO_RELATION_NAME, PESTO_TYPE_NAME, SYSTEM_RELATION_NAME_ROWS, relationNameRows, spellings, typeNameRows } from './catalog-names.ts';

const PG_CATALOG = 11;
const DATABASE_OID = 5;
const PUBLIC = 2200;
/** pg_default_acl's oids: a range no relation, constraint or type oid falls in. */
const DEFAULT_ACL_OID_BASE = 0x60000000;
/** information_schema's oid varies between PostgreSQL installations; this one is free in all of them. */
const INFORMATION_SCHEMA = 13000;

/** PostgreSQL 15's array type of each base type (pg_type.typarray). */
const ARRAY_OID: Readonly<Record<string, number>> = {
  int2: 1005, int4: 1007, int8: 1016, numeric: 1231, float4: 1021, float8: 1022, text: 1009, varchar: 1015,
  bpchar: 1014, bool: 1000, date: 1182, timestamp: 1115, timestamptz: 1185, uuid: 2951, bytea: 1001,
  interval: 1187, json: 199, jsonb: 3807, name: 1003, time: 1183, timetz: 1270,
};
const CATEGORY: Readonly<Record<string, string>> = {
  int2: 'N', int4: 'N', int8: 'N', numeric: 'N', float4: 'N', float8: 'N', text: 'S', varchar: 'S', bpchar: 'S',
  bool: 'B', date: 'D', timestamp: 'D', timestamptz: 'D', uuid: 'U', bytea: 'U', interval: 'T', unknown: 'X', name: 'S', time: 'D', timetz: 'D',
};
/** Input function names where PostgreSQL's are not `<type>in`. */
const INPUT: Readonly<Record<string, string>> = { date: 'date_in', timestamp: 'timestamp_in', timestamptz: 'timestamptz_in', uuid: 'uuid_in', numeric: 'numeric_in', interval: 'interval_in', json: 'json_in', jsonb: 'jsonb_in', time: 'time_in', timetz: 'timetz_in' };


// Static tables: filled once.
const PG_TYPE: Table = {
  name: 'pg_catalog.pg_type',
  columns: `oid int4, typname name, typnamespace int4, typowner int4, typlen int2, typbyval bool, typtype text,
    typcategory text, typispreferred bool, typisdefined bool, typdelim text, typrelid int4, typsubscript text, typelem int4,
    typarray int4, typinput text, typoutput text, typreceive text, typsend text, typalign text, typstorage text,
    typnotnull bool, typbasetype int4, typtypmod int4, typndims int4, typcollation int4, typdefault text, typacl text[]`,
  oid: 1247,
};
const PG_NAMESPACE: Table = { name: 'pg_catalog.pg_namespace', columns: 'oid int4, nspname name, nspowner int4, nspacl text[]', oid: 2615 };
const PG_RANGE: Table = { name: 'pg_catalog.pg_range', columns: 'rngtypid int4, rngsubtype int4, rngmultitypid int4, rngcollation int4, rngsubopc int4, rngcanonical text, rngsubdiff text' };
const PG_ENUM: Table = { name: 'pg_catalog.pg_enum', columns: 'oid int4, enumtypid int4, enumsortorder float4, enumlabel name', oid: 3501 };
// Tables filled from the session's catalog before each query (and pg_class: catalog-dump.ts).
const PG_DATABASE: Table = {
  name: 'pg_catalog.pg_database',
  columns: `oid int4, datname name, datdba int4, encoding int4, datlocprovider text, datistemplate bool, datallowconn bool, datconnlimit int4,
    datfrozenxid int4, datminmxid int4, dattablespace int4, datcollate text, datctype text, daticulocale text, datcollversion text, datacl text[]`,
  oid: 1262,
};
/** Comments on shared objects: the database's (COMMENT ON DATABASE); roles have none. */
const PG_SHDESCRIPTION: Table = { name: 'pg_catalog.pg_shdescription', columns: 'objoid int4, classoid int4, description text' };
const PG_TABLES: Table = { name: 'pg_catalog.pg_tables', columns: 'schemaname name, tablename name, tableowner name, tablespace name, hasindexes bool, hasrules bool, hastriggers bool, rowsecurity bool' };
const IS_TABLES: Table = {
  name: 'information_schema.tables',
  columns: `table_catalog text, table_schema text, table_name text, table_type text, self_referencing_column_name text,
    reference_generation text, user_defined_type_catalog text, user_defined_type_schema text, user_defined_type_name text,
    is_insertable_into text, is_typed text, commit_action text`,
};
const IS_COLUMNS: Table = {
  name: 'information_schema.columns',
  columns: `table_catalog text, table_schema text, table_name text, column_name text, ordinal_position int4, column_default text,
    is_nullable text, data_type text, character_maximum_length int4, character_octet_length int4, numeric_precision int4,
    numeric_precision_radix int4, numeric_scale int4, datetime_precision int4, udt_catalog text, udt_schema text, udt_name text,
    is_identity text, is_generated text, generation_expression text, is_updatable text`,
};
const IS_TABLE_CONSTRAINTS: Table = {
  name: 'information_schema.table_constraints',
  columns: `constraint_catalog text, constraint_schema text, constraint_name text, table_catalog text, table_schema text, table_name text,
    constraint_type text, is_deferrable text, initially_deferred text, enforced text, nulls_distinct text`,
};
const IS_KEY_COLUMN_USAGE: Table = {
  name: 'information_schema.key_column_usage',
  columns: `constraint_catalog text, constraint_schema text, constraint_name text, table_catalog text, table_schema text, table_name text,
    column_name text, ordinal_position int4, position_in_unique_constraint int4`,
};
const IS_CONSTRAINT_COLUMN_USAGE: Table = {
  name: 'information_schema.constraint_column_usage',
  columns: 'table_catalog text, table_schema text, table_name text, column_name text, constraint_catalog text, constraint_schema text, constraint_name text',
};
const IS_REFERENTIAL_CONSTRAINTS: Table = {
  name: 'information_schema.referential_constraints',
  columns: `constraint_catalog text, constraint_schema text, constraint_name text, unique_constraint_catalog text, unique_constraint_schema text,
    unique_constraint_name text, match_option text, update_rule text, delete_rule text`,
};
const IS_CHECK_CONSTRAINTS: Table = { name: 'information_schema.check_constraints', columns: 'constraint_catalog text, constraint_schema text, constraint_name text, check_clause text' };
const PG_VIEWS: Table = { name: 'pg_catalog.pg_views', columns: 'schemaname name, viewname name, viewowner name, definition text' };
const PG_MATVIEWS: Table = { name: 'pg_catalog.pg_matviews', columns: 'schemaname name, matviewname name, matviewowner name, tablespace name, hasindexes bool, ispopulated bool, definition text' };
const IS_VIEWS: Table = {
  name: 'information_schema.views',
  columns: `table_catalog text, table_schema text, table_name text, view_definition text, check_option text, is_updatable text,
    is_insertable_into text, is_trigger_updatable text, is_trigger_deletable text, is_trigger_insertable_into text`,
};
const SESSION_TABLES = [...ROLE_TABLES, PG_DEFAULT_ACL, PG_NAMESPACE, PG_INIT_PRIVS, PG_SETTINGS, PG_REWRITE, PG_TYPE, PG_ENUM, PESTO_TYPE_NAME, PG_CLASS, PG_ATTRIBUTE, PG_TABLES, PG_VIEWS, PG_MATVIEWS, PG_DATABASE, PG_SHDESCRIPTION, IS_TABLES, IS_VIEWS, IS_COLUMNS, IS_TABLE_CONSTRAINTS, IS_KEY_COLUMN_USAGE,
  IS_CONSTRAINT_COLUMN_USAGE, IS_REFERENTIAL_CONSTRAINTS, IS_CHECK_CONSTRAINTS, ...CONSTRAINT_TABLES, ...SEQUENCE_TABLES, PESTO_RELATION_NAME];
const ALL = [PG_RANGE, PG_AM, PG_COLLATION, PG_TABLESPACE, ...DUMP_EMPTY_TABLES, ...SESSION_TABLES];
/** Names a FROM item may use for them: qualified, or pg_catalog's unqualified (searched implicitly). */
const SYSTEM_NAMES = new Set(ALL.flatMap((t) => (t.name.startsWith('pg_catalog.') ? [t.name, t.name.slice('pg_catalog.'.length)] : [t.name])));


function typeRows(): SqlValue[][] {
  const rows: SqlValue[][] = [];
  for (const t of sqlTypes) {
    // An array type's row comes with its element type's, below; enums are the session's (enumTypeRows).
    if (isArrayType(t) || t === 'enum') continue;
    if (t === 'record') {
      // The pseudo-type of anonymous rows (ROW(...)); the engine has no arrays of it.
      rows.push([typeOid.record, 'record', PG_CATALOG, 10, -1, false, 'p', 'P', false, true, ',', 0, '-', 0, 0, 'record_in', 'record_out',
        'record_recv', 'record_send', 'd', 'x', false, 0, -1, 0, 0, null, null]);
      continue;
    }
    if (t === 'void') {
      // The pseudo-type of functions that return nothing (pg_sleep).
      rows.push([typeOid.void, 'void', PG_CATALOG, 10, 4, true, 'p', 'P', false, true, ',', 0, '-', 0, 0, 'void_in', 'void_out',
        'void_recv', 'void_send', 'i', 'p', false, 0, -1, 0, 0, null, null]);
      continue;
    }
    const oid = typeOid[t];
    const len = typeLen[t];
    const array = ARRAY_OID[t] ?? 0;
    const byval = len === 1 || len === 2 || len === 4 || len === 8;
    // interval is 16 bytes aligned as its int64 (PostgreSQL's typalign 'd'); uuid's 16 are bytes.
    const align = len === 8 || t === 'interval' || t === 'timetz' ? 'd' : len === 2 ? 's' : len === 1 || len === 16 || len === -2 || t === 'name' ? 'c' : 'i';
    const collation = collationOf(t);
    const input = INPUT[t] ?? `${t}in`;
    const base = input.endsWith('_in') ? `${input.slice(0, -3)}_` : t;
    if (isVectorType(t)) {
      // Subscripted like arrays, of int2 and oid (26; int4 in the engine), stored plain; their own
      // array types are left out, as the engine has no arrays of them.
      rows.push([oid, t, PG_CATALOG, 10, len, false, 'b', 'A', false, true, ',', 0, 'array_subscript_handler', t === 'int2vector' ? 21 : 26, 0,
        input, `${t}out`, `${t}recv`, `${t}send`, 'i', 'p', false, 0, -1, 0, 0, null, null]);
      continue;
    }
    rows.push([oid, t, PG_CATALOG, 10, len, byval, 'b', CATEGORY[t] ?? 'U', false, true, ',', 0, '-', 0, array, input, `${base}out`,
      `${base}recv`, `${base}send`, align, len > 0 ? 'p' : 'x', false, 0, -1, 0, collation, null, null]);
    if (array !== 0) {
      rows.push([array, `_${t}`, PG_CATALOG, 10, -1, false, 'b', 'A', false, true, ',', 0, 'array_subscript_handler', oid, 0,
        'array_in', 'array_out', 'array_recv', 'array_send', align === 'd' ? 'd' : 'i', 'x', false, 0, -1, 0, collation, null, null]);
    }
  }
  return rows;
}

/** pg_type's row of a table's row type (typtype 'c', typrelid the table), the type of `SELECT t FROM t`, and its spellings. */
function rowTypeRows(name: string, relid: number, oid: number, push: (t: Table, row: SqlValue[]) => void): void {
  push(PG_TYPE, [oid, name, PUBLIC, 10, -1, false, 'c', 'C', false, true, ',', relid, '-', 0, 0, 'record_in', 'record_out', 'record_recv', 'record_send',
    'd', 'x', false, 0, -1, 0, 0, null, null]);
  for (const row of spellings(oid, name, identText(name), [['public']])) push(PESTO_TYPE_NAME, row);
}

/** information_schema.columns' type facts of one column. */
function columnFacts(type: SqlType, typmod: number): { maxLength: number | null; precision: number | null; radix: number | null; scale: number | null; datetime: number | null } {
  const none = { maxLength: null, precision: null, radix: null, scale: null, datetime: null };
  switch (type) {
    case 'int2': return { ...none, precision: 16, radix: 2, scale: 0 };
    case 'int4': return { ...none, precision: 32, radix: 2, scale: 0 };
    case 'int8': return { ...none, precision: 64, radix: 2, scale: 0 };
    case 'float4': return { ...none, precision: 24, radix: 2 };
    case 'float8': return { ...none, precision: 53, radix: 2 };
    case 'numeric': return typmod < 0 ? { ...none, radix: 10 } : { ...none, precision: ((typmod - 4) >> 16) & 0xffff, radix: 10, scale: (typmod - 4) & 0xffff };
    case 'varchar':
    case 'bpchar': return { ...none, maxLength: typmod < 0 ? null : typmod - 4 };
    case 'date': return { ...none, datetime: 0 };
    case 'timestamp':
    case 'timestamptz':
    case 'time':
    case 'timetz': return { ...none, datetime: typmod < 0 ? 6 : typmod };
    case 'interval': return { ...none, datetime: 6 };
    default: return none;
  }
}

function sessionRows(tables: readonly TableDef[], views: readonly ViewDef[], sequences: readonly SequenceDef[], enums: readonly EnumTypeDef[], roles: RoleCatalog, settings: SessionSettings): Map<Table, SqlValue[][]> {
  const { database } = settings;
  const schema = publicQualifier(settings.get('search_path') ?? '');
  const enumNames = new Set(enums.map((x) => x.name));
  const definitionOf = (v: { readonly text?: string }): string | null => {
    const d = viewDefinition(v);
    return d === null ? null : qualifyNames(d, schema, enumNames);
  };
  const out = new Map<Table, SqlValue[][]>(SESSION_TABLES.map((t) => [t, []]));
  const push = (t: Table, row: SqlValue[]): void => void out.get(t)!.push(row);
  roleRows(roles, push);
  const owners = ownersOf(roles);
  out.set(PG_SETTINGS, settingsRows(settings));
  if (roles.schemaComment !== null) push(PG_DESCRIPTION, [PUBLIC, 2615, 0, roles.schemaComment]);
  // Default privileges: oids of their own range, public's namespace (2200) or none (0) for a global entry.
  roles.defaultAcls.forEach((d, i) => push(PG_DEFAULT_ACL, [DEFAULT_ACL_OID_BASE + i, d.role, d.inPublic ? PUBLIC : 0, d.kind, owners.aclOf(d.acl)]));
  commentRows(views, sequences, enums, push);
  out.set(PG_TYPE, [...BUILTIN_TYPES]);
  out.set(PESTO_TYPE_NAME, [...BUILTIN_TYPE_NAMES]);
  enumTypeRows(enums, push, { type: PG_TYPE, enum: PG_ENUM, names: PESTO_TYPE_NAME }, schema);
  // The session's own database (UTF8, C collation; the only one it can see).
  push(PG_DATABASE, [DATABASE_OID, database, 10, 6, 'c', false, true, -1, 1, 1, 1663, 'C', 'C', null, null, roles.databaseAcl === null ? null : owners.aclOf(roles.databaseAcl)]);
  if (roles.databaseComment !== null) push(PG_SHDESCRIPTION, [DATABASE_OID, 1262, roles.databaseComment]);
  // The system schemas are the bootstrap superuser's, usable by everyone; public is PostgreSQL 15's (sql/schema-privileges.ts).
  const system = owners.aclOf([{ grantee: 10, grantor: 10, privs: 'UC', options: '' }, { grantee: 0, grantor: 10, privs: 'U', options: '' }]);
  push(PG_NAMESPACE, [PG_CATALOG, 'pg_catalog', 10, system]);
  push(PG_NAMESPACE, [PUBLIC, 'public', PG_DATABASE_OWNER, owners.aclOf(roles.schemaAcl)]);
  push(PG_NAMESPACE, [INFORMATION_SCHEMA, 'information_schema', 10, system]);
  for (const schemaOid of [PG_CATALOG, INFORMATION_SCHEMA]) push(PG_INIT_PRIVS, [schemaOid, 2615, 0, 'i', system]);
  const names = objectNames(sequences, schema);
  const relationOids = (uses: readonly string[]): number[] => uses.flatMap((n) => {
    const r = tables.find((x) => x.name === n) ?? views.find((x) => x.name === n);
    return r === undefined ? [] : [OID_BASE + r.id];
  });
  sequenceRows(sequences, tables, database, owners, push, (row) => push(PG_CLASS, row));
  // Tables a foreign key references (they take part in one, as its referencing tables do).
  const referenced = new Set(tables.flatMap((x) => (x.foreignKeys ?? []).map((fk) => fk.refTable)));
  for (const t of tables) {
    const oid = OID_BASE + t.id;
    // A dropped column keeps its attribute number (attisdropped), as in PostgreSQL; the hidden row id has none.
    const attributes = t.columns.filter((c) => !c.hidden || c.dropped === true);
    const m = t.matview;
    const owner = owners.name(t);
    push(PG_CLASS, classRow({ oid, relname: t.name, relkind: m === undefined ? 'r' : 'm', reltype: rowTypeOid(t), relam: 2, relnatts: attributes.length, relchecks: t.checks?.length ?? 0,
      relhasindex: t.indexes.length > 0 || !t.hiddenPk, ...(m === undefined ? {} : { relispopulated: m.populated }), relowner: ownerOf(t), relacl: owners.acl(t), ...(t.temporary === true ? { relpersistence: 't' as const } : {}),
      relhastriggers: (t.foreignKeys?.length ?? 0) > 0 || referenced.has(t.name) }));
    rowTypeRows(t.name, oid, rowTypeOid(t), push);
    for (const i of t.indexes) push(PG_CLASS, classRow({ oid: OID_BASE + i.id, relname: i.name, relkind: 'i', relam: 403, relnatts: i.columns.length, reltuples: 0, relowner: ownerOf(t) }));
    if (!t.hiddenPk) push(PG_CLASS, classRow({ oid: PKEY_OID + t.id, relname: `${t.name}_pkey`, relkind: 'i', relam: 403, relnatts: t.pk.length, reltuples: 0, relowner: ownerOf(t) }));
    if (m === undefined) {
      push(PG_TABLES, ['public', t.name, owner, null, t.indexes.length > 0 || !t.hiddenPk, false, false, false]);
      push(IS_TABLES, [database, 'public', t.name, 'BASE TABLE', null, null, null, null, null, 'YES', 'NO', null]);
    } else {
      // A materialized view: in pg_class and pg_matviews, not in information_schema (as in PostgreSQL).
      const definition = definitionOf(m);
      push(PG_MATVIEWS, ['public', t.name, owner, null, t.indexes.length > 0, m.populated, definition]);
      push(PESTO_DEFINITION, [oid, definition, null]);
      viewRuleRows(oid, t.id, relationOids(m.uses), push, PG_DEPEND);
    }
    const pushColumn = m === undefined ? push : (x: Table, row: SqlValue[]): void => void (x !== IS_COLUMNS && push(x, row));
    attributes.forEach((c, i) => {
      const num = i + 1;
      if (c.dropped === true) {
        push(PG_ATTRIBUTE, attributeRow({ attrelid: oid, attname: c.name, atttypid: 0, attlen: typeLen[c.type], attnum: num, atttypmod: -1, attndims: 0, attnotnull: false,
          atthasdef: false, attidentity: '', attgenerated: '', attisdropped: true, attcollation: 0 }));
        return;
      }
      columnRows(oid, t.name, c, num, defaultText(t, t.columns.indexOf(c), names), 'YES', database, pushColumn);
    });
    constraintRows(t, database, push);
    foreignKeyRows(t, tables, database, push);
    constraintTableRows(t, tables, names, push);
  }
  for (const v of views) {
    // A view: relkind 'v', its columns, its SELECT, and whether it is written through (sql/view-dml.ts).
    const oid = OID_BASE + v.id;
    const definition = definitionOf(v);
    const writable = writableColumns(v);
    const yes = writable === null ? 'NO' : 'YES';
    push(PG_CLASS, classRow({ oid, relname: v.name, relkind: 'v', relam: 0, relnatts: v.columns.length, relowner: ownerOf(v), relacl: owners.acl(v) }));
    push(IS_TABLES, [database, 'public', v.name, 'VIEW', null, null, null, null, null, yes, 'NO', null]);
    push(PG_VIEWS, ['public', v.name, owners.name(v), definition]);
    push(IS_VIEWS, [database, 'public', v.name, definition, 'NONE', yes, yes, 'NO', 'NO', 'NO']);
    push(PESTO_DEFINITION, [oid, definition, null]);
    viewRuleRows(oid, v.id, relationOids(v.uses), push, PG_DEPEND);
    v.columns.forEach((c, i) => columnRows(oid, v.name, { ...c, notNull: false, default: null }, i + 1, null, writable?.[i] === true ? 'YES' : 'NO', database, push));
  }
  for (const [oid, relname] of out.get(PG_CLASS)!) {
    for (const row of relationNameRows(oid as number, relname as string, database)) push(PESTO_RELATION_NAME, row);
  }
  for (const row of SYSTEM_RELATION_NAME_ROWS) push(PESTO_RELATION_NAME, row);
  return out;
}

/** pg_attribute's and information_schema.columns' rows of one column of a table or view. */
function columnRows(relid: number, relname: string, c: Pick<ColumnDef, 'name' | 'type' | 'typmod' | 'notNull' | 'default' | 'identity' | 'generated' | 'enumType'>, num: number, def: string | null,
  updatable: 'YES' | 'NO', database: string, push: (t: Table, row: SqlValue[]) => void): void {
  const f = columnFacts(c.type, c.typmod);
  const generated = c.generated !== undefined;
  // attndims: 1 for an array column (PostgreSQL records the declared dimensions; Pesto keeps one).
  // An enum column: its type's own oid, no modifier; information_schema calls it USER-DEFINED, in public.
  // An enum array column: its enum's array type, ARRAY in information_schema, udt _name.
  const en = c.type === 'enum' || c.type === '_enum' ? c.enumType : undefined;
  push(PG_ATTRIBUTE, attributeRow({ attrelid: relid, attname: c.name, atttypid: typeOidOf(c.type, c.typmod), attlen: typeLen[c.type], attnum: num,
    atttypmod: en === undefined ? c.typmod : -1, attndims: isArrayType(c.type) ? 1 : 0, attnotnull: c.notNull, atthasdef: (c.default !== null && c.identity === undefined) || generated,
    attidentity: c.identity ?? '', attgenerated: generated ? 's' : '', attisdropped: false, attcollation: collationOf(c.type) }));
  // A generated column's expression is its generation_expression, not a default.
  push(IS_COLUMNS, [database, 'public', relname, c.name, num, generated ? null : def, c.notNull ? 'NO' : 'YES', en !== undefined && c.type === 'enum' ? 'USER-DEFINED' : isArrayType(c.type) ? 'ARRAY' : typeDisplayName[c.type], f.maxLength,
    f.maxLength === null ? (!isArrayType(c.type) && collationOf(c.type) === 100 ? 1073741824 : null) : f.maxLength * 4, f.precision, f.radix, f.scale, f.datetime,
    database, en !== undefined ? 'public' : 'pg_catalog', en === undefined ? c.type : c.type === '_enum' ? `_${en.name}` : en.name, c.identity !== undefined ? 'YES' : 'NO', generated ? 'ALWAYS' : 'NEVER', generated ? def : null, updatable]);
}

/**
 * information_schema's constraint tables: the primary key, UNIQUE constraints and CHECK constraints
 * (PostgreSQL's NOT NULL pseudo-constraints, which it lists as CHECKs `x IS NOT NULL`, are left out;
 * foreign keys: foreignKeyRows).
 */
function constraintRows(t: TableDef, database: string, push: (t: Table, row: SqlValue[]) => void): void {
  const keyed = (name: string, type: string, cols: readonly number[]): void => {
    push(IS_TABLE_CONSTRAINTS, [database, 'public', name, database, 'public', t.name, type, 'NO', 'NO', 'YES', type === 'UNIQUE' ? 'YES' : null]);
    cols.forEach((c, i) => {
      const column = t.columns[c]?.name ?? '';
      push(IS_KEY_COLUMN_USAGE, [database, 'public', name, database, 'public', t.name, column, i + 1, null]);
      push(IS_CONSTRAINT_COLUMN_USAGE, [database, 'public', t.name, column, database, 'public', name]);
    });
  };
  if (!t.hiddenPk) keyed(`${t.name}_pkey`, 'PRIMARY KEY', t.pk);
  for (const i of t.indexes) if (i.constraint && i.unique) keyed(i.name, 'UNIQUE', i.columns);
  for (const k of t.checks ?? []) {
    push(IS_TABLE_CONSTRAINTS, [database, 'public', k.name, database, 'public', t.name, 'CHECK', 'NO', 'NO', 'YES', null]);
    // check_clause: pg_get_constraintdef without its leading `CHECK `, as PostgreSQL's view takes it.
    push(IS_CHECK_CONSTRAINTS, [database, 'public', k.name, checkDefinition(t, k, false)?.slice('CHECK '.length) ?? null]);
  }
}

/**
 * A table's FOREIGN KEY constraints as PostgreSQL 15 lists them: table_constraints, key_column_usage
 * (the referencing columns, with their position in the referenced key), constraint_column_usage (the
 * referenced columns) and referential_constraints (the referenced key's constraint, MATCH and rules).
 */
function foreignKeyRows(t: TableDef, tables: readonly TableDef[], database: string, push: (t: Table, row: SqlValue[]) => void): void {
  for (const fk of t.foreignKeys ?? []) {
    const parent = tables.find((x) => x.name === fk.refTable);
    if (parent === undefined) continue;
    const yesNo = (b: boolean | undefined): string => (b === true ? 'YES' : 'NO');
    push(IS_TABLE_CONSTRAINTS, [database, 'public', fk.name, database, 'public', t.name, 'FOREIGN KEY', yesNo(fk.deferrable), yesNo(fk.initiallyDeferred), 'YES', null]);
    // The referenced key's own column order (the primary key's, or the unique index's).
    const index = uniqueKeyOf(parent, fk.refColumns);
    const keyCols = index === undefined || index === null ? parent.pk : index.columns;
    fk.columns.forEach((c, i) => {
      push(IS_KEY_COLUMN_USAGE, [database, 'public', fk.name, database, 'public', t.name, t.columns[c]?.name ?? '', i + 1, keyCols.indexOf(fk.refColumns[i]!) + 1]);
    });
    for (const c of [...fk.refColumns].sort((a, b) => a - b)) push(IS_CONSTRAINT_COLUMN_USAGE, [database, 'public', parent.name, parent.columns[c]?.name ?? '', database, 'public', fk.name]);
    const rule = (a: string): string => a.toUpperCase();
    push(IS_REFERENTIAL_CONSTRAINTS, [database, 'public', fk.name, database, 'public', index === null || index === undefined ? `${parent.name}_pkey` : index.name,
      fk.matchFull ? 'FULL' : 'NONE', rule(fk.onUpdate), rule(fk.onDelete)]);
  }
}

/** pg_type's rows of the built-in types, and their spellings for regtype. */
const BUILTIN_TYPES = typeRows();
const BUILTIN_TYPE_NAMES = BUILTIN_TYPES.flatMap(([oid, typname]) => {
  const t = typeFromOid(oid as number);
  return t === undefined ? [] : typeNameRows(oid as number, typname as string, typeDisplayName[t]);
});

let engine: Engine | null = null;

/** Creates the system catalog's engine (once per process): the gateway does before it serves anyone. */
export async function loadSystemCatalog(): Promise<void> {
  if (engine !== null) return;
  // Strictly increasing: the rows filled for a query are written and read within one millisecond.
  let last = 0;
  const e = await Engine.create({ clock: () => (last = Math.max(last + 1, Date.now() * 1000)) });
  e.catalog.systemSchemas = new Set(['pg_catalog', 'information_schema']);
  const s = e.session();
  for (const t of ALL) {
    const r = s.execute(`CREATE TABLE ${quoteIdent(t.name)} (${t.columns}${t.oid === undefined ? '' : ', tableoid int4'})`);
    if (!r.ok) throw new Error(`system catalog: ${t.name}: ${r.error.message}`);
    // tableoid is a system column: selected by name, not by `*`.
    const def = e.catalog.get(t.name);
    if (t.oid !== undefined && def !== undefined) e.catalog.put({ ...def, columns: def.columns.map((c) => (c.name === 'tableoid' ? { ...c, system: true } : c)) });
  }
  fill(e, PG_AM, AM_ROWS);
  fill(e, PG_COLLATION, COLLATION_ROWS);
  fill(e, PG_TABLESPACE, TABLESPACE_ROWS);
  engine = e;
}

/** Replaces a table's rows. */
function fill(e: Engine, t: Table, rows: readonly SqlValue[][]): void {
  const s = e.session();
  s.execute(`DELETE FROM ${quoteIdent(t.name)}`);
  if (rows.length === 0) return;
  const width = rows[0]!.length + (t.oid === undefined ? 0 : 1);
  const r = s.prepare('fill', `INSERT INTO ${quoteIdent(t.name)} VALUES (${Array.from({ length: width }, (_, i) => `$${i + 1}`).join(', ')})`);
  if (!r.ok) throw new Error(`system catalog: ${t.name}: ${r.error.message}`);
  for (const row of rows) {
    const x = s.executePrepared('fill', t.oid === undefined ? row : [...row, t.oid]);
    if (!x.ok) throw new Error(`system catalog: ${t.name}: ${x.error.message}`);
  }
}

/** Every table the statement reads, and whether it is one SELECT; null when it does not parse. */
function relationsOf(sql: string): { names: string[]; ctes: Set<string> } | null {
  let stmts: Node[];
  try {
    stmts = (parseSync(sql).stmts ?? []).map((s) => s.stmt).filter((s): s is Node => s !== undefined);
  } catch {
    return null;
  }
  if (stmts.length !== 1 || !('SelectStmt' in stmts[0]!)) return null;
  const names: string[] = [];
  const ctes = new Set<string>();
  eachNode(stmts[0], (o) => {
    const rv = o['RangeVar'] as { schemaname?: string; relname?: string } | undefined;
    if (rv !== undefined) names.push(rv.schemaname === undefined ? (rv.relname ?? '') : `${rv.schemaname}.${rv.relname ?? ''}`);
    const cte = o['CommonTableExpr'] as { ctename?: string } | undefined;
    if (cte?.ctename !== undefined) ctes.add(cte.ctename);
  });
  return { names, ctes };
}

/** A SELECT reading only system catalog tables, prepared on the catalog's engine; else null. */
export function recogniseSystemQuery(sql: string): CatalogQuery | null {
  const e = engine;
  if (e === null) return null;
  // The catalog functions become subqueries over the catalog's tables, which are then read too.
  let rewritten: string | null;
  try {
    rewritten = rewriteCatalogFunctions(sql);
  } catch (e) {
    if (!(e instanceof RegCastSchemaError)) throw e;
    const error = { code: e.code, message: e.message, position: e.position };
    return { columns: [], error, answer: () => Promise.resolve({ ok: false, error }) };
  }
  if (rewritten === null) return null;
  const rels = relationsOf(rewritten);
  if (rels === null) return null;
  const system = rels.names.filter((n) => !rels.ctes.has(n));
  if (system.length === 0 || !system.every((n) => SYSTEM_NAMES.has(n))) return null;
  const p = e.prepare(rewritten);
  // Only the catalog has these tables: its error (a function it lacks, say), not the backend's "relation
  // pg_class does not exist". A position in the rewritten text would point elsewhere in the client's.
  if (!p.ok) {
    const { code, message, hint } = p.error;
    const error = { code, message, hint, position: rewritten === sql ? p.error.position : undefined };
    return { columns: [], error, answer: () => Promise.resolve({ ok: false, error }) };
  }
  const columns = p.info.columns.map((c) => ({ name: c.name, type: c.type, typmod: c.typmod }));
  const reads = new Set(system.map((n) => (n.includes('.') ? n : `pg_catalog.${n}`)));
  // Each names a relation, or the query fails as PostgreSQL's does while it parses (rows or not).
  const regclasses = regclassConstants(sql);
  return {
    columns,
    paramTypes: p.info.paramTypes,
    answer: async (ctx: CatalogContext, params: readonly SqlValue[]): Promise<BackendResult> => {
      const needed = SESSION_TABLES.filter((t) => reads.has(t.name));
      const none: RoleCatalog = { roles: [], members: [], bootstrap: [], schemaAcl: [], databaseAcl: null, schemaComment: null, databaseComment: null, defaultAcls: [] };
      const [tables, views, sequences, enums, roles] = needed.length > 0 ? await Promise.all([ctx.backend.tables(), ctx.backend.views(), ctx.backend.sequences(), ctx.backend.enums(), ctx.backend.roles()]) : [[], [], [], [], none];
      if (reads.has(PG_AUTHID.name) && !isSuperuserName(roles, ctx.settings.user)) return { ok: false, error: { code: '42501', message: 'permission denied for table pg_authid' } };
      // Synchronous from here: no other session's query sees this session's tables.
      if (needed.length > 0) {
        const rows = sessionRows(tables, views, sequences, enums, roles, ctx.settings);
        if (regclasses.length > 0) {
          const names = new Set((rows.get(PESTO_RELATION_NAME) ?? []).map((r) => r[0] as string));
          const missing = regclasses.map((c) => missingRelation(c, names, ctx.settings.database)).find((m) => m !== null);
          if (missing !== undefined) return { ok: false, error: missing };
        }
        for (const t of needed) fill(e, t, rows.get(t) ?? []);
      }
      const s = e.session({ user: ctx.settings.user, database: ctx.settings.database });
      const r = s.prepare('q', rewritten, p.info.paramTypes);
      if (!r.ok) return { ok: false, error: { code: r.error.code, message: r.error.message } };
      return resultOf(s.executePrepared('q', params));
    },
  };
}
