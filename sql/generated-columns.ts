// Stored generated columns (`col type GENERATED ALWAYS AS (expr) STORED`), as PostgreSQL 15 has them:
// the expression is bound once over the table's own columns, checked the way PostgreSQL checks it
// (no other generated column, no subquery, aggregate, window or set-returning function, only immutable
// functions and casts), and evaluated into every row an INSERT, UPDATE, COPY, ON CONFLICT DO UPDATE or
// foreign key action writes (dml.ts checkRow), before NOT NULL and CHECK. A client of a cluster computes
// the rows it writes with the same code, so every replica stores the value the client computed.
// Immutability is judged as for index expressions (immutability.ts).

import { isImmutable } from './immutability.ts';
import type { Constraint, Node } from 'libpg-query';
import type { Catalog, ColumnDef, TableDef } from './catalog.ts';
import { BindContext, Scope } from './bind-context.ts';
import { bindExpr } from './lower-expr.ts';
import { castsOnAssignment, coerceAssign } from './coerce.ts';
import { SqlError, SqlState } from './errors.ts';
import { findExpr, someExpr, type Expr } from './expr.ts';
import { evalExpr, type Env } from './eval.ts';
import { checkSource } from './check-text.ts';
import { typeDisplayName, type Row } from './types.ts';

/** A stored generated column's expression (ColumnDef.generated). */
export interface GeneratedDef {
  /** Bound over the table row, coerced to the column's type. */
  readonly expr: Expr;
  /** What pg_get_expr prints (sql/check-text.ts); absent for a form it does not cover. */
  readonly source?: object;
}

const GENERATION = 'column generation expressions';

/**
 * Binds column `at`'s generation expression over `columns` (the table's, the column itself included)
 * with PostgreSQL's checks and errors: 42P17 for another generated column or a function or cast that is
 * not immutable, 0A000 for a subquery or set-returning function, 42803 aggregates, 42P20 windows.
 */
export function bindGenerated(catalog: Catalog, table: string, columns: readonly ColumnDef[], at: number, raw: Node, generatedAt: ReadonlySet<number> = new Set()): GeneratedDef {
  const col = columns[at]!;
  const scope = new Scope(new BindContext(catalog), null);
  scope.addRel(table, columns.map((c) => ({ name: c.name, type: c.type, typmod: c.typmod, hidden: c.hidden })), null);
  scope.aggForbidden = GENERATION;
  if (wholeRow(raw, table, columns)) {
    throw new SqlError('42P17', 'cannot use whole-row variable in column generation expression', 'This would cause the generated column to depend on its own value.');
  }
  const bound = bindExpr(scope, raw);
  if (someExpr(bound, (x) => x.k === 'subquery')) throw new SqlError(SqlState.featureNotSupported, 'cannot use subquery in column generation expression');
  const ref = findExpr(bound, (x) => x.k === 'col' && (x.i === at || generatedAt.has(x.i) || columns[x.i]?.generated !== undefined));
  if (ref !== undefined && ref.k === 'col') {
    throw new SqlError('42P17', `cannot use generated column "${columns[ref.i]?.name ?? ''}" in column generation expression`, 'A generated column cannot reference another generated column.');
  }
  if (!isImmutable(bound)) throw new SqlError('42P17', 'generation expression is not immutable');
  if (bound.t !== col.type && bound.t !== 'unknown' && !castsOnAssignment(bound.t, col.type)) {
    throw new SqlError(SqlState.datatypeMismatch, `column "${col.name}" is of type ${typeDisplayName[col.type]} but default expression is of type ${typeDisplayName[bound.t]}`,
      undefined, undefined, 'You will need to rewrite or cast the expression.');
  }
  const expr = coerceAssign(scope.ctx, bound, col.type, col.name);
  const source = checkSource(scope, raw);
  return source === null ? { expr } : { expr, source };
}

/** Whether the parse tree `n` refers to the whole row of `table` (`t`, `t.*`, `*`) where no column has the name. */
function wholeRow(n: unknown, table: string, columns: readonly ColumnDef[]): boolean {
  if (typeof n !== 'object' || n === null) return false;
  if (Array.isArray(n)) return n.some((x) => wholeRow(x, table, columns));
  const ref = (n as { ColumnRef?: { fields?: readonly Node[] } }).ColumnRef;
  if (ref !== undefined) {
    const fields = ref.fields ?? [];
    if (fields.some((f) => 'A_Star' in f)) return true;
    const only = fields.length === 1 && fields[0] !== undefined && 'String' in fields[0] ? fields[0].String.sval : undefined;
    return only === table && !columns.some((c) => c.name === only && !c.hidden);
  }
  return Object.values(n).some((x) => wholeRow(x, table, columns));
}

/**
 * A column's GENERATED clause against its other clauses, with PostgreSQL's 42601s: only ALWAYS, and
 * neither a DEFAULT (SERIAL's included) nor an identity beside it.
 */
export function checkGenerationClause(k: Constraint, column: string, table: string, hasDefault: boolean, identity: boolean): void {
  const refuse = (message: string): SqlError => new SqlError(SqlState.syntaxError, message, undefined, undefined, undefined, k.location);
  if (k.generated_when !== 'a') throw refuse('for a generated column, GENERATED ALWAYS must be specified');
  if (hasDefault) throw refuse(`both default and generation expression specified for column "${column}" of table "${table}"`);
  if (identity) throw refuse(`both identity and generation expression specified for column "${column}" of table "${table}"`);
}

/** Every stored generated column of `row` computed from its other columns (PostgreSQL's ExecComputeStoredGenerated). */
export function computeGenerated(table: TableDef, row: Row, env: Env): void {
  for (let i = 0; i < table.columns.length; i++) {
    const g = table.columns[i]?.generated;
    if (g !== undefined) row[i] = evalExpr(g.expr, row, env);
  }
}

/** Whether `table` has a stored generated column. */
export function hasGenerated(table: TableDef): boolean {
  return table.columns.some((c) => c.generated !== undefined);
}

/** The generated columns whose expressions read column `i` of `table`. */
export function generatedUsing(table: TableDef, i: number): number[] {
  const out: number[] = [];
  table.columns.forEach((c, j) => {
    if (c.generated !== undefined && someExpr(c.generated.expr, (x) => x.k === 'col' && x.i === i)) out.push(j);
  });
  return out;
}
