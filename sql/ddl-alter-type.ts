// ALTER TABLE ... ALTER [COLUMN] c [SET DATA] TYPE t [USING expr]: the column's new type, its rows
// converted (the assignment cast, or USING evaluated over the old row) and rekeyed when the column is
// in the primary key or an index, its default converted, PostgreSQL's refusals first.

import type { Node, ColumnDef as PgColumnDef } from 'libpg-query';
import type { Catalog } from './catalog.ts';
import { columnIndex, type ColumnDef, type TableDef } from './catalog.ts';
import { BindContext, Scope } from './bind-context.ts';
import { checkKeyColumns, type DdlStorage } from './ddl-build.ts';
import { sequenceDefault } from './ddl-sequence.ts';
import { castsOnAssignment, coerce } from './coerce.ts';
import { SqlError, SqlState } from './errors.ts';
import { someExpr, type Expr } from './expr.ts';
import { keyTypesCompatible } from './foreign-keys.ts';
import { bindExpr, strOf, unsupported } from './lower-expr.ts';
import { resolveTypeName } from './lower-type.ts';
import { applyTypmod } from './typmod.ts';
import { generatedUsing } from './generated-columns.ts';
import { evalExpr, makeEnv } from './eval.ts';
import type { ExecContext } from './exec-context.ts';
import { formatTypeSpec, isIntegerType, typeDisplayName, type Row, type SqlValue } from './types.ts';
import { viewsUsingColumn } from './views.ts';
import { sequenceDef, sequenceOfId, type SequenceDef } from './sequences.ts';
import { sequenceIdOf } from './ddl-sequence.ts';
import { rebindIndex } from './index-keys.ts';

/** One ALTER COLUMN TYPE subcommand: the column's name and the parse tree's ColumnDef (type, USING as raw_default). */
export interface TypeChange {
  readonly name: string;
  readonly def: PgColumnDef;
}

/**
 * Several ALTER COLUMN TYPE subcommands of one statement, applied together as PostgreSQL does: every
 * conversion reads the row as it was, and the table is rewritten once. Everything is checked before
 * the table changes (the engine applies DDL in place). `ctx`: the transaction's, for USING's now().
 */
export function alterColumnTypes(catalog: Catalog, storage: DdlStorage, t: TableDef, changes: readonly TypeChange[], ctx: ExecContext | null): TableDef {
  const convert = new Map<number, { expr: Expr; col: ColumnDef }>();
  const identities: SequenceDef[] = [];
  const columns = [...t.columns];
  for (const { name, def } of changes) {
    const i = columnIndex(t, name);
    const old = t.columns[i]!;
    const rt = resolveTypeName(def.typeName ?? {}, catalog);
    if (rt.serial) throw new SqlError(SqlState.undefinedObject, `type "${def.typeName?.names?.map(strOf).pop() ?? ''}" does not exist`);
    if (def.collClause !== undefined) throw unsupported('ALTER COLUMN TYPE ... COLLATE');
    const spec = { type: rt.type, typmod: rt.typmod };
    const expr = transformOf(catalog, t, i, def.raw_default, spec);
    if (convert.has(i)) throw new SqlError(SqlState.featureNotSupported, `cannot alter type of column "${name}" twice`);
    // A view reading the column refuses even its own type, as in PostgreSQL.
    const [view] = viewsUsingColumn(catalog, t.name, name);
    if (view !== undefined) {
      throw new SqlError(SqlState.featureNotSupported, 'cannot alter type of a column used by a view or rule', `rule _RETURN on ${view.kind} ${view.name} depends on column "${name}"`);
    }
    const [user] = generatedUsing(t, i);
    if (user !== undefined) throw new SqlError(SqlState.featureNotSupported, 'cannot alter type of a column used by a generated column', `Column "${name}" is used by generated column "${t.columns[user]!.name}".`);
    const same = rt.type === old.type && def.raw_default === undefined;
    if (old.generated !== undefined && !(same && rt.typmod === old.typmod)) throw unsupported(`ALTER COLUMN TYPE of generated column "${name}"`);
    if (same && rt.typmod === old.typmod) continue; // ORMs' schema sync sends the column's own type: nothing changes
    if (!same) refuseDependents(catalog, t, i, rt.type);
    if (old.identity !== undefined && !isIntegerType(rt.type)) throw new SqlError(SqlState.invalidParameterValue, 'identity column type must be smallint, integer, or bigint');
    // An identity column's sequence takes the new type, and its bounds where they were the old type's (as PostgreSQL's).
    // A SERIAL or identity default (nextval, cast to the column's type) is made again for the new type.
    const d = old.default;
    const seqId = d === null ? null : sequenceIdOf(d) ?? (d.k === 'cast' ? sequenceIdOf(d.e) : null);
    let seq = seqId === null ? undefined : sequenceOfId(catalog, seqId);
    if (seq !== undefined && old.identity !== undefined && rt.type !== old.type && isIntegerType(rt.type)) {
      seq = sequenceDef(seq, { type: rt.type });
      identities.push(seq);
    }
    let dflt = seq !== undefined && isIntegerType(rt.type) ? sequenceDefault(catalog, name, rt.type, seq) : old.default;
    if (dflt !== null && dflt.t !== rt.type) {
      if (!castsOnAssignment(dflt.t, rt.type)) throw new SqlError(SqlState.datatypeMismatch, `default for column "${name}" cannot be cast automatically to type ${typeDisplayName[rt.type]}`);
      dflt = coerce(new BindContext(catalog), dflt, rt.type, rt.type === 'enum' ? rt.typmod : -1);
    }
    const { enumType: _, ...rest } = old;
    const col: ColumnDef = { ...rest, type: rt.type, typmod: rt.typmod, default: dflt, ...(rt.enumType === undefined ? {} : { enumType: rt.enumType }) };
    columns[i] = col;
    convert.set(i, { expr, col });
  }
  if (convert.size === 0) return t;
  let next: TableDef = {
    ...t, columns,
    pkTypes: t.pk.map((i) => columns[i]!.type),
  };
  // Indexes are built again for the new types: an expression index's expressions bound again, as PostgreSQL does.
  next = { ...next, indexes: t.indexes.map((x) => rebindIndex(catalog, next, x)) };
  checkKeyColumns(next, [...new Set([...(t.hiddenPk ? [] : t.pk), ...t.indexes.flatMap((x) => x.columns)])].filter((i) => convert.has(i)));
  const env = makeEnv([], ctx);
  const steps = [...convert.entries()];
  storage.rekeyTable(next, (row: Row): Row => {
    const out: SqlValue[] = [...row];
    for (const [i, { expr, col }] of steps) out[i] = applyTypmod(evalExpr(expr, row, env), col.type, col.typmod, false);
    for (const [i, { col }] of steps) {
      if (col.notNull && out[i] === null) throw new SqlError(SqlState.notNullViolation, `column "${col.name}" of relation "${t.name}" contains null values`);
    }
    return out;
  });
  catalog.put(next);
  for (const s of identities) catalog.putSequence(s);
  return next;
}

/**
 * The conversion of column `i` to `to`: USING bound over the old row (no aggregates nor subqueries, as
 * PostgreSQL's transform expressions), else the column itself; either must cast to the new type on
 * assignment (42804 with PostgreSQL's words otherwise).
 */
function transformOf(catalog: Catalog, t: TableDef, i: number, using: Node | undefined, to: { type: TableDef['columns'][number]['type']; typmod: number }): Expr {
  const old = t.columns[i]!;
  let e: Expr;
  if (using === undefined) {
    e = { k: 'col', i, t: old.type } as Expr;
    if (!castsOnAssignment(old.type, to.type)) {
      throw new SqlError(SqlState.datatypeMismatch, `column "${old.name}" cannot be cast automatically to type ${typeDisplayName[to.type]}`, undefined, undefined,
        `You might need to specify "USING ${old.name}::${formatTypeSpec(to)}".`);
    }
  } else {
    const scope = new Scope(new BindContext(catalog), null);
    scope.addRel(t.name, t.columns.map((c) => ({ name: c.name, type: c.type, typmod: c.typmod, hidden: c.hidden })), t);
    scope.aggForbidden = 'transform expressions';
    e = bindExpr(scope, using);
    if (someExpr(e, (x) => x.k === 'subquery')) throw new SqlError(SqlState.featureNotSupported, 'cannot use subquery in transform expression');
    if (e.t !== 'unknown' && !castsOnAssignment(e.t, to.type)) {
      throw new SqlError(SqlState.datatypeMismatch, `result of USING clause for column "${old.name}" cannot be cast automatically to type ${typeDisplayName[to.type]}`, undefined, undefined,
        'You might need to add an explicit cast.');
    }
  }
  if (to.type === 'enum') return coerce(new BindContext(catalog), e, to.type, to.typmod);
  return e.t === to.type ? e : coerce(new BindContext(catalog), e, to.type);
}

/**
 * What PostgreSQL refuses (or Pesto cannot rebuild) when a column's type changes: a foreign key whose
 * two sides would no longer compare (42804 as PostgreSQL's re-added constraint says), a CHECK over it
 * (Pesto keeps CHECKs bound, not as text: 0A000).
 */
function refuseDependents(catalog: Catalog, t: TableDef, i: number, to: ColumnDef['type']): void {
  const name = t.columns[i]!.name;
  const fks = [
    ...(t.foreignKeys ?? []).flatMap((fk) => fk.columns.flatMap((c, j) => (c === i ? [{ fk, mine: t.columns[c]!, other: catalog.require(fk.refTable).columns[fk.refColumns[j]!]!, child: true }] : []))),
    ...catalog.referencing(t.name).flatMap(({ table, fk }) => fk.refColumns.flatMap((c, j) => (c === i ? [{ fk, mine: t.columns[c]!, other: table.columns[fk.columns[j]!]!, child: false }] : []))),
  ];
  for (const { fk, mine, other, child } of fks) {
    const [fc, pc] = child ? [{ ...mine, type: to }, other] : [other, { ...mine, type: to }];
    if (!keyTypesCompatible(fc.type, pc.type)) {
      throw new SqlError(SqlState.datatypeMismatch, `foreign key constraint "${fk.name}" cannot be implemented`,
        `Key columns "${fc.name}" and "${pc.name}" are of incompatible types: ${typeDisplayName[fc.type]} and ${typeDisplayName[pc.type]}.`);
    }
  }
  const check = (t.checks ?? []).find((k) => someExpr(k.expr, (x) => x.k === 'col' && x.i === i));
  if (check !== undefined) throw unsupported(`ALTER COLUMN TYPE of column "${name}", which check constraint "${check.name}" reads`);
}
