// Materialized views (CREATE MATERIALIZED VIEW, REFRESH, DROP; renames in ddl-alter.ts), as PostgreSQL 15
// has them. A materialized view is a table keyed by the hidden row id whose definition carries its query,
// fixed as a view's is (views.ts: a copy of the tree with every `*` expanded, rewritten on renames), so
// every replica replaying the catalog log binds the same tree.
//
// Its rows are written by REFRESH alone. `REFRESH MATERIALIZED VIEW mv` lowers to an INSERT of the query's
// rows into mv that first deletes every row mv holds (`InsertPlan.clear`), so on a cluster it runs as any
// INSERT ... SELECT does: the replicas run the query as the statement's reconnaissance read, SemanticCC
// validates what it read, and the client writes the rows. CREATE ... WITH DATA is the DDL followed by that
// statement in the same transaction (`DdlOutcome.then`). Whether the view is populated is catalog state:
// REFRESH writes a catalog entry only when it changes it (WITH NO DATA on a populated view, or WITH DATA
// on one that is not), so refreshing a populated view conflicts only with readers of its rows.

import type { CreateTableAsStmt, Node, RefreshMatViewStmt } from 'libpg-query';
import type { BindContext } from './bind-context.ts';
import { HIDDEN_ROWID, quoteIdent, type Catalog, type ColumnDef, type TableDef } from './catalog.ts';
import type { DdlOutcome, DdlStorage } from './ddl-build.ts';
import { SqlError, SqlState } from './errors.ts';
import { lowerDelete } from './lower-dml.ts';
import { strOf } from './lower-expr.ts';
import { bindQuery } from './lower-select.ts';
import type { DmlPlan, OutputColumn } from './plan.ts';
import { dropDependentViews, fixedQuery, VIEW_TEXT, viewsUsing } from './views.ts';

const REFRESH = 'REFRESH MATERIALIZED VIEW';

/** A DDL statement that may write rows after its catalog change (`DdlOutcome.then`): one transaction with them. */
export function followsWithRows(node: Node): boolean {
  return ('CreateTableAsStmt' in node && node.CreateTableAsStmt.objtype === 'OBJECT_MATVIEW') || 'RefreshMatViewStmt' in node;
}

/** The statement that fills materialized view `name` (with its query's rows, or none). */
function refreshSql(name: string, withData: boolean): string {
  return `${REFRESH} ${quoteIdent(name)}${withData ? '' : ' WITH NO DATA'}`;
}

/** CREATE MATERIALIZED VIEW [IF NOT EXISTS] mv [(names)] AS query [WITH [NO] DATA]. */
export function createMatview(catalog: Catalog, storage: DdlStorage, s: CreateTableAsStmt): DdlOutcome {
  const rel = s.into?.rel ?? {};
  const name = rel.relname ?? '';
  if (rel.schemaname !== undefined && rel.schemaname !== 'public') throw new SqlError(SqlState.invalidSchemaName, `schema "${rel.schemaname}" does not exist`);
  if (catalog.relationExists(name)) {
    if (s.if_not_exists === true) return { tag: 'CREATE MATERIALIZED VIEW', touched: [], notice: `relation "${name}" already exists, skipping` };
    throw new SqlError(SqlState.duplicateTable, `relation "${name}" already exists`);
  }
  const names = (s.into?.colNames ?? []).map(strOf);
  const { query, columns, uses } = fixedQuery(catalog, s.query, names, 'CREATE MATERIALIZED VIEW');
  const text = (s as Record<string, unknown>)[VIEW_TEXT];
  const withData = s.into?.skipData !== true;
  const cols: ColumnDef[] = columns.map((c) => ({ name: c.name, type: c.type, typmod: c.typmod, notNull: false, default: null, hidden: false, serial: false, ...catalog.enumOfColumn(c.type, c.typmod) }));
  cols.push({ name: HIDDEN_ROWID, type: 'int8', typmod: -1, notNull: true, default: null, hidden: true, serial: false });
  const table: TableDef = {
    id: catalog.allocateId(), name, columns: cols, pk: [cols.length - 1], pkTypes: ['int8'], hiddenPk: true, indexes: [],
    matview: { query, uses, populated: withData, ...(typeof text === 'string' ? { text } : {}) },
  };
  catalog.put(table);
  storage.ensureTable(table);
  return { tag: 'CREATE MATERIALIZED VIEW', touched: [], ...(withData ? { then: { sql: refreshSql(name, true), countTag: 'SELECT' } } : {}) };
}

/** The materialized view `name`, or 42809 / 42P01 as PostgreSQL words them. */
function requireMatview(catalog: Catalog, name: string): TableDef {
  const t = catalog.get(name);
  if (t?.matview !== undefined) return t;
  if (t !== undefined || catalog.getView(name) !== undefined) throw new SqlError(SqlState.wrongObjectType, `"${name}" is not a materialized view`);
  throw new SqlError(SqlState.undefinedTable, `relation "${name}" does not exist`);
}

/**
 * The catalog part of REFRESH MATERIALIZED VIEW (its log entry, written only when the populated state
 * changes: `lowerRefresh`): the view is populated or not, and the rows follow in the same transaction.
 */
export function setPopulated(catalog: Catalog, s: RefreshMatViewStmt): DdlOutcome {
  const t = requireMatview(catalog, s.relation?.relname ?? '');
  const withData = s.skipData !== true;
  catalog.put({ ...t, matview: { ...t.matview!, populated: withData } });
  return { tag: REFRESH, touched: [], then: { sql: refreshSql(t.name, withData) } };
}

/** The 55000 of a query reading a materialized view that holds no rows since WITH NO DATA. */
export function refuseUnpopulated(table: TableDef): void {
  if (table.matview !== undefined && !table.matview.populated) {
    throw new SqlError(SqlState.objectNotInPrerequisiteState, `materialized view "${table.name}" has not been populated`, undefined, undefined,
      'Use the REFRESH MATERIALIZED VIEW command.');
  }
}

/** A user's INSERT, UPDATE or DELETE into a materialized view (REFRESH's own INSERT, which clears it first, passes). */
export function refuseMatviewWrite(plan: DmlPlan): void {
  if (plan.table.matview !== undefined && !(plan.k === 'insert' && plan.clear !== undefined)) {
    throw new SqlError(SqlState.wrongObjectType, `cannot change materialized view "${plan.table.name}"`);
  }
}

export type RefreshStatement =
  | { readonly k: 'ddl'; readonly node: Node; readonly tag: string }
  | { readonly k: 'dml'; readonly plan: DmlPlan; readonly columns: readonly OutputColumn[]; readonly tag: string };

/**
 * REFRESH MATERIALIZED VIEW [CONCURRENTLY] mv [WITH [NO] DATA]: the catalog change when the populated
 * state changes (its follow-up statement then fills or empties the view), else the INSERT that replaces
 * the view's rows by its query's (none for WITH NO DATA). CONCURRENTLY is PostgreSQL's way of letting
 * readers see the old rows meanwhile; here every REFRESH is a transaction and readers see the old rows
 * until it commits, so it only adds PostgreSQL's checks.
 */
export function lowerRefresh(ctx: BindContext, s: RefreshMatViewStmt, node: Node): RefreshStatement {
  const t = requireMatview(ctx.catalog, s.relation?.relname ?? '');
  const m = t.matview!;
  const withData = s.skipData !== true;
  if (s.concurrent === true) {
    if (!withData) throw new SqlError(SqlState.syntaxError, 'CONCURRENTLY and WITH NO DATA options cannot be used together');
    if (!m.populated) throw new SqlError(SqlState.featureNotSupported, 'CONCURRENTLY cannot be used when the materialized view is not populated');
    if (!t.indexes.some((i) => i.unique && i.predicate === undefined && i.exprs === undefined)) {
      throw new SqlError(SqlState.objectNotInPrerequisiteState, `cannot refresh materialized view "public.${t.name}" concurrently`, undefined, undefined,
        'Create a unique index with no WHERE clause on one or more columns of the materialized view.');
    }
  }
  if (m.populated !== withData) return { k: 'ddl', node, tag: REFRESH };
  const columns = t.columns.flatMap((c, i) => (c.hidden ? [] : [i]));
  const q = bindQuery(ctx, structuredClone(m.query), null);
  if (q.columns.length !== columns.length || q.columns.some((c, i) => c.type !== t.columns[columns[i]!]!.type)) {
    throw new SqlError(SqlState.internalError, `materialized view "${t.name}" no longer yields its columns`);
  }
  const clear = lowerDelete(ctx, { relation: { relname: t.name, inh: true } }).plan.source;
  const source = withData ? q.plan : { k: 'values' as const, rows: [] };
  return { k: 'dml', plan: { k: 'insert', table: t, fks: null, columns, source, onConflict: null, returning: null, clear }, columns: [], tag: REFRESH };
}

/** DROP MATERIALIZED VIEW [IF EXISTS] a, b [CASCADE]. */
export function dropMatviews(catalog: Catalog, storage: DdlStorage, names: readonly string[], missingOk: boolean, cascade: boolean): DdlOutcome {
  const notices: string[] = [];
  for (const n of names) {
    const t = catalog.get(n);
    if (t?.matview !== undefined) continue;
    const hint = t !== undefined ? 'Use DROP TABLE to remove a table.' : catalog.getView(n) !== undefined ? 'Use DROP VIEW to remove a view.' : undefined;
    if (hint !== undefined) throw new SqlError(SqlState.wrongObjectType, `"${n}" is not a materialized view`, undefined, undefined, hint);
    if (!missingOk) throw new SqlError(SqlState.undefinedTable, `materialized view "${n}" does not exist`);
  }
  const dropping = new Set(names);
  for (const n of names) {
    if (catalog.get(n) !== undefined) dropDependentViews(catalog, storage, viewsUsing(catalog, n), `materialized view ${n}`, cascade, notices, dropping);
  }
  const touched: number[] = [];
  for (const n of names) {
    const t = catalog.remove(n);
    if (t === undefined) {
      notices.push(`materialized view "${n}" does not exist, skipping`);
      continue;
    }
    storage.dropTable(t.id);
    touched.push(t.id);
  }
  return { tag: 'DROP MATERIALIZED VIEW', touched, ...(notices.length > 0 ? { notice: notices.join('\n') } : {}) };
}
