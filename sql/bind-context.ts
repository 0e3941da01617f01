// State shared while one statement is bound: the catalog, the parameter types inferred so far, and the
// allocator of nesting levels (each query scope and each index-lookup join gets its own level, so outer
// references in nested plans never collide at run time).

import type { WindowDef } from 'libpg-query';
import type { Catalog, TableDef } from './catalog.ts';
import { SqlError, SqlState } from './errors.ts';
import type { SqlType } from './types.ts';
import type { EnumTypeDef } from './enum-types.ts';
import type { Expr } from './expr.ts';
import type { AggSpec, OutputColumn, Plan, SetFunctionPlan, WindowCall } from './plan.ts';

export class BindContext {
  readonly paramTypes: SqlType[];
  /** The enum type of each parameter typed 'enum' (lower-enum.ts); its text is read as that enum's label. */
  readonly paramEnums: (EnumTypeDef | undefined)[] = [];
  private levels = 0;
  /** Common table expressions visible while binding, innermost last. */
  readonly ctes: Map<string, { plan: Plan; columns: readonly OutputColumn[] }>[] = [];
  /** Set when the statement calls a function only the client can answer (the session's user, random bytes). */
  atClient = false;
  /** Views being bound (a view reached again inside itself is 42P17; sql/views.ts). */
  readonly viewsBinding = new Set<string>();
  /** Views bound so far by this statement (bounded: views joining a view twice, nested, grow exponentially). */
  viewsBound = 0;
  /** When set (CREATE VIEW), each `*` target bound is recorded with the (relation, column) pairs it stood for. */
  starExpansions: Map<object, (readonly [string, string])[]> | null = null;
  /**
   * While an UPDATE's FROM or a DELETE's USING list binds: its target, which is in the statement's
   * range table but cannot be referenced there (PostgreSQL's errors name it, lower-dml.ts).
   */
  hiddenTarget: { readonly alias: string; readonly table: TableDef } | null = null;
  constructor(
    readonly catalog: Catalog,
    paramTypes: readonly SqlType[] = [],
  ) {
    this.paramTypes = [...paramTypes];
  }
  allocLevel(): number {
    return this.levels++;
  }
  noteParam(i: number): void {
    while (this.paramTypes.length <= i) this.paramTypes.push('unknown');
  }
}

export interface ScopeColumn {
  readonly name: string;
  readonly type: SqlType;
  readonly typmod: number;
  readonly hidden: boolean;
}

export interface Rel {
  readonly alias: string;
  readonly columns: readonly ScopeColumn[];
  /** First column of this relation in the FROM row. */
  readonly offset: number;
  readonly table: TableDef | null;
}

/**
 * Name resolution for one query level. Columns resolve to positions in the FROM row (all relations side
 * by side, in FROM order); names not found here resolve in the parent scope as outer references.
 */
export class Scope {
  readonly rels: Rel[] = [];
  width = 0;
  /** Aggregates found while binding this level's select list, HAVING and ORDER BY. */
  aggs: AggSpec[] | null = null;
  /** Set when binding WHERE, GROUP BY, ON ... where aggregates are not allowed. */
  aggForbidden: string | null = null;
  /** FROM-row positions of right-hand USING columns: merged into the left one for unqualified names and `*`. */
  readonly usingHidden = new Set<number>();
  /** Set when a reference to an enclosing scope was bound (makes a subquery correlated). */
  correlated = false;
  /** While the select list binds: its set-returning functions (lower-srf.ts); null elsewhere. */
  srfs: SetFunctionPlan[] | null = null;
  /** While the select list and ORDER BY bind: their window function calls (lower-window.ts); null elsewhere. */
  windows: WindowCall[] | null = null;
  /** Where window functions are not allowed though aggregates are (HAVING, window definitions). */
  windowBan: string | null = null;
  /** The SELECT's WINDOW clause by name. */
  windowDefs: ReadonlyMap<string, WindowDef> = new Map();
  readonly level: number;
  /** While the arguments of a function taking whole rows bind (lower-row.ts). */
  rowArgs = false;
  /** The scope a LATERAL item binds in (lower-from.ts). */
  lateral = false;
  /** Relations on the nullable side of an outer join (their whole-row reference may be NULL). */
  readonly nullableRels = new Set<Rel>();
  constructor(
    readonly ctx: BindContext,
    readonly parent: Scope | null,
  ) {
    this.level = ctx.allocLevel();
  }

  addRel(alias: string, columns: readonly ScopeColumn[], table: TableDef | null): Rel {
    const rel: Rel = { alias, columns, offset: this.width, table };
    this.rels.push(rel);
    this.width += columns.length;
    return rel;
  }
}

export type GroupingInfo = {
  readonly groups: readonly Expr[];
};

/**
 * PostgreSQL's error for a column reference that names a relation it cannot see, or null: the target
 * of an UPDATE ... FROM or DELETE ... USING from inside its FROM list (42P10 from a LATERAL item, else
 * 42P01, or 42703 with a hint for a bare column of the target), or a table referred to by its name
 * where the query gave it an alias (42P01 with a hint).
 */
export function unreachableReference(scope: Scope, relName: string | undefined, col: string): SqlError | null {
  const target = scope.ctx.hiddenTarget;
  let lateral = false;
  for (let s: Scope | null = scope; s !== null; s = s.parent) lateral ||= s.lateral;
  if (target !== null) {
    const named = relName === target.alias;
    const bare = relName === undefined && target.table.columns.some((c) => !c.hidden && c.name === col);
    const entryHint = `There is an entry for table "${target.alias}", but it cannot be referenced from this part of the query.`;
    if ((named || bare) && lateral) {
      return new SqlError(SqlState.invalidColumnReference, `invalid reference to FROM-clause entry for table "${target.alias}"`, undefined, undefined, entryHint);
    }
    if (named) return new SqlError(SqlState.undefinedTable, `invalid reference to FROM-clause entry for table "${target.alias}"`, undefined, undefined, entryHint);
    if (bare) {
      return new SqlError(SqlState.undefinedColumn, `column "${col}" does not exist`, undefined, undefined,
        `There is a column named "${col}" in table "${target.alias}", but it cannot be referenced from this part of the query.`);
    }
  }
  if (relName === undefined) return null;
  for (let s: Scope | null = scope; s !== null; s = s.parent) {
    const rel = s.rels.find((r) => r.table !== null && r.table.name === relName && r.alias !== relName);
    if (rel !== undefined) {
      return new SqlError(SqlState.undefinedTable, `invalid reference to FROM-clause entry for table "${relName}"`, undefined, undefined,
        `Perhaps you meant to reference the table alias "${rel.alias}".`);
    }
  }
  return null;
}
