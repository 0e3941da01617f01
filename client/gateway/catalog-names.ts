// What regclass and regtype casts look up in the system catalog (catalog-functions.ts rewrites
// `x::regclass` into a lookup here): every spelling of a relation or type name that PostgreSQL's input
// functions accept for it, with its oid and the name their output functions print. Spellings: the oid
// in decimal; the name, quoted ("Users") and, where that reads the same, unquoted (users); schema-
// qualified, and for relations database-qualified too ("db"."public"."users"), as TypeORM builds them;
// for types also the SQL name (integer, character varying). A regclass string constant is looked up as
// regclassin reads it (catalog-functions.ts relationSpelling: 'USERS' and ' public . users' are users);
// other values and regtype names only in these spellings (a lookup of the value USERS finds none).
// A regclass constant naming no relation of public is PostgreSQL's 42P01 (missingRelation, checked when
// the query runs, as the session's relations are known then); a constant in pg_catalog,
// information_schema or pg_temp, or an unqualified one starting pg_, may name a relation of those this
// catalog does not list, so it gives NULL when none is found, as do to_regclass, regtype names and values.

import type { SqlValue } from '../../sql/types.ts';
import type { RegCastConstant } from './catalog-functions.ts';
import type { Table } from './catalog-constraints.ts';
import { identText } from './psql-describe.ts';

export const PESTO_RELATION_NAME: Table = { name: 'pg_catalog.pesto_relation_name', columns: 'spelling text, oid int4, display text' };
export const PESTO_TYPE_NAME: Table = { name: 'pg_catalog.pesto_type_name', columns: 'spelling text, oid int4, display text' };

/** The ways to write an identifier: quoted, and bare when that is the same name. */
function forms(name: string): string[] {
  const quoted = `"${name.replace(/"/g, '""')}"`;
  return identText(name) === name ? [name, quoted] : [quoted];
}

/** Each spelling of `name` under the schema (and database) prefixes: one row per spelling. */
export function spellings(oid: number, name: string, display: string, prefixes: readonly string[][]): SqlValue[][] {
  const rows: SqlValue[][] = [[String(oid), oid, display]];
  for (const n of forms(name)) {
    rows.push([n, oid, display]);
    for (const path of prefixes) {
      let heads = [''];
      for (const p of path) heads = heads.flatMap((h) => forms(p).map((f) => `${h}${f}.`));
      for (const h of heads) rows.push([`${h}${n}`, oid, display]);
    }
  }
  return rows;
}

/** A relation of the public schema (all are): regclass prints its name, quoted where needed. */
export function relationNameRows(oid: number, name: string, database: string): SqlValue[][] {
  return spellings(oid, name, identText(name), [['public'], [database, 'public']]);
}

/** A pg_catalog type: regtype prints its SQL name (format_type without a modifier). */
export function typeNameRows(oid: number, typname: string, display: string): SqlValue[][] {
  const rows = spellings(oid, typname, display, [['pg_catalog']]);
  if (display !== typname) rows.push([display, oid, display]);
  return rows;
}

/** PostgreSQL 15's oids of the system catalogs queries name by regclass (`'pg_catalog.pg_class'::regclass`, pg_depend's classid). */
const SYSTEM_RELATIONS: Readonly<Record<string, number>> = {
  pg_type: 1247, pg_attribute: 1249, pg_class: 1259, pg_database: 1262, pg_am: 2601, pg_attrdef: 2604, pg_constraint: 2606,
  pg_depend: 2608, pg_description: 2609, pg_index: 2610, pg_namespace: 2615, pg_sequence: 2224, pg_enum: 3501, pg_range: 3541,
};

/** The spellings of the system catalogs' names (regclass prints them bare: pg_catalog is on the search path). */
export const SYSTEM_RELATION_NAME_ROWS: readonly SqlValue[][] = Object.entries(SYSTEM_RELATIONS).flatMap(([name, oid]) => spellings(oid, name, name, [['pg_catalog']]));

/** An error of a regclass constant, as the gateway sends it. */
export interface RegclassError {
  readonly code: string;
  readonly message: string;
  readonly position: number;
}

/**
 * PostgreSQL's error for a `'name'::regclass` constant that names no relation, given the spellings
 * pesto_relation_name has (`spellings`) in `database`: 42P01 for a missing relation of public (what an
 * unqualified name finds after pg_catalog), 0A000 for another database, 42601 for more than three names;
 * null where it names one or where this catalog cannot tell (see the essay above).
 */
export function missingRelation(c: RegCastConstant, spellings: ReadonlySet<string>, database: string): RegclassError | null {
  const parts = c.parts;
  if (parts === null || (parts.length === 1 && /^\d+$/.test(parts[0]!))) return null;
  const fail = (code: string, message: string): RegclassError => ({ code, message, position: c.position });
  if (parts.length > 3) return fail('42601', `improper relation name (too many dotted names): ${parts.join('.')}`);
  if (parts.length === 3 && parts[0] !== database) return fail('0A000', `cross-database references are not implemented: "${parts.join('.')}"`);
  const [schema, name] = parts.length === 1 ? [null, parts[0]!] : [parts[parts.length - 2]!, parts[parts.length - 1]!];
  if (schema === null ? name.startsWith('pg_') : schema !== 'public') return null;
  const quoted = `"${name.replace(/"/g, '""')}"`;
  if (spellings.has(schema === null ? quoted : `"public".${quoted}`)) return null;
  return fail('42P01', `relation "${schema === null ? name : `public.${name}`}" does not exist`);
}
