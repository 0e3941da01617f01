// The catalog: tables, columns, primary keys and secondary indexes, built only from DDL. Table and index
// ids come from one counter advanced in DDL order, so every replica that applies the same DDL in the same
// order derives the same ids (no randomness, no clocks). Every table has a primary key: when none is
// declared, a hidden int8 column `ctid_rowid` is appended and is the key; its values come from the
// execution context (derived from the transaction timestamp under replication). Definitions are
// immutable values; DDL replaces them and bumps `version`, which invalidates cached plans.

import { SqlError, SqlState } from './errors.ts';
import type { Node } from 'libpg-query';
import type { Expr } from './expr.ts';
import type { SequenceDef } from './sequences.ts';
import type { GeneratedDef } from './generated-columns.ts';
import { refreshEnum, SqlEnum, type EnumTypeDef } from './enum-types.ts';
import type { SqlType } from './types.ts';
import type { RoleDef, RoleMember } from './roles.ts';
import type { AclItem, Owned } from './privileges.ts';

export interface ColumnDef {
  readonly name: string;
  readonly type: SqlType;
  readonly typmod: number;
  readonly notNull: boolean;
  readonly default: Expr | null;
  /** The hidden row id of a table without a declared primary key; never expanded by `*`. */
  readonly hidden: boolean;
  /**
   * A system column, named but never expanded by `*` (PostgreSQL's `tableoid` of the gateway's catalog
   * tables: client/gateway/catalog-dump.ts). Written like any other column. Absent: false.
   */
  readonly system?: boolean;
  /** A SERIAL column: its default draws from the sequence it owns (sql/ddl-sequence.ts). */
  readonly serial: boolean;
  /** An identity column, GENERATED ALWAYS ('a') or BY DEFAULT ('d'): its default draws from the sequence it owns. Absent: not one. */
  readonly identity?: 'a' | 'd';
  /**
   * Dropped (ALTER TABLE ... DROP COLUMN): still a position in stored rows, hidden under PostgreSQL's
   * name for it (`........pg.dropped.N........`), NULL in new rows. Absent: false.
   */
  readonly dropped?: boolean;
  /** COMMENT ON COLUMN; absent: none. */
  readonly comment?: string;
  /** A stored generated column (sql/generated-columns.ts): its value is computed from the row's other columns. Absent: not one. */
  readonly generated?: GeneratedDef;
  /** The enum type of an 'enum' column as it is now (its typmod is the type's oid); stored rows hold label positions. */
  readonly enumType?: EnumTypeDef;
}

export interface IndexDef {
  readonly id: number;
  readonly name: string;
  readonly tableId: number;
  /** By key position, the column ordinal; -1 where the key is an expression (`exprs`), as PostgreSQL's indkey has 0. */
  readonly columns: readonly number[];
  readonly types: readonly SqlType[];
  readonly unique: boolean;
  /** Backs a PRIMARY KEY or UNIQUE constraint (dropped with the table, not by DROP INDEX). */
  readonly constraint: boolean;
  /** An expression index's keys by position (null at a column's position; sql/index-keys.ts). Absent: every key is a column. */
  readonly exprs?: readonly (IndexExpr | null)[];
  /** A partial index's predicate: rows for which it is not true have no entry. Absent: every row has one. */
  readonly predicate?: IndexExpr;
  /** COMMENT ON INDEX; absent: none. */
  readonly comment?: string;
  /** COMMENT ON CONSTRAINT of the UNIQUE constraint it backs (pg_constraint's, not the index's); absent: none. */
  readonly constraintComment?: string;
}

/**
 * An index key expression or predicate (sql/index-keys.ts): bound over the table row (immutable
 * functions and operators only), its text's analyzed form (sql/check-text.ts; null for a form it does
 * not print), and the parse tree with the column names it was bound under, bound again when a column's
 * type changes (as PostgreSQL rebuilds such an index).
 */
export interface IndexExpr {
  readonly expr: Expr;
  readonly source: object | null;
  readonly raw: Node;
  readonly names: readonly string[];
}

export interface TableDef extends Owned {
  readonly id: number;
  readonly name: string;
  readonly columns: readonly ColumnDef[];
  /** Column ordinals of the primary key. Invariant: non-empty. */
  readonly pk: readonly number[];
  readonly pkTypes: readonly SqlType[];
  /** True when the key is the hidden row id column (always the last column). */
  readonly hiddenPk: boolean;
  readonly indexes: readonly IndexDef[];
  /** CHECK constraints (CREATE TABLE), each a boolean expression over the row; absent: none. */
  readonly checks?: readonly CheckDef[];
  /** FOREIGN KEY constraints this table's rows must satisfy (sql/foreign-keys.ts); absent: none. */
  readonly foreignKeys?: readonly ForeignKeyDef[];
  /** COMMENT ON TABLE (or MATERIALIZED VIEW); absent: none. */
  readonly comment?: string;
  /** COMMENT ON INDEX of the primary key's index (`<table>_pkey`); absent: none. */
  readonly pkIndexComment?: string;
  /** COMMENT ON CONSTRAINT of the primary key; absent: none. */
  readonly pkConstraintComment?: string;
  /** A materialized view's definition (sql/matviews.ts); absent: an ordinary table. */
  readonly matview?: MatviewDef;
  /** A session's temporary table as that session's system catalog shows it (sql/temp-tables.ts); never in a catalog. */
  readonly temporary?: true;
}

/**
 * What makes a table a materialized view: its query as a view keeps it (every `*` expanded, names
 * rewritten on renames), the relations it names, whether it holds its query's rows (REFRESH ... WITH
 * NO DATA empties it and reading it is then 55000) and the SELECT as written (pg_get_viewdef).
 */
export interface MatviewDef {
  readonly query: Node;
  readonly uses: readonly string[];
  readonly populated: boolean;
  readonly text?: string;
}

/** What a FOREIGN KEY does to referencing rows when the referenced key is deleted or updated (PostgreSQL's words). */
export type ForeignKeyAction = 'no action' | 'restrict' | 'cascade' | 'set null' | 'set default';

/**
 * A FOREIGN KEY of the table holding it (the referencing table). The referenced table is named, not
 * numbered: a table's id changes when it moves to a fresh storage (TRUNCATE, rewrites), its name only
 * by RENAME, which rewrites every reference to it. Invariant: `columns` and `refColumns` have one
 * length, are visible columns, and `refColumns` are the referenced table's primary key or a unique
 * index's columns (as a set) with compatible types.
 */
export interface ForeignKeyDef {
  readonly name: string;
  readonly columns: readonly number[];
  readonly refTable: string;
  readonly refColumns: readonly number[];
  readonly onDelete: ForeignKeyAction;
  readonly onUpdate: ForeignKeyAction;
  /** MATCH FULL (all key columns NULL or none); false: MATCH SIMPLE (any NULL column skips the check). */
  readonly matchFull: boolean;
  /** DEFERRABLE (SET CONSTRAINTS may defer its checks to COMMIT); absent: NOT DEFERRABLE. */
  readonly deferrable?: true;
  /** INITIALLY DEFERRED (checks wait for COMMIT unless SET CONSTRAINTS ... IMMEDIATE); absent: INITIALLY IMMEDIATE. Invariant: only with `deferrable`. */
  readonly initiallyDeferred?: true;
  /** COMMENT ON CONSTRAINT; absent: none. */
  readonly comment?: string;
}

export interface CheckDef {
  readonly name: string;
  readonly expr: Expr;
  /**
   * What pg_get_constraintdef prints (sql/check-text.ts checkText), built from the parse tree when the
   * constraint is made; absent for a form it does not cover.
   */
  readonly source?: object;
  /** Added NOT VALID (existing rows were not checked); absent: false. */
  readonly notValid?: boolean;
  /** COMMENT ON CONSTRAINT; absent: none. */
  readonly comment?: string;
}

/**
 * A view (sql/views.ts): its query as a parse tree with every `*` already expanded (PostgreSQL fixes a
 * view's columns when it is made), the columns it yields, and the relations (tables and views) it
 * names, for dependency checks. Invariant: `query` binds against the catalog to exactly `columns`.
 */
export interface ViewDef extends Owned {
  /** From the DDL-order counter, as table ids (the gateway's oid for it). */
  readonly id: number;
  readonly name: string;
  readonly query: Node;
  /** `comment`: COMMENT ON COLUMN (absent: none). */
  readonly columns: readonly { readonly name: string; readonly type: SqlType; readonly typmod: number; readonly comment?: string }[];
  readonly uses: readonly string[];
  /** The SELECT as written in CREATE VIEW (pg_get_viewdef); absent when the source text was not known. */
  readonly text?: string;
  /** COMMENT ON VIEW; absent: none. */
  readonly comment?: string;
}

export const HIDDEN_ROWID = 'ctid_rowid';

/**
 * Storage ids (docs/decisions/0012): a table's id is also where its rows live (sql/row-key.ts). Ids
 * below STORAGE_ID_BASE come from the DDL-order counter; ids in [STORAGE_ID_BASE, STORAGE_ID_END) are
 * fresh storages a client allocated for one load (TRUNCATE, ADD PRIMARY KEY, a table created in the
 * transaction) and that a catalog version names from its `switch` on. STORAGE_ID_END keeps every table
 * id's first key byte 0 (the replicas' SQL key space: semantic-cc.ts, table-writes.ts).
 */
export const STORAGE_ID_BASE = 1 << 23;
export const STORAGE_ID_END = 1 << 24;

/** A catalog's definitions at one moment (Catalog.snapshot), to go back to with `restore`. */
export interface CatalogSnapshot {
  readonly tables: ReadonlyMap<string, TableDef>;
  readonly byId: ReadonlyMap<number, TableDef>;
  readonly retired: ReadonlyMap<number, TableDef>;
  readonly views: ReadonlyMap<string, ViewDef>;
  readonly nextId: number;
  readonly sequences: ReadonlyMap<number, SequenceDef>;
  readonly nextSequenceId: number;
  readonly extensions: ReadonlyMap<string, string>;
  readonly enums: ReadonlyMap<string, EnumTypeDef>;
  readonly nextTypeOid: number;
  readonly roles: ReadonlyMap<string, RoleDef>;
  readonly members: readonly RoleMember[];
  readonly acls: ReadonlyMap<string, readonly AclItem[]>;
  readonly comments: ReadonlyMap<string, string | null>;
}

/**
 * Oids of enum types, their array types and their labels come from one counter of the catalog's own (as
 * PostgreSQL's oids do), above every table's oid (the gateway's 16384 + table id), so a catalog log
 * written before enums existed replays to the same ids.
 */
export const TYPE_OID_BASE = 1 << 25;
/** pg_type oids of tables' row types (pg_class.reltype): this plus the table's id, clear of every other oid range. */
export const ROW_TYPE_OID_BASE = 0x70000000;
export const rowTypeOid = (t: { readonly id: number }): number => ROW_TYPE_OID_BASE + t.id;

export class Catalog {
  private tables = new Map<string, TableDef>();
  private byId = new Map<number, TableDef>();
  /** Storage ids a table used before a switch, with the definition it had: never named again. */
  private retired = new Map<number, TableDef>();
  /** Views by name, in creation order. */
  private views = new Map<string, ViewDef>();
  private nextId = 1;
  /**
   * Sequences by id (sql/sequences.ts), in creation order; their ids come from a counter of their own.
   * Executing nextval finds one by id per row; statements name them only while they bind.
   */
  private sequences = new Map<number, SequenceDef>();
  private nextSequenceId = 1;
  /** Installed extensions (sql/extensions.ts) and their versions. */
  private extensions = new Map<string, string>();
  /** Enum types by name (sql/enum-types.ts), in creation order. */
  private enums = new Map<string, EnumTypeDef>();
  private nextTypeOid = TYPE_OID_BASE;
  /** Roles by name (sql/roles.ts), in creation order; their oids come from the type oid counter. */
  private roles = new Map<string, RoleDef>();
  /** Role memberships (pg_auth_members), in the order they were granted. */
  private members: readonly RoleMember[] = [];
  /** ACLs of objects that are not relations ('schema public', 'database': sql/schema-privileges.ts), once GRANT or REVOKE made them explicit. */
  private acls = new Map<string, readonly AclItem[]>();
  /**
   * Comments of objects that have no definition here (sql/comments.ts): 'schema public', 'database',
   * 'extension <name>'. null: removed (schema public's default, 'standard public schema', no longer shows).
   */
  private comments = new Map<string, string | null>();
  /** Bumped by every DDL; plans cached under an older version are stale. */
  version = 0;
  /**
   * Schemas besides public whose tables this catalog holds, each table named `schema.table` (the
   * gateway's system catalog: pg_catalog, information_schema). Empty for user databases.
   */
  systemSchemas: ReadonlySet<string> = new Set();

  /** Whether DDL of this catalog's history has handed out `id` from the DDL-order counter (a table or index made, maybe since dropped). */
  allocated(id: number): boolean {
    return id >= 1 && id < this.nextId;
  }

  allocateId(): number {
    if (this.nextId >= STORAGE_ID_BASE) throw new SqlError(SqlState.programLimitExceeded, 'too many tables and indexes created in this database');
    return this.nextId++;
  }

  /**
   * Moves table `name` to the fresh storage `id` (its rows are then read and written there; the old id
   * is retired). Refuses an id outside the fresh range or one any table of this catalog ever used, so a
   * catalog can never make one table's rows appear in another. Bumps `version` (plans bind the id).
   */
  switchStorage(name: string, id: number): TableDef {
    const t = this.require(name);
    if (!Number.isInteger(id) || id < STORAGE_ID_BASE || id >= STORAGE_ID_END) throw new SqlError(SqlState.invalidParameterValue, `storage id ${id} is outside the range of fresh storages`);
    if (this.byId.has(id) || this.retired.has(id)) throw new SqlError(SqlState.invalidParameterValue, `storage id ${id} is already in use`);
    const next: TableDef = { ...t, id, indexes: t.indexes.map((i) => ({ ...i, tableId: id })) };
    this.byId.delete(t.id);
    this.retired.set(t.id, t);
    this.put(next);
    return next;
  }

  /** The definition rows under storage `id` were written with: the current table, or a retired storage's. */
  storageDef(id: number): TableDef | undefined {
    return this.byId.get(id) ?? this.retired.get(id);
  }

  get(name: string): TableDef | undefined {
    return this.tables.get(name);
  }

  snapshot(): CatalogSnapshot {
    return {
      tables: new Map(this.tables), byId: new Map(this.byId), retired: new Map(this.retired), views: new Map(this.views), nextId: this.nextId,
      sequences: new Map(this.sequences), nextSequenceId: this.nextSequenceId, extensions: new Map(this.extensions),
      enums: new Map(this.enums), nextTypeOid: this.nextTypeOid, roles: new Map(this.roles), members: this.members, acls: new Map(this.acls),
      comments: new Map(this.comments),
    };
  }

  /** Goes back to `s` (which stays usable). `version` moves forward, so plans cached since are stale. */
  restore(s: CatalogSnapshot): void {
    this.tables = new Map(s.tables);
    this.byId = new Map(s.byId);
    this.retired = new Map(s.retired);
    this.views = new Map(s.views);
    this.nextId = s.nextId;
    this.sequences = new Map(s.sequences);
    this.nextSequenceId = s.nextSequenceId;
    this.extensions = new Map(s.extensions);
    this.enums = new Map(s.enums);
    this.nextTypeOid = s.nextTypeOid;
    this.roles = new Map(s.roles);
    this.members = s.members;
    this.acls = new Map(s.acls);
    this.comments = new Map(s.comments);
    this.version++;
  }

  getById(id: number): TableDef | undefined {
    return this.byId.get(id);
  }

  require(name: string): TableDef {
    const t = this.tables.get(name);
    if (!t) throw new SqlError(SqlState.undefinedTable, `relation "${name}" does not exist`);
    return t;
  }

  /**
   * The table a FROM item names: `name` or `public.name`, or `schema.name` for a system schema; an
   * unqualified name not found falls back to pg_catalog, searched implicitly as in PostgreSQL.
   */
  resolve(schema: string | undefined, name: string): TableDef {
    if (schema === undefined || schema === 'public') {
      const t = this.tables.get(name);
      if (t !== undefined || schema !== undefined || !this.systemSchemas.has('pg_catalog')) return t ?? this.require(name);
      return this.tables.get(`pg_catalog.${name}`) ?? this.require(name);
    }
    const t = this.systemSchemas.has(schema) ? this.tables.get(`${schema}.${name}`) : undefined;
    if (t === undefined) throw new SqlError(SqlState.undefinedTable, `relation "${schema}.${name}" does not exist`);
    return t;
  }

  list(): TableDef[] {
    return [...this.byId.values()].sort((a, b) => a.id - b.id);
  }

  /** Installs a new or replaced table definition. */
  put(t: TableDef): void {
    const old = this.byId.get(t.id);
    if (old && old.name !== t.name) this.tables.delete(old.name);
    this.tables.set(t.name, t);
    this.byId.set(t.id, t);
    this.version++;
  }

  remove(name: string): TableDef | undefined {
    const t = this.tables.get(name);
    if (!t) return undefined;
    this.tables.delete(name);
    this.byId.delete(t.id);
    this.version++;
    return t;
  }

  /** The table with an index named `name`, its primary key's included. */
  indexTable(name: string): TableDef | undefined {
    for (const t of this.byId.values()) if (hasIndexNamed(t, name)) return t;
    return undefined;
  }

  findIndex(name: string): { table: TableDef; index: IndexDef } | undefined {
    for (const t of this.byId.values()) {
      const index = t.indexes.find((i) => i.name === name);
      if (index) return { table: t, index };
    }
    return undefined;
  }

  /** Every FOREIGN KEY that references table `name`, with the table holding it (itself included). */
  referencing(name: string): { table: TableDef; fk: ForeignKeyDef }[] {
    return referencingKeys(this.list(), name);
  }

  relationExists(name: string): boolean {
    return this.tables.has(name) || this.views.has(name) || this.sequence(name) !== undefined || this.findIndex(name) !== undefined;
  }

  extensionVersion(name: string): string | undefined {
    return this.extensions.get(name);
  }

  putExtension(name: string, version: string): void {
    this.extensions.set(name, version);
    this.version++;
  }

  removeExtension(name: string): void {
    this.comments.delete(`extension ${name}`);
    if (this.extensions.delete(name)) this.version++;
  }

  /** The comment of an object without a definition here ('schema public', 'database', 'extension <name>'); undefined: never set, null: removed. */
  objectComment(key: string): string | null | undefined {
    return this.comments.get(key);
  }

  setObjectComment(key: string, text: string | null): void {
    this.comments.set(key, text);
    this.version++;
  }

  allocateSequenceId(): number {
    return this.nextSequenceId++;
  }

  sequence(name: string): SequenceDef | undefined {
    for (const s of this.sequences.values()) if (s.name === name) return s;
    return undefined;
  }

  sequenceById(id: number): SequenceDef | undefined {
    return this.sequences.get(id);
  }

  /** The sequence `name` names: 42P01 when no relation has the name, 42809 when it is not a sequence (PostgreSQL's words). */
  requireSequence(name: string): SequenceDef {
    const s = this.sequence(name);
    if (s !== undefined) return s;
    if (this.relationExists(name)) throw new SqlError('42809', `"${name}" is not a sequence`);
    throw new SqlError(SqlState.undefinedTable, `relation "${name}" does not exist`);
  }

  listSequences(): SequenceDef[] {
    return [...this.sequences.values()];
  }

  /** Installs a new, changed or renamed sequence. */
  putSequence(seq: SequenceDef): void {
    this.sequences.set(seq.id, seq);
    this.version++;
  }

  removeSequence(name: string): SequenceDef | undefined {
    const s = this.sequence(name);
    if (s === undefined) return undefined;
    this.sequences.delete(s.id);
    this.version++;
    return s;
  }

  /** The sequences owned by table `table` (OWNED BY a column of it): they go with it. */
  ownedSequences(table: string, column?: string): SequenceDef[] {
    return this.listSequences().filter((s) => s.ownedBy !== null && s.ownedBy.table === table && (column === undefined || s.ownedBy.column === column));
  }

  allocateTypeOid(): number {
    return this.nextTypeOid++;
  }

  enumType(name: string): EnumTypeDef | undefined {
    return this.enums.get(name);
  }

  enumByOid(oid: number): EnumTypeDef | undefined {
    for (const e of this.enums.values()) if (e.oid === oid) return e;
    return undefined;
  }

  /** `{ enumType }` for a column of an enum type or an array of one (its typmod is the enum's oid), else nothing: spread into a ColumnDef. */
  enumOfColumn(type: SqlType, typmod: number): { readonly enumType?: EnumTypeDef } {
    const e = type === 'enum' || type === '_enum' ? this.enumByOid(typmod) : undefined;
    return e === undefined ? {} : { enumType: e };
  }

  listEnums(): EnumTypeDef[] {
    return [...this.enums.values()];
  }

  /**
   * Installs a new, changed or renamed enum type (renamed from `oldName`, keeping its place). Columns of
   * the type take the new definition, and so do their defaults' constants, so rows decode with its labels.
   */
  putEnum(e: EnumTypeDef, oldName: string = e.name): void {
    this.enums = oldName === e.name ? this.enums.set(e.name, e) : new Map([...this.enums].map(([k, x]) => (k === oldName ? [e.name, e] : [k, x])));
    for (const t of this.list()) {
      if (!t.columns.some((c) => c.enumType?.oid === e.oid)) continue;
      const refresh = (d: Expr | null): Expr | null => (d !== null && d.k === 'const' && d.v instanceof SqlEnum && d.v.type.oid === e.oid ? { ...d, v: refreshEnum(e, d.v) } : d);
      this.put({ ...t, columns: t.columns.map((c) => (c.enumType?.oid === e.oid ? { ...c, enumType: e, default: refresh(c.default) } : c)) });
    }
    this.version++;
  }

  removeEnum(name: string): void {
    if (this.enums.delete(name)) this.version++;
  }

  role(name: string): RoleDef | undefined {
    return this.roles.get(name);
  }

  roleByOid(oid: number): RoleDef | undefined {
    for (const r of this.roles.values()) if (r.oid === oid) return r;
    return undefined;
  }

  listRoles(): RoleDef[] {
    return [...this.roles.values()];
  }

  /** Installs a new, changed or renamed role (renamed from `oldName`, keeping its place). */
  putRole(r: RoleDef, oldName: string = r.name): void {
    this.roles = oldName === r.name ? this.roles.set(r.name, r) : new Map([...this.roles].map(([k, x]) => (k === oldName ? [r.name, r] : [k, x])));
    this.version++;
  }

  /** Removes role `name` and every membership it takes part in. */
  removeRole(name: string): void {
    const r = this.roles.get(name);
    if (r === undefined) return;
    this.roles.delete(name);
    this.members = this.members.filter((m) => m.role !== r.oid && m.member !== r.oid);
    this.version++;
  }

  objectAcl(key: string): readonly AclItem[] | undefined {
    return this.acls.get(key);
  }

  /** Every object ACL by key ('schema public', 'database', default privileges: sql/default-privileges.ts). */
  listObjectAcls(): ReadonlyMap<string, readonly AclItem[]> {
    return this.acls;
  }

  setObjectAcl(key: string, acl: readonly AclItem[]): void {
    this.acls.set(key, acl);
    this.version++;
  }

  listMembers(): readonly RoleMember[] {
    return this.members;
  }

  setMembers(members: readonly RoleMember[]): void {
    this.members = members;
    this.version++;
  }

  getView(name: string): ViewDef | undefined {
    return this.views.get(name);
  }

  /** Views in creation order. */
  listViews(): ViewDef[] {
    return [...this.views.values()];
  }

  /** Installs a new or replaced view (a replaced one keeps its place; one renamed from `oldName` too). */
  putView(v: ViewDef, oldName: string = v.name): void {
    if (oldName !== v.name) {
      this.views = new Map([...this.views].map(([k, x]) => (k === oldName ? [v.name, v] : [k, x])));
    } else {
      this.views.set(v.name, v);
    }
    this.version++;
  }

  removeView(name: string): void {
    if (this.views.delete(name)) this.version++;
  }
}

/** A name as a quoted SQL identifier, for statements built from catalog names. */
/** Every FOREIGN KEY among `tables` that references table `name`, with the table holding it. */
export function referencingKeys(tables: Iterable<TableDef>, name: string): { table: TableDef; fk: ForeignKeyDef }[] {
  const out: { table: TableDef; fk: ForeignKeyDef }[] = [];
  for (const t of tables) for (const fk of t.foreignKeys ?? []) if (fk.refTable === name) out.push({ table: t, fk });
  return out;
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The name of a table's primary key constraint and index (`<table>_pkey`, derived); null for a table without one. */
export function primaryKeyName(t: TableDef): string | null {
  return t.hiddenPk ? null : `${t.name}_pkey`;
}

/** Whether table `t` has an index named `name`, its primary key's included. */
export function hasIndexNamed(t: TableDef, name: string): boolean {
  return primaryKeyName(t) === name || t.indexes.some((i) => i.name === name);
}

export function columnIndex(t: TableDef, name: string): number {
  const i = t.columns.findIndex((c) => c.name === name && !c.hidden);
  if (i < 0) throw new SqlError(SqlState.undefinedColumn, `column "${name}" of relation "${t.name}" does not exist`);
  return i;
}
