// The system catalog's roles (system-catalog.ts): pg_authid, pg_roles, pg_user and pg_auth_members as
// PostgreSQL 15 has them, filled from the session's roles (sql/roles.ts): the bootstrap superusers
// (the gateway's configured users, with every attribute, as PostgreSQL's bootstrap superuser has), the
// catalog's roles, and PostgreSQL's predefined roles (pg_monitor, pg_read_all_data, ...; their oids and
// memberships are PostgreSQL 15's). pg_authid holds the verifiers and, as in PostgreSQL, only superusers
// may read it (42501); pg_roles and pg_user show a password as ********.

import type { SqlValue } from '../../sql/types.ts';
import { bootstrapOid, type RoleDef } from '../../sql/roles.ts';
import type { Table } from './catalog-constraints.ts';
import type { RoleCatalog } from './sql-backend.ts';
import { aclText } from '../../sql/acl.ts';
import { SqlArray } from '../../sql/sql-array.ts';
import { ownerOf, type AclItem, type Owned } from '../../sql/privileges.ts';

export const PG_AUTHID: Table = {
  name: 'pg_catalog.pg_authid',
  columns: `oid int4, rolname name, rolsuper bool, rolinherit bool, rolcreaterole bool, rolcreatedb bool, rolcanlogin bool, rolreplication bool,
    rolbypassrls bool, rolconnlimit int4, rolpassword text, rolvaliduntil timestamptz`,
};
export const PG_ROLES: Table = {
  name: 'pg_catalog.pg_roles',
  columns: `rolname name, rolsuper bool, rolinherit bool, rolcreaterole bool, rolcreatedb bool, rolcanlogin bool, rolreplication bool,
    rolconnlimit int4, rolpassword text, rolvaliduntil timestamptz, rolbypassrls bool, rolconfig text[], oid int4`,
};
export const PG_USER: Table = {
  name: 'pg_catalog.pg_user',
  columns: 'usename name, usesysid int4, usecreatedb bool, usesuper bool, userepl bool, usebypassrls bool, passwd text, valuntil timestamptz, useconfig text[]',
};
export const PG_AUTH_MEMBERS: Table = { name: 'pg_catalog.pg_auth_members', columns: 'roleid int4, member int4, grantor int4, admin_option bool' };
export const ROLE_TABLES = [PG_AUTHID, PG_ROLES, PG_USER, PG_AUTH_MEMBERS];

/** PostgreSQL 15's predefined roles, and which of them pg_monitor is a member of. */
const PREDEFINED: readonly (readonly [number, string])[] = [
  [3373, 'pg_monitor'], [3374, 'pg_read_all_settings'], [3375, 'pg_read_all_stats'], [3377, 'pg_stat_scan_tables'], [4200, 'pg_signal_backend'],
  [4544, 'pg_checkpoint'], [4569, 'pg_read_server_files'], [4570, 'pg_write_server_files'], [4571, 'pg_execute_server_program'],
  [6171, 'pg_database_owner'], [6181, 'pg_read_all_data'], [6182, 'pg_write_all_data'],
];
const PREDEFINED_MEMBERS: readonly (readonly [number, number])[] = [[3374, 3373], [3375, 3373], [3377, 3373]];

/** Every role the session sees, as pg_authid describes them (bootstrap superusers first). */
export function allRoles(info: RoleCatalog): RoleDef[] {
  const role = (oid: number, name: string, su: boolean, login: boolean): RoleDef => ({
    oid, name, superuser: su, inherit: true, createRole: su, createDb: su, canLogin: login, replication: su, bypassRls: su, connLimit: -1, password: null, validUntil: null,
  });
  return [
    ...info.bootstrap.map((name, i) => role(bootstrapOid(i), name, true, true)),
    ...PREDEFINED.map(([oid, name]) => role(oid, name, false, false)),
    ...info.roles,
  ];
}

/** A role's name by oid, for owners (pg_get_userbyid's answer lives in pg_roles); null when no role has it. */
export function roleNames(info: RoleCatalog): (oid: number) => string | null {
  const byOid = new Map(allRoles(info).map((r) => [r.oid, r.name]));
  return (oid) => byOid.get(oid) ?? null;
}

/** Whether the session's user `user` is a superuser (pg_authid is theirs only). */
export function isSuperuserName(info: RoleCatalog, user: string): boolean {
  return info.bootstrap.includes(user) || info.roles.some((r) => r.name === user && r.superuser);
}

export function roleRows(info: RoleCatalog, push: (t: Table, row: SqlValue[]) => void): void {
  for (const r of allRoles(info)) {
    push(PG_AUTHID, [r.oid, r.name, r.superuser, r.inherit, r.createRole, r.createDb, r.canLogin, r.replication, r.bypassRls, r.connLimit, r.password, r.validUntil]);
    push(PG_ROLES, [r.name, r.superuser, r.inherit, r.createRole, r.createDb, r.canLogin, r.replication, r.connLimit, '********', r.validUntil, r.bypassRls, null, r.oid]);
    if (r.canLogin) push(PG_USER, [r.name, r.oid, r.createDb, r.superuser, r.replication, r.bypassRls, '********', r.validUntil, null]);
  }
  for (const [roleid, member] of PREDEFINED_MEMBERS) push(PG_AUTH_MEMBERS, [roleid, member, 10, false]);
  for (const m of info.members) push(PG_AUTH_MEMBERS, [m.role, m.member, m.grantor, m.admin]);
}

/** Owners' names and ACLs of relations as pg_class, pg_tables and friends show them. */
export interface Owners {
  name(o: Owned): string | null;
  /** relacl: a text[] of aclitems, or NULL. */
  acl(o: Owned): SqlArray | null;
  /** An explicit ACL as a text[] of aclitems. */
  aclOf(acl: readonly AclItem[]): SqlArray;
}

export function ownersOf(info: RoleCatalog): Owners {
  const names = roleNames(info);
  return {
    name: (o) => names(ownerOf(o)),
    acl: (o) => {
      const items = aclText(o, names);
      return items === null ? null : new SqlArray('text', items);
    },
    aclOf: (acl) => new SqlArray('text', aclText({ acl }, names)!),
  };
}
