// The few catalog and server-function queries clients send that the engine cannot answer (it has no
// pg_catalog): a small table of recognised statements, each with its result columns and an answer
// computed from the session. Anything not in the table goes to the backend, which rejects what it does
// not know with a SQLSTATE like any other statement.
//
// Recognised today: current_setting(name [, missing_ok]), set_config(name, value, is_local) (and pg_dump's
// set_config(name, ...) FROM pg_settings WHERE name = ..., which sets a setting only where it exists),
// pg_backend_pid(), pg_is_in_recovery(), and pgbench's partition probe (GetTableInfo in pgbench.c:
// pg_class x pg_namespace x pg_partitioned_table x pg_inherits for one relname), answered with one
// unpartitioned row when the table exists and no row otherwise; psql's `\d`, `\dt`, `\d table`
// (psql-describe.ts); and any SELECT over the system catalog tables system-catalog.ts keeps.

import type { SqlType, SqlValue } from '../../sql/types.ts';
import type { BackendColumn, BackendError, BackendResult, BackendSession } from './sql-backend.ts';
import type { SessionSettings } from './session-settings.ts';
import { GatewayState } from './protocol-error.ts';
import { recognisePsqlDescribe } from './psql-describe.ts';
import { recogniseSystemQuery } from './system-catalog.ts';
import { quoteIdent } from '../../sql/catalog.ts';
import { SqlArray } from '../../sql/sql-array.ts';

export interface CatalogContext {
  readonly settings: SessionSettings;
  readonly backend: BackendSession;
  readonly processId: number;
  /** Applies a setting change the way SET does (ParameterStatus included). */
  /** SET (`local`: SET LOCAL, set_config's is_local). */
  readonly set: (name: string, value: string, local: boolean) => BackendResult | null;
}

export interface CatalogQuery {
  readonly columns: readonly BackendColumn[];
  /** Its parameters' types, when it takes any (system-catalog.ts); else the client's hints, as text. */
  readonly paramTypes?: readonly SqlType[];
  answer(ctx: CatalogContext, params: readonly SqlValue[]): Promise<BackendResult>;
  /** Set: the query reads only the catalog but does not prepare there; Parse fails with it, as `answer` does. */
  readonly error?: BackendError;
}

const text = (name: string): BackendColumn => ({ name, type: 'text', typmod: -1 });

function rows(columns: readonly BackendColumn[], values: SqlValue[][]): BackendResult {
  return { ok: true, tag: `SELECT ${values.length}`, returnsRows: true, columns, rows: values, notices: [] };
}

const END = String.raw`\s*;?\s*$`;
const STR = String.raw`'((?:[^']|'')*)'`;
const unquote = (s: string): string => s.replace(/''/g, "'");

const CURRENT_SETTING = new RegExp(String.raw`^\s*select\s+(?:pg_catalog\.)?current_setting\s*\(\s*${STR}\s*(?:,\s*(true|false)\s*)?\)(?:\s+as\s+("?)(\w+)\3)?${END}`, 'i');
const SET_CONFIG = new RegExp(String.raw`^\s*select\s+(?:pg_catalog\.)?set_config\s*\(\s*${STR}\s*,\s*${STR}\s*,\s*(true|false)\s*\)${END}`, 'i');
// pg_dump's: set a setting only where the server has it.
const SET_CONFIG_IF_KNOWN = new RegExp(String.raw`^\s*select\s+(?:pg_catalog\.)?set_config\s*\(\s*name\s*,\s*${STR}\s*,\s*(true|false)\s*\)\s+from\s+(?:pg_catalog\.)?pg_settings\s+where\s+name\s*=\s*${STR}${END}`, 'i');
const CURRENT_SCHEMAS = new RegExp(String.raw`^\s*select\s+(?:pg_catalog\.)?current_schemas\s*\(\s*(true|false)\s*\)${END}`, 'i');
/** The schemas a session has: pg_catalog, public and information_schema (system-catalog.ts). */
const SCHEMAS = new Set(['pg_catalog', 'public', 'information_schema']);
const BACKEND_PID = new RegExp(String.raw`^\s*select\s+(?:pg_catalog\.)?pg_backend_pid\s*\(\s*\)${END}`, 'i');
const IN_RECOVERY = new RegExp(String.raw`^\s*select\s+(?:pg_catalog\.)?pg_is_in_recovery\s*\(\s*\)${END}`, 'i');
const PGBENCH_PARTITIONS = /pg_catalog\.pg_class\s+as\s+c\b[\s\S]*pg_catalog\.pg_partitioned_table[\s\S]*where\s+c\.relname\s*=\s*'((?:[^']|'')*)'/i;


export function recogniseCatalogQuery(sql: string): CatalogQuery | null {
  let m = CURRENT_SETTING.exec(sql);
  if (m !== null) {
    const name = unquote(m[1] as string);
    const missingOk = (m[2] ?? '').toLowerCase() === 'true';
    const columns = [text(m[4] ?? 'current_setting')];
    return {
      columns,
      answer: (ctx) => {
        const v = ctx.settings.get(name);
        if (v === undefined && !missingOk) {
          return Promise.resolve({ ok: false, error: { code: GatewayState.undefinedObject, message: `unrecognized configuration parameter "${name}"` } });
        }
        return Promise.resolve(rows(columns, [[v ?? null]]));
      },
    };
  }
  m = SET_CONFIG.exec(sql);
  if (m !== null) return setConfig(unquote(m[1] as string), unquote(m[2] as string), false, m[3]?.toLowerCase() === 'true');
  m = SET_CONFIG_IF_KNOWN.exec(sql);
  if (m !== null) return setConfig(unquote(m[3] as string), unquote(m[1] as string), true, m[2]?.toLowerCase() === 'true');
  m = CURRENT_SCHEMAS.exec(sql);
  if (m !== null) {
    const implicit = (m[1] as string).toLowerCase() === 'true';
    const columns: BackendColumn[] = [{ name: 'current_schemas', type: '_name', typmod: -1 }];
    return { columns, answer: (ctx) => Promise.resolve(rows(columns, [[new SqlArray('name', currentSchemas(ctx.settings.get('search_path') ?? '', implicit))]])) };
  }
  if (BACKEND_PID.test(sql)) {
    const columns: BackendColumn[] = [{ name: 'pg_backend_pid', type: 'int4', typmod: -1 }];
    return { columns, answer: (ctx) => Promise.resolve(rows(columns, [[ctx.processId]])) };
  }
  if (IN_RECOVERY.test(sql)) {
    const columns: BackendColumn[] = [{ name: 'pg_is_in_recovery', type: 'bool', typmod: -1 }];
    return { columns, answer: () => Promise.resolve(rows(columns, [[false]])) };
  }
  m = PGBENCH_PARTITIONS.exec(sql);
  if (m !== null) {
    const relname = unquote(m[1] as string);
    const columns: BackendColumn[] = [
      { name: 'n', type: 'int4', typmod: -1 },
      text('partstrat'),
      { name: 'count', type: 'int8', typmod: -1 },
    ];
    return {
      columns,
      answer: async (ctx) => {
        const probe = await ctx.backend.prepare(`SELECT * FROM ${quoteIdent(relname)} LIMIT 0`, []);
        if (!probe.ok) return rows(columns, []);
        ctx.backend.release(probe.statement);
        return rows(columns, [[1, null, 0]]);
      },
    };
  }
  return recognisePsqlDescribe(sql) ?? recogniseSystemQuery(sql);
}

/**
 * current_schemas(implicit): the search_path's schemas that exist, in order ("$user" names none: no
 * schema is named after a role), with pg_catalog first where `implicit` and the path leaves it out.
 */
function currentSchemas(searchPath: string, implicit: boolean): string[] {
  const named = searchPath.split(',').map((p) => p.trim()).filter((p) => p !== '').map((p) => (p.startsWith('"') ? p.slice(1, -1).replace(/""/g, '"') : p.toLowerCase()));
  const found = named.filter((p, i) => SCHEMAS.has(p) && named.indexOf(p) === i);
  return implicit && !found.includes('pg_catalog') ? ['pg_catalog', ...found] : found;
}

/** set_config(name, value, ...): the setting changed as SET changes it, its new value the one row; none where `onlyKnown` and the setting does not exist. */
function setConfig(name: string, value: string, onlyKnown: boolean, local: boolean): CatalogQuery {
  const columns = [text('set_config')];
  return {
    columns,
    answer: (ctx) => {
      if (onlyKnown && ctx.settings.get(name) === undefined) return Promise.resolve(rows(columns, []));
      const err = ctx.set(name, value, local);
      return Promise.resolve(err ?? rows(columns, [[ctx.settings.get(name) ?? value]]));
    },
  };
}
