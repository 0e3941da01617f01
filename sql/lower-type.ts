// Type names in DDL and casts (libpg-query's TypeName) to our SqlType plus typmod, accepting PostgreSQL's
// spellings and aliases (int, integer, int4, serial, decimal(p,s), character varying(n), float(p), ...).

import type { EnumTypeDef } from './enum-types.ts';
import type { TypeName, Node } from 'libpg-query';
import { SqlError, SqlState } from './errors.ts';
import { isArrayType, isVectorType, numericTypmod, type SqlType } from './types.ts';
import { arrayOfElement } from './lower-array.ts';

export interface ResolvedType {
  readonly type: SqlType;
  readonly typmod: number;
  readonly serial: boolean;
  /** The enum type of an 'enum', or the element enum of an '_enum' (typmod: its oid). */
  readonly enumType?: EnumTypeDef;
}

/** Where enum types are found by name (the catalog). */
export interface EnumLookup {
  enumType(name: string): EnumTypeDef | undefined;
}

/** The enum `names` (`[schema.]name`) names in the public schema, or undefined. */
export function enumNamed(enums: EnumLookup, names: readonly string[]): EnumTypeDef | undefined {
  if (names.length > 2 || (names.length === 2 && names[0] !== 'public')) return undefined;
  return enums.enumType(names[names.length - 1] ?? '');
}

function intArg(n: Node | undefined): number | null {
  if (n !== undefined && 'A_Const' in n) {
    const c = n.A_Const;
    if (c.ival !== undefined) return c.ival.ival ?? 0;
  }
  return null;
}

const simple: Record<string, SqlType> = {
  int2: 'int2', smallint: 'int2', int4: 'int4', int: 'int4', integer: 'int4', int8: 'int8', bigint: 'int8',
  numeric: 'numeric', decimal: 'numeric', float4: 'float4', real: 'float4', float8: 'float8', text: 'text',
  varchar: 'varchar', bpchar: 'bpchar', char: 'bpchar', character: 'bpchar', bool: 'bool', boolean: 'bool',
  date: 'date', timestamp: 'timestamp', timestamptz: 'timestamptz', uuid: 'uuid', bytea: 'bytea', interval: 'interval', time: 'time', timetz: 'timetz', json: 'json', jsonb: 'jsonb', string: 'text',
  name: 'name', int2vector: 'int2vector', oidvector: 'oidvector',
};

/**
 * Array types (`int[]`, `text[3]`, `int[][]`, `integer ARRAY`) are the array of their element type
 * whatever the bounds and dimensions say, as PostgreSQL ignores them in declarations; the typmod is the
 * element's (varchar(3)[]). Multidimensional values are refused where they come in (sql-array.ts).
 */
export function resolveTypeName(tn: TypeName, enums?: EnumLookup): ResolvedType {
  const names = (tn.names ?? []).map((n) => ('String' in n ? (n.String.sval ?? '') : ''));
  const name = (names[names.length - 1] ?? '').toLowerCase();
  if (tn.arrayBounds !== undefined && tn.arrayBounds.length > 0) {
    const elem = resolveTypeName({ ...tn, arrayBounds: [] }, enums);
    if (elem.serial) throw new SqlError(SqlState.featureNotSupported, `array of ${name} is not implemented`);
    if (elem.type === 'unknown' || elem.type === 'record' || isArrayType(elem.type) || isVectorType(elem.type)) throw new SqlError(SqlState.featureNotSupported, 'array types are not supported');
    return { type: arrayOfElement(elem.type), typmod: elem.typmod, serial: false, ...(elem.enumType !== undefined ? { enumType: elem.enumType } : {}) };
  }
  const mods = (tn.typmods ?? []).map(intArg);
  switch (name) {
    case 'serial':
    case 'serial4':
      return { type: 'int4', typmod: -1, serial: true };
    case 'bigserial':
    case 'serial8':
      return { type: 'int8', typmod: -1, serial: true };
    case 'smallserial':
    case 'serial2':
      return { type: 'int2', typmod: -1, serial: true };
    case 'float': {
      const p = mods[0];
      return { type: p !== undefined && p !== null && p <= 24 ? 'float4' : 'float8', typmod: -1, serial: false };
    }
    default:
      break;
  }
  const t = simple[name];
  // A user's enum type (PostgreSQL searches pg_catalog first, so a built-in name stays the built-in type).
  const userType = enums === undefined || (t !== undefined && names.length === 1) ? undefined : enumNamed(enums, names);
  if (userType !== undefined) {
    if ((tn.typmods ?? []).length > 0) throw new SqlError(SqlState.syntaxError, `type modifier is not allowed for type "${userType.name}"`);
    return { type: 'enum', typmod: userType.oid, serial: false, enumType: userType };
  }
  if (t === undefined) {
    throw new SqlError(SqlState.undefinedObject, `type "${names.join('.') || name}" does not exist`);
  }
  let typmod = -1;
  const takesModifier = t === 'numeric' || t === 'varchar' || t === 'bpchar' || t === 'timestamp' || t === 'timestamptz' || t === 'time' || t === 'timetz';
  if (t === 'interval' && mods.length > 0) throw new SqlError(SqlState.featureNotSupported, 'interval fields and precision are not supported');
  if (!takesModifier && mods.length > 0) throw new SqlError(SqlState.syntaxError, `type modifier is not allowed for type "${name}"`);
  if ((t === 'timestamp' || t === 'timestamptz') && mods.length > 0) {
    // Fractional-second digits kept; above 6 PostgreSQL warns and keeps 6.
    const p = mods[0] ?? 6;
    if (p === null || p < 0) throw new SqlError(SqlState.invalidParameterValue, `TIMESTAMP(${String(p)})${t === 'timestamptz' ? ' WITH TIME ZONE' : ''} precision must not be negative`);
    typmod = Math.min(p, 6);
  } else if ((t === 'time' || t === 'timetz') && mods.length > 0) {
    const p = mods[0] ?? 6;
    if (p === null || p < 0) throw new SqlError(SqlState.invalidParameterValue, `TIME(${String(p)})${t === 'timetz' ? ' WITH TIME ZONE' : ''} precision must not be negative`);
    typmod = Math.min(p, 6);
  } else if (t === 'numeric' && mods.length > 0) {
    const p = mods[0] ?? 0;
    const s = mods[1] ?? 0;
    if (p === null || p < 1 || p > 1000) throw new SqlError(SqlState.invalidParameterValue, `NUMERIC precision ${String(p)} must be between 1 and 1000`);
    if (s === null || s < 0 || s > p) throw new SqlError(SqlState.invalidParameterValue, `NUMERIC scale ${String(s)} must be between 0 and precision ${p}`);
    typmod = numericTypmod(p, s);
  } else if ((t === 'varchar' || t === 'bpchar') && mods.length > 0) {
    const n = mods[0] ?? 1;
    if (n === null || n < 1) throw new SqlError(SqlState.invalidParameterValue, `length for type ${name} must be at least 1`);
    typmod = n + 4;
  }
  return { type: t, typmod, serial: false };
}

/** Whether a cast's type name is `record` (a pseudo-type: only casts name it; no column has it). */
export function isRecordName(tn: TypeName | undefined): boolean {
  const names = (tn?.names ?? []).map((n) => ('String' in n ? (n.String.sval ?? '') : ''));
  const last = names[names.length - 1];
  return (tn?.arrayBounds ?? []).length === 0 && last === 'record' && (names.length === 1 || (names.length === 2 && names[0] === 'pg_catalog'));
}

/** A column's type: record is a pseudo-type no column has (42P16, as PostgreSQL's CheckAttributeType). */
export function resolveColumnType(tn: TypeName, enums: EnumLookup, column: string): ResolvedType {
  if (isRecordName(tn)) throw new SqlError(SqlState.invalidTableDefinition, `column "${column}" has pseudo-type record`);
  return resolveTypeName(tn, enums);
}
