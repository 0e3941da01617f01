// has_table_privilege, has_sequence_privilege, has_schema_privilege and has_database_privilege as
// PostgreSQL 15 answers them (acl.c): for the session's user or a named role, a privilege list
// ('SELECT, INSERT WITH GRANT OPTION': any one held is enough), 22023 for a word the object kind lacks.
// They read the catalog and the session's identity, so the client running the statement answers them
// (lower-statement.ts's `atClient`). Objects are named by text ('t', 'public.t'); the schema public's
// and the database's ACLs are schema-privileges.ts's; pg_catalog and information_schema are usable by all.

import type { Catalog } from './catalog.ts';
import { hasPrivilege, requireRelation } from './acl.ts';
import { SqlError, SqlState } from './errors.ts';
import type { SessionIdentity } from './exec-context.ts';
import { PRIVILEGE_LETTERS } from './privileges.ts';
import { databaseAcl, holds, schemaAcl } from './schema-privileges.ts';
import { actorOf, bootstrapOf, isSuperuser, roleOid } from './roles.ts';
import type { SqlValue } from './types.ts';


const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  has_table_privilege: ['select', 'insert', 'update', 'delete', 'truncate', 'references', 'trigger'],
  has_sequence_privilege: ['usage', 'select', 'update'],
  has_schema_privilege: ['create', 'usage'],
  has_database_privilege: ['create', 'connect', 'temporary', 'temp'],
};

/** The privilege letters a list names, each with whether it asks for the grant option. */
function parsePrivileges(fn: string, text: string): { letter: string; option: boolean }[] {
  return text.split(',').map((part) => {
    const m = /^\s*(\w+)(\s+with\s+grant\s+option)?\s*$/i.exec(part);
    const word = m?.[1]?.toLowerCase() ?? '';
    if (m === null || !ALLOWED[fn]!.includes(word)) throw new SqlError(SqlState.invalidParameterValue, `unrecognized privilege type: "${part.trim()}"`);
    return { letter: PRIVILEGE_LETTERS[word === 'temp' ? 'temporary' : word]!, option: m[2] !== undefined };
  });
}

/** A relation name as text, optionally qualified by public. */
function relationName(text: string): string {
  const m = /^(?:(?:"public"|public)\.)?(?:"((?:[^"]|"")*)"|(\S+))$/.exec(text.trim());
  if (m === null) return text;
  return m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]!.toLowerCase();
}

export function evalPrivilegeFunction(fn: string, args: readonly SqlValue[], catalog: Catalog | undefined, identity: SessionIdentity | undefined): boolean | null {
  if (catalog === undefined || identity === undefined) throw new SqlError(SqlState.featureNotSupported, `${fn} is not available in statements the replicas run: the client answers it`);
  if (args.some((a) => a === null)) return null;
  const [who, object, privileges] = args.length === 3 ? [String(args[0]), String(args[1]), String(args[2])] : [null, String(args[0]), String(args[1])];
  const self = actorOf(catalog, identity);
  const actor = who === null ? self : { ...self, oid: roleOid(catalog, { ...self, bootstrap: bootstrapOf(catalog, identity) }, who) };
  const wanted = parsePrivileges(fn, privileges);
  const superuser = isSuperuser(catalog, actor);
  switch (fn) {
    case 'has_table_privilege':
    case 'has_sequence_privilege': {
      const name = relationName(object);
      const r = requireRelation(catalog, name, false)!;
      if (fn === 'has_sequence_privilege' && r.k !== 'sequence') throw new SqlError(SqlState.wrongObjectType, `"${name}" is not a sequence`);
      return wanted.some((w) => hasPrivilege(catalog, actor.bootstrap, actor.oid, r.def, w.letter, w.option));
    }
    case 'has_schema_privilege': {
      const schema = object.trim();
      if (schema !== 'public' && schema !== 'pg_catalog' && schema !== 'information_schema') throw new SqlError(SqlState.invalidSchemaName, `schema "${schema}" does not exist`);
      if (schema !== 'public') return superuser || wanted.some((w) => w.letter === 'U' && !w.option);
      return wanted.some((w) => holds(catalog, actor, schemaAcl(catalog), w.letter, w.option));
    }
    default: {
      if (object !== identity.database) throw new SqlError('3D000', `database "${object}" does not exist`);
      return wanted.some((w) => holds(catalog, actor, databaseAcl(catalog), w.letter, w.option));
    }
  }
}
