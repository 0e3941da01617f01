/**
 * A catalog as data: the image that compacts the replicated catalog's log (sql/replicated-catalog.ts,
 * decision 0077). The log of every DDL statement grew with a database's whole history (every CREATE
 * TEMP TABLE too), and every DDL wrote all of it again; a client now and then writes the catalog it
 * has as one image entry instead, and later DDL extends that.
 *
 * The image is written and read by one codec per definition type, each naming every field of its
 * TypeScript interface (`Fields`: a field added to a definition does not compile until its codec
 * says how it travels). Reading checks every field's type and refuses unknown ones, and then the
 * invariants the replicas' code relies on outside its error handling (keys and ordinals in range), so
 * an image a Byzantine client wrote is refused as a whole (CatalogImageError), as a log entry that does
 * not replay is. Writing refuses what it cannot write exactly (a field without a codec, a value of a
 * class it does not know), and the caller keeps the log then.
 *
 * Definitions shared by several places (a table by its name and by its id; an enum type by the catalog
 * and by its columns) are written once and referenced by position (`{"@": n}`), so the catalog read
 * back shares them as the one written did.
 */
import type { Node } from 'libpg-query';
import {
  STORAGE_ID_BASE, STORAGE_ID_END, TYPE_OID_BASE,
  type CatalogSnapshot, type CheckDef, type ColumnDef, type ForeignKeyAction, type ForeignKeyDef, type IndexDef, type IndexExpr, type MatviewDef, type TableDef, type ViewDef,
} from './catalog.ts';
import type { EnumLabel, EnumTypeDef } from './enum-types.ts';
import { exprFromJson, exprToJson, type Expr } from './expr.ts';
import type { GeneratedDef } from './generated-columns.ts';
import type { AclItem } from './privileges.ts';
import type { RoleDef, RoleMember } from './roles.ts';
import type { SequenceCounter, SequenceDef, SequenceType } from './sequences.ts';
import { SqlTimestamp } from './datetime.ts';
import { sqlTypes, type SqlType } from './types.ts';

export class CatalogImageError extends Error {
  override readonly name = 'CatalogImageError';
}

/** Positions of the shared definitions written so far, per codec. */
type EncodeContext = Map<object, Map<object, number>>;
/** The shared definitions read so far, per codec, by position. */
type DecodeContext = Map<object, object[]>;

interface Codec<T> {
  enc(x: T, c: EncodeContext): unknown;
  dec(j: unknown, c: DecodeContext, at: string): T;
}

/** A field that may be absent (its value undefined). */
interface Optional<T> extends Codec<T> {
  readonly optional: true;
}

/** A codec for every field of T: optional ones (undefined allowed) by `opt`. */
type Fields<T> = { readonly [K in keyof T]-?: undefined extends T[K] ? Optional<Exclude<T[K], undefined>> : Codec<T[K]> };

const fail = (at: string, what: string): never => {
  throw new CatalogImageError(`catalog image ${at}: ${what}`);
};

const isRecord = (j: unknown): j is Record<string, unknown> => typeof j === 'object' && j !== null && !Array.isArray(j);

function primitive<T>(test: (j: unknown) => boolean, what: string): Codec<T> {
  const check = (j: unknown, at: string): T => (test(j) ? (j as T) : fail(at, `not ${what}`));
  return { enc: (x) => check(x, 'written'), dec: (j, _c, at) => check(j, at) };
}

const str = primitive<string>((j) => typeof j === 'string', 'a string');
const int = primitive<number>((j) => Number.isSafeInteger(j), 'an integer');
const num = primitive<number>((j) => typeof j === 'number' && Number.isFinite(j), 'a finite number');
const bool = primitive<boolean>((j) => typeof j === 'boolean', 'a boolean');

function oneOf<T extends string | boolean>(...values: readonly T[]): Codec<T> {
  return primitive<T>((j) => values.includes(j as T), values.length > 8 ? 'a known name' : `one of ${values.join(', ')}`);
}

const big: Codec<bigint> = {
  enc: (x) => String(x),
  dec: (j, _c, at) => (typeof j === 'string' && /^-?[0-9]{1,40}$/.test(j) ? BigInt(j) : fail(at, 'not an integer text')),
};

const timestamp: Codec<SqlTimestamp> = {
  enc: (x) => (x instanceof SqlTimestamp ? String(x.micros) : fail('written', 'not a timestamp')),
  dec: (j, c, at) => new SqlTimestamp(big.dec(j, c, at)),
};

const sqlType = oneOf<SqlType>(...sqlTypes);

function opt<T>(codec: Codec<T>): Optional<T> {
  return { ...codec, optional: true };
}

function nullable<T>(codec: Codec<T>): Codec<T | null> {
  return {
    enc: (x, c) => (x === null ? null : codec.enc(x, c)),
    dec: (j, c, at) => (j === null ? null : codec.dec(j, c, at)),
  };
}

function list<T>(codec: Codec<T>): Codec<readonly T[]> {
  return {
    enc: (x, c) => x.map((v) => codec.enc(v, c)),
    dec: (j, c, at) => (Array.isArray(j) ? j.map((v, i) => codec.dec(v, c, `${at}[${i}]`)) : fail(at, 'not a list')),
  };
}

/** A map as a list of [key, value] pairs, in its order. */
function mapOf<K, V>(key: Codec<K>, value: Codec<V>): Codec<ReadonlyMap<K, V>> {
  return {
    enc: (x, c) => [...x].map(([k, v]) => [key.enc(k, c), value.enc(v, c)]),
    dec: (j, c, at) => {
      if (!Array.isArray(j)) return fail(at, 'not a list of pairs');
      const out = new Map<K, V>();
      j.forEach((p, i) => {
        if (!Array.isArray(p) || p.length !== 2) fail(`${at}[${i}]`, 'not a pair');
        const k = key.dec((p as unknown[])[0], c, `${at}[${i}][0]`);
        if (out.has(k)) fail(`${at}[${i}]`, 'a repeated key');
        out.set(k, value.dec((p as unknown[])[1], c, `${at}[${i}][1]`));
      });
      return out;
    },
  };
}

/** A JSON value as it is (parse trees, analyzed check texts): plain objects, lists, strings, finite numbers, booleans, null. */
function plainJson(j: unknown, at: string): void {
  if (j === null || typeof j === 'string' || typeof j === 'boolean') return;
  if (typeof j === 'number') {
    if (!Number.isFinite(j)) fail(at, 'a number JSON cannot hold');
    return;
  }
  if (Array.isArray(j)) {
    j.forEach((v, i) => plainJson(v, `${at}[${i}]`));
    return;
  }
  if (typeof j !== 'object' || Object.getPrototypeOf(j) !== Object.prototype) return void fail(at, `a value of type ${typeof j === 'object' ? (j.constructor?.name ?? 'unknown') : typeof j}`);
  for (const [k, v] of Object.entries(j)) {
    if (v === undefined) fail(`${at}.${k}`, 'undefined');
    plainJson(v, `${at}.${k}`);
  }
}

const json: Codec<object> = {
  enc: (x) => {
    plainJson(x, 'written');
    return x;
  },
  dec: (j, _c, at) => {
    if (typeof j !== 'object' || j === null) fail(at, 'not an object');
    plainJson(j, at);
    return j as object;
  },
};

const node = json as Codec<unknown> as Codec<Node>;

/** A bound expression in sql/expr.ts's JSON form (constants as PostgreSQL text), with constants' type modifiers. */
const expr: Codec<Expr> = {
  enc: (x) => {
    let j: unknown;
    try {
      j = exprToJson(x, true);
    } catch (e) {
      return fail('written', `an expression that has no JSON form (${e instanceof Error ? e.message : String(e)})`);
    }
    plainJson(j, 'written');
    return j;
  },
  dec: (j, _c, at) => {
    if (!isRecord(j) || typeof j['k'] !== 'string') return fail(at, 'not an expression');
    plainJson(j, at);
    try {
      return exprFromJson(j);
    } catch (e) {
      return fail(at, `an expression that does not read (${e instanceof Error ? e.message : String(e)})`);
    }
  },
};

/** A record of fixed fields; `shared`: written once, referenced by position after that. */
function record<T extends object>(fields: Fields<T>, shared = false): Codec<T> {
  const entries = Object.entries(fields) as [string, Codec<unknown> & { optional?: true }][];
  const codec: Codec<T> = {
    enc(x, c) {
      let seen: Map<object, number> | undefined;
      if (shared) {
        seen = c.get(codec);
        if (seen === undefined) c.set(codec, (seen = new Map()));
        const n = seen.get(x);
        if (n !== undefined) return { '@': n };
      }
      const o = x as Record<string, unknown>;
      for (const k of Object.keys(o)) if (!Object.hasOwn(fields, k) && o[k] !== undefined) fail('written', `a field ${k} without a codec`);
      const out: Record<string, unknown> = {};
      for (const [k, f] of entries) {
        const v = o[k];
        if (v === undefined) {
          if (f.optional !== true) fail('written', `no ${k}`);
        } else out[k] = f.enc(v, c);
      }
      seen?.set(x, seen.size);
      return out;
    },
    dec(j, c, at) {
      if (!isRecord(j)) return fail(at, 'not an object');
      let known: object[] | undefined;
      if (shared) {
        known = c.get(codec);
        if (known === undefined) c.set(codec, (known = []));
        if ('@' in j) {
          const n = j['@'];
          return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n < known.length && Object.keys(j).length === 1 ? (known[n] as T) : fail(at, 'a reference to nothing');
        }
      }
      for (const k of Object.keys(j)) if (!Object.hasOwn(fields, k)) fail(`${at}.${k}`, 'an unknown field');
      const out: Record<string, unknown> = {};
      for (const [k, f] of entries) {
        const v = j[k];
        if (v === undefined) {
          if (f.optional !== true) fail(`${at}.${k}`, 'missing');
        } else out[k] = f.dec(v, c, `${at}.${k}`);
      }
      known?.push(out);
      return out as T;
    },
  };
  return codec;
}

const aclItem = record<AclItem>({ grantee: int, grantor: int, privs: str, options: str });
const owned = { owner: opt(int), acl: opt(list(aclItem)) };

const enumLabel = record<EnumLabel>({ oid: int, label: str, pos: str, sortOrder: num });
const enumType = record<EnumTypeDef>({ ...owned, oid: int, arrayOid: int, name: str, labels: list(enumLabel), comment: opt(str) }, true);

const generated = record<GeneratedDef>({ expr, source: opt(json) });

const column = record<ColumnDef>({
  name: str, type: sqlType, typmod: int, notNull: bool, default: nullable(expr), hidden: bool, system: opt(bool), serial: bool,
  identity: opt(oneOf('a', 'd')), dropped: opt(bool), comment: opt(str), generated: opt(generated), enumType: opt(enumType),
});

const indexExpr = record<IndexExpr>({ expr, source: nullable(json), raw: node, names: list(str) });

const index = record<IndexDef>({
  id: int, name: str, tableId: int, columns: list(int), types: list(sqlType), unique: bool, constraint: bool,
  exprs: opt(list(nullable(indexExpr))), predicate: opt(indexExpr), comment: opt(str), constraintComment: opt(str),
});

const check = record<CheckDef>({ name: str, expr, source: opt(json), notValid: opt(bool), comment: opt(str) });

const fkAction = oneOf<ForeignKeyAction>('no action', 'restrict', 'cascade', 'set null', 'set default');
const foreignKey = record<ForeignKeyDef>({
  name: str, columns: list(int), refTable: str, refColumns: list(int), onDelete: fkAction, onUpdate: fkAction, matchFull: bool,
  deferrable: opt(oneOf(true)), initiallyDeferred: opt(oneOf(true)), comment: opt(str),
});

const matview = record<MatviewDef>({ query: node, uses: list(str), populated: bool, text: opt(str) });

const table = record<TableDef>({
  ...owned, id: int, name: str, columns: list(column), pk: list(int), pkTypes: list(sqlType), hiddenPk: bool, indexes: list(index),
  checks: opt(list(check)), foreignKeys: opt(list(foreignKey)), comment: opt(str), pkIndexComment: opt(str), pkConstraintComment: opt(str),
  matview: opt(matview), temporary: opt(oneOf(true)),
}, true);

const viewColumn = record<ViewDef['columns'][number]>({ name: str, type: sqlType, typmod: int, comment: opt(str) });
const view = record<ViewDef>({ ...owned, id: int, name: str, query: node, columns: list(viewColumn), uses: list(str), text: opt(str), comment: opt(str) });

const sequence = record<SequenceDef>({
  ...owned, id: int, name: str, type: oneOf<SequenceType>('int2', 'int4', 'int8'), start: big, increment: big, min: big, max: big, cache: big,
  cycle: bool, counter: record<SequenceCounter>({ table: int, column: int }), ownedBy: nullable(record<{ readonly table: string; readonly column: string }>({ table: str, column: str })),
  comment: opt(str),
});

const role = record<RoleDef>({
  oid: int, name: str, superuser: bool, inherit: bool, createRole: bool, createDb: bool, canLogin: bool, replication: bool, bypassRls: bool,
  connLimit: int, password: nullable(str), validUntil: nullable(timestamp),
});

const member = record<RoleMember>({ role: int, member: int, grantor: int, admin: bool });

const snapshot = record<CatalogSnapshot>({
  tables: mapOf(str, table), byId: mapOf(int, table), retired: mapOf(int, table), views: mapOf(str, view), nextId: int,
  sequences: mapOf(int, sequence), nextSequenceId: int, extensions: mapOf(str, str), enums: mapOf(str, enumType), nextTypeOid: int,
  roles: mapOf(str, role), members: list(member), acls: mapOf(str, list(aclItem)), comments: mapOf(str, nullable(str)),
});

/** The image of a catalog's definitions (JSON-ready). Throws CatalogImageError for what it cannot write exactly. */
export function encodeCatalogImage(s: CatalogSnapshot): unknown {
  return snapshot.enc(s, new Map());
}

/** The definitions an image holds. Throws CatalogImageError for a malformed image or one that breaks an invariant. */
export function decodeCatalogImage(j: unknown): CatalogSnapshot {
  const s = snapshot.dec(j, new Map(), '');
  checkInvariants(s);
  return s;
}

/**
 * What the replicas' code takes for granted of a catalog built by DDL (keys, ordinals and lengths),
 * and what keeps the next DDL's ids apart from every id handed out (counters past them).
 */
function checkInvariants(s: CatalogSnapshot): void {
  if (s.nextId < 1 || s.nextId > STORAGE_ID_BASE || s.nextSequenceId < 1 || s.nextTypeOid < TYPE_OID_BASE) fail('counters', 'out of range');
  const handedOut = (id: number): boolean => (id >= 1 && id < s.nextId) || (id >= STORAGE_ID_BASE && id < STORAGE_ID_END);
  for (const t of [...s.tables.values(), ...s.retired.values()]) {
    if (!handedOut(t.id) || t.indexes.some((x) => x.id < 1 || x.id >= s.nextId)) fail(`table ${t.name}`, 'an id the counter has not handed out');
  }
  for (const [name, v] of s.views) if (v.name !== name || v.id < 1 || v.id >= s.nextId) fail(`view ${name}`, 'listed under another name or an id not handed out');
  for (const [id, q] of s.sequences) if (q.id !== id || id >= s.nextSequenceId) fail(`sequence ${q.name}`, 'listed under another id or an id not handed out');
  const oidTaken = (oid: number): boolean => oid >= TYPE_OID_BASE && oid < s.nextTypeOid;
  for (const [name, e] of s.enums) {
    if (e.name !== name || !oidTaken(e.oid) || !oidTaken(e.arrayOid) || !e.labels.every((l) => oidTaken(l.oid))) fail(`type ${name}`, 'listed under another name or an oid not handed out');
  }
  // Roles' oids come from the same counter (the bootstrap superusers' are below it).
  for (const [name, r] of s.roles) if (r.name !== name || r.oid >= s.nextTypeOid) fail(`role ${name}`, 'listed under another name or an oid not handed out');
  for (const [name, t] of s.tables) {
    if (t.name !== name) fail(`table ${name}`, 'listed under another name');
    if (s.byId.get(t.id) !== t) fail(`table ${name}`, 'not listed by its id');
  }
  for (const [id, t] of s.byId) if (t.id !== id || s.tables.get(t.name) !== t) fail(`table ${id}`, 'listed by id but not by name');
  for (const [id, t] of s.retired) if (t.id !== id || s.byId.has(id)) fail(`retired storage ${id}`, 'listed under another id or in use');
  for (const t of [...s.tables.values(), ...s.retired.values()]) checkTable(t);
}

function checkTable(t: TableDef): void {
  const at = `table ${t.name}`;
  const n = t.columns.length;
  const ordinal = (i: number): boolean => i >= 0 && i < n;
  if (t.pk.length === 0 || t.pk.length !== t.pkTypes.length || t.pk.some((i, k) => !ordinal(i) || t.columns[i]!.type !== t.pkTypes[k])) fail(at, 'a primary key that does not fit its columns');
  if (t.hiddenPk && (t.pk.length !== 1 || t.pk[0] !== n - 1)) fail(at, 'a hidden key that is not its last column');
  for (const c of t.columns) if ((c.type === 'enum' || c.type === '_enum') && c.enumType === undefined) fail(at, `enum column ${c.name} without its type`);
  for (const x of t.indexes) {
    const keys = x.columns.length;
    if (x.tableId !== t.id || keys === 0 || x.types.length !== keys || (x.exprs !== undefined && x.exprs.length !== keys)) fail(`${at} index ${x.name}`, 'keys that do not fit');
    x.columns.forEach((i, k) => {
      if (i === -1 ? x.exprs?.[k] == null : !ordinal(i) || t.columns[i]!.type !== x.types[k]) fail(`${at} index ${x.name}`, `key ${k} names no column or expression of its type`);
    });
  }
  for (const fk of t.foreignKeys ?? []) if (fk.columns.length !== fk.refColumns.length || !fk.columns.every(ordinal)) fail(`${at} foreign key ${fk.name}`, 'columns out of range');
}
