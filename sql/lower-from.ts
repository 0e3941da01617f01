// Binds a FROM clause into scope relations and FromItems: tables (RangeVar), derived tables
// (RangeSubselect), generate_series (RangeFunction), VALUES lists, and JOIN trees. Inner joins are
// flattened, their ON conditions joining the WHERE conjuncts; a LEFT JOIN's right side must be a single
// relation (its ON conjuncts stay with it). A LATERAL subquery and any function in FROM (implicitly
// lateral, as in PostgreSQL) bind in a scope of their own that sees the FROM items before them as outer
// references at that scope's level; when they use it, the item is marked `lateral` and planned as a
// nested loop re-running it per left row (plan-from.ts), so each run's scans record their own bound
// predicates like a correlated subquery's.

import type { Node, JoinExpr, RangeVar, Alias } from 'libpg-query';
import type { Expr } from './expr.ts';
import { conjuncts } from './expr.ts';
import { Scope, type ScopeColumn } from './bind-context.ts';
import type { FromItem } from './plan-from.ts';
import type { JoinKind } from './plan.ts';
import { SqlError, SqlState, locate } from './errors.ts';
import { bindExpr, strOf, toBool, unsupported, bindCompare } from './lower-expr.ts';
import { bindQuery } from './lower-select.ts';
import { bindViewQuery } from './views.ts';
import { bindSequenceRelation } from './lower-sequence.ts';
import { coerce } from './coerce.ts';
import { SET_FUNCTIONS, bindSetFunction, setFunctionEnum } from './lower-srf.ts';
import { jsonRowFunctions, type JsonRowFunction } from './json-ops.ts';
import { arrayElementType, isArrayType, isIntegerType, typeDisplayName } from './types.ts';
import { refuseUnpopulated } from './matviews.ts';

export interface FromResult {
  items: FromItem[];
  /** ON conditions of inner joins, to be added to WHERE. */
  where: Expr[];
}

function aliasColumns(alias: Alias | undefined, cols: ScopeColumn[], what: string): ScopeColumn[] {
  const names = (alias?.colnames ?? []).map(strOf);
  if (names.length > cols.length) {
    throw new SqlError(SqlState.syntaxError, `${what} has ${cols.length} columns available but ${names.length} columns specified`);
  }
  return cols.map((c, i) => (i < names.length ? { ...c, name: names[i] as string } : c));
}

/**
 * The scope a LATERAL item binds in: the FROM items bound so far, at a level of its own (the nested-loop
 * join publishes its left row there). Its parent is the query's parent, so references further out stay
 * outer references of the enclosing query.
 */
function lateralScope(scope: Scope): Scope {
  const s = new Scope(scope.ctx, scope.parent);
  s.lateral = true;
  // An aggregate over only these items' columns would belong to the query whose FROM is being bound.
  s.aggForbidden = 'FROM clause of their own query level';
  for (const r of scope.rels) s.addRel(r.alias, r.columns, r.table);
  for (const i of scope.usingHidden) s.usingHidden.add(i);
  return s;
}

/**
 * Binds a lateral item's part with `bind` under `lateralScope` (it reports whether it referenced that
 * scope or beyond), and returns the level its references to earlier FROM items use, or null when it
 * made none (then it runs once, like any item).
 */
function bindLateral<T>(scope: Scope, join: JoinKind, bind: (outer: Scope) => { value: T; correlated: boolean }): { value: T; lateral: number | null } {
  const outer = lateralScope(scope);
  const { value, correlated } = bind(outer);
  if (outer.correlated) scope.correlated = true;
  if (!correlated || scope.rels.length === 0) return { value, lateral: null };
  if (join === 'right' || join === 'full') {
    // The left side is null-extended there, so nothing could be read from it.
    const i = firstOuterRef(value, outer.level);
    const rel = scope.rels.find((r) => i !== null && i >= r.offset && i < r.offset + r.columns.length);
    throw new SqlError(SqlState.invalidColumnReference, `invalid reference to FROM-clause entry for table "${rel?.alias ?? ''}"`,
      'The combining JOIN type must be INNER or LEFT for a LATERAL reference.');
  }
  return { value, lateral: outer.level };
}

/**
 * A subquery without LATERAL that failed to bind: when it binds as a LATERAL one referencing an earlier
 * FROM item, PostgreSQL's 42P01 naming that item with its hint; else the original error.
 */
function notLateral(scope: Scope, join: JoinKind, subquery: Node, e: unknown): unknown {
  if (!(e instanceof SqlError) || (e.code !== SqlState.undefinedTable && e.code !== SqlState.undefinedColumn)) return e;
  let i: number | null = null;
  try {
    bindLateral(scope, 'inner', (outer) => {
      const sub = bindQuery(scope.ctx, subquery, outer);
      i = firstOuterRef(sub.plan, outer.level);
      return { value: sub, correlated: sub.correlated };
    });
  } catch {
    return e;
  }
  const rel = scope.rels.find((r) => i !== null && i >= r.offset && i < r.offset + r.columns.length);
  if (rel === undefined || join === 'right' || join === 'full') return e;
  return new SqlError(SqlState.undefinedTable, `invalid reference to FROM-clause entry for table "${rel.alias}"`, undefined, e.position,
    `There is an entry for table "${rel.alias}", but it cannot be referenced from this part of the query.`, e.location);
}

/** The FROM-row position of the first outer reference at `level` inside bound plans or expressions. */
function firstOuterRef(x: unknown, level: number): number | null {
  if (typeof x !== 'object' || x === null) return null;
  const o = x as Record<string, unknown>;
  if (o['k'] === 'outer' && o['level'] === level) return o['i'] as number;
  for (const [k, v] of Object.entries(o)) {
    if (k === 'table' || k === 'index') continue;
    const i = firstOuterRef(v, level);
    if (i !== null) return i;
  }
  return null;
}

/** Binds a function's arguments (in FROM: implicitly lateral) in a scope below `lateralScope`. */
function bindFromFunction<T>(scope: Scope, join: JoinKind, bind: (inner: Scope) => T): { value: T; lateral: number | null } {
  return bindLateral(scope, join, (outer) => {
    const inner = new Scope(scope.ctx, outer);
    inner.aggForbidden = 'functions in FROM';
    const value = bind(inner);
    return { value, correlated: inner.correlated };
  });
}

function bindRangeVar(scope: Scope, rv: RangeVar, out: FromResult, join: JoinKind): void {
  const name = rv.relname ?? '';
  const alias = rv.alias?.aliasname ?? name;
  const inPublic = rv.schemaname === undefined || rv.schemaname === 'public';
  const view = inPublic ? scope.ctx.catalog.getView(name) : undefined;
  const sequence = inPublic && view === undefined ? scope.ctx.catalog.sequence(name) : undefined;
  if (view !== undefined || sequence !== undefined) {
    // A view is its query as a derived table, under the view's own column names; a sequence is the one
    // row of its state (lower-sequence.ts).
    if (scope.rels.some((r) => r.alias === alias)) throw new SqlError('42712', `table name "${alias}" specified more than once`);
    const q = view !== undefined ? bindViewQuery(scope.ctx, view) : bindSequenceRelation(scope.ctx, sequence!);
    const columns = view !== undefined ? view.columns : q.columns;
    const cols = aliasColumns(rv.alias, columns.map((c) => ({ name: c.name, type: c.type, typmod: c.typmod, hidden: false })), `table "${alias}"`);
    const rel = scope.addRel(alias, cols, null);
    out.items.push({ rel, source: { k: 'plan', plan: q.plan }, join, on: [], lateral: null });
    return;
  }
  const table = locate(rv.location, [SqlState.undefinedTable], () => scope.ctx.catalog.resolve(rv.schemaname, name));
  // A view's definition may name a materialized view that holds no rows yet; reading it may not.
  if (scope.ctx.starExpansions === null) refuseUnpopulated(table);
  if (scope.rels.some((r) => r.alias === alias)) {
    throw new SqlError('42712', `table name "${alias}" specified more than once`);
  }
  const cols = aliasColumns(rv.alias, table.columns.map((c) => ({ name: c.name, type: c.type, typmod: c.typmod, hidden: c.hidden || c.system === true })), `table "${alias}"`);
  const rel = scope.addRel(alias, cols, table);
  out.items.push({ rel, source: { k: 'table', table }, join, on: [], lateral: null });
}

function bindItem(scope: Scope, n: Node, out: FromResult, join: JoinKind): void {
  if ('RangeVar' in n) {
    const rv = n.RangeVar;
    for (let i = scope.ctx.ctes.length - 1; i >= 0 && rv.schemaname === undefined; i--) {
      const cte = scope.ctx.ctes[i]?.get(rv.relname ?? '');
      if (cte === undefined) continue;
      const alias = rv.alias?.aliasname ?? rv.relname ?? '';
      const cols = aliasColumns(rv.alias, cte.columns.map((c) => ({ name: c.name, type: c.type, typmod: c.typmod, hidden: false })), `table "${alias}"`);
      const rel = scope.addRel(alias, cols, null);
      out.items.push({ rel, source: { k: 'plan', plan: cte.plan }, join, on: [], lateral: null });
      return;
    }
    return bindRangeVar(scope, rv, out, join);
  }
  if ('RangeSubselect' in n) {
    const rs = n.RangeSubselect;
    const alias = rs.alias?.aliasname;
    if (alias === undefined) throw new SqlError(SqlState.syntaxError, 'subquery in FROM must have an alias');
    let q: ReturnType<typeof bindQuery>;
    let lateral: number | null = null;
    if (rs.lateral === true) {
      ({ value: q, lateral } = bindLateral(scope, join, (outer) => {
        const sub = bindQuery(scope.ctx, rs.subquery as Node, outer);
        return { value: sub, correlated: sub.correlated };
      }));
    } else {
      try {
        q = bindQuery(scope.ctx, rs.subquery as Node, scope.parent);
      } catch (e) {
        throw notLateral(scope, join, rs.subquery as Node, e);
      }
      // It sees only levels outside this query, so a reference of its own makes this query correlated.
      if (q.correlated) scope.correlated = true;
    }
    const cols = aliasColumns(rs.alias, q.columns.map((c) => ({ name: c.name, type: c.type, typmod: c.typmod, hidden: false })), `table "${alias}"`);
    const rel = scope.addRel(alias, cols, null);
    out.items.push({ rel, source: { k: 'plan', plan: q.plan }, join, on: [], lateral });
    return;
  }
  if ('RangeFunction' in n) {
    const rf = n.RangeFunction;
    const calls = (rf.functions ?? []).map((f) => ('List' in f ? f.List.items?.[0] : undefined));
    const call = calls[0];
    if (call === undefined || !('FuncCall' in call)) throw unsupported('this table function');
    const fname = strOf(call.FuncCall.funcname?.[call.FuncCall.funcname.length - 1]).toLowerCase();
    const setCall = (c: Node | undefined): { name: string; args: Node[] } | null => {
      if (c === undefined || !('FuncCall' in c)) return null;
      const name = strOf(c.FuncCall.funcname?.[c.FuncCall.funcname.length - 1]).toLowerCase();
      return SET_FUNCTIONS.has(name) ? { name, args: c.FuncCall.args ?? [] } : null;
    };
    const sets = calls.map(setCall);
    if (rf.ordinality === true || calls.length > 1 || (fname === 'unnest' && (call.FuncCall.args?.length ?? 0) > 1)) {
      if (sets.some((x) => x === null)) throw unsupported(`${fname} WITH ORDINALITY or ROWS FROM over functions other than unnest and generate_series`);
      // unnest(a, b, ...) in FROM is ROWS FROM (unnest(a), unnest(b), ...), as PostgreSQL expands it.
      const expanded = sets.flatMap((x) => (x!.name === 'unnest' && x!.args.length > 1 ? x!.args.map((a) => ({ name: 'unnest', args: [a] })) : [x!]));
      const { value: bound, lateral } = bindFromFunction(scope, join, (inner) =>
        expanded.map((x) => {
          const f = bindSetFunction(scope.ctx, x.name, x.args.map((a) => bindExpr(inner, a)));
          return { f, typmod: setFunctionEnum(inner, f)?.oid ?? -1 };
        }));
      const fns = bound.map((b) => b.f);
      const alias = rf.alias?.aliasname ?? fname;
      const named = bound.map(({ f, typmod }, i) => ({ name: calls.length === 1 && fns.length === 1 ? alias : (sets[i]?.name ?? fname), type: f.t, typmod, hidden: false }));
      if (rf.ordinality === true) named.push({ name: 'ordinality', type: 'int8', typmod: -1, hidden: false });
      const rel = scope.addRel(alias, aliasColumns(rf.alias, named, `function "${alias}"`), null);
      out.items.push({ rel, source: { k: 'plan', plan: { k: 'rowsfrom', fns, ordinality: rf.ordinality === true } }, join, on: [], lateral });
      return;
    }
    if (SET_FUNCTIONS.has(fname)) {
      const { value: { plan, typmod }, lateral } = bindFromFunction(scope, join, (inner) => {
        const f = bindSetFunction(scope.ctx, fname, (call.FuncCall.args ?? []).map((a) => bindExpr(inner, a)));
        return { plan: f, typmod: setFunctionEnum(inner, f)?.oid ?? -1 };
      });
      const alias = rf.alias?.aliasname ?? fname;
      const cols = aliasColumns(rf.alias, [{ name: alias, type: plan.t, typmod, hidden: false }], `function "${alias}"`);
      const rel = scope.addRel(alias, cols, null);
      out.items.push({ rel, source: { k: 'plan', plan }, join, on: [], lateral });
      return;
    }
    if (Object.hasOwn(jsonRowFunctions, fname)) {
      const f = fname as JsonRowFunction;
      const { value: args, lateral } = bindFromFunction(scope, join, (inner) => (call.FuncCall.args ?? []).map((a) => bindExpr(inner, a)));
      const doc = args[0];
      const docType = f.startsWith('jsonb') ? 'jsonb' : 'json';
      if (args.length !== 1 || doc === undefined || (doc.t !== docType && doc.t !== 'unknown')) {
        throw new SqlError(SqlState.undefinedFunction, `function ${f}(${args.map((a) => typeDisplayName[a.t]).join(', ')}) does not exist`);
      }
      const alias = rf.alias?.aliasname ?? f;
      const cols = aliasColumns(rf.alias, jsonRowFunctions[f].map(([name, type]) => ({ name, type, typmod: -1, hidden: false })), `function "${alias}"`);
      const rel = scope.addRel(alias, cols, null);
      out.items.push({ rel, source: { k: 'plan', plan: { k: 'jsonrows', fn: f, doc: coerce(scope.ctx, doc, docType) } }, join, on: [], lateral });
      return;
    }
    return bindScalarFunction(scope, call, fname, rf.alias, out, join);
  }
  if ('JoinExpr' in n) return bindJoin(scope, n.JoinExpr, out, join);
  throw unsupported(`FROM item ${Object.keys(n)[0] ?? ''}`);
}

/**
 * A scalar function in FROM (`SELECT * FROM current_schema()`, as TypeORM asks): one row with one column
 * named after the function, as in PostgreSQL.
 */
function bindScalarFunction(scope: Scope, call: Node, fname: string, alias: Alias | undefined, out: FromResult, join: JoinKind): void {
  const { value: e, lateral } = bindFromFunction(scope, join, (inner) => bindExpr(inner, call));
  if (isArrayType(e.t) || e.t === 'unknown') throw unsupported(`table function ${fname}`);
  const name = alias?.aliasname ?? fname;
  const cols = aliasColumns(alias, [{ name, type: e.t, typmod: -1, hidden: false }], `function "${name}"`);
  const rel = scope.addRel(name, cols, null);
  out.items.push({ rel, source: { k: 'plan', plan: { k: 'values', rows: [[e]] } }, join, on: [], lateral });
}

function joinQuals(scope: Scope, j: JoinExpr, leftRels: number): Expr[] {
  let using = (j.usingClause ?? []).map(strOf);
  if (j.isNatural) {
    const r = scope.rels[scope.rels.length - 1];
    const leftNames = new Set(scope.rels.slice(0, leftRels).flatMap((rel) => rel.columns.filter((c) => !c.hidden).map((c) => c.name)));
    using = (r?.columns ?? []).filter((c) => !c.hidden && leftNames.has(c.name)).map((c) => c.name);
  }
  if (using.length > 0) {
    const names = using;
    const right = scope.rels[scope.rels.length - 1];
    return names.map((name) => {
      const leftRel = scope.rels.slice(0, leftRels).filter((r) => r.columns.some((c) => c.name === name));
      if (leftRel.length !== 1 || right === undefined) {
        throw new SqlError(SqlState.undefinedColumn, `column "${name}" specified in USING clause does not exist in left table`);
      }
      const l = leftRel[0] as (typeof scope.rels)[number];
      const li = l.columns.findIndex((c) => c.name === name);
      const ri = right.columns.findIndex((c) => c.name === name);
      if (ri < 0) throw new SqlError(SqlState.undefinedColumn, `column "${name}" specified in USING clause does not exist in right table`);
      scope.usingHidden.add(right.offset + ri);
      const lc = l.columns[li] as ScopeColumn;
      const rc = right.columns[ri] as ScopeColumn;
      return bindCompare(scope, '=', { k: 'col', i: l.offset + li, t: lc.type }, { k: 'col', i: right.offset + ri, t: rc.type });
    });
  }
  if (j.quals === undefined) return [];
  const saved = scope.aggForbidden;
  scope.aggForbidden = 'JOIN conditions';
  try {
    return conjuncts(toBool(scope, bindExpr(scope, j.quals), 'JOIN/ON'));
  } finally {
    scope.aggForbidden = saved;
  }
}

function bindJoin(scope: Scope, j: JoinExpr, out: FromResult, join: JoinKind): void {
  if (j.alias !== undefined) throw unsupported('aliases on JOIN expressions');
  switch (j.jointype) {
    case 'JOIN_INNER': {
      bindItem(scope, j.larg as Node, out, join);
      const leftRels = scope.rels.length;
      bindItem(scope, j.rarg as Node, out, 'inner');
      const quals = joinQuals(scope, j, leftRels);
      if (join !== 'inner') throw unsupported('an inner join nested on the right of an outer join');
      out.where.push(...quals);
      return;
    }
    case 'JOIN_LEFT':
    case 'JOIN_RIGHT':
    case 'JOIN_FULL': {
      const kind = j.jointype === 'JOIN_LEFT' ? 'left' : j.jointype === 'JOIN_RIGHT' ? 'right' : 'full';
      const firstRel = scope.rels.length;
      bindItem(scope, j.larg as Node, out, join);
      const leftRels = scope.rels.length;
      const before = out.items.length;
      const r = j.rarg as Node;
      if ('JoinExpr' in r) throw unsupported('a join nested on the right of an outer join');
      bindItem(scope, r, out, kind);
      const quals = joinQuals(scope, j, leftRels);
      const nullable = kind === 'left' ? scope.rels.slice(leftRels) : kind === 'right' ? scope.rels.slice(firstRel, leftRels) : scope.rels.slice(firstRel);
      for (const rel of nullable) scope.nullableRels.add(rel);
      const item = out.items[before];
      if (item === undefined) throw unsupported('empty LEFT JOIN');
      out.items[before] = { ...item, on: quals };
      return;
    }
    default:
      throw unsupported(`join type ${String(j.jointype)}`);
  }
}

export function bindFrom(scope: Scope, from: readonly Node[]): FromResult {
  const out: FromResult = { items: [], where: [] };
  for (const n of from) bindItem(scope, n, out, 'inner');
  return out;
}
