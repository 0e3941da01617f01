// Building catalog definitions from DDL parse trees, shared by CREATE (ddl.ts) and ALTER (ddl-alter.ts):
// what DDL needs from storage, index and constraint naming as PostgreSQL does it, bound DEFAULTs and CHECKs.

import type { Node, Constraint, ColumnDef as PgColumnDef } from 'libpg-query';
import { cascaded } from './notices.ts';
import type { Catalog } from './catalog.ts';
import { type CheckDef, type ColumnDef, type ForeignKeyDef, type IndexDef, type IndexExpr, type TableDef } from './catalog.ts';
import { BindContext, Scope } from './bind-context.ts';
import { bindExpr, toBool, unsupported } from './lower-expr.ts';
import { coerceAssign } from './coerce.ts';
import { SqlError, SqlState } from './errors.ts';
import { someExpr, type Expr } from './expr.ts';
import type { Row, SqlType } from './types.ts';
import type { SequenceDef, SequenceState } from './sequences.ts';
import { checkSource } from './check-text.ts';

/** What DDL needs from storage (the memory store implements it; a replica will too). */
export interface DdlStorage {
  ensureTable(def: TableDef): void;
  dropTable(id: number): void;
  rekeyTable(def: TableDef, transform?: (row: Row) => Row): void;
  truncate(def: TableDef): void;
  rowCount(def: TableDef): number;
  /** Every row of the table passes `test` (which throws the constraint's error for one that does not). */
  validateRows(def: TableDef, test: (row: Row) => void): void;
  /** Every row of `child` satisfies `fk` against the rows of `parent` (else the first violation's 23503: foreign-keys.ts orphanOf). */
  validateForeignKey(child: TableDef, parent: TableDef, fk: ForeignKeyDef): void;
  /** ALTER SEQUENCE ... RESTART: the sequence's state becomes `state` (in the statement's transaction). */
  setSequence(seq: SequenceDef, state: SequenceState): void;
  /**
   * An enum type of `def`'s columns changed (ALTER TYPE): stored values read as its new definition. Rows
   * kept as values (the single-node store) take it; encoded rows hold label positions and need nothing.
   */
  relabel(def: TableDef): void;
}

export interface DdlOutcome {
  readonly tag: string;
  /** Tables whose buffered writes must be discarded (dropped or truncated). */
  readonly touched: readonly number[];
  readonly notice?: string;
  /**
   * A statement to run next in the same transaction (a materialized view's rows: sql/matviews.ts), with
   * `countTag`, the command tag the pair reports as `countTag n` (n the rows it wrote); never run on replay.
   */
  readonly then?: { readonly sql: string; readonly countTag?: string };
  /** The statement as the replicated catalog's log keeps it, when it differs (a password replaced by its verifier: ddl-role.ts). */
  readonly logged?: Node;
}

/**
 * Key columns must have an order-preserving key encoding (key-encoding.ts). json has no btree operator
 * class in PostgreSQL either (42704); jsonb has one, but Pesto does not key rows or index entries by a
 * document yet (0A000), nor by arrays of json or jsonb. Other arrays are keys as in PostgreSQL (btree
 * over arrays: element by element).
 */
export function checkKeyColumns(table: Pick<TableDef, 'columns'>, cols: readonly number[]): void {
  for (const c of cols) {
    const col = table.columns[c];
    if (col !== undefined) checkKeyType(col.type, col.name);
  }
}

/** checkKeyColumns' rule for one key's type (`column` null: an expression's). */
function checkKeyType(type: SqlType, column: string | null): void {
  if (type === 'json') throw new SqlError(SqlState.undefinedObject, 'data type json has no default operator class for access method "btree"');
  if (type === 'jsonb' || type === '_json' || type === '_jsonb') {
    const what = column === null ? 'an expression' : `column "${column}"`;
    throw new SqlError(SqlState.featureNotSupported, `${what} of type ${type === 'jsonb' ? 'jsonb' : type.slice(1) + '[]'} cannot be part of a primary key or index in Pesto`);
  }
}

/** An index over key `cols` (-1 where `exprs` has the key's expression; sql/index-keys.ts). */
export function makeIndex(catalog: Catalog, table: TableDef, name: string, cols: number[], unique: boolean, constraint: boolean, exprs?: readonly (IndexExpr | null)[]): IndexDef {
  checkKeyColumns(table, cols.filter((c) => c >= 0));
  const types = cols.map((c, j) => exprs?.[j]?.expr.t ?? table.columns[c]?.type ?? 'text');
  for (const t of types) checkKeyType(t, null);
  const idx: IndexDef = { id: catalog.allocateId(), name, tableId: table.id, columns: cols, types, unique, constraint };
  return exprs !== undefined && exprs.some((x) => x !== null) ? { ...idx, exprs } : idx;
}

/**
 * A name for a constraint's index the way PostgreSQL's ChooseRelationName picks one: the base, else the
 * base with 1, 2, ... appended, skipping relations and the names `taken` in the same statement.
 */
export function chooseName(catalog: Catalog, base: string, taken: ReadonlySet<string> = new Set()): string {
  for (let n = 0; ; n++) {
    const name = n === 0 ? base : `${base}${n}`;
    if (!catalog.relationExists(name) && !taken.has(name)) return name;
  }
}

export function defaultExpr(catalog: Catalog, c: PgColumnDef, raw: Node, type: ColumnDef['type'], typmod = -1): Expr {
  const scope = new Scope(new BindContext(catalog), null);
  scope.aggForbidden = 'DEFAULT expressions';
  return coerceAssign(scope.ctx, bindExpr(scope, raw), type, c.colname ?? '', typmod);
}

/**
 * CHECK constraints as PostgreSQL binds and names them: a boolean expression over the new row, without
 * subqueries or aggregates; unnamed ones are `table_column_check` (the column written on, or the one
 * column a table constraint reads) or `table_check`, numbered from 1 when the name is taken.
 */
export function bindChecks(catalog: Catalog, table: TableDef, checks: readonly { k: Constraint; column: string | null }[], names: readonly string[] = []): CheckDef[] {
  const out: CheckDef[] = [];
  const taken = new Set<string>(names);
  for (const { k, column } of checks) {
    if (k.is_no_inherit === true) throw unsupported('NO INHERIT constraints');
    const scope = new Scope(new BindContext(catalog), null);
    scope.addRel(table.name, table.columns.map((c) => ({ name: c.name, type: c.type, typmod: c.typmod, hidden: c.hidden })), table);
    scope.aggForbidden = 'check constraints';
    const expr = toBool(scope, bindExpr(scope, k.raw_expr as Node), 'CHECK');
    if (someExpr(expr, (x) => x.k === 'subquery')) throw new SqlError(SqlState.featureNotSupported, 'cannot use subquery in check constraint');
    let name = k.conname;
    if (name === undefined || name === '') {
      const read = new Set<number>();
      someExpr(expr, (x) => {
        if (x.k === 'col') read.add(x.i);
        return false;
      });
      const only = column ?? (read.size === 1 ? table.columns[[...read][0]!]?.name ?? null : null);
      const base = only === null ? `${table.name}_check` : `${table.name}_${only}_check`;
      name = base;
      for (let n = 1; taken.has(name); n++) name = `${base}${n}`;
    } else if (names.includes(name)) {
      throw new SqlError(SqlState.duplicateObject, `constraint "${name}" for relation "${table.name}" already exists`);
    } else if (taken.has(name)) {
      throw new SqlError(SqlState.duplicateObject, `check constraint "${name}" already exists`);
    }
    taken.add(name);
    const source = checkSource(scope, k.raw_expr as Node);
    out.push(source === null ? { name, expr } : { name, expr, source });
  }
  return out.sort(byName);
}

/** CHECK constraints are checked in name order, as PostgreSQL does (CheckConstraintFetch): the first failing one is reported. */
export function byName(a: CheckDef, b: CheckDef): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * Column defaults that use an object DROP removes (a sequence, an extension's function): without
 * CASCADE, PostgreSQL's 2BP01 naming each (`uses` says what a default depends on, null when nothing
 * dropped); with it, a notice and the defaults gone. Tables `skip` accepts are not looked at (dropped too).
 */
export function dropDependentDefaults(catalog: Catalog, what: string, uses: (def: Expr) => string | null, cascade: boolean, notices: string[], skip: (t: TableDef) => boolean = () => false): void {
  const deps: { table: TableDef; column: number; line: string; on: string }[] = [];
  for (const t of catalog.list()) {
    if (skip(t)) continue;
    t.columns.forEach((c, i) => {
      const on = c.default === null ? null : uses(c.default);
      if (on !== null) deps.push({ table: t, column: i, line: `default value for column ${c.name} of table ${t.name}`, on });
    });
  }
  if (deps.length === 0) return;
  if (!cascade) {
    throw new SqlError(SqlState.dependentObjectsStillExist, `cannot drop ${what} because other objects depend on it`,
      deps.map((d) => `${d.line} depends on ${d.on}`).join('\n'), undefined, 'Use DROP ... CASCADE to drop the dependent objects too.');
  }
  for (const d of deps) notices.push(cascaded(d.line));
  for (const d of deps) {
    const t = catalog.getById(d.table.id) ?? d.table;
    catalog.put({ ...t, columns: t.columns.map((c, i) => (i === d.column ? { ...c, default: null, serial: false } : c)) });
  }
}
