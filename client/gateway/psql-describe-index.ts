// psql's `\d index` and `\d+ index` (describe.c describeOneTableDetails for relkind 'i'), answered from
// the catalog the session sees, as psql-describe.ts answers `\d table`: the name lookup finds indexes
// too (a primary key's index is `<table>_pkey`, oid PKEY_OID + the table's id; another index's OID_BASE
// + its id, as pg_class has them), the flags query says relkind 'i' and access method btree, and the two
// queries psql sends only for an index are recognised here:
//
//   - its columns (pg_attribute of the index): the names PostgreSQL gives index columns (the table
//     column's, or for an expression its function's name, else `expr`, with a number appended to a
//     name already taken, as ChooseIndexColumnNames), format_type of the key's type (a column's
//     modifier kept), Key? yes (no INCLUDE columns here), pg_get_indexdef of the column, and for `\d+`
//     the type's storage and no statistics target;
//   - its footer: unique / primary key, btree, the table, the predicate of a partial index.
//
// Sequences and views have no indexes; a materialized view's indexes are described as a table's.

import type { TableDef } from '../../sql/catalog.ts';
import { indexKeyParts, indexPredicateText, keyNamePart } from '../../sql/index-keys.ts';
import { formatTypeSpec, typeDisplayName, type SqlType, type SqlValue } from '../../sql/types.ts';
import type { BackendColumn, BackendResult } from './sql-backend.ts';
import type { CatalogQuery } from './catalog-queries.ts';
import { PKEY_OID } from './catalog-constraints.ts';
import { OID_BASE, identText, indexRows, storageOf, type IndexRow } from './psql-describe.ts';

/** An index of a table, with its pg_class oid. */
export interface IndexRelation {
  readonly name: string;
  readonly oid: number;
  readonly table: TableDef;
  readonly row: IndexRow;
}

/** Every index of `tables` (primary keys' included), as pg_class lists them. */
export function indexRelations(tables: readonly TableDef[]): IndexRelation[] {
  return tables.flatMap((t) => indexRows(t).map((row) => ({ name: row.name, oid: row.index === null ? PKEY_OID + t.id : OID_BASE + row.index.id, table: t, row })));
}

export function indexWithOid(tables: readonly TableDef[], oid: string): IndexRelation | undefined {
  return indexRelations(tables).find((r) => r.oid === Number(oid));
}

/** The flags query's row for an index (psql-describe.ts FLAGS): relkind 'i', no checks, rules or triggers, btree. */
export const INDEX_FLAGS: readonly SqlValue[] = [0, 'i', false, false, false, false, false, false, false, '', 0, '', 'p', 'n', 'btree'];

const col = (name: string, type: SqlType = 'text'): BackendColumn => ({ name, type, typmod: -1 });

function rows(columns: readonly BackendColumn[], values: SqlValue[][]): BackendResult {
  return { ok: true, tag: `SELECT ${values.length}`, returnsRows: true, columns, rows: values, notices: [] };
}

const ATTRS = /^\s*SELECT a\.attname,\s*pg_catalog\.format_type\(a\.atttypid, a\.atttypmod\),\s*CASE WHEN a\.attnum <= \(SELECT i\.indnkeyatts FROM pg_catalog\.pg_index i WHERE i\.indexrelid = '(\d+)'\) THEN 'yes' ELSE 'no' END AS is_key,\s*pg_catalog\.pg_get_indexdef\(a\.attrelid, a\.attnum, TRUE\) AS indexdef(,\s*a\.attstorage,\s*CASE WHEN a\.attstattarget=-1 THEN NULL ELSE a\.attstattarget END AS attstattarget)?\s+FROM pg_catalog\.pg_attribute a\s+WHERE a\.attrelid = '\d+' AND a\.attnum > 0 AND NOT a\.attisdropped\s+ORDER BY a\.attnum;?\s*$/;
const FOOTER = /^\s*SELECT i\.indisunique, i\.indisprimary, i\.indisclustered, i\.indisvalid,\s*\(NOT i\.indimmediate\) AND EXISTS [\s\S]* AS condeferrable,\s*\(NOT i\.indimmediate\) AND EXISTS [\s\S]* AS condeferred,\s*i\.indisreplident,\s*i\.indnullsnotdistinct,\s*a\.amname, c2\.relname, pg_catalog\.pg_get_expr\(i\.indpred, i\.indrelid, true\)\s+FROM pg_catalog\.pg_index i, pg_catalog\.pg_class c, pg_catalog\.pg_class c2, pg_catalog\.pg_am a\s+WHERE i\.indexrelid = c\.oid AND c\.oid = '(\d+)' AND c\.relam = a\.oid\s+AND i\.indrelid = c2\.oid;?\s*$/;

/** ChooseIndexColumnNames: each key's name, a number appended (from 1) to one already taken. */
function indexColumnNames(r: IndexRelation): string[] {
  const taken = new Set<string>();
  return r.row.cols.map((c, j) => {
    const x = r.row.index?.exprs?.[j] ?? null;
    const base = keyNamePart(r.table, x === null ? null : x.raw, c);
    let name = base;
    for (let n = 1; taken.has(name); n++) name = `${base}${n}`;
    taken.add(name);
    return name;
  });
}

/** format_type of each key: a column's type with its modifier (an enum's name), an expression's type. */
function keyTypes(r: IndexRelation): { text: string; type: SqlType }[] {
  return r.row.cols.map((c, j) => {
    const x = r.row.index?.exprs?.[j] ?? null;
    if (x !== null) return { text: typeDisplayName[x.expr.t], type: x.expr.t };
    const column = r.table.columns[c];
    if (column === undefined) return { text: '???', type: 'unknown' };
    const text = column.enumType !== undefined ? identText(column.enumType.name) + (column.type === '_enum' ? '[]' : '') : formatTypeSpec(column);
    return { text, type: column.type };
  });
}

/** The index-only queries of `\d index`, or null for another query. */
export function recognisePsqlIndexDescribe(sql: string): CatalogQuery | null {
  let m = ATTRS.exec(sql);
  if (m !== null) {
    const oid = m[1] as string;
    const verbose = m[2] !== undefined;
    const columns = [col('attname'), col('format_type'), col('is_key'), col('indexdef'), ...(verbose ? [col('attstorage'), col('attstattarget', 'int2')] : [])];
    return {
      columns,
      answer: async (ctx) => {
        const r = indexWithOid(await ctx.backend.tables(), oid);
        if (r === undefined) return rows(columns, []);
        const names = indexColumnNames(r);
        const types = keyTypes(r);
        const defs = indexKeyParts(r.table, { columns: r.row.cols, ...(r.row.index?.exprs === undefined ? {} : { exprs: r.row.index.exprs }) }, true);
        return rows(columns, names.map((n, j) => [n, types[j]!.text, 'yes', defs?.[j] ?? '?', ...(verbose ? [storageOf(types[j]!.type), null] : [])]));
      },
    };
  }
  m = FOOTER.exec(sql);
  if (m !== null) {
    const oid = m[1] as string;
    const columns = [
      col('indisunique', 'bool'), col('indisprimary', 'bool'), col('indisclustered', 'bool'), col('indisvalid', 'bool'), col('condeferrable', 'bool'),
      col('condeferred', 'bool'), col('indisreplident', 'bool'), col('indnullsnotdistinct', 'bool'), col('amname'), col('relname'), col('pg_get_expr'),
    ];
    return {
      columns,
      answer: async (ctx) => {
        const r = indexWithOid(await ctx.backend.tables(), oid);
        if (r === undefined) return rows(columns, []);
        const p = r.row.index?.predicate;
        const predicate = p === undefined ? null : indexPredicateText(r.table, p, true) ?? '?';
        return rows(columns, [[r.row.unique, r.row.primary, false, true, false, false, false, false, 'btree', r.table.name, predicate]]);
      },
    };
  }
  return null;
}
