// DDL of enum types (enum-types.ts): CREATE TYPE ... AS ENUM, DROP TYPE, ALTER TYPE ... ADD VALUE /
// RENAME VALUE / RENAME TO / OWNER TO, with PostgreSQL 15's checks and wording. Like all DDL these are
// catalog changes replayed from the catalog log on every replica (replicated-catalog.ts), so oids, label
// positions and sort orders come out the same everywhere. No stored row changes: rows hold label
// positions, which ADD VALUE and RENAME VALUE keep (row-codec.ts).

import { inheritedRoles, isSuperuser, permissionDenied, roleOid, specName, type DdlActor } from './roles.ts';
import { ownerOf } from './privileges.ts';
import type { AlterEnumStmt, AlterOwnerStmt, CreateEnumStmt, DropStmt, Node, RenameStmt } from 'libpg-query';
import { cascaded } from './notices.ts';
import type { Catalog } from './catalog.ts';
import type { DdlOutcome, DdlStorage } from './ddl-build.ts';
import { addEnumLabel, makeEnumType, renameEnumLabel, type EnumTypeDef } from './enum-types.ts';
import { SqlError, SqlState } from './errors.ts';
import { strOf, unsupported } from './lower-expr.ts';
import { enumNamed } from './lower-type.ts';
import { dropColumn } from './ddl-alter.ts';
import { sqlTypes } from './types.ts';

const TAG = 'ALTER TYPE';

/** `[schema.]name` of a type: the schema must be public (Pesto has no other user schemas). */
function typeName(names: readonly Node[]): string {
  const parts = names.map(strOf);
  const name = parts[parts.length - 1] ?? '';
  if (parts.length > 2) throw new SqlError(SqlState.featureNotSupported, `cross-database references are not implemented: ${parts.join('.')}`);
  if (parts.length === 2 && parts[0] !== 'public') throw new SqlError(SqlState.invalidSchemaName, `schema "${parts[0] ?? ''}" does not exist`);
  return name;
}

function requireEnum(catalog: Catalog, names: readonly Node[]): EnumTypeDef {
  const parts = names.map(strOf);
  const e = enumNamed(catalog, parts);
  if (e !== undefined) return e;
  const name = typeName(names);
  if ((sqlTypes as readonly string[]).includes(name) || catalog.get(name) !== undefined) throw new SqlError(SqlState.wrongObjectType, `${name} is not an enum`);
  throw new SqlError(SqlState.undefinedObject, `type "${parts.join('.')}" does not exist`);
}

/** A type name taken: by an enum, or by a table's or view's row type (PostgreSQL makes one per relation). */
function typeExists(catalog: Catalog, name: string): boolean {
  return catalog.enumType(name) !== undefined || catalog.get(name) !== undefined || catalog.getView(name) !== undefined;
}

export function createEnum(catalog: Catalog, s: CreateEnumStmt): DdlOutcome {
  const name = typeName(s.typeName ?? []);
  if (typeExists(catalog, name)) throw new SqlError(SqlState.duplicateObject, `type "${name}" already exists`);
  const oid = catalog.allocateTypeOid();
  // The array type's oid: the next one (makeEnumType).
  catalog.allocateTypeOid();
  const labels = (s.vals ?? []).map(strOf);
  catalog.putEnum(makeEnumType(oid, name, labels, () => catalog.allocateTypeOid()));
  return { tag: 'CREATE TYPE', touched: [] };
}

/** The columns of `type`, as PostgreSQL names them in dependency messages. */
function columnsOf(catalog: Catalog, type: EnumTypeDef): { table: string; column: string; display: string }[] {
  const out: { table: string; column: string; display: string }[] = [];
  for (const t of catalog.list()) {
    for (const c of t.columns) {
      // A column of the enum's array type depends on that type (mood[]), which depends on the enum.
      if (!c.dropped && c.enumType?.oid === type.oid) out.push({ table: t.name, column: c.name, display: c.type === '_enum' ? `${type.name}[]` : type.name });
    }
  }
  return out;
}

/**
 * DROP TYPE [IF EXISTS] name [, ...] [CASCADE | RESTRICT]: 2BP01 while a column has the type, unless
 * CASCADE, which drops those columns (as PostgreSQL does) with its notice.
 */
export function dropTypes(catalog: Catalog, storage: DdlStorage, s: DropStmt): DdlOutcome {
  const notices: string[] = [];
  const cascade = s.behavior === 'DROP_CASCADE';
  const types: EnumTypeDef[] = [];
  for (const o of s.objects ?? []) {
    const names = 'TypeName' in o ? (o.TypeName.names ?? []) : [];
    if ('TypeName' in o && (o.TypeName.arrayBounds ?? []).length > 0) throw unsupported('DROP TYPE of an array type');
    const parts = names.map(strOf);
    const e = enumNamed(catalog, parts);
    if (e === undefined) {
      if (s.missing_ok === true && !(sqlTypes as readonly string[]).includes(parts[parts.length - 1] ?? '')) {
        notices.push(`type "${parts.join('.')}" does not exist, skipping`);
        continue;
      }
      requireEnum(catalog, names);
    } else {
      types.push(e);
    }
  }
  const users = types.flatMap((e) => columnsOf(catalog, e).map((c) => ({ ...c, type: e.name })));
  if (users.length > 0 && !cascade) {
    const first = types.find((e) => e.name === users[0]!.type)!;
    const detail = users.filter((u) => u.type === first.name).map((u) => `column ${u.column} of table ${u.table} depends on type ${u.display}`).join('\n');
    throw new SqlError(SqlState.dependentObjectsStillExist, `cannot drop type ${first.name} because other objects depend on it`, detail, undefined, 'Use DROP ... CASCADE to drop the dependent objects too.');
  }
  // PostgreSQL's order: columns of the enum's array type first, then its own; by table, the last column first.
  const byTableLastFirst = (us: typeof users): typeof users => {
    const tables = [...new Set(us.map((u) => u.table))];
    return tables.flatMap((t) => us.filter((u) => u.table === t).reverse());
  };
  const ordered = [...byTableLastFirst(users.filter((u) => u.display.endsWith('[]'))), ...byTableLastFirst(users.filter((u) => !u.display.endsWith('[]')))];
  for (const u of ordered) notices.push(cascaded(`column ${u.column} of table ${u.table}`));
  for (const u of users) dropColumn(catalog, storage, catalog.require(u.table), u.column, false, true);
  for (const e of types) catalog.removeEnum(e.name);
  return notices.length > 0 ? { tag: 'DROP TYPE', touched: [], notice: notices.join('\n') } : { tag: 'DROP TYPE', touched: [] };
}

/** ALTER TYPE ... ADD VALUE [IF NOT EXISTS] 'v' [BEFORE | AFTER 'w'], and ALTER TYPE ... RENAME VALUE 'a' TO 'b'. */
export function alterEnum(catalog: Catalog, storage: DdlStorage, s: AlterEnumStmt): DdlOutcome {
  const type = requireEnum(catalog, s.typeName ?? []);
  const newVal = s.newVal ?? '';
  if (s.oldVal !== undefined) {
    putEnum(catalog, storage, renameEnumLabel(type, s.oldVal, newVal));
    return { tag: TAG, touched: [] };
  }
  const neighbour = s.newValNeighbor === undefined ? null : { label: s.newValNeighbor, after: s.newValIsAfter === true };
  // The oid is taken only for a label that is made, so IF NOT EXISTS leaves the counter as it was.
  const exists = type.labels.some((l) => l.label === newVal);
  const next = addEnumLabel(type, newVal, neighbour, s.skipIfNewValExists === true, exists ? 0 : catalog.allocateTypeOid());
  if (next === null) return { tag: TAG, touched: [], notice: `enum label "${newVal}" already exists, skipping` };
  putEnum(catalog, storage, next);
  return { tag: TAG, touched: [] };
}

/** ALTER TYPE name RENAME TO new_name. */
/** Installs a changed type; the tables holding it read their values as the new definition. */
function putEnum(catalog: Catalog, storage: DdlStorage, type: EnumTypeDef, oldName?: string): void {
  catalog.putEnum(type, oldName);
  for (const t of catalog.list()) if (t.columns.some((c) => c.enumType?.oid === type.oid)) storage.relabel(t);
}

export function renameType(catalog: Catalog, storage: DdlStorage, s: RenameStmt): DdlOutcome {
  const names = s.object !== undefined && 'List' in s.object ? (s.object.List.items ?? []) : [];
  const type = requireEnum(catalog, names);
  const to = s.newname ?? '';
  if (typeExists(catalog, to)) throw new SqlError(SqlState.duplicateObject, `type "${to}" already exists`);
  putEnum(catalog, storage, { ...type, name: to }, type.name);
  return { tag: TAG, touched: [] };
}

/** ALTER TYPE ... OWNER TO role (pg_dump writes one per type): the owner, or a superuser, to a role it is a member of. */
export function alterTypeOwner(catalog: Catalog, s: AlterOwnerStmt, actor: DdlActor): DdlOutcome {
  if (s.objectType !== 'OBJECT_TYPE') throw unsupported(`ALTER ${String(s.objectType).replace('OBJECT_', '')} ... OWNER TO`);
  const type = requireEnum(catalog, s.object !== undefined && 'List' in s.object ? (s.object.List.items ?? []) : []);
  const to = specName(catalog, actor, s.newowner) ?? 'public';
  const oid = roleOid(catalog, actor, to);
  if (actor.check && !isSuperuser(catalog, actor)) {
    const roles = inheritedRoles(catalog, actor.oid);
    if (!roles.has(ownerOf(type))) throw permissionDenied(`must be owner of type ${type.name}`);
    if (!roles.has(oid)) throw permissionDenied(`must be member of role "${to}"`);
  }
  catalog.putEnum({ ...type, owner: oid });
  return { tag: TAG, touched: [] };
}
