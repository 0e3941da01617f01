// Views (CREATE [OR REPLACE] VIEW, DROP VIEW, renames, dependencies), as PostgreSQL 15 has them. A view
// is its SELECT kept as a parse tree: a FROM item naming it binds that tree as a derived table
// (lower-from.ts), so the plans, read sets and predicates of a query over a view name the base tables
// and the cluster validates it like the same query written out. Its columns are fixed when it is made:
// every `*` of the tree is replaced by the columns it stood for then. PostgreSQL binds views by oid;
// here names are rewritten in the stored tree when a table, view or column is renamed (foreign keys do
// the same, foreign-keys.ts renameReferences), and references are matched by name, not by scope.
// Replay of the catalog log binds the same tree against the same catalog, so every replica derives the
// same view. Writes through a view: view-dml.ts.

import { scanSync, type CreateTableAsStmt, type Node, type RangeVar, type RawStmt, type ViewStmt } from 'libpg-query';
import { cascaded } from './notices.ts';
import { BindContext } from './bind-context.ts';
import type { Catalog, ViewDef } from './catalog.ts';
import type { DdlOutcome, DdlStorage } from './ddl-build.ts';
import { SqlError, SqlState } from './errors.ts';
import { strOf, unsupported } from './lower-expr.ts';
import { bindQuery, type QueryResult } from './lower-select.ts';
import { typeDisplayName } from './types.ts';
import { eachNode } from './parse-tree.ts';

/** The SELECT text of a CREATE VIEW, kept beside its parse tree by Engine.parse (libpg-query has no deparser). */
export const VIEW_TEXT = 'pestoText';

/** Relations (tables and views of `catalog`) a query's FROM items name, once each, in order. */
function relationsOf(catalog: Catalog, query: Node): string[] {
  const out: string[] = [];
  eachNode(query, (o) => {
    const rv = o.RangeVar as RangeVar | undefined;
    const name = rv?.relname;
    if (name === undefined || (rv?.schemaname !== undefined && rv.schemaname !== 'public')) return;
    if ((catalog.get(name) !== undefined || catalog.getView(name) !== undefined) && !out.includes(name)) out.push(name);
  });
  return out;
}

/**
 * Views one statement may expand, nested ones included: a chain of views each joining the previous one
 * twice doubles at every level, and a catalog log (which any client may write) must not make a replica
 * bind one statement for ever.
 */
export const VIEWS_PER_STATEMENT_MAX = 1000;

/**
 * Binds a view's query as a FROM item does: no CTE of the enclosing statement is visible inside it, and
 * a view reached again while it is being bound is PostgreSQL's 42P17 (CREATE OR REPLACE may make one
 * name itself).
 */
export function bindViewQuery(ctx: BindContext, view: ViewDef): QueryResult {
  if (ctx.viewsBinding.has(view.name)) throw new SqlError(SqlState.invalidRecursion, `infinite recursion detected in rules for relation "${view.name}"`);
  if (++ctx.viewsBound > VIEWS_PER_STATEMENT_MAX) throw new SqlError(SqlState.programLimitExceeded, `a statement may expand at most ${VIEWS_PER_STATEMENT_MAX} views`);
  const ctes = ctx.ctes.splice(0);
  ctx.viewsBinding.add(view.name);
  try {
    const q = bindQuery(ctx, view.query, null);
    if (q.columns.length !== view.columns.length || q.columns.some((c, i) => c.type !== view.columns[i]?.type)) {
      throw new SqlError(SqlState.internalError, `view "${view.name}" no longer yields its columns`);
    }
    return q;
  } finally {
    ctx.viewsBinding.delete(view.name);
    ctx.ctes.push(...ctes);
  }
}

export function createView(catalog: Catalog, s: ViewStmt): DdlOutcome {
  const rv = s.view ?? {};
  const name = rv.relname ?? '';
  if (rv.relpersistence === 't') throw unsupported('CREATE TEMPORARY VIEW');
  if ((s.options ?? []).length > 0) throw unsupported('CREATE VIEW ... WITH (options)');
  if (s.withCheckOption !== undefined && s.withCheckOption !== 'NO_CHECK_OPTION') throw unsupported('WITH CHECK OPTION');
  if (rv.schemaname !== undefined && rv.schemaname !== 'public') throw new SqlError(SqlState.invalidSchemaName, `schema "${rv.schemaname}" does not exist`);
  const old = catalog.getView(name);
  if (old === undefined && catalog.relationExists(name)) {
    if (s.replace === true && catalog.get(name) !== undefined) throw new SqlError(SqlState.wrongObjectType, `"${name}" is not a view`);
    throw new SqlError(SqlState.duplicateTable, `relation "${name}" already exists`);
  }
  if (old !== undefined && s.replace !== true) throw new SqlError(SqlState.duplicateTable, `relation "${name}" already exists`);
  const { query, columns, uses } = fixedQuery(catalog, s.query, (s.aliases ?? []).map(strOf), 'CREATE VIEW');
  if (old !== undefined) {
    // OR REPLACE may add columns at the end only (PostgreSQL's checkViewTupleDesc).
    if (columns.length < old.columns.length) throw new SqlError(SqlState.invalidTableDefinition, 'cannot drop columns from view');
    old.columns.forEach((o, i) => {
      const c = columns[i]!;
      if (c.name !== o.name) {
        throw new SqlError(SqlState.invalidTableDefinition, `cannot change name of view column "${o.name}" to "${c.name}"`, undefined, undefined,
          'Use ALTER VIEW ... RENAME COLUMN ... to change name of view column instead.');
      }
      if (c.type !== o.type || c.typmod !== o.typmod) {
        throw new SqlError(SqlState.invalidTableDefinition, `cannot change data type of view column "${o.name}" from ${typeDisplayName[o.type]} to ${typeDisplayName[c.type]}`);
      }
    });
  }
  const text = (s as Record<string, unknown>)[VIEW_TEXT];
  const view: ViewDef = {
    id: old?.id ?? catalog.allocateId(), name, query, uses,
    // OR REPLACE keeps the view's comments, its columns' too (PostgreSQL keeps the relation and its attnums).
    columns: columns.map((c, i) => {
      const was = old?.columns[i]?.comment;
      return was === undefined ? c : { ...c, comment: was };
    }),
    ...(typeof text === 'string' ? { text } : {}),
    ...(old?.comment !== undefined ? { comment: old.comment } : {}),
  };
  catalog.putView(view);
  return { tag: 'CREATE VIEW', touched: [] };
}

/**
 * A view's or materialized view's query as the catalog keeps it: a copy of the tree (it is the statement
 * cache's and the catalog log's) bound against `catalog`, every `*` replaced by the columns it stands for,
 * and the columns it yields under the names given (`aliases`) or its own.
 */
export function fixedQuery(catalog: Catalog, tree: Node | undefined, aliases: readonly string[], statement: string): { query: Node; columns: ViewDef['columns']; uses: string[] } {
  const query = structuredClone(tree) as Node;
  const ctx = new BindContext(catalog);
  ctx.starExpansions = new Map();
  const q = bindQuery(ctx, query, null);
  if (ctx.paramTypes.length > 0) throw new SqlError(SqlState.undefinedParameter, 'there is no parameter $1');
  expandStars(query, ctx.starExpansions);
  if (aliases.length > q.columns.length) throw new SqlError(SqlState.syntaxError, `${statement} specifies more column names than columns`);
  const columns = q.columns.map((c, i) => ({ name: aliases[i] ?? c.name, type: c.type, typmod: c.typmod }));
  const seen = new Set<string>();
  for (const c of columns) {
    if (seen.has(c.name)) throw new SqlError(SqlState.duplicateColumn, `column "${c.name}" specified more than once`);
    seen.add(c.name);
    // PostgreSQL's CheckAttributeType: no relation has a column of the pseudo-type void (pg_sleep's).
    if (c.type === 'void') throw new SqlError(SqlState.invalidTableDefinition, `column "${c.name}" has pseudo-type void`);
  }
  return { query, columns, uses: relationsOf(catalog, query) };
}

/** Replaces each `*` target that binding expanded by the columns it stood for, qualified by their relation. */
function expandStars(query: Node, expansions: ReadonlyMap<object, readonly (readonly [string, string])[]>): void {
  eachNode(query, (o) => {
    const list = o.targetList;
    if (!Array.isArray(list) || !list.some((t) => expansions.has(t as object))) return;
    o.targetList = list.flatMap((t: object) => {
      const cols = expansions.get(t);
      if (cols === undefined) return [t];
      return cols.map(([rel, col]) => ({ ResTarget: { val: { ColumnRef: { fields: [{ String: { sval: rel } }, { String: { sval: col } }] } } } }));
    });
  });
}

/** A view or a materialized view (sql/matviews.ts): what depends on the relations its query names. */
export interface Dependent {
  readonly kind: 'view' | 'materialized view';
  readonly name: string;
  readonly uses: readonly string[];
  readonly query: Node;
}

function dependentsOf(catalog: Catalog): Dependent[] {
  const views = catalog.listViews().map((v): Dependent => ({ kind: 'view', name: v.name, uses: v.uses, query: v.query }));
  const matviews = catalog.list().flatMap((t): Dependent[] => (t.matview === undefined ? [] : [{ kind: 'materialized view', name: t.name, uses: t.matview.uses, query: t.matview.query }]));
  return [...views, ...matviews];
}

/** Gives a view or materialized view a rewritten query (renames). */
function putQuery(catalog: Catalog, d: Dependent, query: Node, uses: readonly string[]): void {
  const v = catalog.getView(d.name);
  if (v !== undefined) return catalog.putView({ ...v, query, uses });
  const t = catalog.require(d.name);
  if (t.matview !== undefined) catalog.put({ ...t, matview: { ...t.matview, query, uses } });
}

/**
 * The views and materialized views that depend on relation `name` (directly or through others), those
 * in `dropping` excluded: 2BP01 as PostgreSQL words it, or with CASCADE they are dropped with a notice.
 */
export function dropDependentViews(catalog: Catalog, storage: DdlStorage, direct: readonly Dependent[], what: string, cascade: boolean, notices: string[], dropping: ReadonlySet<string> = new Set()): void {
  const lines: string[] = [];
  const gone: Dependent[] = [];
  const visit = (deps: readonly Dependent[], on: string): void => {
    for (const d of deps) {
      if (dropping.has(d.name) || gone.some((g) => g.name === d.name)) continue;
      lines.push(`${d.kind} ${d.name} depends on ${on}`);
      gone.push(d);
      visit(viewsUsing(catalog, d.name), `${d.kind} ${d.name}`);
    }
  };
  visit(direct, what);
  if (gone.length === 0) return;
  if (!cascade) {
    throw new SqlError(SqlState.dependentObjectsStillExist, `cannot drop ${what} because other objects depend on it`, lines.join('\n'), undefined,
      'Use DROP ... CASCADE to drop the dependent objects too.');
  }
  for (const d of gone) notices.push(cascaded(`${d.kind} ${d.name}`));
  for (const d of gone) {
    if (d.kind === 'view') catalog.removeView(d.name);
    else {
      const t = catalog.remove(d.name);
      if (t !== undefined) storage.dropTable(t.id);
    }
  }
}

/** Views and materialized views naming relation `name` in their query. */
export function viewsUsing(catalog: Catalog, name: string): Dependent[] {
  return dependentsOf(catalog).filter((v) => v.uses.includes(name));
}

/** DROP VIEW [IF EXISTS] a, b [CASCADE]. */
export function dropViews(catalog: Catalog, storage: DdlStorage, names: readonly string[], missingOk: boolean, cascade: boolean): DdlOutcome {
  const notices: string[] = [];
  for (const n of names) {
    if (catalog.getView(n) !== undefined) continue;
    const t = catalog.get(n);
    if (t !== undefined) throw new SqlError(SqlState.wrongObjectType, `"${n}" is not a view`, undefined, undefined, `Use DROP ${t.matview !== undefined ? 'MATERIALIZED VIEW to remove a materialized view' : 'TABLE to remove a table'}.`);
    if (!missingOk) throw new SqlError(SqlState.undefinedTable, `view "${n}" does not exist`);
  }
  const dropping = new Set(names);
  for (const n of names) {
    if (catalog.getView(n) !== undefined) dropDependentViews(catalog, storage, viewsUsing(catalog, n), `view ${n}`, cascade, notices, dropping);
  }
  for (const n of names) {
    if (catalog.getView(n) === undefined) notices.push(`view "${n}" does not exist, skipping`);
    else catalog.removeView(n);
  }
  return { tag: 'DROP VIEW', touched: [], ...(notices.length > 0 ? { notice: notices.join('\n') } : {}) };
}

/**
 * The column references of a view's query that may name column `column` of relation `rel`: qualified by
 * the relation's name or alias, or unqualified in a query that names the relation. Names resolve by the
 * text of the tree, not by scope (a column of the same name in another relation of the query would have
 * made the reference ambiguous when the view was made).
 */
function columnRefsOf(view: { readonly query: Node }, rel: string, column: string): Record<string, unknown>[] {
  const qualifiers = new Set<string>();
  eachNode(view.query, (o) => {
    const rv = o.RangeVar as RangeVar | undefined;
    if (rv?.relname === rel && (rv.schemaname === undefined || rv.schemaname === 'public')) qualifiers.add(rv.alias?.aliasname ?? rel);
  });
  const out: Record<string, unknown>[] = [];
  if (qualifiers.size === 0) return out;
  eachNode(view.query, (o) => {
    const fields = (o.ColumnRef as { fields?: Node[] } | undefined)?.fields;
    if (fields === undefined || strOf(fields[fields.length - 1]) !== column) return;
    if (fields.length === 1 || qualifiers.has(strOf(fields[fields.length - 2]))) out.push(o);
  });
  return out;
}

/** Views and materialized views whose query reads column `column` of relation `rel`. */
export function viewsUsingColumn(catalog: Catalog, rel: string, column: string): Dependent[] {
  return viewsUsing(catalog, rel).filter((v) => columnRefsOf(v, rel, column).length > 0);
}

/** Relation `from` is now `to`: views naming it name the new one (under the old name as alias, so qualified references still resolve). */
export function renameRelationInViews(catalog: Catalog, from: string, to: string): void {
  for (const v of viewsUsing(catalog, from)) {
    const query = structuredClone(v.query);
    eachNode(query, (o) => {
      const rv = o.RangeVar as { relname?: string; schemaname?: string; alias?: unknown } | undefined;
      if (rv?.relname !== from || (rv.schemaname !== undefined && rv.schemaname !== 'public')) return;
      rv.relname = to;
      rv.alias ??= { aliasname: from };
    });
    putQuery(catalog, v, query, v.uses.map((u) => (u === from ? to : u)));
  }
}

/** Column `from` of relation `rel` is now `to`: views reading it read the new name. */
export function renameColumnInViews(catalog: Catalog, rel: string, from: string, to: string): void {
  for (const v of viewsUsing(catalog, rel)) {
    const query = structuredClone(v.query);
    const refs = columnRefsOf({ query }, rel, from);
    if (refs.length === 0) continue;
    for (const o of refs) {
      const fields = (o.ColumnRef as { fields: Node[] }).fields;
      fields[fields.length - 1] = { String: { sval: to } };
    }
    putQuery(catalog, v, query, v.uses);
  }
}

/** ALTER VIEW / ALTER TABLE v RENAME TO w, ALTER VIEW v RENAME COLUMN a TO b. */
export function renameView(catalog: Catalog, view: ViewDef, column: string | undefined, to: string): DdlOutcome {
  if (column === undefined) {
    if (catalog.relationExists(to)) throw new SqlError(SqlState.duplicateTable, `relation "${to}" already exists`);
    catalog.putView({ ...view, name: to }, view.name);
    renameRelationInViews(catalog, view.name, to);
    return { tag: 'ALTER VIEW', touched: [] };
  }
  const i = view.columns.findIndex((c) => c.name === column);
  if (i < 0) throw new SqlError(SqlState.undefinedColumn, `column "${column}" does not exist`);
  if (view.columns.some((c) => c.name === to)) throw new SqlError(SqlState.duplicateColumn, `column "${to}" of relation "${view.name}" already exists`);
  catalog.putView({ ...view, columns: view.columns.map((c, j) => (j === i ? { ...c, name: to } : c)) });
  renameColumnInViews(catalog, view.name, column, to);
  return { tag: 'ALTER VIEW', touched: [] };
}

/**
 * A parsed statement of `sql`; a CREATE [MATERIALIZED] VIEW keeps the text of its SELECT (after the AS
 * that ends the view's name and column list) in `VIEW_TEXT`, which the catalog log then carries with the tree.
 */
export function withViewText(sql: string, raw: RawStmt): Node | undefined {
  const n = raw.stmt;
  const matview = n !== undefined && 'CreateTableAsStmt' in n && n.CreateTableAsStmt.objtype === 'OBJECT_MATVIEW';
  if (n === undefined || !('ViewStmt' in n || matview)) return n;
  const bytes = Buffer.from(sql, 'utf8');
  const from = raw.stmt_location ?? 0;
  const text = bytes.subarray(from, raw.stmt_len === undefined || raw.stmt_len === 0 ? bytes.length : from + raw.stmt_len).toString('utf8');
  let depth = 0;
  for (const t of scanSync(text).tokens) {
    if (t.text === '(') depth++;
    else if (t.text === ')') depth--;
    else if (depth === 0 && t.text.toLowerCase() === 'as') {
      // Leading spaces stay (a pg_dump's view reads back as PostgreSQL printed it), the line break after AS goes.
      const body = Buffer.from(text, 'utf8').subarray(t.end).toString('utf8').replace(/^[ \t]*\r?\n/, '').trimEnd();
      // A materialized view's WITH [NO] DATA ends the statement, not its query.
      if ('CreateTableAsStmt' in n) return { CreateTableAsStmt: { ...n.CreateTableAsStmt, [VIEW_TEXT]: body.replace(/\s+WITH\s+(NO\s+)?DATA\s*;?$/i, '') } as CreateTableAsStmt };
      return { ViewStmt: { ...n.ViewStmt, [VIEW_TEXT]: body } as ViewStmt };
    }
  }
  return n;
}

/**
 * pg_get_viewdef's text: the SELECT as written, led by a space and ended by `;` as PostgreSQL's is. Not
 * PostgreSQL's deparsed and pretty-printed form (libpg-query has no deparser here): a view made from
 * pg_dump's output, which is that form, reads back the same.
 */
export function viewDefinition(v: { readonly text?: string }): string | null {
  if (v.text === undefined) return null;
  return `${v.text.startsWith(' ') ? '' : ' '}${v.text};`;
}
