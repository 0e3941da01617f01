// Ownership and privilege DDL (sql/privileges.ts): owners stamped on the relations a statement creates,
// ALTER TABLE / VIEW / SEQUENCE / MATERIALIZED VIEW ... OWNER TO, GRANT / REVOKE on tables, views,
// sequences and ALL TABLES / SEQUENCES IN SCHEMA public, and the owner checks PostgreSQL 15 makes
// before DDL on an existing relation (42501 "must be owner of table t"). Column privileges are refused
// (0A000). Creating a relation needs CREATE on the schema public (schema-privileges.ts, which also has
// GRANT / REVOKE ON SCHEMA and ON DATABASE).

import type { AlterTableStmt, GrantStmt, Node } from 'libpg-query';
import { initialAcl } from './default-privileges.ts';
import type { Catalog } from './catalog.ts';
import type { DdlOutcome } from './ddl-build.ts';
import { SqlError, SqlState } from './errors.ts';
import { unsupported } from './lower-expr.ts';
import { aclAfterGrant, aclAfterRevoke, hasPrivilege, relationKind, requireRelation, type Relation } from './acl.ts';
import { ownerOf, PRIVILEGE_LETTERS, SEQUENCE_PRIVILEGES, TABLE_PRIVILEGES, type Owned } from './privileges.ts';
import { checkCreateInSchema, grantOnObject } from './schema-privileges.ts';
import { inheritedRoles, isSuperuser, permissionDenied, roleOid, specName, type DdlActor } from './roles.ts';

/** The ids of what exists before a statement, to tell what it created. */
export interface Existing {
  readonly tables: ReadonlySet<number>;
  readonly tableNames: ReadonlySet<string>;
  readonly sequences: ReadonlySet<number>;
  readonly views: ReadonlySet<number>;
  readonly enums: ReadonlySet<number>;
}

export function createdBefore(catalog: Catalog): Existing {
  return {
    tables: new Set(catalog.list().map((t) => t.id)), tableNames: new Set(catalog.list().map((t) => t.name)),
    sequences: new Set(catalog.listSequences().map((s) => s.id)), views: new Set(catalog.listViews().map((v) => v.id)),
    enums: new Set(catalog.listEnums().map((e) => e.oid)),
  };
}

/** What the statement created is owned by `oid` (a renamed or moved table is not new). */
export function stampOwners(catalog: Catalog, before: Existing, oid: number): void {
  // A sequence a column owns (SERIAL, identity; ALTER TABLE may add one) is its table's owner's.
  for (const s of catalog.listSequences()) {
    if (before.sequences.has(s.id) || s.owner !== undefined) continue;
    const table = s.ownedBy === null ? undefined : catalog.get(s.ownedBy.table);
    const owner = table !== undefined && before.tables.has(table.id) ? ownerOf(table) : oid;
    if (owner !== 10) catalog.putSequence({ ...s, owner });
  }
  if (oid !== 10) { // else the default owner
    for (const t of catalog.list()) if (!before.tables.has(t.id) && !before.tableNames.has(t.name) && t.owner === undefined) catalog.put({ ...t, owner: oid });
    for (const v of catalog.listViews()) if (!before.views.has(v.id) && v.owner === undefined) catalog.putView({ ...v, owner: oid });
    for (const e of catalog.listEnums()) if (!before.enums.has(e.oid) && e.owner === undefined) catalog.putEnum({ ...e, owner: oid });
  }
  // New relations start with their owner's default privileges (ALTER DEFAULT PRIVILEGES), if any.
  for (const t of catalog.list()) {
    if (before.tables.has(t.id) || before.tableNames.has(t.name) || t.acl !== undefined) continue;
    const acl = initialAcl(catalog, ownerOf(t), 'r');
    if (acl !== undefined) catalog.put({ ...t, acl });
  }
  for (const v of catalog.listViews()) {
    if (before.views.has(v.id) || v.acl !== undefined) continue;
    const acl = initialAcl(catalog, ownerOf(v), 'r');
    if (acl !== undefined) catalog.putView({ ...v, acl });
  }
  for (const q of catalog.listSequences()) {
    if (before.sequences.has(q.id) || q.acl !== undefined) continue;
    const acl = initialAcl(catalog, ownerOf(q), 'S');
    if (acl !== undefined) catalog.putSequence({ ...q, acl });
  }
}

export function isOwnerChange(s: AlterTableStmt): boolean {
  const cmds = s.cmds ?? [];
  return cmds.length > 0 && cmds.every((c) => 'AlterTableCmd' in c && c.AlterTableCmd.subtype === 'AT_ChangeOwner');
}

function ownsOrSuper(catalog: Catalog, actor: DdlActor, o: Owned): boolean {
  return isSuperuser(catalog, actor) || inheritedRoles(catalog, actor.oid).has(ownerOf(o));
}

function mustOwn(catalog: Catalog, actor: DdlActor, r: Relation): void {
  if (!ownsOrSuper(catalog, actor, r.def)) throw permissionDenied(`must be owner of ${relationKind(r)} ${r.def.name}`);
}

/** ALTER ... OWNER TO role (PostgreSQL 15: the owner, or a superuser, to a role it is a member of). */
export function changeOwner(catalog: Catalog, s: AlterTableStmt, actor: DdlActor): DdlOutcome {
  const name = s.relation?.relname ?? '';
  const tag = s.objtype === 'OBJECT_SEQUENCE' ? 'ALTER SEQUENCE' : s.objtype === 'OBJECT_VIEW' ? 'ALTER VIEW' : s.objtype === 'OBJECT_MATVIEW' ? 'ALTER MATERIALIZED VIEW' : 'ALTER TABLE';
  const r = requireRelation(catalog, name, s.missing_ok === true);
  if (r === null) return { tag, touched: [], notice: `relation "${name}" does not exist, skipping` };
  for (const c of s.cmds ?? []) {
    if (!('AlterTableCmd' in c)) continue;
    const to = specName(catalog, actor, c.AlterTableCmd.newowner) ?? 'public';
    const oid = roleOid(catalog, actor, to);
    if (actor.check && !isSuperuser(catalog, actor)) {
      mustOwn(catalog, actor, r);
      if (!inheritedRoles(catalog, actor.oid).has(oid)) throw permissionDenied(`must be member of role "${to}"`);
    }
    setOwned(catalog, r, { owner: oid, ...(r.def.acl !== undefined ? { acl: r.def.acl.map((a) => ({ ...a, grantee: a.grantee === ownerOf(r.def) ? oid : a.grantee, grantor: a.grantor === ownerOf(r.def) ? oid : a.grantor })) } : {}) });
    // A table's owned sequences (SERIAL, identity) follow it.
    if (r.k === 'table') for (const seq of catalog.ownedSequences(name)) catalog.putSequence({ ...seq, owner: oid });
  }
  return { tag, touched: [] };
}

function setOwned(catalog: Catalog, r: Relation, change: Owned): void {
  if (r.k === 'table') catalog.put({ ...r.def, ...change });
  else if (r.k === 'view') catalog.putView({ ...r.def, ...change });
  else catalog.putSequence({ ...r.def, ...change });
}

/** The owner checks PostgreSQL makes before DDL on an existing relation. */
export function checkDdlPrivileges(catalog: Catalog, actor: DdlActor, n: Node): void {
  if (isSuperuser(catalog, actor)) return;
  if ('CreateStmt' in n || 'ViewStmt' in n || 'CreateSeqStmt' in n || 'CreateEnumStmt' in n || ('CreateTableAsStmt' in n && n.CreateTableAsStmt.objtype === 'OBJECT_MATVIEW')) checkCreateInSchema(catalog, actor);
  const checkType = (name: string | undefined): void => {
    const e = name === undefined ? undefined : catalog.enumType(name);
    if (e !== undefined && !ownsOrSuper(catalog, actor, e)) throw permissionDenied(`must be owner of type ${e.name}`);
  };
  const check = (name: string | undefined): void => {
    const r = name === undefined ? null : requireRelation(catalog, name, true);
    if (r !== null) mustOwn(catalog, actor, r);
  };
  if ('DropStmt' in n) {
    const kind = n.DropStmt.removeType;
    for (const o of n.DropStmt.objects ?? []) {
      const items = 'List' in o ? o.List.items ?? [] : [o];
      const last = items[items.length - 1];
      const name = last !== undefined && 'String' in last ? last.String.sval : undefined;
      if (kind === 'OBJECT_TYPE') checkType(name);
      else if (kind === 'OBJECT_INDEX') check(name === undefined ? undefined : catalog.findIndex(name)?.table.name);
      else if (kind === 'OBJECT_TABLE' || kind === 'OBJECT_VIEW' || kind === 'OBJECT_SEQUENCE' || kind === 'OBJECT_MATVIEW') check(name);
    }
  } else if ('AlterTableStmt' in n && !isOwnerChange(n.AlterTableStmt)) check(n.AlterTableStmt.relation?.relname);
  else if ('IndexStmt' in n) check(n.IndexStmt.relation?.relname);
  else if ('RenameStmt' in n && n.RenameStmt.relation !== undefined) check(n.RenameStmt.relation.relname);
  else if ('AlterSeqStmt' in n) check(n.AlterSeqStmt.sequence?.relname);
  else if ('AlterEnumStmt' in n) checkType(lastName(n.AlterEnumStmt.typeName));
  else if ('RenameStmt' in n && n.RenameStmt.renameType === 'OBJECT_TYPE') checkType(lastName(n.RenameStmt.object !== undefined && 'List' in n.RenameStmt.object ? n.RenameStmt.object.List.items : undefined));
  else if ('RefreshMatViewStmt' in n) check(n.RefreshMatViewStmt.relation?.relname);
  else if ('TruncateStmt' in n) {
    for (const r of n.TruncateStmt.relations ?? []) {
      const name = 'RangeVar' in r ? r.RangeVar.relname ?? '' : '';
      const rel = requireRelation(catalog, name, true);
      if (rel !== null && !hasPrivilege(catalog, actor.bootstrap, actor.oid, rel.def, 'D')) throw permissionDenied(`permission denied for table ${name}`);
    }
  }
}

/** The last name of a qualified name list (a type's). */
function lastName(items: readonly Node[] | undefined): string | undefined {
  const last = items?.[items.length - 1];
  return last !== undefined && 'String' in last ? last.String.sval : undefined;
}

/** The privilege letters a GRANT/REVOKE names for relations of kind `seq` (ALL: every one; null: some name is not one of them). */
function letters(s: GrantStmt, seq: boolean, onTable: boolean, notices: string[], name: string): string {
  const all = seq ? SEQUENCE_PRIVILEGES : TABLE_PRIVILEGES;
  if (s.privileges === undefined) return all;
  let out = '';
  for (const p of s.privileges) {
    if (!('AccessPriv' in p)) continue;
    if (p.AccessPriv.cols !== undefined) throw unsupported('column privileges');
    const word = (p.AccessPriv.priv_name ?? '').toLowerCase();
    const l = PRIVILEGE_LETTERS[word];
    if (l === undefined || !all.includes(l)) {
      if (seq && onTable && l !== undefined && TABLE_PRIVILEGES.includes(l)) {
        notices.push(`sequence "${name}" only supports USAGE, SELECT, and UPDATE privileges`);
        continue;
      }
      throw new SqlError(SqlState.invalidGrantOperation, `invalid privilege type ${word.toUpperCase()} for ${seq && !onTable ? 'sequence' : 'table'}`);
    }
    if (!out.includes(l)) out += l;
  }
  return [...all].filter((c) => out.includes(c)).join('');
}

/** GRANT / REVOKE privileges ON [TABLE] t | SEQUENCE s | ALL TABLES / SEQUENCES IN SCHEMA public. */
export function grant(catalog: Catalog, s: GrantStmt, actor: DdlActor): DdlOutcome {
  const tag = s.is_grant === true ? 'GRANT' : 'REVOKE';
  // GRANTED BY may name only the current role (PostgreSQL 15).
  if (s.grantor !== undefined && roleOid(catalog, actor, specName(catalog, actor, s.grantor) ?? 'public') !== actor.oid) throw new SqlError(SqlState.featureNotSupported, 'grantor must be current user');
  if ((s.objtype === 'OBJECT_SCHEMA' || s.objtype === 'OBJECT_DATABASE') && s.targtype === 'ACL_TARGET_OBJECT') return grantOnObject(catalog, s, actor);
  if (s.objtype !== 'OBJECT_TABLE' && s.objtype !== 'OBJECT_SEQUENCE') throw unsupported(`${tag} on ${String(s.objtype).replace('OBJECT_', '').toLowerCase()} objects`);
  const onTable = s.objtype === 'OBJECT_TABLE';
  let targets: Relation[];
  if (s.targtype === 'ACL_TARGET_ALL_IN_SCHEMA') {
    for (const o of s.objects ?? []) {
      const schema = 'String' in o ? o.String.sval ?? '' : '';
      if (schema !== 'public') throw new SqlError(SqlState.invalidSchemaName, `schema "${schema}" does not exist`);
    }
    targets = onTable
      ? [...catalog.list().map((def): Relation => ({ k: 'table', def })), ...catalog.listViews().map((def): Relation => ({ k: 'view', def }))]
      : catalog.listSequences().map((def): Relation => ({ k: 'sequence', def }));
  } else if (s.targtype === 'ACL_TARGET_OBJECT') {
    targets = (s.objects ?? []).map((o) => {
      const name = 'RangeVar' in o ? o.RangeVar.relname ?? '' : '';
      const r = requireRelation(catalog, name, false)!;
      if (!onTable && r.k !== 'sequence') throw new SqlError(SqlState.wrongObjectType, `"${name}" is not a sequence`);
      return r;
    });
  } else throw unsupported(`${tag} ... ON ${String(s.targtype)}`);
  const grantees = (s.grantees ?? []).flatMap((n) => ('RoleSpec' in n ? [n.RoleSpec] : [])).map((spec) => {
    const name = specName(catalog, actor, spec);
    return name === null ? 0 : roleOid(catalog, actor, name);
  });
  const notices: string[] = [];
  for (const r of targets) {
    const privs = letters(s, r.k === 'sequence', onTable, notices, r.def.name);
    if (privs === '') continue;
    const owner = ownerOf(r.def);
    // A superuser grants as the owner (PostgreSQL's rule); anyone else as itself, with the grant options it holds.
    const grantor = isSuperuser(catalog, actor) || inheritedRoles(catalog, actor.oid).has(owner) ? owner : actor.oid;
    let allowed = privs;
    if (actor.check && grantor !== owner) {
      allowed = [...privs].filter((l) => hasPrivilege(catalog, actor.bootstrap, actor.oid, r.def, l, true)).join('');
      if (allowed === '') throw permissionDenied(`permission denied for ${relationKind(r)} ${r.def.name}`);
      if (allowed !== privs) notices.push(`not all privileges were ${s.is_grant === true ? 'granted' : 'revoked'} for "${r.def.name}"`);
    }
    const acl = s.is_grant === true
      ? aclAfterGrant(r.def, grantees, grantor, allowed, s.grant_option === true)
      : aclAfterRevoke(r.def, grantees, grantor, allowed, s.grant_option === true, s.behavior === 'DROP_CASCADE');
    setOwned(catalog, r, { acl });
  }
  return { tag, touched: [], ...(notices.length > 0 ? { notice: notices.join('\n') } : {}) };
}
