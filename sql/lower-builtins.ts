// Typing of more built-in scalar functions, after PostgreSQL 15's pg_proc: format and the quoting
// functions over any type, pg_size_pretty/pg_size_bytes, the SHA-2 digests, date_bin, string
// functions (translate, starts_with, chr, ascii, to_hex, string_to_array), number functions (gcd, lcm,
// factorial, trim_scale, cbrt, log10, width_bucket, log(b, x), scale, min_scale; the trigonometric and
// hyperbolic functions, pi, degrees, radians: float-math.ts), num_nulls/num_nonnulls, isfinite and make_interval.
// Evaluation is builtins-eval.ts. Each returns null for a name (or form) that is not its own, so that
// lower-func.ts goes on with its own cases.

import type { Node } from 'libpg-query';
import type { BindContext } from './bind-context.ts';
import { coerce } from './coerce.ts';
import type { Expr } from './expr.ts';
import { SqlError } from './errors.ts';
import { noFunc } from './lower-func.ts';
import { FLOAT_BINARY_FUNCTIONS, FLOAT_UNARY_FUNCTIONS } from './float-math.ts';
import { isArrayType, isIntegerType, isNumericType, isStringType, typeDisplayName, type SqlType } from './types.ts';

const func = (fn: string, args: readonly Expr[], t: SqlType): Expr => ({ k: 'func', fn, args, t });
const textLike = (e: Expr): boolean => isStringType(e.t) || e.t === 'unknown';

function notUnique(name: string, args: readonly Expr[]): SqlError {
  return new SqlError('42725', `function ${name}(${args.map((a) => typeDisplayName[a.t]).join(', ')}) is not unique`, undefined, undefined,
    'Could not choose a best candidate function. You might need to add explicit type casts.');
}

/** Arguments of fixed types, each accepted when it is that type, an untyped literal, or (`implicit`) one cast to it implicitly. */
function fixed(ctx: BindContext, name: string, args: readonly Expr[], types: readonly SqlType[], implicit: (from: SqlType, to: SqlType) => boolean): Expr[] {
  if (args.length !== types.length) throw noFunc(name, args);
  return args.map((a, i) => {
    const t = types[i] as SqlType;
    if (a.t !== t && a.t !== 'unknown' && !implicit(a.t, t)) throw noFunc(name, args);
    return coerce(ctx, a, t);
  });
}

/** PostgreSQL's implicit casts among the types these functions take. */
function implicitCast(from: SqlType, to: SqlType): boolean {
  if (to === 'text') return isStringType(from);
  if (to === 'float8') return isNumericType(from);
  if (to === 'numeric') return isIntegerType(from);
  if (to === 'int8') return from === 'int2' || from === 'int4';
  if (to === 'int4') return from === 'int2';
  if (to === 'timestamptz') return from === 'date' || from === 'timestamp';
  if (to === 'timestamp') return from === 'date';
  return false;
}

/** The common type of number arguments for a function with int4, int8 and numeric forms (gcd, lcm). */
function integerOrNumeric(args: readonly Expr[]): SqlType | null {
  if (args.some((a) => a.t !== 'unknown' && !isIntegerType(a.t) && a.t !== 'numeric')) return null;
  if (args.some((a) => a.t === 'numeric')) return 'numeric';
  return args.some((a) => a.t === 'int8') ? 'int8' : 'int4';
}

/** timestamp when the datetime arguments hold a timestamp and no timestamptz, else timestamptz (PostgreSQL's preferred type). */
export function timestampKind(args: readonly Expr[]): 'timestamp' | 'timestamptz' {
  return args.some((a) => a.t === 'timestamp') && !args.some((a) => a.t === 'timestamptz') ? 'timestamp' : 'timestamptz';
}

/** A value as its type's text (quote_literal(anyelement) is quote_literal($1::text)). */
const asText = (e: Expr): Expr => ({ k: 'cast', e, t: 'text', typmod: -1, explicit: true });

const anyArg = (ctx: BindContext, e: Expr): Expr => (e.t === 'unknown' ? coerce(ctx, e, 'text') : e);

export function bindBuiltinFunction(ctx: BindContext, name: string, args: readonly Expr[]): Expr | null {
  const fix = (types: readonly SqlType[]): Expr[] => fixed(ctx, name, args, types, implicitCast);
  if (FLOAT_UNARY_FUNCTIONS.has(name)) return func(name, fix(['float8']), 'float8');
  if (FLOAT_BINARY_FUNCTIONS.has(name)) return func(name, fix(['float8', 'float8']), 'float8');
  switch (name) {
    case 'pi':
      return func(name, fix([]), 'float8');
    case 'scale':
    case 'min_scale':
      return func(name, fix(['numeric']), 'int4');
    case 'log':
      // The two-argument form is numeric's only (log(numeric) and log(float8) are lower-func.ts's).
      if (args.length !== 2) return null;
      return func('log_base', fix(['numeric', 'numeric']), 'numeric');
    case 'format': {
      const [fmt, ...rest] = args;
      if (fmt === undefined || !textLike(fmt)) throw noFunc(name, args);
      return func(name, [coerce(ctx, fmt, 'text'), ...rest.map((a) => anyArg(ctx, a))], 'text');
    }
    case 'quote_literal':
    case 'quote_nullable': {
      if (args.length !== 1) throw noFunc(name, args);
      const a = args[0] as Expr;
      if (textLike(a)) return func(name, [coerce(ctx, a, 'text')], 'text');
      // The anyelement form: the value's text, quoted (stable in PostgreSQL: its output may depend on settings).
      return func(`${name}_any`, [asText(a)], 'text');
    }
    case 'pg_size_pretty': {
      if (args.length !== 1) throw noFunc(name, args);
      const a = args[0] as Expr;
      if (a.t === 'int8') return func(name, [a], 'text');
      if (a.t === 'numeric') return func('pg_size_pretty_numeric', [a], 'text');
      if (a.t === 'unknown' || a.t === 'int2' || a.t === 'int4') throw notUnique(name, args);
      throw noFunc(name, args);
    }
    case 'pg_size_bytes':
      return func(name, fix(['text']), 'int8');
    case 'sha224': case 'sha256': case 'sha384': case 'sha512':
      return func(name, fix(['bytea']), 'bytea');
    case 'date_bin': {
      if (args.length !== 3) throw noFunc(name, args);
      const t = timestampKind(args.slice(1));
      return func(name, fix(['interval', t, t]), t);
    }
    case 'translate':
      return func(name, fix(['text', 'text', 'text']), 'text');
    case 'to_date':
      return func(name, fix(['text', 'text']), 'date');
    case 'starts_with':
      return func(name, fix(['text', 'text']), 'bool');
    case 'chr':
      return func(name, fix(['int4']), 'text');
    case 'ascii':
      return func(name, fix(['text']), 'int4');
    case 'to_hex': {
      const a = args[0];
      return func(name, fix([a?.t === 'int8' ? 'int8' : 'int4']), 'text');
    }
    case 'string_to_array':
      if (args.length < 2 || args.length > 3) throw noFunc(name, args);
      return func(name, fix(args.length === 2 ? ['text', 'text'] : ['text', 'text', 'text']), '_text');
    case 'gcd':
    case 'lcm': {
      const t = integerOrNumeric(args);
      if (t === null) throw noFunc(name, args);
      return func(name, fix([t, t]), t);
    }
    case 'factorial':
      return func(name, fix(['int8']), 'numeric');
    case 'trim_scale':
      return func(name, fix(['numeric']), 'numeric');
    case 'cbrt':
      return func(name, fix(['float8']), 'float8');
    case 'width_bucket': {
      if (args.length !== 4) throw noFunc(name, args);
      // numeric when a bound is numeric and none is a float; otherwise double precision, the preferred type.
      const bounds = args.slice(0, 3);
      const t: SqlType = bounds.some((a) => a.t === 'numeric') && !bounds.some((a) => a.t === 'float8' || a.t === 'float4') ? 'numeric' : 'float8';
      return func(name, fix([t, t, t, 'int4']), 'int4');
    }
    case 'num_nulls':
    case 'num_nonnulls':
      if (args.length === 0) throw noFunc(name, args);
      return func(name, args, 'int4');
    case 'isfinite': {
      if (args.length !== 1) throw noFunc(name, args);
      const a = args[0] as Expr;
      const t: SqlType = a.t === 'unknown' ? 'timestamptz' : a.t;
      if (t !== 'date' && t !== 'timestamp' && t !== 'timestamptz' && t !== 'interval') throw noFunc(name, args);
      return func(name, [coerce(ctx, a, t)], 'bool');
    }
    case 'make_interval': {
      // Positional arguments: years, months, weeks, days, hours, mins (integers) and secs (double precision).
      if (args.length > 7) throw noFunc(name, args);
      const types: SqlType[] = ['int4', 'int4', 'int4', 'int4', 'int4', 'int4', 'float8'];
      return func(name, fix(types.slice(0, args.length)), 'interval');
    }
    default:
      return null;
  }
}

/** format(fmt, VARIADIC array) and num_nulls/num_nonnulls(VARIADIC array): the array's elements as the arguments. */
export function bindVariadicCall(ctx: BindContext, name: string, args: readonly Expr[]): Expr | null {
  const last = args[args.length - 1];
  if (last === undefined || (name !== 'format' && name !== 'num_nulls' && name !== 'num_nonnulls')) return null;
  if (!isArrayType(last.t)) throw new SqlError('42804', 'VARIADIC argument must be an array');
  if (name !== 'format') {
    if (args.length !== 1) throw noFunc(name, args);
    return func(`${name}_variadic`, [last], 'int4');
  }
  if (args.length !== 2 || !textLike(args[0] as Expr)) throw noFunc(name, args);
  return func('format_variadic', [coerce(ctx, args[0] as Expr, 'text'), last], 'text');
}

const MAKE_INTERVAL_PARAMETERS = ['years', 'months', 'weeks', 'days', 'hours', 'mins', 'secs'];

/**
 * make_interval's arguments in positional order, named ones (`days => 3`) at their parameter's place
 * and the ones between left out as their default 0. Named arguments follow positional ones (42601
 * otherwise, as PostgreSQL's grammar); a name used twice is 42601, an unknown name 42883.
 */
export function bindMakeIntervalArguments(raw: readonly Node[], bind: (n: Node) => Expr): Expr[] {
  const out: (Expr | undefined)[] = [];
  let named = false;
  for (const n of raw) {
    if (!('NamedArgExpr' in n)) {
      if (named) throw new SqlError('42601', 'positional argument cannot follow named argument');
      out.push(bind(n));
      continue;
    }
    named = true;
    const { name = '', arg } = n.NamedArgExpr;
    const i = MAKE_INTERVAL_PARAMETERS.indexOf(name);
    if (arg === undefined) throw new SqlError('42601', `argument ${name} has no value`);
    const value = bind(arg);
    if (i >= 0 && out[i] !== undefined) {
      throw new SqlError('42601', `argument name "${name}" used more than once`);
    }
    if (i < 0) throw new SqlError('42883', `function make_interval(${name} => ${typeDisplayName[value.t]}) does not exist`, undefined, undefined,
      'No function matches the given name and argument types. You might need to add explicit type casts.');
    out[i] = value;
  }
  return Array.from(out, (e) => e ?? { k: 'const', v: 0, t: 'int4' });
}
