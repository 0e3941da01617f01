// ALTER DEFAULT PRIVILEGES (PostgreSQL 15's pg_default_acl): the ACL a role's new tables (views,
// materialized views) and sequences start with. An entry without IN SCHEMA replaces the built-in default
// (the owner holds every privilege) for the role's objects; an entry IN SCHEMA public adds to it. An
// entry that comes back to where it started is removed. Entries for functions, types and schemas are
// kept (pg_default_acl shows them) but Pesto has no user functions or schemas to apply them to, and its
// types carry no ACL. Entries live in the catalog's object ACLs (replicated as any DDL), keyed by role,
// kind and schema.

import type { AlterDefaultPrivilegesStmt, GrantStmt, Node } from 'libpg-query';
import { aclAfterGrant, aclAfterRevoke } from './acl.ts';
import type { Catalog } from './catalog.ts';
import type { DdlOutcome } from './ddl-build.ts';
import { SqlError, SqlState } from './errors.ts';
import { unsupported } from './lower-expr.ts';
import { PRIVILEGE_LETTERS, SEQUENCE_PRIVILEGES, TABLE_PRIVILEGES, defaultAclKey, type AclItem, type DefaultAclKind } from './privileges.ts';
import { inheritedRoles, isSuperuser, permissionDenied, roleOid, specName, type DdlActor } from './roles.ts';

const KINDS: Readonly<Record<string, { readonly kind: DefaultAclKind; readonly all: string; readonly word: string }>> = {
  OBJECT_TABLE: { kind: 'r', all: TABLE_PRIVILEGES, word: 'relation' },
  OBJECT_SEQUENCE: { kind: 'S', all: SEQUENCE_PRIVILEGES, word: 'sequence' },
  OBJECT_FUNCTION: { kind: 'f', all: 'X', word: 'function' },
  OBJECT_PROCEDURE: { kind: 'f', all: 'X', word: 'procedure' },
  OBJECT_ROUTINE: { kind: 'f', all: 'X', word: 'routine' },
  OBJECT_TYPE: { kind: 'T', all: 'U', word: 'type' },
  OBJECT_SCHEMA: { kind: 'n', all: 'UC', word: 'schema' },
};

/** The built-in default ACL of a new object of `kind` owned by `owner` (acldefault). */
function builtIn(owner: number, kind: DefaultAclKind, all: string): AclItem[] {
  const own: AclItem = { grantee: owner, grantor: owner, privs: all, options: '' };
  return kind === 'f' || kind === 'T' ? [own, { grantee: 0, grantor: owner, privs: all, options: '' }] : [own];
}

function sameAcl(a: readonly AclItem[], b: readonly AclItem[]): boolean {
  const text = (x: readonly AclItem[]): string => x.map((i) => `${i.grantee}=${i.privs}*${i.options}/${i.grantor}`).sort().join(',');
  return text(a) === text(b);
}

function privilegeLetters(s: GrantStmt, all: string, word: string): string {
  if (s.privileges === undefined) return all;
  let out = '';
  for (const p of s.privileges) {
    if (!('AccessPriv' in p)) continue;
    const name = (p.AccessPriv.priv_name ?? '').toLowerCase();
    const l = name === 'execute' ? 'X' : PRIVILEGE_LETTERS[name];
    if (l === undefined || !all.includes(l)) throw new SqlError(SqlState.invalidGrantOperation, `invalid privilege type ${name.toUpperCase()} for ${word}`);
    if (!out.includes(l)) out += l;
  }
  return [...all].filter((c) => out.includes(c)).join('');
}

function optionList(s: AlterDefaultPrivilegesStmt, name: string): readonly Node[] | null {
  for (const o of s.options ?? []) {
    if ('DefElem' in o && o.DefElem.defname === name) {
      const arg = o.DefElem.arg;
      return arg !== undefined && 'List' in arg ? arg.List.items ?? [] : [];
    }
  }
  return null;
}

/** ALTER DEFAULT PRIVILEGES [FOR ROLE r, ...] [IN SCHEMA public] GRANT / REVOKE ... ON TABLES | SEQUENCES | FUNCTIONS | TYPES | SCHEMAS. */
export function alterDefaultPrivileges(catalog: Catalog, s: AlterDefaultPrivilegesStmt, actor: DdlActor): DdlOutcome {
  const g = s.action;
  if (g === undefined) throw unsupported('ALTER DEFAULT PRIVILEGES without an action');
  const spec = KINDS[g.objtype ?? ''];
  if (spec === undefined) throw unsupported(`ALTER DEFAULT PRIVILEGES on ${String(g.objtype).replace('OBJECT_', '').toLowerCase()}s`);
  const schemas = (optionList(s, 'schemas') ?? []).map((n) => ('String' in n ? n.String.sval ?? '' : ''));
  for (const name of schemas) if (name !== 'public') throw new SqlError(SqlState.invalidSchemaName, `schema "${name}" does not exist`);
  if (schemas.length > 0 && spec.kind === 'n') throw new SqlError(SqlState.invalidGrantOperation, 'cannot use IN SCHEMA clause when using GRANT/REVOKE ON SCHEMAS');
  const roleNodes = optionList(s, 'roles');
  const roles = roleNodes === null ? [actor.oid] : roleNodes.flatMap((n) => ('RoleSpec' in n ? [roleOid(catalog, actor, specName(catalog, actor, n.RoleSpec) ?? 'public')] : []));
  if (actor.check && !isSuperuser(catalog, actor)) {
    for (const r of roles) if (!inheritedRoles(catalog, actor.oid).has(r)) throw permissionDenied('permission denied to change default privileges');
  }
  const grantees = (g.grantees ?? []).flatMap((n) => ('RoleSpec' in n ? [n.RoleSpec] : [])).map((r) => {
    const name = specName(catalog, actor, r);
    return name === null ? 0 : roleOid(catalog, actor, name);
  });
  const privs = privilegeLetters(g, spec.all, spec.word);
  const grant = g.is_grant === true;
  for (const role of roles) {
    for (const inPublic of schemas.length > 0 ? [true] : [false]) {
      const key = defaultAclKey(role, spec.kind, inPublic);
      const base = builtIn(role, spec.kind, spec.all);
      // A removed entry is kept as an empty list.
      const stored = catalog.objectAcl(key) ?? [];
      const o = { owner: role, acl: stored.length > 0 ? stored : inPublic ? [] : base };
      const next = grant
        ? aclAfterGrant(o, grantees, role, privs, g.grant_option === true, spec.all)
        : aclAfterRevoke(o, grantees, role, privs, g.grant_option === true, g.behavior === 'DROP_CASCADE', spec.all);
      // Back to the built-in default (globally) or to nothing added (in the schema): no entry.
      const entry = (inPublic ? next.length === 0 : sameAcl(next, base)) ? [] : next;
      if (!sameAcl(entry, stored)) catalog.setObjectAcl(key, entry);
    }
  }
  return { tag: 'ALTER DEFAULT PRIVILEGES', touched: [] };
}

/**
 * The ACL a new object of `kind` owned by `owner` starts with, or undefined for the built-in default:
 * the role's global entry (or the built-in default) with what its IN SCHEMA public entry adds.
 */
export function initialAcl(catalog: Catalog, owner: number, kind: 'r' | 'S'): readonly AclItem[] | undefined {
  const global = catalog.objectAcl(defaultAclKey(owner, kind, false)) ?? [];
  const added = catalog.objectAcl(defaultAclKey(owner, kind, true)) ?? [];
  if (global.length === 0 && added.length === 0) return undefined;
  const all = kind === 'r' ? TABLE_PRIVILEGES : SEQUENCE_PRIVILEGES;
  let acl: readonly AclItem[] = global.length > 0 ? global : builtIn(owner, kind, all);
  // What the schema's entry adds, granted as its grantors granted it (with their grant options).
  for (const a of added) {
    acl = aclAfterGrant({ owner, acl }, [a.grantee], a.grantor, a.privs, false, all);
    if (a.options !== '') acl = aclAfterGrant({ owner, acl }, [a.grantee], a.grantor, a.options, true, all);
  }
  return acl;
}
