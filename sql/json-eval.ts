// Evaluation of the json and jsonb operators and functions the binder (lower-json.ts) produces as
// `func` nodes. The operators and most functions are strict (a NULL argument gives NULL); the builders
// (json_build_object, json_build_array) are not: a NULL value is JSON null there.

import { InvariantError } from './errors.ts';
import type { Expr } from './expr.ts';
import { evalExpr, strictArgs, type Env } from './eval.ts';
import { SqlJson, SqlJsonb, jsonbPretty, parseJsonDocument } from './json.ts';
import { buildArray, buildObject, rowToJson, toJsonText, toJsonb } from './json-build.ts';
import {
  arrayLength, concat, contains, deleteIndex, deleteKeys, exists, extract, jsonArrayLength, setPath, stripNulls,
  typeofJson, typeofJsonb,
} from './json-ops.ts';
import { SqlArray } from './sql-array.ts';
import type { Row, SqlValue } from './types.ts';

type FuncExpr = Extract<Expr, { k: 'func' }>;

/** The `fn` names evalJsonFunction handles. */
export const jsonFunctions: ReadonlySet<string> = new Set([
  'json_field', 'json_field_text', 'json_path', 'json_path_text', 'jsonb_contains', 'jsonb_contained', 'jsonb_exists',
  'jsonb_exists_any', 'jsonb_exists_all', 'jsonb_concat', 'jsonb_delete', 'jsonb_delete_path', 'to_json', 'to_jsonb',
  'json_build_object', 'jsonb_build_object', 'json_build_array', 'jsonb_build_array', 'jsonb_set', 'jsonb_insert',
  'json_typeof', 'jsonb_typeof', 'json_array_length', 'jsonb_array_length', 'jsonb_strip_nulls', 'jsonb_pretty',
  'row_to_json',
]);

const doc = (v: SqlValue): SqlJson | SqlJsonb => {
  if (v instanceof SqlJson || v instanceof SqlJsonb) return v;
  throw new InvariantError(`not a json value: ${String(v)}`);
};
const jb = (v: SqlValue): SqlJsonb => {
  if (v instanceof SqlJsonb) return v;
  throw new InvariantError(`not a jsonb value: ${String(v)}`);
};
const texts = (v: SqlValue): (string | null)[] => {
  if (v instanceof SqlArray) return v.items.map((x) => (x === null ? null : String(x)));
  throw new InvariantError(`not a text array: ${String(v)}`);
};

export function evalJsonFunction(e: FuncExpr, row: Row, env: Env): SqlValue {
  const a = e.args;
  const types = a.map((x) => x.t);
  // Not strict: NULL arguments are JSON nulls (keys are checked by the builders).
  switch (e.fn) {
    case 'json_build_object':
    case 'jsonb_build_object':
      return buildObject(e.fn === 'jsonb_build_object', a.map((x) => evalExpr(x, row, env)), types);
    case 'json_build_array':
    case 'jsonb_build_array':
      return buildArray(e.fn === 'jsonb_build_array', a.map((x) => evalExpr(x, row, env)), types);
    case 'row_to_json':
      if (evalExpr(a[0]!, row, env) === true) return null;
      return rowToJson(a.slice(1).map((x) => evalExpr(x, row, env)), types.slice(1));
    default:
      break;
  }
  const v = strictArgs(a, row, env);
  if (v === null) return null;
  const v0 = v[0]!;
  const v1 = v[1] ?? null;
  switch (e.fn) {
    case 'json_field':
    case 'json_field_text':
      return extract(doc(v0), [typeof v1 === 'number' ? v1 : String(v1)], e.fn === 'json_field_text', false);
    case 'json_path':
    case 'json_path_text':
      return extract(doc(v0), texts(v1), e.fn === 'json_path_text', true);
    case 'jsonb_contains':
      return contains(jb(v0).value, jb(v1).value);
    case 'jsonb_contained':
      return contains(jb(v1).value, jb(v0).value);
    case 'jsonb_exists':
      return exists(jb(v0).value, String(v1));
    case 'jsonb_exists_any':
    case 'jsonb_exists_all': {
      const keys = texts(v1).filter((k): k is string => k !== null);
      const d = jb(v0).value;
      return e.fn === 'jsonb_exists_any' ? keys.some((k) => exists(d, k)) : keys.every((k) => exists(d, k));
    }
    case 'jsonb_concat':
      return new SqlJsonb(concat(jb(v0).value, jb(v1).value));
    case 'jsonb_delete':
      if (typeof v1 === 'number') return new SqlJsonb(deleteIndex(jb(v0).value, v1));
      return new SqlJsonb(deleteKeys(jb(v0).value, v1 instanceof SqlArray ? texts(v1) : [String(v1)]));
    case 'jsonb_delete_path':
      return new SqlJsonb(setPath(jb(v0).value, texts(v1), undefined, 'delete'));
    case 'jsonb_set':
      return new SqlJsonb(setPath(jb(v0).value, texts(v1), jb(v[2]!).value, v[3] === false ? 'replace' : 'create'));
    case 'jsonb_insert':
      return new SqlJsonb(setPath(jb(v0).value, texts(v1), jb(v[2]!).value, v[3] === true ? 'insert-after' : 'insert-before'));
    case 'to_json':
      return new SqlJson(toJsonText(v0, types[0]!));
    case 'to_jsonb':
      return new SqlJsonb(toJsonb(v0, types[0]!));
    case 'jsonb_typeof':
      return typeofJsonb(jb(v0).value);
    case 'json_typeof':
      return typeofJson(parseJsonDocument(doc(v0).toString()));
    case 'jsonb_array_length':
      return arrayLength(jb(v0).value);
    case 'json_array_length':
      return jsonArrayLength(parseJsonDocument(doc(v0).toString()));
    case 'jsonb_strip_nulls':
      return new SqlJsonb(stripNulls(jb(v0).value));
    case 'jsonb_pretty':
      return jsonbPretty(jb(v0).value);
    default:
      throw new InvariantError(`not a json function: ${e.fn}`);
  }
}
