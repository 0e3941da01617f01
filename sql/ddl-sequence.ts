// Sequence DDL (sql/sequences.ts): CREATE SEQUENCE, ALTER SEQUENCE (options, RESTART, OWNED BY, RENAME
// TO), DROP SEQUENCE [CASCADE], the sequences SERIAL and identity columns own, and the references to
// sequences in expressions: `nextval('name')` binds its sequence when the statement is lowered, as
// PostgreSQL binds a regclass constant, so a column default keeps drawing from its sequence by id.

import type { AlterSeqStmt, CreateSeqStmt, Node } from 'libpg-query';
import { BindContext } from './bind-context.ts';
import type { Catalog } from './catalog.ts';
import { coerceAssign } from './coerce.ts';
import { dropDependentDefaults, type DdlOutcome, type DdlStorage } from './ddl-build.ts';
import { SqlError, SqlState } from './errors.ts';
import { someExpr, type Expr } from './expr.ts';
import { resolveTypeName } from './lower-type.ts';
import { readOptions, restartState, sequenceDef, type SequenceCounter, type SequenceDef, type SequenceOptions } from './sequences.ts';
import type { SqlType } from './types.ts';

const resolveType = (n: Node): SqlType => ('TypeName' in n ? resolveTypeName(n.TypeName).type : 'unknown');

/** The functions whose first argument names a sequence. */
export const SEQUENCE_FUNCTIONS: ReadonlySet<string> = new Set(['nextval', 'currval', 'setval']);

/** `nextval(seq)` as a bound expression (int8), for the defaults of SERIAL and identity columns. */
export function nextvalExpr(seq: SequenceDef): Expr {
  return { k: 'func', fn: 'nextval', args: [{ k: 'const', v: seq.id, t: 'int4' }], t: 'int8' };
}

/** The sequence a bound `nextval`/`currval`/`setval` call names (its first argument is the sequence's id), else null. */
export function sequenceIdOf(e: Expr): number | null {
  if (e.k !== 'func' || !SEQUENCE_FUNCTIONS.has(e.fn)) return null;
  const a = e.args[0];
  return a !== undefined && a.k === 'const' && typeof a.v === 'number' ? a.v : null;
}

/** The default of a SERIAL or identity column: `nextval` of the sequence it owns, assigned to its type. */
export function sequenceDefault(catalog: Catalog, column: string, type: SqlType, seq: SequenceDef): Expr {
  return coerceAssign(new BindContext(catalog), nextvalExpr(seq), type, column);
}

/**
 * The relation a string names (`'public.s'`, `'"MixedCase"'`), parsed as regclass input is:
 * dot-separated identifiers, double quotes keeping case, unquoted names lowercased; `public` is the
 * only schema (3F000 `schema "x" does not exist` otherwise, 42602 for bad syntax).
 */
export function relationNamed(text: string): string {
  const parts: string[] = [];
  const re = /\s*(?:"((?:[^"]|"")*)"|([^".\s]+))\s*(\.|$)/y;
  let m: RegExpExecArray | null;
  while (re.lastIndex < text.length && (m = re.exec(text)) !== null) {
    parts.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]!.toLowerCase());
    if (m[3] === '') break;
  }
  if (parts.length === 0 || parts.length > 2 || re.lastIndex < text.length) throw new SqlError('42602', 'invalid name syntax');
  if (parts.length === 2 && parts[0] !== 'public') throw new SqlError('3F000', `schema "${parts[0]}" does not exist`);
  return parts[parts.length - 1]!;
}

/** The sequence a string names (`nextval('public.s')`): relationNamed, then 42P01/42809. */
export function sequenceNamed(catalog: Catalog, text: string): SequenceDef {
  return catalog.requireSequence(relationNamed(text));
}

/** A name for a column's own sequence as PostgreSQL chooses it: `table_column_seq`, then with 1, 2, ... */
function ownName(catalog: Catalog, table: string, column: string): string {
  for (let n = 0; ; n++) {
    const name = `${table}_${column}_seq${n === 0 ? '' : n}`;
    if (!catalog.relationExists(name)) return name;
  }
}

/**
 * Creates the sequence a SERIAL or identity column owns (type from the column), with `options` (an
 * identity column's), and installs it. `counter`: where its state is kept (sql/sequences.ts).
 */
export function createOwnedSequence(catalog: Catalog, table: string, column: string, type: SqlType, options: SequenceOptions, counter: SequenceCounter | null): SequenceDef {
  const name = options.name ?? ownName(catalog, table, column);
  if (catalog.relationExists(name)) throw new SqlError(SqlState.duplicateTable, `relation "${name}" already exists`);
  const id = catalog.allocateSequenceId();
  const seqType = type === 'int2' || type === 'int4' ? type : 'int8';
  const seq = sequenceDef(
    { id, name, counter: counter ?? { table: 0, column: id }, ownedBy: { table, column } },
    { ...options, type: options.type ?? seqType },
  );
  catalog.putSequence(seq);
  return seq;
}

/** Reads an identity column's or ADD GENERATED's sequence options. */
export function identityOptions(options: readonly Node[] | undefined): SequenceOptions {
  return readOptions(options, resolveType);
}

export function createSequence(catalog: Catalog, s: CreateSeqStmt): DdlOutcome {
  const name = s.sequence?.relname ?? '';
  if (s.sequence?.relpersistence === 't') throw new SqlError(SqlState.featureNotSupported, 'temporary sequences are not supported');
  if (catalog.relationExists(name)) {
    if (s.if_not_exists) return { tag: 'CREATE SEQUENCE', touched: [], notice: `relation "${name}" already exists, skipping` };
    throw new SqlError(SqlState.duplicateTable, `relation "${name}" already exists`);
  }
  const o = readOptions(s.options, resolveType);
  if (o.restart !== undefined) throw new SqlError(SqlState.syntaxError, 'option "restart" not recognized');
  const ownedBy = o.ownedBy === undefined ? null : checkOwner(catalog, o.ownedBy);
  const id = catalog.allocateSequenceId();
  catalog.putSequence(sequenceDef({ id, name, counter: { table: 0, column: id }, ownedBy }, o));
  return { tag: 'CREATE SEQUENCE', touched: [] };
}

function checkOwner(catalog: Catalog, owner: { table: string; column: string } | null): SequenceDef['ownedBy'] {
  if (owner === null) return null;
  const t = catalog.get(owner.table);
  if (t === undefined) throw new SqlError(SqlState.undefinedTable, `relation "${owner.table}" does not exist`);
  if (!t.columns.some((c) => c.name === owner.column && !c.hidden)) throw new SqlError(SqlState.undefinedColumn, `column "${owner.column}" of relation "${owner.table}" does not exist`);
  return owner;
}

export function alterSequence(catalog: Catalog, storage: DdlStorage, s: AlterSeqStmt): DdlOutcome {
  const name = s.sequence?.relname ?? '';
  const old = catalog.sequence(name);
  if (old === undefined) {
    if (s.missing_ok) return { tag: 'ALTER SEQUENCE', touched: [], notice: `relation "${name}" does not exist, skipping` };
    catalog.requireSequence(name);
  }
  const base = old as SequenceDef;
  const o = readOptions(s.options, resolveType);
  const ownedBy = o.ownedBy === undefined ? base.ownedBy : checkOwner(catalog, o.ownedBy);
  const next = sequenceDef({ ...base, ownedBy }, o);
  catalog.putSequence(next);
  if (o.restart !== undefined) storage.setSequence(next, restartState(next, o.restart));
  return { tag: 'ALTER SEQUENCE', touched: [] };
}

export function dropSequences(catalog: Catalog, names: readonly string[], missingOk: boolean, cascade: boolean): DdlOutcome {
  const notices: string[] = [];
  for (const n of names) {
    if (catalog.sequence(n) !== undefined) continue;
    if (catalog.relationExists(n)) throw new SqlError('42809', `"${n}" is not a sequence`, undefined, undefined, 'Use DROP TABLE to remove a table.');
    if (!missingOk) throw new SqlError(SqlState.undefinedTable, `sequence "${n}" does not exist`);
  }
  for (const n of names) {
    const seq = catalog.sequence(n);
    if (seq === undefined) {
      notices.push(`sequence "${n}" does not exist, skipping`);
      continue;
    }
    dropDependentDefaults(catalog, `sequence ${n}`, (def) => (someExpr(def, (x) => sequenceIdOf(x) === seq.id) ? `sequence ${n}` : null), cascade, notices);
    catalog.removeSequence(n);
  }
  return { tag: 'DROP SEQUENCE', touched: [], ...(notices.length > 0 ? { notice: notices.join('\n') } : {}) };
}

/** Drops the sequences table `table` (or its column `column`) owns: they go with it, as in PostgreSQL. */
export function dropOwnedSequences(catalog: Catalog, table: string, column?: string): void {
  for (const s of catalog.ownedSequences(table, column)) catalog.removeSequence(s.name);
}

/** Follows a table's or column's rename in the OWNED BY of its sequences. */
export function renameOwner(catalog: Catalog, table: string, to: { table?: string; column?: { from: string; to: string } }): void {
  for (const s of catalog.ownedSequences(table)) {
    const column = to.column !== undefined && s.ownedBy?.column === to.column.from ? to.column.to : s.ownedBy!.column;
    catalog.putSequence({ ...s, ownedBy: { table: to.table ?? table, column } });
  }
}
