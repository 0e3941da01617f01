// Privileges of the schema public and of the database, as PostgreSQL 15 has them. public is owned by
// pg_database_owner (the database owner's role: here the first bootstrap superuser, oid 10) with
// initdb's ACL `{pg_database_owner=UC/pg_database_owner,=U/pg_database_owner}`: everyone may use it,
// only the database owner, superusers and roles granted CREATE create in it (42501 "permission denied
// for schema public"). The database is owned by oid 10; its default ACL gives PUBLIC CONNECT and
// TEMPORARY (a role without CONNECT cannot log in). GRANT / REVOKE ON SCHEMA public / ON DATABASE
// change these ACLs, kept in the catalog (`Catalog.objectAcl`), replicated as any DDL. COMMENT ON
// DATABASE keeps the database's comment in the catalog's map of comments (`Catalog.objectComment`).
// A Pesto database has whatever name its sessions connect with, so the comment is the database's,
// not a name's.

import type { GrantStmt } from 'libpg-query';
import type { Catalog } from './catalog.ts';
import type { DdlOutcome } from './ddl-build.ts';
import { aclAfterGrant, aclAfterRevoke } from './acl.ts';
import { SqlError, SqlState } from './errors.ts';
import { PRIVILEGE_LETTERS, type AclItem } from './privileges.ts';
import { actorOf, inheritedRoles, isSuperuser, permissionDenied, roleOid, specName, type DdlActor } from './roles.ts';
import type { SessionIdentity } from './exec-context.ts';

export const PG_DATABASE_OWNER = 6171;
const DATABASE_OWNER = 10;
const SCHEMA_KEY = 'schema public';
const DATABASE_KEY = 'database';
export const SCHEMA_PRIVILEGES = 'UC';
export const DATABASE_PRIVILEGES = 'CTc';

/** An object's owner and its ACL, the default made explicit. */
export interface ObjectAcl {
  readonly owner: number;
  readonly acl: readonly AclItem[];
  /** Whether GRANT or REVOKE changed it (a database's default ACL shows as NULL). */
  readonly explicit: boolean;
}

export function schemaAcl(catalog: Catalog): ObjectAcl {
  const acl = catalog.objectAcl(SCHEMA_KEY);
  return {
    owner: PG_DATABASE_OWNER, explicit: true,
    acl: acl ?? [{ grantee: PG_DATABASE_OWNER, grantor: PG_DATABASE_OWNER, privs: 'UC', options: '' }, { grantee: 0, grantor: PG_DATABASE_OWNER, privs: 'U', options: '' }],
  };
}

export function databaseAcl(catalog: Catalog): ObjectAcl {
  const acl = catalog.objectAcl(DATABASE_KEY);
  return {
    owner: DATABASE_OWNER, explicit: acl !== undefined,
    acl: acl ?? [{ grantee: 0, grantor: DATABASE_OWNER, privs: 'Tc', options: '' }, { grantee: DATABASE_OWNER, grantor: DATABASE_OWNER, privs: 'CTc', options: '' }],
  };
}

/** Whether `actor`'s role holds `letter` on the object (superusers and the owner hold everything). */
export function holds(catalog: Catalog, actor: DdlActor, o: ObjectAcl, letter: string, option = false): boolean {
  if (isSuperuser(catalog, actor)) return true;
  const roles = inheritedRoles(catalog, actor.oid);
  if (roles.has(DATABASE_OWNER)) roles.add(PG_DATABASE_OWNER);
  if (roles.has(o.owner)) return true;
  return o.acl.some((a) => (a.grantee === 0 || roles.has(a.grantee)) && (option ? a.options : a.privs).includes(letter));
}

/** CREATE in the schema public (CREATE TABLE, VIEW, SEQUENCE, TYPE, MATERIALIZED VIEW). */
export function checkCreateInSchema(catalog: Catalog, actor: DdlActor): void {
  if (!holds(catalog, actor, schemaAcl(catalog), 'C')) throw permissionDenied('permission denied for schema public');
}

/** USAGE of the schema public (naming a relation in it). */
export function checkSchemaUsage(catalog: Catalog, actor: DdlActor): void {
  if (!holds(catalog, actor, schemaAcl(catalog), 'U')) throw permissionDenied('permission denied for schema public');
}

/** GRANT / REVOKE ... ON SCHEMA public | ON DATABASE d. */
export function grantOnObject(catalog: Catalog, s: GrantStmt, actor: DdlActor): DdlOutcome {
  const tag = s.is_grant === true ? 'GRANT' : 'REVOKE';
  const schema = s.objtype === 'OBJECT_SCHEMA';
  const kind = schema ? 'schema' : 'database';
  const all = schema ? SCHEMA_PRIVILEGES : DATABASE_PRIVILEGES;
  for (const o of s.objects ?? []) {
    const name = 'String' in o ? o.String.sval ?? '' : '';
    if (schema && name !== 'public') throw new SqlError(SqlState.invalidSchemaName, `schema "${name}" does not exist`);
    if (!schema && actor.database !== undefined && name !== actor.database) throw new SqlError('3D000', `database "${name}" does not exist`);
  }
  let privs = all;
  if (s.privileges !== undefined) {
    privs = '';
    for (const p of s.privileges) {
      if (!('AccessPriv' in p)) continue;
      const word = (p.AccessPriv.priv_name ?? '').toLowerCase();
      const l = PRIVILEGE_LETTERS[word === 'temp' ? 'temporary' : word];
      if (l === undefined || !all.includes(l)) throw new SqlError(SqlState.invalidGrantOperation, `invalid privilege type ${word.toUpperCase()} for ${kind}`);
      privs += l;
    }
  }
  const current = schema ? schemaAcl(catalog) : databaseAcl(catalog);
  const owns = isSuperuser(catalog, actor) || holds(catalog, { ...actor, bootstrap: actor.bootstrap }, { ...current, acl: [] }, 'x');
  const grantor = owns ? current.owner : actor.oid;
  if (actor.check && !owns && ![...privs].some((l) => holds(catalog, actor, current, l, true))) throw permissionDenied(`permission denied for ${kind} ${schema ? 'public' : actor.database ?? ''}`);
  const grantees = (s.grantees ?? []).flatMap((n) => ('RoleSpec' in n ? [n.RoleSpec] : [])).map((spec) => {
    const name = specName(catalog, actor, spec);
    return name === null ? 0 : roleOid(catalog, actor, name);
  });
  const o = { owner: current.owner, acl: current.acl };
  const acl = s.is_grant === true
    ? aclAfterGrant(o, grantees, grantor, privs, s.grant_option === true, all)
    : aclAfterRevoke(o, grantees, grantor, privs, s.grant_option === true, s.behavior === 'DROP_CASCADE', all);
  catalog.setObjectAcl(schema ? SCHEMA_KEY : DATABASE_KEY, acl);
  return { tag, touched: [] };
}

/** COMMENT ON DATABASE's text; null when none is set. */
export function databaseComment(catalog: Catalog): string | null {
  return catalog.objectComment(DATABASE_KEY) ?? null;
}

/**
 * COMMENT ON DATABASE `name` (its owner or a superuser only: 42501). Another name than the session's
 * database is PostgreSQL's WARNING 3D000 and changes nothing (a restored dump names its source
 * database); on replay (no session) the statement applies as it was logged.
 */
export function commentOnDatabase(catalog: Catalog, name: string, text: string | undefined, actor: DdlActor): DdlOutcome {
  if (actor.database !== undefined && name !== actor.database) return { tag: 'COMMENT', touched: [], notice: `database "${name}" does not exist` };
  const owns = isSuperuser(catalog, actor) || holds(catalog, actor, { ...databaseAcl(catalog), acl: [] }, 'x');
  if (actor.check && !owns) throw permissionDenied(`must be owner of database ${name}`);
  catalog.setObjectComment(DATABASE_KEY, text ?? null);
  return { tag: 'COMMENT', touched: [] };
}

/** A session of `identity` may not start: its role lacks CONNECT on the database (PostgreSQL's FATAL 42501); null when it may. */
export function connectRefused(catalog: Catalog, identity: SessionIdentity): SqlError | null {
  if (identity.bootstrap?.includes(identity.user) === true || catalog.role(identity.user) === undefined) return null;
  if (holds(catalog, actorOf(catalog, identity), databaseAcl(catalog), 'c')) return null;
  return new SqlError(SqlState.insufficientPrivilege, `permission denied for database "${identity.database}"`, 'User does not have CONNECT privilege.');
}
