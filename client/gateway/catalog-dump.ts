// The system catalog tables pg_dump reads that Pesto has no objects in (extensions, procedural
// languages, operators, text search, foreign data, casts, rules, policies, publications, triggers,
// large objects, ...): PostgreSQL 15's columns, in its order, with its types mapped to the engine's as
// system-catalog.ts maps them (oid as int4; regproc as int4, the function's oid, as these are
// compared with oids; "char" and pg_node_tree as text; aclitem[] as text[]). They are empty because Pesto has none of these objects; a dump lists none. pg_settings is
// the session's settings (session-settings.ts), filled before each query that reads it.
//
// `tableoid`: PostgreSQL's system column, the catalog's own oid, which pg_dump selects to identify
// objects. Here it is a last column of the tables pg_dump reads it from (Table.oid), filled with that
// catalog's oid, and a system column of the catalog's engine (sql/catalog.ts ColumnDef.system): named,
// never expanded by `*`.

import type { Table } from './catalog-constraints.ts';
import type { SessionSettings } from './session-settings.ts';
import type { SqlValue } from '../../sql/types.ts';

const empty = (name: string, oid: number | undefined, columns: string): Table => ({ name: `pg_catalog.${name}`, columns, ...(oid === undefined ? {} : { oid }) });

/** ALTER DEFAULT PRIVILEGES' entries (sql/default-privileges.ts), filled per session. */
export const PG_DEFAULT_ACL: Table = empty('pg_default_acl', 826, 'oid int4, defaclrole int4, defaclnamespace int4, defaclobjtype text, defaclacl text[]');

export const DUMP_EMPTY_TABLES: readonly Table[] = [
  empty('pg_extension', 3079, 'oid int4, extname name, extowner int4, extnamespace int4, extrelocatable bool, extversion text, extconfig int4[], extcondition text[]'),
  empty('pg_language', 2612, 'oid int4, lanname name, lanowner int4, lanispl bool, lanpltrusted bool, lanplcallfoid int4, laninline int4, lanvalidator int4, lanacl text[]'),
  empty('pg_operator', 2617, `oid int4, oprname name, oprnamespace int4, oprowner int4, oprkind text, oprcanmerge bool, oprcanhash bool, oprleft int4, oprright int4,
    oprresult int4, oprcom int4, oprnegate int4, oprcode int4, oprrest int4, oprjoin int4`),
  empty('pg_opclass', 2616, 'oid int4, opcmethod int4, opcname name, opcnamespace int4, opcowner int4, opcfamily int4, opcintype int4, opcdefault bool, opckeytype int4'),
  empty('pg_opfamily', 2753, 'oid int4, opfmethod int4, opfname name, opfnamespace int4, opfowner int4'),
  empty('pg_amop', 2602, 'oid int4, amopfamily int4, amoplefttype int4, amoprighttype int4, amopstrategy int2, amoppurpose text, amopopr int4, amopmethod int4, amopsortfamily int4'),
  empty('pg_amproc', 2603, 'oid int4, amprocfamily int4, amproclefttype int4, amprocrighttype int4, amprocnum int2, amproc int4'),
  empty('pg_ts_parser', 3601, 'oid int4, prsname name, prsnamespace int4, prsstart int4, prstoken int4, prsend int4, prsheadline int4, prslextype int4'),
  empty('pg_ts_template', 3764, 'oid int4, tmplname name, tmplnamespace int4, tmplinit int4, tmpllexize int4'),
  empty('pg_ts_dict', 3600, 'oid int4, dictname name, dictnamespace int4, dictowner int4, dicttemplate int4, dictinitoption text'),
  empty('pg_ts_config', 3602, 'oid int4, cfgname name, cfgnamespace int4, cfgowner int4, cfgparser int4'),
  empty('pg_foreign_data_wrapper', 2328, 'oid int4, fdwname name, fdwowner int4, fdwhandler int4, fdwvalidator int4, fdwacl text[], fdwoptions text[]'),
  empty('pg_foreign_server', 1417, 'oid int4, srvname name, srvowner int4, srvfdw int4, srvtype text, srvversion text, srvacl text[], srvoptions text[]'),
  empty('pg_foreign_table', undefined, 'ftrelid int4, ftserver int4, ftoptions text[]'),
  empty('pg_user_mapping', 1418, 'oid int4, umuser int4, umserver int4, umoptions text[]'),
  empty('pg_conversion', 2607, 'oid int4, conname name, connamespace int4, conowner int4, conforencoding int4, contoencoding int4, conproc int4, condefault bool'),
  empty('pg_cast', 2605, 'oid int4, castsource int4, casttarget int4, castfunc int4, castcontext text, castmethod text'),
  empty('pg_transform', 3576, 'oid int4, trftype int4, trflang int4, trffromsql int4, trftosql int4'),
  empty('pg_inherits', undefined, 'inhrelid int4, inhparent int4, inhseqno int4, inhdetachpending bool'),
  empty('pg_event_trigger', 3466, 'oid int4, evtname name, evtevent name, evtowner int4, evtfoid int4, evtenabled text, evttags text[]'),
  empty('pg_partitioned_table', undefined, 'partrelid int4, partstrat text, partnatts int2, partdefid int4, partattrs int2vector, partclass oidvector, partcollation oidvector, partexprs text'),
  empty('pg_statistic_ext', 3381, 'oid int4, stxrelid int4, stxname name, stxnamespace int4, stxowner int4, stxstattarget int4, stxkeys int2vector, stxkind text[], stxexprs text'),
  empty('pg_trigger', 2620, `oid int4, tgrelid int4, tgparentid int4, tgname name, tgfoid int4, tgtype int2, tgenabled text, tgisinternal bool, tgconstrrelid int4,
    tgconstrindid int4, tgconstraint int4, tgdeferrable bool, tginitdeferred bool, tgnargs int2, tgattr int2vector, tgargs bytea, tgqual text, tgoldtable name, tgnewtable name`),
  empty('pg_policy', 3256, 'oid int4, polname name, polrelid int4, polcmd text, polpermissive bool, polroles int4[], polqual text, polwithcheck text'),
  empty('pg_publication', 6104, 'oid int4, pubname name, pubowner int4, puballtables bool, pubinsert bool, pubupdate bool, pubdelete bool, pubtruncate bool, pubviaroot bool'),
  empty('pg_publication_rel', 6106, 'oid int4, prpubid int4, prrelid int4, prqual text, prattrs int2vector'),
  empty('pg_publication_namespace', 6237, 'oid int4, pnpubid int4, pnnspid int4'),
  empty('pg_subscription', 6100, `oid int4, subdbid int4, subskiplsn text, subname name, subowner int4, subenabled bool, subbinary bool, substream bool,
    subtwophasestate text, subdisableonerr bool, subconninfo text, subslotname name, subsynccommit text, subpublications text[]`),
  empty('pg_largeobject_metadata', 2995, 'oid int4, lomowner int4, lomacl text[]'),
  empty('pg_shseclabel', undefined, 'objoid int4, classoid int4, provider text, label text'),
  empty('pg_db_role_setting', undefined, 'setdatabase int4, setrole int4, setconfig text[]'),
  empty('pg_parameter_acl', 6243, 'oid int4, parname text, paracl text[]'),
  empty('pg_seclabels', undefined, 'objoid int4, classoid int4, objsubid int4, objtype text, objnamespace int4, objname text, provider text, label text'),
  empty('pg_proc', 1255, `oid int4, proname name, pronamespace int4, proowner int4, prolang int4, procost float4, prorows float4, provariadic int4, prosupport int4,
    prokind text, prosecdef bool, proleakproof bool, proisstrict bool, proretset bool, provolatile text, proparallel text, pronargs int2, pronargdefaults int2,
    prorettype int4, proargtypes oidvector, proallargtypes int4[], proargmodes text[], proargnames text[], proargdefaults text, protrftypes int4[], prosrc text,
    probin text, prosqlbody text, proconfig text[], proacl text[]`),
];

/** The default tablespace, the only one. */
export const PG_TABLESPACE: Table = { name: 'pg_catalog.pg_tablespace', columns: 'oid int4, spcname name, spcowner int4, spcacl text[], spcoptions text[]', oid: 1213 };
export const TABLESPACE_ROWS = [[1663, 'pg_default', 10, null, null], [1664, 'pg_global', 10, null, null]];

export const PG_SETTINGS: Table = {
  name: 'pg_catalog.pg_settings',
  columns: `name text, setting text, unit text, category text, short_desc text, extra_desc text, context text, vartype text, source text,
    min_val text, max_val text, enumvals text[], boot_val text, reset_val text, sourcefile text, sourceline int4, pending_restart bool`,
};

/** pg_settings' rows: each setting the session knows, as a string-typed one set by the user or left at its default. */
export function settingsRows(settings: SessionSettings): SqlValue[][] {
  return settings.listed().map((x) => [x.name, x.setting, null, '', '', null, 'user', 'string', x.changed ? 'session' : 'default',
    null, null, null, x.boot, x.boot, null, null, false]);
}

/** pg_class: PostgreSQL 15's columns (relfrozenxid and relminmxid, of type xid, as int4; relacl as text[]). */
export const PG_CLASS: Table = {
  name: 'pg_catalog.pg_class',
  columns: `oid int4, relname name, relnamespace int4, reltype int4, reloftype int4, relowner int4, relam int4, relfilenode int4, reltablespace int4,
    relpages int4, reltuples float4, relallvisible int4, reltoastrelid int4, relhasindex bool, relisshared bool, relpersistence text, relkind text,
    relnatts int2, relchecks int2, relhasrules bool, relhastriggers bool, relhassubclass bool, relrowsecurity bool, relforcerowsecurity bool,
    relispopulated bool, relreplident text, relispartition bool, relrewrite int4, relfrozenxid int4, relminmxid int4, relacl text[], reloptions text[],
    relpartbound text`,
  oid: 1259,
};

export interface ClassFacts {
  readonly oid: number;
  readonly relname: string;
  readonly relkind: 'r' | 'i' | 'S' | 'v' | 'm';
  /** 't': a temporary table; absent: 'p'. */
  readonly relpersistence?: 't';
  /** The relation's row type (pg_type): a table's; 0 for the others. */
  readonly reltype?: number;
  /** The access method: heap (2) for tables and materialized views, btree (403) for indexes, none (0) otherwise. */
  readonly relam: number;
  readonly relnatts: number;
  readonly relchecks?: number;
  readonly relhasindex?: boolean;
  readonly reltuples?: number;
  readonly relispopulated?: boolean;
  /** Its owner's oid (default the bootstrap superuser, 10) and its privileges (aclitem[] as text[]; default NULL). */
  readonly relowner?: number;
  readonly relacl?: SqlValue;
  /** Whether it takes part in a foreign key (PostgreSQL's RI triggers; pg_dump reads foreign keys only of such tables). */
  readonly relhastriggers?: boolean;
}

/** A relation's pg_class row, in the public schema, owned by the bootstrap superuser's oid, with PostgreSQL's defaults elsewhere. */
export function classRow(c: ClassFacts): SqlValue[] {
  const stored = c.relkind === 'r' || c.relkind === 'i' || c.relkind === 'S' || c.relkind === 'm';
  return [c.oid, c.relname, 2200, c.reltype ?? 0, 0, c.relowner ?? 10, c.relam, stored ? c.oid : 0, 0, 0, c.reltuples ?? -1, 0, 0, c.relhasindex ?? false, false, c.relpersistence ?? 'p', c.relkind,
    c.relnatts, c.relchecks ?? 0, c.relkind === 'v', c.relhastriggers ?? false, false, false, false, c.relispopulated ?? true, c.relkind === 'r' || c.relkind === 'm' ? 'd' : 'n',
    false, 0, c.relkind === 'r' || c.relkind === 'm' ? 1 : 0, c.relkind === 'r' || c.relkind === 'm' ? 1 : 0, c.relacl ?? null, null, null];
}

/** pg_attribute: PostgreSQL 15's columns (attmissingval, of type anyarray, as text; attacl as text[]). */
export const PG_ATTRIBUTE: Table = {
  name: 'pg_catalog.pg_attribute',
  columns: `attrelid int4, attname name, atttypid int4, attstattarget int4, attlen int2, attnum int2, attndims int4, attcacheoff int4, atttypmod int4,
    attbyval bool, attalign text, attstorage text, attcompression text, attnotnull bool, atthasdef bool, atthasmissing bool, attidentity text,
    attgenerated text, attisdropped bool, attislocal bool, attinhcount int4, attcollation int4, attacl text[], attoptions text[], attfdwoptions text[],
    attmissingval text`,
};

export interface AttributeFacts {
  readonly attrelid: number;
  readonly attname: string;
  readonly atttypid: number;
  readonly attlen: number;
  readonly attnum: number;
  readonly atttypmod: number;
  readonly attndims: number;
  readonly attnotnull: boolean;
  readonly atthasdef: boolean;
  readonly attidentity: string;
  readonly attgenerated: string;
  readonly attisdropped: boolean;
  readonly attcollation: number;
}

/** A column's pg_attribute row, with PostgreSQL's values for what Pesto does not vary (storage, statistics target, ...). */
export function attributeRow(a: AttributeFacts): SqlValue[] {
  const byval = a.attlen === 1 || a.attlen === 2 || a.attlen === 4 || a.attlen === 8;
  const align = a.attlen === 8 ? 'd' : a.attlen === 2 ? 's' : a.attlen === 1 || a.attlen === -2 ? 'c' : 'i';
  return [a.attrelid, a.attname, a.atttypid, -1, a.attlen, a.attnum, a.attndims, -1, a.atttypmod, byval, align, a.attlen === -1 ? 'x' : 'p', '', a.attnotnull,
    a.atthasdef, false, a.attidentity, a.attgenerated, a.attisdropped, true, 0, a.attcollation, null, null, null, null];
}

/**
 * pg_rewrite: each view's and materialized view's `_RETURN` rule (Pesto has no other rules). pg_dump
 * reads a view's dependencies from its rule's pg_depend rows, to create what it reads first.
 */
export const PG_REWRITE: Table = { name: 'pg_catalog.pg_rewrite', columns: 'oid int4, rulename name, ev_class int4, ev_type text, ev_enabled text, is_instead bool, ev_qual text, ev_action text', oid: 2618 };
const REWRITE_OID = 0x78000000;

/** A view's rule and its pg_depend rows: on the view ('i') and on each relation its query reads ('n', by their oids). */
export function viewRuleRows(viewOid: number, viewId: number, uses: readonly number[], push: (t: Table, row: SqlValue[]) => void, pgDepend: Table): void {
  const rule = REWRITE_OID + viewId;
  push(PG_REWRITE, [rule, '_RETURN', viewOid, '1', 'O', true, null, null]);
  push(pgDepend, [2618, rule, 0, 1259, viewOid, 0, 'i']);
  for (const oid of new Set(uses)) if (oid !== viewOid) push(pgDepend, [2618, rule, 0, 1259, oid, 0, 'n']);
}

/**
 * pg_init_privs: the privileges the system schemas had at initdb ('i'), which pg_dump compares their
 * ACLs with, so that a dump grants nothing on them (system-catalog.ts fills it with their ACLs).
 */
export const PG_INIT_PRIVS: Table = { name: 'pg_catalog.pg_init_privs', columns: 'objoid int4, classoid int4, objsubid int4, privtype text, initprivs text[]' };
