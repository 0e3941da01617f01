// Owners and access privileges of relations (tables, views, materialized views, sequences), as
// PostgreSQL 15 keeps them in pg_class.relowner and relacl. A relation is owned by the role that created
// it (sql/roles.ts: the DDL actor); absent, by the first bootstrap superuser (a catalog written before
// roles existed). An ACL absent means the default (the owner holds everything, nobody else anything;
// relacl NULL), as PostgreSQL's; the first GRANT or REVOKE makes it explicit, starting from the
// owner's full privileges.

import type { Catalog } from './catalog.ts';

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
export function ownedBy(catalog: Catalog, oid: number, database = ''): string[] {
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
  return out;
}
