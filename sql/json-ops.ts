// The jsonb and json operators and their path functions, after PostgreSQL 15's jsonfuncs.c and
// jsonb_op.c: extraction (-> ->> #> #>>, negative array indexes counting from the end, NULL where a
// step does not exist), containment (@> <@, JsonbDeepContains), existence (? ?| ?&), concatenation (||),
// deletion (- text, - text[], - int, #-) and the path writers jsonb_set and jsonb_insert (setPath). json
// values are parsed on demand and extraction returns the value's own source text, as PostgreSQL does.

import { InvariantError, SqlError, SqlState } from './errors.ts';
import {
  JsonbObject, SqlJson, SqlJsonb, jsonbEquals, jsonbKind, jsonbObject, jsonbText, parseJsonDocument, type Jsonb,
  type JsonNode,
} from './json.ts';
import type { SqlType, SqlValue } from './types.ts';

const isArr = (v: Jsonb): v is readonly Jsonb[] => Array.isArray(v);
const isScalar = (v: Jsonb): boolean => !isArr(v) && !(v instanceof JsonbObject);

function invalidParam(message: string): SqlError {
  return new SqlError(SqlState.invalidParameterValue, message);
}

/** An array index as PostgreSQL 15 takes it: negative counts from the end; undefined when out of range. */
function arrayIndex(n: number, length: number): number | undefined {
  const i = n < 0 ? length + n : n;
  return i >= 0 && i < length ? i : undefined;
}

/** A path step into an array: strtol's integer text, else the step finds nothing. */
function pathIndex(step: string): number | undefined {
  if (!/^\s*[+-]?\d+$/.test(step)) return undefined;
  const n = Number(step);
  return n >= -2147483648 && n <= 2147483647 ? n : undefined;
}

// ---- extraction --------------------------------------------------------------------------------------

/** One step: a text key into an object, an index into an array (a path's text steps are parsed, `->`'s are not). */
function jsonbStep(v: Jsonb, step: string | number, parse: boolean): Jsonb | undefined {
  if (v instanceof JsonbObject) return typeof step === 'string' ? v.get(step) : undefined;
  if (isArr(v) && (parse || typeof step === 'number')) {
    const n = typeof step === 'number' ? step : pathIndex(step);
    if (n === undefined) return undefined;
    const i = arrayIndex(n, v.length);
    return i === undefined ? undefined : v[i];
  }
  return undefined;
}

function jsonStep(n: JsonNode, step: string | number, parse: boolean): JsonNode | undefined {
  if (n.k === 'obj') {
    if (typeof step !== 'string') return undefined;
    // json keeps duplicate keys; PostgreSQL's json operators find the last one.
    const i = n.keys.lastIndexOf(step);
    return i < 0 ? undefined : n.vals[i];
  }
  if (n.k === 'arr' && (parse || typeof step === 'number')) {
    const idx = typeof step === 'number' ? step : pathIndex(step);
    if (idx === undefined) return undefined;
    const i = arrayIndex(idx, n.items.length);
    return i === undefined ? undefined : n.items[i];
  }
  return undefined;
}

/** The text ->> and #>> give: a string's value, SQL NULL for JSON null, otherwise the value's text. */
function jsonbAsText(v: Jsonb): string | null {
  if (v === null) return null;
  if (typeof v === 'string') return v;
  return jsonbText(v);
}

/**
 * -> ->> (`path` one key or index) and #> #>> jsonb_extract_path(_text) (`path` text steps, parsed as
 * indexes in arrays: `isPath`): the value at `path` in `doc`, or SQL NULL.
 */
export function extract(doc: SqlJson | SqlJsonb, path: readonly (string | number | null)[], asText: boolean, isPath: boolean): SqlValue {
  if (path.some((p) => p === null)) return null;
  if (doc instanceof SqlJsonb) {
    let v: Jsonb | undefined = doc.value;
    // A step into a scalar finds nothing (a top-level scalar only answers the empty path).
    for (const step of path) {
      v = jsonbStep(v, step!, isPath);
      if (v === undefined) return null;
    }
    return asText ? jsonbAsText(v) : new SqlJsonb(v);
  }
  let n: JsonNode | undefined = parseJsonDocument(doc.text);
  for (const step of path) {
    n = jsonStep(n, step!, isPath);
    if (n === undefined) return null;
  }
  if (!asText) return new SqlJson(doc.text.slice(n.s, n.e));
  if (n.k === 'null') return null;
  if (n.k === 'str') return n.v;
  return doc.text.slice(n.s, n.e);
}

// ---- containment and existence ----------------------------------------------------------------------

/** JsonbDeepContains: does `a` contain `b`? */
export function contains(a: Jsonb, b: Jsonb, top = true): boolean {
  if (b instanceof JsonbObject) {
    if (!(a instanceof JsonbObject)) return false;
    return b.keys.every((k, i) => {
      const av = a.get(k);
      if (av === undefined) return false;
      const bv = b.vals[i]!;
      return isScalar(bv) ? isScalar(av) && jsonbEquals(av, bv) : contains(av, bv, false);
    });
  }
  if (isArr(b)) {
    if (!isArr(a)) return false;
    return b.every((bv) => (isScalar(bv) ? a.some((av) => isScalar(av) && jsonbEquals(av, bv)) : a.some((av) => !isScalar(av) && contains(av, bv, false))));
  }
  // A scalar: a top-level array contains its scalar elements ('["a"]' @> '"a"'); a scalar only its equal.
  if (isArr(a)) return top && a.some((av) => isScalar(av) && jsonbEquals(av, b));
  return isScalar(a) && jsonbEquals(a, b);
}

/** jsonb ? text: a top-level key, or a string element of a top-level array, or the string scalar itself. */
export function exists(v: Jsonb, key: string): boolean {
  if (v instanceof JsonbObject) return v.get(key) !== undefined;
  if (isArr(v)) return v.some((x) => x === key);
  return v === key;
}

// ---- concatenation and deletion ---------------------------------------------------------------------

/** jsonb || jsonb: objects merge (the right side wins), anything else concatenates as arrays. */
export function concat(a: Jsonb, b: Jsonb): Jsonb {
  if (a instanceof JsonbObject && b instanceof JsonbObject) return jsonbObject([...a.keys, ...b.keys], [...a.vals, ...b.vals]);
  const asArray = (x: Jsonb): readonly Jsonb[] => (isArr(x) ? x : [x]);
  return [...asArray(a), ...asArray(b)];
}

/** jsonb - text, jsonb - text[] (keys, or string elements of an array), jsonb - int (an array element). */
export function deleteKeys(v: Jsonb, keys: readonly (string | null)[]): Jsonb {
  if (isScalar(v)) throw invalidParam('cannot delete from scalar');
  const drop = new Set(keys.filter((k): k is string => k !== null));
  if (v instanceof JsonbObject) {
    const ks = v.keys.filter((k) => !drop.has(k));
    return ks.length === v.keys.length ? v : new JsonbObject(ks, ks.map((k) => v.get(k)!));
  }
  return (v as readonly Jsonb[]).filter((x) => typeof x !== 'string' || !drop.has(x));
}

export function deleteIndex(v: Jsonb, n: number): Jsonb {
  if (isScalar(v)) throw invalidParam('cannot delete from scalar');
  if (v instanceof JsonbObject) throw invalidParam('cannot delete from object using integer index');
  const a = v as readonly Jsonb[];
  const i = arrayIndex(n, a.length);
  return i === undefined ? a : [...a.slice(0, i), ...a.slice(i + 1)];
}

// ---- setPath: jsonb_set, jsonb_insert, #- ----------------------------------------------------------

export type PathOp = 'replace' | 'create' | 'insert-before' | 'insert-after' | 'delete';

/** setPath over the whole document: jsonb_set ('replace' or 'create'), jsonb_insert, #- ('delete'). */
export function setPath(doc: Jsonb, path: readonly (string | null)[], value: Jsonb | undefined, op: PathOp): Jsonb {
  if (isScalar(doc)) throw invalidParam(op === 'delete' ? 'cannot delete path in scalar' : 'cannot set path in scalar');
  if (path.length === 0) return doc;
  return setAt(doc, path, 0, value, op);
}

const creates = (op: PathOp): boolean => op === 'create' || op === 'insert-before' || op === 'insert-after';

function setAt(v: Jsonb, path: readonly (string | null)[], level: number, value: Jsonb | undefined, op: PathOp): Jsonb {
  const last = level === path.length - 1;
  const step = path[level]!;
  // A NULL step is an error where the walk reaches it (22004), as PostgreSQL's setPath.
  if (step === null) throw new SqlError('22004', `path element at position ${level + 1} is null`);
  if (v instanceof JsonbObject) {
    const i = v.keys.indexOf(step);
    if (i >= 0) {
      if (!last) return new JsonbObject(v.keys, v.vals.map((x, j) => (j === i ? setAt(x, path, level + 1, value, op) : x)));
      if (op === 'insert-before' || op === 'insert-after') {
        throw new SqlError(SqlState.invalidParameterValue, 'cannot replace existing key', undefined);
      }
      if (op === 'delete') return new JsonbObject(v.keys.filter((_, j) => j !== i), v.vals.filter((_, j) => j !== i));
      return new JsonbObject(v.keys, v.vals.map((x, j) => (j === i ? value! : x)));
    }
    if (last && creates(op)) return jsonbObject([...v.keys, step], [...v.vals, value!]);
    return v;
  }
  if (isArr(v)) {
    if (!/^\s*[+-]?\d+$/.test(step) || Math.abs(Number(step)) > 2147483647) {
      throw new SqlError(SqlState.invalidTextRepresentation, `path element at position ${level + 1} is not an integer: "${step}"`);
    }
    const n = v.length;
    let idx = Number(step);
    let prepend = false;
    if (idx < 0) {
      if (-idx > n) prepend = true;
      else idx = n + idx;
    }
    if (idx > n) idx = n;
    const out: Jsonb[] = [];
    let done = false;
    if ((prepend || n === 0) && last && creates(op)) {
      out.push(value!);
      done = true;
    }
    for (let i = 0; i < n; i++) {
      const x = v[i]!;
      if (i === idx && !prepend) {
        done = true;
        if (!last) {
          out.push(setAt(x, path, level + 1, value, op));
          continue;
        }
        if (op === 'insert-before') out.push(value!, x);
        else if (op === 'insert-after') out.push(x, value!);
        else if (op !== 'delete') out.push(value!);
        continue;
      }
      out.push(x);
    }
    if (creates(op) && !done && last) out.push(value!);
    return out;
  }
  // A scalar below the top: nothing to set or delete there.
  return v;
}

// ---- functions over one document --------------------------------------------------------------------

export function typeofJsonb(v: Jsonb): string {
  return jsonbKind(v);
}

export function arrayLength(v: Jsonb): number {
  if (isArr(v)) return v.length;
  throw invalidParam(isScalar(v) ? 'cannot get array length of a scalar' : 'cannot get array length of a non-array');
}

export function stripNulls(v: Jsonb): Jsonb {
  if (v instanceof JsonbObject) {
    const keys: string[] = [];
    const vals: Jsonb[] = [];
    v.keys.forEach((k, i) => {
      const x = v.vals[i]!;
      if (x === null) return;
      keys.push(k);
      vals.push(stripNulls(x));
    });
    return new JsonbObject(keys, vals);
  }
  if (isArr(v)) return v.map(stripNulls);
  return v;
}

/** json's kind without building a jsonb ('number' for a number, as json_typeof). */
export function typeofJson(n: JsonNode): string {
  switch (n.k) {
    case 'null': return 'null';
    case 'true':
    case 'false': return 'boolean';
    case 'num': return 'number';
    case 'str': return 'string';
    case 'arr': return 'array';
    case 'obj': return 'object';
  }
}

export function jsonArrayLength(n: JsonNode): number {
  if (n.k === 'arr') return n.items.length;
  throw invalidParam(n.k === 'obj' ? 'cannot get array length of a non-array' : 'cannot get array length of a scalar');
}

// ---- set-returning functions (in FROM) --------------------------------------------------------------

/** The set-returning json functions Pesto runs in FROM, with their output columns (name and type). */
export const jsonRowFunctions = {
  jsonb_array_elements: [['value', 'jsonb']],
  jsonb_array_elements_text: [['value', 'text']],
  jsonb_each: [['key', 'text'], ['value', 'jsonb']],
  jsonb_each_text: [['key', 'text'], ['value', 'text']],
  jsonb_object_keys: [['jsonb_object_keys', 'text']],
  json_array_elements: [['value', 'json']],
  json_array_elements_text: [['value', 'text']],
  json_each: [['key', 'text'], ['value', 'json']],
  json_each_text: [['key', 'text'], ['value', 'text']],
  json_object_keys: [['json_object_keys', 'text']],
} as const satisfies Record<string, readonly (readonly [string, SqlType])[]>;
export type JsonRowFunction = keyof typeof jsonRowFunctions;

/** The rows of a set-returning json function over one document (PostgreSQL 15's errors for the wrong kind). */
export function jsonRows(fn: JsonRowFunction, d: SqlJson | SqlJsonb): SqlValue[][] {
  if (d instanceof SqlJson) return jsonTextRows(fn, d.text);
  const v = d.value;
  const kind = isArr(v) ? 'an array' : v instanceof JsonbObject ? 'an object' : 'a scalar';
  const text = (x: Jsonb): SqlValue => jsonbAsText(x);
  switch (fn) {
    case 'jsonb_array_elements':
    case 'jsonb_array_elements_text':
      if (!isArr(v)) throw invalidParam(`cannot extract elements from ${kind}`);
      return v.map((x) => [fn === 'jsonb_array_elements' ? new SqlJsonb(x) : text(x)]);
    case 'jsonb_each':
    case 'jsonb_each_text':
      if (!(v instanceof JsonbObject)) throw invalidParam(`cannot call ${fn} on a non-object`);
      return v.keys.map((k, i) => [k, fn === 'jsonb_each' ? new SqlJsonb(v.vals[i]!) : text(v.vals[i]!)]);
    case 'jsonb_object_keys':
      if (!(v instanceof JsonbObject)) throw invalidParam(`cannot call jsonb_object_keys on ${kind === 'an array' ? 'an array' : 'a scalar'}`);
      return v.keys.map((k) => [k]);
    default:
      throw new InvariantError(`${fn} of a jsonb value`);
  }
}

/** The json functions: values are their source text, duplicate keys all come out, in document order. */
function jsonTextRows(fn: JsonRowFunction, text: string): SqlValue[][] {
  const n = parseJsonDocument(text);
  const slice = (x: JsonNode): SqlJson => new SqlJson(text.slice(x.s, x.e));
  const asText = (x: JsonNode): SqlValue => (x.k === 'null' ? null : x.k === 'str' ? x.v : text.slice(x.s, x.e));
  switch (fn) {
    case 'json_array_elements':
    case 'json_array_elements_text':
      if (n.k !== 'arr') throw invalidParam(`cannot call ${fn} on ${n.k === 'obj' ? 'a non-array' : 'a scalar'}`);
      return n.items.map((x) => [fn === 'json_array_elements' ? slice(x) : asText(x)]);
    case 'json_each':
    case 'json_each_text':
      if (n.k !== 'obj') throw invalidParam(n.k === 'arr' ? 'cannot deconstruct an array as an object' : 'cannot deconstruct a scalar');
      return n.keys.map((k, i) => [k, fn === 'json_each' ? slice(n.vals[i]!) : asText(n.vals[i]!)]);
    case 'json_object_keys':
      if (n.k !== 'obj') throw invalidParam(`cannot call json_object_keys on ${n.k === 'arr' ? 'an array' : 'a scalar'}`);
      return n.keys.map((k) => [k]);
    default:
      throw new InvariantError(`${fn} of a json value`);
  }
}
