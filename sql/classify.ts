// Statement classes the client needs to pick a read path (DESIGN §5, PROTOCOL §4.1-4.2): a point read is a
// query whose only data access is one scan pinning the whole primary key (extra conjuncts allowed, no
// joins or subqueries); every other query is a range read; DML is a write whose reconnaissance read
// (UPDATE/DELETE) is itself a point or range read. Utility statements need no reads.

import type { Statement } from './lower-statement.ts';
import type { Plan, ScanNode } from './plan.ts';
import { someExpr, type Expr } from './expr.ts';

export type ReadKind = 'none' | 'point' | 'range';

export type StatementClass =
  | { readonly k: 'read'; readonly read: Exclude<ReadKind, 'none'>; readonly scan: ScanNode | null }
  | { readonly k: 'write'; readonly op: 'insert' | 'update' | 'delete' | 'merge'; readonly read: ReadKind; readonly scan: ScanNode | null }
  | { readonly k: 'utility' };

const hasSubquery = (e: Expr | null): boolean => e !== null && someExpr(e, (x) => x.k === 'subquery');

/** The single scan of a plan made only of projections, filters, limits and sorts over one scan. */
export function soleScan(p: Plan): ScanNode | null {
  switch (p.k) {
    case 'scan':
      return hasSubquery(p.filter) ? null : p;
    case 'project':
      return p.exprs.some(hasSubquery) ? null : soleScan(p.input);
    case 'filter':
      return hasSubquery(p.pred) ? null : soleScan(p.input);
    case 'limit':
    case 'sort':
    case 'trim':
      return soleScan(p.input);
    default:
      return null;
  }
}

function readOf(p: Plan): { read: Exclude<ReadKind, 'none'>; scan: ScanNode | null } {
  const scan = soleScan(p);
  return { read: scan !== null && scan.pinsPk ? 'point' : 'range', scan };
}

export function classify(stmt: Statement): StatementClass {
  switch (stmt.k) {
    case 'query':
      return { k: 'read', ...readOf(stmt.plan) };
    case 'dml':
      switch (stmt.plan.k) {
        case 'insert': {
          const fromQuery = stmt.plan.source.k !== 'values';
          return { k: 'write', op: 'insert', read: fromQuery ? readOf(stmt.plan.source).read : 'none', scan: null };
        }
        case 'update':
          return { k: 'write', op: 'update', ...readOf(stmt.plan.source) };
        case 'delete':
          return { k: 'write', op: 'delete', ...readOf(stmt.plan.source) };
        case 'merge':
          return { k: 'write', op: 'merge', ...readOf(stmt.plan.source) };
      }
      break;
    case 'ddl':
    case 'txn':
    case 'savepoint':
    case 'set':
    case 'show':
    case 'constraints':
    case 'noop':
      return { k: 'utility' };
  }
  return { k: 'utility' };
}
