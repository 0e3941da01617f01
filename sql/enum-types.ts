// Enum types (CREATE TYPE ... AS ENUM), as PostgreSQL 15 has them: a type is an ordered list of labels,
// and a value is one label of one type. Values compare by the declared order, not by their text.
//
// Positions. Each label has a position `pos`, a fraction 0.d1d2... written as its decimal digits (never
// empty, never ending in '0'), so comparing two positions as strings gives their order. A label added
// BEFORE or AFTER another gets a position strictly between its neighbours (`positionBetween`), which
// always exists: the positions of existing labels never change, so keys, index entries and stored rows
// (which hold the position, sql/row-codec.ts) stay valid whatever is added later, and RENAME VALUE
// changes no stored byte. PostgreSQL's `enumsortorder` (a float4 that it renumbers when it runs out of
// precision) is kept beside it only for pg_enum, computed as PostgreSQL computes it.
//
// Type identity. The SQL type of every enum value is 'enum' (sql/types.ts); which enum it is travels as
// the typmod of columns and casts (the enum's pg_type oid) and inside the values themselves (`SqlEnum.type`),
// so a value read from a row or made by a cast knows its labels without a catalog.

import type { Owned } from './privileges.ts';
import { SqlError, SqlState } from './errors.ts';
import { SqlArray } from './sql-array.ts';
import type { SqlValue } from './types.ts';

export interface EnumLabel {
  /** pg_enum.oid. */
  readonly oid: number;
  readonly label: string;
  /** Invariant: unique within the type, fixed from the label's creation on. */
  readonly pos: string;
  /** pg_enum.enumsortorder, as PostgreSQL would have it (float4). */
  readonly sortOrder: number;
}

export interface EnumTypeDef extends Owned {
  /** pg_type.oid (also the typmod of columns of this type). */
  readonly oid: number;
  /** pg_type.oid of its array type `_name`: always `oid + 1` (types.ts typeOidOf reads it so). */
  readonly arrayOid: number;
  readonly name: string;
  /** In declared order (ascending `pos`). */
  readonly labels: readonly EnumLabel[];
  /** COMMENT ON TYPE; absent: none. */
  readonly comment?: string;
}

/** One label of one enum type. */
export class SqlEnum {
  constructor(
    readonly type: EnumTypeDef,
    readonly label: string,
    readonly pos: string,
  ) {}
  toString(): string {
    return this.label;
  }
}

/** Orders two values of one enum type by their declared order. */
export function compareEnums(a: SqlEnum, b: SqlEnum): number {
  if (a.type.oid !== b.type.oid) throw new SqlError(SqlState.undefinedFunction, `operator does not exist: ${a.type.name} = ${b.type.name}`);
  return a.pos < b.pos ? -1 : a.pos > b.pos ? 1 : 0;
}

/** The value of `text` in enum `type`: 22P02 when it is not one of its labels (PostgreSQL's enum_in). */
export function parseEnum(type: EnumTypeDef, text: string): SqlEnum {
  const l = type.labels.find((x) => x.label === text);
  if (l === undefined) throw new SqlError(SqlState.invalidTextRepresentation, `invalid input value for enum ${type.name}: "${text}"`);
  return new SqlEnum(type, l.label, l.pos);
}

/** The value stored under position `pos` (sql/row-codec.ts); its label as the type names it now. */
export function enumAtPosition(type: EnumTypeDef, pos: string): SqlEnum {
  const l = type.labels.find((x) => x.pos === pos);
  if (l === undefined) throw new SqlError(SqlState.dataCorrupted, `enum ${type.name} has no label at position ${pos}`);
  return new SqlEnum(type, l.label, l.pos);
}

/** A value of `type` again (after ALTER TYPE: a label renamed keeps its position). */
export function refreshEnum(type: EnumTypeDef, v: SqlEnum): SqlEnum {
  return v.type === type ? v : enumAtPosition(type, v.pos);
}

/** A stored value of an enum or enum-array column of `type` again (refreshEnum of it or of its elements). */
export function refreshEnumValue(type: EnumTypeDef, v: SqlValue): SqlValue {
  if (v instanceof SqlEnum) return refreshEnum(type, v);
  if (v instanceof SqlArray && v.elementType === 'enum') return new SqlArray('enum', v.items.map((x) => (x instanceof SqlEnum ? refreshEnum(type, x) : x)), v.lower);
  return v;
}

const digit = (s: string, i: number): number => (i < s.length ? s.charCodeAt(i) - 48 : 0);

/**
 * A position strictly between `a` and `b` (`a` '' = the start, `b` null = the end): the shortest digit
 * string above `a` and below `b`. Invariant: a < b.
 */
export function positionBetween(a: string, b: string | null): string {
  let out = '';
  let hi = b;
  for (let i = 0; ; i++) {
    const da = digit(a, i);
    const db = hi === null ? 10 : digit(hi, i);
    if (db - da > 1) return out + String(Math.floor((da + db) / 2));
    out += String(da);
    if (db - da === 1) hi = null;
  }
}

/** Positions for `n` labels of a new type: fixed-width decimals, trailing zeros dropped. */
function initialPositions(n: number): string[] {
  const width = String(n + 1).length;
  const out: string[] = [];
  for (let i = 1; i <= n; i++) out.push(String(i).padStart(width, '0').replace(/0+$/, ''));
  return out;
}

/** PostgreSQL's limit on a label (NAMEDATALEN - 1 bytes); 42602 beyond, as its enum checks. */
function checkLabel(label: string): void {
  if (new TextEncoder().encode(label).length > 63) {
    throw new SqlError(SqlState.invalidName, `invalid enum label "${label}"`, 'Labels must be 63 bytes or less.');
  }
}

/** A new enum type, its array type's oid the next one (`oid + 1`, taken by the caller). `nextOid` hands out pg_enum oids. */
export function makeEnumType(oid: number, name: string, labels: readonly string[], nextOid: () => number): EnumTypeDef {
  const arrayOid = oid + 1;
  const pos = initialPositions(labels.length);
  const seen = new Set<string>();
  const out: EnumLabel[] = [];
  labels.forEach((label, i) => {
    checkLabel(label);
    // PostgreSQL reports the unique index of pg_enum here.
    if (seen.has(label)) {
      throw new SqlError(SqlState.uniqueViolation, 'duplicate key value violates unique constraint "pg_enum_typid_label_index"', `Key (enumtypid, enumlabel)=(${oid}, ${label}) already exists.`);
    }
    seen.add(label);
    out.push({ oid: nextOid(), label, pos: pos[i] ?? '', sortOrder: i + 1 });
  });
  return { oid, arrayOid, name, labels: out };
}

const notALabel = (label: string): SqlError => new SqlError(SqlState.invalidParameterValue, `"${label}" is not an existing enum label`);

/**
 * ALTER TYPE ... ADD VALUE [IF NOT EXISTS] [BEFORE | AFTER neighbour]: the type with the label added, or
 * null when it exists and IF NOT EXISTS was given. sortOrder follows PostgreSQL's AddEnumLabel: one
 * beyond an end, else the float4 midpoint, renumbering 1..n first when the midpoint is not distinct.
 */
export function addEnumLabel(type: EnumTypeDef, label: string, neighbour: { label: string; after: boolean } | null, ifNotExists: boolean, oid: number): EnumTypeDef | null {
  if (type.labels.some((l) => l.label === label)) {
    if (ifNotExists) return null;
    throw new SqlError(SqlState.duplicateObject, `enum label "${label}" already exists`);
  }
  checkLabel(label);
  let labels = [...type.labels];
  let at = labels.length;
  if (neighbour !== null) {
    const i = labels.findIndex((l) => l.label === neighbour.label);
    if (i < 0) throw notALabel(neighbour.label);
    at = neighbour.after ? i + 1 : i;
  }
  const before = labels[at - 1];
  const after = labels[at];
  const pos = positionBetween(before?.pos ?? '', after?.pos ?? null);
  const orderOf = (): number => {
    if (before === undefined) return after === undefined ? 1 : (labels[at]?.sortOrder ?? 1) - 1;
    if (after === undefined) return (labels[at - 1]?.sortOrder ?? 0) + 1;
    const lo = labels[at - 1]?.sortOrder ?? 0;
    const hi = labels[at]?.sortOrder ?? 0;
    return Math.fround((lo + hi) / 2);
  };
  let sortOrder = orderOf();
  if (before !== undefined && after !== undefined && (sortOrder === labels[at - 1]?.sortOrder || sortOrder === labels[at]?.sortOrder)) {
    labels = labels.map((l, i) => ({ ...l, sortOrder: i + 1 }));
    sortOrder = orderOf();
  }
  labels.splice(at, 0, { oid, label, pos, sortOrder });
  return { ...type, labels };
}

/** ALTER TYPE ... RENAME VALUE: the label keeps its position and oid. */
export function renameEnumLabel(type: EnumTypeDef, from: string, to: string): EnumTypeDef {
  if (!type.labels.some((l) => l.label === from)) throw notALabel(from);
  if (type.labels.some((l) => l.label === to)) throw new SqlError(SqlState.duplicateObject, `enum label "${to}" already exists`);
  checkLabel(to);
  return { ...type, labels: type.labels.map((l) => (l.label === from ? { ...l, label: to } : l)) };
}
