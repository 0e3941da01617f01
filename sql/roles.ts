// Roles (PostgreSQL's pg_authid and pg_auth_members) as replicated catalog state, and who runs a DDL
// statement. A role is made by CREATE ROLE / CREATE USER and lives in the catalog like a table: every
// replica that replays the catalog log derives the same roles with the same oids (from the catalog's
// oid counter). Passwords are kept only as SCRAM-SHA-256 verifiers (scram-verifier.ts), made by the
// session that runs the statement (it draws the salt), so the log never holds a password.
//
// The users a gateway is configured with are bootstrap superusers: they are not in the catalog, always
// exist, and have fixed oids (the first one PostgreSQL's bootstrap superuser's, 10). A DDL statement
// runs as an actor: the role whose oid owns what it creates, the bootstrap names it was run with, and
// whether privileges are checked (on first execution; a replayed log was checked when it was written).
// The catalog log keeps the actor with each statement (replicated-catalog.ts), so replay derives the
// same owners.

import type { RoleSpec } from 'libpg-query';
import type { SqlTimestamp } from './datetime.ts';
import { SqlError, SqlState } from './errors.ts';
import type { Catalog } from './catalog.ts';
import type { SessionIdentity } from './exec-context.ts';

export interface RoleDef {
  readonly oid: number;
  readonly name: string;
  readonly superuser: boolean;
  readonly inherit: boolean;
  readonly createRole: boolean;
  readonly createDb: boolean;
  readonly canLogin: boolean;
  readonly replication: boolean;
  readonly bypassRls: boolean;
  /** -1: no limit. */
  readonly connLimit: number;
  /** A SCRAM-SHA-256 verifier, or a hash given as one (stored as PostgreSQL stores it); null: no password. */
  readonly password: string | null;
  /** VALID UNTIL (timestamptz); null: forever. */
  readonly validUntil: SqlTimestamp | null;
}

/** A row of pg_auth_members: `member` is a member of `role` (oids). */
export interface RoleMember {
  readonly role: number;
  readonly member: number;
  readonly grantor: number;
  readonly admin: boolean;
}

/** Who runs a DDL statement. */
export interface DdlActor {
  /** The current role's oid: it owns what the statement creates. */
  readonly oid: number;
  /** The bootstrap superusers' names, in configuration order (their oids: `bootstrapOid`). */
  readonly bootstrap: readonly string[];
  /** Whether privileges are checked (false on replay). */
  readonly check: boolean;
  /** The session's database (GRANT ... ON DATABASE names it); absent on replay. */
  readonly database?: string;
}

/** PostgreSQL's bootstrap superuser's oid, the first configured user's; the others' follow a base of their own. */
export function bootstrapOid(i: number): number {
  return i === 0 ? 10 : 9000 + i;
}

/** The actor of statements replayed from a log written before roles existed: the first bootstrap superuser. */
export const LEGACY_ACTOR: DdlActor = { oid: 10, bootstrap: [], check: false };

/**
 * The bootstrap superusers of a session: the configured users, or (a session of a gateway without
 * passwords, or of the engine called directly) its own user when no catalog role has that name.
 */
export function bootstrapOf(catalog: Catalog, identity: SessionIdentity): readonly string[] {
  if (identity.bootstrap !== undefined) return identity.bootstrap;
  return catalog.role(identity.user) === undefined ? [identity.user] : [];
}

/** The actor of a session's statements. */
export function actorOf(catalog: Catalog, identity: SessionIdentity | undefined): DdlActor {
  if (identity === undefined) return { ...LEGACY_ACTOR, check: true, bootstrap: [] };
  const bootstrap = bootstrapOf(catalog, identity);
  const i = bootstrap.indexOf(identity.user);
  const oid = i >= 0 ? bootstrapOid(i) : catalog.role(identity.user)?.oid;
  if (oid === undefined) throw new SqlError('28000', `role "${identity.user}" does not exist`);
  return { oid, bootstrap, check: true, database: identity.database };
}

export function isBootstrapOid(actor: DdlActor, oid: number): boolean {
  return actor.bootstrap.some((_, i) => bootstrapOid(i) === oid) || (oid === 10 && actor.bootstrap.length === 0);
}

export function isSuperuser(catalog: Catalog, actor: DdlActor, oid: number = actor.oid): boolean {
  return isBootstrapOid(actor, oid) || catalog.roleByOid(oid)?.superuser === true;
}

/** A role's name by oid (a bootstrap superuser's from the actor's list); undefined when none has it. */
export function roleName(catalog: Catalog, bootstrap: readonly string[], oid: number): string | undefined {
  const i = bootstrap.findIndex((_, j) => bootstrapOid(j) === oid);
  return i >= 0 ? bootstrap[i] : catalog.roleByOid(oid)?.name;
}

/** The oid of the role `name`; 42704 when none has it. */
export function roleOid(catalog: Catalog, actor: DdlActor, name: string): number {
  const i = actor.bootstrap.indexOf(name);
  if (i >= 0) return bootstrapOid(i);
  const r = catalog.role(name);
  if (r === undefined) throw new SqlError(SqlState.undefinedObject, `role "${name}" does not exist`);
  return r.oid;
}

/** The name a RoleSpec names (CURRENT_USER, SESSION_USER and CURRENT_ROLE: the actor's); null for PUBLIC. */
export function specName(catalog: Catalog, actor: DdlActor, spec: RoleSpec | undefined): string | null {
  switch (spec?.roletype) {
    case 'ROLESPEC_PUBLIC':
      return null;
    case 'ROLESPEC_CURRENT_USER':
    case 'ROLESPEC_SESSION_USER':
    case 'ROLESPEC_CURRENT_ROLE':
      return roleName(catalog, actor.bootstrap, actor.oid) ?? '';
    default:
      return spec?.rolename ?? '';
  }
}

/** Whether `member` is `role` or a member of it, directly or through other roles (PostgreSQL's is_member_of_role_nosuper). */
export function isMemberOf(catalog: Catalog, member: number, role: number): boolean {
  const seen = new Set<number>([member]);
  const queue = [member];
  while (queue.length > 0) {
    const m = queue.pop()!;
    if (m === role) return true;
    for (const e of catalog.listMembers()) {
      if (e.member === m && !seen.has(e.role)) {
        seen.add(e.role);
        queue.push(e.role);
      }
    }
  }
  return false;
}

/**
 * The roles whose privileges `oid` uses: itself and, through INHERIT roles, the roles it is a member of
 * (a NOINHERIT role's memberships give it nothing without SET ROLE, which is not supported).
 */
export function inheritedRoles(catalog: Catalog, oid: number): Set<number> {
  const out = new Set<number>([oid]);
  const queue = [oid];
  while (queue.length > 0) {
    const m = queue.pop()!;
    if (catalog.roleByOid(m)?.inherit === false) continue;
    for (const e of catalog.listMembers()) {
      if (e.member === m && !out.has(e.role)) {
        out.add(e.role);
        queue.push(e.role);
      }
    }
  }
  return out;
}

export function hasCreateRole(catalog: Catalog, actor: DdlActor): boolean {
  return isSuperuser(catalog, actor) || catalog.roleByOid(actor.oid)?.createRole === true;
}

export function permissionDenied(message: string): SqlError {
  return new SqlError(SqlState.insufficientPrivilege, message);
}
