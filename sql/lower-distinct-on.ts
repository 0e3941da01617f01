// DISTINCT ON (PostgreSQL's transformDistinctOnClause): which rows are "first" is decided by ORDER BY,
// so the DISTINCT ON expressions must be the leading ORDER BY items (in any order among themselves);
// the result is sorted by ORDER BY followed by any DISTINCT ON expression it does not name, and keeps
// the first row of each DISTINCT ON key.

import type { Expr } from './expr.ts';
import { exprEquals } from './expr.ts';
import { SqlError, SqlState } from './errors.ts';

/** A DISTINCT ON or ORDER BY item resolved against the select list (`col` -1: not in it). */
export interface TargetItem {
  readonly e: Expr;
  readonly col: number;
  /** Where the item is in the statement text (the mismatch error points at the DISTINCT ON item). */
  readonly location?: number | undefined;
}

/**
 * The DISTINCT ON expressions ORDER BY does not cover (sorted after it, ascending), checking that the
 * ORDER BY items naming a DISTINCT ON expression come before any that does not.
 */
export function distinctOnExtraKeys(sort: readonly TargetItem[], on: readonly TargetItem[]): TargetItem[] {
  const onItem = (e: Expr): TargetItem | undefined => on.find((d) => exprEquals(d.e, e));
  const mismatch = (d: TargetItem | undefined): SqlError => new SqlError(SqlState.invalidColumnReference,
    'SELECT DISTINCT ON expressions must match initial ORDER BY expressions', undefined, undefined, undefined, d?.location);
  let skipped = false;
  const covered: Expr[] = [];
  for (const s of sort) {
    if (onItem(s.e) === undefined) {
      skipped = true;
      continue;
    }
    if (skipped) throw mismatch(onItem(s.e));
    covered.push(s.e);
  }
  const extra: TargetItem[] = [];
  for (const d of on) {
    if (covered.some((c) => exprEquals(c, d.e)) || extra.some((x) => exprEquals(x.e, d.e))) continue;
    if (skipped) throw mismatch(d);
    extra.push(d);
  }
  return extra;
}
