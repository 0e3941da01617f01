// The privilege checks of a query or DML statement, made where a session takes the statement (the
// engine session, the cluster client's SQL session), never in replicas' reconnaissance reads: on a
// cluster the gateway is the client that enforces them for its SQL users, as the BFT model trusts a
// client with its own users. As PostgreSQL 15 checks them: the relation an INSERT, UPDATE or DELETE
// writes needs that privilege (and SELECT when the statement reads its columns: WHERE, RETURNING, SET
// from columns); MERGE's target the privilege of each action it names (and SELECT when its ON
// condition or a WHEN MATCHED clause reads the target's columns); every other relation named needs
// SELECT; a view's own relations are checked as its owner (not here: a view's owner holds what it
// created it over, or the grant was made to it). Superusers skip every check. Caveat: a bare column
// name inside a subquery of MERGE's ON or WHEN MATCHED that the target also has counts as a read of
// the target (SELECT on it asked for where PostgreSQL may not ask).

import type { InsertStmt, MergeStmt, Node } from 'libpg-query';
import { someExpr } from './expr.ts';
import { sequenceIdOf } from './ddl-sequence.ts';
import type { Catalog } from './catalog.ts';
import { hasPrivilege, relationKind, requireRelation } from './acl.ts';
import type { SessionIdentity } from './exec-context.ts';
import { actorOf, isSuperuser, permissionDenied } from './roles.ts';
import { checkSchemaUsage } from './schema-privileges.ts';
import { eachNode } from './parse-tree.ts';

/** Names of relations a tree reads (RangeVars), less the names of its CTEs. */
function rangeVars(n: unknown, out: Set<string>, ctes: Set<string>): void {
  eachNode(n, (o) => {
    const r = o['RangeVar'] as { relname?: string; schemaname?: string } | undefined;
    if (r !== undefined && (r.schemaname === undefined || r.schemaname === 'public')) out.add(r.relname ?? '');
    const cte = o['CommonTableExpr'] as { ctename?: string } | undefined;
    if (cte !== undefined) ctes.add(cte.ctename ?? '');
  });
}

function returns(s: object): boolean {
  const o = s as { returningList?: unknown; returningClause?: unknown };
  return o.returningList !== undefined || o.returningClause !== undefined;
}

/** The sequence functions a tree calls on a sequence named by a constant: nextval and setval write it, currval reads it. */
function sequenceCalls(n: unknown, out: { name: string; fn: string }[]): void {
  eachNode(n, (o) => {
    const f = o['FuncCall'] as { funcname?: { String?: { sval?: string } }[]; args?: unknown[] } | undefined;
    if (f === undefined) return;
    const fn = f.funcname?.[f.funcname.length - 1]?.String?.sval;
    const m = /"sval":"([^"]*)"/.exec(JSON.stringify(f.args?.[0] ?? null));
    if ((fn === 'nextval' || fn === 'currval' || fn === 'setval') && m !== null) out.push({ name: m[1]!.replace(/^public\./, ''), fn });
  });
}

/**
 * The sequences an INSERT draws from through the defaults of the columns it leaves out (SERIAL's
 * nextval; an identity column's sequence needs no privilege, as in PostgreSQL).
 */
function defaultSequences(catalog: Catalog, s: InsertStmt): string[] {
  const t = catalog.get(s.relation?.relname ?? '');
  if (t === undefined) return [];
  const listed = (s.cols ?? []).map((c) => ('ResTarget' in c ? c.ResTarget.name ?? '' : ''));
  const values = s.selectStmt !== undefined && 'SelectStmt' in s.selectStmt ? s.selectStmt.SelectStmt.valuesLists?.[0] : undefined;
  const row = values !== undefined && 'List' in values ? values.List.items ?? [] : [];
  const visible = t.columns.filter((c) => !c.hidden && c.dropped !== true);
  const out: string[] = [];
  visible.forEach((c, i) => {
    if (c.default === null || c.identity !== undefined) return;
    const at = listed.length > 0 ? listed.indexOf(c.name) : s.selectStmt === undefined ? -1 : i < row.length || values === undefined ? i : -1;
    const item = at >= 0 && values !== undefined ? row[at] : undefined;
    if (at >= 0 && (item === undefined || !('SetToDefault' in item))) return;
    someExpr(c.default, (x) => {
      const id = sequenceIdOf(x);
      const seq = id === null ? undefined : catalog.sequenceById(id);
      if (seq !== undefined) out.push(seq.name);
      return false;
    });
  });
  return out;
}

const MERGE_PRIVILEGES: Readonly<Record<string, string>> = { CMD_UPDATE: 'w', CMD_DELETE: 'd', CMD_INSERT: 'a' };

/**
 * The privileges MERGE needs on its target: each action's, and SELECT when the ON condition or a WHEN
 * MATCHED clause reads a target column (named through the target's name, or bare: a name the source also
 * had would be ambiguous, 42702).
 */
function mergeTargetPrivileges(catalog: Catalog, s: MergeStmt): string[] {
  const name = s.relation?.relname ?? '';
  const alias = s.relation?.alias?.aliasname ?? name;
  const columns = new Set((catalog.get(name)?.columns ?? []).filter((c) => !c.hidden).map((c) => c.name));
  const clauses = (s.mergeWhenClauses ?? []).map((n) => ('MergeWhenClause' in n ? n.MergeWhenClause : {}));
  const out = clauses.flatMap((c) => MERGE_PRIVILEGES[c.commandType ?? ''] ?? []);
  let reads = false;
  const read = [s.joinCondition, ...clauses.filter((c) => c.matchKind === 'MERGE_WHEN_MATCHED').map((c) => [c.condition, c.targetList])];
  eachNode(read, (o) => {
    const fields = (o['ColumnRef'] as { fields?: { String?: { sval?: string } }[] } | undefined)?.fields;
    if (fields === undefined) return;
    const names = fields.map((f) => f.String?.sval);
    reads ||= names.length > 1 ? names[names.length - 2] === alias : columns.has(names[0] ?? '');
  });
  return reads ? [...out, 'r'] : out;
}

/** The sequences MERGE's INSERT actions draw from through defaults (as `defaultSequences` for INSERT ... VALUES). */
function mergeSequences(catalog: Catalog, s: MergeStmt): string[] {
  return (s.mergeWhenClauses ?? []).flatMap((n) => {
    const c = 'MergeWhenClause' in n ? n.MergeWhenClause : {};
    if (c.commandType !== 'CMD_INSERT') return [];
    const row = c.values === undefined ? {} : { selectStmt: { SelectStmt: { valuesLists: [{ List: { items: c.values } }] } } };
    return defaultSequences(catalog, { ...(s.relation === undefined ? {} : { relation: s.relation }), ...(c.targetList === undefined ? {} : { cols: c.targetList }), ...row });
  });
}

/**
 * Whether a session's statements are checked at all: not without an identity (the engine's own
 * sessions), nor a bootstrap superuser's (the common case, decided before any parse or catalog walk).
 */
export function checksPrivileges(identity: SessionIdentity | undefined): identity is SessionIdentity {
  return identity !== undefined && !(identity.bootstrap ?? []).includes(identity.user);
}

/** Throws 42501 when the session's role may not run `node` (a query or DML statement) on `catalog`. */
export function checkStatementPrivileges(catalog: Catalog, identity: SessionIdentity | undefined, node: Node): void {
  if (!checksPrivileges(identity) || !('SelectStmt' in node || 'InsertStmt' in node || 'UpdateStmt' in node || 'DeleteStmt' in node || 'MergeStmt' in node)) return;
  const actor = actorOf(catalog, identity);
  if (isSuperuser(catalog, actor)) return;
  const need = new Map<string, Set<string>>();
  const add = (name: string, letter: string): void => {
    const s = need.get(name) ?? new Set<string>();
    s.add(letter);
    need.set(name, s);
  };
  let target: string | null = null;
  let rest: unknown = node;
  if ('InsertStmt' in node) {
    const s = node.InsertStmt;
    target = s.relation?.relname ?? '';
    add(target, 'a');
    if (returns(s) || s.onConflictClause?.action === 'ONCONFLICT_UPDATE') add(target, 'r');
    if (s.onConflictClause?.action === 'ONCONFLICT_UPDATE') add(target, 'w');
    rest = { ...s, relation: undefined };
  } else if ('UpdateStmt' in node) {
    const s = node.UpdateStmt;
    target = s.relation?.relname ?? '';
    add(target, 'w');
    if (s.whereClause !== undefined || returns(s) || JSON.stringify(s.targetList ?? []).includes('"ColumnRef"')) add(target, 'r');
    rest = { ...s, relation: undefined };
  } else if ('DeleteStmt' in node) {
    const s = node.DeleteStmt;
    target = s.relation?.relname ?? '';
    add(target, 'd');
    if (s.whereClause !== undefined || returns(s)) add(target, 'r');
    rest = { ...s, relation: undefined };
  } else if ('MergeStmt' in node) {
    const s = node.MergeStmt;
    target = s.relation?.relname ?? '';
    for (const l of mergeTargetPrivileges(catalog, s)) add(target, l);
    rest = { ...s, relation: undefined };
  }
  const names = new Set<string>();
  const ctes = new Set<string>();
  rangeVars(rest, names, ctes);
  for (const name of names) if (!ctes.has(name)) add(name, 'r');
  let used = false;
  for (const [name, letters] of need) {
    const r = requireRelation(catalog, name, true);
    if (r === null) continue; // binding reports it (42P01), or it is a system catalog
    if (!used) {
      checkSchemaUsage(catalog, actor);
      used = true;
    }
    for (const l of letters) {
      if (!hasPrivilege(catalog, actor.bootstrap, actor.oid, r.def, l)) throw permissionDenied(`permission denied for ${relationKind(r)} ${name}`);
    }
  }
  // Sequences: nextval and setval need UPDATE (nextval: or USAGE), currval SELECT or USAGE (PostgreSQL's rules).
  const calls: { name: string; fn: string }[] = [];
  sequenceCalls(node, calls);
  if ('InsertStmt' in node) for (const name of defaultSequences(catalog, node.InsertStmt)) calls.push({ name, fn: 'nextval' });
  if ('MergeStmt' in node) for (const name of mergeSequences(catalog, node.MergeStmt)) calls.push({ name, fn: 'nextval' });
  for (const c of calls) {
    const seq = catalog.sequence(c.name);
    if (seq === undefined) continue;
    const any = c.fn === 'setval' ? 'w' : c.fn === 'nextval' ? 'Uw' : 'rU';
    if (![...any].some((l) => hasPrivilege(catalog, actor.bootstrap, actor.oid, seq, l))) throw permissionDenied(`permission denied for sequence ${seq.name}`);
  }
}
