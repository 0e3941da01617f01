// Typing of the json and jsonb operators and functions after PostgreSQL 15's pg_operator and pg_proc:
// `->` and `->>` take a text key or an integer index (an untyped literal is a key), `#>`, `#>>` and `#-`
// a text[] path, `@>`, `<@` and `||` two jsonb values, `?` a text key, `?|` and `?&` a text[]; `-` on
// jsonb takes text, text[] or an integer. json has the extraction operators only. The result is a
// `func` node that json-eval.ts evaluates; anything else is 42883 as in PostgreSQL.

import type { BindContext } from './bind-context.ts';
import { coerce, operatorError } from './coerce.ts';
import { SqlError, SqlState } from './errors.ts';
import type { Expr } from './expr.ts';
import { isRowJson } from './json-build.ts';
import { isArrayType, isIntegerType, isStringType, typeDisplayName, type SqlType } from './types.ts';

const jsonOps = new Set(['->', '->>', '#>', '#>>', '@>', '<@', '?', '?|', '?&', '#-']);

function fn(name: string, args: readonly Expr[], t: SqlType): Expr {
  return { k: 'func', fn: name, args, t };
}

const isJson = (t: SqlType): boolean => t === 'json' || t === 'jsonb';
const textLike = (t: SqlType): boolean => t === 'unknown' || isStringType(t);
const textArrayLike = (t: SqlType): boolean => t === 'unknown' || t === '_text' || t === '_varchar' || t === '_bpchar';

/**
 * Binds `l op r` when it is a json operator: always for the json-only operators, for `||` and `-` when
 * the left operand is jsonb (and for `||` an untyped left with a jsonb right). Null: not a json operator.
 */
export function bindJsonOperator(ctx: BindContext, op: string, l: Expr, r: Expr): Expr | null {
  if (op === '||') {
    if (!((l.t === 'jsonb' && (r.t === 'jsonb' || r.t === 'unknown')) || (l.t === 'unknown' && r.t === 'jsonb'))) return null;
    return fn('jsonb_concat', [coerce(ctx, l, 'jsonb'), coerce(ctx, r, 'jsonb')], 'jsonb');
  }
  if (op === '-') {
    if (l.t !== 'jsonb') return null;
    if (textLike(r.t)) return fn('jsonb_delete', [l, coerce(ctx, r, 'text')], 'jsonb');
    if (isIntegerType(r.t)) return fn('jsonb_delete', [l, coerce(ctx, r, 'int4')], 'jsonb');
    if (textArrayLike(r.t)) return fn('jsonb_delete', [l, coerce(ctx, r, '_text')], 'jsonb');
    throw operatorError(op, l.t, r.t);
  }
  if (!jsonOps.has(op)) return null;
  if (l.t === 'unknown' && (op === '->' || op === '->>' || op === '#>' || op === '#>>')) {
    throw new SqlError('42725', `operator is not unique: unknown ${op} ${typeDisplayName[r.t]}`);
  }
  const bad = (): SqlError => operatorError(op, l.t, r.t);
  switch (op) {
    case '->':
    case '->>': {
      if (!isJson(l.t)) throw bad();
      const t: SqlType = op === '->' ? l.t : 'text';
      const name = op === '->' ? 'json_field' : 'json_field_text';
      if (textLike(r.t)) return fn(name, [l, coerce(ctx, r, 'text')], t);
      if (isIntegerType(r.t)) return fn(name, [l, coerce(ctx, r, 'int4')], t);
      throw bad();
    }
    case '#>':
    case '#>>':
      if (!isJson(l.t) || !textArrayLike(r.t)) throw bad();
      return fn(op === '#>' ? 'json_path' : 'json_path_text', [l, coerce(ctx, r, '_text')], op === '#>' ? l.t : 'text');
    case '#-':
      if (l.t !== 'jsonb' || !textArrayLike(r.t)) throw bad();
      return fn('jsonb_delete_path', [l, coerce(ctx, r, '_text')], 'jsonb');
    case '@>':
    case '<@': {
      const ok = (x: SqlType, y: SqlType): boolean => x === 'jsonb' && (y === 'jsonb' || y === 'unknown');
      if (!ok(l.t, r.t) && !ok(r.t, l.t)) throw bad();
      return fn(op === '@>' ? 'jsonb_contains' : 'jsonb_contained', [coerce(ctx, l, 'jsonb'), coerce(ctx, r, 'jsonb')], 'bool');
    }
    case '?':
      if (l.t !== 'jsonb' || !textLike(r.t)) throw bad();
      return fn('jsonb_exists', [l, coerce(ctx, r, 'text')], 'bool');
    default: // ?| and ?&
      if (l.t !== 'jsonb' || !textArrayLike(r.t)) throw bad();
      return fn(op === '?|' ? 'jsonb_exists_any' : 'jsonb_exists_all', [l, coerce(ctx, r, '_text')], 'bool');
  }
}

function noFunc(name: string, args: readonly Expr[]): SqlError {
  return new SqlError(SqlState.undefinedFunction, `function ${name}(${args.map((a) => typeDisplayName[a.t]).join(', ')}) does not exist`);
}

/** An argument that must be json (or jsonb for the jsonb_ functions); an untyped literal is parsed as one. */
function docArg(ctx: BindContext, name: string, args: readonly Expr[], t: 'json' | 'jsonb'): Expr {
  const a = args[0]!;
  if (a.t !== t && a.t !== 'unknown') throw noFunc(name, args);
  return coerce(ctx, a, t);
}

/** A builder's or to_json's argument: an untyped literal is text, as PostgreSQL resolves "any". */
const anyArg = (ctx: BindContext, e: Expr): Expr => (e.t === 'unknown' ? coerce(ctx, e, 'text') : e);

function textArray(ctx: BindContext, items: readonly Expr[]): Expr {
  return { k: 'array', items: items.map((x) => coerce(ctx, x, 'text')), t: '_text' };
}

/** Binds a json function call; null when `name` is not one. */
export function bindJsonFunction(ctx: BindContext, name: string, args: readonly Expr[]): Expr | null {
  const n = args.length;
  const arity = (min: number, max: number): void => {
    if (n < min || n > max) throw noFunc(name, args);
  };
  switch (name) {
    case 'row_to_json':
      // Its argument is a whole row, already bound to this json form (lower-row.ts).
      if (n === 1 && isRowJson(args[0]!)) return args[0]!;
      throw noFunc(name, args);
    case 'to_json':
    case 'to_jsonb':
      arity(1, 1);
      if (args[0]!.t === 'unknown') throw new SqlError(SqlState.datatypeMismatch, 'could not determine polymorphic type because input has type unknown');
      return fn(name, [anyArg(ctx, args[0]!)], name === 'to_json' ? 'json' : 'jsonb');
    case 'json_build_object':
    case 'jsonb_build_object':
    case 'json_build_array':
    case 'jsonb_build_array':
      if (name.endsWith('object') && n % 2 !== 0) {
        throw new SqlError(SqlState.invalidParameterValue, 'argument list must have even number of elements');
      }
      return fn(name, args.map((a) => anyArg(ctx, a)), name.startsWith('jsonb') ? 'jsonb' : 'json');
    case 'jsonb_set':
    case 'jsonb_insert': {
      arity(3, 4);
      const [d, path, value] = [docArg(ctx, name, args, 'jsonb'), args[1]!, args[2]!];
      if (!textArrayLike(path.t) || (value.t !== 'jsonb' && value.t !== 'unknown')) throw noFunc(name, args);
      const rest = args.slice(3).map((x) => {
        if (x.t !== 'bool' && x.t !== 'unknown') throw noFunc(name, args);
        return coerce(ctx, x, 'bool');
      });
      return fn(name, [d, coerce(ctx, path, '_text'), coerce(ctx, value, 'jsonb'), ...rest], 'jsonb');
    }
    case 'json_typeof':
    case 'jsonb_typeof':
      arity(1, 1);
      return fn(name, [docArg(ctx, name, args, name === 'json_typeof' ? 'json' : 'jsonb')], 'text');
    case 'json_array_length':
    case 'jsonb_array_length':
      arity(1, 1);
      return fn(name, [docArg(ctx, name, args, name === 'json_array_length' ? 'json' : 'jsonb')], 'int4');
    case 'jsonb_strip_nulls':
      arity(1, 1);
      return fn(name, [docArg(ctx, name, args, 'jsonb')], 'jsonb');
    case 'jsonb_pretty':
      arity(1, 1);
      return fn(name, [docArg(ctx, name, args, 'jsonb')], 'text');
    case 'json_extract_path':
    case 'json_extract_path_text':
    case 'jsonb_extract_path':
    case 'jsonb_extract_path_text': {
      // (from_json, VARIADIC path_elems text[]): the path as one text[] (the #> operator's form).
      if (n < 2) throw noFunc(name, args);
      const t = name.startsWith('jsonb') ? 'jsonb' : 'json';
      const d = docArg(ctx, name, args, t);
      if (!args.slice(1).every((x) => textLike(x.t))) throw noFunc(name, args);
      const asText = name.endsWith('_text');
      return fn(asText ? 'json_path_text' : 'json_path', [d, textArray(ctx, args.slice(1))], asText ? 'text' : t);
    }
    default:
      return null;
  }
}
