// The typed logical/physical plan the lowering produces and the executor runs. Plans are immutable and
// cached per statement text and per prepared statement; parameter values arrive at execution. Every
// node yields rows as arrays of values; a node's output layout is fixed at plan time.

import type { JsonRowFunction } from './json-ops.ts';
import type { ForeignKeyGraph } from './foreign-key-checks.ts';
import type { CmpOp, Expr } from './expr.ts';
import type { IndexDef, TableDef } from './catalog.ts';
import type { ScanMode } from './row-source.ts';
import type { SqlType } from './types.ts';

export interface KeyBound {
  readonly e: Expr;
  readonly inclusive: boolean;
}

/**
 * A scan of one table through its primary key (index null) or a secondary index. The key range is an
 * equality prefix `eq` on the key's leading columns plus optional bounds on the next one; all are
 * evaluated at execution (they may use parameters and outer rows). `filter` is the whole predicate over
 * the table row (range conjuncts included); `residual` is what the executor still has to check per row
 * once the key range is applied, recorded with the range as the scan's predicate.
 */
export interface ScanNode {
  readonly k: 'scan';
  readonly table: TableDef;
  readonly index: IndexDef | null;
  readonly eq: readonly Expr[];
  readonly lo: KeyBound | null;
  readonly hi: KeyBound | null;
  readonly filter: Expr | null;
  readonly residual: Expr | null;
  /** The equality prefix covers the whole primary key (a point read). */
  readonly pinsPk: boolean;
  readonly mode: ScanMode;
  readonly reverse: boolean;
  /** Stop after this many matching rows (ORDER BY satisfied by the key order plus LIMIT). */
  readonly limit: Expr | null;
}

/** RIGHT and FULL joins run with a materialised right side and emit its unmatched rows at the end. */
export type JoinKind = 'inner' | 'left' | 'right' | 'full';

export interface SortKey {
  /** Column of the input row. */
  readonly col: number;
  readonly desc: boolean;
  readonly nullsFirst: boolean;
  readonly t: SqlType;
}

export type AggFn = 'count' | 'count_star' | 'sum' | 'avg' | 'min' | 'max' | 'bool_and' | 'bool_or' | 'string_agg' | 'array_agg'
  | 'json_agg' | 'jsonb_agg' | 'json_object_agg' | 'jsonb_object_agg' | OrderedSetFn | 'grouping';

/**
 * The ordered-set aggregates (ordered-set-agg.ts): `arg` is the WITHIN GROUP value, `arg2` the fraction;
 * the hypothetical-set ones have `direct` (the hypothetical row) and `order` (the rows' keys) instead.
 */
export type OrderedSetFn = 'percentile_cont' | 'percentile_disc' | 'mode' | HypotheticalFn;
export type HypotheticalFn = 'rank' | 'dense_rank' | 'percent_rank' | 'cume_dist';

export interface AggSpec {
  readonly fn: AggFn;
  readonly arg: Expr | null;
  /** string_agg's delimiter; json_object_agg's value. */
  readonly arg2: Expr | null;
  readonly distinct: boolean;
  readonly t: SqlType;
  readonly filter: Expr | null;
  /**
   * `string_agg(x, d ORDER BY ...)`, `array_agg(x ORDER BY ...)`: the order its inputs are fed in (the other aggregates do not depend
   * on it and ignore it). Null: input order.
   */
  readonly order: readonly AggOrderKey[] | null;
  /** GROUPING(...)'s arguments (lower-grouping.ts); its value comes from the grouping-set node. */
  readonly groupingArgs?: readonly Expr[];
  /** A hypothetical-set aggregate's direct arguments, one per `order` key. */
  readonly direct?: readonly Expr[];
}

export interface AggOrderKey {
  readonly e: Expr;
  readonly desc: boolean;
  readonly nullsFirst: boolean;
}

/** The window functions proper; an aggregate with OVER is a `WindowCall` with `agg` set instead. */
export type WindowFn = 'row_number' | 'rank' | 'dense_rank' | 'percent_rank' | 'cume_dist' | 'ntile' | 'lag' | 'lead'
  | 'first_value' | 'last_value' | 'nth_value';

/**
 * A frame bound. Offsets are constant expressions (parameters allowed): rows or peer groups for ROWS and
 * GROUPS; for RANGE, `lo`/`hi` compute the ORDER BY key minus/plus the offset over the one-column row [key]
 * (they carry PostgreSQL's in_range arithmetic, e.g. date + interval).
 */
export type FrameBound =
  | { readonly k: 'unbounded' }
  | { readonly k: 'current' }
  | { readonly k: 'preceding' | 'following'; readonly offset: Expr; readonly lo: Expr | null; readonly hi: Expr | null };

export interface WindowFrame {
  readonly mode: 'range' | 'rows' | 'groups';
  readonly start: FrameBound;
  readonly end: FrameBound;
  readonly exclude: 'none' | 'current' | 'group' | 'ties';
}

export interface WindowCall {
  readonly fn: WindowFn | null;
  /** An aggregate over the frame (no DISTINCT, no ORDER BY of its own; FILTER kept). */
  readonly agg: AggSpec | null;
  readonly args: readonly Expr[];
  readonly partition: readonly Expr[];
  readonly order: readonly AggOrderKey[];
  readonly frame: WindowFrame;
  readonly t: SqlType;
}

export type Plan =
  | ScanNode
  | { readonly k: 'one' }
  | { readonly k: 'values'; readonly rows: readonly (readonly Expr[])[] }
  | { readonly k: 'series'; readonly start: Expr; readonly stop: Expr; readonly step: Expr | null; readonly t: SqlType }
  /** unnest(array) in FROM: one row per element (of type `t`), none for a NULL array. */
  | { readonly k: 'unnest'; readonly arr: Expr; readonly t: SqlType }
  /** ROWS FROM (and unnest of several arrays): the functions' values side by side, NULL past a shorter one's end; then the row number WITH ORDINALITY. */
  | { readonly k: 'rowsfrom'; readonly fns: readonly SetFunctionPlan[]; readonly ordinality: boolean }
  /** jsonb_array_elements, json_each, ... in FROM (json-ops.ts): their rows, none for a NULL document. */
  | { readonly k: 'jsonrows'; readonly fn: JsonRowFunction; readonly doc: Expr }
  | { readonly k: 'filter'; readonly input: Plan; readonly pred: Expr }
  /**
   * Set-returning functions of a select list (PostgreSQL's ProjectSet): each input row followed by the
   * functions' values over it in lockstep, as many rows as the longest gives (the shorter padded with
   * NULL), none when all give none. Their arguments read the input row.
   */
  | { readonly k: 'projectset'; readonly input: Plan; readonly srfs: readonly SetFunctionPlan[] }
  | { readonly k: 'project'; readonly input: Plan; readonly exprs: readonly Expr[] }
  /**
   * Nested-loop join. With `level` set, the right side is re-run for each left row with that row at
   * `outer[level]` (an index-lookup join: its scan's key range uses the left row); otherwise the right
   * side runs once and is materialised.
   */
  | {
      readonly k: 'nljoin';
      readonly kind: JoinKind;
      readonly left: Plan;
      readonly right: Plan;
      readonly on: Expr | null;
      readonly rightWidth: number;
      readonly leftWidth: number;
      readonly level: number | null;
    }
  | {
      readonly k: 'hashjoin';
      readonly kind: JoinKind;
      readonly left: Plan;
      readonly right: Plan;
      readonly leftKeys: readonly Expr[];
      readonly rightKeys: readonly Expr[];
      readonly keyTypes: readonly SqlType[];
      readonly residual: Expr | null;
      readonly rightWidth: number;
      readonly leftWidth: number;
    }
  | { readonly k: 'agg'; readonly input: Plan; readonly groups: readonly Expr[]; readonly aggs: readonly AggSpec[] }
  /** Window functions (window.ts): each input row followed by the calls' values, rows in the last call's window order. */
  | { readonly k: 'window'; readonly input: Plan; readonly calls: readonly WindowCall[] }
  /**
   * GROUPING SETS (grouping-exec.ts): the aggregation once per set (indices into `groups`), each row
   * groups ++ aggregates with NULL for the groups not in its set; `grouping[i]` gives the group indices of
   * aggregate i when it is a GROUPING(...) call.
   */
  | {
      readonly k: 'groupsets';
      readonly input: Plan;
      readonly groups: readonly Expr[];
      readonly sets: readonly (readonly number[])[];
      readonly aggs: readonly AggSpec[];
      readonly grouping: readonly (readonly number[] | null)[];
    }
  | { readonly k: 'sort'; readonly input: Plan; readonly keys: readonly SortKey[] }
  | { readonly k: 'limit'; readonly input: Plan; readonly limit: Expr | null; readonly offset: Expr | null }
  /** Drops repeated rows; with `on` (DISTINCT ON), keeps the first row of each value of those columns (`types` theirs). */
  | { readonly k: 'distinct'; readonly input: Plan; readonly types: readonly SqlType[]; readonly on?: readonly number[] }
  | {
      readonly k: 'setop';
      readonly op: 'union' | 'intersect' | 'except';
      readonly all: boolean;
      readonly left: Plan;
      readonly right: Plan;
      readonly types: readonly SqlType[];
    }
  /** WITH RECURSIVE: `base` once, then `step` over the previous iteration's rows (worktable `slot`) until none are new. */
  | {
      readonly k: 'recursive';
      readonly base: Plan;
      readonly step: Plan;
      readonly slot: number;
      readonly all: boolean;
      readonly types: readonly SqlType[];
    }
  | { readonly k: 'worktable'; readonly slot: number }
  /** Keeps the first `width` columns (drops sort helper columns). */
  | { readonly k: 'trim'; readonly input: Plan; readonly width: number };

export interface OutputColumn {
  readonly name: string;
  readonly type: SqlType;
  readonly typmod: number;
}

export interface Assignment {
  readonly col: number;
  readonly e: Expr;
}

export type OnConflict =
  /** `target`: the arbiters' names (sql/index-keys.ts inferArbiters); null: every unique index and the primary key. */
  | { readonly k: 'nothing'; readonly target: readonly string[] | null }
  | {
      readonly k: 'update';
      readonly target: readonly string[];
      /** Evaluated over (existing row ++ excluded row). */
      readonly set: readonly Assignment[];
      readonly where: Expr | null;
    };

/**
 * DML plans expose what a client needs to run them over replicated data (DESIGN §5): the table, the
 * read part (`source` for UPDATE/DELETE yields full table rows: the reconnaissance read) and the
 * row-to-row function (`set`, applied with `computeUpdatedRow` in dml.ts).
 */
export interface InsertPlan {
  readonly k: 'insert';
  readonly table: TableDef;
  /** The catalog's foreign keys when it has any (foreign-key-checks.ts): the statement's checks and actions. */
  readonly fks: ForeignKeyGraph | null;
  /** Target column ordinals; `source` yields rows of exactly these. */
  readonly columns: readonly number[];
  readonly source: Plan;
  readonly onConflict: OnConflict | null;
  /** Over the new table row; null = no RETURNING. */
  readonly returning: readonly Expr[] | null;
  /** Rows of the table to delete first, yielding full rows (REFRESH MATERIALIZED VIEW: sql/matviews.ts); absent: none. */
  readonly clear?: Plan;
}

export interface UpdatePlan {
  readonly k: 'update';
  readonly table: TableDef;
  /** The catalog's foreign keys when it has any (foreign-key-checks.ts): the statement's checks and actions. */
  readonly fks: ForeignKeyGraph | null;
  readonly source: Plan;
  /** Over the source row (the old table row, or with `from` the joined row). */
  readonly set: readonly Assignment[];
  /** Over the source row with the new table row in place of the old. */
  readonly returning: readonly Expr[] | null;
  readonly from: DmlFrom | null;
}

/**
 * UPDATE ... FROM and DELETE ... USING (lower-dml-from.ts): the source joins the FROM items and then the
 * target, so each of its rows is the FROM items' columns followed by the target's full row. A target
 * row the join yields more than once is written once, with the first of its rows.
 */
export interface DmlFrom {
  /** Where the target row starts in a source row. */
  readonly targetAt: number;
  /** The source row's columns (what a reconnaissance read returns). */
  readonly columns: readonly OutputColumn[];
}

export interface DeletePlan {
  readonly k: 'delete';
  readonly table: TableDef;
  /** The catalog's foreign keys when it has any (foreign-key-checks.ts): the statement's checks and actions. */
  readonly fks: ForeignKeyGraph | null;
  readonly source: Plan;
  /** Over the source row. */
  readonly returning: readonly Expr[] | null;
  readonly from: DmlFrom | null;
}

/**
 * MERGE (lower-merge.ts): `source` joins the data source and then the target (a LEFT JOIN when a WHEN
 * NOT MATCHED clause exists, else an inner join), so each of its rows is the source's columns followed
 * by the target's full row, all NULL when no target row matched; it is the statement's reconnaissance
 * read on a cluster, as UPDATE ... FROM's join is. Each row runs the first of its kind's actions whose
 * condition holds (sql/dml.ts runMerge).
 */
export interface MergePlan {
  readonly k: 'merge';
  readonly table: TableDef;
  /** The catalog's foreign keys when it has any (foreign-key-checks.ts): the statement's checks and actions. */
  readonly fks: ForeignKeyGraph | null;
  readonly source: Plan;
  readonly from: DmlFrom;
  /** The WHEN clauses in order. */
  readonly actions: readonly MergeAction[];
  /** PostgreSQL 15's MERGE has no RETURNING. */
  readonly returning: null;
}

/** One WHEN clause: `when` (null: none) and every expression read the source row. */
export type MergeAction =
  | { readonly k: 'update'; readonly matched: true; readonly when: Expr | null; readonly set: readonly Assignment[] }
  | { readonly k: 'delete'; readonly matched: true; readonly when: Expr | null }
  | { readonly k: 'nothing'; readonly matched: boolean; readonly when: Expr | null }
  | {
      readonly k: 'insert';
      readonly matched: false;
      readonly when: Expr | null;
      readonly table: TableDef;
      /** Target column ordinals, one per value (as InsertPlan's). */
      readonly columns: readonly number[];
      readonly values: readonly Expr[];
    };

export type DmlPlan = InsertPlan | UpdatePlan | DeletePlan | MergePlan;

export type CmpOpAlias = CmpOp;

/** A set-returning function as a plan: unnest(array) or generate_series(start, stop[, step]). */
export type SetFunctionPlan = Extract<Plan, { readonly k: 'unnest' | 'series' }>;
