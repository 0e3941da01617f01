// Access control lists of relations (sql/privileges.ts): who holds what, GRANT and REVOKE as changes
// of a list, and aclitem text as PostgreSQL prints it (`alice=arw*/bob`, PUBLIC as an empty name).

import type { Catalog, TableDef, ViewDef } from './catalog.ts';
import { SqlError, SqlState } from './errors.ts';
import { ownerOf, SEQUENCE_PRIVILEGES, TABLE_PRIVILEGES, type AclItem, type Owned } from './privileges.ts';
import { inheritedRoles, isSuperuser, type DdlActor } from './roles.ts';
import type { SequenceDef } from './sequences.ts';

export type Relation =
  | { readonly k: 'table'; readonly def: TableDef }
  | { readonly k: 'view'; readonly def: ViewDef }
  | { readonly k: 'sequence'; readonly def: SequenceDef };

/** The relation `name` names; null when none does and `missingOk`, else 42P01. */
export function requireRelation(catalog: Catalog, name: string, missingOk: boolean): Relation | null {
  const t = catalog.get(name);
  if (t !== undefined) return { k: 'table', def: t };
  const v = catalog.getView(name);
  if (v !== undefined) return { k: 'view', def: v };
  const s = catalog.sequence(name);
  if (s !== undefined) return { k: 'sequence', def: s };
  if (missingOk) return null;
  throw new SqlError(SqlState.undefinedTable, `relation "${name}" does not exist`);
}

/** The word PostgreSQL's messages use for the relation's kind. */
export function relationKind(r: Relation): string {
  return r.k === 'table' ? (r.def.matview !== undefined ? 'materialized view' : 'table') : r.k;
}

/** The relation's ACL with the default made explicit (the owner holds every privilege). */
export function effectiveAcl(o: Owned, all: string): readonly AclItem[] {
  return o.acl ?? [{ grantee: ownerOf(o), grantor: ownerOf(o), privs: all, options: '' }];
}

function allOf(o: Owned): string {
  return 'counter' in o ? SEQUENCE_PRIVILEGES : TABLE_PRIVILEGES;
}

/**
 * Whether role `oid` holds privilege `letter` on `o` (with `withOption`: may grant it): superusers and
 * the owner hold everything; others through the ACL, as themselves, PUBLIC or a role they inherit from.
 */
export function hasPrivilege(catalog: Catalog, bootstrap: readonly string[], oid: number, o: Owned, letter: string, withOption = false): boolean {
  const actor: DdlActor = { oid, bootstrap, check: true };
  if (isSuperuser(catalog, actor)) return true;
  const roles = inheritedRoles(catalog, oid);
  if (roles.has(ownerOf(o))) return true;
  return effectiveAcl(o, allOf(o)).some((a) => (a.grantee === 0 || roles.has(a.grantee)) && (withOption ? a.options : a.privs).includes(letter));
}

function ordered(letters: string, all: string): string {
  return [...all].filter((c) => letters.includes(c)).join('');
}

/** `all`: every privilege of the object's kind, in aclitem order. */
export function aclAfterGrant(o: Owned, grantees: readonly number[], grantor: number, privs: string, option: boolean, all = allOf(o)): AclItem[] {
  const acl = [...effectiveAcl(o, all)];
  for (const g of grantees) {
    const at = acl.findIndex((a) => a.grantee === g && a.grantor === grantor);
    const old = acl[at] ?? { grantee: g, grantor, privs: '', options: '' };
    const next: AclItem = { ...old, privs: ordered(old.privs + privs, all), options: option ? ordered(old.options + privs, all) : old.options };
    if (at >= 0) acl[at] = next;
    else acl.push(next);
  }
  return acl;
}

export function aclAfterRevoke(o: Owned, grantees: readonly number[], grantor: number, privs: string, optionOnly: boolean, cascade: boolean, all = allOf(o)): AclItem[] {
  let acl = [...effectiveAcl(o, all)];
  for (const g of grantees) {
    const at = acl.findIndex((a) => a.grantee === g && a.grantor === grantor);
    const old = acl[at];
    if (old === undefined) continue;
    const lost = [...old.options].filter((c) => privs.includes(c)).join('');
    // Privileges the grantee passed on with the option it loses.
    const dependent = acl.filter((a) => a.grantor === g && g !== grantor && [...a.privs].some((c) => lost.includes(c)));
    if (dependent.length > 0 && !cascade) throw new SqlError(SqlState.dependentObjectsStillExist, 'dependent privileges exist', undefined, undefined, 'Use CASCADE to revoke them too.');
    const strip = (s: string): string => [...s].filter((c) => !privs.includes(c)).join('');
    acl[at] = { ...old, privs: optionOnly ? old.privs : strip(old.privs), options: strip(old.options) };
    if (cascade) acl = acl.map((a) => (a.grantor === g && g !== grantor ? { ...a, privs: [...a.privs].filter((c) => !lost.includes(c)).join(''), options: [...a.options].filter((c) => !lost.includes(c)).join('') } : a));
  }
  return acl.filter((a) => a.privs !== '');
}

/** A role name in an aclitem: quoted as PostgreSQL's putid does when it is not plain. */
function aclName(name: string): string {
  return /^[A-Za-z0-9_]+$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`;
}

/** The ACL as PostgreSQL prints relacl's items (`nameOf`: a role's name by oid); null for the default (relacl NULL). */
export function aclText(o: Owned, nameOf: (oid: number) => string | null): string[] | null {
  if (o.acl === undefined) return null;
  const name = (oid: number): string => (oid === 0 ? '' : aclName(nameOf(oid) ?? String(oid)));
  return o.acl.map((a) => `${name(a.grantee)}=${[...a.privs].map((c) => (a.options.includes(c) ? `${c}*` : c)).join('')}/${name(a.grantor)}`);
}
