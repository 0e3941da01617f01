// What regclass and regtype casts look up in the system catalog (catalog-functions.ts rewrites
// `x::regclass` into a lookup here): every spelling of a relation or type name that PostgreSQL's input
// functions accept for it, with its oid and the name their output functions print. Spellings: the oid
// in decimal; the name, quoted ("Users") and, where that reads the same, unquoted (users); schema-
// qualified, and for relations database-qualified too ("db"."public"."users"), as TypeORM builds them;
// for types also the SQL name (integer, character varying). Not accepted: spellings that differ in case
// or spacing from these (users and USERS are one relation to PostgreSQL, a lookup of USERS finds none).
// A name that matches nothing gives NULL where PostgreSQL raises 42P01 or 42704.

import type { SqlValue } from '../../sql/types.ts';
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
