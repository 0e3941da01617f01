// Typing of scalar function calls: argument coercions and result types after PostgreSQL's catalog
// (length -> integer, round(numeric, int) -> numeric, abs keeps its argument type, ...). Functions whose
// value would differ between replicas (random(), clock_timestamp()) mark the statement `atClient`: the
// session's client runs it (replicas must agree on results).

import { extensionOf, UUID_CONSTANTS } from './extensions.ts';
import type { Expr } from './expr.ts';
import type { BindContext } from './bind-context.ts';
import { coerce, operatorError, unifyAll } from './coerce.ts';
import { bindJsonFunction } from './lower-json.ts';
import { bindArrayFunction } from './lower-array.ts';
import { bindBuiltinFunction } from './lower-builtins.ts';
import { bindSessionFunction } from './session-time.ts';
import { REGEX_FUNCTIONS, bindRegexFunction, bindSubstringPattern } from './lower-match.ts';
import { SqlError, SqlState } from './errors.ts';
import { isArrayType, isDateTimeType, isIntegerType, isNumericType, isStringType, typeDisplayName, type SqlType } from './types.ts';

function fn(name: string, args: readonly Expr[], t: SqlType): Expr {
  return { k: 'func', fn: name, args, t };
}

/** 42883 with PostgreSQL's hint, for a name with no function of these argument types. */
export function noFunc(name: string, args: readonly Expr[]): SqlError {
  return new SqlError(SqlState.undefinedFunction,
    `function ${name}(${args.map((a) => typeDisplayName[a.t]).join(', ')}) does not exist`, undefined, undefined,
    'No function matches the given name and argument types. You might need to add explicit type casts.');
}

function arity(name: string, args: readonly Expr[], min: number, max: number): void {
  if (args.length < min || args.length > max) throw noFunc(name, args);
}

function textArg(ctx: BindContext, e: Expr, name = '', args: readonly Expr[] = []): Expr {
  if (isStringType(e.t) || e.t === 'unknown') return coerce(ctx, e, 'text');
  throw noFunc(name, args);
}

function numArg(ctx: BindContext, e: Expr, name: string, args: readonly Expr[]): Expr {
  if (e.t === 'unknown') return coerce(ctx, e, 'numeric');
  if (!isNumericType(e.t)) throw noFunc(name, args);
  return e;
}

const deterministicNow = new Set(['now', 'current_timestamp', 'localtimestamp', 'transaction_timestamp']);

/** Integer bitwise operators & | # as PostgreSQL's int2and, int4or, int8xor, ... over the operands' common integer type. */
export function bindBitwise(ctx: BindContext, op: '&' | '|' | '#', l: Expr, r: Expr): Expr {
  const [a, t] = unifyAll(ctx, [l, r].map((x) => (x.t === 'unknown' ? coerce(ctx, x, 'int4') : x)), op);
  if (!isIntegerType(t)) throw operatorError(op, l.t, r.t);
  return { k: 'func', fn: `${t}${op === '&' ? 'and' : op === '|' ? 'or' : 'xor'}`, args: a, t };
}

export function bindFunction(ctx: BindContext, name: string, args: Expr[]): Expr {
  const extension = extensionOf(name);
  if (extension !== undefined) return bindExtensionFunction(ctx, name, args, extension);
  if (REGEX_FUNCTIONS.has(name)) return bindRegexFunction(ctx, name, args);
  if (deterministicNow.has(name)) {
    arity(name, args, 0, 0);
    // T, the transaction's timestamp; with time zone, except LOCALTIMESTAMP (its wall clock in the session's zone).
    return fn('now', [], name === 'localtimestamp' ? 'timestamp' : 'timestamptz');
  }
  if (name === 'localtime') {
    // T's time of day in the session's zone.
    arity(name, args, 0, 0);
    return fn(name, [], 'time');
  }
  const builtin = bindBuiltinFunction(ctx, name, args) ?? bindSessionFunction(ctx, name, args);
  if (builtin !== null) return builtin;
  switch (name) {
    case 'current_date':
      return fn(name, [], 'date');
    case 'gen_random_uuid':
      arity(name, args, 0, 0);
      ctx.atClient = true;
      return fn(name, [], 'uuid');
    case 'current_database':
    case 'current_user':
    case 'session_user':
      ctx.atClient = true;
      return fn(name, [], 'text');
    case 'has_table_privilege': case 'has_sequence_privilege': case 'has_schema_privilege': case 'has_database_privilege':
      // Read the catalog and the session's role (privilege-functions.ts): the client answers them.
      arity(name, args, 2, 3);
      if (args.some((a) => a.t !== 'unknown' && a.t !== 'text' && a.t !== 'varchar' && a.t !== 'name')) throw noFunc(name, args);
      ctx.atClient = true;
      return fn(name, args.map((a) => coerce(ctx, a, 'text')), 'bool');
    case 'version':
    case 'current_schema':
      return fn(name, [], 'text');
    case 'format_type':
      // format_type(type oid, typmod): oids are integers here (the gateway's pg_catalog has them as int4).
      arity(name, args, 2, 2);
      if (args.some((a) => a.t !== 'unknown' && !isIntegerType(a.t))) throw noFunc(name, args);
      return fn(name, args.map((a) => coerce(ctx, a, 'int4')), 'text');
    case 'pg_advisory_unlock_all':
      arity(name, args, 0, 0);
      ctx.atClient = true;
      return fn(name, [], 'void');
    case 'pg_advisory_lock': case 'pg_advisory_lock_shared': case 'pg_advisory_xact_lock': case 'pg_advisory_xact_lock_shared':
    case 'pg_try_advisory_lock': case 'pg_try_advisory_lock_shared': case 'pg_try_advisory_xact_lock': case 'pg_try_advisory_xact_lock_shared':
    case 'pg_advisory_unlock': case 'pg_advisory_unlock_shared': {
      // The session's locks (advisory-locks.ts): the client running the statement takes them. One bigint
      // key or two int4 keys.
      arity(name, args, 1, 2);
      const want = args.length === 1 ? 'int8' : 'int4';
      if (args.some((x) => x.t !== 'unknown' && !isIntegerType(x.t) || (want === 'int4' && x.t === 'int8'))) throw noFunc(name, args);
      ctx.atClient = true;
      return fn(name, args.map((x) => coerce(ctx, x, want)), name.includes('_try_') || name.includes('unlock') ? 'bool' : 'void');
    }
    case 'random':
      // Drawn by the client running the statement over the rows it reads, as gen_random_uuid is.
      arity(name, args, 0, 0);
      ctx.atClient = true;
      return fn(name, [], 'float8');
    case 'pg_typeof':
      // regtype's output for the argument's type, which binding already knows (shown as text here).
      arity(name, args, 1, 1);
      return { k: 'const', v: typeDisplayName[(args[0] as Expr).t], t: 'text' };
    case 'abs': {
      arity(name, args, 1, 1);
      const a = numArg(ctx, args[0] as Expr, name, args);
      return fn(name, [a], a.t);
    }
    case 'lower':
    case 'upper':
    case 'initcap':
    case 'reverse':
    case 'quote_ident':
      arity(name, args, 1, 1);
      return fn(name, [textArg(ctx, args[0] as Expr, name, args)], 'text');
    case 'split_part':
      arity(name, args, 3, 3);
      return fn(name, [textArg(ctx, args[0] as Expr, name, args), textArg(ctx, args[1] as Expr, name, args), coerce(ctx, args[2] as Expr, 'int4')], 'text');
    case 'length':
    case 'char_length':
    case 'character_length':
    case 'octet_length': {
      arity(name, args, 1, 1);
      const a = args[0] as Expr;
      // length and octet_length of bytea count bytes; char_length has no bytea form.
      if (a.t === 'bytea' && (name === 'length' || name === 'octet_length')) return fn(name, [a], 'int4');
      return fn(name, [a.t === 'bpchar' ? a : textArg(ctx, a, name, args)], 'int4');
    }
    case 'array_length':
    case 'array_lower':
    case 'array_upper':
    case 'cardinality': {
      arity(name, args, name === 'cardinality' ? 1 : 2, name === 'cardinality' ? 1 : 2);
      if (!isArrayType((args[0] as Expr).t)) throw noFunc(name, args);
      return fn(name, [args[0] as Expr, ...args.slice(1).map((x) => coerce(ctx, x, 'int4'))], 'int4');
    }
    case 'substr':
    case 'substring': {
      arity(name, args, 2, 3);
      const pattern = name === 'substring' ? bindSubstringPattern(ctx, args) : null;
      if (pattern !== null) return pattern;
      const a = args[0] as Expr;
      const rest = args.slice(1).map((x) => coerce(ctx, x, 'int4'));
      if (a.t === 'bytea') return fn('substr', [a, ...rest], 'bytea');
      return fn('substr', [textArg(ctx, a, name, args), ...rest], 'text');
    }
    case 'md5': {
      // md5(text) and md5(bytea): the digest in hex.
      arity(name, args, 1, 1);
      const a = args[0] as Expr;
      return fn(name, [a.t === 'bytea' ? a : textArg(ctx, a, name, args)], 'text');
    }
    case 'encode': {
      arity(name, args, 2, 2);
      const a = args[0] as Expr;
      if (a.t !== 'bytea' && a.t !== 'unknown') throw noFunc(name, args);
      return fn(name, [coerce(ctx, a, 'bytea'), textArg(ctx, args[1] as Expr, name, args)], 'text');
    }
    case 'decode':
      arity(name, args, 2, 2);
      return fn(name, args.map((a) => textArg(ctx, a, name, args)), 'bytea');
    case 'strpos':
    case 'position': {
      arity(name, args, 2, 2);
      const [s, sub] = args as [Expr, Expr];
      // position(bytea in bytea), an untyped operand taken as bytea; strpos is text's only.
      if (name === 'position' && (s.t === 'bytea' || sub.t === 'bytea') && s.t !== sub.t && s.t !== 'unknown' && sub.t !== 'unknown') throw noFunc(name, args);
      if (name === 'position' && (s.t === 'bytea' || sub.t === 'bytea')) return fn('strpos', [coerce(ctx, s, 'bytea'), coerce(ctx, sub, 'bytea')], 'int4');
      // position(sub IN s) arrives as (s, sub) from the parser; strpos(s, sub) likewise.
      return fn('strpos', [textArg(ctx, s, name, args), textArg(ctx, sub, name, args)], 'int4');
    }
    case 'btrim':
    case 'trim':
    case 'ltrim':
    case 'rtrim':
      arity(name, args, 1, 2);
      return fn(name === 'trim' ? 'btrim' : name, args.map((a) => textArg(ctx, a, name, args)), 'text');
    case 'replace':
      arity(name, args, 3, 3);
      return fn(name, args.map((a) => textArg(ctx, a, name, args)), 'text');
    case 'left':
    case 'right':
    case 'repeat':
      arity(name, args, 2, 2);
      return fn(name, [textArg(ctx, args[0] as Expr, name, args), coerce(ctx, args[1] as Expr, 'int4')], 'text');
    case 'lpad':
    case 'rpad':
      arity(name, args, 2, 3);
      return fn(name, [textArg(ctx, args[0] as Expr, name, args), coerce(ctx, args[1] as Expr, 'int4'), ...args.slice(2).map((a) => textArg(ctx, a, name, args))], 'text');
    case 'concat':
      return fn(name, args.map((a) => (a.t === 'unknown' ? coerce(ctx, a, 'text') : a)), 'text');
    case 'concat_ws':
      if (args.length < 1) throw noFunc(name, args);
      return fn(name, args.map((a) => (a.t === 'unknown' ? coerce(ctx, a, 'text') : a)), 'text');
    case 'round':
    case 'trunc': {
      arity(name, args, 1, 2);
      let a = numArg(ctx, args[0] as Expr, name, args);
      if (args.length === 2 || a.t === 'numeric') {
        a = coerce(ctx, a, 'numeric');
        return fn(name, [a, ...args.slice(1).map((x) => coerce(ctx, x, 'int4'))], 'numeric');
      }
      a = coerce(ctx, a, 'float8');
      return fn(name, [a], 'float8');
    }
    case 'ceil':
    case 'ceiling':
    case 'floor':
    case 'sign': {
      arity(name, args, 1, 1);
      const a0 = numArg(ctx, args[0] as Expr, name, args);
      const a = coerce(ctx, a0, a0.t === 'numeric' ? 'numeric' : 'float8');
      return fn(name, [a], a.t);
    }
    case 'sqrt':
    case 'exp':
    case 'ln':
    case 'log':
    case 'log10': {
      arity(name, args, 1, 1);
      const a = numArg(ctx, args[0] as Expr, name, args);
      const t: SqlType = a.t === 'numeric' ? 'numeric' : 'float8';
      // log10 is log under another name.
      return fn(name === 'log10' ? 'log' : name, [coerce(ctx, a, t === 'numeric' ? 'numeric' : 'float8')], t);
    }
    case 'power':
    case 'pow': {
      arity(name, args, 2, 2);
      const a = args.map((x) => numArg(ctx, x, name, args));
      const t: SqlType = a.every((x) => x.t === 'numeric') ? 'numeric' : 'float8';
      return fn('power', a.map((x) => coerce(ctx, x, t === 'numeric' ? 'numeric' : 'float8')), t);
    }
    case 'mod': {
      arity(name, args, 2, 2);
      const [a, t] = unifyAll(ctx, args.map((x) => numArg(ctx, x, name, args)), 'mod');
      return fn(name, a, t);
    }
    case 'div':
      arity(name, args, 2, 2);
      return fn(name, args.map((x) => coerce(ctx, x, 'numeric')), 'numeric');
    case 'date_part':
    case 'extract': {
      arity(name, args, 2, 2);
      const src = args[1] as Expr;
      const s = src.t === 'unknown' ? coerce(ctx, src, 'timestamp') : src;
      if (!isDateTimeType(s.t) && s.t !== 'interval' && s.t !== 'time' && s.t !== 'timetz') throw noFunc(name, args);
      return fn(name, [coerce(ctx, args[0] as Expr, 'text'), s], name === 'extract' ? 'numeric' : 'float8');
    }
    case 'timezone': {
      // `t AT TIME ZONE z`: a timestamp with time zone becomes the zone's wall-clock timestamp, a
      // timestamp (the zone's wall clock) the instant it names; a time with time zone the same instant
      // in the zone (a time through its implicit cast, a date as the timestamptz of its midnight).
      arity(name, args, 2, 2);
      const [zone, t] = [args[0] as Expr, args[1] as Expr];
      const z = zone.t === 'interval' ? zone : isStringType(zone.t) || zone.t === 'unknown' ? coerce(ctx, zone, 'text') : null;
      if (z === null) throw noFunc(name, args);
      if (t.t === 'timestamp') return fn(name, [z, t], 'timestamptz');
      if (t.t === 'timestamptz' || t.t === 'date') return fn(name, [z, coerce(ctx, t, 'timestamptz')], 'timestamp');
      if (t.t !== 'timetz' && t.t !== 'time') throw noFunc(name, args);
      return fn(name, [z, coerce(ctx, t, 'timetz')], 'timetz');
    }
    case 'age': {
      arity(name, args, 2, 2);
      const t = args.some((x) => x.t === 'timestamptz') ? 'timestamptz' : 'timestamp';
      if (!args.every((x) => x.t === 'timestamp' || x.t === 'timestamptz' || x.t === 'date' || x.t === 'unknown')) throw noFunc(name, args);
      return fn(name, args.map((x) => coerce(ctx, x, t)), 'interval');
    }
    case 'justify_days':
    case 'justify_hours':
    case 'justify_interval': {
      arity(name, args, 1, 1);
      const a = args[0] as Expr;
      if (a.t !== 'interval' && a.t !== 'unknown') throw noFunc(name, args);
      return fn(name, [coerce(ctx, a, 'interval')], 'interval');
    }
    case 'to_char': {
      // Dates, timestamps and timestamptz (sql/to-char.ts); the template's zone patterns need to know which.
      arity(name, args, 2, 2);
      const a = args[0] as Expr;
      // A time is to_char(interval, text) through its implicit cast, as in PostgreSQL.
      if (a.t === 'interval' || a.t === 'time') throw new SqlError(SqlState.featureNotSupported, `to_char(${typeDisplayName[a.t === 'time' ? 'interval' : a.t]}, text) is not supported`);
      // Numbers (sql/to-char-number.ts): smallint through to_char(integer), as PostgreSQL resolves it.
      if (isNumericType(a.t)) return fn('to_char_number', [coerce(ctx, a, a.t === 'int2' ? 'int4' : a.t), textArg(ctx, args[1] as Expr, name, args)], 'text');
      if (!isDateTimeType(a.t)) throw noFunc(name, args);
      const tz = a.t === 'timestamptz';
      return fn(tz ? 'to_char_tz' : 'to_char', [coerce(ctx, a, tz ? 'timestamptz' : 'timestamp'), textArg(ctx, args[1] as Expr, name, args)], 'text');
    }
    case 'make_time':
      arity(name, args, 3, 3);
      return fn(name, args.map((x, i) => coerce(ctx, numArg(ctx, x, name, args), i === 2 ? 'float8' : 'int4')), 'time');
    case 'to_number':
      arity(name, args, 2, 2);
      return fn(name, [textArg(ctx, args[0] as Expr, name, args), textArg(ctx, args[1] as Expr, name, args)], 'numeric');
    case 'make_date':
    case 'make_timestamp': {
      const n = name === 'make_date' ? 3 : 6;
      arity(name, args, n, n);
      const ints = args.map((x, i) => coerce(ctx, numArg(ctx, x, name, args), i === 5 ? 'float8' : 'int4'));
      return fn(name, ints, name === 'make_date' ? 'date' : 'timestamp');
    }
    case 'make_timestamptz': {
      // The wall clock in the session's zone, or in the zone named by a seventh argument.
      arity(name, args, 6, 7);
      const parts = args.slice(0, 6).map((x, i) => coerce(ctx, numArg(ctx, x, name, args), i === 5 ? 'float8' : 'int4'));
      return fn(name, args.length === 7 ? [...parts, textArg(ctx, args[6] as Expr, name, args)] : parts, 'timestamptz');
    }
    case 'to_timestamp': {
      // The one-argument form: seconds since 1970; the template form reads text (sql/to-date.ts).
      if (args.length === 2) return fn(name, [textArg(ctx, args[0] as Expr, name, args), textArg(ctx, args[1] as Expr, name, args)], 'timestamptz');
      arity(name, args, 1, 1);
      return fn(name, [coerce(ctx, numArg(ctx, args[0] as Expr, name, args), 'float8')], 'timestamptz');
    }
    case 'date_trunc': {
      arity(name, args, 2, 2);
      // An interval's, and a time's through its implicit cast to interval (PostgreSQL has no time version).
      const src = args[1] as Expr;
      if (src.t === 'interval' || src.t === 'time') return fn('date_trunc_interval', [coerce(ctx, args[0] as Expr, 'text'), coerce(ctx, src, 'interval')], 'interval');
      const t = (args[1] as Expr).t === 'timestamptz' ? 'timestamptz' : 'timestamp';
      return fn(name, [coerce(ctx, args[0] as Expr, 'text'), coerce(ctx, args[1] as Expr, t)], t);
    }
    default:
      return bindJsonFunction(ctx, name, args) ?? bindArrayFunction(ctx, name, args) ?? throwNoFunc(name, args);
  }
}

function throwNoFunc(name: string, args: readonly Expr[]): never {
  throw noFunc(name, args);
}

/** uuid-ossp's functions (extensions.ts), which exist only while the extension is installed. */
function bindExtensionFunction(ctx: BindContext, name: string, args: Expr[], extension: string): Expr {
  if (ctx.catalog.extensionVersion(extension) === undefined) throw noFunc(name, args);
  const constant = UUID_CONSTANTS[name];
  if (constant !== undefined) {
    arity(name, args, 0, 0);
    return { k: 'const', v: constant, t: 'uuid' };
  }
  if (name === 'uuid_generate_v3' || name === 'uuid_generate_v5') {
    arity(name, args, 2, 2);
    if (args[0]!.t !== 'uuid' && args[0]!.t !== 'unknown') throw noFunc(name, args);
    return fn(name, [coerce(ctx, args[0]!, 'uuid'), textArg(ctx, args[1] as Expr, name, args)], 'uuid');
  }
  arity(name, args, 0, 0);
  // Random bytes and the transaction's time: the client answers (replicas must agree on results).
  ctx.atClient = true;
  return fn(name, [], 'uuid');
}
