// DDL on indexes' and constraints' names and states, as migration tools send it: ALTER INDEX ...
// RENAME TO, ALTER TABLE ... RENAME CONSTRAINT, ALTER TABLE ... VALIDATE CONSTRAINT; and the storage
// settings Pesto has no use for but PostgreSQL validates (SET/RESET (fillfactor ...), SET STATISTICS,
// CLUSTER ON, SET WITHOUT CLUSTER), accepted with PostgreSQL's checks and no effect, as VACUUM is.
//
// A primary key's constraint and index are named after their table (`t_pkey`, as the catalog derives
// them), so they are not renamed on their own (0A000).

import type { AlterTableCmd, Node, RenameStmt } from 'libpg-query';
import type { Catalog, CheckDef, TableDef } from './catalog.ts';
import { hasIndexNamed, primaryKeyName } from './catalog.ts';
import type { DdlOutcome, DdlStorage } from './ddl-build.ts';
import { SqlError, SqlState } from './errors.ts';
import { evalExpr, makeEnv } from './eval.ts';
import { constraintNames } from './foreign-keys.ts';
import { strOf, unsupported } from './lower-expr.ts';

/** ALTER INDEX [IF EXISTS] name RENAME TO new; a UNIQUE constraint's index renames the constraint with it. */
export function renameIndex(catalog: Catalog, s: RenameStmt): DdlOutcome {
  const name = s.relation?.relname ?? '';
  const newName = s.newname ?? '';
  const found = catalog.findIndex(name);
  if (found === undefined) {
    if (catalog.relationExists(name)) throw new SqlError(SqlState.wrongObjectType, `"${name}" is not an index`);
    if (s.missing_ok === true) return { tag: 'ALTER INDEX', touched: [], notice: `relation "${name}" does not exist, skipping` };
    throw new SqlError(SqlState.undefinedTable, `relation "${name}" does not exist`);
  }
  if (newName === name) return { tag: 'ALTER INDEX', touched: [] };
  if (catalog.relationExists(newName)) throw new SqlError(SqlState.duplicateTable, `relation "${newName}" already exists`);
  const t = found.table;
  if (found.index.constraint && constraintNames(t).has(newName)) {
    throw new SqlError(SqlState.duplicateObject, `constraint "${newName}" for relation "${t.name}" already exists`);
  }
  catalog.put({ ...t, indexes: t.indexes.map((i) => (i.id === found.index.id ? { ...i, name: newName } : i)) });
  return { tag: 'ALTER INDEX', touched: [] };
}

/** ALTER TABLE t RENAME CONSTRAINT old TO new: a CHECK, a FOREIGN KEY, or a UNIQUE constraint with its index. */
export function renameConstraint(catalog: Catalog, s: RenameStmt): DdlOutcome {
  const table = s.relation?.relname ?? '';
  const t = catalog.get(table);
  if (t === undefined) {
    if (s.missing_ok === true) return { tag: 'ALTER TABLE', touched: [], notice: `relation "${table}" does not exist, skipping` };
    throw new SqlError(SqlState.undefinedTable, `relation "${table}" does not exist`);
  }
  const old = s.subname ?? '';
  const newName = s.newname ?? '';
  if (!constraintNames(t).has(old) || t.indexes.some((i) => i.name === old && !i.constraint)) {
    throw new SqlError(SqlState.undefinedObject, `constraint "${old}" for table "${t.name}" does not exist`);
  }
  if (old === primaryKeyName(t)) throw unsupported('renaming a primary key constraint (it is named after its table)');
  if (constraintNames(t).has(newName)) throw new SqlError(SqlState.duplicateObject, `constraint "${newName}" for relation "${t.name}" already exists`);
  const index = t.indexes.find((i) => i.name === old);
  if (index !== undefined && catalog.relationExists(newName)) throw new SqlError(SqlState.duplicateTable, `relation "${newName}" already exists`);
  const rename = <T extends { readonly name: string }>(x: T): T => (x.name === old ? { ...x, name: newName } : x);
  const next: TableDef = {
    ...t,
    indexes: t.indexes.map(rename),
    ...(t.checks === undefined ? {} : { checks: t.checks.map(rename) }),
    ...(t.foreignKeys === undefined ? {} : { foreignKeys: t.foreignKeys.map(rename) }),
  };
  catalog.put(next);
  return { tag: 'ALTER TABLE', touched: [] };
}

/**
 * ALTER TABLE ... VALIDATE CONSTRAINT name: a CHECK added NOT VALID is checked against every row and
 * becomes valid; a FOREIGN KEY is checked (Pesto does not record which were added NOT VALID).
 */
export function validateConstraint(catalog: Catalog, storage: DdlStorage, t: TableDef, name: string): TableDef {
  const check = t.checks?.find((c) => c.name === name);
  if (check !== undefined) {
    if (check.notValid !== true) return t;
    const env = makeEnv([], null);
    storage.validateRows(t, (row) => {
      if (evalExpr(check.expr, row, env) === false) throw new SqlError(SqlState.checkViolation, `check constraint "${name}" of relation "${t.name}" is violated by some row`);
    });
    const { notValid: _, ...valid } = check;
    const next: TableDef = { ...t, checks: (t.checks ?? []).map((c) => (c === check ? valid : c)) };
    catalog.put(next);
    return next;
  }
  const fk = t.foreignKeys?.find((f) => f.name === name);
  if (fk !== undefined) {
    storage.validateForeignKey(t, fk.refTable === t.name ? t : catalog.require(fk.refTable), fk);
    return t;
  }
  if (constraintNames(t).has(name)) throw new SqlError(SqlState.wrongObjectType, `constraint "${name}" of relation "${t.name}" is not a foreign key or check constraint`);
  throw new SqlError(SqlState.undefinedObject, `constraint "${name}" of relation "${t.name}" does not exist`);
}

/** Storage parameters of a table PostgreSQL 15 knows (heap and toast), with the bounds of the numeric ones it checks here. */
const TABLE_OPTIONS: Readonly<Record<string, readonly [number, number] | 'bool' | 'any'>> = {
  fillfactor: [10, 100], toast_tuple_target: [128, 8160], parallel_workers: [0, 1024],
  autovacuum_enabled: 'bool', vacuum_index_cleanup: 'any', vacuum_truncate: 'bool', user_catalog_table: 'bool',
  autovacuum_vacuum_threshold: 'any', autovacuum_vacuum_insert_threshold: 'any', autovacuum_vacuum_scale_factor: 'any',
  autovacuum_vacuum_insert_scale_factor: 'any', autovacuum_analyze_threshold: 'any', autovacuum_analyze_scale_factor: 'any',
  autovacuum_vacuum_cost_delay: 'any', autovacuum_vacuum_cost_limit: 'any', autovacuum_freeze_min_age: 'any',
  autovacuum_freeze_max_age: 'any', autovacuum_freeze_table_age: 'any', autovacuum_multixact_freeze_min_age: 'any',
  autovacuum_multixact_freeze_max_age: 'any', autovacuum_multixact_freeze_table_age: 'any', log_autovacuum_min_duration: 'any',
};

/** A storage parameter's value as PostgreSQL's reloptions read it: a bare name is "true". */
function optionText(arg: Node | undefined): string {
  if (arg === undefined) return 'true';
  if ('A_Const' in arg) {
    const c = arg.A_Const;
    return c.ival !== undefined ? String(c.ival.ival ?? 0) : c.fval !== undefined ? c.fval.fval ?? '' : c.boolval !== undefined ? String(c.boolval.boolval === true) : c.sval?.sval ?? '';
  }
  if ('TypeName' in arg) return strOf((arg.TypeName.names ?? []).at(-1));
  if ('Integer' in arg) return String(arg.Integer.ival ?? 0);
  if ('Float' in arg) return arg.Float.fval ?? '';
  if ('Boolean' in arg) return String(arg.Boolean.boolval === true);
  return strOf(arg);
}

/**
 * A table's storage parameters (CREATE TABLE ... WITH (...), ALTER TABLE ... SET / RESET (...)), which
 * Pesto has no use for: 22023 for one PostgreSQL does not know or a value it would refuse; OIDS=false
 * (old dumps write it) is accepted and OIDS=true is 0A000, as in PostgreSQL 15.
 */
export function checkTableOptions(options: readonly Node[] | undefined, reset: boolean): void {
  for (const o of options ?? []) {
    if (!('DefElem' in o)) continue;
    const d = o.DefElem;
    const name = d.defnamespace === undefined ? d.defname ?? '' : `${d.defnamespace}.${d.defname ?? ''}`;
    const text = optionText(d.arg);
    if (name === 'oids' && !reset) {
      if (/^(true|on|yes|1)$/i.test(text)) throw new SqlError(SqlState.featureNotSupported, 'tables declared WITH OIDS are not supported');
      continue;
    }
    const kind = d.defnamespace === 'toast' ? 'any' : TABLE_OPTIONS[name];
    if (kind === undefined) throw new SqlError(SqlState.invalidParameterValue, `unrecognized parameter "${name}"`);
    if (reset || kind === 'any') continue;
    if (kind === 'bool') {
      if (!/^(true|false|on|off|yes|no|1|0)$/i.test(text)) throw new SqlError(SqlState.invalidParameterValue, `invalid value for boolean option "${name}": ${text}`);
      continue;
    }
    const [lo, hi] = kind;
    if (!/^[+-]?\d+$/.test(text)) throw new SqlError(SqlState.invalidParameterValue, `invalid value for integer option "${name}": ${text}`);
    const v = Number(text);
    if (v < lo || v > hi) throw new SqlError(SqlState.invalidParameterValue, `value ${v} out of bounds for option "${name}"`, `Valid values are between "${lo}" and "${hi}".`);
  }
}

/** ALTER TABLE actions on storage Pesto does not have: PostgreSQL's checks, no effect. True when `cmd` is one. */
export function storageOnlyAction(t: TableDef, cmd: AlterTableCmd): boolean {
  switch (cmd.subtype) {
    case 'AT_SetRelOptions':
    case 'AT_ResetRelOptions':
      checkTableOptions(cmd.def !== undefined && 'List' in cmd.def ? cmd.def.List.items : undefined, cmd.subtype === 'AT_ResetRelOptions');
      return true;
    case 'AT_SetStatistics':
      if (cmd.name !== undefined && !t.columns.some((c) => c.name === cmd.name && !c.hidden)) {
        throw new SqlError(SqlState.undefinedColumn, `column "${cmd.name}" of relation "${t.name}" does not exist`);
      }
      return true;
    case 'AT_ClusterOn':
      if (!hasIndexNamed(t, cmd.name ?? '')) {
        throw new SqlError(SqlState.undefinedObject, `index "${cmd.name ?? ''}" for table "${t.name}" does not exist`);
      }
      return true;
    case 'AT_DropCluster':
      return true;
    default:
      return false;
  }
}

/**
 * REINDEX and CLUSTER: Pesto's indexes are always current and its rows have no physical order, so both
 * only check what they name (42P01 / 42704, as PostgreSQL) and do nothing. REINDEX SCHEMA / DATABASE /
 * SYSTEM and a bare CLUSTER name the whole database.
 */
export function maintenance(catalog: Catalog, node: Node): { readonly k: 'noop'; readonly tag: string } {
  if ('ClusterStmt' in node) {
    const c = node.ClusterStmt;
    const name = c.relation?.relname;
    if (name !== undefined) {
      const t = catalog.get(name);
      if (t === undefined) throw new SqlError(SqlState.undefinedTable, `relation "${name}" does not exist`);
      if (c.indexname !== undefined && !hasIndexNamed(t, c.indexname)) {
        throw new SqlError(SqlState.undefinedObject, `index "${c.indexname}" for table "${t.name}" does not exist`);
      }
    }
    return { k: 'noop', tag: 'CLUSTER' };
  }
  if ('ReindexStmt' in node) {
    const r = node.ReindexStmt;
    const name = r.relation?.relname;
    if (r.kind === 'REINDEX_OBJECT_INDEX' && name !== undefined && catalog.indexTable(name) === undefined) {
      throw new SqlError(SqlState.undefinedTable, `relation "${name}" does not exist`);
    }
    if (r.kind === 'REINDEX_OBJECT_TABLE' && name !== undefined && catalog.get(name) === undefined) throw new SqlError(SqlState.undefinedTable, `relation "${name}" does not exist`);
    return { k: 'noop', tag: 'REINDEX' };
  }
  throw unsupported('this maintenance statement');
}
