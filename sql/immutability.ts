// Whether an expression is immutable as PostgreSQL 15 judges it (contain_mutable_functions, negated, over
// the expression as its planner leaves it): what index key expressions and predicates (index-keys.ts)
// and generation expressions (generated-columns.ts) may hold. Functions are judged by the name the binder
// gives them, casts by the types' I/O and pg_cast functions, operators by the types they mix. Each verdict
// was checked against PostgreSQL 15's pg_proc.provolatile; a function added to Pesto that PostgreSQL does
// not mark immutable must be added here.

import { someExpr, type Expr } from './expr.ts';
import { isArrayType, type SqlType } from './types.ts';

/** Functions PostgreSQL 15 marks stable or volatile, in every form Pesto has. */
const MUTABLE_FUNCTIONS = new Set([
  'now', 'clock_timestamp', 'statement_timestamp', 'transaction_timestamp', 'timeofday', 'random', 'gen_random_uuid',
  'uuid_generate_v1', 'uuid_generate_v1mc', 'uuid_generate_v4',
  'nextval', 'currval', 'setval', 'lastval', 'sequence_is_called', 'sequence_last_value',
  'current_date', 'current_timestamp', 'localtime', 'localtimestamp', 'current_user', 'session_user', 'current_database', 'current_schema', 'version',
  'concat', 'concat_ws', 'format_type', 'to_char', 'to_char_number', 'to_char_tz', 'to_number', 'to_date', 'to_json', 'to_jsonb', 'row_to_json',
  'json_build_array', 'json_build_object', 'jsonb_build_array', 'jsonb_build_object', 'pg_typeof', 'array_to_string',
  'has_table_privilege', 'has_sequence_privilege', 'has_schema_privilege', 'has_database_privilege',
  'format', 'format_variadic', 'make_timestamptz', 'txid_current', 'txid_current_if_assigned', 'pg_sleep', 'pg_sleep_for', 'pg_sleep_until',
]);

/** Functions whose forms over timestamptz are stable (the session's TimeZone) while the others are immutable. */
const ZONED_FUNCTIONS = new Set(['date_part', 'extract', 'date_trunc', 'date_trunc_interval', 'age', 'year', 'month', 'day', 'hour', 'minute',
  'second', 'epoch', 'dow', 'doy', 'quarter', 'week']);

const TEXT_TYPES: ReadonlySet<SqlType> = new Set<SqlType>(['text', 'varchar', 'bpchar', 'unknown']);
/** Types whose text input (and, but for time, output) depends on DateStyle, IntervalStyle or TimeZone: stable. */
const STYLED_TYPES: ReadonlySet<SqlType> = new Set<SqlType>(['date', 'timestamp', 'timestamptz', 'interval', 'time', 'timetz']);

/** Whether a cast from `from` to `to` is immutable (pg_cast and the types' I/O functions; an enum's are stable). */
function castImmutable(from: SqlType, to: SqlType): boolean {
  if (from === to) return true;
  if (from === 'enum' || to === 'enum') return false;
  if (TEXT_TYPES.has(to) && (isArrayType(from) || (STYLED_TYPES.has(from) && from !== 'time'))) return false;
  if (TEXT_TYPES.has(from) && (isArrayType(to) || STYLED_TYPES.has(to))) return false;
  if (to === 'timestamptz') return from !== 'date' && from !== 'timestamp';
  if (from === 'timestamptz') return to !== 'date' && to !== 'time' && to !== 'timestamp' && to !== 'timetz';
  // time to timetz takes the session's TimeZone.
  if (from === 'time' && to === 'timetz') return false;
  return true;
}

/** An operator over timestamptz and date, timestamp or interval: the session's TimeZone decides it (stable). */
const zoneMix = (a: SqlType, b: SqlType): boolean => (a === 'timestamptz' && b !== 'timestamptz' && (b === 'date' || b === 'timestamp' || b === 'interval'))
  || (b === 'timestamptz' && a !== 'timestamptz' && (a === 'date' || a === 'timestamp' || a === 'interval'));

/** Whether every function, cast and operator of `e` is immutable. A constant's cast is folded away (the planner's constant folding). */
export function isImmutable(e: Expr): boolean {
  return !someExpr(e, (x) => {
    switch (x.k) {
      case 'func':
        if (MUTABLE_FUNCTIONS.has(x.fn)) return true;
        if (ZONED_FUNCTIONS.has(x.fn) && (x.args.some((a) => a.t === 'timestamptz') || (x.fn === 'age' && x.args.length === 1))) return true;
        // timezone(text, timetz) takes a named zone's offset at the transaction's timestamp (stable); its
        // forms over timestamps and with an interval zone are immutable.
        if (x.fn === 'timezone') return x.args[1]?.t === 'timetz' && x.args[0]?.t !== 'interval';
        return x.fn === 'to_timestamp' && x.args.length === 2;
      case 'cast': return x.e.k !== 'const' && !castImmutable(x.e.t, x.t);
      case 'cmp': case 'distinct': return zoneMix(x.l.t, x.r.t);
      case 'arith':
        if (x.op === '||' && TEXT_TYPES.has(x.t)) return (x.l.t !== x.t && !castImmutable(x.l.t, 'text')) || (x.r.t !== x.t && !castImmutable(x.r.t, 'text'));
        return (x.op === '+' || x.op === '-') && zoneMix(x.l.t, x.r.t);
      default: return false;
    }
  });
}
