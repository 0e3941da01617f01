// The system catalog's tables about keys, indexes and defaults (pg_index, pg_constraint, pg_attrdef,
// pg_description, pg_statio_all_tables, pg_am) and the definitions the catalog functions print
// (catalog-functions.ts), filled from the session's tables like the rest of system-catalog.ts.
//
// Object ids: an index's is psql-describe.ts's (OID_BASE + id; a primary key's index PKEY_OID + its
// table's id); a constraint has its own, as in PostgreSQL (CONSTRAINT_OID + the id of the index it
// owns or its table's, CHECK_OID for CHECKs, FOREIGN_KEY_OID for FOREIGN KEYs), and so has a column
// default (ATTRDEF_OID).
// Columns are PostgreSQL 15's, in its order, with some left out where the engine has no type for them:
// pg_constraint's operator arrays (conpfeqop, conppeqop, conffeqop: oid[]), confdelsetcols and
// conexclop; a query naming them fails with 42703. pg_constraint.conkey and confkey are int2[] (the columns' attnums: a key's, a
// CHECK's columns in order of appearance, a FOREIGN KEY's and its referenced ones in key order), as ORMs join
// them with pg_attribute (`a.attnum = ANY(con.conkey)`).
// pg_index's indkey and indoption are int2vector, indcollation and indclass oidvector, as PostgreSQL's
// (the columns' attnums; the key columns' collations and default btree operator classes; every option
// 0, ascending with NULLs last, the only order Pesto's indexes have). pg_node_tree columns (pg_attrdef.adbin,
// pg_index.indpred, pg_constraint.conbin) hold the expression's SQL text, which pg_get_expr returns.
// pg_get_constraintdef's text (pesto_definition): PRIMARY KEY (...), UNIQUE (...), a CHECK's as
// sql/check-text.ts prints it (pretty or not, as asked; NULL for a form it does not cover; conbin holds
// the plain text), a FOREIGN KEY's as psql-describe.ts prints it for `\d`.
// pg_description holds the comments (COMMENT ON: sql/comments.ts) of tables, views, materialized views,
// their columns, indexes and sequences (classoid pg_class), constraints (pg_constraint), enum types (pg_type)
// and schema public (pg_namespace; system-catalog.ts).

import type { CheckDef, ForeignKeyAction, TableDef, ViewDef } from '../../sql/catalog.ts';
import type { SequenceDef } from '../../sql/sequences.ts';
import type { EnumTypeDef } from '../../sql/enum-types.ts';
import { someExpr } from '../../sql/expr.ts';
import { uniqueKeyOf } from '../../sql/foreign-keys.ts';
import { SqlArray } from '../../sql/sql-array.ts';
import { checkText } from '../../sql/check-text.ts';
import { sequenceIdOf } from '../../sql/ddl-sequence.ts';
import { PG_DEPEND, SEQUENCE_OID } from './catalog-sequences.ts';
import { arrayElementType, isArrayType, type SqlType, type SqlValue } from '../../sql/types.ts';
import { OID_BASE, columnList, defaultText, foreignKeyDef, identText, indexRowDefinition, indexRows, type ObjectNames } from './psql-describe.ts';

export interface Table {
  readonly name: string;
  readonly columns: string;
  /** The catalog's own oid, when queries read its `tableoid` (catalog-dump.ts): a last column, filled with it. */
  readonly oid?: number;
}

export const PKEY_OID = 0x40000000;
const CONSTRAINT_OID = 0x50000000;
const CHECK_OID = 0x58000000;
const ATTRDEF_OID = 0x60000000;
const FOREIGN_KEY_OID = 0x68000000;
const OIDS = 1 << 27;
const PUBLIC = 2200;

export const PG_INDEX: Table = {
  name: 'pg_catalog.pg_index',
  columns: `indexrelid int4, indrelid int4, indnatts int2, indnkeyatts int2, indisunique bool, indnullsnotdistinct bool, indisprimary bool,
    indisexclusion bool, indimmediate bool, indisclustered bool, indisvalid bool, indcheckxmin bool, indisready bool, indislive bool,
    indisreplident bool, indkey int2vector, indcollation oidvector, indclass oidvector, indoption int2vector, indexprs text, indpred text`,
};
export const PG_CONSTRAINT: Table = {
  name: 'pg_catalog.pg_constraint',
  columns: `oid int4, conname name, connamespace int4, contype text, condeferrable bool, condeferred bool, convalidated bool, conrelid int4,
    contypid int4, conindid int4, conparentid int4, confrelid int4, confupdtype text, confdeltype text, confmatchtype text, conislocal bool,
    coninhcount int4, connoinherit bool, conkey int2[], confkey int2[], conbin text`,
  oid: 2606,
};
export const PG_ATTRDEF: Table = { name: 'pg_catalog.pg_attrdef', columns: 'oid int4, adrelid int4, adnum int2, adbin text', oid: 2604 };
export const PG_DESCRIPTION: Table = { name: 'pg_catalog.pg_description', columns: 'objoid int4, classoid int4, objsubid int4, description text' };
/** Without the block counters (Pesto keeps none). */
export const PG_STATIO_ALL_TABLES: Table = { name: 'pg_catalog.pg_statio_all_tables', columns: 'relid int4, schemaname name, relname name' };
export const PG_AM: Table = { name: 'pg_catalog.pg_am', columns: 'oid int4, amname name, amhandler text, amtype text', oid: 2601 };
/**
 * pg_get_indexdef's, pg_get_constraintdef's and pg_get_viewdef's text by object id (catalog-functions.ts
 * reads it), and where pretty mode prints otherwise (a CHECK), its pretty text (else NULL). The id
 * column is not named oid, so that an unqualified `oid` in a call's argument names the caller's.
 */
export const PESTO_DEFINITION: Table = { name: 'pg_catalog.pesto_definition', columns: 'objid int4, definition text, pretty text' };

export const CONSTRAINT_TABLES = [PG_INDEX, PG_CONSTRAINT, PG_ATTRDEF, PG_DESCRIPTION, PG_STATIO_ALL_TABLES, PESTO_DEFINITION];

/** The collations columns name (pg_attribute.attcollation: system-catalog.ts collationOf), as PostgreSQL 15 lists them. */
export const PG_COLLATION: Table = {
  name: 'pg_catalog.pg_collation',
  columns: 'oid int4, collname name, collnamespace int4, collowner int4, collprovider text, collisdeterministic bool, collencoding int4, collcollate text, collctype text',
  oid: 3456,
};
export const COLLATION_ROWS: SqlValue[][] = [
  [100, 'default', 11, 10, 'd', true, -1, null, null], [950, 'C', 11, 10, 'c', true, -1, 'C', 'C'], [951, 'POSIX', 11, 10, 'c', true, -1, 'POSIX', 'POSIX'],
];

/** PostgreSQL 15's access methods. */
export const AM_ROWS: SqlValue[][] = [
  [2, 'heap', 'heap_tableam_handler', 't'], [403, 'btree', 'bthandler', 'i'], [405, 'hash', 'hashhandler', 'i'], [783, 'gist', 'gisthandler', 'i'],
  [2742, 'gin', 'ginhandler', 'i'], [4000, 'spgist', 'spghandler', 'i'], [3580, 'brin', 'brinhandler', 'i'],
];

/** pg_attribute's attnum of each column ordinal: dropped columns count, the hidden row id does not. */
function attnums(t: TableDef): Map<number, number> {
  const attnum = new Map<number, number>();
  t.columns.forEach((c, i) => {
    if (!c.hidden || c.dropped === true) attnum.set(i, attnum.size + 1);
  });
  return attnum;
}

const COLLATABLE = new Set<string>(['text', 'varchar', 'bpchar', 'name']);
/** A collatable type's collation: "default" (100), name's "C" (950); 0 for other types. */
export const collationOf = (t: SqlType): number => {
  const e = isArrayType(t) ? arrayElementType(t) : t;
  return e === 'name' ? 950 : COLLATABLE.has(e) ? 100 : 0;
};

/** PostgreSQL 15's default btree operator class of each type (pg_opclass: arrays' is array_ops). */
const BTREE_OPCLASS: Partial<Record<SqlType, number>> = {
  bool: 10003, bytea: 10006, name: 10028, int8: 3124, int2: 1979, int4: 1978, text: 3126, varchar: 3126, oidvector: 10032, float4: 10012,
  float8: 3123, bpchar: 10004, date: 3122, timestamp: 3128, timestamptz: 3127, interval: 10022, numeric: 3125, uuid: 10065, jsonb: 10088,
};
const opclassOf = (t: SqlType): number => (isArrayType(t) ? 10000 : BTREE_OPCLASS[t] ?? 0);

/** A vector (int2vector, or oidvector of int4 elements) of `values`, subscripted from 0 as PostgreSQL's. */
const vector = (elementType: 'int2' | 'int4', values: readonly number[]): SqlArray => new SqlArray(elementType, values, 0);

/** An int2[] of the attnums of columns `cols` (pg_constraint.conkey, confkey). */
const keyArray = (attnum: ReadonlyMap<number, number>, cols: readonly number[]): SqlArray => new SqlArray('int2', cols.map((c) => attnum.get(c) ?? 0));

/** pg_constraint's letters of a referential action (confupdtype, confdeltype). */
const ACTION: Readonly<Record<ForeignKeyAction, string>> = { 'no action': 'a', restrict: 'r', cascade: 'c', 'set null': 'n', 'set default': 'd' };

/** pg_get_constraintdef of a CHECK, pretty or not (null: a form sql/check-text.ts does not print). */
export function checkDefinition(t: TableDef, k: CheckDef, pretty: boolean): string | null {
  if (k.source === undefined) return null;
  return `CHECK (${checkText(k.source, (i) => t.columns[i]?.name ?? '?', pretty)})${k.notValid === true ? ' NOT VALID' : ''}`;
}

/** The object id of a table's index named `name` (its primary key's or one in t.indexes). */
function indexOid(t: TableDef, name: string): number {
  const i = t.indexes.find((x) => x.name === name);
  return i === undefined ? PKEY_OID + t.id : OID_BASE + i.id;
}

/** One table's rows of the tables above. */
export function constraintTableRows(t: TableDef, tables: readonly TableDef[], names: ObjectNames, push: (table: Table, row: SqlValue[]) => void): void {
  const relid = OID_BASE + t.id;
  push(PG_STATIO_ALL_TABLES, [relid, 'public', t.name]);
  // Comments (COMMENT ON): the table's with objsubid 0, a column's with its attnum; classoid is pg_class's.
  if (t.comment !== undefined) push(PG_DESCRIPTION, [relid, 1259, 0, t.comment]);
  const attnum = attnums(t);
  for (const i of indexRows(t)) {
    const oid = indexOid(t, i.name);
    const list = columnList(t, i.cols);
    // An expression key's type is its expression's (indkey 0); indexprs and indpred hold their text (pg_get_expr's).
    const types = i.cols.map((c, j) => i.index?.types[j] ?? t.columns[c]!.type);
    const exprs = (i.index?.exprs ?? []).filter((x) => x !== null).map((x) => (x.source === null ? '?' : checkText(x.source, (n) => t.columns[n]?.name ?? '?', false)));
    const pred = i.index?.predicate;
    const predText = pred === undefined ? null : pred.source === null ? '?' : checkText(pred.source, (n) => t.columns[n]?.name ?? '?', false);
    const exprList = exprs.length === 0 ? null : exprs.join(', ');
    push(PG_INDEX, [oid, relid, i.cols.length, i.cols.length, i.unique, false, i.primary, false, true, false, true, false, true, true, false,
      vector('int2', i.cols.map((c) => attnum.get(c) ?? 0)), vector('int4', types.map(collationOf)),
      vector('int4', types.map(opclassOf)), vector('int2', i.cols.map(() => 0)), exprList, predText]);
    push(PESTO_DEFINITION, [oid, indexRowDefinition(t, i, false), indexRowDefinition(t, i, true)]);
    const indexComment = i.primary ? t.pkIndexComment : i.index?.comment;
    if (indexComment !== undefined) push(PG_DESCRIPTION, [oid, 1259, 0, indexComment]);
    if (i.contype === null) continue;
    const conoid = CONSTRAINT_OID + (i.contype === 'p' ? t.id : oid - OID_BASE);
    const conComment = i.primary ? t.pkConstraintComment : i.index?.constraintComment;
    if (conComment !== undefined) push(PG_DESCRIPTION, [conoid, 2606, 0, conComment]);
    push(PG_CONSTRAINT, [conoid, i.name, PUBLIC, i.contype, false, false, true, relid, 0, oid, 0, 0, ' ', ' ', ' ', true, 0, true, keyArray(attnum, i.cols), null, null]);
    push(PESTO_DEFINITION, [conoid, `${i.contype === 'p' ? 'PRIMARY KEY' : 'UNIQUE'} (${list})`, null]);
  }
  (t.checks ?? []).forEach((k, n) => {
    const oid = CHECK_OID + ((t.id * 64 + n) % OIDS);
    // conkey: the columns the expression reads, in the order they first appear (PostgreSQL's StoreRelCheck).
    const read = new Set<number>();
    someExpr(k.expr, (x) => {
      if (x.k === 'col') read.add(x.i);
      return false;
    });
    const plain = checkDefinition(t, k, false);
    push(PG_CONSTRAINT, [oid, k.name, PUBLIC, 'c', false, false, k.notValid !== true, relid, 0, 0, 0, 0, ' ', ' ', ' ', true, 0, false,
      keyArray(attnum, [...read]), null, k.source === undefined ? null : checkText(k.source, (i) => t.columns[i]?.name ?? '?', false)]);
    if (plain !== null) push(PESTO_DEFINITION, [oid, plain, checkDefinition(t, k, true)]);
    if (k.comment !== undefined) push(PG_DESCRIPTION, [oid, 2606, 0, k.comment]);
  });
  (t.foreignKeys ?? []).forEach((fk, n) => {
    const parent = tables.find((x) => x.name === fk.refTable);
    if (parent === undefined) return;
    const oid = FOREIGN_KEY_OID + ((t.id * 64 + n) % OIDS);
    // conindid: the referenced key's index (foreign-keys.ts finds it as the FOREIGN KEY did).
    const key = uniqueKeyOf(parent, fk.refColumns);
    const index = key === undefined ? 0 : indexOid(parent, key === null ? `${parent.name}_pkey` : key.name);
    push(PG_CONSTRAINT, [oid, fk.name, PUBLIC, 'f', fk.deferrable === true, fk.initiallyDeferred === true, true, relid, 0, index, 0, OID_BASE + parent.id, ACTION[fk.onUpdate], ACTION[fk.onDelete],
      fk.matchFull ? 'f' : 's', true, 0, true, keyArray(attnum, fk.columns), keyArray(attnums(parent), fk.refColumns), null]);
    push(PESTO_DEFINITION, [oid, foreignKeyDef(t, fk, parent, names.schema), null]);
    if (fk.comment !== undefined) push(PG_DESCRIPTION, [oid, 2606, 0, fk.comment]);
  });
  t.columns.forEach((c, i) => {
    if (c.comment !== undefined && c.dropped !== true) push(PG_DESCRIPTION, [relid, 1259, attnum.get(i) ?? 0, c.comment]);
    const def = defaultText(t, i, names);
    if (def === null || c.dropped === true) return;
    const defOid = ATTRDEF_OID + ((t.id * 64 + i) % OIDS);
    push(PG_ATTRDEF, [defOid, relid, attnum.get(i) ?? 0, def]);
    // A default that draws from a sequence depends on it (pg_dump then sets it after creating the sequence).
    let d = c.default;
    while (d !== null && d.k === 'cast' && !d.explicit) d = d.e;
    const seq = d !== null && d.k === 'func' && d.fn === 'nextval' ? sequenceIdOf(d) : null;
    if (seq !== null && c.identity === undefined) push(PG_DEPEND, [2604, defOid, 0, 1259, SEQUENCE_OID + seq, 0, 'n']);
  });
}

/** pg_description's rows of views and their columns, sequences (classoid pg_class) and enum types (pg_type). */
export function commentRows(views: readonly ViewDef[], sequences: readonly SequenceDef[], enums: readonly EnumTypeDef[], push: (table: Table, row: SqlValue[]) => void): void {
  for (const v of views) {
    if (v.comment !== undefined) push(PG_DESCRIPTION, [OID_BASE + v.id, 1259, 0, v.comment]);
    v.columns.forEach((c, i) => {
      if (c.comment !== undefined) push(PG_DESCRIPTION, [OID_BASE + v.id, 1259, i + 1, c.comment]);
    });
  }
  for (const s of sequences) if (s.comment !== undefined) push(PG_DESCRIPTION, [SEQUENCE_OID + s.id, 1259, 0, s.comment]);
  for (const e of enums) if (e.comment !== undefined) push(PG_DESCRIPTION, [e.oid, 1247, 0, e.comment]);
}
