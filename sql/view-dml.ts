// INSERT, UPDATE and DELETE through a view, as PostgreSQL 15 does for automatically updatable views: a
// view over one table (or one such view) without DISTINCT, GROUP BY, HAVING, LIMIT, set operations,
// WITH or aggregates. The statement is rewritten into one on the view's base relation before it is
// bound: the view's columns become the base columns (or, read in WHERE and RETURNING, the view's
// expressions), and the view's WHERE joins the statement's (no CHECK OPTION: an INSERT may add a row
// the view does not show, as in PostgreSQL). Rewriting happens while lowering, so a replica lowering
// the same text for a reconnaissance read rewrites it the same way. Column names are matched by text,
// as renames in views.ts are: a subquery's own column named like a view column would be read as it.

import type { DeleteStmt, Node, RangeVar, ResTarget, SelectStmt } from 'libpg-query';
import type { Catalog, ViewDef } from './catalog.ts';
import { SqlError, SqlState } from './errors.ts';
import { strOf, unsupported } from './lower-expr.ts';

type Verb = 'insert into' | 'update' | 'delete from';

/** Aggregates a view's select list may call (a view returning one is not updatable). */
const AGGREGATES = new Set(['count', 'sum', 'avg', 'min', 'max', 'string_agg', 'array_agg', 'bool_and', 'bool_or', 'every', 'json_agg', 'jsonb_agg',
  'json_object_agg', 'jsonb_object_agg', 'stddev', 'variance']);

const HINTS: Readonly<Record<Verb, string>> = {
  'insert into': 'To enable inserting into the view, provide an INSTEAD OF INSERT trigger or an unconditional ON INSERT DO INSTEAD rule.',
  update: 'To enable updating the view, provide an INSTEAD OF UPDATE trigger or an unconditional ON UPDATE DO INSTEAD rule.',
  'delete from': 'To enable deleting from the view, provide an INSTEAD OF DELETE trigger or an unconditional ON DELETE DO INSTEAD rule.',
};

/** What a write through `view` becomes: its base relation under the alias the view's query gives it, the view's filter, and its columns. */
interface Base {
  readonly rv: RangeVar;
  readonly alias: string;
  readonly where: Node | undefined;
  /** Per view column: its expression over the base relation, and the base column when it is a plain one. */
  readonly columns: ReadonlyMap<string, { readonly expr: Node; readonly column: string | null }>;
}

function hasAggregate(n: unknown): boolean {
  if (Array.isArray(n)) return n.some(hasAggregate);
  if (typeof n !== 'object' || n === null) return false;
  const o = n as Record<string, unknown>;
  if ('SubLink' in o) return false; // a subquery's aggregates are its own
  const f = o.FuncCall as { funcname?: Node[]; agg_star?: boolean } | undefined;
  if (f !== undefined && (f.agg_star === true || AGGREGATES.has(strOf(f.funcname?.[f.funcname.length - 1]).toLowerCase()))) return true;
  return Object.values(o).some(hasAggregate);
}

/** Why PostgreSQL would not write through a view with this query, or null when it would. */
function notUpdatable(s: SelectStmt): string | null {
  if (s.withClause !== undefined) return 'Views containing WITH are not automatically updatable.';
  if (s.op !== undefined && s.op !== 'SETOP_NONE') return 'Views containing UNION, INTERSECT, or EXCEPT are not automatically updatable.';
  if (s.distinctClause !== undefined) return 'Views containing DISTINCT are not automatically updatable.';
  if ((s.groupClause ?? []).length > 0) return 'Views containing GROUP BY are not automatically updatable.';
  if (s.havingClause !== undefined) return 'Views containing HAVING are not automatically updatable.';
  if (s.limitCount !== undefined || s.limitOffset !== undefined) return 'Views containing LIMIT or OFFSET are not automatically updatable.';
  if (hasAggregate(s.targetList)) return 'Views that return aggregate functions are not automatically updatable.';
  const from = s.fromClause ?? [];
  if (s.valuesLists !== undefined || from.length !== 1 || !('RangeVar' in from[0]!)) return 'Views that do not select from a single table or view are not automatically updatable.';
  return null;
}

function baseOf(view: ViewDef, verb: Verb): Base {
  const s = (view.query as { SelectStmt?: SelectStmt }).SelectStmt ?? {};
  const why = notUpdatable(s);
  if (why !== null) throw new SqlError(SqlState.objectNotInPrerequisiteState, `cannot ${verb} view "${view.name}"`, why, undefined, HINTS[verb]);
  return updatableBase(view, s);
}

/**
 * Whether each column of `view` can be written through it (information_schema's is_updatable); null
 * when the view cannot be written through at all.
 */
export function writableColumns(view: ViewDef): boolean[] | null {
  const s = (view.query as { SelectStmt?: SelectStmt }).SelectStmt ?? {};
  if (notUpdatable(s) !== null) return null;
  const base = updatableBase(view, s);
  return view.columns.map((c) => base.columns.get(c.name)?.column !== null);
}

function updatableBase(view: ViewDef, s: SelectStmt): Base {
  const rv = (s.fromClause![0] as { RangeVar: RangeVar }).RangeVar;
  const alias = rv.alias?.aliasname ?? rv.relname ?? '';
  const columns = new Map<string, { expr: Node; column: string | null }>();
  (s.targetList ?? []).forEach((t, i) => {
    const val = (t as { ResTarget: ResTarget }).ResTarget.val as Node;
    const fields = 'ColumnRef' in val ? val.ColumnRef.fields ?? [] : [];
    const plain = fields.length === 1 || (fields.length === 2 && strOf(fields[0]) === alias);
    columns.set(view.columns[i]?.name ?? '', { expr: val, column: plain && strOf(fields[fields.length - 1]) !== '' ? strOf(fields[fields.length - 1]) : null });
  });
  return { rv, alias, where: s.whereClause, columns };
}

/** `n` with every reference to a view column (bare, or qualified by the name the statement gives the view) replaced by its expression. */
function substitute(n: unknown, base: Base, viewAlias: string): unknown {
  if (Array.isArray(n)) return n.map((x) => substitute(x, base, viewAlias));
  if (typeof n !== 'object' || n === null) return n;
  const o = n as Record<string, unknown>;
  const fields = (o.ColumnRef as { fields?: Node[] } | undefined)?.fields;
  if (fields !== undefined && (fields.length === 1 || (fields.length === 2 && strOf(fields[0]) === viewAlias))) {
    const c = base.columns.get(strOf(fields[fields.length - 1]));
    if (c !== undefined) return structuredClone(c.expr);
  }
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, substitute(v, base, viewAlias)]));
}

/** The base column a view column written by the statement stands for (0A000 for a computed one, 42703 for none). */
function baseColumn(view: ViewDef, base: Base, name: string, verb: Verb): string {
  const c = base.columns.get(name);
  if (c === undefined) throw new SqlError(SqlState.undefinedColumn, `column "${name}" of relation "${view.name}" does not exist`);
  if (c.column === null) {
    throw new SqlError(SqlState.featureNotSupported, `cannot ${verb === 'update' ? 'update' : 'insert into'} column "${name}" of view "${view.name}"`,
      'View columns that are not columns of their base relation are not updatable.');
  }
  return c.column;
}

/** RETURNING over the view: its names and `*` are the view's columns. */
function returning(clause: { exprs?: Node[] } | undefined, view: ViewDef, base: Base, viewAlias: string): { exprs: Node[] } | undefined {
  if (clause === undefined) return undefined;
  const exprs = (clause.exprs ?? []).flatMap((t): Node[] => {
    const rt = (t as { ResTarget: ResTarget }).ResTarget;
    const fields = rt.val !== undefined && 'ColumnRef' in rt.val ? rt.val.ColumnRef.fields ?? [] : [];
    if (fields.some((f) => 'A_Star' in f)) {
      return view.columns.map((c) => ({ ResTarget: { name: c.name, val: structuredClone(base.columns.get(c.name)!.expr) } }));
    }
    const name = rt.name ?? (fields.length > 0 ? strOf(fields[fields.length - 1]) : undefined);
    return [{ ResTarget: { ...rt, ...(name === undefined ? {} : { name }), val: substitute(rt.val, base, viewAlias) as Node } }];
  });
  return { exprs };
}

const and = (a: Node | undefined, b: Node | undefined): Node | undefined =>
  a === undefined ? b : b === undefined ? a : { BoolExpr: { boolop: 'AND_EXPR', args: [a, b] } };

/**
 * An INSERT, UPDATE or DELETE whose target is a view, rewritten to write the view's base relation (which
 * may be a view again: the caller lowers the result, which rewrites once more); null for any other statement.
 */
export function rewriteViewDml(catalog: Catalog, node: Node): Node | null {
  const verb: Verb | null = 'InsertStmt' in node ? 'insert into' : 'UpdateStmt' in node ? 'update' : 'DeleteStmt' in node ? 'delete from' : null;
  if (verb === null) return null;
  const stmt = ('InsertStmt' in node ? node.InsertStmt : 'UpdateStmt' in node ? node.UpdateStmt : (node as { DeleteStmt: { relation?: RangeVar } }).DeleteStmt);
  const rv = stmt.relation;
  const view = rv !== undefined && (rv.schemaname === undefined || rv.schemaname === 'public') ? catalog.getView(rv.relname ?? '') : undefined;
  if (view === undefined) return null;
  const base = baseOf(view, verb);
  const viewAlias = rv!.alias?.aliasname ?? view.name;
  const relation: RangeVar = { ...base.rv, alias: { aliasname: base.alias } };
  if ('InsertStmt' in node) {
    const s = node.InsertStmt;
    if (s.onConflictClause !== undefined) throw unsupported('INSERT ... ON CONFLICT into a view');
    const names = s.cols === undefined ? view.columns.map((c) => c.name) : s.cols.map((c) => (c as { ResTarget: ResTarget }).ResTarget.name ?? '');
    const cols = names.map((n) => ({ ResTarget: { name: baseColumn(view, base, n, verb) } }));
    const ret = returning(s.returningClause, view, base, viewAlias);
    return { InsertStmt: { ...s, relation, cols, ...(ret === undefined ? {} : { returningClause: ret }) } };
  }
  if ('UpdateStmt' in node) {
    const s = node.UpdateStmt;
    if ((s.fromClause ?? []).length > 0) throw unsupported('UPDATE ... FROM of a view');
    const targetList = (s.targetList ?? []).map((t) => {
      const rt = (t as { ResTarget: ResTarget }).ResTarget;
      return { ResTarget: { ...rt, name: baseColumn(view, base, rt.name ?? '', verb), val: substitute(rt.val, base, viewAlias) as Node } };
    });
    const where = and(s.whereClause === undefined ? undefined : substitute(s.whereClause, base, viewAlias) as Node, structuredClone(base.where));
    const ret = returning(s.returningClause, view, base, viewAlias);
    const { whereClause: _w, ...rest } = s;
    return { UpdateStmt: { ...rest, relation, targetList, ...(where === undefined ? {} : { whereClause: where }), ...(ret === undefined ? {} : { returningClause: ret }) } };
  }
  const s = (node as { DeleteStmt: DeleteStmt }).DeleteStmt;
  if ((s.usingClause ?? []).length > 0) throw unsupported('DELETE ... USING of a view');
  const where = and(s.whereClause === undefined ? undefined : substitute(s.whereClause, base, viewAlias) as Node, structuredClone(base.where));
  const ret = returning(s.returningClause, view, base, viewAlias);
  const { whereClause: _w, ...rest } = s;
  return { DeleteStmt: { ...rest, relation, ...(where === undefined ? {} : { whereClause: where }), ...(ret === undefined ? {} : { returningClause: ret }) } };
}
