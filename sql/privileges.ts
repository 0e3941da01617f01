// Owners and access privileges of relations (tables, views, materialized views, sequences), as
// PostgreSQL 15 keeps them in pg_class.relowner and relacl. A relation is owned by the role that created
// it (sql/roles.ts: the DDL actor); absent, by the first bootstrap superuser (a catalog written before
// roles existed). An ACL absent means the default (the owner holds everything, nobody else anything;
// relacl NULL), as PostgreSQL's; the first GRANT or REVOKE makes it explicit, starting from the
// owner's full privileges.

import type { Catalog } from './catalog.ts';
import { roleName } from './roles.ts';

/** One aclitem: `grantee` (0: PUBLIC) holds `privs` (PostgreSQL's letters), `options` of them with GRANT OPTION, from `grantor`. */
export interface AclItem {
  readonly grantee: number;
  readonly grantor: number;
  readonly privs: string;
  readonly options: string;
}

/** What owned relations carry. */
export interface Owned {
  /** The owning role's oid; absent: the first bootstrap superuser's (10). */
  readonly owner?: number;
  /** The relation's ACL; absent: the default. */
  readonly acl?: readonly AclItem[];
}

export const DEFAULT_OWNER = 10;

export function ownerOf(o: Owned): number {
  return o.owner ?? DEFAULT_OWNER;
}

/** PostgreSQL's letters for each privilege, in its aclitem order. */
export const PRIVILEGE_LETTERS: Readonly<Record<string, string>> = {
  insert: 'a', select: 'r', update: 'w', delete: 'd', truncate: 'D', references: 'x', trigger: 't', usage: 'U', create: 'C', connect: 'c', temporary: 'T',
};
/** All privileges of a table (and view, materialized view) and of a sequence, in aclitem order. */
export const TABLE_PRIVILEGES = 'arwdDxt';
export const SEQUENCE_PRIVILEGES = 'rwU';

/**
 * What role `oid` owns or holds privileges on (DROP ROLE's 2BP01 DETAIL lines, as PostgreSQL words
 * them: "owner of table t", "privileges for table t").
 */
export function ownedBy(catalog: Catalog, oid: number, database = '', bootstrap: readonly string[] = []): string[] {
  // PostgreSQL lists them by object oid: the schema public's (2200) first, then relations as created.
  const out: string[] = [];
  const held = (acl: readonly AclItem[] | undefined): boolean => (acl ?? []).some((a) => a.grantee === oid || a.grantor === oid);
  if (held(catalog.objectAcl('schema public'))) out.push('privileges for schema public');
  const visit = (o: Owned, what: string): void => {
    if (ownerOf(o) === oid) out.push(`owner of ${what}`);
    else if (held(o.acl)) out.push(`privileges for ${what}`);
  };
  for (const t of catalog.list()) visit(t, `${t.matview !== undefined ? 'materialized view' : 'table'} ${t.name}`);
  for (const s of catalog.listSequences()) visit(s, `sequence ${s.name}`);
  for (const v of catalog.listViews()) visit(v, `view ${v.name}`);
  for (const e of catalog.listEnums()) visit(e, `type ${e.name}`);
  if (held(catalog.objectAcl('database'))) out.push(`privileges for database ${database}`);
  // ALTER DEFAULT PRIVILEGES' entries the role has or is named in (sql/default-privileges.ts).
  for (const d of defaultAclEntries(catalog.listObjectAcls())) {
    const what = `default privileges on new ${DEFAULT_ACL_WORDS[d.kind]} belonging to role ${roleName(catalog, bootstrap, d.role) ?? d.role}${d.inPublic ? ' in schema public' : ''}`;
    if (d.role === oid) out.push(`owner of ${what}`);
    else if (held(d.acl)) out.push(`privileges for ${what}`);
  }
  return out;
}

const DEFAULT_ACL_WORDS: Readonly<Record<string, string>> = { r: 'relations', S: 'sequences', f: 'functions', T: 'types', n: 'schemas' };

// ALTER DEFAULT PRIVILEGES' entries (sql/default-privileges.ts), kept among the catalog's object ACLs.

/** pg_default_acl's defaclobjtype: tables, sequences, functions, types, schemas. */
export type DefaultAclKind = 'r' | 'S' | 'f' | 'T' | 'n';

const PREFIX = 'default acl ';

/** The catalog key of role `role`'s entry for `kind`, global or IN SCHEMA public. */
export function defaultAclKey(role: number, kind: DefaultAclKind, inPublic: boolean): string {
  return `${PREFIX}${role} ${kind}${inPublic ? ' public' : ''}`;
}

/** Every entry: its role, kind, schema (public or none) and ACL, for pg_default_acl. */
export function defaultAclEntries(acls: ReadonlyMap<string, readonly AclItem[]>): { role: number; kind: DefaultAclKind; inPublic: boolean; acl: readonly AclItem[] }[] {
  const out: { role: number; kind: DefaultAclKind; inPublic: boolean; acl: readonly AclItem[] }[] = [];
  for (const [key, acl] of acls) {
    if (!key.startsWith(PREFIX) || acl.length === 0) continue;
    const [role, kind, schema] = key.slice(PREFIX.length).split(' ');
    out.push({ role: Number(role), kind: kind as DefaultAclKind, inPublic: schema === 'public', acl });
  }
  return out;
}
