// Binds the sequence functions (nextval, currval, setval, lastval; sql/sequences.ts) and
// pg_get_serial_sequence. The sequence argument must be a constant, as it is in every default,
// pg_dump's setval and the ORMs' calls: a string or a regclass literal, bound to the sequence's id now
// (PostgreSQL binds a regclass constant to an oid the same way, so renames do not break a default).
// Statements calling them run at the client on the cluster (`atClient`): replicas have no sessions.
//
// A sequence in FROM (`SELECT last_value, is_called FROM s`) is one row of its shared state, as
// PostgreSQL's sequence relation: last_value is the last value taken from the sequence by any session
// (on the cluster the counter row's, so it includes values a session took into its reserve and has not
// handed out yet, as PostgreSQL's counts a session's CACHE), is_called whether that value was taken
// (false after CREATE, RESTART or setval(..., false): last_value is then the next value to take).
// log_cnt, the values PostgreSQL has WAL-logged ahead, is always 0: no value is logged ahead here.

import type { FuncCall, Node } from 'libpg-query';
import type { Scope } from './bind-context.ts';
import { coerce } from './coerce.ts';
import { relationNamed, sequenceNamed } from './ddl-sequence.ts';
import { quoteIdentifier } from './quote.ts';
import { SqlError, SqlState, locate } from './errors.ts';
import type { Expr } from './expr.ts';
import type { BindContext } from './bind-context.ts';
import type { Plan, OutputColumn } from './plan.ts';
import type { SequenceDef } from './sequences.ts';

/** The text of a string constant (`'s'`, `'s'::regclass`, `'s'::text`), null for NULL, undefined for anything else. */
function constantName(n: Node | undefined): string | null | undefined {
  if (n === undefined) return undefined;
  if ('TypeCast' in n) {
    const type = n.TypeCast.typeName?.names?.map((x) => ('String' in x ? x.String.sval : '')).at(-1);
    if (type !== 'regclass' && type !== 'text' && type !== 'varchar') return undefined;
    return constantName(n.TypeCast.arg);
  }
  if (!('A_Const' in n)) return undefined;
  if (n.A_Const.isnull === true) return null;
  return n.A_Const.sval?.sval;
}

const ARITY: Record<string, readonly number[]> = { nextval: [1], currval: [1], setval: [2, 3], lastval: [0], pg_get_serial_sequence: [2] };

/** `name(args)` bound when `name` is a sequence function; undefined for any other function. */
export function bindSequenceCall(scope: Scope, name: string, f: FuncCall, bindExpr: (scope: Scope, n: Node) => Expr): Expr | undefined {
  const arity = ARITY[name];
  if (arity === undefined) return undefined;
  const raw = f.args ?? [];
  if (!arity.includes(raw.length)) {
    throw new SqlError(SqlState.undefinedFunction, `function ${name}(${raw.map(() => 'unknown').join(', ')}) does not exist`, undefined, undefined,
      'No function matches the given name and argument types. You might need to add explicit type casts.');
  }
  const catalog = scope.ctx.catalog;
  if (name === 'pg_get_serial_sequence') return serialSequence(scope, raw);
  scope.ctx.atClient = true;
  if (name === 'lastval') return { k: 'func', fn: 'lastval', args: [], t: 'int8' };
  const seqName = constantName(raw[0]);
  if (seqName === undefined) throw new SqlError(SqlState.featureNotSupported, `${name} needs the sequence as a constant ('name' or 'name'::regclass) in Pesto`);
  const at = raw[0] !== undefined && 'TypeCast' in raw[0] ? raw[0].TypeCast.arg : raw[0];
  const location = at !== undefined && 'A_Const' in at ? at.A_Const.location : undefined;
  const seq: Expr = seqName === null ? { k: 'const', v: null, t: 'int4' }
    : { k: 'const', v: locate(location, [SqlState.undefinedTable, '42809', '3F000', '42602'], () => sequenceNamed(catalog, seqName)).id, t: 'int4' };
  if (name !== 'setval') return { k: 'func', fn: name, args: [seq], t: 'int8' };
  const args = [seq, coerce(scope.ctx, bindExpr(scope, raw[1]!), 'int8')];
  if (raw.length > 2) args.push(coerce(scope.ctx, bindExpr(scope, raw[2]!), 'bool'));
  return { k: 'func', fn: 'setval', args, t: 'int8' };
}

/**
 * pg_get_serial_sequence('table', 'column'): the sequence a column owns, as `public.name` (NULL when it
 * owns none), found while binding; the table's name is parsed like regclass input, the column's is not.
 */
function serialSequence(scope: Scope, raw: readonly Node[]): Expr {
  const table = constantName(raw[0]);
  const column = constantName(raw[1]);
  if (table === undefined || column === undefined) throw new SqlError(SqlState.featureNotSupported, 'pg_get_serial_sequence needs constant arguments in Pesto');
  if (table === null || column === null) return { k: 'const', v: null, t: 'text' };
  const catalog = scope.ctx.catalog;
  const t = catalog.require(relationNamed(table));
  if (!t.columns.some((c) => c.name === column && !c.hidden)) throw new SqlError(SqlState.undefinedColumn, `column "${column}" of relation "${t.name}" does not exist`);
  const seq = catalog.ownedSequences(t.name, column)[0];
  return { k: 'const', v: seq === undefined ? null : `public.${quoteIdentifier(seq.name)}`, t: 'text' };
}

/** `FROM seq`: the one row (last_value, log_cnt, is_called) of the sequence's state, read at the client on the cluster. */
export function bindSequenceRelation(ctx: BindContext, seq: SequenceDef): { plan: Plan; columns: OutputColumn[] } {
  ctx.atClient = true;
  const id: Expr = { k: 'const', v: seq.id, t: 'int4' };
  const row: Expr[] = [
    { k: 'func', fn: 'sequence_last_value', args: [id], t: 'int8' },
    { k: 'const', v: 0, t: 'int8' },
    { k: 'func', fn: 'sequence_is_called', args: [id], t: 'bool' },
  ];
  const columns = [{ name: 'last_value', type: 'int8', typmod: -1 }, { name: 'log_cnt', type: 'int8', typmod: -1 }, { name: 'is_called', type: 'bool', typmod: -1 }] as const;
  return { plan: { k: 'values', rows: [row] }, columns: [...columns] };
}
