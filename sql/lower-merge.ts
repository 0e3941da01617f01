// MERGE as PostgreSQL 15 has it, lowered onto the DML machinery UPDATE ... FROM uses (lower-dml-from.ts)
// rather than an executor of its own. The data source binds first, with the target named but out of
// reach (bind-context.ts hiddenTarget: PostgreSQL's 42P01 with a hint); the target joins it last, a
// LEFT JOIN on the ON condition when a WHEN NOT MATCHED clause exists (a source row without a target
// row is what such a clause acts on), else an inner join whose ON conjuncts are planned as WHERE's. So
// each row of the plan's source is the source's columns followed by the target's full row, as an UPDATE
// ... FROM's is, and on a cluster that join is the statement's reconnaissance read: replicas run it,
// the scans of the source and of the target record their read sets and predicates, and a concurrent
// writer into either conflicts as with UPDATE ... FROM. The client then runs the actions over the rows
// the read returned (sql/dml.ts runMerge), each write through the same row functions UPDATE, DELETE and
// INSERT use (defaults, sequences, generated columns, NOT NULL, CHECK, uniqueness, foreign keys).
//
// WHEN MATCHED clauses see the source and the target (their conditions and UPDATE SET); WHEN NOT
// MATCHED clauses only the source (their conditions and INSERT's values). A clause without a condition
// after one of its kind without a condition is 42601, as in PostgreSQL. PostgreSQL 15 has no RETURNING,
// no WHEN NOT MATCHED BY SOURCE / BY TARGET and no view as target (0A000); the parser (PostgreSQL 18's
// grammar) accepts the first two, so they are refused with the syntax errors PostgreSQL 15 gives:
// RETURNING here, `NOT MATCHED BY` in the text as it is parsed (refuseMatchedBy: the tree of BY TARGET
// is the plain clause's).

import { scanSync, type MergeStmt, type MergeWhenClause, type Node, type RangeVar } from 'libpg-query';
import { conjuncts, type Expr } from './expr.ts';
import { Scope, type BindContext, type Rel } from './bind-context.ts';
import type { MergeAction, OutputColumn } from './plan.ts';
import type { TableDef } from './catalog.ts';
import { columnIndex } from './catalog.ts';
import { SqlError, SqlState, locate } from './errors.ts';
import { bindExpr, toBool, unsupported } from './lower-expr.ts';
import { bindFrom } from './lower-from.ts';
import { bindWith } from './lower-select.ts';
import { planFrom, type FromItem } from './plan-from.ts';
import { coerceAssign } from './coerce.ts';
import { foreignKeyGraph } from './foreign-key-checks.ts';
import { bindAssignments, identityValue, type DmlResult } from './lower-dml.ts';

function notSupportedFor(name: string, what: string): SqlError {
  return new SqlError(SqlState.featureNotSupported, `cannot execute MERGE on relation "${name}"`, `This operation is not supported for ${what}.`);
}

/** The table MERGE writes: 0A000 for a view, a materialized view or a sequence (PostgreSQL 15's words), 42P01 for none. */
function mergeTarget(ctx: BindContext, rv: RangeVar): TableDef {
  const name = rv.relname ?? '';
  if (ctx.catalog.getView(name) !== undefined) throw notSupportedFor(name, 'views');
  if (ctx.catalog.sequence(name) !== undefined) throw notSupportedFor(name, 'sequences');
  const table = locate(rv.location, [SqlState.undefinedTable], () => ctx.catalog.require(name));
  if (table.matview !== undefined) throw notSupportedFor(name, 'materialized views');
  return table;
}

function syntaxErrorAt(token: string): SqlError {
  return new SqlError(SqlState.syntaxError, `syntax error at or near "${token}"`);
}

/**
 * Throws PostgreSQL 15's syntax error at the BY of `WHEN NOT MATCHED BY` in `sql` (a text the parser took):
 * PostgreSQL 17's BY SOURCE and BY TARGET, which the tree of BY TARGET does not show. Only MERGE has the
 * four keywords in a row.
 */
export function refuseMatchedBy(sql: string): void {
  if (!/matched\s+by/i.test(sql)) return;
  const tokens = scanSync(sql).tokens;
  const keyword = (i: number, word: string): boolean => tokens[i]!.keywordKind > 0 && tokens[i]!.text.toLowerCase() === word;
  for (let i = 3; i < tokens.length; i++) {
    if (!keyword(i, 'by') || !keyword(i - 1, 'matched') || !keyword(i - 2, 'not') || !keyword(i - 3, 'when')) continue;
    // The scanner's offsets are bytes; PostgreSQL's position counts characters from 1.
    const position = Buffer.from(sql, 'utf8').subarray(0, tokens[i]!.start).toString('utf8').length + 1;
    throw new SqlError(SqlState.syntaxError, `syntax error at or near "${tokens[i]!.text}"`, undefined, position);
  }
}

/** The WHEN clauses, checked as PostgreSQL 15 parses and analyses them. */
function whenClauses(nodes: readonly Node[] | undefined): MergeWhenClause[] {
  const clauses = (nodes ?? []).map((n) => ('MergeWhenClause' in n ? n.MergeWhenClause : {}));
  const unconditional = { matched: false, notMatched: false };
  for (const c of clauses) {
    const kind = c.matchKind === 'MERGE_WHEN_MATCHED' ? 'matched' : 'notMatched';
    if (unconditional[kind]) throw new SqlError(SqlState.syntaxError, 'unreachable WHEN clause specified after unconditional WHEN clause');
    if (c.condition === undefined) unconditional[kind] = true;
  }
  return clauses;
}

/** The scope WHEN NOT MATCHED clauses bind in: the source's relations at their places in the row, the target out of reach. */
function sourceScope(ctx: BindContext, scope: Scope): Scope {
  const s = new Scope(ctx, null);
  const rels = new Map<Rel, Rel>();
  for (const r of scope.rels) rels.set(r, s.addRel(r.alias, r.columns, r.table));
  for (const i of scope.usingHidden) s.usingHidden.add(i);
  for (const r of scope.nullableRels) s.nullableRels.add(rels.get(r) ?? r);
  return s;
}

/** Binds `e` as a condition of `what` with aggregates refused (PostgreSQL's "not allowed in ..."). */
function bindCondition(scope: Scope, e: Node, forbidden: string, what: string): Expr {
  scope.aggForbidden = forbidden;
  try {
    return toBool(scope, bindExpr(scope, e), what);
  } finally {
    scope.aggForbidden = null;
  }
}

function condition(scope: Scope, c: MergeWhenClause): Expr | null {
  return c.condition === undefined ? null : bindCondition(scope, c.condition, 'MERGE WHEN conditions', 'WHEN');
}

function matchedAction(scope: Scope, table: TableDef, c: MergeWhenClause): MergeAction {
  const when = condition(scope, c);
  if (c.commandType === 'CMD_DELETE') return { k: 'delete', matched: true, when };
  if (c.commandType === 'CMD_NOTHING') return { k: 'nothing', matched: true, when };
  if (c.commandType !== 'CMD_UPDATE') throw unsupported(`MERGE WHEN MATCHED action ${String(c.commandType)}`);
  scope.aggForbidden = 'UPDATE';
  try {
    return { k: 'update', matched: true, when, set: bindAssignments(scope, table, c.targetList ?? []) };
  } finally {
    scope.aggForbidden = null;
  }
}

/** INSERT's target columns and values, as INSERT ... VALUES binds one row of them (lower-dml.ts). */
function insertAction(scope: Scope, table: TableDef, c: MergeWhenClause, when: Expr | null): MergeAction {
  const targets = (c.targetList ?? []).map((t) => ('ResTarget' in t ? t.ResTarget : {}));
  if (targets.some((t) => (t.indirection ?? []).length > 0)) throw unsupported('INSERT into a subscript or field of a column');
  const explicit = targets.length > 0;
  let columns = explicit
    ? targets.map((t) => locate(t.location, [SqlState.undefinedColumn], () => columnIndex(table, t.name ?? '')))
    : table.columns.flatMap((col, i) => (col.hidden ? [] : [i]));
  const dup = columns.find((col, i) => columns.indexOf(col) !== i);
  if (dup !== undefined) throw new SqlError(SqlState.duplicateColumn, `column "${table.columns[dup]?.name ?? ''}" specified more than once`);
  // INSERT DEFAULT VALUES: every column takes its default.
  const nodes = c.values ?? [];
  if (c.values === undefined) columns = [];
  // Without a column list, fewer values fill the leading columns.
  if (!explicit && nodes.length < columns.length) columns = columns.slice(0, nodes.length);
  if (nodes.length > columns.length) throw new SqlError(SqlState.syntaxError, 'INSERT has more expressions than target columns');
  if (nodes.length < columns.length) throw new SqlError(SqlState.syntaxError, 'INSERT has more target columns than expressions');
  scope.aggForbidden = 'VALUES';
  try {
    const values = nodes.map((n, i): Expr => {
      const col = table.columns[columns[i]!]!;
      if ('SetToDefault' in n) return col.default ?? { k: 'const', v: null, t: col.type };
      return identityValue(c.override, col) ?? coerceAssign(scope.ctx, bindExpr(scope, n), col.type, col.name, col.typmod);
    });
    return { k: 'insert', matched: false, when, table, columns, values };
  } finally {
    scope.aggForbidden = null;
  }
}

function notMatchedAction(scope: Scope, table: TableDef, c: MergeWhenClause): MergeAction {
  const when = condition(scope, c);
  if (c.commandType === 'CMD_NOTHING') return { k: 'nothing', matched: false, when };
  if (c.commandType !== 'CMD_INSERT') throw unsupported(`MERGE WHEN NOT MATCHED action ${String(c.commandType)}`);
  return insertAction(scope, table, c, when);
}

export function lowerMerge(ctx: BindContext, s: MergeStmt): DmlResult {
  if (s.withClause !== undefined) {
    const { withClause, ...rest } = s;
    return bindWith(ctx, withClause, null, () => lowerMerge(ctx, rest)).value;
  }
  if (s.returningClause !== undefined) throw syntaxErrorAt('RETURNING');
  const clauses = whenClauses(s.mergeWhenClauses);
  const rv = s.relation ?? {};
  const table = mergeTarget(ctx, rv);
  const alias = rv.alias?.aliasname ?? table.name;
  const scope = new Scope(ctx, null);
  const saved = ctx.hiddenTarget;
  ctx.hiddenTarget = { alias, table };
  let bound: ReturnType<typeof bindFrom>;
  try {
    bound = bindFrom(scope, s.sourceRelation === undefined ? [] : [s.sourceRelation]);
  } finally {
    ctx.hiddenTarget = saved;
  }
  if (scope.rels.some((r) => r.alias === alias)) {
    throw new SqlError('42712', `name "${alias}" specified more than once`, 'The name is used both as MERGE target table and data source.');
  }
  const sourceOnly = sourceScope(ctx, scope);
  const target = scope.addRel(alias, table.columns.map((c) => ({ name: c.name, type: c.type, typmod: c.typmod, hidden: c.hidden })), table);
  const outer = clauses.some((c) => c.matchKind !== 'MERGE_WHEN_MATCHED');
  if (outer) scope.nullableRels.add(target);
  const on = s.joinCondition === undefined ? [] : conjuncts(bindCondition(scope, s.joinCondition, 'JOIN conditions', 'JOIN/ON'));
  const actions: MergeAction[] = [];
  for (const c of clauses) {
    if (c.matchKind === 'MERGE_WHEN_MATCHED') actions.push(matchedAction(scope, table, c));
    else {
      sourceOnly.ctx.hiddenTarget = { alias, table };
      try {
        actions.push(notMatchedAction(sourceOnly, table, c));
      } finally {
        sourceOnly.ctx.hiddenTarget = saved;
      }
    }
  }
  const items: FromItem[] = [...bound.items, { rel: target, source: { k: 'table', table }, join: outer ? 'left' : 'inner', on: outer ? on : [], lateral: null }];
  const source = planFrom(scope, items, outer ? bound.where : [...bound.where, ...on], 'update');
  const columns: OutputColumn[] = scope.rels.flatMap((r) => r.columns.map((c) => ({ name: c.name, type: c.type, typmod: c.typmod })));
  return {
    plan: { k: 'merge', table, fks: foreignKeyGraph(ctx.catalog), source, from: { targetAt: target.offset, columns }, actions, returning: null },
    columns: [],
  };
}
