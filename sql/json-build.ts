// SQL values into json and jsonb (PostgreSQL 15's datum_to_json and datum_to_jsonb): to_json/to_jsonb,
// json_build_object/array, and the json aggregates. Numbers stay numbers (a float's NaN and infinities
// become strings), booleans booleans, arrays arrays, json and jsonb values are embedded as documents,
// dates and timestamps are ISO 8601 strings ("2024-01-01T10:00:00", with "+00:00" for timestamptz), and
// anything else is its text output as a string. json's own output spacing is PostgreSQL's:
// json_build_object gives {"a" : 1, "b" : 2}, json_build_array [1, 2], to_json of an array [1,2].

import { SqlError, SqlState } from './errors.ts';
import type { Expr } from './expr.ts';
import { SqlJson, SqlJsonb, jsonbObject, jsonbOfNode, jsonbText, parseJsonDocument, quoteJson, type Jsonb } from './json.ts';
import { Numeric } from './numeric.ts';
import { SqlArray } from './sql-array.ts';
import { isArrayType, isDateTimeType, type SqlType, type SqlValue } from './types.ts';
import { formatText } from './value-text.ts';

function isoText(v: SqlValue, t: SqlType): string {
  const s = formatText(v, t);
  if (t === 'date') return s;
  const iso = s.replace(' ', 'T');
  // timestamptz prints its offset as +00; JSON carries +00:00.
  return t === 'timestamptz' && /[+-]\d\d$/.test(iso) ? iso + ':00' : iso;
}

function floatJson(v: number, t: SqlType): Numeric | string {
  if (!Number.isFinite(v)) return Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity';
  return Numeric.parse(formatText(v, t)) ?? formatText(v, t);
}

/** to_jsonb of one SQL value of type `t` (SQL NULL is JSON null inside builders and aggregates). */
export function toJsonb(v: SqlValue, t: SqlType): Jsonb {
  if (v === null) return null;
  if (v instanceof SqlJsonb) return v.value;
  if (v instanceof SqlJson) return jsonbOfNode(parseJsonDocument(v.text, true));
  if (typeof v === 'boolean') return v;
  if (v instanceof Numeric) return v;
  if (typeof v === 'bigint') return Numeric.fromInteger(v);
  if (typeof v === 'number') return t === 'float4' || t === 'float8' ? floatJson(v, t) : Numeric.fromInteger(v);
  if (v instanceof SqlArray) return v.items.map((x) => toJsonb(x, v.elementType));
  if (isDateTimeType(t)) return isoText(v, t);
  if (typeof v === 'string') return v;
  return formatText(v, t);
}

/** to_json's text of one SQL value. */
export function toJsonText(v: SqlValue, t: SqlType): string {
  if (v === null) return 'null';
  if (v instanceof SqlJson) return v.text;
  if (v instanceof SqlJsonb) return v.toString();
  if (v instanceof SqlArray) return '[' + v.items.map((x) => toJsonText(x, v.elementType)).join(',') + ']';
  if (typeof v === 'string') return quoteJson(v);
  const j = toJsonb(v, t);
  return typeof j === 'string' ? quoteJson(j) : jsonbText(j);
}

/** An object key: a scalar's text (booleans as true/false); arrays and json values cannot be keys. */
function jsonKeyText(v: SqlValue, t: SqlType): string {
  if (isArrayType(t) || t === 'json' || t === 'jsonb') {
    throw new SqlError(SqlState.invalidParameterValue, 'key value must be scalar, not array, composite, or json');
  }
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return v;
  return formatText(v, t);
}

/** json_build_object / jsonb_build_object over evaluated arguments and their types. */
export function buildObject(jsonb: boolean, vals: readonly SqlValue[], types: readonly SqlType[]): SqlJson | SqlJsonb {
  if (vals.length % 2 !== 0) throw new SqlError(SqlState.invalidParameterValue, 'argument list must have even number of elements');
  const keys: string[] = [];
  for (let i = 0; i < vals.length; i += 2) {
    const k = vals[i]!;
    if (k === null) throw new SqlError(SqlState.invalidParameterValue, jsonb ? `argument ${i + 1}: key must not be null` : `argument ${i + 1} cannot be null`);
    keys.push(jsonKeyText(k, types[i]!));
  }
  if (jsonb) return new SqlJsonb(jsonbObject(keys, keys.map((_, j) => toJsonb(vals[2 * j + 1]!, types[2 * j + 1]!))));
  return new SqlJson('{' + keys.map((k, j) => `${quoteJson(k)} : ${toJsonText(vals[2 * j + 1]!, types[2 * j + 1]!)}`).join(', ') + '}');
}

/** Whether `e` is a row bound to its json form, `row_to_json(nullWhen, name1, value1, ...)` (lower-row.ts). */
export const isRowJson = (e: Expr): boolean => e.k === 'func' && e.fn === 'row_to_json';

/** row_to_json of a row given as (name, value) pairs (lower-row.ts): composite_to_json's {"a":1,"b":"x"}. */
export function rowToJson(pairs: readonly SqlValue[], types: readonly SqlType[]): SqlJson {
  const parts: string[] = [];
  for (let i = 0; i + 1 < pairs.length; i += 2) parts.push(`${quoteJson(String(pairs[i]))}:${toJsonText(pairs[i + 1]!, types[i + 1]!)}`);
  return new SqlJson('{' + parts.join(',') + '}');
}

export function buildArray(jsonb: boolean, vals: readonly SqlValue[], types: readonly SqlType[]): SqlJson | SqlJsonb {
  if (jsonb) return new SqlJsonb(vals.map((v, i) => toJsonb(v, types[i]!)));
  return new SqlJson('[' + vals.map((v, i) => toJsonText(v, types[i]!)).join(', ') + ']');
}

/**
 * json_agg / jsonb_agg over the collected inputs (NULL inputs are JSON nulls). json_agg starts each
 * structured element (an array or a row, `structured`) but the first on a new line, as PostgreSQL does.
 */
export function aggArray(jsonb: boolean, items: readonly SqlValue[], t: SqlType, structured: boolean): SqlJson | SqlJsonb {
  if (jsonb) return new SqlJsonb(items.map((v) => toJsonb(v, t)));
  return new SqlJson('[' + items.map((v, i) => (i > 0 && structured && v !== null ? '\n ' : '') + toJsonText(v, t)).join(', ') + ']');
}

/** json_object_agg / jsonb_object_agg over collected key, value pairs. */
export function aggObject(jsonb: boolean, keys: readonly SqlValue[], vals: readonly SqlValue[], kt: SqlType, vt: SqlType): SqlJson | SqlJsonb {
  const ks = keys.map((k) => jsonKeyText(k, kt));
  if (jsonb) return new SqlJsonb(jsonbObject(ks, vals.map((v) => toJsonb(v, vt))));
  return new SqlJson('{ ' + ks.map((k, i) => `${quoteJson(k)} : ${toJsonText(vals[i]!, vt)}`).join(', ') + ' }');
}
