// Executes DDL against the catalog and the store (`applyDdl`): CREATE TABLE (types, PRIMARY KEY including
// composite, NOT NULL, DEFAULT, UNIQUE, CHECK, SERIAL/identity; storage options such as WITH (fillfactor=...)
// are accepted and ignored; FOREIGN KEY constraints: sql/foreign-keys.ts), CREATE [UNIQUE] INDEX, DROP
// TABLE/INDEX [IF EXISTS] [CASCADE], ALTER TABLE ... ADD COLUMN / PRIMARY KEY / UNIQUE / CHECK / FOREIGN
// KEY, DROP CONSTRAINT (checks and foreign keys), DROP COLUMN, ALTER COLUMN SET/DROP DEFAULT and SET/DROP
// NOT NULL, RENAME TO / RENAME COLUMN, TRUNCATE [CASCADE]. Ids come from the catalog's DDL-order counter.
// The single-node engine applies DDL to its one catalog at once and undoes it if the transaction does
// not commit (engine.ts); the cluster replays the same statements into each catalog version
// (replicated-catalog.ts).

import type { Node, CreateStmt, IndexStmt, DropStmt, AlterTableStmt, RenameStmt, TruncateStmt, Constraint, ColumnDef as PgColumnDef } from 'libpg-query';
import type { Catalog} from './catalog.ts';
import { HIDDEN_ROWID, columnIndex, type CheckDef, type ColumnDef, type ForeignKeyDef, type IndexDef, type TableDef } from './catalog.ts';
import { bindForeignKey, constraintNames, dropDependents, dropForeignKeys, isUniqueKey, renameReferences, truncateClosure } from './foreign-keys.ts';
import { BindContext, Scope } from './bind-context.ts';
import { bindExpr, strOf, toBool, unsupported } from './lower-expr.ts';
import { coerceAssign } from './coerce.ts';
import { resolveTypeName } from './lower-type.ts';
import { SqlError, SqlState } from './errors.ts';
import { someExpr, type Expr } from './expr.ts';
import { applyTypmod } from './typmod.ts';
import type { Row } from './types.ts';
import { evalExpr, makeEnv } from './eval.ts';

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
}

export interface DdlOutcome {
  readonly tag: string;
  /** Tables whose buffered writes must be discarded (dropped or truncated). */
  readonly touched: readonly number[];
  readonly notice?: string;
}

/**
 * Key columns must have an order-preserving key encoding (key-encoding.ts). json has no btree operator
 * class in PostgreSQL either (42704); jsonb has one, but Pesto does not key rows or index entries by a
 * document yet (0A000).
 */
function checkKeyColumns(table: Pick<TableDef, 'columns'>, cols: readonly number[]): void {
  for (const c of cols) {
    const col = table.columns[c];
    if (col?.type === 'json') throw new SqlError(SqlState.undefinedObject, 'data type json has no default operator class for access method "btree"');
    if (col?.type === 'jsonb' || col?.type === '_json' || col?.type === '_jsonb') {
      throw new SqlError(SqlState.featureNotSupported, `column "${col.name}" of type ${col.type === 'jsonb' ? 'jsonb' : col.type.slice(1) + '[]'} cannot be part of a primary key or index in Pesto`);
    }
  }
}

function makeIndex(catalog: Catalog, table: TableDef, name: string, cols: number[], unique: boolean, constraint: boolean): IndexDef {
  checkKeyColumns(table, cols);
  return { id: catalog.allocateId(), name, tableId: table.id, columns: cols, types: cols.map((c) => table.columns[c]?.type ?? 'text'), unique, constraint };
}

/**
 * A name for a constraint's index the way PostgreSQL's ChooseRelationName picks one: the base, else the
 * base with 1, 2, ... appended, skipping relations and the names `taken` in the same statement.
 */
function chooseName(catalog: Catalog, base: string, taken: ReadonlySet<string> = new Set()): string {
  for (let n = 0; ; n++) {
    const name = n === 0 ? base : `${base}${n}`;
    if (!catalog.relationExists(name) && !taken.has(name)) return name;
  }
}

function defaultExpr(catalog: Catalog, c: PgColumnDef, raw: Node, type: ColumnDef['type']): Expr {
  const scope = new Scope(new BindContext(catalog), null);
  scope.aggForbidden = 'DEFAULT expressions';
  return coerceAssign(scope.ctx, bindExpr(scope, raw), type, c.colname ?? '');
}

/** Applies one DDL statement's parse tree to the catalog and storage; null for one not supported here. */
export function applyDdl(catalog: Catalog, storage: DdlStorage, n: Node): DdlOutcome | null {
  if ('CreateStmt' in n) return createTable(catalog, storage, n.CreateStmt);
  if ('IndexStmt' in n) return createIndex(catalog, storage, n.IndexStmt);
  if ('DropStmt' in n) return drop(catalog, storage, n.DropStmt);
  if ('AlterTableStmt' in n) return alterTable(catalog, storage, n.AlterTableStmt);
  if ('RenameStmt' in n) return rename(catalog, n.RenameStmt);
  if ('TruncateStmt' in n) return truncate(catalog, storage, n.TruncateStmt);
  return null;
}

function createTable(catalog: Catalog, storage: DdlStorage, s: CreateStmt): DdlOutcome {
  /** FOREIGN KEY clauses in written order, with the column they were written on (null: a table constraint). */
  const foreignKeys: { k: Constraint; column: string | null }[] = [];
  const name = s.relation?.relname ?? '';
  if (s.relation?.relpersistence === 't') { /* temporary tables behave like ordinary ones here */ }
  if (s.inhRelations !== undefined && s.inhRelations.length > 0) throw unsupported('table inheritance');
  if (s.partspec !== undefined) throw unsupported('partitioned tables');
  if (catalog.relationExists(name)) {
    if (s.if_not_exists) return { tag: 'CREATE TABLE', touched: [], notice: `relation "${name}" already exists, skipping` };
    throw new SqlError(SqlState.duplicateTable, `relation "${name}" already exists`);
  }
  const id = catalog.allocateId();
  const cols: ColumnDef[] = [];
  let pk: number[] | null = null;
  const uniques: { keys: number[]; name: string | undefined }[] = [];
  const setPk = (c: number[]): void => {
    if (pk !== null) throw new SqlError(SqlState.invalidTableDefinition, `multiple primary keys for table "${name}" are not allowed`);
    pk = c;
  };
  const colIdx = (n: string): number => {
    const i = cols.findIndex((c) => c.name === n);
    if (i < 0) throw new SqlError(SqlState.undefinedColumn, `column "${n}" named in key does not exist`);
    return i;
  };
  const tableConstraints: Constraint[] = [];
  /** CHECK constraints in written order, with the column they were written on (null: a table constraint). */
  const checks: { k: Constraint; column: string | null }[] = [];
  for (const e of s.tableElts ?? []) {
    if ('Constraint' in e) {
      tableConstraints.push(e.Constraint);
      continue;
    }
    if (!('ColumnDef' in e)) throw unsupported(`table element ${Object.keys(e)[0] ?? ''}`);
    const c = e.ColumnDef;
    const cname = c.colname ?? '';
    if (cols.some((x) => x.name === cname)) throw new SqlError(SqlState.duplicateColumn, `column "${cname}" specified more than once`);
    const rt = resolveTypeName(c.typeName ?? {});
    let notNull = false;
    let def: Expr | null = null;
    let serial = rt.serial;
    const idx = cols.length;
    for (const cn of c.constraints ?? []) {
      if (!('Constraint' in cn)) continue;
      const k = cn.Constraint;
      switch (k.contype) {
        case 'CONSTR_NOTNULL': notNull = true; break;
        case 'CONSTR_NULL': notNull = false; break;
        case 'CONSTR_DEFAULT': def = defaultExpr(catalog, c, k.raw_expr as Node, rt.type); break;
        case 'CONSTR_PRIMARY': setPk([idx]); notNull = true; break;
        case 'CONSTR_UNIQUE': uniques.push({ keys: [idx], name: k.conname }); break;
        case 'CONSTR_IDENTITY': serial = true; break;
        case 'CONSTR_FOREIGN': foreignKeys.push({ k, column: cname }); break;
        case 'CONSTR_CHECK': checks.push({ k, column: cname }); break;
        case 'CONSTR_GENERATED': throw unsupported('generated columns');
        case 'CONSTR_ATTR_DEFERRABLE':
        case 'CONSTR_ATTR_DEFERRED':
          // A column constraint's attributes follow it as constraints of their own.
          if (foreignKeys.at(-1)?.column === cname) throw unsupported('a DEFERRABLE foreign key constraint');
          break;
        default: break;
      }
    }
    if (serial) {
      notNull = true;
      def = { k: 'func', fn: '__serial', args: [{ k: 'const', v: id, t: 'int4' }, { k: 'const', v: idx, t: 'int4' }], t: rt.type };
    }
    cols.push({ name: cname, type: rt.type, typmod: rt.typmod, notNull, default: def, hidden: false, serial });
  }
  for (const k of tableConstraints) {
    const keys = (k.keys ?? []).map((n) => colIdx(strOf(n)));
    switch (k.contype) {
      case 'CONSTR_PRIMARY':
        setPk(keys);
        for (const i of keys) cols[i] = { ...(cols[i] as ColumnDef), notNull: true };
        break;
      case 'CONSTR_UNIQUE': uniques.push({ keys, name: k.conname }); break;
      case 'CONSTR_FOREIGN': foreignKeys.push({ k, column: null }); break;
      case 'CONSTR_CHECK': checks.push({ k, column: null }); break;
      default: throw unsupported(`constraint ${String(k.contype)}`);
    }
  }
  let hiddenPk = false;
  let pkCols: number[] = pk ?? [];
  if (pk === null) {
    hiddenPk = true;
    cols.push({ name: HIDDEN_ROWID, type: 'int8', typmod: -1, notNull: true, default: null, hidden: true, serial: false });
    pkCols = [cols.length - 1];
  }
  if (!hiddenPk) checkKeyColumns({ columns: cols }, pkCols);
  let table: TableDef = { id, name, columns: cols, pk: pkCols, pkTypes: pkCols.map((c) => cols[c]?.type ?? 'int8'), hiddenPk, indexes: [] };
  const taken = new Set<string>(hiddenPk ? [] : [`${name}_pkey`]);
  const indexes = uniques.map(({ keys, name: given }) => {
    // A constraint's own name (CONSTRAINT x UNIQUE ...), else one chosen as PostgreSQL does.
    if (given !== undefined && (taken.has(given) || catalog.relationExists(given))) throw new SqlError(SqlState.duplicateTable, `relation "${given}" already exists`);
    const chosen = given ?? chooseName(catalog, `${name}_${keys.map((c) => cols[c]?.name).join('_')}_key`, taken);
    taken.add(chosen);
    return makeIndex(catalog, table, chosen, keys, true, true);
  });
  table = { ...table, indexes };
  if (checks.length > 0) table = { ...table, checks: bindChecks(catalog, table, checks) };
  if (foreignKeys.length > 0) {
    const fkNames = constraintNames(table);
    const fks = foreignKeys.map((f) => {
      const fk = bindForeignKey(catalog, table, f.k, f.column, fkNames);
      fkNames.add(fk.name);
      return fk;
    });
    table = { ...table, foreignKeys: fks };
  }
  catalog.put(table);
  storage.ensureTable(table);
  return { tag: 'CREATE TABLE', touched: [] };
}

/**
 * CHECK constraints as PostgreSQL binds and names them: a boolean expression over the new row, without
 * subqueries or aggregates; unnamed ones are `table_column_check` (the column written on, or the one
 * column a table constraint reads) or `table_check`, numbered from 1 when the name is taken.
 */
function bindChecks(catalog: Catalog, table: TableDef, checks: readonly { k: Constraint; column: string | null }[], names: readonly string[] = []): CheckDef[] {
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
    out.push({ name, expr });
  }
  return out.sort(byName);
}

/** CHECK constraints are checked in name order, as PostgreSQL does (CheckConstraintFetch): the first failing one is reported. */
function byName(a: CheckDef, b: CheckDef): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function createIndex(catalog: Catalog, storage: DdlStorage, s: IndexStmt): DdlOutcome {
  const table = catalog.require(s.relation?.relname ?? '');
  const cols = (s.indexParams ?? []).map((p) => {
    if (!('IndexElem' in p)) throw unsupported('index element');
    if (p.IndexElem.expr !== undefined) throw unsupported('expression indexes');
    return columnIndex(table, p.IndexElem.name ?? '');
  });
  if (s.whereClause !== undefined) throw unsupported('partial indexes');
  const name = s.idxname ?? `${table.name}_${cols.map((c) => table.columns[c]?.name).join('_')}_idx`;
  if (catalog.relationExists(name)) {
    if (s.if_not_exists) return { tag: 'CREATE INDEX', touched: [], notice: `relation "${name}" already exists, skipping` };
    throw new SqlError(SqlState.duplicateTable, `relation "${name}" already exists`);
  }
  const idx = makeIndex(catalog, table, name, cols, s.unique === true || s.primary === true, false);
  const next = { ...table, indexes: [...table.indexes, idx] };
  storage.ensureTable(next); // builds the index; throws 23505 for duplicates before the catalog changes
  catalog.put(next);
  return { tag: 'CREATE INDEX', touched: [] };
}

function drop(catalog: Catalog, storage: DdlStorage, s: DropStmt): DdlOutcome {
  const names = (s.objects ?? []).map((o) => {
    const items = 'List' in o ? (o.List.items ?? []) : [o];
    return strOf(items[items.length - 1]);
  });
  const touched: number[] = [];
  const notices: string[] = [];
  if (s.removeType === 'OBJECT_TABLE') {
    for (const n of names) {
      if (!catalog.get(n) && !s.missing_ok) throw new SqlError(SqlState.undefinedTable, `table "${n}" does not exist`);
    }
    // Foreign keys of tables not dropped with it that reference a dropped table: 2BP01, or gone with CASCADE.
    for (const n of names) {
      const deps = catalog.referencing(n).filter((d) => !names.includes(d.table.name));
      dropDependents(catalog, deps, `table ${n}`, s.behavior === 'DROP_CASCADE', notices);
    }
    for (const n of names) {
      const t = catalog.remove(n);
      if (t === undefined) {
        notices.push(`table "${n}" does not exist, skipping`);
        continue;
      }
      storage.dropTable(t.id);
      touched.push(t.id);
    }
    return { tag: 'DROP TABLE', touched, ...(notices.length > 0 ? { notice: notices.join('\n') } : {}) };
  }
  if (s.removeType === 'OBJECT_INDEX') {
    for (const n of names) {
      const f = catalog.findIndex(n);
      if (f === undefined) {
        if (s.missing_ok) continue;
        throw new SqlError(SqlState.undefinedObject, `index "${n}" does not exist`);
      }
      if (f.index.constraint) {
        throw new SqlError('2BP01', `cannot drop index ${n} because constraint ${n} on table ${f.table.name} requires it`);
      }
      const next = { ...f.table, indexes: f.table.indexes.filter((i) => i.id !== f.index.id) };
      const deps = catalog.referencing(f.table.name).filter((d) => !isUniqueKey(next, d.fk.refColumns));
      dropDependents(catalog, deps, `index ${n}`, s.behavior === 'DROP_CASCADE', notices);
      catalog.put({ ...(catalog.getById(next.id) ?? next), indexes: next.indexes });
      storage.ensureTable(next);
    }
    return { tag: 'DROP INDEX', touched, ...(notices.length > 0 ? { notice: notices.join('\n') } : {}) };
  }
  throw unsupported(`DROP ${String(s.removeType).replace('OBJECT_', '')}`);
}

function alterTable(catalog: Catalog, storage: DdlStorage, s: AlterTableStmt): DdlOutcome {
  const name = s.relation?.relname ?? '';
  let table = catalog.get(name);
  if (table === undefined) {
    if (s.missing_ok) return { tag: 'ALTER TABLE', touched: [], notice: `relation "${name}" does not exist, skipping` };
    throw new SqlError(SqlState.undefinedTable, `relation "${name}" does not exist`);
  }
  let notice: string | undefined;
  for (const c of s.cmds ?? []) {
    if (!('AlterTableCmd' in c)) continue;
    const cmd = c.AlterTableCmd;
    if (cmd.subtype === 'AT_AddColumn' && cmd.def !== undefined && 'ColumnDef' in cmd.def) {
      const column = cmd.def.ColumnDef;
      const before: TableDef = table;
      const fks = (column.constraints ?? []).flatMap((x) => ('Constraint' in x && x.Constraint.contype === 'CONSTR_FOREIGN' ? [x.Constraint] : []));
      if (fks.length > 0) referencesOfNewColumn(catalog, table, column, fks);
      const others = (column.constraints ?? []).filter((x) => !('Constraint' in x) || x.Constraint.contype !== 'CONSTR_FOREIGN');
      table = addColumn(catalog, storage, table, { ...column, constraints: others }, cmd.missing_ok === true);
      if (table === before) continue;
      // Existing rows hold NULL in the new column (no DEFAULT: referencesOfNewColumn), which references nothing.
      for (const k of fks) table = addForeignKey(catalog, storage, table, { ...k, skip_validation: true }, column.colname ?? '');
      continue;
    }
    if (cmd.subtype === 'AT_DropConstraint') {
      const r = dropConstraint(catalog, table, cmd.name ?? '', cmd.missing_ok === true);
      table = r.table;
      notice = r.notice ?? notice;
      continue;
    }
    if (cmd.subtype === 'AT_ColumnDefault' || cmd.subtype === 'AT_DropNotNull') {
      table = alterColumn(catalog, table, cmd.subtype, cmd.name ?? '', cmd.def);
      continue;
    }
    if (cmd.subtype === 'AT_AlterColumnType' && cmd.def !== undefined && 'ColumnDef' in cmd.def) {
      sameColumnType(table, cmd.name ?? '', cmd.def.ColumnDef);
      continue;
    }
    if (cmd.subtype === 'AT_DropColumn') {
      const r = dropColumn(catalog, storage, table, cmd.name ?? '', cmd.missing_ok === true, cmd.behavior === 'DROP_CASCADE');
      table = r.table;
      notice = r.notice ?? notice;
      continue;
    }
    if (cmd.subtype === 'AT_SetNotNull') {
      const t: TableDef = table;
      const i = columnIndex(t, cmd.name ?? '');
      storage.validateRows(t, (row) => {
        if (row[i] === null) throw new SqlError(SqlState.notNullViolation, `column "${t.columns[i]!.name}" of relation "${t.name}" contains null values`);
      });
      table = { ...t, columns: t.columns.map((c, j) => (j === i ? { ...c, notNull: true } : c)) };
      catalog.put(table);
      continue;
    }
    if (cmd.subtype === 'AT_AddConstraint' && cmd.def !== undefined && 'Constraint' in cmd.def && cmd.def.Constraint.contype === 'CONSTR_CHECK') {
      table = addCheck(catalog, storage, table, cmd.def.Constraint);
      continue;
    }
    if (cmd.subtype !== 'AT_AddConstraint' || cmd.def === undefined || !('Constraint' in cmd.def)) {
      throw unsupported(`ALTER TABLE ${String(cmd.subtype).replace('AT_', '')}`);
    }
    const k = cmd.def.Constraint;
    const t: TableDef = table;
    const keys = (k.keys ?? []).map((n) => columnIndex(t, strOf(n)));
    if (k.contype === 'CONSTR_FOREIGN') {
      table = addForeignKey(catalog, storage, t, k, null);
      continue;
    }
    if (k.contype === 'CONSTR_UNIQUE') {
      if (k.conname !== undefined && catalog.relationExists(k.conname)) throw new SqlError(SqlState.duplicateTable, `relation "${k.conname}" already exists`);
      const idx = makeIndex(catalog, t, k.conname ?? chooseName(catalog, `${t.name}_${keys.map((i) => t.columns[i]?.name).join('_')}_key`), keys, true, true);
      const next = { ...t, indexes: [...t.indexes, idx] };
      storage.ensureTable(next);
      catalog.put(next);
      table = next;
      continue;
    }
    if (k.contype !== 'CONSTR_PRIMARY') throw unsupported(`ALTER TABLE ADD ${String(k.contype).replace('CONSTR_', '')}`);
    if (!t.hiddenPk) throw new SqlError(SqlState.invalidTableDefinition, `multiple primary keys for table "${t.name}" are not allowed`);
    // The hidden row id (the last column) goes; dropped columns keep their positions in the rows.
    const columns = t.columns.filter((col) => !col.hidden || col.dropped === true).map((col, i) => (keys.includes(i) ? { ...col, notNull: true } : col));
    checkKeyColumns({ columns }, keys);
    const next: TableDef = { ...t, columns, pk: keys, pkTypes: keys.map((i) => columns[i]?.type ?? 'text'), hiddenPk: false };
    const width = columns.length;
    storage.rekeyTable(next, (row) => {
      for (const i of keys) {
        if (row[i] === null) {
          throw new SqlError(SqlState.notNullViolation, `column "${columns[i]?.name ?? ''}" of relation "${t.name}" contains null values`);
        }
      }
      return row.slice(0, width);
    });
    catalog.put(next);
    table = next;
  }
  return notice === undefined ? { tag: 'ALTER TABLE', touched: [] } : { tag: 'ALTER TABLE', touched: [], notice };
}

/**
 * ALTER TABLE ... DROP COLUMN [IF EXISTS]: as in PostgreSQL, the column stays a position in the rows,
 * renamed and hidden (never named, expanded by `*` or filled), and indexes and CHECK constraints over it
 * go with it. Rows are not rewritten. A primary-key column is refused (every table here has a key).
 */
function dropColumn(catalog: Catalog, storage: DdlStorage, t: TableDef, name: string, missingOk: boolean, cascade: boolean): { table: TableDef; notice?: string } {
  const i = t.columns.findIndex((c) => c.name === name && !c.hidden);
  if (i < 0) {
    if (missingOk) return { table: t, notice: `column "${name}" of relation "${t.name}" does not exist, skipping` };
    throw new SqlError(SqlState.undefinedColumn, `column "${name}" of relation "${t.name}" does not exist`);
  }
  if (!t.hiddenPk && t.pk.includes(i)) throw unsupported(`dropping column "${name}", which is in the primary key of "${t.name}"`);
  const c = t.columns[i]!;
  // Foreign keys referencing the column (through the unique index that goes with it): 2BP01 unless CASCADE.
  const notices: string[] = [];
  const deps = catalog.referencing(t.name).filter((d) => d.fk.refColumns.includes(i) && !(d.table.id === t.id && d.fk.columns.includes(i)));
  dropDependents(catalog, deps, `column ${name} of table ${t.name}`, cascade, notices);
  t = catalog.getById(t.id) ?? t;
  const dropped: ColumnDef = { ...c, name: `........pg.dropped.${i + 1}........`, hidden: true, dropped: true, notNull: false, default: null, serial: false };
  const checks = (t.checks ?? []).filter((k) => !someExpr(k.expr, (x) => x.k === 'col' && x.i === i));
  const next: TableDef = {
    ...t,
    columns: t.columns.map((x, j) => (j === i ? dropped : x)),
    indexes: t.indexes.filter((x) => !x.columns.includes(i)),
    ...(t.checks === undefined ? {} : { checks }),
    // Its own foreign keys over the column go with it (as in PostgreSQL, without CASCADE).
    ...(t.foreignKeys === undefined ? {} : { foreignKeys: t.foreignKeys.filter((f) => !f.columns.includes(i) && !(f.refTable === t.name && f.refColumns.includes(i))) }),
  };
  catalog.put(next);
  storage.ensureTable(next); // its indexes over the column go, as DROP INDEX's do
  return notices.length > 0 ? { table: next, notice: notices.join('\n') } : { table: next };
}

/**
 * ALTER COLUMN ... SET DEFAULT / DROP DEFAULT / DROP NOT NULL: the definition alone changes (rows keep
 * their values). A new default ends a SERIAL column's own (its counter stays, as a sequence would).
 */
function alterColumn(catalog: Catalog, t: TableDef, subtype: 'AT_ColumnDefault' | 'AT_DropNotNull', name: string, raw: Node | undefined): TableDef {
  const i = columnIndex(t, name);
  const c = t.columns[i]!;
  let next: ColumnDef;
  if (subtype === 'AT_DropNotNull') {
    if (!t.hiddenPk && t.pk.includes(i)) throw new SqlError(SqlState.invalidTableDefinition, `column "${name}" is in a primary key`);
    next = { ...c, notNull: false };
  } else {
    const def = raw === undefined ? null : defaultExpr(catalog, { colname: name }, raw, c.type);
    next = { ...c, default: def, serial: false };
  }
  const table: TableDef = { ...t, columns: t.columns.map((x, j) => (j === i ? next : x)) };
  catalog.put(table);
  return table;
}

/**
 * ALTER COLUMN ... TYPE with the column's own type and modifier (ORMs' schema sync sends it for every
 * column): nothing changes, as in PostgreSQL, which skips the rewrite. Any other type is 0A000: rows
 * would have to be converted and their keys rebuilt.
 */
function sameColumnType(t: TableDef, name: string, c: PgColumnDef): void {
  const col = t.columns[columnIndex(t, name)]!;
  const rt = resolveTypeName(c.typeName ?? {});
  if (c.raw_default !== undefined || c.collClause !== undefined) throw unsupported('ALTER COLUMN TYPE ... USING or COLLATE');
  if (rt.serial) throw new SqlError(SqlState.undefinedObject, `type "${c.typeName?.names?.map(strOf).pop() ?? ''}" does not exist`);
  if (rt.type !== col.type || rt.typmod !== col.typmod) throw unsupported('ALTER COLUMN TYPE to a different type');
}

/** ALTER TABLE ... ADD [CONSTRAINT name] CHECK (...): every row must pass it, unless NOT VALID. */
function addCheck(catalog: Catalog, storage: DdlStorage, t: TableDef, k: Constraint): TableDef {
  const existing = t.checks ?? [];
  const [check] = bindChecks(catalog, t, [{ k, column: null }], existing.map((c) => c.name));
  if (k.skip_validation !== true) {
    const env = makeEnv([], null);
    storage.validateRows(t, (row) => {
      if (evalExpr(check!.expr, row, env) === false) throw new SqlError(SqlState.checkViolation, `check constraint "${check!.name}" of relation "${t.name}" is violated by some row`);
    });
  }
  const table: TableDef = { ...t, checks: [...existing, check!].sort(byName) };
  catalog.put(table);
  return table;
}

/** ALTER TABLE ... RENAME TO, ALTER TABLE ... RENAME COLUMN: names only (rows and storage stay). */
function rename(catalog: Catalog, s: RenameStmt): DdlOutcome {
  const name = s.relation?.relname ?? '';
  const newName = s.newname ?? '';
  if (s.renameType !== 'OBJECT_TABLE' && s.renameType !== 'OBJECT_COLUMN') throw unsupported(`ALTER ${String(s.renameType).replace('OBJECT_', '')} ... RENAME`);
  const t = catalog.get(name);
  if (t === undefined) {
    if (s.missing_ok === true) return { tag: 'ALTER TABLE', touched: [], notice: `relation "${name}" does not exist, skipping` };
    throw new SqlError(SqlState.undefinedTable, `relation "${name}" does not exist`);
  }
  if (s.renameType === 'OBJECT_TABLE') {
    if (catalog.relationExists(newName)) throw new SqlError(SqlState.duplicateTable, `relation "${newName}" already exists`);
    catalog.put({ ...t, name: newName });
    renameReferences(catalog, name, newName);
    return { tag: 'ALTER TABLE', touched: [] };
  }
  const old = s.subname ?? '';
  const i = columnIndex(t, old);
  if (t.columns.some((c, j) => j !== i && c.name === newName)) throw new SqlError(SqlState.duplicateColumn, `column "${newName}" of relation "${name}" already exists`);
  catalog.put({ ...t, columns: t.columns.map((c, j) => (j === i ? { ...c, name: newName } : c)) });
  return { tag: 'ALTER TABLE', touched: [] };
}

/** ALTER TABLE ... ADD COLUMN: existing rows get the default, which must be a constant here. */
function addColumn(catalog: Catalog, storage: DdlStorage, t: TableDef, c: PgColumnDef, ifNotExists: boolean): TableDef {
  const name = c.colname ?? '';
  if (t.columns.some((col) => col.name === name && !col.hidden)) {
    if (ifNotExists) return t;
    throw new SqlError(SqlState.duplicateColumn, `column "${name}" of relation "${t.name}" already exists`);
  }
  const rt = resolveTypeName(c.typeName ?? {});
  if (rt.serial) throw unsupported('adding a SERIAL column');
  let notNull = false;
  let def: Expr | null = null;
  for (const cn of c.constraints ?? []) {
    if (!('Constraint' in cn)) continue;
    const k = cn.Constraint;
    if (k.contype === 'CONSTR_NOTNULL') notNull = true;
    else if (k.contype === 'CONSTR_DEFAULT') def = defaultExpr(catalog, c, k.raw_expr as Node, rt.type);
    else if (k.contype !== 'CONSTR_NULL') throw unsupported(`constraint ${String(k.contype)} in ADD COLUMN`);
  }
  if (def !== null && def.k !== 'const') throw unsupported('a non-constant DEFAULT in ADD COLUMN');
  const fill = def?.k === 'const' ? applyTypmod(def.v, rt.type, rt.typmod, false) : null;
  if (notNull && fill === null && storage.rowCount(t) > 0) {
    throw new SqlError(SqlState.notNullViolation, `column "${name}" of relation "${t.name}" contains null values`);
  }
  // The new column goes before the hidden row id, which stays last.
  const at = t.hiddenPk ? t.columns.length - 1 : t.columns.length;
  const columns = [...t.columns.slice(0, at), { name, type: rt.type, typmod: rt.typmod, notNull, default: def, hidden: false, serial: false }, ...t.columns.slice(at)];
  const shift = (i: number): number => (i >= at ? i + 1 : i);
  const next: TableDef = {
    ...t, columns, pk: t.pk.map(shift),
    indexes: t.indexes.map((i) => ({ ...i, columns: i.columns.map(shift) })),
  };
  storage.rekeyTable(next, (row) => [...row.slice(0, at), fill, ...row.slice(at)]);
  catalog.put(next);
  return next;
}

function truncate(catalog: Catalog, storage: DdlStorage, s: TruncateStmt): DdlOutcome {
  const named = (s.relations ?? []).map((r) => catalog.require('RangeVar' in r ? (r.RangeVar.relname ?? '') : ''));
  const notices: string[] = [];
  const tables = truncateClosure(catalog, named, s.behavior === 'DROP_CASCADE', notices);
  for (const t of tables) storage.truncate(t);
  return { tag: 'TRUNCATE TABLE', touched: tables.map((t) => t.id), ...(notices.length > 0 ? { notice: notices.join('\n') } : {}) };
}

/** ALTER TABLE ... ADD [CONSTRAINT name] FOREIGN KEY / ADD COLUMN ... REFERENCES: existing rows must satisfy it, unless NOT VALID. */
function addForeignKey(catalog: Catalog, storage: DdlStorage, t: TableDef, k: Constraint, column: string | null): TableDef {
  const fk = bindForeignKey(catalog, t, k, column, constraintNames(t));
  if (k.skip_validation !== true) storage.validateForeignKey(t, fk.refTable === t.name ? t : catalog.require(fk.refTable), fk);
  const table: TableDef = { ...t, foreignKeys: [...(t.foreignKeys ?? []), fk] };
  catalog.put(table);
  return table;
}

/**
 * ADD COLUMN ... REFERENCES, checked before the column is added (the engine applies DDL in place, so
 * a statement must fail before it changes anything): the clause binds against the table with the new
 * column, and a DEFAULT, which existing rows would hold, is refused (add the column, then the key).
 */
function referencesOfNewColumn(catalog: Catalog, t: TableDef, c: PgColumnDef, fks: readonly Constraint[]): void {
  if ((c.constraints ?? []).some((x) => 'Constraint' in x && x.Constraint.contype === 'CONSTR_DEFAULT')) {
    throw unsupported('ADD COLUMN with both DEFAULT and REFERENCES (add the column, then ADD FOREIGN KEY)');
  }
  const rt = resolveTypeName(c.typeName ?? {});
  const provisional: TableDef = { ...t, columns: [...t.columns, { name: c.colname ?? '', type: rt.type, typmod: rt.typmod, notNull: false, default: null, hidden: false, serial: false }] };
  const taken = constraintNames(t);
  for (const k of fks) taken.add(bindForeignKey(catalog, provisional, k, c.colname ?? '', taken).name);
}

/** ALTER TABLE ... DROP CONSTRAINT [IF EXISTS] name: a foreign key or a CHECK (key constraints: not here). */
function dropConstraint(catalog: Catalog, t: TableDef, name: string, missingOk: boolean): { table: TableDef; notice?: string } {
  if ((t.foreignKeys ?? []).some((f) => f.name === name)) {
    dropForeignKeys(catalog, [{ table: t, fk: t.foreignKeys!.find((f) => f.name === name)! }]);
    return { table: catalog.getById(t.id) ?? t };
  }
  if ((t.checks ?? []).some((c) => c.name === name)) {
    const table: TableDef = { ...t, checks: (t.checks ?? []).filter((c) => c.name !== name) };
    catalog.put(table);
    return { table };
  }
  if (constraintNames(t).has(name)) throw unsupported('ALTER TABLE ... DROP CONSTRAINT of a PRIMARY KEY or UNIQUE constraint');
  if (missingOk) return { table: t, notice: `constraint "${name}" of relation "${t.name}" does not exist, skipping` };
  throw new SqlError(SqlState.undefinedObject, `constraint "${name}" of relation "${t.name}" does not exist`);
}
