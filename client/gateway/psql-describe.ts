// psql's describe commands (`\d`, `\dt`, `\di`, `\d table`, `\l`, `\dn`) answered from the catalog
// the session sees: psql 15 turns each into a few pg_catalog queries (describe.c: listTables,
// describeTableDetails, describeOneTableDetails, listAllDbs, listSchemas, describeRoles) that the engine,
// having no pg_catalog, cannot run. Each query psql sends for these commands is recognised by its shape
// and answered with the columns psql reads:
//
//   - the relation list (`\d`, `\dt`, `\di`, `\dti`, verbose `\dt+` and `\di+`, with an optional name
//     pattern): schema, name, type, owner, the indexed table for indexes, and for `+` persistence
//     (permanent), access method (heap, btree), size (unknown: empty) and description (COMMENT ON);
//   - the database list (`\l`): the database of the connection, UTF8, C collation;
//   - the schema list (`\dn`): public (PostgreSQL 15's owner, pg_database_owner); (the role list, `\du`,
//     is psql's own query over pg_roles and pg_auth_members: system-catalog.ts, catalog-roles.ts);
//   - the name lookup of `\d name`: oid, schema, name (oid = OID_BASE + the table's catalog id);
//   - the table's flags (its CHECK constraints' count; no rules, row security, partitions: psql asks no more);
//   - its columns: name, formatted type, default, NOT NULL (identity and generated empty);
//   - its indexes: the primary key, UNIQUE constraints and indexes, plain indexes, as pg_get_indexdef
//     and pg_get_constraintdef would print them;
//   - its CHECK constraints (asked for when relchecks > 0; that query runs on the system catalog);
//   - its foreign keys and those referencing it (asked for when relhastriggers is set, as PostgreSQL
//     sets it for a table with either), as pg_get_constraintdef prints them (foreignKeyDef, which
//     pg_constraint's rows share); triggers: none;
//   - policies, extended statistics, publications, inheritance and partitions: none.
//
// Views (`\dv`, `\d view`, `\d+ view` with its definition through pg_get_viewdef: system-catalog.ts) list
// and describe as PostgreSQL's do.
// Everything is in schema `public`, owned by the session's user. Tables, their indexes, views and
// sequences are listed; `\d index` is psql-describe-index.ts's; `\d sequence` reads the system catalog. Column defaults print constants and
// nextval(...) as PostgreSQL does, identity columns as psql prints them; other
// expressions print as `(expression)`. `\d+ table` adds each column's storage (the type's default) and
// description (COMMENT ON), no compression or statistics target, and the access method.

import type { Owned } from '../../sql/privileges.ts';
import { ownersOf, roleNames } from './catalog-roles.ts';
import { SqlEnum } from '../../sql/enum-types.ts';
import { SEQUENCE_OID } from './catalog-sequences.ts';
import { referencingKeys, type ForeignKeyDef, type IndexDef, type TableDef, type ViewDef } from '../../sql/catalog.ts';
import type { Expr } from '../../sql/expr.ts';
import { sequenceIdOf } from '../../sql/ddl-sequence.ts';
import type { SequenceDef } from '../../sql/sequences.ts';
import { viewDefinition } from '../../sql/views.ts';
import { formatText } from '../../sql/value-text.ts';
import { checkText } from '../../sql/check-text.ts';
import type { GeneratedDef } from '../../sql/generated-columns.ts';
import { formatTypeSpec, typeDisplayName, type SqlType, type SqlValue } from '../../sql/types.ts';
import type { BackendColumn, BackendResult } from './sql-backend.ts';
import type { CatalogContext, CatalogQuery } from './catalog-queries.ts';
import { indexDefinition } from '../../sql/index-keys.ts';
import { INDEX_FLAGS, indexRelations, indexWithOid, recognisePsqlIndexDescribe } from './psql-describe-index.ts';

/** The first oid PostgreSQL hands out to user objects; our relation oids are this plus the catalog id. */
export const OID_BASE = 16384;

const col = (name: string, type: SqlType = 'text'): BackendColumn => ({ name, type, typmod: -1 });

function rows(columns: readonly BackendColumn[], values: SqlValue[][]): BackendResult {
  return { ok: true, tag: `SELECT ${values.length}`, returnsRows: true, columns, rows: values, notices: [] };
}

/** `OPERATOR(pg_catalog.~) '^(pattern)$'` conditions psql writes for a name pattern, as a JS regex. */
function patternOf(where: string, column: string): RegExp | null {
  const m = new RegExp(String.raw`${column.replace('.', '\\.')} OPERATOR\(pg_catalog\.~\) '((?:[^']|'')*)'`).exec(where);
  if (m === null) return null;
  try {
    return new RegExp((m[1] as string).replace(/''/g, "'"));
  } catch {
    return /$^/; // a pattern JavaScript cannot read matches nothing
  }
}

/** Tables or views whose name (and schema `public`) match the patterns in `where`, by name. */
function matching<T extends { readonly name: string }>(tables: readonly T[], where: string): T[] {
  if (!nameTest(where, 'n.nspname')('public')) return [];
  const name = nameTest(where, 'c.relname');
  return tables.filter((t) => name(t.name)).sort(byName);
}

/** The pattern psql's WHERE puts on `column` (`OPERATOR(pg_catalog.~) ...`) as a test of a name; none passes all. */
function nameTest(where: string | undefined, column: string): (name: string) => boolean {
  const re = where === undefined ? null : patternOf(where, column);
  return re === null ? () => true : (name) => re.test(name);
}

function byName(a: { readonly name: string }, b: { readonly name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** The table psql names by its pg_class oid (as text), among `tables`. */
function tableWithOid(tables: readonly TableDef[], oid: string): TableDef | undefined {
  return tables.find((t) => OID_BASE + t.id === Number(oid));
}

function viewWithOid(views: readonly ViewDef[], oid: string): ViewDef | undefined {
  return views.find((v) => OID_BASE + v.id === Number(oid));
}

async function tableByOid(ctx: CatalogContext, oid: string): Promise<TableDef | undefined> {
  return tableWithOid(await ctx.backend.tables(), oid);
}

export const identText = (s: string): string => (/^[a-z_][a-z0-9_$]*$/.test(s) ? s : `"${s.replace(/"/g, '""')}"`);

export function columnList(t: TableDef, cols: readonly number[]): string {
  return cols.map((c) => identText(t.columns[c]?.name ?? '?')).join(', ');
}

/** Sequence names by id, for printing `nextval(...)`. */
/** How definitions name the session's objects (catalog-qualify.ts). */
export interface ObjectNames {
  /** Each sequence's name as regclass prints it: quoted where it needs to be, after `schema`. */
  readonly sequences: ReadonlyMap<number, string>;
  /** 'public.' where the search path leaves public out, else ''. */
  readonly schema: string;
}

export function objectNames(sequences: readonly SequenceDef[], schema = ''): ObjectNames {
  return { sequences: new Map(sequences.map((s) => [s.id, `${schema}${identText(s.name)}`])), schema };
}

/**
 * A column's default as PostgreSQL's pg_get_expr prints it (psql's `\d`, information_schema.columns);
 * an identity column has none there (its sequence is not a default in PostgreSQL).
 */
export function defaultText(t: TableDef, i: number, names: ObjectNames, pretty = false): string | null {
  const c = t.columns[i];
  if (c?.generated !== undefined) return generationText(t, c.generated, pretty);
  if (c === undefined || c.default === null || c.identity !== undefined) return null;
  return exprText(c.default, names);
}

/**
 * A stored generated column's expression as pg_get_expr prints it (pg_attrdef, pg_dump: `(a * 2)`;
 * pretty, psql's `\d`: `a * 2`), or `(expression)` for a form check-text.ts does not print.
 */
function generationText(t: TableDef, g: GeneratedDef, pretty: boolean): string {
  if (g.source === undefined) return '(expression)';
  return checkText(g.source, (j) => t.columns[j]?.name ?? '?', pretty);
}

function exprText(e: Expr, names: ObjectNames): string {
  if (e.k === 'cast' && !e.explicit) return exprText(e.e, names);
  // The sequence's name as regclass prints it.
  const seq = e.k === 'func' && e.fn === 'nextval' ? sequenceIdOf(e) : null;
  const name = seq === null ? undefined : names.sequences.get(seq);
  if (name !== undefined) return `nextval('${name.replace(/'/g, "''")}'::regclass)`;
  if (e.k === 'func' && e.args.length === 0) return `${e.fn}()`;
  // ARRAY[...] as PostgreSQL deparses it: a NULL element typed, an empty one cast to the array type.
  if (e.k === 'array') {
    if (e.items.length === 0) return `ARRAY[]::${typeDisplayName[e.t]}`;
    return `ARRAY[${e.items.map((x) => (x.k === 'const' && x.v === null ? `NULL::${typeDisplayName[x.t]}` : exprText(x, names))).join(', ')}]`;
  }
  if (e.k !== 'const') return '(expression)';
  if (e.v === null) return 'NULL';
  if (typeof e.v === 'boolean') return e.v ? 'true' : 'false';
  const text = formatText(e.v, e.t);
  if (e.t === 'int2' || e.t === 'int4' || e.t === 'int8' || e.t === 'numeric') return text;
  const type = e.v instanceof SqlEnum ? `${names.schema}${identText(e.v.type.name)}` : e.t === 'bpchar' ? 'bpchar' : typeDisplayName[e.t];
  return `'${text.replace(/'/g, "''")}'::${type}`;
}

export interface IndexRow {
  readonly name: string;
  readonly primary: boolean;
  readonly unique: boolean;
  readonly cols: readonly number[];
  /** 'p' primary key, 'u' unique constraint, null a plain or unique index. */
  readonly contype: 'p' | 'u' | null;
  /** The index (null: the primary key's). */
  readonly index: IndexDef | null;
}

/** pg_get_indexdef's text of an index row (sql/index-keys.ts; an expression it cannot print shows as `?`). */
export function indexRowDefinition(t: TableDef, i: IndexRow, pretty: boolean): string {
  const def = { name: i.name, unique: i.unique, columns: i.cols, ...(i.index?.exprs === undefined ? {} : { exprs: i.index.exprs }), ...(i.index?.predicate === undefined ? {} : { predicate: i.index.predicate }) };
  return indexDefinition(t, def, pretty) ?? `CREATE ${i.unique ? 'UNIQUE ' : ''}INDEX ${identText(i.name)} ON ${pretty ? '' : 'public.'}${identText(t.name)} USING btree (?)`;
}

export function indexRows(t: TableDef): IndexRow[] {
  const out: IndexRow[] = t.indexes.map((i: IndexDef) => ({ name: i.name, primary: false, unique: i.unique, cols: i.columns, contype: i.constraint ? 'u' : null, index: i }));
  out.sort(byName);
  if (!t.hiddenPk) out.unshift({ name: `${t.name}_pkey`, primary: true, unique: true, cols: t.pk, contype: 'p', index: null });
  return out;
}

/** `\dp` / `\z`: relations with their ACLs (column privileges and policies: none, Pesto has neither). */
const PRIVILEGES = /^\s*SELECT n\.nspname as "Schema",\s*c\.relname as "Name",\s*CASE c\.relkind [^\n]*END as "Type",\s*pg_catalog\.array_to_string\(c\.relacl, E'\\n'\) AS "Access privileges",[\s\S]*AS "Policies"\s+FROM pg_catalog\.pg_class c\s[\s\S]*?WHERE c\.relkind IN \(([^)]*)\)([\s\S]*)ORDER BY 1, 2;?\s*$/;
const LIST = /^\s*SELECT n\.nspname as "Schema",\s*c\.relname as "Name",\s*CASE c\.relkind [^\n]*END as "Type",\s*pg_catalog\.pg_get_userbyid\(c\.relowner\) as "Owner"((?:,\s*[^\n]* as "[^"]+")*)\s+FROM pg_catalog\.pg_class c\s[\s\S]*WHERE c\.relkind IN \(([^)]*)\)([\s\S]*)ORDER BY 1,2;?\s*$/;
/** The columns psql adds to the relation list (`\di`: the table; `+`: the verbose ones), each as it reads them. */
const LIST_EXTRA = new Set(['Table', 'Persistence', 'Access method', 'Size', 'Description']);
const DATABASES = /^\s*SELECT d\.datname as "Name",\s*pg_catalog\.pg_get_userbyid\(d\.datdba\) as "Owner",\s*pg_catalog\.pg_encoding_to_char\(d\.encoding\) as "Encoding",\s*d\.datcollate as "Collate",\s*d\.datctype as "Ctype",\s*d\.daticulocale as "ICU Locale",\s*CASE d\.datlocprovider [^\n]* END AS "Locale Provider",\s*pg_catalog\.array_to_string\(d\.datacl, E'\\n'\) AS "Access privileges"(,\s*CASE WHEN pg_catalog\.has_database_privilege\(d\.datname, 'CONNECT'\)\s*THEN pg_catalog\.pg_size_pretty\(pg_catalog\.pg_database_size\(d\.datname\)\)\s*ELSE 'No Access'\s*END as "Size",\s*t\.spcname as "Tablespace",\s*pg_catalog\.shobj_description\(d\.oid, 'pg_database'\) as "Description")?\s+FROM pg_catalog\.pg_database d\s+(?:JOIN pg_catalog\.pg_tablespace t on d\.dattablespace = t\.oid\s+)?(?:WHERE ([\s\S]*))?ORDER BY 1;?\s*$/;
const SCHEMAS = /^\s*SELECT n\.nspname AS "Name",\s*pg_catalog\.pg_get_userbyid\(n\.nspowner\) AS "Owner"\s+FROM pg_catalog\.pg_namespace n\s+WHERE ([\s\S]*)ORDER BY 1;?\s*$/;
const LOOKUP = /^\s*SELECT c\.oid,\s*n\.nspname,\s*c\.relname\s+FROM pg_catalog\.pg_class c\s+LEFT JOIN pg_catalog\.pg_namespace n ON n\.oid = c\.relnamespace\s+WHERE ([\s\S]*)ORDER BY 2, 3;?\s*$/;
// `\d+` asks for the reloptions (none here) where `\d` selects '', and for four more columns per attribute.
const FLAGS = /^\s*SELECT c\.relchecks, c\.relkind, c\.relhasindex, c\.relhasrules, c\.relhastriggers, c\.relrowsecurity, c\.relforcerowsecurity, false AS relhasoids, c\.relispartition, (?:''|pg_catalog\.array_to_string\(c\.reloptions [\s\S]*?\))\s*, c\.reltablespace, [\s\S]*, c\.relpersistence, c\.relreplident, am\.amname\s+FROM pg_catalog\.pg_class c\s[\s\S]*WHERE c\.oid = '(\d+)';?\s*$/;
// A view's `\d+` asks for storage and description only.
const ATTRS = /^\s*SELECT a\.attname,\s*pg_catalog\.format_type\(a\.atttypid, a\.atttypmod\),[\s\S]*a\.attnotnull,[\s\S]*a\.attidentity,\s*a\.attgenerated(,\s*a\.attstorage(,\s*a\.attcompression AS attcompression,\s*CASE WHEN a\.attstattarget=-1 THEN NULL ELSE a\.attstattarget END AS attstattarget)?,\s*pg_catalog\.col_description\(a\.attrelid, a\.attnum\))?\s+FROM pg_catalog\.pg_attribute a\s+WHERE a\.attrelid = '(\d+)' AND a\.attnum > 0 AND NOT a\.attisdropped\s+ORDER BY a\.attnum;?\s*$/;
const INDEXES = /^\s*SELECT c2\.relname, i\.indisprimary, i\.indisunique, i\.indisclustered, i\.indisvalid, pg_catalog\.pg_get_indexdef\(i\.indexrelid, 0, true\),\s*pg_catalog\.pg_get_constraintdef\(con\.oid, true\), contype, condeferrable, condeferred, i\.indisreplident, c2\.reltablespace\s+FROM [\s\S]*WHERE c\.oid = '(\d+)' AND c\.oid = i\.indrelid AND i\.indexrelid = c2\.oid\s+ORDER BY i\.indisprimary DESC, c2\.relname;?\s*$/;

/** pg_attribute.attstorage of each type's default: plain for fixed-size types, main for numeric, extended for text. */
export function storageOf(t: SqlType): string {
  return t === 'numeric' ? 'm' : t === 'text' || t === 'varchar' || t === 'bpchar' || t === 'unknown' ? 'x' : 'p';
}

/** `\d+ view`'s definition (psql casts the oid to pg_catalog.oid, a type the engine has not). */
const VIEWDEF = /^\s*SELECT pg_catalog\.pg_get_viewdef\('(\d+)'::pg_catalog\.oid, true\);?\s*$/;
const FOREIGN_KEYS = /^\s*SELECT true as sametable, conname,\s*pg_catalog\.pg_get_constraintdef\(r\.oid, true\) as condef,\s*conrelid::pg_catalog\.regclass AS ontable\s+FROM pg_catalog\.pg_constraint r\s+WHERE r\.conrelid = '(\d+)' AND r\.contype = 'f'[\s\S]*ORDER BY conname;?\s*$/;
const REFERENCED_BY = /^\s*SELECT conname, conrelid::pg_catalog\.regclass AS ontable,\s*pg_catalog\.pg_get_constraintdef\(oid, true\) AS condef\s+FROM pg_catalog\.pg_constraint c\s+WHERE confrelid IN \(SELECT pg_catalog\.pg_partition_ancestors\('(\d+)'\)[\s\S]*ORDER BY conname;?\s*$/;

/** A foreign key as pg_get_constraintdef prints it. */
export function foreignKeyDef(t: TableDef, fk: ForeignKeyDef, parent: TableDef | undefined, schema = ''): string {
  const refCols = parent === undefined ? '' : columnList(parent, fk.refColumns);
  let def = `FOREIGN KEY (${columnList(t, fk.columns)}) REFERENCES ${schema}${identText(fk.refTable)}(${refCols})`;
  if (fk.matchFull) def += ' MATCH FULL';
  if (fk.onUpdate !== 'no action') def += ` ON UPDATE ${fk.onUpdate.toUpperCase()}`;
  if (fk.onDelete !== 'no action') def += ` ON DELETE ${fk.onDelete.toUpperCase()}`;
  if (fk.deferrable === true) def += fk.initiallyDeferred === true ? ' DEFERRABLE INITIALLY DEFERRED' : ' DEFERRABLE';
  return def;
}

/** Queries of `\d table` that have no rows here, by a distinctive part and their column count. */
const EMPTY: readonly { readonly re: RegExp; readonly width: number }[] = [
  // A view's rules besides its _RETURN rule (`\d+ view`): Pesto has no rules.
  { re: /^\s*SELECT r\.rulename, trim\(trailing ';' from pg_catalog\.pg_get_ruledef\(r\.oid, true\)\)\s+FROM pg_catalog\.pg_rewrite r\s+WHERE r\.ev_class = '\d+' AND r\.rulename != '_RETURN' ORDER BY 1;?\s*$/, width: 2 },
  { re: /^\s*SELECT pol\.polname, pol\.polpermissive,[\s\S]*FROM pg_catalog\.pg_policy pol\s+WHERE pol\.polrelid = '\d+' ORDER BY 1;?\s*$/, width: 6 },
  { re: /^\s*SELECT oid, stxrelid::pg_catalog\.regclass,[\s\S]*FROM pg_catalog\.pg_statistic_ext\s+WHERE stxrelid = '\d+'\s+ORDER BY nsp, stxname;?\s*$/, width: 9 },
  { re: /^\s*SELECT pubname\s*, NULL\s*, NULL\s+FROM pg_catalog\.pg_publication p\s[\s\S]*pg_catalog\.pg_relation_is_publishable\('\d+'\)\s+ORDER BY 1;?\s*$/, width: 3 },
  { re: /^\s*SELECT t\.tgname, pg_catalog\.pg_get_triggerdef\(t\.oid, true\), t\.tgenabled, t\.tgisinternal,[\s\S]*FROM pg_catalog\.pg_trigger t\s+WHERE t\.tgrelid = '\d+'[\s\S]*ORDER BY 1;?\s*$/, width: 5 },
  { re: /^\s*SELECT c\.oid::pg_catalog\.regclass\s+FROM pg_catalog\.pg_class c, pg_catalog\.pg_inherits i\s+WHERE c\.oid = i\.inhparent AND i\.inhrelid = '\d+'[\s\S]*ORDER BY inhseqno;?\s*$/, width: 1 },
  { re: /^\s*SELECT c\.oid::pg_catalog\.regclass, c\.relkind, inhdetachpending, pg_catalog\.pg_get_expr\(c\.relpartbound, c\.oid\)\s+FROM pg_catalog\.pg_class c, pg_catalog\.pg_inherits i\s+WHERE c\.oid = i\.inhrelid AND i\.inhparent = '\d+'[\s\S]*;?\s*$/, width: 4 },
];

/** One line of the relation list: a table, an index with its table, a view or a sequence. */
interface Relation {
  readonly name: string;
  /** The table, materialized view or indexed relation; null for a view or a sequence. */
  readonly table: TableDef | null;
  readonly type: 'table' | 'index' | 'view' | 'materialized view' | 'sequence';
  /** What carries its owner (an index: its table). */
  readonly owned: Owned;
  /** COMMENT ON; null: none. */
  readonly comment: string | null;
}

/** The relation list's value of an extra column (LIST_EXTRA) for one relation. */
function extraValue(name: string, r: Relation): SqlValue {
  switch (name) {
    case 'Table':
      return r.type === 'index' ? r.table?.name ?? null : null;
    case 'Persistence':
      return 'permanent';
    case 'Access method':
      return r.type === 'index' ? 'btree' : r.type === 'table' || r.type === 'materialized view' ? 'heap' : null;
    case 'Description':
      return r.comment;
    default:
      return null; // Size (not tracked)
  }
}

export function recognisePsqlDescribe(sql: string): CatalogQuery | null {
  const index = recognisePsqlIndexDescribe(sql);
  if (index !== null) return index;
  let m = LIST.exec(sql);
  if (m !== null) {
    const extras = [...(m[1] as string).matchAll(/ as "([^"]+)"/g)].map((x) => x[1] as string);
    if (!extras.every((e) => LIST_EXTRA.has(e))) return null;
    const kinds = (m[2] as string).split(',').map((k) => k.trim().replace(/'/g, ''));
    const where = m[3] as string;
    const columns = [col('Schema'), col('Name'), col('Type'), col('Owner'), ...extras.map((e) => col(e))];
    return {
      columns,
      answer: async (ctx) => {
        const owners = ownersOf(await ctx.backend.roles());
        const tables = await ctx.backend.tables();
        const found: Relation[] = [];
        for (const t of matching(tables, where)) {
          const type = t.matview === undefined ? 'table' : 'materialized view';
          if (kinds.includes(type === 'table' ? 'r' : 'm')) found.push({ name: t.name, table: t, type, owned: t, comment: t.comment ?? null });
        }
        if (kinds.includes('v')) for (const v of matching(await ctx.backend.views(), where)) found.push({ name: v.name, table: null, type: 'view', owned: v, comment: v.comment ?? null });
        if ((kinds.includes('i') || kinds.includes('S')) && nameTest(where, 'n.nspname')('public')) {
          const name = nameTest(where, 'c.relname');
          for (const t of kinds.includes('i') ? tables : []) {
            for (const i of indexRows(t)) if (name(i.name)) found.push({ name: i.name, table: t, type: 'index', owned: t, comment: (i.primary ? t.pkIndexComment : i.index?.comment) ?? null });
          }
          if (kinds.includes('S')) for (const s of await ctx.backend.sequences()) if (name(s.name)) found.push({ name: s.name, table: null, type: 'sequence', owned: s, comment: s.comment ?? null });
        }
        found.sort(byName);
        return rows(columns, found.map((r) => ['public', r.name, r.type, owners.name(r.owned), ...extras.map((e) => extraValue(e, r))]));
      },
    };
  }
  m = PRIVILEGES.exec(sql);
  if (m !== null) {
    const kinds = (m[1] as string).split(',').map((k) => k.trim().replace(/'/g, ''));
    const where = m[2] as string;
    const columns = ['Schema', 'Name', 'Type', 'Access privileges', 'Column privileges', 'Policies'].map((c) => col(c));
    return {
      columns,
      answer: async (ctx) => {
        const owners = ownersOf(await ctx.backend.roles());
        const found: { name: string; type: string; owned: Owned }[] = [];
        for (const t of matching(await ctx.backend.tables(), where)) {
          const type = t.matview === undefined ? 'table' : 'materialized view';
          if (kinds.includes(type === 'table' ? 'r' : 'm')) found.push({ name: t.name, type, owned: t });
        }
        if (kinds.includes('v')) for (const v of matching(await ctx.backend.views(), where)) found.push({ name: v.name, type: 'view', owned: v });
        if (kinds.includes('S')) for (const s of matching(await ctx.backend.sequences(), where)) found.push({ name: s.name, type: 'sequence', owned: s });
        found.sort(byName);
        return rows(columns, found.map((r) => ['public', r.name, r.type, owners.acl(r.owned)?.items.join('\n') ?? null, '', '']));
      },
    };
  }
  m = DATABASES.exec(sql);
  if (m !== null) {
    // `\l+` adds the size (not tracked, as in `\dt+`), the tablespace and the comment (COMMENT ON DATABASE).
    const verbose = m[1] !== undefined;
    const where = m[2];
    const columns = ['Name', 'Owner', 'Encoding', 'Collate', 'Ctype', 'ICU Locale', 'Locale Provider', 'Access privileges', ...(verbose ? ['Size', 'Tablespace', 'Description'] : [])].map((c) => col(c));
    return {
      columns,
      answer: async (ctx) => {
        const name = ctx.settings.database;
        // The database owner is the first bootstrap superuser (oid 10); its ACL is sql/schema-privileges.ts's.
        const roles = await ctx.backend.roles();
        const owner = roleNames(roles)(10) ?? ctx.settings.get('session_authorization') ?? '';
        const acl = roles.databaseAcl === null ? null : ownersOf(roles).aclOf(roles.databaseAcl).items.join('\n');
        const row: SqlValue[] = [name, owner, 'UTF8', 'C', 'C', null, 'libc', acl, ...(verbose ? [null, 'pg_default', roles.databaseComment] : [])];
        return rows(columns, nameTest(where, 'd.datname')(name) ? [row] : []);
      },
    };
  }
  m = SCHEMAS.exec(sql);
  if (m !== null) {
    const where = m[1] as string;
    const columns = [col('Name'), col('Owner')];
    return {
      columns,
      // PostgreSQL 15's public schema belongs to the role of the database's owner.
      answer: () => Promise.resolve(rows(columns, nameTest(where, 'n.nspname')('public') ? [['public', 'pg_database_owner']] : [])),
    };
  }
  m = LOOKUP.exec(sql);
  if (m !== null) {
    const where = m[1] as string;
    const columns = [col('oid', 'int8'), col('nspname'), col('relname')];
    return {
      columns,
      answer: async (ctx) => {
        const [tables, views, sequences] = await Promise.all([ctx.backend.tables(), ctx.backend.views(), ctx.backend.sequences()]);
        const found = [...matching(tables, where), ...matching(views, where)].map((t) => ({ name: t.name, oid: OID_BASE + t.id }));
        for (const s of matching(sequences, where)) found.push({ name: s.name, oid: SEQUENCE_OID + s.id });
        for (const i of matching(indexRelations(tables), where)) found.push({ name: i.name, oid: i.oid });
        return rows(columns, found.sort(byName).map((r) => [r.oid, 'public', r.name]));
      },
    };
  }
  m = FLAGS.exec(sql);
  if (m !== null) {
    const oid = m[1] as string;
    const columns = [
      col('relchecks', 'int2'), col('relkind'), col('relhasindex', 'bool'), col('relhasrules', 'bool'), col('relhastriggers', 'bool'),
      col('relrowsecurity', 'bool'), col('relforcerowsecurity', 'bool'), col('relhasoids', 'bool'), col('relispartition', 'bool'),
      col('?column?'), col('reltablespace', 'int8'), col('reloftype'), col('relpersistence'), col('relreplident'), col('amname'),
    ];
    return {
      columns,
      answer: async (ctx) => {
        const tables = await ctx.backend.tables();
        const t = tableWithOid(tables, oid);
        if (t === undefined) {
          // A view has rules (its _RETURN rule, which psql does not list) and no access method.
          const v = viewWithOid(await ctx.backend.views(), oid);
          if (v !== undefined) return rows(columns, [[0, 'v', false, true, false, false, false, false, false, '', 0, '', 'p', 'n', null]]);
          if (indexWithOid(tables, oid) !== undefined) return rows(columns, [[...INDEX_FLAGS]]);
          // A sequence: psql then reads pg_sequence and pg_depend (catalog-sequences.ts) through the system catalog.
          const s = (await ctx.backend.sequences()).find((x) => SEQUENCE_OID + x.id === Number(oid));
          return rows(columns, s === undefined ? [] : [[0, 'S', false, false, false, false, false, false, false, '', 0, '', 'p', 'n', null]]);
        }
        // Foreign keys are triggers in PostgreSQL: psql asks for them (and for triggers) only when the table has some.
        const triggers = (t.foreignKeys ?? []).length > 0 || referencingKeys(tables, t.name).length > 0;
        // A materialized view has its _RETURN rule, as a view has.
        const matview = t.matview !== undefined;
        return rows(columns, [[t.checks?.length ?? 0, matview ? 'm' : 'r', indexRows(t).length > 0, matview, triggers, false, false, false, false, '', 0, '', t.temporary === true ? 't' : 'p', 'd', 'heap']]);
      },
    };
  }
  m = ATTRS.exec(sql);
  if (m !== null) {
    const verbose = m[1] !== undefined;
    const ofTable = m[2] !== undefined;
    const oid = m[3] as string;
    const columns = [
      col('attname'), col('format_type'), col('pg_get_expr'), col('attnotnull', 'bool'), col('attcollation'), col('attidentity'), col('attgenerated'),
      ...(verbose ? [col('attstorage'), ...(ofTable ? [col('attcompression'), col('attstattarget', 'int2')] : []), col('col_description')] : []),
    ];
    const more = (t: SqlType, description: string | null): SqlValue[] => (verbose ? [storageOf(t), ...(ofTable ? ['', null] : []), description] : []);
    return {
      columns,
      answer: async (ctx) => {
        const t = await tableByOid(ctx, oid);
        if (t === undefined) {
          const v = viewWithOid(await ctx.backend.views(), oid);
          return rows(columns, (v?.columns ?? []).map((c) => [c.name, formatTypeSpec(c), null, false, null, '', '', ...more(c.type, c.comment ?? null)]));
        }
        const sequences = objectNames(await ctx.backend.sequences());
        const out: SqlValue[][] = [];
        t.columns.forEach((c, i) => {
          if (!c.hidden) out.push([c.name, c.enumType !== undefined ? identText(c.enumType.name) + (c.type === '_enum' ? '[]' : '') : formatTypeSpec(c), defaultText(t, i, sequences, true), c.notNull, null, c.identity ?? '', c.generated !== undefined ? 's' : '', ...more(c.type, c.comment ?? null)]);
        });
        return rows(columns, out);
      },
    };
  }
  m = INDEXES.exec(sql);
  if (m !== null) {
    const oid = m[1] as string;
    const columns = [
      col('relname'), col('indisprimary', 'bool'), col('indisunique', 'bool'), col('indisclustered', 'bool'), col('indisvalid', 'bool'),
      col('pg_get_indexdef'), col('pg_get_constraintdef'), col('contype'), col('condeferrable', 'bool'), col('condeferred', 'bool'),
      col('indisreplident', 'bool'), col('reltablespace', 'int8'),
    ];
    return {
      columns,
      answer: async (ctx) => {
        const t = await tableByOid(ctx, oid);
        if (t === undefined) return rows(columns, []);
        return rows(columns, indexRows(t).map((i) => {
          const list = columnList(t, i.cols);
          const def = indexRowDefinition(t, i, true);
          const constraint = i.contype === 'p' ? `PRIMARY KEY (${list})` : i.contype === 'u' ? `UNIQUE (${list})` : null;
          return [i.name, i.primary, i.unique, false, true, def, constraint, i.contype, i.contype === null ? null : false, i.contype === null ? null : false, false, 0];
        }));
      },
    };
  }
  m = VIEWDEF.exec(sql);
  if (m !== null) {
    const oid = m[1] as string;
    const columns = [col('pg_get_viewdef')];
    return {
      columns,
      answer: async (ctx) => {
        const v = viewWithOid(await ctx.backend.views(), oid) ?? (await tableByOid(ctx, oid))?.matview;
        return rows(columns, v === undefined ? [] : [[viewDefinition(v)]]);
      },
    };
  }
  m = FOREIGN_KEYS.exec(sql) ?? REFERENCED_BY.exec(sql);
  if (m !== null) {
    const oid = m[1] as string;
    const own = FOREIGN_KEYS.test(sql);
    const columns = own ? [col('sametable', 'bool'), col('conname'), col('condef'), col('ontable')] : [col('conname'), col('ontable'), col('condef')];
    return {
      columns,
      answer: async (ctx) => {
        const tables = await ctx.backend.tables();
        const t = tableWithOid(tables, oid);
        if (t === undefined) return rows(columns, []);
        const fks = own ? (t.foreignKeys ?? []).map((fk) => ({ table: t, fk })) : referencingKeys(tables, t.name);
        fks.sort((a, b) => (a.fk.name < b.fk.name ? -1 : a.fk.name > b.fk.name ? 1 : 0));
        return rows(columns, fks.map(({ table, fk }) => {
          const def = foreignKeyDef(table, fk, tables.find((x) => x.name === fk.refTable));
          return own ? [true, fk.name, def, identText(table.name)] : [fk.name, identText(table.name), def];
        }));
      },
    };
  }
  for (const e of EMPTY) {
    if (!e.re.test(sql)) continue;
    const columns = Array.from({ length: e.width }, (_, i) => col(`column${i + 1}`));
    return { columns, answer: () => Promise.resolve(rows(columns, [])) };
  }
  return null;
}
