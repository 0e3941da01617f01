// ALTER TABLE (ADD COLUMN / PRIMARY KEY / UNIQUE / CHECK / FOREIGN KEY, DROP CONSTRAINT, DROP COLUMN,
// ALTER COLUMN SET/DROP DEFAULT, SET/DROP NOT NULL, DROP EXPRESSION and TYPE: ddl-alter-type.ts), RENAME TO / RENAME COLUMN (of tables and views) and TRUNCATE [CASCADE]:
// the DDL that changes an existing table (the rest is ddl.ts).

import type { Node, AlterTableStmt, RenameStmt, TruncateStmt, Constraint, ColumnDef as PgColumnDef } from 'libpg-query';
import { cascaded } from './notices.ts';
import { bindChecks, byName, checkKeyColumns, chooseName, defaultExpr, dropDependentDefaults, makeIndex, type DdlOutcome, type DdlStorage } from './ddl-build.ts';
import { createOwnedSequence, dropOwnedSequences, sequenceDefault, identityOptions, renameOwner, sequenceIdOf } from './ddl-sequence.ts';
import type { Catalog } from './catalog.ts';
import { columnIndex, type ColumnDef, type TableDef } from './catalog.ts';
import { bindForeignKey, constraintNames, withConstraintAttributes, dropDependents, dropForeignKeys, renameReferences, truncateClosure } from './foreign-keys.ts';
import { strOf, unsupported } from './lower-expr.ts';
import { dropDependentViews, renameColumnInViews, renameRelationInViews, renameView, viewsUsingColumn } from './views.ts';
import { resolveColumnType, resolveTypeName } from './lower-type.ts';
import { SqlError, SqlState } from './errors.ts';
import { someExpr, type Expr } from './expr.ts';
import { applyTypmod } from './typmod.ts';
import { alterColumnTypes, type TypeChange } from './ddl-alter-type.ts';
import { evalExpr, makeEnv } from './eval.ts';
import type { ExecContext } from './exec-context.ts';
import { isIntegerType, type SqlValue } from './types.ts';
import { initialState, takeValues, type SequenceDef } from './sequences.ts';
import { castValue } from './cast.ts';
import { indexColumnsRead, shiftIndex } from './index-keys.ts';
import { bindGenerated, checkGenerationClause, generatedUsing } from './generated-columns.ts';
import { dropKeyConstraint } from './ddl-drop-key.ts';
import { renameConstraint, renameIndex, storageOnlyAction, validateConstraint } from './ddl-constraints.ts';

export function alterTable(catalog: Catalog, storage: DdlStorage, s: AlterTableStmt, ctx: ExecContext | null = null): DdlOutcome {
  const name = s.relation?.relname ?? '';
  const view = catalog.getView(name) !== undefined;
  let table = catalog.get(name);
  // OWNER TO alone is ddl-privileges.ts's changeOwner; beside other actions it is refused.
  if ((s.cmds ?? []).some((c) => 'AlterTableCmd' in c && c.AlterTableCmd.subtype === 'AT_ChangeOwner')) throw unsupported('OWNER TO together with other ALTER TABLE actions');
  if (view) refuseOnView(name, s.cmds ?? []);
  if (s.objtype === 'OBJECT_SEQUENCE') {
    if (catalog.sequence(name) === undefined && s.missing_ok) return { tag: 'ALTER SEQUENCE', touched: [], notice: `relation "${name}" does not exist, skipping` };
    catalog.requireSequence(name);
    throw unsupported('this ALTER SEQUENCE form');
  }
  if (table === undefined) {
    if (s.missing_ok) return { tag: 'ALTER TABLE', touched: [], notice: `relation "${name}" does not exist, skipping` };
    throw new SqlError(SqlState.undefinedTable, `relation "${name}" does not exist`);
  }
  let notice: string | undefined;
  const cmds = s.cmds ?? [];
  for (let n = 0; n < cmds.length; n++) {
    const c = cmds[n]!;
    if (!('AlterTableCmd' in c)) continue;
    const cmd = c.AlterTableCmd;
    if (cmd.subtype === 'AT_AlterColumnType') {
      // Consecutive type changes convert each row once, every conversion reading the row as it was.
      const changes: TypeChange[] = [];
      for (; n < cmds.length; n++) {
        const x = cmds[n]!;
        if (!('AlterTableCmd' in x) || x.AlterTableCmd.subtype !== 'AT_AlterColumnType' || x.AlterTableCmd.def === undefined || !('ColumnDef' in x.AlterTableCmd.def)) break;
        changes.push({ name: x.AlterTableCmd.name ?? '', def: x.AlterTableCmd.def.ColumnDef });
      }
      n--;
      table = alterColumnTypes(catalog, storage, table, changes, ctx);
      continue;
    }
    if (cmd.subtype === 'AT_AddColumn' && cmd.def !== undefined && 'ColumnDef' in cmd.def) {
      const column = { ...cmd.def.ColumnDef, constraints: withConstraintAttributes(cmd.def.ColumnDef.constraints) };
      const before: TableDef = table;
      const fks = (column.constraints ?? []).flatMap((x) => ('Constraint' in x && x.Constraint.contype === 'CONSTR_FOREIGN' ? [x.Constraint] : []));
      if (fks.length > 0) referencesOfNewColumn(catalog, table, column, fks);
      const others = (column.constraints ?? []).filter((x) => !('Constraint' in x) || x.Constraint.contype !== 'CONSTR_FOREIGN');
      table = addColumn(catalog, storage, table, { ...column, constraints: others }, cmd.missing_ok === true, ctx);
      if (table === before) continue;
      // Existing rows hold NULL in the new column (no DEFAULT: referencesOfNewColumn), which references nothing.
      for (const k of fks) table = addForeignKey(catalog, storage, table, { ...k, skip_validation: true }, column.colname ?? '');
      continue;
    }
    if (cmd.subtype === 'AT_DropConstraint') {
      const r: { table: TableDef; notice?: string } = dropKeyConstraint(catalog, storage, table, cmd.name ?? '', cmd.behavior === 'DROP_CASCADE', ctx) ?? dropConstraint(catalog, table, cmd.name ?? '', cmd.missing_ok === true);
      table = r.table;
      notice = r.notice ?? notice;
      continue;
    }
    if (cmd.subtype === 'AT_DropExpression') {
      const r = dropExpression(catalog, table, cmd.name ?? '', cmd.missing_ok === true);
      table = r.table;
      notice = r.notice ?? notice;
      continue;
    }
    if (cmd.subtype === 'AT_ColumnDefault' || cmd.subtype === 'AT_DropNotNull') {
      table = alterColumn(catalog, table, cmd.subtype, cmd.name ?? '', cmd.def);
      continue;
    }
    if (cmd.subtype === 'AT_DropColumn') {
      // Other tables' defaults drawing from the column's own sequence (CREATE TABLE ... LIKE ... INCLUDING DEFAULTS copies them).
      const owner: TableDef = table;
      const notices: string[] = [];
      for (const seq of catalog.ownedSequences(owner.name, cmd.name ?? '')) {
        dropDependentDefaults(catalog, `column ${cmd.name ?? ''} of table ${owner.name}`, (def) => (someExpr(def, (x) => sequenceIdOf(x) === seq.id) ? `sequence ${seq.name}` : null),
          cmd.behavior === 'DROP_CASCADE', notices, (x) => x.id === owner.id);
      }
      notice = notices.length > 0 ? notices.join('\n') : notice;
      const r = dropColumn(catalog, storage, table, cmd.name ?? '', cmd.missing_ok === true, cmd.behavior === 'DROP_CASCADE');
      table = r.table;
      notice = r.notice ?? notice;
      dropOwnedSequences(catalog, table.name, cmd.name ?? '');
      continue;
    }
    if (cmd.subtype === 'AT_AddIdentity' && cmd.def !== undefined && 'Constraint' in cmd.def) {
      table = addIdentity(catalog, table, cmd.name ?? '', cmd.def.Constraint);
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
    if (cmd.subtype === 'AT_ValidateConstraint') {
      table = validateConstraint(catalog, storage, table, cmd.name ?? '');
      continue;
    }
    if (storageOnlyAction(table, cmd)) continue;
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
export function dropColumn(catalog: Catalog, storage: DdlStorage, t: TableDef, name: string, missingOk: boolean, cascade: boolean): { table: TableDef; notice?: string } {
  const i = t.columns.findIndex((c) => c.name === name && !c.hidden);
  if (i < 0) {
    if (missingOk) return { table: t, notice: `column "${name}" of relation "${t.name}" does not exist, skipping` };
    throw new SqlError(SqlState.undefinedColumn, `column "${name}" of relation "${t.name}" does not exist`);
  }
  if (!t.hiddenPk && t.pk.includes(i)) throw unsupported(`dropping column "${name}", which is in the primary key of "${t.name}"`);
  const notices: string[] = [];
  // Generated columns computed from it: 2BP01, or dropped first with CASCADE (as PostgreSQL's dependencies).
  const users = generatedUsing(t, i).filter((j) => j !== i).map((j) => t.columns[j]!.name);
  if (users.length > 0 && !cascade) {
    throw new SqlError(SqlState.dependentObjectsStillExist, `cannot drop column ${name} of table ${t.name} because other objects depend on it`,
      users.map((u) => `column ${u} of table ${t.name} depends on column ${name} of table ${t.name}`).join('\n'), undefined, 'Use DROP ... CASCADE to drop the dependent objects too.');
  }
  for (const u of users) t = dropColumn(catalog, storage, t, u, false, true).table;
  for (const u of users) notices.push(cascaded(`column ${u} of table ${t.name}`));
  const c = t.columns[i]!;
  dropDependentViews(catalog, storage, viewsUsingColumn(catalog, t.name, name), `column ${name} of table ${t.name}`, cascade, notices);
  // Foreign keys referencing the column (through the unique index that goes with it): 2BP01 unless CASCADE.
  const deps = catalog.referencing(t.name).filter((d) => d.fk.refColumns.includes(i) && !(d.table.id === t.id && d.fk.columns.includes(i)));
  dropDependents(catalog, deps, `column ${name} of table ${t.name}`, cascade, notices);
  t = catalog.getById(t.id) ?? t;
  const { generated: _, ...kept } = c;
  const dropped: ColumnDef = { ...kept, name: `........pg.dropped.${i + 1}........`, hidden: true, dropped: true, notNull: false, default: null, serial: false };
  const checks = (t.checks ?? []).filter((k) => !someExpr(k.expr, (x) => x.k === 'col' && x.i === i));
  const next: TableDef = {
    ...t,
    columns: t.columns.map((x, j) => (j === i ? dropped : x)),
    indexes: t.indexes.filter((x) => !indexColumnsRead(x).has(i)), // an expression or predicate over it too
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
    if (c.generated !== undefined) throw new SqlError(SqlState.syntaxError, `column "${name}" of relation "${t.name}" is a generated column`, undefined, undefined, raw === undefined ? 'Use ALTER TABLE ... ALTER COLUMN ... DROP EXPRESSION instead.' : undefined);
    const def = raw === undefined ? null : defaultExpr(catalog, { colname: name }, raw, c.type);
    next = { ...c, default: def, serial: false };
  }
  const table: TableDef = { ...t, columns: t.columns.map((x, j) => (j === i ? next : x)) };
  catalog.put(table);
  return table;
}

/**
 * ALTER COLUMN ... DROP EXPRESSION [IF EXISTS]: a stored generated column becomes an ordinary one
 * keeping its values (55000 for any other column; IF EXISTS makes that a notice).
 */
function dropExpression(catalog: Catalog, t: TableDef, name: string, missingOk: boolean): { table: TableDef; notice?: string } {
  const i = columnIndex(t, name);
  const c = t.columns[i]!;
  if (c.generated === undefined) {
    const message = `column "${name}" of relation "${t.name}" is not a stored generated column`;
    if (missingOk) return { table: t, notice: `${message}, skipping` };
    throw new SqlError(SqlState.objectNotInPrerequisiteState, message);
  }
  const { generated: _, ...plain } = c;
  const table: TableDef = { ...t, columns: t.columns.map((x, j) => (j === i ? plain : x)) };
  catalog.put(table);
  return { table };
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
  const added = k.skip_validation === true ? { ...check!, notValid: true } : check!;
  const table: TableDef = { ...t, checks: [...existing, added].sort(byName) };
  catalog.put(table);
  return table;
}

/** ALTER TABLE ... RENAME TO, ALTER TABLE ... RENAME COLUMN: names only (rows and storage stay). */
export function rename(catalog: Catalog, s: RenameStmt): DdlOutcome {
  const name = s.relation?.relname ?? '';
  const newName = s.newname ?? '';
  if (s.renameType === 'OBJECT_INDEX') return renameIndex(catalog, s);
  if (s.renameType === 'OBJECT_TABCONSTRAINT') return renameConstraint(catalog, s);
  if (s.renameType !== 'OBJECT_TABLE' && s.renameType !== 'OBJECT_VIEW' && s.renameType !== 'OBJECT_MATVIEW' && s.renameType !== 'OBJECT_COLUMN' && s.renameType !== 'OBJECT_SEQUENCE') throw unsupported(`ALTER ${String(s.renameType).replace('OBJECT_', '')} ... RENAME`);
  const seq = catalog.sequence(name);
  if (seq !== undefined && s.renameType !== 'OBJECT_COLUMN') {
    if (catalog.relationExists(newName)) throw new SqlError(SqlState.duplicateTable, `relation "${newName}" already exists`);
    catalog.putSequence({ ...seq, name: newName });
    return { tag: s.renameType === 'OBJECT_SEQUENCE' ? 'ALTER SEQUENCE' : 'ALTER TABLE', touched: [] };
  }
  if (s.renameType === 'OBJECT_SEQUENCE') {
    if (s.missing_ok === true && !catalog.relationExists(name)) return { tag: 'ALTER SEQUENCE', touched: [], notice: `relation "${name}" does not exist, skipping` };
    catalog.requireSequence(name);
  }
  const tag = s.renameType === 'OBJECT_VIEW' || s.relationType === 'OBJECT_VIEW' ? 'ALTER VIEW'
    : s.renameType === 'OBJECT_MATVIEW' || s.relationType === 'OBJECT_MATVIEW' ? 'ALTER MATERIALIZED VIEW' : 'ALTER TABLE';
  const view = catalog.getView(name);
  if (view !== undefined) return { ...renameView(catalog, view, s.renameType === 'OBJECT_COLUMN' ? s.subname ?? '' : undefined, newName), tag };
  const t = catalog.get(name);
  if (t === undefined) {
    if (s.missing_ok === true) return { tag, touched: [], notice: `relation "${name}" does not exist, skipping` };
    throw new SqlError(SqlState.undefinedTable, `relation "${name}" does not exist`);
  }
  if (s.renameType !== 'OBJECT_COLUMN') {
    if (catalog.relationExists(newName)) throw new SqlError(SqlState.duplicateTable, `relation "${newName}" already exists`);
    catalog.put({ ...t, name: newName });
    renameReferences(catalog, name, newName);
    renameRelationInViews(catalog, name, newName);
    renameOwner(catalog, name, { table: newName });
    return { tag, touched: [] };
  }
  const old = s.subname ?? '';
  const i = columnIndex(t, old);
  if (t.columns.some((c, j) => j !== i && c.name === newName)) throw new SqlError(SqlState.duplicateColumn, `column "${newName}" of relation "${name}" already exists`);
  catalog.put({ ...t, columns: t.columns.map((c, j) => (j === i ? { ...c, name: newName } : c)) });
  renameColumnInViews(catalog, name, old, newName);
  renameOwner(catalog, name, { column: { from: old, to: newName } });
  return { tag, touched: [] };
}

/**
 * ALTER TABLE ... ALTER COLUMN c ADD GENERATED {ALWAYS | BY DEFAULT} AS IDENTITY [(options)] (pg_dump
 * writes one for every identity column): the column gets a sequence of its own, PostgreSQL's checks first.
 */
function addIdentity(catalog: Catalog, t: TableDef, column: string, k: Constraint): TableDef {
  const i = columnIndex(t, column);
  const c = t.columns[i]!;
  if (c.type !== 'int2' && c.type !== 'int4' && c.type !== 'int8') throw new SqlError(SqlState.datatypeMismatch, 'identity column type must be smallint, integer, or bigint');
  if (!c.notNull) throw new SqlError(SqlState.objectNotInPrerequisiteState, `column "${column}" of relation "${t.name}" must be declared NOT NULL before identity can be added`);
  if (c.identity !== undefined) throw new SqlError(SqlState.objectNotInPrerequisiteState, `column "${column}" of relation "${t.name}" is already an identity column`);
  if (c.default !== null) throw new SqlError(SqlState.objectNotInPrerequisiteState, `column "${column}" of relation "${t.name}" already has a default value`);
  const seq = createOwnedSequence(catalog, t.name, column, c.type, identityOptions(k.options), null);
  const next: TableDef = { ...t, columns: t.columns.map((x, j) => (j === i ? { ...x, default: sequenceDefault(catalog, column, c.type, seq), identity: k.generated_when === 'a' ? 'a' : 'd' } : x)) };
  catalog.put(next);
  return next;
}

/**
 * ALTER TABLE ... ADD COLUMN: existing rows get the default, a constant or an expression evaluated for
 * each row with the transaction's context (now() the same for every row, as in PostgreSQL); one that
 * draws from a sequence is not supported yet.
 */
function addColumn(catalog: Catalog, storage: DdlStorage, t: TableDef, c: PgColumnDef, ifNotExists: boolean, ctx: ExecContext | null): TableDef {
  const name = c.colname ?? '';
  if (t.columns.some((col) => col.name === name && !col.hidden)) {
    if (ifNotExists) return t;
    throw new SqlError(SqlState.duplicateColumn, `column "${name}" of relation "${t.name}" already exists`);
  }
  const rt = resolveColumnType(c.typeName ?? {}, catalog, name);
  let notNull = false;
  let def: Expr | null = null;
  let identity: Constraint | null = null;
  let generation: Constraint | null = null;
  for (const cn of c.constraints ?? []) {
    if (!('Constraint' in cn)) continue;
    const k = cn.Constraint;
    if (k.contype === 'CONSTR_NOTNULL') notNull = true;
    else if (k.contype === 'CONSTR_DEFAULT') def = defaultExpr(catalog, c, k.raw_expr as Node, rt.type, rt.typmod);
    else if (k.contype === 'CONSTR_IDENTITY') identity = k;
    else if (k.contype === 'CONSTR_GENERATED') generation = k;
    else if (k.contype !== 'CONSTR_NULL') throw unsupported(`constraint ${String(k.contype)} in ADD COLUMN`);
  }
  if (generation !== null) checkGenerationClause(generation, name, t.name, def !== null || rt.serial, identity !== null);
  if (def !== null && someExpr(def, (x) => sequenceIdOf(x) !== null)) throw unsupported('a DEFAULT drawing from an existing sequence in ADD COLUMN');
  // SERIAL and identity: a sequence of the column's own, fresh (no session can draw from it before this
  // statement commits), so the rows take its values here, in key order, and the statement writes its state.
  let seq: SequenceDef | null = null;
  if (rt.serial || identity !== null) {
    if (identity !== null && !isIntegerType(rt.type)) throw new SqlError(SqlState.invalidParameterValue, 'identity column type must be smallint, integer, or bigint');
    if (identity !== null && def !== null) throw new SqlError(SqlState.syntaxError, `both default and identity specified for column "${name}" of table "${t.name}"`);
    notNull = true;
    seq = createOwnedSequence(catalog, t.name, name, rt.type, identity === null ? {} : identityOptions(identity.options), null);
    def = sequenceDefault(catalog, name, rt.type, seq);
  }
  const fill = def?.k === 'const' ? applyTypmod(def.v, rt.type, rt.typmod, false) : null;
  if (notNull && def === null && generation === null && storage.rowCount(t) > 0) {
    throw new SqlError(SqlState.notNullViolation, `column "${name}" of relation "${t.name}" contains null values`);
  }
  const env = makeEnv([], ctx);
  let state = seq === null ? null : initialState(seq);
  const drawn = (s: SequenceDef): SqlValue => {
    const r = takeValues(s, state!, 1);
    state = r.state;
    return castValue(r.values[0]!, 'int8', rt.type, -1, false);
  };
  const valueFor = seq !== null ? (): SqlValue => drawn(seq) : def === null || def.k === 'const' ? (): SqlValue => fill : (): SqlValue => applyTypmod(evalExpr(def, [], env), rt.type, rt.typmod, false);
  // The new column goes before the hidden row id, which stays last.
  const at = t.hiddenPk ? t.columns.length - 1 : t.columns.length;
  let col: ColumnDef = { name, type: rt.type, typmod: rt.typmod, notNull, default: def, hidden: false, serial: rt.serial, ...(identity !== null ? { identity: identity.generated_when === 'a' ? 'a' as const : 'd' as const } : {}), ...(rt.enumType === undefined ? {} : { enumType: rt.enumType }) };
  let columns = [...t.columns.slice(0, at), col, ...t.columns.slice(at)];
  // A generated column's value is its expression over the row with the new column in place.
  const generated = generation === null ? null : bindGenerated(catalog, t.name, columns, at, generation.raw_expr as Node);
  if (generated !== null) {
    col = { ...col, generated };
    columns = [...t.columns.slice(0, at), col, ...t.columns.slice(at)];
  }
  const shift = (i: number): number => (i >= at ? i + 1 : i);
  const next: TableDef = {
    ...t, columns, pk: t.pk.map(shift),
    indexes: t.indexes.map((i) => shiftIndex(i, shift)),
  };
  storage.rekeyTable(next, (row) => {
    const nw = [...row.slice(0, at), generated === null ? valueFor() : null, ...row.slice(at)];
    if (generated !== null) nw[at] = applyTypmod(evalExpr(generated.expr, nw, env), rt.type, rt.typmod, false);
    if (notNull && nw[at] === null) throw new SqlError(SqlState.notNullViolation, `column "${name}" of relation "${t.name}" contains null values`);
    return nw;
  });
  // The sequence's state after the rows' values, read when it is written: the engine's rewrite has run
  // by now, the cluster's runs before the statement's actions write the counter (client/sql/ddl-storage.ts).
  if (seq !== null) storage.setSequence(seq, { get last() { return state!.last; }, get called() { return state!.called; } });
  catalog.put(next);
  return next;
}

export function truncate(catalog: Catalog, storage: DdlStorage, s: TruncateStmt): DdlOutcome {
  const named = (s.relations ?? []).map((r) => {
    const name = 'RangeVar' in r ? (r.RangeVar.relname ?? '') : '';
    if (catalog.getView(name) !== undefined || catalog.get(name)?.matview !== undefined) throw new SqlError(SqlState.wrongObjectType, `"${name}" is not a table`);
    return catalog.require(name);
  });
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
  const rt = resolveTypeName(c.typeName ?? {}, catalog);
  const provisional: TableDef = { ...t, columns: [...t.columns, { name: c.colname ?? '', type: rt.type, typmod: rt.typmod, notNull: false, default: null, hidden: false, serial: false }] };
  const taken = constraintNames(t);
  for (const k of fks) taken.add(bindForeignKey(catalog, provisional, k, c.colname ?? '', taken).name);
}

/** ALTER TABLE ... DROP CONSTRAINT [IF EXISTS] name: a foreign key or a CHECK (key constraints: ddl-drop-key.ts). */
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
  if (missingOk) return { table: t, notice: `constraint "${name}" of relation "${t.name}" does not exist, skipping` };
  throw new SqlError(SqlState.undefinedObject, `constraint "${name}" of relation "${t.name}" does not exist`);
}

/** PostgreSQL's names of the ALTER TABLE actions it refuses on a view (42809). */
const tableOnlyActions: Readonly<Record<string, string>> = {
  AT_AddColumn: 'ADD COLUMN', AT_DropColumn: 'DROP COLUMN', AT_AddConstraint: 'ADD CONSTRAINT', AT_DropConstraint: 'DROP CONSTRAINT',
  AT_SetNotNull: 'ALTER COLUMN ... SET NOT NULL', AT_DropNotNull: 'ALTER COLUMN ... DROP NOT NULL', AT_AlterColumnType: 'ALTER COLUMN TYPE',
};

/** ALTER TABLE naming a view: what PostgreSQL refuses for views is 42809, the rest (defaults, options of views) 0A000 here. */
function refuseOnView(name: string, cmds: readonly Node[]): never {
  const first = cmds.find((c) => 'AlterTableCmd' in c);
  const subtype = first !== undefined && 'AlterTableCmd' in first ? String(first.AlterTableCmd.subtype) : '';
  const action = tableOnlyActions[subtype];
  if (action !== undefined) {
    throw new SqlError(SqlState.wrongObjectType, `ALTER action ${action} cannot be performed on relation "${name}"`, 'This operation is not supported for views.');
  }
  throw unsupported(`ALTER ${subtype.replace('AT_', '')} of a view`);
}
