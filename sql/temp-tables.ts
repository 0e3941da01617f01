// Temporary tables (CREATE TEMP TABLE, SELECT ... INTO TEMP, CREATE TEMP TABLE ... AS). A temporary
// table is an ordinary catalog table under an internal name that only its session uses:
// `\u0001pg_temp_<session key>\u0001<name>`. The single-node engine and the cluster therefore store,
// replicate and read its rows as any table's; what makes it temporary is this module, run by each session
// before a statement is lowered:
//
// - `rewrite` returns a copy of the statement's parse tree (never the cached one, which other sessions
//   share) whose names of the session's temporary relations (tables, their indexes) are the internal
//   ones: a relation name without a schema that the session has a temporary relation of, or any name in
//   schema pg_temp. The session lowers that copy without the engine's plan cache, so no other session
//   ever runs a plan that reads this session's table. A statement that names none of them comes back
//   null and takes the cached path unchanged.
// - A temporary table shadows a permanent one of its name for its session (pg_temp comes first in
//   PostgreSQL's search path); other sessions see only the permanent one.
// - Texts shown to the client (errors, notices) spell internal names as the user's (`shown`); the
//   gateway's system catalog lists the session's own temporary relations under their names and no other
//   session's (`visibleTables`).
// - The session drops its temporary tables when it ends (`dropAll`), ON COMMIT DROP ones after the
//   transaction that created them, and empties ON COMMIT DELETE ROWS ones after every transaction
//   (`afterTransaction`).
//
// Caveats: a session that never ends cleanly (a gateway process that crashes) leaves its tables behind
// under names no SQL text of another session may spell (`refuseForeign`); they hold storage until dropped
// by hand (their names are listed by `isTempName`). A name inside a string (`'t'::regclass`,
// pg_relation_size('t')) is not rewritten. Views over temporary tables (PostgreSQL makes them temporary
// views) are 0A000, as are materialized views (PostgreSQL's error too).

import type { Node } from 'libpg-query';
import type { Catalog, TableDef } from './catalog.ts';
import { quoteIdent } from './catalog.ts';
import type { SequenceDef } from './sequences.ts';
import type { LoweredStatement } from './lower-statement.ts';
import { SqlError, SqlState } from './errors.ts';
import { COMMENTED_RELATIONS, RANGE_VAR_FIELDS } from './qualified-names.ts';

/** What every internal name starts with; a SQL text can spell it, but a session refuses one naming another session's. */
export const TEMP_MARK = '\u0001pg_temp_';
const MARKED = /\u0001pg_temp_[^\u0001]*\u0001/g;

export function isTempName(name: string): boolean {
  return name.startsWith(TEMP_MARK);
}

/** The internal prefix of a temporary relation's name (`\u0001pg_temp_<key>\u0001`); '' for another name. */
export function tempPrefix(name: string): string {
  return isTempName(name) ? name.slice(0, name.indexOf('\u0001', 1) + 1) : '';
}

/** `text` with every internal name spelled as its user's name. */
export function shown(text: string): string {
  return text.includes(TEMP_MARK) ? text.replace(MARKED, '') : text;
}

/** `e` with its texts shown with user names (`shown`); `e` itself when none holds an internal name. */
export function shownError<E extends SqlError>(e: E): E | SqlError {
  const texts = [e.message, e.detail ?? '', e.hint ?? ''];
  if (!texts.some((t) => t.includes(TEMP_MARK))) return e;
  return new SqlError(e.code, shown(e.message), e.detail === undefined ? undefined : shown(e.detail), e.position, e.hint === undefined ? undefined : shown(e.hint), e.location);
}

type OnCommit = 'drop' | 'delete';

interface RangeVarLike {
  schemaname?: string;
  relname?: string;
  relpersistence?: string;
  alias?: { aliasname?: string };
}

/** Statements whose `relation` is a range the statement's expressions may name (`UPDATE t SET v = t.v`). */
const ALIASED_TARGETS = new Set(['UpdateStmt', 'DeleteStmt', 'InsertStmt', 'MergeStmt']);

/** DROP kinds whose objects are relations. */
const DROPPED_RELATIONS = new Set(['OBJECT_TABLE', 'OBJECT_INDEX', 'OBJECT_SEQUENCE', 'OBJECT_VIEW', 'OBJECT_MATVIEW']);

/** RENAME kinds that rename the relation itself (a temporary one keeps its internal prefix). */
const RENAMED_RELATIONS = new Set(['OBJECT_TABLE', 'OBJECT_INDEX', 'OBJECT_SEQUENCE']);

/** Drops the schema of a column reference written `pg_temp.t.c` (or `pg_temp.t.*`). */
function tempQualifiedColumn(ref: { fields?: Node[] }): void {
  const first = ref.fields?.[0] as { String?: { sval?: string } } | undefined;
  if (ref.fields !== undefined && ref.fields.length === 3 && first?.String?.sval === 'pg_temp') ref.fields = ref.fields.slice(1);
}

function foreignName(): SqlError {
  return new SqlError(SqlState.undefinedTable, 'relation does not exist (the name is another session\'s temporary table)');
}

/** A foreign key's tables, one temporary and the other not (42P16), or null. */
function mixedPersistence(a: RangeVarLike | undefined, b: RangeVarLike | undefined): 'temp-to-permanent' | 'permanent-to-temp' | null {
  if (a?.relname === undefined || b?.relname === undefined) return null;
  const ta = isTempName(a.relname);
  const tb = isTempName(b.relname);
  if (ta === tb) return null;
  return ta ? 'temp-to-permanent' : 'permanent-to-temp';
}

/** One session's temporary relations. */
export class TempTables {
  /** Internal names prefix: `\u0001pg_temp_<key>\u0001`. */
  readonly prefix: string;
  /** Invariant: true once the session created a temporary table (until then no statement is rewritten). */
  #used = false;
  /** The last text `rewrite` looked at, and whether it says "temp" (TEMP, TEMPORARY, pg_temp) anywhere. */
  #text = '';
  #mentions = false;
  /** `resolve`'s answers by parse tree, each for the catalog version it was made at. */
  readonly #resolved = new WeakMap<Node, { readonly version: number; readonly node: Node | null }>();
  readonly #plans = new WeakMap<Node, LoweredStatement>();
  /** ON COMMIT DROP and DELETE ROWS tables, by internal name. */
  readonly #onCommit = new Map<string, OnCommit>();

  /** The session has created a temporary table (it may have some to drop). */
  get used(): boolean {
    return this.#used;
  }

  /** ON COMMIT tables wait for the end of a transaction. */
  get pending(): boolean {
    return this.#onCommit.size > 0;
  }

  /** `key`: unique among the sessions that share a catalog (the engine's, or every gateway's of a cluster). */
  constructor(key: string) {
    this.prefix = `${TEMP_MARK}${key}\u0001`;
  }

  /** 42P01 for a text that spells another session's internal name (its tables are not this session's to read). */
  refuseForeign(sql: string): void {
    let at = sql.indexOf(TEMP_MARK);
    while (at >= 0) {
      if (!sql.startsWith(this.prefix, at)) throw foreignName();
      at = sql.indexOf(TEMP_MARK, at + 1);
    }
  }

  /**
   * `stmt` with the session's temporary relation names made internal (a copy), or null when it names
   * none; `sql`: its text (a text without "temp" cannot create one).
   */
  rewrite(stmt: Node, sql: string, catalog: Catalog): Node | null {
    if (!this.#used) {
      // Once per text: the statements of a long script are lowered one by one. U&"..." may spell an
      // internal name without its characters (the look below refuses another session's).
      if (sql !== this.#text) this.#mentions = /temp|u&/i.test((this.#text = sql));
      if (!this.#mentions) return null;
    }
    // A look first, a copy only when there is something to change (a copy costs more than the look).
    if (!this.#walk(stmt, catalog, false)) return null;
    const copy = structuredClone(stmt);
    this.#walk(copy, catalog, true);
    this.#created(copy, catalog);
    return copy;
  }

  /**
   * `rewrite`, remembered per parse tree (the engine's cached ones) while the catalog does not change,
   * with the plan `lower` makes of a rewritten tree (the session's own plan cache: the engine's is shared).
   */
  resolve(stmt: Node, sql: string, catalog: Catalog): Node | null {
    const hit = this.#resolved.get(stmt);
    if (hit !== undefined && hit.version === catalog.version) return hit.node;
    const node = this.rewrite(stmt, sql, catalog);
    this.#resolved.set(stmt, { version: catalog.version, node });
    return node;
  }

  /** The plan of a tree `resolve` rewrote: lowered once per tree (`lower`), or each time with parameter type hints. */
  plan(own: Node, hints: readonly unknown[], lower: () => LoweredStatement): LoweredStatement {
    if (hints.length > 0) return lower();
    let p = this.#plans.get(own);
    if (p === undefined) this.#plans.set(own, (p = lower()));
    return p;
  }

  /** Whether `stmt` names the session's temporary relations; `change`: makes those names internal. */
  #walk(stmt: Node, catalog: Catalog, change: boolean): boolean {
    const ctes = new Set<string>();
    collectCtes(stmt, ctes);
    // A temporary table created here may reference itself (FOREIGN KEY ... REFERENCES its own name).
    const creating = 'CreateStmt' in stmt && (stmt.CreateStmt.relation?.relpersistence === 't' || stmt.CreateStmt.relation?.schemaname === 'pg_temp') ? stmt.CreateStmt.relation.relname : undefined;
    const own = (name: string): boolean => !ctes.has(name) && (name === creating || catalog.relationExists(this.prefix + name));
    let changed = false;
    // A range renamed in a query keeps its written name as its alias, so `tt.id` still names it.
    const relation = (rv: RangeVarLike, creates: boolean, ranged: boolean): void => {
      const name = rv.relname;
      if (name === undefined || this.#internal(name)) return;
      const temp = creates && (rv.relpersistence === 't' || rv.schemaname === 'pg_temp');
      if (!temp && !(rv.schemaname === 'pg_temp' || (rv.schemaname === undefined && own(name)))) return;
      changed = true;
      if (!change) return;
      rv.relname = this.prefix + name;
      delete rv.schemaname;
      if (ranged && rv.alias === undefined) rv.alias = { aliasname: name };
    };
    const visit = (x: unknown, parent: string | null): void => {
      if (Array.isArray(x)) {
        for (const v of x) visit(v, parent);
        return;
      }
      if (typeof x !== 'object' || x === null) return;
      const o = x as Record<string, unknown>;
      for (const k in o) {
        const v = o[k];
        if (typeof v !== 'object' || v === null) continue;
        if (k === 'RangeVar' || RANGE_VAR_FIELDS.has(k)) {
          const creates = (parent === 'CreateStmt' && k === 'relation') || (parent === 'IntoClause' && k === 'rel');
          relation(v as RangeVarLike, creates, k === 'RangeVar' || (k === 'relation' && ALIASED_TARGETS.has(parent ?? '')));
          continue;
        }
        // pg_temp.t.c: the range is named t now (its alias).
        if (k === 'ColumnRef' && change) tempQualifiedColumn(v as { fields?: Node[] });
        if (k === 'DropStmt' && this.#dropped(v as { objects?: Node[]; removeType?: string }, own, change)) changed = true;
        if (k === 'CommentStmt' && this.#commented(v as { objtype?: string; object?: Node }, own, change)) changed = true;
        visit(v, k === 'intoClause' || k === 'into' ? 'IntoClause' : /^[A-Z]/.test(k) ? k : parent);
      }
    };
    visit(stmt, null);
    return changed;
  }

  /** True for an internal name (left as it is); 42P01 for another session's. */
  #internal(name: string): boolean {
    if (!isTempName(name)) return false;
    if (!name.startsWith(this.prefix)) throw foreignName();
    return true;
  }

  /** DROP's objects: `[pg_temp,] name` of a temporary relation. */
  #dropped(s: { objects?: Node[]; removeType?: string }, own: (name: string) => boolean, change: boolean): boolean {
    if (!DROPPED_RELATIONS.has(s.removeType ?? '')) return false;
    let changed = false;
    for (const o of s.objects ?? []) if ('List' in o && this.#qualified(o.List.items ?? [], 1, own, change)) changed = true;
    return changed;
  }

  /** COMMENT ON TABLE / INDEX / SEQUENCE [pg_temp.]name, COLUMN [pg_temp.]name.column, CONSTRAINT c ON [pg_temp.]name. */
  #commented(s: { objtype?: string; object?: Node }, own: (name: string) => boolean, change: boolean): boolean {
    const o = s.object;
    if (o === undefined || !('List' in o)) return false;
    const fromEnd = COMMENTED_RELATIONS[s.objtype ?? ''];
    return fromEnd !== undefined && this.#qualified(o.List.items ?? [], fromEnd, own, change);
  }

  /** In a qualified name, the relation's part `fromEnd` from the end (1: the last) made internal when it is the session's. */
  #qualified(items: Node[], fromEnd: number, own: (name: string) => boolean, change: boolean): boolean {
    const at = items.length - fromEnd;
    const item = items[at];
    if (item === undefined || !('String' in item)) return false;
    const name = item.String.sval ?? '';
    if (this.#internal(name)) return false;
    const schema = at > 0 ? items[at - 1] : undefined;
    const inTemp = schema !== undefined && 'String' in schema && schema.String.sval === 'pg_temp';
    if (!inTemp && (schema !== undefined || !own(name))) return false;
    if (!change) return true;
    item.String.sval = this.prefix + name;
    if (inTemp) items.splice(at - 1, 1);
    return true;
  }

  /** What a rewritten statement creates or renames, and what it may not do with temporary tables. */
  #created(n: Node, catalog: Catalog): void {
    const into = 'CreateStmt' in n ? { rel: n.CreateStmt.relation, onCommit: n.CreateStmt.oncommit }
      : 'CreateTableAsStmt' in n && n.CreateTableAsStmt.objtype === 'OBJECT_TABLE' ? n.CreateTableAsStmt.into
        : 'SelectStmt' in n ? n.SelectStmt.intoClause : undefined;
    const name = into?.rel?.relname;
    if (name !== undefined && isTempName(name)) {
      this.#used = true;
      if (!catalog.relationExists(name)) {
        const on = into?.onCommit;
        if (on === 'ONCOMMIT_DROP') this.#onCommit.set(name, 'drop');
        else if (on === 'ONCOMMIT_DELETE_ROWS') this.#onCommit.set(name, 'delete');
        else this.#onCommit.delete(name);
      }
    }
    if ('CreateStmt' in n) {
      for (const e of n.CreateStmt.tableElts ?? []) {
        const cs = 'Constraint' in e ? [e] : 'ColumnDef' in e ? e.ColumnDef.constraints ?? [] : [];
        for (const c of cs) if ('Constraint' in c) foreignKey(n.CreateStmt.relation, c.Constraint.pktable);
      }
    }
    if ('AlterTableStmt' in n) {
      for (const c of n.AlterTableStmt.cmds ?? []) {
        const def = 'AlterTableCmd' in c ? c.AlterTableCmd.def : undefined;
        if (def !== undefined && 'Constraint' in def) foreignKey(n.AlterTableStmt.relation, def.Constraint.pktable);
      }
    }
    if ('IndexStmt' in n) {
      const s = n.IndexStmt;
      if (s.idxname !== undefined && isTempName(s.relation?.relname ?? '')) s.idxname = this.prefix + s.idxname;
    }
    if ('RenameStmt' in n) {
      const s = n.RenameStmt;
      if (RENAMED_RELATIONS.has(s.renameType ?? '') && isTempName(s.relation?.relname ?? '') && s.newname !== undefined) s.newname = this.prefix + s.newname;
    }
    if ('ViewStmt' in n) throw new SqlError(SqlState.featureNotSupported, 'views over temporary tables are not supported');
    if ('CreateTableAsStmt' in n && n.CreateTableAsStmt.objtype === 'OBJECT_MATVIEW') {
      throw new SqlError(SqlState.featureNotSupported, 'materialized views must not use temporary tables or views');
    }
  }

  /**
   * The statements that end the transaction for the session's ON COMMIT tables (after it committed or
   * rolled back): DROP of the ON COMMIT DROP ones, DELETE of the DELETE ROWS ones' rows; empty when none.
   * DELETE rather than TRUNCATE: TRUNCATE is DDL, which would invalidate every session's cached plans
   * (the engine) or append to the replicated catalog and conflict with every other client's transactions
   * (the cluster) after each of this session's transactions.
   */
  afterTransaction(catalog: Catalog): string[] {
    if (this.#onCommit.size === 0) return [];
    const drop: string[] = [];
    const emptied: string[] = [];
    for (const [name, on] of this.#onCommit) {
      if (catalog.get(name) === undefined) this.#onCommit.delete(name);
      else if (on === 'drop') {
        drop.push(quoteIdent(name));
        this.#onCommit.delete(name);
      } else emptied.push(quoteIdent(name));
    }
    return [...(drop.length > 0 ? [`DROP TABLE IF EXISTS ${drop.join(', ')} CASCADE`] : []), ...emptied.map((t) => `DELETE FROM ${t}`)];
  }

  /** The statement that drops every temporary table of the session (its end); null when it has none. */
  dropAll(catalog: Catalog): string | null {
    if (!this.#used) return null;
    this.#onCommit.clear();
    const mine = catalog.list().filter((t) => t.name.startsWith(this.prefix)).map((t) => quoteIdent(t.name));
    return mine.length === 0 ? null : `DROP TABLE IF EXISTS ${mine.join(', ')} CASCADE`;
  }

  /**
   * The tables the session sees (the gateway's system catalog, COPY, psql's \d): its own temporary ones
   * first, under their user names (and a permanent one they shadow left out), no other session's.
   */
  visibleTables(tables: readonly TableDef[]): TableDef[] {
    if (!tables.some((t) => isTempName(t.name))) return [...tables];
    const mine = tables.filter((t) => t.name.startsWith(this.prefix)).map((t) => ({
      ...t, name: shown(t.name), temporary: true as const,
      indexes: t.indexes.map((i) => ({ ...i, name: shown(i.name) })),
      ...(t.foreignKeys === undefined ? {} : { foreignKeys: t.foreignKeys.map((fk) => ({ ...fk, refTable: shown(fk.refTable), name: shown(fk.name) })) }),
    }));
    const shadowed = new Set(mine.map((t) => t.name));
    return [...mine, ...tables.filter((t) => !isTempName(t.name) && !shadowed.has(t.name))];
  }

  /** The sequences the session sees: its temporary tables' (SERIAL) under user names, no other session's. */
  visibleSequences(sequences: readonly SequenceDef[]): SequenceDef[] {
    return sequences.filter((s) => !isTempName(s.name) || s.name.startsWith(this.prefix)).map((s) => (isTempName(s.name) ? { ...s, name: shown(s.name) } : s));
  }
}

/** PostgreSQL 15's 42P16 for a foreign key between a temporary and a permanent table. */
function foreignKey(table: RangeVarLike | undefined, references: RangeVarLike | undefined): void {
  const k = mixedPersistence(table, references);
  if (k === null) return;
  throw new SqlError('42P16', k === 'permanent-to-temp' ? 'constraints on permanent tables may reference only permanent tables' : 'constraints on temporary tables may reference only temporary tables');
}

function collectCtes(x: unknown, out: Set<string>): void {
  if (Array.isArray(x)) {
    for (const v of x) collectCtes(v, out);
    return;
  }
  if (typeof x !== 'object' || x === null) return;
  const o = x as Record<string, unknown>;
  for (const k in o) {
    const v = o[k];
    if (k === 'ctename' && typeof v === 'string') out.add(v);
    else if (typeof v === 'object' && v !== null) collectCtes(v, out);
  }
}
