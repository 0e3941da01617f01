// CREATE TABLE ... (LIKE source [INCLUDING | EXCLUDING option] ...), as PostgreSQL 15's
// transformTableLikeClause and expandTableLikeClause copy a table's (or a view's) definition: every
// visible column's name, type, typmod and NOT NULL always; with DEFAULTS its defaults (a SERIAL's
// nextval of the source's own sequence, which the copy does not own); with GENERATED the generation
// expressions; with IDENTITY the identity columns, each with a new sequence of its own that takes the
// source sequence's options (as PostgreSQL, it is a bigint sequence); with CONSTRAINTS the CHECK
// constraints under their names (foreign keys never); with INDEXES the primary key, UNIQUE constraints
// and other indexes, named afresh for the new table; with COMMENTS the columns' comments. STATISTICS,
// STORAGE and COMPRESSION copy settings Pesto has none of besides the defaults. The copied definitions
// are bound expressions over the source's column ordinals, moved to the new table's.

import type { TableLikeClause } from 'libpg-query';
import type { Catalog, CheckDef, ColumnDef, TableDef } from './catalog.ts';
import { SqlError, SqlState } from './errors.ts';
import { mapExpr, type Expr } from './expr.ts';
import { remapCheckSource } from './check-text.ts';
import { sequenceIdOf } from './ddl-sequence.ts';
import { sequenceOfId, type SequenceOptions } from './sequences.ts';

/** PostgreSQL 15's CREATE_TABLE_LIKE_* bits of TableLikeClause.options. */
const LIKE = { comments: 1, constraints: 4, defaults: 8, generated: 16, identity: 32, indexes: 64 } as const;

/** One column a LIKE clause copies; `identity`: the identity to give it, with its new sequence's options. */
export interface LikeColumn {
  readonly def: ColumnDef;
  readonly identity: { readonly when: 'a' | 'd'; readonly options: SequenceOptions } | null;
}

/** What a LIKE clause copies, over the new table's column ordinals. */
export interface LikeCopy {
  readonly columns: readonly LikeColumn[];
  readonly checks: readonly CheckDef[];
  /** The source's primary key (INCLUDING INDEXES); null: none copied. */
  readonly primaryKey: readonly number[] | null;
  /** The source's other indexes (INCLUDING INDEXES): UNIQUE constraints (`constraint`) and indexes. */
  readonly indexes: readonly { readonly keys: readonly number[]; readonly unique: boolean; readonly constraint: boolean }[];
}

/** The relation a LIKE clause names: a table or a view (42809 for sequences and indexes, as PostgreSQL's). */
function likeSource(catalog: Catalog, name: string): TableDef | { readonly columns: readonly ColumnDef[] } {
  const table = catalog.get(name);
  if (table !== undefined) return table;
  const view = catalog.getView(name);
  if (view !== undefined) return { columns: view.columns.map((c) => ({ ...c, notNull: false, default: null, hidden: false, serial: false, ...catalog.enumOfColumn(c.type, c.typmod) })) };
  const kind = catalog.sequence(name) !== undefined ? 'sequences' : catalog.findIndex(name) !== undefined ? 'indexes' : null;
  if (kind !== null) throw new SqlError(SqlState.wrongObjectType, `relation "${name}" is invalid in LIKE clause`, `This operation is not supported for ${kind}.`);
  throw new SqlError(SqlState.undefinedTable, `relation "${name}" does not exist`);
}

/** The identity sequence's options of column `c` (its default draws from it). */
function identitySequenceOptions(catalog: Catalog, c: ColumnDef): SequenceOptions {
  const d = c.default;
  const id = d === null ? null : sequenceIdOf(d) ?? (d.k === 'cast' ? sequenceIdOf(d.e) : null);
  if (id === null) return { type: 'int8' };
  const s = sequenceOfId(catalog, id);
  return { type: 'int8', start: s.start, increment: s.increment, min: s.min, max: s.max, cache: s.cache, cycle: s.cycle };
}

/** Expands `clause` for a table whose next column ordinal is `offset`. */
export function expandLike(catalog: Catalog, clause: TableLikeClause, offset: number): LikeCopy {
  const source = likeSource(catalog, clause.relation?.relname ?? '');
  const options = clause.options ?? 0;
  const has = (bit: number): boolean => (options & bit) !== 0;
  // Source ordinal -> new ordinal, for the visible columns.
  const at = new Map<number, number>();
  source.columns.forEach((c, i) => {
    if (!c.hidden && c.dropped !== true) at.set(i, offset + at.size);
  });
  const moved = (i: number): number => at.get(i) ?? -1;
  const move = (e: Expr): Expr => mapExpr(e, (x) => (x.k === 'col' ? { ...x, i: moved(x.i) } : undefined));
  const columns: LikeColumn[] = [];
  for (const [i] of at) {
    const c = source.columns[i]!;
    const copyDefault = has(LIKE.defaults) && c.default !== null && c.identity === undefined && c.generated === undefined;
    let def: ColumnDef = { name: c.name, type: c.type, typmod: c.typmod, notNull: c.notNull, default: copyDefault ? c.default : null, hidden: false, serial: false, ...catalog.enumOfColumn(c.type, c.typmod) };
    if (has(LIKE.generated) && c.generated !== undefined) {
      const g = c.generated;
      def = { ...def, generated: g.source === undefined ? { expr: move(g.expr) } : { expr: move(g.expr), source: remapCheckSource(g.source, moved) } };
    }
    if (has(LIKE.comments) && c.comment !== undefined) def = { ...def, comment: c.comment };
    const identity = has(LIKE.identity) && c.identity !== undefined ? { when: c.identity, options: identitySequenceOptions(catalog, c) } : null;
    columns.push({ def, identity });
  }
  if (!('id' in source)) return { columns, checks: [], primaryKey: null, indexes: [] };
  const checks = has(LIKE.constraints)
    ? (source.checks ?? []).map((k): CheckDef => {
      const copy: CheckDef = { name: k.name, expr: move(k.expr) };
      return k.source === undefined ? copy : { ...copy, source: remapCheckSource(k.source, moved) };
    })
    : [];
  if (!has(LIKE.indexes)) return { columns, checks, primaryKey: null, indexes: [] };
  return {
    columns, checks,
    primaryKey: source.hiddenPk ? null : source.pk.map(moved),
    indexes: source.indexes.map((x) => ({ keys: x.columns.map(moved), unique: x.unique, constraint: x.constraint })),
  };
}
