// Turns one parsed statement into a `Statement`: a query plan, a DML plan, or a utility action the
// session performs itself (transaction control, DDL, SET/SHOW, accepted no-ops such as VACUUM). Binding
// fills in the parameter types the prepared statement reports to drivers (Describe).

import type { EnumTypeDef } from './enum-types.ts';
import type { Node } from 'libpg-query';
import type { DmlPlan, OutputColumn, Plan } from './plan.ts';
import { BindContext } from './bind-context.ts';
import type { Catalog } from './catalog.ts';
import { bindQuery } from './lower-select.ts';
import { lowerDelete, lowerInsert, lowerUpdate } from './lower-dml.ts';
import { lowerMerge } from './lower-merge.ts';
import { nodeKind, strOf, unsupported } from './lower-expr.ts';
import type { SqlType } from './types.ts';
import { SqlError, positioned } from './errors.ts';
import { explainLines, explainOptions, explainedQuery } from './explain.ts';
import { rewriteViewDml } from './view-dml.ts';
import { lowerRefresh } from './matviews.ts';
import { checkQualifiedNames, createSchema, skippedAlter } from './qualified-names.ts';
import { checkTableOptions, maintenance } from './ddl-constraints.ts';
import { setValueText } from './set-args.ts';

export type TxnOp = 'begin' | 'commit' | 'rollback';
export type SavepointOp = 'savepoint' | 'release' | 'rollback-to';

export type Statement =
  | { readonly k: 'query'; readonly plan: Plan; readonly columns: readonly OutputColumn[] }
  /** `tag`: the command tag when not the plan's own (REFRESH MATERIALIZED VIEW). */
  | { readonly k: 'dml'; readonly plan: DmlPlan; readonly columns: readonly OutputColumn[]; readonly tag?: string }
  | { readonly k: 'ddl'; readonly node: Node; readonly tag: string }
  | { readonly k: 'txn'; readonly op: TxnOp }
  | { readonly k: 'savepoint'; readonly op: SavepointOp; readonly name: string }
  | { readonly k: 'set'; readonly name: string; readonly value: string | null; readonly local: boolean; readonly tag: 'SET' | 'RESET' }
  | { readonly k: 'show'; readonly name: string }
  /** SET CONSTRAINTS: `names` null for ALL (sql/foreign-key-deferred.ts). */
  | { readonly k: 'constraints'; readonly names: readonly { readonly schema: string | null; readonly name: string }[] | null; readonly deferred: boolean }
  | { readonly k: 'noop'; readonly tag: string; readonly notice?: string };

export interface LoweredStatement {
  readonly stmt: Statement;
  readonly paramTypes: readonly SqlType[];
  /** The enum type of each 'enum' parameter binding could tell (its text is read as that enum's label). */
  readonly paramEnums?: readonly (EnumTypeDef | undefined)[];
  /**
   * The statement calls a function only the client can answer (current_user, current_database(),
   * gen_random_uuid()): on a cluster it runs at the client over rows it reads, never on replicas.
   */
  readonly atClient: boolean;
}

const ddlTags: Record<string, string> = {
  CreateStmt: 'CREATE TABLE', IndexStmt: 'CREATE INDEX', DropStmt: 'DROP', AlterTableStmt: 'ALTER TABLE', RenameStmt: 'ALTER TABLE',
  TruncateStmt: 'TRUNCATE TABLE', ViewStmt: 'CREATE VIEW',
  CreateSeqStmt: 'CREATE SEQUENCE', AlterSeqStmt: 'ALTER SEQUENCE', CommentStmt: 'COMMENT', CreateExtensionStmt: 'CREATE EXTENSION',
  CreateEnumStmt: 'CREATE TYPE', AlterEnumStmt: 'ALTER TYPE', AlterOwnerStmt: 'ALTER TYPE',
  CreateRoleStmt: 'CREATE ROLE', AlterRoleStmt: 'ALTER ROLE', DropRoleStmt: 'DROP ROLE', GrantRoleStmt: 'GRANT ROLE', GrantStmt: 'GRANT', AlterDefaultPrivilegesStmt: 'ALTER DEFAULT PRIVILEGES',
};

/** `text`: the statement's text, to turn the location of an error into PostgreSQL's position. */
export function lowerStatement(catalog: Catalog, node: Node, paramHints: readonly SqlType[] = [], text?: string): LoweredStatement {
  const ctx = new BindContext(catalog, paramHints);
  let stmt: Statement;
  try {
    // A qualified name needs a '.' in the text: most statements skip the walk.
    const skipped = text === undefined || text.includes('.') ? skippedAlter(node) : null;
    if (skipped === null && (text === undefined || text.includes('.'))) checkQualifiedNames(node);
    stmt = skipped === null ? lower(ctx, node) : { k: 'noop', ...skipped };
  } catch (e) {
    throw e instanceof SqlError && text !== undefined ? positioned(e, text) : e;
  }
  const paramTypes = ctx.paramTypes.map((t) => (t === 'unknown' ? 'text' : t));
  return { stmt, paramTypes, atClient: ctx.atClient, ...(ctx.paramEnums.length > 0 ? { paramEnums: ctx.paramEnums } : {}) };
}

function lower(ctx: BindContext, node: Node): Statement {
  // A write through a view is the same write on its base relation (sql/view-dml.ts).
  const through = rewriteViewDml(ctx.catalog, node);
  if (through !== null) return lower(ctx, through);
  const kind = nodeKind(node);
  if ('SelectStmt' in node) {
    const q = bindQuery(ctx, node, null);
    return { k: 'query', plan: q.plan, columns: q.columns };
  }
  if ('InsertStmt' in node) {
    const d = lowerInsert(ctx, node.InsertStmt);
    return { k: 'dml', plan: d.plan, columns: d.columns };
  }
  if ('UpdateStmt' in node) {
    const d = lowerUpdate(ctx, node.UpdateStmt);
    return { k: 'dml', plan: d.plan, columns: d.columns };
  }
  if ('DeleteStmt' in node) {
    const d = lowerDelete(ctx, node.DeleteStmt);
    return { k: 'dml', plan: d.plan, columns: d.columns };
  }
  if ('MergeStmt' in node) {
    const d = lowerMerge(ctx, node.MergeStmt);
    return { k: 'dml', plan: d.plan, columns: d.columns };
  }
  const ddl = ddlTags[kind];
  // Storage parameters are checked when a statement is taken, not when the catalog log replays it.
  if ('CreateStmt' in node) checkTableOptions(node.CreateStmt.options, false);
  if (ddl !== undefined) return { k: 'ddl', node, tag: ddl };
  if ('TransactionStmt' in node) {
    switch (node.TransactionStmt.kind) {
      case 'TRANS_STMT_BEGIN':
      case 'TRANS_STMT_START':
        return { k: 'txn', op: 'begin' };
      case 'TRANS_STMT_COMMIT':
        return { k: 'txn', op: 'commit' };
      case 'TRANS_STMT_ROLLBACK':
        return { k: 'txn', op: 'rollback' };
      case 'TRANS_STMT_SAVEPOINT':
        return { k: 'savepoint', op: 'savepoint', name: node.TransactionStmt.savepoint_name ?? '' };
      case 'TRANS_STMT_RELEASE':
        return { k: 'savepoint', op: 'release', name: node.TransactionStmt.savepoint_name ?? '' };
      case 'TRANS_STMT_ROLLBACK_TO':
        return { k: 'savepoint', op: 'rollback-to', name: node.TransactionStmt.savepoint_name ?? '' };
      default:
        throw unsupported(`transaction command ${String(node.TransactionStmt.kind).replace('TRANS_STMT_', '')}`);
    }
  }
  if ('VariableSetStmt' in node) {
    const v = node.VariableSetStmt;
    const reset = v.kind === 'VAR_RESET' || v.kind === 'VAR_RESET_ALL' || v.kind === 'VAR_SET_DEFAULT';
    return { k: 'set', name: (v.name ?? '').toLowerCase(), value: reset ? null : setValueText(v.args ?? []), local: v.is_local === true, tag: v.kind === 'VAR_RESET' || v.kind === 'VAR_RESET_ALL' ? 'RESET' : 'SET' };
  }
  if ('VariableShowStmt' in node) return { k: 'show', name: (node.VariableShowStmt.name ?? '').toLowerCase() };
  if ('ExplainStmt' in node) {
    const opts = explainOptions(node.ExplainStmt);
    if (opts.analyze) throw unsupported('EXPLAIN ANALYZE outside the gateway');
    const lines = explainLines(lower(ctx, explainedQuery(node.ExplainStmt)), opts);
    return { k: 'query', plan: { k: 'values', rows: lines.map((l) => [{ k: 'const', v: l, t: 'text' }]) }, columns: [{ name: 'QUERY PLAN', type: 'text', typmod: -1 }] };
  }
  if ('ConstraintsSetStmt' in node) {
    const c = node.ConstraintsSetStmt;
    const names = c.constraints === undefined || c.constraints.length === 0 ? null
      : c.constraints.map((n) => ('RangeVar' in n ? { schema: n.RangeVar.schemaname ?? null, name: n.RangeVar.relname ?? '' } : { schema: null, name: '' }));
    return { k: 'constraints', names, deferred: c.deferred === true };
  }
  if ('VacuumStmt' in node) return { k: 'noop', tag: node.VacuumStmt.is_vacuumcmd === false ? 'ANALYZE' : 'VACUUM' };
  if ('CheckPointStmt' in node) return { k: 'noop', tag: 'CHECKPOINT' };
  if ('ReindexStmt' in node || 'ClusterStmt' in node) return maintenance(ctx.catalog, node);
  if ('CreateSchemaStmt' in node) return createSchema(node.CreateSchemaStmt);
  if ('LockStmt' in node) return { k: 'noop', tag: 'LOCK TABLE' };
  if ('DiscardStmt' in node) return { k: 'noop', tag: 'DISCARD ALL' };
  if ('DeallocateStmt' in node) return { k: 'noop', tag: 'DEALLOCATE' };
  if ('CreateTableAsStmt' in node && node.CreateTableAsStmt.objtype === 'OBJECT_MATVIEW') return { k: 'ddl', node, tag: 'CREATE MATERIALIZED VIEW' };
  if ('RefreshMatViewStmt' in node) return lowerRefresh(ctx, node.RefreshMatViewStmt, node);
  throw unsupported(`statement ${kind.replace(/Stmt$/, '')}`);
}
