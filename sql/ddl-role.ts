// Role DDL (sql/roles.ts): CREATE ROLE / USER, ALTER ROLE / USER (options, PASSWORD), ALTER ROLE ...
// RENAME TO, DROP ROLE / USER [IF EXISTS], GRANT role TO role and REVOKE role FROM role, with PostgreSQL
// 15's permission rules (src/backend/commands/user.c) and errors. A PASSWORD is turned into a SCRAM
// verifier with a salt from the execution context's randomness; the statement the catalog log keeps
// (`DdlOutcome.logged`) carries the verifier instead of the password, so replay needs no randomness.

import type { AlterRoleStmt, CreateRoleStmt, DefElem, DropRoleStmt, GrantRoleStmt, Node, RenameStmt, RoleSpec } from 'libpg-query';
import type { Catalog } from './catalog.ts';
import type { DdlOutcome } from './ddl-build.ts';
import { parseTimestampTz } from './datetime-input.ts';
import { SqlError, SqlState } from './errors.ts';
import type { ExecContext } from './exec-context.ts';
import { hasCreateRole, isBootstrapOid, isMemberOf, isSuperuser, permissionDenied, roleOid, specName, type DdlActor, type RoleDef, type RoleMember } from './roles.ts';
import { scramVerifier } from './scram-verifier.ts';
import { ownedBy } from './privileges.ts';

interface RoleOptions {
  superuser?: boolean;
  inherit?: boolean;
  createRole?: boolean;
  createDb?: boolean;
  canLogin?: boolean;
  replication?: boolean;
  bypassRls?: boolean;
  connLimit?: number;
  /** null: PASSWORD NULL. */
  password?: string | null;
  validUntil?: string;
  inRoles?: readonly RoleSpec[];
  roles?: readonly RoleSpec[];
  admins?: readonly RoleSpec[];
}

const FLAGS: Readonly<Record<string, keyof RoleOptions>> = {
  superuser: 'superuser', inherit: 'inherit', createrole: 'createRole', createdb: 'createDb', canlogin: 'canLogin',
  isreplication: 'replication', bypassrls: 'bypassRls',
};

function specs(arg: Node | undefined): RoleSpec[] {
  const items = arg !== undefined && 'List' in arg ? arg.List.items ?? [] : [];
  return items.flatMap((n) => ('RoleSpec' in n ? [n.RoleSpec] : []));
}

function readOptions(options: readonly Node[] | undefined, notices: string[]): RoleOptions {
  const out: RoleOptions = {};
  const seen = new Set<string>();
  for (const n of options ?? []) {
    if (!('DefElem' in n)) continue;
    const d: DefElem = n.DefElem;
    const name = d.defname ?? '';
    if (name === 'sysid') {
      notices.push('SYSID can no longer be specified');
      continue;
    }
    if (seen.has(name)) throw new SqlError(SqlState.syntaxError, 'conflicting or redundant options', undefined, undefined, undefined, d.location);
    seen.add(name);
    const arg = d.arg;
    const flag = FLAGS[name];
    if (flag !== undefined) (out as Record<string, unknown>)[flag] = arg !== undefined && 'Boolean' in arg ? arg.Boolean.boolval === true : true;
    else if (name === 'password') out.password = arg !== undefined && 'String' in arg ? arg.String.sval ?? '' : null;
    else if (name === 'validUntil') out.validUntil = arg !== undefined && 'String' in arg ? arg.String.sval ?? '' : '';
    else if (name === 'connectionlimit') out.connLimit = arg !== undefined && 'Integer' in arg ? arg.Integer.ival ?? 0 : 0;
    else if (name === 'addroleto') out.inRoles = specs(arg);
    else if (name === 'rolemembers') out.roles = specs(arg);
    else if (name === 'adminmembers') out.admins = specs(arg);
    else throw new SqlError(SqlState.syntaxError, `option "${name}" not recognized`);
  }
  if (out.connLimit !== undefined && out.connLimit < -1) throw new SqlError(SqlState.invalidParameterValue, `invalid connection limit: ${out.connLimit}`);
  return out;
}

/**
 * The password as stored: a verifier or hash given as one is kept as is (PostgreSQL's rule), '' clears
 * it with a notice, anything else becomes a SCRAM verifier. On replay (no randomness) the log holds
 * only verifiers.
 */
function storedPassword(password: string | null, ctx: ExecContext | null, notices: string[]): string | null {
  if (password === null) return null;
  if (password === '') {
    notices.push('empty string is not a valid password, clearing password');
    return null;
  }
  if (password.startsWith('SCRAM-SHA-256$') || /^md5[0-9a-f]{32}$/.test(password)) return password;
  if (ctx?.random === undefined) throw new SqlError(SqlState.internalError, 'a password can only be set where a salt can be drawn');
  return scramVerifier(password, ctx.random(16));
}

/** `options` with PASSWORD's argument replaced by `stored` (the statement as the log keeps it). */
function withStoredPassword(options: readonly Node[], stored: string | null): Node[] {
  return options.map((n) => ('DefElem' in n && n.DefElem.defname === 'password' ? { DefElem: stored === null ? { ...n.DefElem, arg: undefined } : { ...n.DefElem, arg: { String: { sval: stored } } } } : n)) as Node[];
}

function checkReserved(name: string): void {
  if (name.startsWith('pg_')) throw new SqlError(SqlState.reservedName, `role name "${name}" is reserved`, 'Role names starting with "pg_" are reserved.');
  if (name === 'public' || name === 'none') throw new SqlError(SqlState.reservedName, `role name "${name}" is reserved`);
}

function roleExists(catalog: Catalog, actor: DdlActor, name: string): boolean {
  return catalog.role(name) !== undefined || actor.bootstrap.includes(name);
}

export function createRole(catalog: Catalog, s: CreateRoleStmt, ctx: ExecContext | null, actor: DdlActor): DdlOutcome {
  const notices: string[] = [];
  const o = readOptions(s.options, notices);
  const name = s.role ?? '';
  if (actor.check) {
    if (o.superuser === true && !isSuperuser(catalog, actor)) throw permissionDenied('must be superuser to create superusers');
    if (o.replication === true && !isSuperuser(catalog, actor)) throw permissionDenied('must be superuser to create replication users');
    if (o.bypassRls === true && !isSuperuser(catalog, actor)) throw permissionDenied('must be superuser to create bypassrls users');
    if (!hasCreateRole(catalog, actor)) throw permissionDenied('permission denied to create role');
  }
  checkReserved(name);
  if (roleExists(catalog, actor, name)) throw new SqlError(SqlState.duplicateObject, `role "${name}" already exists`);
  const password = o.password === undefined ? null : storedPassword(o.password, ctx, notices);
  const role: RoleDef = {
    oid: catalog.allocateTypeOid(), name, superuser: o.superuser ?? false, inherit: o.inherit ?? true, createRole: o.createRole ?? false,
    createDb: o.createDb ?? false, canLogin: o.canLogin ?? s.stmt_type === 'ROLESTMT_USER', replication: o.replication ?? false,
    bypassRls: o.bypassRls ?? false, connLimit: o.connLimit ?? -1, password, validUntil: o.validUntil === undefined ? null : parseTimestampTz(o.validUntil),
  };
  catalog.putRole(role);
  for (const r of o.inRoles ?? []) addMember(catalog, actor, specName(catalog, actor, r) ?? 'public', role.name, false, notices);
  for (const m of o.roles ?? []) addMember(catalog, actor, role.name, specName(catalog, actor, m) ?? 'public', false, notices);
  for (const m of o.admins ?? []) addMember(catalog, actor, role.name, specName(catalog, actor, m) ?? 'public', true, notices);
  const logged: Node = { CreateRoleStmt: { ...s, ...(s.options !== undefined ? { options: withStoredPassword(s.options, password) } : {}) } };
  return { tag: 'CREATE ROLE', touched: [], logged, ...(notices.length > 0 ? { notice: notices.join('\n') } : {}) };
}

function requireRole(catalog: Catalog, actor: DdlActor, name: string): RoleDef | 'bootstrap' {
  if (actor.bootstrap.includes(name)) return 'bootstrap';
  const r = catalog.role(name);
  if (r === undefined) throw new SqlError(SqlState.undefinedObject, `role "${name}" does not exist`);
  return r;
}

export function alterRole(catalog: Catalog, s: AlterRoleStmt, ctx: ExecContext | null, actor: DdlActor): DdlOutcome {
  const notices: string[] = [];
  const o = readOptions(s.options, notices);
  const name = specName(catalog, actor, s.role) ?? 'public';
  const r = requireRole(catalog, actor, name);
  if (o.inRoles !== undefined || o.roles !== undefined || o.admins !== undefined) throw new SqlError(SqlState.syntaxError, 'option "rolemembers" not recognized');
  if (r === 'bootstrap') throw new SqlError(SqlState.featureNotSupported, `role "${name}" is a configured user of the gateway; its attributes are its configuration's`);
  if (actor.check) {
    const su = isSuperuser(catalog, actor);
    if ((r.superuser || o.superuser !== undefined) && !su) throw permissionDenied('must be superuser to alter superuser roles or change superuser attribute');
    if ((r.replication || o.replication !== undefined) && !su) throw permissionDenied('must be superuser to alter replication roles or change replication attribute');
    if (o.bypassRls !== undefined && !su) throw permissionDenied('must be superuser to change bypassrls attribute');
    if (!hasCreateRole(catalog, actor)) {
      const onlyOwnPassword = r.oid === actor.oid && o.password !== undefined && Object.keys(o).length === 1;
      if (!onlyOwnPassword) throw permissionDenied('permission denied');
    }
  }
  const password = o.password === undefined ? r.password : storedPassword(o.password, ctx, notices);
  catalog.putRole({
    ...r, superuser: o.superuser ?? r.superuser, inherit: o.inherit ?? r.inherit, createRole: o.createRole ?? r.createRole, createDb: o.createDb ?? r.createDb,
    canLogin: o.canLogin ?? r.canLogin, replication: o.replication ?? r.replication, bypassRls: o.bypassRls ?? r.bypassRls,
    connLimit: o.connLimit ?? r.connLimit, password, validUntil: o.validUntil === undefined ? r.validUntil : parseTimestampTz(o.validUntil),
  });
  const logged: Node = { AlterRoleStmt: { ...s, ...(s.options !== undefined ? { options: withStoredPassword(s.options, password) } : {}) } };
  return { tag: 'ALTER ROLE', touched: [], logged, ...(notices.length > 0 ? { notice: notices.join('\n') } : {}) };
}

export function renameRole(catalog: Catalog, s: RenameStmt, actor: DdlActor): DdlOutcome {
  const name = s.subname ?? '';
  const to = s.newname ?? '';
  const r = requireRole(catalog, actor, name);
  if (r === 'bootstrap' || r.oid === actor.oid) {
    if (r !== 'bootstrap' || roleOid(catalog, actor, name) === actor.oid) throw new SqlError(SqlState.featureNotSupported, 'session user cannot be renamed');
    throw new SqlError(SqlState.featureNotSupported, `role "${name}" is a configured user of the gateway; its name is its configuration's`);
  }
  checkReserved(to);
  if (roleExists(catalog, actor, to)) throw new SqlError(SqlState.duplicateObject, `role "${to}" already exists`);
  if (actor.check) {
    if (r.superuser && !isSuperuser(catalog, actor)) throw permissionDenied('must be superuser to rename superusers');
    if (!hasCreateRole(catalog, actor)) throw permissionDenied('permission denied to rename role');
  }
  catalog.putRole({ ...r, name: to }, name);
  return { tag: 'ALTER ROLE', touched: [] };
}

export function dropRoles(catalog: Catalog, s: DropRoleStmt, actor: DdlActor): DdlOutcome {
  if (actor.check && !hasCreateRole(catalog, actor)) throw permissionDenied('permission denied to drop role');
  const notices: string[] = [];
  for (const spec of (s.roles ?? []).flatMap((n) => ('RoleSpec' in n ? [n.RoleSpec] : []))) {
    const name = specName(catalog, actor, spec) ?? 'public';
    if (spec.roletype === 'ROLESPEC_PUBLIC') throw new SqlError(SqlState.undefinedObject, 'role "public" does not exist');
    if (actor.bootstrap.includes(name)) {
      if (roleOid(catalog, actor, name) === actor.oid) throw new SqlError(SqlState.objectInUse, 'current user cannot be dropped');
      throw new SqlError(SqlState.dependentObjectsStillExist, `cannot drop role ${name} because it is required by the database system`);
    }
    const r = catalog.role(name);
    if (r === undefined) {
      if (s.missing_ok === true) {
        notices.push(`role "${name}" does not exist, skipping`);
        continue;
      }
      throw new SqlError(SqlState.undefinedObject, `role "${name}" does not exist`);
    }
    if (r.oid === actor.oid) throw new SqlError(SqlState.objectInUse, 'current user cannot be dropped');
    if (actor.check && r.superuser && !isSuperuser(catalog, actor)) throw permissionDenied('must be superuser to drop superusers');
    const owned = ownedBy(catalog, r.oid, actor.database, actor.bootstrap);
    if (owned.length > 0) throw new SqlError(SqlState.dependentObjectsStillExist, `role "${name}" cannot be dropped because some objects depend on it`, owned.join('\n'));
    catalog.removeRole(name);
  }
  return { tag: 'DROP ROLE', touched: [], ...(notices.length > 0 ? { notice: notices.join('\n') } : {}) };
}

/** GRANT role TO role / REVOKE [ADMIN OPTION FOR] role FROM role. */
export function grantRoles(catalog: Catalog, s: GrantRoleStmt, actor: DdlActor): DdlOutcome {
  const admin = (s.opt ?? []).some((n) => 'DefElem' in n && n.DefElem.defname === 'admin');
  const notices: string[] = [];
  const grantor = s.grantor === undefined ? null : specName(catalog, actor, s.grantor);
  if (grantor !== null && roleOid(catalog, actor, grantor) !== actor.oid && actor.check && !isSuperuser(catalog, actor)) throw permissionDenied('must be superuser to set grantor');
  for (const g of s.granted_roles ?? []) {
    const role = 'AccessPriv' in g ? g.AccessPriv.priv_name ?? '' : '';
    for (const spec of (s.grantee_roles ?? []).flatMap((n) => ('RoleSpec' in n ? [n.RoleSpec] : []))) {
      const member = specName(catalog, actor, spec);
      if (member === null) throw new SqlError(SqlState.undefinedObject, 'role "public" does not exist');
      if (s.is_grant === true) addMember(catalog, actor, role, member, admin, notices);
      else removeMember(catalog, actor, role, member, admin, notices);
    }
  }
  return { tag: s.is_grant === true ? 'GRANT ROLE' : 'REVOKE ROLE', touched: [], ...(notices.length > 0 ? { notice: notices.join('\n') } : {}) };
}

function checkAdmin(catalog: Catalog, actor: DdlActor, role: number, roleLabel: string): void {
  if (!actor.check) return;
  if (isSuperuser(catalog, actor, role)) {
    if (!isSuperuser(catalog, actor)) throw permissionDenied('must be superuser to alter superusers');
    return;
  }
  if (hasCreateRole(catalog, actor)) return;
  const admin = catalog.listMembers().some((m) => m.role === role && m.admin && isMemberOf(catalog, actor.oid, m.member));
  if (!admin) throw permissionDenied(`must have admin option on role "${roleLabel}"`);
}

function addMember(catalog: Catalog, actor: DdlActor, role: string, member: string, admin: boolean, notices: string[]): void {
  const roleId = roleOid(catalog, actor, role);
  const memberId = roleOid(catalog, actor, member);
  checkAdmin(catalog, actor, roleId, role);
  if (isBootstrapOid(actor, roleId)) throw new SqlError(SqlState.featureNotSupported, `role "${role}" is a configured user of the gateway; it has no members`);
  if (isMemberOf(catalog, roleId, memberId)) throw new SqlError(SqlState.invalidGrantOperation, `role "${role}" is a member of role "${member}"`);
  const members = catalog.listMembers();
  const at = members.findIndex((m) => m.role === roleId && m.member === memberId);
  const existing = members[at];
  if (existing !== undefined && (existing.admin || !admin)) {
    notices.push(`role "${member}" is already a member of role "${role}"`);
    return;
  }
  const entry: RoleMember = { role: roleId, member: memberId, grantor: actor.oid, admin };
  catalog.setMembers(existing === undefined ? [...members, entry] : members.map((m, i) => (i === at ? { ...m, admin: true } : m)));
}

function removeMember(catalog: Catalog, actor: DdlActor, role: string, member: string, adminOnly: boolean, notices: string[]): void {
  const roleId = roleOid(catalog, actor, role);
  const memberId = roleOid(catalog, actor, member);
  checkAdmin(catalog, actor, roleId, role);
  const members = catalog.listMembers();
  if (!members.some((m) => m.role === roleId && m.member === memberId)) {
    notices.push(`role "${member}" is not a member of role "${role}"`);
    return;
  }
  catalog.setMembers(adminOnly
    ? members.map((m) => (m.role === roleId && m.member === memberId ? { ...m, admin: false } : m))
    : members.filter((m) => !(m.role === roleId && m.member === memberId)));
}

