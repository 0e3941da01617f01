// SQL types and values. `SqlType` is a closed union of the PostgreSQL base types we support; length and
// precision modifiers (varchar(n), numeric(p,s), char(n)) travel separately as a PostgreSQL typmod
// (`-1` = none) because a value's text form never depends on them: coercion to a column type happens
// when a value is stored or cast, and the value then carries its own scale or padding.
//
// Value representation (`SqlValue`), chosen so the hot paths stay on plain JS numbers and strings:
//   int2, int4        number (always a safe integer)
//   int8              number while |v| <= 2^53-1, bigint beyond: exact over the whole int8 range.
//                     Invariant: an int8 value that fits a safe integer is always a number, never a
//                     bigint, so equal values have one representation (see `normInt8`).
//   numeric           Numeric (exact decimal on bigint, carries its display scale)
//   float4, float8    number (float4 values are rounded with Math.fround)
//   text, varchar     string; bpchar: string padded to its declared length
//   bool              boolean
//   date              SqlDate (days since 1970-01-01)
//   timestamp         SqlTimestamp (microseconds since 1970-01-01 as a bigint, within PostgreSQL's
//                     range 4714-11-24 BC to 294276 AD)
//   bytea             Uint8Array that owns its bytes and is never written to (bytea.ts)
//   interval          SqlInterval: months, days and microseconds kept apart (interval.ts)
//   time              SqlTime: microseconds since midnight, 24:00:00 included (time.ts)
//   json, jsonb       SqlJson (the input text), SqlJsonb (the normalised document) (json.ts)
//   _int4, _text, ... SqlArray: element type and elements (sql-array.ts), one dimension
//   int2vector        SqlArray of int2 (oidvector: of int4); only the subscripts' base (0) differs
//   timetz            SqlTimeTz: the time of day and its zone (timetz.ts)
//   record            SqlRecord: a row value, its fields and their types (record.ts)
//   void              '' (its one value, which prints as the empty text)
//   any               null is SQL NULL
import { Numeric } from './numeric.ts';
import { SqlDate, SqlTimestamp } from './datetime.ts';
import { SqlArray } from './sql-array.ts';
import { SqlInterval } from './interval.ts';
import { SqlTime } from './time.ts';
import { SqlJson, SqlJsonb } from './json.ts';
import { SqlEnum } from './enum-types.ts';
import { SqlRecord } from './record.ts';
import { SqlTimeTz } from './timetz.ts';

export { Numeric } from './numeric.ts';
export { SqlDate, SqlTimestamp } from './datetime.ts';
export { SqlInterval } from './interval.ts';
export { SqlTime } from './time.ts';
export { SqlTimeTz } from './timetz.ts';
export { SqlJson, SqlJsonb } from './json.ts';
export { SqlEnum } from './enum-types.ts';
export { formatText, parseText } from './value-text.ts';

export const sqlTypes = [
  'int2', 'int4', 'int8', 'numeric', 'float4', 'float8', 'text', 'varchar', 'bpchar', 'bool', 'date', 'timestamp',
  'unknown', 'timestamptz', 'uuid', 'bytea',
  // One-dimensional arrays (sql-array.ts), named as pg_type names them; appended so that the tags of the
  // base types (their index here, wire-values.ts) stay what they were.
  '_int2', '_int4', '_int8', '_numeric', '_float4', '_float8', '_text', '_varchar', '_bpchar', '_bool', '_date',
  '_timestamp', '_timestamptz', '_uuid', '_bytea',
  // Appended after the arrays for the same reason.
  'interval', '_interval',
  'json', 'jsonb', '_json', '_jsonb',
  // PostgreSQL's identifier type (the system catalog's names), text of at most 63 bytes.
  'name', '_name',
  'time', '_time',
  // The system catalog's vectors (pg_index.indkey, indclass): one-dimensional arrays subscripted from 0.
  'int2vector', 'oidvector',
  // Every enum type (enum-types.ts): which one is the typmod of a column or cast, and each value's own.
  'enum',
  // Every array of an enum type: its typmod is its element enum's oid, as any array's is its element's.
  '_enum',
  // A row value (record.ts): its typmod is a table's row type oid, or -1 for an anonymous record.
  'record',
  // time with time zone (timetz.ts) and its arrays.
  'timetz', '_timetz',
  // What a function that returns nothing returns (pg_sleep, pg_advisory_lock): a pseudo-type of no
  // column or array, with no operators; its one value prints as the empty text ('' here).
  'void',
] as const;
export type SqlType = (typeof sqlTypes)[number];
/** The array types: '_' and their element type. */
export type ArrayType = Extract<SqlType, `_${string}`>;
/** int2vector and oidvector: arrays of int2 and of oid (int4 here, as the catalog's oids) whose subscripts start at 0. */
export type VectorType = 'int2vector' | 'oidvector';
/** The element types an array may have: every base type but 'unknown', the vectors, record and void. */
export type ArrayElementType = Exclude<SqlType, 'unknown' | ArrayType | VectorType | 'record' | 'void'>;
export const isVectorType = (t: SqlType): t is VectorType => t === 'int2vector' || t === 'oidvector';
/**
 * The array type a vector's value is (a SqlArray of that element type): subscripts, ANY, unnest and casts
 * to arrays read a vector as this array, as PostgreSQL's binary coercion of int2vector to int2[].
 */
export const vectorArrayType = (t: VectorType): '_int2' | '_int4' => (t === 'int2vector' ? '_int2' : '_int4');
export const isArrayType = (t: SqlType): t is ArrayType => t.charCodeAt(0) === 95;
export const arrayElementType = (t: ArrayType): ArrayElementType => t.slice(1) as ArrayElementType;
export const arrayTypeOf = (t: ArrayElementType): ArrayType => `_${t}`;

/** A uuid is its canonical text (lower-case hex in 8-4-4-4-12 groups), so it orders as its bytes do. */
export type SqlValue = null | boolean | number | bigint | string | Numeric | SqlDate | SqlTimestamp | Uint8Array | SqlArray
  | SqlInterval | SqlJson | SqlJsonb | SqlTime | SqlEnum | SqlRecord | SqlTimeTz;
export type Row = SqlValue[];

/** PostgreSQL type OIDs (pg_type.oid), for the wire protocol's RowDescription and ParameterDescription. */
export const typeOid: Readonly<Record<SqlType, number>> = {
  int2: 21, int4: 23, int8: 20, numeric: 1700, float4: 700, float8: 701, text: 25, varchar: 1043, bpchar: 1042,
  bool: 16, date: 1082, timestamp: 1114, unknown: 705, timestamptz: 1184, uuid: 2950, bytea: 17,
  // pg_type.typarray of each element type.
  _int2: 1005, _int4: 1007, _int8: 1016, _numeric: 1231, _float4: 1021, _float8: 1022, _text: 1009, _varchar: 1015,
  _bpchar: 1014, _bool: 1000, _date: 1182, _timestamp: 1115, _timestamptz: 1185, _uuid: 2951, _bytea: 1001,
  interval: 1186, _interval: 1187,
  json: 114, jsonb: 3802, _json: 199, _jsonb: 3807,
  name: 19, _name: 1003,
  time: 1083, _time: 1183,
  int2vector: 22, oidvector: 30,
  // anyenum: a column's or a value's own type oid is its enum's (typeOidOf).
  enum: 3500,
  // anyarray: an enum array's own oid is its enum's array type's (typeOidOf).
  _enum: 2277,
  record: 2249,
  timetz: 1266, _timetz: 1270,
  void: 2278,
};

/** Wire size of each type (pg_type.typlen), -1 for variable length. */
export const typeLen: Readonly<Record<SqlType, number>> = {
  int2: 2, int4: 4, int8: 8, numeric: -1, float4: 4, float8: 8, text: -1, varchar: -1, bpchar: -1,
  bool: 1, date: 4, timestamp: 8, unknown: -2, timestamptz: 8, uuid: 16, bytea: -1,
  _int2: -1, _int4: -1, _int8: -1, _numeric: -1, _float4: -1, _float8: -1, _text: -1, _varchar: -1, _bpchar: -1,
  _bool: -1, _date: -1, _timestamp: -1, _timestamptz: -1, _uuid: -1, _bytea: -1,
  interval: 16, _interval: -1,
  json: -1, jsonb: -1, _json: -1, _jsonb: -1,
  name: 64, _name: -1,
  time: 8, _time: -1,
  int2vector: -1, oidvector: -1,
  enum: 4,
  _enum: -1,
  record: -1,
  timetz: 12, _timetz: -1,
  void: 4,
};

/**
 * The wire oid of a value of `type` with `typmod`: an enum's or a table's row type's own pg_type oid (its typmod), an enum
 * array's its enum's array type's (the oid after the enum's, enum-types.ts makeEnumType), else typeOid.
 */
export function typeOidOf(type: SqlType, typmod: number): number {
  if (typmod > 0 && (type === 'enum' || type === 'record')) return typmod;
  if (typmod > 0 && type === '_enum') return typmod + 1;
  return typeOid[type];
}

export function typeFromOid(oid: number): SqlType | undefined {
  for (const t of sqlTypes) if (typeOid[t] === oid) return t;
  return undefined;
}

/** The name PostgreSQL uses in messages (`format_type`), e.g. 'integer', 'character varying'. */
export const typeDisplayName: Readonly<Record<SqlType, string>> = {
  int2: 'smallint', int4: 'integer', int8: 'bigint', numeric: 'numeric', float4: 'real', float8: 'double precision',
  text: 'text', varchar: 'character varying', bpchar: 'character', bool: 'boolean', date: 'date',
  timestamp: 'timestamp without time zone', unknown: 'unknown', timestamptz: 'timestamp with time zone', uuid: 'uuid',
  bytea: 'bytea',
  _int2: 'smallint[]', _int4: 'integer[]', _int8: 'bigint[]', _numeric: 'numeric[]', _float4: 'real[]',
  _float8: 'double precision[]', _text: 'text[]', _varchar: 'character varying[]', _bpchar: 'character[]',
  _bool: 'boolean[]', _date: 'date[]', _timestamp: 'timestamp without time zone[]',
  _timestamptz: 'timestamp with time zone[]', _uuid: 'uuid[]', _bytea: 'bytea[]',
  interval: 'interval', _interval: 'interval[]',
  json: 'json', jsonb: 'jsonb', _json: 'json[]', _jsonb: 'jsonb[]',
  name: 'name', _name: 'name[]',
  time: 'time without time zone', _time: 'time without time zone[]',
  int2vector: 'int2vector', oidvector: 'oidvector',
  enum: 'anyenum',
  _enum: 'anyenum[]',
  record: 'record',
  timetz: 'time with time zone', _timetz: 'time with time zone[]',
  void: 'void',
};

/** A type with its modifier, as a column or a cast target has it. */
export interface TypeSpec {
  readonly type: SqlType;
  /** PostgreSQL typmod: varchar(n)/char(n) = n+4, numeric(p,s) = ((p << 16) | s) + 4, -1 = none. */
  readonly typmod: number;
}

export function numericTypmod(precision: number, scale: number): number {
  return ((precision << 16) | scale) + 4;
}
export function numericPrecisionScale(typmod: number): { precision: number; scale: number } | null {
  if (typmod < 4) return null;
  const v = typmod - 4;
  return { precision: (v >> 16) & 0xffff, scale: v & 0xffff };
}
export function charLength(typmod: number): number | null {
  return typmod >= 4 ? typmod - 4 : null;
}

export function formatTypeSpec(spec: TypeSpec): string {
  // An array's modifier is its element's: character varying(3)[], numeric(5,2)[].
  if (isArrayType(spec.type) && spec.typmod >= 0) return `${formatTypeSpec({ type: arrayElementType(spec.type), typmod: spec.typmod })}[]`;
  const base = typeDisplayName[spec.type];
  if (spec.typmod < 0) return spec.type === 'bpchar' ? 'character(1)' : base;
  if (spec.type === 'numeric') {
    const ps = numericPrecisionScale(spec.typmod);
    return ps ? `numeric(${ps.precision},${ps.scale})` : base;
  }
  if (spec.type === 'varchar' || spec.type === 'bpchar') return `${base}(${spec.typmod - 4})`;
  if (spec.type === 'timestamp' || spec.type === 'timestamptz') return base.replace('timestamp', `timestamp(${spec.typmod})`);
  if (spec.type === 'time') return `time(${spec.typmod}) without time zone`;
  if (spec.type === 'timetz') return `time(${spec.typmod}) with time zone`;
  return base;
}

export const isIntegerType = (t: SqlType): t is 'int2' | 'int4' | 'int8' => t === 'int2' || t === 'int4' || t === 'int8';
export const isFloatType = (t: SqlType): t is 'float4' | 'float8' => t === 'float4' || t === 'float8';
export const isNumericType = (t: SqlType): boolean => isIntegerType(t) || isFloatType(t) || t === 'numeric';
export const isDateTimeType = (t: SqlType): t is 'date' | 'timestamp' | 'timestamptz' => t === 'date' || t === 'timestamp' || t === 'timestamptz';
export const isStringType = (t: SqlType): t is 'text' | 'varchar' | 'bpchar' | 'name' => t === 'text' || t === 'varchar' || t === 'bpchar' || t === 'name';

/** PostgreSQL's NAMEDATALEN - 1: a name keeps at most this many bytes (of whole characters). */
const NAME_BYTES_MAX = 63;
export function truncateName(s: string): string {
  if (s.length <= NAME_BYTES_MAX / 4) return s;
  const b = new TextEncoder().encode(s);
  if (b.length <= NAME_BYTES_MAX) return s;
  let end = NAME_BYTES_MAX;
  while (end > 0 && (b[end]! & 0xc0) === 0x80) end--;
  return new TextDecoder().decode(b.subarray(0, end));
}

export const INT8_MIN = -(2n ** 63n);
export const INT8_MAX = 2n ** 63n - 1n;

/** Normalises an exact integer to the int8 representation (number when safe), or null when out of range. */
export function normInt8(v: bigint): number | bigint | null {
  if (v < INT8_MIN || v > INT8_MAX) return null;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : v;
}

export function isNumeric(v: SqlValue): v is Numeric {
  return v instanceof Numeric;
}
export function isDate(v: SqlValue): v is SqlDate {
  return v instanceof SqlDate;
}
export function isTimestamp(v: SqlValue): v is SqlTimestamp {
  return v instanceof SqlTimestamp;
}
export function isBytes(v: SqlValue): v is Uint8Array {
  return v instanceof Uint8Array;
}

/** The SQL type a JS value stands for ('unknown' for anything else): how parameters are typed when sent. */
export function typeOfValue(v: SqlValue): SqlType {
  if (typeof v === 'number') return Number.isInteger(v) ? 'int8' : 'float8';
  if (typeof v === 'bigint') return 'int8';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'text';
  if (v instanceof Numeric) return 'numeric';
  if (v instanceof SqlDate) return 'date';
  if (v instanceof SqlTimestamp) return 'timestamp';
  if (v instanceof Uint8Array) return 'bytea';
  if (v instanceof SqlInterval) return 'interval';
  if (v instanceof SqlTime) return 'time';
  if (v instanceof SqlTimeTz) return 'timetz';
  if (v instanceof SqlJson) return 'json';
  if (v instanceof SqlJsonb) return 'jsonb';
  if (v instanceof SqlEnum) return 'enum';
  if (v instanceof SqlRecord) return 'record';
  // Only a vector's value (or one cast from it to its array) is subscripted from 0.
  if (v instanceof SqlArray) {
    if (v.lower === 0 && v.elementType === 'int2') return 'int2vector';
    if (v.lower === 0 && v.elementType === 'int4') return 'oidvector';
    return arrayTypeOf(v.elementType);
  }
  return 'unknown';
}
