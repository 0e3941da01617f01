// Executes DDL against the catalog and the store (`applyDdl`): CREATE TABLE (types, PRIMARY KEY including
// composite, NOT NULL, DEFAULT, UNIQUE, CHECK, SERIAL/identity, stored generated columns (generated-columns.ts),
// LIKE clauses (table-like.ts); storage options such as WITH (fillfactor=...)
// are accepted and ignored; FOREIGN KEY constraints: sql/foreign-keys.ts), CREATE [UNIQUE] INDEX (over
// expressions and with a WHERE predicate: index-keys.ts), DROP
// TABLE/INDEX [IF EXISTS] [CASCADE], CREATE/DROP VIEW (views.ts); ALTER TABLE, RENAME and TRUNCATE are ddl-alter.ts. Ids come from the
// catalog's DDL-order counter. The single-node engine applies DDL to its one catalog at once and undoes it
// if the transaction does not commit (engine.ts); the cluster replays the same statements into each
// catalog version (replicated-catalog.ts).

import { alterEnum, alterTypeOwner, createEnum, dropTypes, renameType } from './ddl-enum.ts';
import type { Node, CreateStmt, IndexStmt, DropStmt, Constraint } from 'libpg-query';
import { bindChecks, byName, checkKeyColumns, dropDependentDefaults, chooseName, defaultExpr, makeIndex, type DdlOutcome, type DdlStorage } from './ddl-build.ts';
import { alterTable, rename, truncate } from './ddl-alter.ts';
import { comment } from './comments.ts';
import { createExtension, dropExtensions } from './extensions.ts';
import { alterSequence, createOwnedSequence, sequenceDefault, createSequence, dropOwnedSequences, dropSequences, identityOptions, sequenceIdOf } from './ddl-sequence.ts';
import type { Catalog } from './catalog.ts';
import { HIDDEN_ROWID, columnIndex, type ColumnDef, type TableDef } from './catalog.ts';
import { bindForeignKey, constraintNames, dropDependents, isUniqueKey, withConstraintAttributes } from './foreign-keys.ts';
import { strOf, unsupported } from './lower-expr.ts';
import { bindGenerated, checkGenerationClause } from './generated-columns.ts';
import { expandLike, type LikeCopy } from './table-like.ts';
import { createView, dropDependentViews, dropViews, viewsUsing } from './views.ts';
import { createMatview, dropMatviews, setPopulated } from './matviews.ts';
import { resolveColumnType } from './lower-type.ts';
import { SqlError, SqlState } from './errors.ts';
import { dropSchemas, noSuchSchema, ownName } from './qualified-names.ts';
import { alterDefaultPrivileges } from './default-privileges.ts';
import { LEGACY_ACTOR, type DdlActor } from './roles.ts';
import { alterRole, createRole, dropRoles, grantRoles, renameRole } from './ddl-role.ts';
import { changeOwner, checkDdlPrivileges, createdBefore, grant, isOwnerChange, stampOwners } from './ddl-privileges.ts';
import { bindIndexExpr, keyNamePart } from './index-keys.ts';
import { someExpr, type Expr } from './expr.ts';
import type { ExecContext } from './exec-context.ts';

/**
 * Applies one DDL statement's parse tree to the catalog and storage; null for one not supported here.
 * `ctx`: the transaction's context for expressions evaluated per existing row (ADD COLUMN's default:
 * now(), gen_random_uuid()); null where rows are not touched (a catalog replayed).
 */
export function applyDdl(catalog: Catalog, storage: DdlStorage, n: Node, ctx: ExecContext | null = null, actor: DdlActor = LEGACY_ACTOR): DdlOutcome | null {
  if (actor.check) checkDdlPrivileges(catalog, actor, n);
  const before = createdBefore(catalog);
  const out = dispatch(catalog, storage, n, ctx, actor);
  if (out !== null) stampOwners(catalog, before, actor.oid);
  return out;
}

function dispatch(catalog: Catalog, storage: DdlStorage, n: Node, ctx: ExecContext | null, actor: DdlActor): DdlOutcome | null {
  if ('CreateRoleStmt' in n) return createRole(catalog, n.CreateRoleStmt, ctx, actor);
  if ('AlterRoleStmt' in n) return alterRole(catalog, n.AlterRoleStmt, ctx, actor);
  if ('DropRoleStmt' in n) return dropRoles(catalog, n.DropRoleStmt, actor);
  if ('GrantRoleStmt' in n) return grantRoles(catalog, n.GrantRoleStmt, actor);
  if ('GrantStmt' in n) return grant(catalog, n.GrantStmt, actor);
  if ('AlterDefaultPrivilegesStmt' in n) return alterDefaultPrivileges(catalog, n.AlterDefaultPrivilegesStmt, actor);
  if ('RenameStmt' in n && n.RenameStmt.renameType === 'OBJECT_ROLE') return renameRole(catalog, n.RenameStmt, actor);
  if ('AlterTableStmt' in n && isOwnerChange(n.AlterTableStmt)) return changeOwner(catalog, n.AlterTableStmt, actor);
  if ('CreateStmt' in n) return createTable(catalog, storage, n.CreateStmt);
  if ('IndexStmt' in n) return createIndex(catalog, storage, n.IndexStmt);
  if ('DropStmt' in n) return drop(catalog, storage, n.DropStmt);
  if ('AlterTableStmt' in n) return alterTable(catalog, storage, n.AlterTableStmt, ctx);
  if ('RenameStmt' in n) return n.RenameStmt.renameType === 'OBJECT_TYPE' ? renameType(catalog, storage, n.RenameStmt) : rename(catalog, n.RenameStmt);
  if ('TruncateStmt' in n) return truncate(catalog, storage, n.TruncateStmt);
  if ('CreateSeqStmt' in n) return createSequence(catalog, n.CreateSeqStmt);
  if ('AlterSeqStmt' in n) return alterSequence(catalog, storage, n.AlterSeqStmt);
  if ('CommentStmt' in n) return comment(catalog, n.CommentStmt, actor);
  if ('CreateExtensionStmt' in n) return createExtension(catalog, n.CreateExtensionStmt);
  if ('ViewStmt' in n) return createView(catalog, n.ViewStmt);
  if ('CreateTableAsStmt' in n && n.CreateTableAsStmt.objtype === 'OBJECT_MATVIEW') return createMatview(catalog, storage, n.CreateTableAsStmt);
  if ('RefreshMatViewStmt' in n) return setPopulated(catalog, n.RefreshMatViewStmt);
  if ('CreateEnumStmt' in n) return createEnum(catalog, n.CreateEnumStmt);
  if ('AlterEnumStmt' in n) return alterEnum(catalog, storage, n.AlterEnumStmt);
  if ('AlterOwnerStmt' in n) return alterTypeOwner(catalog, n.AlterOwnerStmt, actor);
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
  /** What LIKE clauses copy besides columns: added after the table's own constraints, as PostgreSQL does. */
  const likes: LikeCopy[] = [];
  /** Generation expressions, bound once every column is known (one may read a later column). */
  const generated: { at: number; raw: Node }[] = [];
  /** CHECK constraints in written order, with the column they were written on (null: a table constraint). */
  const checks: { k: Constraint; column: string | null }[] = [];
  for (const e of s.tableElts ?? []) {
    if ('Constraint' in e) {
      tableConstraints.push(e.Constraint);
      continue;
    }
    if ('TableLikeClause' in e) {
      const like = expandLike(catalog, e.TableLikeClause, cols.length);
      for (const { def, identity } of like.columns) {
        if (cols.some((x) => x.name === def.name)) throw new SqlError(SqlState.duplicateColumn, `column "${def.name}" specified more than once`);
        // A copied identity column draws from a new sequence of its own.
        const seq = identity === null ? null : createOwnedSequence(catalog, name, def.name, def.type, identity.options, { table: id, column: cols.length });
        cols.push(seq === null || identity === null ? def : { ...def, default: sequenceDefault(catalog, def.name, def.type, seq), identity: identity.when });
      }
      likes.push(like);
      continue;
    }
    if (!('ColumnDef' in e)) throw unsupported(`table element ${Object.keys(e)[0] ?? ''}`);
    const c = e.ColumnDef;
    const cname = c.colname ?? '';
    if (cols.some((x) => x.name === cname)) throw new SqlError(SqlState.duplicateColumn, `column "${cname}" specified more than once`);
    const rt = resolveColumnType(c.typeName ?? {}, catalog, cname);
    let notNull = false;
    let def: Expr | null = null;
    let serial = rt.serial;
    /** GENERATED ALWAYS / BY DEFAULT AS IDENTITY, with its sequence's options. */
    let identity: { when: 'a' | 'd'; options: readonly Node[] | undefined } | null = null;
    let generation: Constraint | null = null;
    const idx = cols.length;
    for (const cn of withConstraintAttributes(c.constraints)) {
      if (!('Constraint' in cn)) continue;
      const k = cn.Constraint;
      switch (k.contype) {
        case 'CONSTR_NOTNULL': notNull = true; break;
        case 'CONSTR_NULL': notNull = false; break;
        case 'CONSTR_DEFAULT': def = defaultExpr(catalog, c, k.raw_expr as Node, rt.type, rt.typmod); break;
        case 'CONSTR_PRIMARY': setPk([idx]); notNull = true; break;
        case 'CONSTR_UNIQUE': uniques.push({ keys: [idx], name: k.conname }); break;
        case 'CONSTR_IDENTITY':
          if (identity !== null) throw new SqlError(SqlState.syntaxError, `multiple identity specifications for column "${cname}" of table "${name}"`);
          identity = { when: k.generated_when === 'a' ? 'a' : 'd', options: k.options };
          break;
        case 'CONSTR_FOREIGN': foreignKeys.push({ k, column: cname }); break;
        case 'CONSTR_CHECK': checks.push({ k, column: cname }); break;
        case 'CONSTR_GENERATED':
          if (generation !== null) throw new SqlError(SqlState.syntaxError, `multiple generation clauses specified for column "${cname}" of table "${name}"`, undefined, undefined, undefined, k.location);
          generation = k;
          break;
        default: break;
      }
    }
    if (generation !== null) {
      checkGenerationClause(generation, cname, name, def !== null || serial, identity !== null);
      generated.push({ at: idx, raw: generation.raw_expr as Node });
    }
    if (serial || identity !== null) {
      if (identity !== null && rt.type !== 'int2' && rt.type !== 'int4' && rt.type !== 'int8') {
        throw new SqlError(SqlState.datatypeMismatch, `identity column type must be smallint, integer, or bigint`);
      }
      if (identity !== null && def !== null) throw new SqlError(SqlState.syntaxError, `both default and identity specified for column "${cname}" of table "${name}"`);
      notNull = true;
      // The counter SERIAL columns always had (sql/sequences.ts), so older databases read on.
      const seq = createOwnedSequence(catalog, name, cname, rt.type, identity === null ? {} : identityOptions(identity.options), { table: id, column: idx });
      def = sequenceDefault(catalog, cname, rt.type, seq);
      serial = identity === null;
    }
    cols.push({ name: cname, type: rt.type, typmod: rt.typmod, notNull, default: def, hidden: false, serial, ...(identity !== null ? { identity: identity.when } : {}), ...(rt.enumType === undefined ? {} : { enumType: rt.enumType }) });
  }
  const generatedAt = new Set(generated.map((g) => g.at));
  const bound = generated.map((g) => bindGenerated(catalog, name, cols, g.at, g.raw, generatedAt));
  generated.forEach((g, j) => { cols[g.at] = { ...cols[g.at]!, generated: bound[j]! }; });
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
  for (const like of likes) if (like.primaryKey !== null) setPk([...like.primaryKey]);
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
  for (const like of likes) {
    for (const { keys, unique, constraint } of like.indexes) {
      const chosen = chooseName(catalog, `${name}_${keys.map((c) => cols[c]?.name).join('_')}_${constraint ? 'key' : 'idx'}`, taken);
      taken.add(chosen);
      indexes.push(makeIndex(catalog, table, chosen, [...keys], unique, constraint));
    }
  }
  table = { ...table, indexes };
  if (checks.length > 0) table = { ...table, checks: bindChecks(catalog, table, checks) };
  for (const like of likes) {
    for (const k of like.checks) {
      if ((table.checks ?? []).some((x) => x.name === k.name)) throw new SqlError(SqlState.duplicateObject, `constraint "${k.name}" for relation "${name}" already exists`);
      table = { ...table, checks: [...(table.checks ?? []), k].sort(byName) };
    }
  }
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

function createIndex(catalog: Catalog, storage: DdlStorage, s: IndexStmt): DdlOutcome {
  const relname = s.relation?.relname ?? '';
  if (catalog.getView(relname) !== undefined) throw new SqlError(SqlState.wrongObjectType, `cannot create index on relation "${relname}"`, 'This operation is not supported for views.');
  const table = catalog.require(relname);
  const keys = (s.indexParams ?? []).map((p) => {
    if (!('IndexElem' in p)) throw unsupported('index element');
    const e = p.IndexElem;
    if (e.expr === undefined) return { column: columnIndex(table, e.name ?? ''), expr: null, raw: null };
    // A bare column in parentheses is that column (PostgreSQL's transformIndexStmt).
    const expr = bindIndexExpr(catalog, table, e.expr, 'expression');
    if (expr.expr.k === 'col') return { column: expr.expr.i, expr: null, raw: null };
    return { column: -1, expr, raw: e.expr };
  });
  const predicate = s.whereClause === undefined ? undefined : bindIndexExpr(catalog, table, s.whereClause, 'predicate');
  const name = s.idxname ?? chooseName(catalog, `${table.name}_${keys.map((k) => keyNamePart(table, k.raw, k.column)).join('_')}_idx`);
  if (catalog.relationExists(name)) {
    if (s.if_not_exists) return { tag: 'CREATE INDEX', touched: [], notice: `relation "${name}" already exists, skipping` };
    throw new SqlError(SqlState.duplicateTable, `relation "${name}" already exists`);
  }
  let idx = makeIndex(catalog, table, name, keys.map((k) => k.column), s.unique === true || s.primary === true, false, keys.map((k) => k.expr));
  if (predicate !== undefined) idx = { ...idx, predicate };
  const next = { ...table, indexes: [...table.indexes, idx] };
  storage.ensureTable(next); // builds the index; throws 23505 for duplicates before the catalog changes
  catalog.put(next);
  return { tag: 'CREATE INDEX', touched: [] };
}

function drop(catalog: Catalog, storage: DdlStorage, s: DropStmt): DdlOutcome {
  if (s.removeType === 'OBJECT_EXTENSION') return dropExtensions(catalog, (s.objects ?? []).map(strOf), s.missing_ok === true, s.behavior === 'DROP_CASCADE');
  if (s.removeType === 'OBJECT_TYPE') return dropTypes(catalog, storage, s);
  if (s.removeType === 'OBJECT_SCHEMA') return dropSchemas((s.objects ?? []).map(strOf), s.missing_ok === true);
  // An object qualified with a schema this database lacks (sql/qualified-names.ts): 3F000, or skipped under IF EXISTS.
  const skipped: string[] = [];
  const names: string[] = [];
  for (const o of s.objects ?? []) {
    const items = ('List' in o ? (o.List.items ?? []) : [o]).map(strOf);
    const name = ownName(items);
    if (name !== null) names.push(name);
    else if (s.missing_ok === true) skipped.push(`schema "${items[items.length - 2] ?? ''}" does not exist, skipping`);
    else throw noSuchSchema(items[items.length - 2] ?? '');
  }
  return withNotices(skipped, dropOwn(catalog, storage, s, names));
}

function withNotices(first: readonly string[], o: DdlOutcome): DdlOutcome {
  if (first.length === 0) return o;
  return { ...o, notice: [...first, ...(o.notice === undefined ? [] : [o.notice])].join('\n') };
}

function dropOwn(catalog: Catalog, storage: DdlStorage, s: DropStmt, names: readonly string[]): DdlOutcome {
  const touched: number[] = [];
  const notices: string[] = [];
  if (s.removeType === 'OBJECT_VIEW') return dropViews(catalog, storage, names, s.missing_ok === true, s.behavior === 'DROP_CASCADE');
  if (s.removeType === 'OBJECT_MATVIEW') return dropMatviews(catalog, storage, names, s.missing_ok === true, s.behavior === 'DROP_CASCADE');
  if (s.removeType === 'OBJECT_TABLE') {
    for (const n of names) {
      if (catalog.get(n)?.matview !== undefined) throw new SqlError(SqlState.wrongObjectType, `"${n}" is not a table`, undefined, undefined, 'Use DROP MATERIALIZED VIEW to remove a materialized view.');
      if (catalog.sequence(n) !== undefined) throw new SqlError('42809', `"${n}" is not a table`, undefined, undefined, 'Use DROP SEQUENCE to remove a sequence.');
      if (catalog.getView(n) !== undefined) throw new SqlError(SqlState.wrongObjectType, `"${n}" is not a table`, undefined, undefined, 'Use DROP VIEW to remove a view.');
      if (!catalog.get(n) && !s.missing_ok) throw new SqlError(SqlState.undefinedTable, `table "${n}" does not exist`);
    }
    // Views over a dropped table: 2BP01, or gone with CASCADE.
    for (const n of names) dropDependentViews(catalog, storage, viewsUsing(catalog, n), `table ${n}`, s.behavior === 'DROP_CASCADE', notices);
    // Foreign keys of tables not dropped with it that reference a dropped table: 2BP01, or gone with CASCADE.
    for (const n of names) {
      const deps = catalog.referencing(n).filter((d) => !names.includes(d.table.name));
      dropDependents(catalog, deps, `table ${n}`, s.behavior === 'DROP_CASCADE', notices);
    }
    // Defaults of other tables drawing from a sequence a dropped table owns (CREATE TABLE ... LIKE ... INCLUDING DEFAULTS copies them).
    for (const n of names) {
      for (const seq of catalog.ownedSequences(n)) {
        dropDependentDefaults(catalog, `table ${n}`, (def) => (someExpr(def, (x) => sequenceIdOf(x) === seq.id) ? `sequence ${seq.name}` : null),
          s.behavior === 'DROP_CASCADE', notices, (t) => names.includes(t.name));
      }
    }
    for (const n of names) {
      const t = catalog.remove(n);
      if (t === undefined) {
        notices.push(`table "${n}" does not exist, skipping`);
        continue;
      }
      storage.dropTable(t.id);
      dropOwnedSequences(catalog, t.name);
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
  if (s.removeType === 'OBJECT_SEQUENCE') return dropSequences(catalog, names, s.missing_ok === true, s.behavior === 'DROP_CASCADE');
  throw unsupported(`DROP ${String(s.removeType).replace('OBJECT_', '')}`);
}

