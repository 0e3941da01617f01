// FOREIGN KEY constraints as DDL sees them, as PostgreSQL 15 defines them: `bindForeignKey` turns a
// column `REFERENCES` or a table `FOREIGN KEY` clause into a ForeignKeyDef (sql/catalog.ts) with
// PostgreSQL's checks and errors (the referenced table exists; the referenced columns are its primary
// key or a unique constraint/index, 42830; the column counts agree, 42830; the types have a common
// equality, 42804) and its generated name (`child_parent_id_fkey`). `orphanOf` is the check ALTER TABLE
// ... ADD FOREIGN KEY runs over existing rows (the engine over its store, the cluster client over rows
// it range-read: both get the same rows and the same error). Keys are compared after casting the
// referencing values to the referenced columns' types (int4 referencing int8, varchar referencing
// text); a value the cast refuses (an int8 beyond int4) matches no key, as PostgreSQL's cross-type
// comparison finds none. Enforcement in DML: sql/foreign-key-checks.ts.

import type { Constraint, Node } from 'libpg-query';
import { cascaded } from './notices.ts';
import { type Catalog, type ForeignKeyAction, type ForeignKeyDef, type IndexDef, type TableDef } from './catalog.ts';
import { castValue } from './cast.ts';
import { SqlError, SqlState } from './errors.ts';
import { encodeKey } from './key-encoding.ts';
import { strOf, unsupported } from './lower-expr.ts';
import type { Row, SqlType, SqlValue } from './types.ts';
import { formatText } from './value-text.ts';
import { isPlainIndex } from './index-keys.ts';

const ACTIONS: Record<string, ForeignKeyAction> = { a: 'no action', r: 'restrict', c: 'cascade', n: 'set null', d: 'set default' };

const INTEGERS = new Set<SqlType>(['int2', 'int4', 'int8']);
const TEXTS = new Set<SqlType>(['text', 'varchar', 'bpchar']);
const FLOATS = new Set<SqlType>(['float4', 'float8']);
const DATETIMES = new Set<SqlType>(['date', 'timestamp', 'timestamptz']);

/** Whether a referencing column of type `fk` can reference one of type `pk` (one btree operator family, or an implicit cast to `pk`). */
export function keyTypesCompatible(fk: SqlType, pk: SqlType): boolean {
  if (fk === pk) return true;
  for (const family of [INTEGERS, TEXTS, FLOATS, DATETIMES]) if (family.has(fk) && family.has(pk)) return true;
  if (INTEGERS.has(fk) && (pk === 'numeric' || FLOATS.has(pk))) return true;
  return false;
}

/** `values` (of types `from`) as values of types `to`; null when one does not convert (it then equals no key). */
export function castKey(values: readonly SqlValue[], from: readonly SqlType[], to: readonly SqlType[]): SqlValue[] | null {
  const out: SqlValue[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i] ?? null;
    const f = from[i] ?? 'text';
    const t = to[i] ?? 'text';
    if (v === null || f === t) {
      out.push(v);
      continue;
    }
    try {
      out.push(castValue(v, f, t, -1, false));
    } catch {
      return null;
    }
  }
  return out;
}

/** Whether `a` (without repeats) and `b` hold the same columns. */
export function sameSet(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x)) && new Set(a).size === a.length;
}

/** The key of `t` whose columns are `cols` as a set: null for its primary key, else a unique index; undefined when none. */
export function uniqueKeyOf(t: TableDef, cols: readonly number[]): IndexDef | null | undefined {
  if (!t.hiddenPk && sameSet(cols, t.pk)) return null;
  return t.indexes.find((i) => i.unique && isPlainIndex(i) && sameSet(cols, i.columns));
}

/** Whether `cols` of `t` are its primary key or a unique index's columns (as a set). */
export function isUniqueKey(t: TableDef, cols: readonly number[]): boolean {
  return uniqueKeyOf(t, cols) !== undefined;
}

/** Every constraint name table `t` holds (foreign keys, checks, key indexes). */
export function constraintNames(t: TableDef): Set<string> {
  const names = new Set<string>([...(t.foreignKeys ?? []).map((f) => f.name), ...(t.checks ?? []).map((c) => c.name), ...t.indexes.map((i) => i.name)]);
  if (!t.hiddenPk) names.add(`${t.name}_pkey`);
  return names;
}

/**
 * Binds a FOREIGN KEY clause of table `table` (`column`: the column it was written on, null for a
 * table constraint). `table` may be the table being created, which a self-reference then names.
 * `taken`: constraint names the table already has (or gets in the same statement).
 */
export function bindForeignKey(catalog: Catalog, table: TableDef, k: Constraint, column: string | null, taken: ReadonlySet<string>): ForeignKeyDef {
  if (k.fk_matchtype === 'p') throw new SqlError(SqlState.featureNotSupported, 'MATCH PARTIAL not yet implemented');
  if (k.fk_del_set_cols !== undefined && k.fk_del_set_cols.length > 0) throw unsupported('a column list in ON DELETE SET NULL / SET DEFAULT');
  if (k.pktable?.schemaname !== undefined && k.pktable.schemaname !== 'public') throw unsupported('foreign keys referencing another schema');
  const refName = k.pktable?.relname ?? '';
  const columnOf = (t: TableDef, name: string): number => {
    const i = t.columns.findIndex((c) => c.name === name && !c.hidden);
    if (i < 0) throw new SqlError(SqlState.undefinedColumn, `column "${name}" referenced in foreign key constraint does not exist`);
    return i;
  };
  const columns = k.fk_attrs !== undefined && k.fk_attrs.length > 0 ? k.fk_attrs.map((n) => columnOf(table, strOf(n))) : [columnOf(table, column ?? '')];
  const parent = refName === table.name ? table : catalog.get(refName);
  if (parent === undefined) throw new SqlError(SqlState.undefinedTable, `relation "${refName}" does not exist`);
  let refColumns: number[];
  if (k.pk_attrs === undefined || k.pk_attrs.length === 0) {
    if (parent.hiddenPk) throw new SqlError(SqlState.undefinedObject, `there is no primary key for referenced table "${parent.name}"`);
    refColumns = [...parent.pk];
  } else {
    refColumns = k.pk_attrs.map((n) => columnOf(parent, strOf(n)));
    if (!isUniqueKey(parent, refColumns)) throw new SqlError(SqlState.invalidForeignKey, `there is no unique constraint matching given keys for referenced table "${parent.name}"`);
  }
  if (columns.length !== refColumns.length) throw new SqlError(SqlState.invalidForeignKey, 'number of referencing and referenced columns for foreign key disagree');
  // A generated column cannot take the values SET NULL, SET DEFAULT or an UPDATE CASCADE would write.
  if (columns.some((c) => table.columns[c]?.generated !== undefined)) {
    if (k.fk_upd_action === 'n' || k.fk_upd_action === 'd' || k.fk_upd_action === 'c') throw new SqlError(SqlState.syntaxError, 'invalid ON UPDATE action for foreign key constraint containing generated column');
    if (k.fk_del_action === 'n' || k.fk_del_action === 'd') throw new SqlError(SqlState.syntaxError, 'invalid ON DELETE action for foreign key constraint containing generated column');
  }
  let name = k.conname ?? '';
  if (name === '') {
    const addition = columns.map((c) => table.columns[c]!.name).join('_').slice(0, NAME_CHARS_MAX);
    name = objectName(table.name, addition, 'fkey');
    for (let n = 1; taken.has(name); n++) name = objectName(table.name, addition, `fkey${n}`);
  } else if (taken.has(name)) {
    throw new SqlError(SqlState.duplicateObject, `constraint "${name}" for relation "${table.name}" already exists`);
  }
  for (let i = 0; i < columns.length; i++) {
    const fc = table.columns[columns[i]!]!;
    const pc = parent.columns[refColumns[i]!]!;
    if (!keyTypesCompatible(fc.type, pc.type)) {
      throw new SqlError(SqlState.datatypeMismatch, `foreign key constraint "${name}" cannot be implemented`,
        `Key columns "${fc.name}" and "${pc.name}" are of incompatible types: ${typeName(fc.type)} and ${typeName(pc.type)}.`);
    }
  }
  return {
    name, columns, refTable: parent.name, refColumns,
    onDelete: ACTIONS[k.fk_del_action ?? 'a'] ?? 'no action', onUpdate: ACTIONS[k.fk_upd_action ?? 'a'] ?? 'no action',
    matchFull: k.fk_matchtype === 'f',
    ...(k.deferrable === true ? { deferrable: true } : {}),
    ...(k.initdeferred === true ? { initiallyDeferred: true } : {}),
  };
}

const ATTRIBUTES = new Set(['CONSTR_ATTR_DEFERRABLE', 'CONSTR_ATTR_NOT_DEFERRABLE', 'CONSTR_ATTR_DEFERRED', 'CONSTR_ATTR_IMMEDIATE']);

/**
 * A column's constraint list with DEFERRABLE / NOT DEFERRABLE / INITIALLY DEFERRED / IMMEDIATE, which
 * the grammar leaves as constraints of their own after the one they qualify, folded into it with
 * PostgreSQL's checks (transformConstraintAttrs): they follow a FOREIGN KEY, UNIQUE or PRIMARY KEY
 * (the latter two keep ignoring them, as before), each kind at most once, and INITIALLY DEFERRED is
 * DEFERRABLE.
 */
export function withConstraintAttributes(constraints: readonly Node[] | undefined): Node[] {
  const out: Node[] = [];
  let last: Constraint | null = null;
  let seenDeferrable = false;
  let seenInitially = false;
  const misplaced = (what: string): SqlError => new SqlError(SqlState.syntaxError, `misplaced ${what} clause`);
  const multiple = (what: string): SqlError => new SqlError(SqlState.syntaxError, `multiple ${what} clauses not allowed`);
  for (const n of constraints ?? []) {
    const k = 'Constraint' in n ? n.Constraint : null;
    if (k === null || !ATTRIBUTES.has(k.contype ?? '')) {
      out.push(n);
      const kind = k?.contype;
      last = kind === 'CONSTR_FOREIGN' || kind === 'CONSTR_UNIQUE' || kind === 'CONSTR_PRIMARY' ? k : null;
      seenDeferrable = false;
      seenInitially = false;
      continue;
    }
    const deferrableClause = k.contype === 'CONSTR_ATTR_DEFERRABLE' || k.contype === 'CONSTR_ATTR_NOT_DEFERRABLE';
    const name = { CONSTR_ATTR_DEFERRABLE: 'DEFERRABLE', CONSTR_ATTR_NOT_DEFERRABLE: 'NOT DEFERRABLE', CONSTR_ATTR_DEFERRED: 'INITIALLY DEFERRED', CONSTR_ATTR_IMMEDIATE: 'INITIALLY IMMEDIATE' }[k.contype as string] ?? '';
    if (last === null) throw misplaced(name);
    if (deferrableClause) {
      if (seenDeferrable) throw multiple('DEFERRABLE/NOT DEFERRABLE');
      seenDeferrable = true;
      if (k.contype === 'CONSTR_ATTR_NOT_DEFERRABLE' && last.initdeferred === true) throw new SqlError(SqlState.syntaxError, 'constraint declared INITIALLY DEFERRED must be DEFERRABLE');
      last = { ...last, deferrable: k.contype === 'CONSTR_ATTR_DEFERRABLE' };
    } else {
      if (seenInitially) throw multiple('INITIALLY IMMEDIATE/DEFERRED');
      seenInitially = true;
      const deferred = k.contype === 'CONSTR_ATTR_DEFERRED';
      if (deferred && seenDeferrable && last.deferrable !== true) throw new SqlError(SqlState.syntaxError, 'constraint declared INITIALLY DEFERRED must be DEFERRABLE');
      // INITIALLY DEFERRED alone implies DEFERRABLE.
      last = { ...last, initdeferred: deferred, ...(deferred && !seenDeferrable ? { deferrable: true } : {}) };
    }
    out[out.length - 1] = { Constraint: last };
  }
  return out;
}

/** NAMEDATALEN - 1: the longest identifier PostgreSQL keeps. */
const NAME_CHARS_MAX = 63;

/** PostgreSQL's makeObjectName: `name1_name2_label`, the longer of the two names shortened until it fits 63 characters. */
function objectName(name1: string, name2: string, label: string): string {
  const avail = NAME_CHARS_MAX - label.length - 2;
  let n1 = name1.length;
  let n2 = name2.length;
  while (n1 + n2 > avail) {
    if (n1 > n2) n1--;
    else n2--;
  }
  return `${name1.slice(0, n1)}_${name2.slice(0, n2)}_${label}`;
}

const TYPE_NAMES: Partial<Record<SqlType, string>> = {
  int2: 'smallint', int4: 'integer', int8: 'bigint', float4: 'real', float8: 'double precision', varchar: 'character varying',
  bpchar: 'character', bool: 'boolean', timestamp: 'timestamp without time zone', timestamptz: 'timestamp with time zone',
};

function typeName(t: SqlType): string {
  return TYPE_NAMES[t] ?? t;
}

/** `Key (a, b)=(1, 2)` over `cols` of `t` with `values`. */
function keyText(t: TableDef, cols: readonly number[], values: readonly SqlValue[]): string {
  const names = cols.map((c) => t.columns[c]?.name ?? '?').join(', ');
  const vals = values.map((v, i) => (v === null ? 'null' : formatText(v, t.columns[cols[i]!]?.type ?? 'text'))).join(', ');
  return `Key (${names})=(${vals})`;
}

/** 23503 for a referencing row whose key is not in the referenced table (or mixes NULLs under MATCH FULL). */
export function missingKeyError(child: TableDef, fk: ForeignKeyDef, row: Row): SqlError {
  const values = fk.columns.map((c) => row[c] ?? null);
  const message = `insert or update on table "${child.name}" violates foreign key constraint "${fk.name}"`;
  if (fk.matchFull && values.some((v) => v === null)) return new SqlError(SqlState.foreignKeyViolation, message, 'MATCH FULL does not allow mixing of null and non-null key values.');
  return new SqlError(SqlState.foreignKeyViolation, message, `${keyText(child, fk.columns, values)} is not present in table "${fk.refTable}".`);
}

/** 23503 for a referenced key that is deleted or changed while `child` still references it. */
export function stillReferencedError(parent: TableDef, child: TableDef, fk: ForeignKeyDef, key: readonly SqlValue[]): SqlError {
  return new SqlError(SqlState.foreignKeyViolation, `update or delete on table "${parent.name}" violates foreign key constraint "${fk.name}" on table "${child.name}"`,
    `${keyText(parent, fk.refColumns, key)} is still referenced from table "${child.name}".`);
}

/** Whether a referencing row's key is checked: 'skip' (MATCH SIMPLE with a NULL, or all NULL), 'mixed' (MATCH FULL with some NULL), or 'check'. */
export function keyState(fk: ForeignKeyDef, row: Row): 'skip' | 'mixed' | 'check' {
  let nulls = 0;
  for (const c of fk.columns) if ((row[c] ?? null) === null) nulls++;
  if (nulls === 0) return 'check';
  return fk.matchFull && nulls < fk.columns.length ? 'mixed' : 'skip';
}

/** The referenced key a referencing row names, as the referenced columns' encoded values (null: no key matches). */
function referencedKey(child: TableDef, parent: TableDef, fk: ForeignKeyDef, row: Row): string | null {
  const values = castKey(fk.columns.map((c) => row[c] ?? null), fk.columns.map((c) => child.columns[c]!.type), fk.refColumns.map((c) => parent.columns[c]!.type));
  return values === null ? null : encodeKey(values, fk.refColumns.map((c) => parent.columns[c]!.type));
}

/** The first violation of `fk` among `childRows` given every row of the referenced table (ALTER TABLE ... ADD FOREIGN KEY), else null. */
export function orphanOf(child: TableDef, parent: TableDef, fk: ForeignKeyDef, childRows: Iterable<Row>, parentRows: Iterable<Row>): SqlError | null {
  const keys = new Set<string>();
  const types = fk.refColumns.map((c) => parent.columns[c]!.type);
  for (const r of parentRows) {
    if (fk.refColumns.some((c) => (r[c] ?? null) === null)) continue;
    keys.add(encodeKey(fk.refColumns.map((c) => r[c] ?? null), types));
  }
  for (const r of childRows) {
    const state = keyState(fk, r);
    if (state === 'skip') continue;
    const k = state === 'mixed' ? null : referencedKey(child, parent, fk, r);
    if (k === null || !keys.has(k)) return missingKeyError(child, fk, r);
  }
  return null;
}

/** The dependency notice or error text for constraints that go with a dropped object (PostgreSQL's reportDependentObjects). */
export function dependentsText(deps: readonly { table: TableDef; fk: ForeignKeyDef }[]): string[] {
  return deps.map((d) => `constraint ${d.fk.name} on table ${d.table.name}`);
}

/** Removes the given foreign keys from the tables holding them (DROP ... CASCADE). */
export function dropForeignKeys(catalog: Catalog, deps: readonly { table: TableDef; fk: ForeignKeyDef }[]): void {
  for (const id of new Set(deps.map((d) => d.table.id))) {
    const t = catalog.getById(id);
    if (t === undefined) continue;
    const gone = new Set(deps.filter((d) => d.table.id === id).map((d) => d.fk.name));
    catalog.put({ ...t, foreignKeys: (t.foreignKeys ?? []).filter((f) => !gone.has(f.name)) });
  }
}

/** After RENAME of table `from` to `to`: every foreign key referencing it names `to`. */
export function renameReferences(catalog: Catalog, from: string, to: string): void {
  for (const t of catalog.list()) {
    if (!(t.foreignKeys ?? []).some((f) => f.refTable === from)) continue;
    catalog.put({ ...t, foreignKeys: (t.foreignKeys ?? []).map((f) => (f.refTable === from ? { ...f, refTable: to } : f)) });
  }
}

/**
 * Dependent foreign keys of a dropped object: without CASCADE, 2BP01 as PostgreSQL words it
 * (`what` is e.g. `table parent`); with it, they are dropped and the notice says so.
 */
export function dropDependents(catalog: Catalog, deps: readonly { table: TableDef; fk: ForeignKeyDef }[], what: string, cascade: boolean, notices: string[]): void {
  if (deps.length === 0) return;
  const lines = dependentsText(deps);
  if (!cascade) {
    throw new SqlError(SqlState.dependentObjectsStillExist, `cannot drop ${what} because other objects depend on it`,
      lines.map((l) => `${l} depends on ${what}`).join('\n'), undefined, 'Use DROP ... CASCADE to drop the dependent objects too.');
  }
  for (const l of lines) notices.push(cascaded(l));
  dropForeignKeys(catalog, deps);
}

/**
 * The tables TRUNCATE empties: `named` and, with CASCADE, every table referencing one of them (with a
 * notice each); without it, a table referenced from outside the list is 0A000 as in PostgreSQL.
 */
export function truncateClosure(catalog: Catalog, named: readonly TableDef[], cascade: boolean, notices: string[]): TableDef[] {
  const out = [...named];
  const names = new Set(named.map((t) => t.name));
  for (let i = 0; i < out.length; i++) {
    for (const d of catalog.referencing(out[i]!.name)) {
      if (names.has(d.table.name)) continue;
      if (!cascade) {
        throw new SqlError(SqlState.featureNotSupported, 'cannot truncate a table referenced in a foreign key constraint',
          `Table "${d.table.name}" references "${out[i]!.name}".`, undefined, `Truncate table "${d.table.name}" at the same time, or use TRUNCATE ... CASCADE.`);
      }
      names.add(d.table.name);
      out.push(d.table);
      notices.push(`truncate cascades to table "${d.table.name}"`);
    }
  }
  return out;
}
