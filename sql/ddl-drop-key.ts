// ALTER TABLE ... DROP CONSTRAINT of a PRIMARY KEY or a UNIQUE constraint (pg_restore --clean drops
// every table's keys before the tables).
//
// - UNIQUE: its index goes.
// - PRIMARY KEY: the table is keyed by a hidden row id again, as a table created without one. Its rows
//   are re-keyed (on a cluster into a fresh storage, as ADD PRIMARY KEY's are: client/sql/ddl-storage.ts),
//   each given a row id from the statement's context. The key's columns stay NOT NULL, as in PostgreSQL.
// Foreign keys that need the key (no other unique key of the table covers their columns) stop the drop
// with PostgreSQL's 2BP01, or go with it under CASCADE, each with its notice.

import { HIDDEN_ROWID, type Catalog, type ColumnDef, type TableDef } from './catalog.ts';
import type { DdlStorage } from './ddl-build.ts';
import { SqlError, SqlState } from './errors.ts';
import type { ExecContext } from './exec-context.ts';
import { dependentsText, dropDependents, isUniqueKey } from './foreign-keys.ts';

/** The drop, or null when `name` is not the table's primary key or one of its UNIQUE constraints. */
export function dropKeyConstraint(catalog: Catalog, storage: DdlStorage, t: TableDef, name: string, cascade: boolean, ctx: ExecContext | null): { table: TableDef; notice?: string } | null {
  const unique = t.indexes.find((i) => i.constraint && i.unique && i.name === name);
  const primary = !t.hiddenPk && name === `${t.name}_pkey`;
  if (unique === undefined && !primary) return null;
  let next: TableDef;
  if (unique !== undefined) {
    next = { ...t, indexes: t.indexes.filter((i) => i.id !== unique.id) };
  } else {
    const rowId: ColumnDef = { name: HIDDEN_ROWID, type: 'int8', typmod: -1, notNull: true, default: null, hidden: true, serial: false };
    const columns = [...t.columns, rowId];
    next = { ...t, columns, pk: [columns.length - 1], pkTypes: ['int8'], hiddenPk: true };
  }
  const deps = catalog.referencing(t.name).filter((d) => !isUniqueKey(next, d.fk.refColumns));
  if (deps.length > 0 && !cascade) {
    throw new SqlError(SqlState.dependentObjectsStillExist, `cannot drop constraint ${name} on table ${t.name} because other objects depend on it`,
      dependentsText(deps).map((l) => `${l} depends on index ${name}`).join('\n'), undefined, 'Use DROP ... CASCADE to drop the dependent objects too.');
  }
  const notices: string[] = [];
  dropDependents(catalog, deps, `constraint ${name} on table ${t.name}`, true, notices);
  // The table as the cascade left it (a self-reference is gone from it too), with the key change.
  const now = catalog.getById(t.id) ?? t;
  const { foreignKeys: _, ...rest } = next;
  next = now.foreignKeys === undefined ? rest : { ...rest, foreignKeys: now.foreignKeys };
  if (unique !== undefined) {
    catalog.put(next);
    storage.ensureTable(next);
  } else {
    storage.rekeyTable(next, (row) => {
      if (ctx === null) throw new SqlError(SqlState.internalError, 'dropping a primary key needs row ids');
      return [...row, ctx.nextRowId()];
    });
    catalog.put(next);
  }
  return { table: next, ...(notices.length > 0 ? { notice: notices.join('\n') } : {}) };
}
