// PostgreSQL's catalog functions that read the catalog (pg_get_indexdef, pg_get_constraintdef,
// pg_get_expr, obj_description, col_description, pg_table_is_visible), answered over the system
// catalog's tables: before a catalog query is prepared, each call is replaced by the subquery over
// the catalog tables that gives its value. The calls are found with PostgreSQL's own scanner (a string
// or a quoted name that looks like a call is one token), arguments rewritten first, so calls nest.
//
// What each one reads:
//   pg_get_indexdef(index oid)              pg_catalog.pesto_definition (CREATE INDEX ... as PostgreSQL prints it)
//   pg_get_constraintdef(oid [, pretty])    pg_catalog.pesto_definition (PRIMARY KEY, UNIQUE, CHECK, FOREIGN KEY: catalog-constraints.ts;
//                                           a CHECK's pretty text where `pretty` is true)
//   pg_get_viewdef(view oid [, pretty])     pg_catalog.pesto_definition (the view's SELECT: sql/views.ts viewDefinition)
//   pg_get_expr(text, relation [, pretty])  its first argument: pg_attrdef.adbin and pg_index.indpred hold the text
//   obj_description(oid [, catalog])        pg_description, objsubid 0
//   col_description(relation, column)       pg_description
//   pg_table_is_visible(oid)                whether pg_class has it (every relation is in public, on the search path)
//   pg_type_is_visible(oid)                 whether pg_type has it (every type is in pg_catalog)
//   pg_opclass_is_visible(oid), ...         the same over their catalogs (psql's \dd)
//   pg_get_triggerdef(oid [, pretty])       NULL: Pesto has no triggers
//   pg_tablespace_location(oid)             '': only the built-in tablespaces exist
//   shobj_description(oid, catalog)         pg_shdescription (the database's comment; roles have none)
//   pg_encoding_to_char(encoding)           UTF8 (6), SQL_ASCII (0), else ''
//   pg_options_to_table(options)            in FROM, unaliased: unnest of the options, split at the first '='
//   acldefault(kind, owner oid)             the owner's default privileges (pg_roles for its name), aclitem[] as text[]
//   pg_get_serial_sequence(table, column)   pg_depend: the sequence owned by the column (SERIAL's 'a', an identity's 'i'),
//                                           schema-qualified; the table's name read as regclass reads it, the column's as it is
//   to_regclass(name)                       pesto_relation_name: the relation's oid, NULL for none
// Other forms (pg_get_indexdef's three arguments) are left as they are: the engine rejects them with 42883.

import { scanSync, type ScanToken } from 'libpg-query';
import { TYPE_OID_BASE } from '../../sql/catalog.ts';

type Rewrite = (args: readonly string[]) => string | null;

/** The oid of the system catalog named by a text expression (obj_description's second argument). */
const catalogOid = (name: string): string =>
  `(CASE (${name})::text WHEN 'pg_class' THEN 1259 WHEN 'pg_type' THEN 1247 WHEN 'pg_namespace' THEN 2615 WHEN 'pg_constraint' THEN 2606 WHEN 'pg_database' THEN 1262 WHEN 'pg_am' THEN 2601 END)`;

/** A reference to pg_index's int2vector columns (kept as text: catalog-constraints.ts). */

const REWRITES: Readonly<Record<string, Rewrite>> = {
  pg_get_indexdef: (a) => (a.length === 1 ? `(SELECT definition AS pg_get_indexdef FROM pg_catalog.pesto_definition WHERE objid = (${a[0]}))` : null),
  pg_get_constraintdef: (a) => (a.length === 1 || a.length === 2
    ? `(SELECT ${a.length === 1 ? 'definition' : `CASE WHEN (${a[1]}) THEN coalesce(pretty, definition) ELSE definition END`} AS pg_get_constraintdef FROM pg_catalog.pesto_definition WHERE objid = (${a[0]}))`
    : null),
  pg_get_viewdef: (a) => (a.length === 1 || a.length === 2 ? `(SELECT definition AS pg_get_viewdef FROM pg_catalog.pesto_definition WHERE objid = (${a[0]}))` : null),
  pg_get_expr: (a) => (a.length === 2 || a.length === 3 ? `(SELECT (${a[0]})::text AS pg_get_expr)` : null),
  obj_description: (a) => (a.length === 1 || a.length === 2
    ? `(SELECT description AS obj_description FROM pg_catalog.pg_description WHERE objoid = (${a[0]}) AND objsubid = 0${a.length === 2 ? ` AND classoid = ${catalogOid(a[1]!)}` : ''})`
    : null),
  col_description: (a) => (a.length === 2 ? `(SELECT description AS col_description FROM pg_catalog.pg_description WHERE objoid = (${a[0]}) AND classoid = 1259 AND objsubid = (${a[1]}))` : null),
  pg_get_serial_sequence: (a) => (a.length === 2 ? serialSequence(a[0]!, a[1]!, `'public.' || quote_ident(pesto_seq.relname::text)`, 'pg_get_serial_sequence') : null),
  // `pg_get_serial_sequence(t, c)::regclass` as firstRegCast rewrites it: the sequence's oid, with no
  // lookup of its name (which would evaluate the call once per spelling in pesto_relation_name).
  pesto_serial_sequence_oid: (a) => (a.length === 2 ? serialSequence(a[0]!, a[1]!, 'pesto_seq.oid', 'regclass') : null),
  // The relation's oid, NULL where none has the name (the cast raises 42P01 instead).
  to_regclass: (a) => (a.length === 1 ? `(SELECT oid AS to_regclass FROM pg_catalog.pesto_relation_name WHERE spelling = ${spellingKey(a[0]!)})` : null),
  pg_table_is_visible: (a) => (a.length === 1 ? `(SELECT CASE WHEN (${a[0]}) IS NULL THEN NULL ELSE EXISTS (SELECT 1 FROM pg_catalog.pg_class WHERE oid = (${a[0]})) END AS pg_table_is_visible)` : null),
  // An enum's oid (or its array's) is the session's (pesto_type_name's rows of its enums); a built-in type's the engine's function answers.
  format_type: (a) => (a.length === 2
    ? `(SELECT coalesce((SELECT display FROM pg_catalog.pesto_type_name WHERE spelling = (${a[0]})::text AND oid >= ${TYPE_OID_BASE}), pg_catalog.format_type(${a[0]}, ${a[1]})) AS format_type)`
    : null),
  // Comments on shared objects: the database's (COMMENT ON ROLE is not supported).
  shobj_description: (a) => (a.length === 2
    ? `(SELECT description AS shobj_description FROM pg_catalog.pg_shdescription WHERE objoid = (${a[0]}) AND classoid = ${catalogOid(a[1]!)})`
    : null),
  // A role's name from pg_roles (catalog-roles.ts), PostgreSQL's 'unknown (OID=n)' for an oid no role has.
  pg_get_userbyid: (a) => (a.length === 1
    ? `(SELECT CASE WHEN (${a[0]}) IS NULL THEN NULL ELSE coalesce((SELECT pesto_r.rolname FROM pg_catalog.pg_roles pesto_r WHERE pesto_r.oid = (${a[0]})), ('unknown (OID=' || (${a[0]}) || ')')::name) END AS pg_get_userbyid)`
    : null),
  // The encodings a database can have here: UTF8 (6) only; PostgreSQL's names of the others it numbers.
  pg_encoding_to_char: (a) => (a.length === 1 ? `(SELECT CASE (${a[0]}) WHEN 0 THEN 'SQL_ASCII' WHEN 6 THEN 'UTF8' ELSE '' END AS pg_encoding_to_char)` : null),
  // The two built-in tablespaces, the only ones, live in the data folder: PostgreSQL gives them ''.
  pg_tablespace_location: (a) => (a.length === 1 ? `(SELECT ''::text AS pg_tablespace_location)` : null),
  // Pesto has no triggers (pg_trigger is empty): no trigger has a definition.
  pg_get_triggerdef: (a) => (a.length === 1 || a.length === 2 ? '(SELECT NULL::text AS pg_get_triggerdef)' : null),
  // In FROM without an alias (pg_dump's `FROM pg_options_to_table(fdwoptions)`): each `name=value` of an options array.
  pg_options_to_table: (a) => (a.length === 1
    ? `(SELECT CASE strpos(pesto_o, '=') WHEN 0 THEN pesto_o ELSE substr(pesto_o, 1, strpos(pesto_o, '=') - 1) END AS option_name,
      CASE strpos(pesto_o, '=') WHEN 0 THEN NULL ELSE substr(pesto_o, strpos(pesto_o, '=') + 1) END AS option_value FROM unnest(${a[0]}) AS pesto_opt(pesto_o)) AS pg_options_to_table`
    : null),
  // The owner's default privileges on an object of this kind (acldefault's one-letter kinds), as aclitem text.
  acldefault: (a) => (a.length === 2 ? aclDefault(a[0]!, a[1]!) : null),
  pg_type_is_visible: visibleIn('pg_type', 'pg_type_is_visible'),
  // Every object is in public or pg_catalog, both on the search path: visible when its catalog has it (psql's \dd asks).
  pg_opclass_is_visible: visibleIn('pg_opclass', 'pg_opclass_is_visible'),
  pg_opfamily_is_visible: visibleIn('pg_opfamily', 'pg_opfamily_is_visible'),
  pg_operator_is_visible: visibleIn('pg_operator', 'pg_operator_is_visible'),
  pg_function_is_visible: visibleIn('pg_proc', 'pg_function_is_visible'),
  pg_collation_is_visible: visibleIn('pg_collation', 'pg_collation_is_visible'),
  pg_conversion_is_visible: visibleIn('pg_conversion', 'pg_conversion_is_visible'),
  pg_statistics_obj_is_visible: visibleIn('pg_statistic_ext', 'pg_statistics_obj_is_visible'),
  pg_ts_config_is_visible: visibleIn('pg_ts_config', 'pg_ts_config_is_visible'),
  pg_ts_dict_is_visible: visibleIn('pg_ts_dict', 'pg_ts_dict_is_visible'),
  pg_ts_parser_is_visible: visibleIn('pg_ts_parser', 'pg_ts_parser_is_visible'),
  pg_ts_template_is_visible: visibleIn('pg_ts_template', 'pg_ts_template_is_visible'),
};

/** pg_*_is_visible(oid) over system catalog `table`: NULL for NULL, else whether the catalog has the oid. */
function visibleIn(table: string, name: string): (a: readonly string[]) => string | null {
  return (a) => (a.length === 1 ? `(SELECT CASE WHEN (${a[0]}) IS NULL THEN NULL ELSE EXISTS (SELECT 1 FROM pg_catalog.${table} WHERE oid = (${a[0]})) END AS ${name})` : null);
}

/** PostgreSQL 15's default privileges per object kind: the owner's, and PUBLIC's where it has some. */
const ACL_DEFAULTS: readonly [kind: string, owner: string, publicPrivileges: string][] = [
  ['c', '', ''], ['r', 'arwdDxt', ''], ['s', 'rwU', ''], ['d', 'CTc', 'Tc'], ['f', 'X', 'X'], ['l', 'U', 'U'], ['L', 'rw', ''],
  ['n', 'UC', ''], ['t', 'C', ''], ['F', 'U', ''], ['S', 'U', ''], ['T', 'U', 'U'], ['p', '', ''],
];

function aclDefault(kind: string, owner: string): string {
  const item = (grantee: string, privileges: string): string => `${grantee} || '=${privileges}/' || pesto_owner.rolname`;
  const cases = ACL_DEFAULTS.map(([k, own, pub]) => {
    const items = [...(own === '' ? [] : [item('pesto_owner.rolname', own)]), ...(pub === '' ? [] : [item("''", pub)])];
    return `WHEN '${k}' THEN ${items.length === 0 ? "'{}'::text[]" : `ARRAY[${items.join(', ')}]`}`;
  });
  return `(SELECT CASE (${kind})::text ${cases.join(' ')} END AS acldefault FROM pg_catalog.pg_roles pesto_owner WHERE pesto_owner.oid = (${owner}))`;
}

/**
 * The sequence owned by column `column` of table `table` (pg_depend: SERIAL's 'a', an identity's 'i'),
 * as `value`. Aliases of its own, so that the arguments' qualified names (a.attname) still name the
 * caller's tables.
 */
function serialSequence(table: string, column: string, value: string, label: string): string {
  return `(SELECT ${value} AS ${label} FROM pg_catalog.pg_depend pesto_dep JOIN pg_catalog.pg_class pesto_seq ON pesto_seq.oid = pesto_dep.objid
    JOIN pg_catalog.pg_attribute pesto_att ON pesto_att.attrelid = pesto_dep.refobjid AND pesto_att.attnum = pesto_dep.refobjsubid
    WHERE pesto_dep.refobjid = (SELECT oid FROM pg_catalog.pesto_relation_name WHERE spelling = ${spellingKey(table)}) AND pesto_att.attname = (${column})::text
    AND pesto_dep.deptype IN ('a', 'i') AND pesto_seq.relkind = 'S')`;
}

/** An identifier token's name as PostgreSQL folds it. */
function identName(t: ScanToken, text: string): string | null {
  if (t.tokenName !== 'IDENT' && t.keywordKind === 0) return null;
  const s = text.slice(t.start, t.end);
  return s.startsWith('"') ? s.slice(1, -1).replace(/""/g, '"') : s.toLowerCase();
}

const quoteName = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** A regclass or regtype literal naming a schema that does not exist: PostgreSQL's 3F000, with the literal's position. */
export class RegCastSchemaError extends Error {
  readonly code = '3F000';
  constructor(readonly schema: string, readonly position: number) {
    super(`schema "${schema}" does not exist`);
  }
}

/** Schemas a regclass or regtype name may be qualified with (pg_temp: the session's temporary tables). */
const KNOWN_SCHEMAS = new Set(['public', 'pg_catalog', 'information_schema', 'pg_temp']);

/** The names of a qualified name as regclassin reads it (quoted parts kept, bare ones in lower case); null when malformed. */
export function qualifiedNameParts(s: string): string[] | null {
  const parts: string[] = [];
  let i = 0;
  for (;;) {
    while (s[i] === ' ' || s[i] === '\t' || s[i] === '\n') i++;
    let name = '';
    if (s[i] === '"') {
      for (i++; ; i++) {
        if (i >= s.length) return null;
        if (s[i] === '"') {
          if (s[i + 1] !== '"') break;
          i++;
        }
        name += s[i];
      }
      i++;
    } else {
      const m = /^[^.\s"]+/.exec(s.slice(i));
      if (m === null) return null;
      name = m[0].toLowerCase();
      i += m[0].length;
    }
    parts.push(name);
    while (s[i] === ' ' || s[i] === '\t' || s[i] === '\n') i++;
    if (i >= s.length) return parts;
    if (s[i] !== '.') return null;
    i++;
  }
}

/** A string constant `'name'` cast to regclass or regtype: its type, the names regclassin reads in it (null when malformed), its position. */
export interface RegCastConstant {
  readonly type: 'regclass' | 'regtype';
  readonly parts: readonly string[] | null;
  /** 1-based, in characters of the statement's text, as PostgreSQL reports it. */
  readonly position: number;
}

/** The `'...'::regclass` and `'...'::regtype` constants of `text` (latin1, as the scanner's byte offsets); E'...' and $$...$$ are left to the lookup. */
function regCastConstants(text: string, tokens: readonly ScanToken[]): RegCastConstant[] {
  const out: RegCastConstant[] = [];
  for (let i = 1; i + 1 < tokens.length; i++) {
    const lit = tokens[i - 1]!;
    if (tokens[i]!.tokenName !== 'TYPECAST' || lit.tokenName !== 'SCONST') continue;
    const qualified = identName(tokens[i + 1]!, text) === 'pg_catalog' && tokens[i + 2]?.text === '.' && tokens[i + 3] !== undefined;
    const type = identName(tokens[qualified ? i + 3 : i + 1]!, text);
    if (type !== 'regclass' && type !== 'regtype') continue;
    const raw = text.slice(lit.start, lit.end);
    if (!raw.startsWith("'")) continue;
    const parts = qualifiedNameParts(Buffer.from(raw.slice(1, -1).replace(/''/g, "'"), 'latin1').toString('utf8'));
    out.push({ type, parts, position: Buffer.from(text.slice(0, lit.start), 'latin1').toString('utf8').length + 1 });
  }
  return out;
}

/**
 * The `'name'::regclass` constants of `sql`, for the check that each names a relation (catalog-names.ts
 * missingRelation), which needs the session's catalog; [] when it does not scan.
 */
export function regclassConstants(sql: string): RegCastConstant[] {
  let tokens: ScanToken[];
  try {
    tokens = scanSync(sql).tokens;
  } catch {
    return [];
  }
  return regCastConstants(Buffer.from(sql, 'utf8').toString('latin1'), tokens).filter((c) => c.type === 'regclass');
}

/**
 * Throws RegCastSchemaError for the first `'schema.name'::regclass` (or regtype) literal whose schema
 * is none of this database's (a regclass constant naming no relation of public is checked when the query
 * runs, catalog-names.ts missingRelation; a column's value that finds no row stays NULL).
 */
function checkRegCastSchemas(text: string, tokens: readonly ScanToken[]): void {
  for (const { parts, position } of regCastConstants(text, tokens)) {
    const schema = parts !== null && (parts.length === 2 || parts.length === 3) ? parts[parts.length - 2]! : null;
    if (schema !== null && !KNOWN_SCHEMAS.has(schema)) throw new RegCastSchemaError(schema, position);
  }
}

/**
 * The spelling pesto_relation_name (catalog-names.ts) has for the relation `name` names as regclassin
 * reads it: an oid's digits as they are, else each part quoted (unquoted parts fold to lower case, so
 * 'USERS' is users); null when malformed.
 */
export function relationSpelling(name: string): string | null {
  if (/^\d+$/.test(name)) return name;
  const parts = qualifiedNameParts(name);
  return parts === null ? null : parts.map(quoteName).join('.');
}

/**
 * What a relation-name operand is looked up by in pesto_relation_name, in the rewrite's latin1 text: a
 * string constant's spelling (relationSpelling) as a constant, else the operand's value as text.
 */
function spellingKey(operand: string): string {
  const m = /^'((?:[^']|'')*)'$/.exec(operand.trim());
  const spelling = m === null ? null : relationSpelling(Buffer.from(m[1]!.replace(/''/g, "'"), 'latin1').toString('utf8'));
  return spelling === null ? `(${operand})::text` : Buffer.from(`'${spelling.replace(/'/g, "''")}'`, 'utf8').toString('latin1');
}

/**
 * `sql` with every call of a catalog function and every regclass/regtype cast replaced; null when it
 * does not scan. Throws RegCastSchemaError for a regclass or regtype literal in a schema that does not exist.
 */
export function rewriteCatalogFunctions(sql: string): string | null {
  // The scanner's offsets are bytes; the text is sliced as latin1 so characters and bytes line up.
  let text = Buffer.from(sql, 'utf8').toString('latin1');
  let tokens: ScanToken[];
  try {
    tokens = scanSync(sql).tokens;
  } catch {
    return null;
  }
  checkRegCastSchemas(text, tokens);
  try {
    // One cast at a time, leftmost first (a cast inside another's operand is to its left), rescanning after each.
    for (let cast = firstRegCast(text, tokens); cast !== null; cast = firstRegCast(text, tokens)) {
      text = text.slice(0, cast.from) + cast.replacement + text.slice(cast.to);
      tokens = scanSync(Buffer.from(text, 'latin1').toString('utf8')).tokens;
    }
    const renamed = renameCastTypes(text, tokens);
    if (renamed !== text) {
      text = renamed;
      tokens = scanSync(Buffer.from(text, 'latin1').toString('utf8')).tokens;
    }
  } catch {
    return null;
  }
  const out = rewriteRange(text, tokens, 0, tokens.length, tokens.length === 0 ? 0 : tokens[0]!.start, text.length);
  return Buffer.from(out, 'latin1').toString('utf8');
}

/**
 * Casts to the catalog's types the engine has no type for: `::oid` (and `oid[]`) to int4, as the catalog
 * keeps oids; `::regproc` to text (pg_am's handlers are kept by name; the catalog has no other functions); a string
 * constant `::regnamespace` to that schema's oid from pg_namespace.
 */
function renameCastTypes(text: string, tokens: readonly ScanToken[]): string {
  let out = '';
  let pos = 0;
  for (let i = 1; i + 1 < tokens.length; i++) {
    if (tokens[i]!.tokenName !== 'TYPECAST') continue;
    const qualified = identName(tokens[i + 1]!, text) === 'pg_catalog' && tokens[i + 2]?.text === '.' && tokens[i + 3] !== undefined;
    const at = qualified ? i + 3 : i + 1;
    const type = identName(tokens[at]!, text);
    if (type === 'oid' || type === 'regproc') {
      out += text.slice(pos, tokens[i + 1]!.start) + (type === 'oid' ? 'int4' : 'text');
      pos = tokens[at]!.end;
    } else if (type === 'regnamespace' && tokens[i - 1]!.tokenName === 'SCONST' && tokens[i - 1]!.start >= pos) {
      out += text.slice(pos, tokens[i - 1]!.start) + `(SELECT oid FROM pg_catalog.pg_namespace WHERE nspname = ${text.slice(tokens[i - 1]!.start, tokens[i - 1]!.end)})`;
      pos = tokens[at]!.end;
    }
  }
  return out + text.slice(pos);
}

/** Casts to the types that stay after a regclass or regtype cast: to an oid (int4 here) or to its name. */
const AS_OID = new Set(['oid', 'int4', 'integer', 'int8', 'bigint']);
const AS_TEXT = new Set(['text', 'varchar', 'name']);

/**
 * The leftmost `x::regclass` or `x::regtype` (possibly followed by `::oid` or `::text`), as the lookup in
 * pesto_relation_name or pesto_type_name that gives it: an oid, or with `::text` the name PostgreSQL's
 * output function prints. Where the operand is `(...)`, a call, a constant or a (qualified) name.
 */
function firstRegCast(text: string, tokens: readonly ScanToken[]): { from: number; to: number; replacement: string } | null {
  for (let i = 1; i + 1 < tokens.length; i++) {
    if (tokens[i]!.tokenName !== 'TYPECAST') continue;
    // `x::regclass`, or schema-qualified `x::pg_catalog.regclass` as psql writes it.
    const qualified = identName(tokens[i + 1]!, text) === 'pg_catalog' && tokens[i + 2]?.text === '.' && tokens[i + 3] !== undefined;
    const typeAt = qualified ? i + 3 : i + 1;
    const type = identName(tokens[typeAt]!, text);
    if (type !== 'regclass' && type !== 'regtype') continue;
    let a = i - 1;
    if (tokens[a]!.text === ')') {
      for (let depth = 0; a >= 0; a--) {
        const x = tokens[a]!.text;
        if (x === ')') depth++;
        else if (x === '(' && --depth === 0) break;
      }
      if (a < 0) return null;
      // A call: a function's name is an identifier or an unreserved or column-name keyword (coalesce).
      const f = tokens[a - 1];
      if (f !== undefined && (f.tokenName === 'IDENT' || f.keywordKind === 1 || f.keywordKind === 2)) a--;
    }
    while (a >= 2 && tokens[a - 1]!.text === '.' && tokens[a - 2]!.tokenName === 'IDENT') a -= 2;
    let end = typeAt;
    let result: 'oid' | 'text' = 'oid';
    const next = tokens[end + 2] === undefined || tokens[end + 1]!.tokenName !== 'TYPECAST' ? null : identName(tokens[end + 2]!, text);
    if (next !== null && AS_OID.has(next)) end += 2;
    else if (next !== null && AS_TEXT.has(next)) {
      end += 2;
      result = 'text';
    }
    const operand = text.slice(tokens[a]!.start, tokens[i]!.start);
    // pg_get_serial_sequence(t, c)::regclass[::oid]: the sequence's oid straight from pg_depend (REWRITES).
    const fn = identName(tokens[a]!, text) === 'pg_catalog' && tokens[a + 1]?.text === '.' ? a + 2 : a;
    if (type === 'regclass' && result === 'oid' && identName(tokens[fn]!, text) === 'pg_get_serial_sequence' && tokens[fn + 1]?.text === '(') {
      return { from: tokens[a]!.start, to: tokens[end]!.end, replacement: `pesto_serial_sequence_oid${text.slice(tokens[fn + 1]!.start, tokens[i]!.start)}` };
    }
    const table = type === 'regclass' ? 'pg_catalog.pesto_relation_name' : 'pg_catalog.pesto_type_name';
    // The result column's name as PostgreSQL's FigureColname gives it: the operand's column or function
    // name, else the last type cast to.
    const named = tokens[a]!.tokenName === 'IDENT' || (tokens[a]!.keywordKind > 0 && tokens[a + 1]?.text === '(');
    const last = tokens[i - 1]!;
    const label = named ? identName(tokens[a + 1]?.text === '(' ? tokens[a]! : last, text) ?? type : next ?? type;
    const column = `${result === 'oid' ? 'oid' : 'display'} AS ${quoteName(label)}`;
    const key = type === 'regclass' ? spellingKey(operand) : `(${operand})::text`;
    return { from: tokens[a]!.start, to: tokens[end]!.end, replacement: `(SELECT ${column} FROM ${table} WHERE spelling = ${key})` };
  }
  return null;
}

/** The text from `from` to `to` (offsets), whose tokens are tokens[lo, hi), with calls rewritten. */
function rewriteRange(text: string, tokens: readonly ScanToken[], lo: number, hi: number, from: number, to: number): string {
  let out = '';
  let pos = from;
  for (let i = lo; i < hi; i++) {
    const t = tokens[i]!;
    const name = identName(t, text);
    if (name === null || !(name in REWRITES) || tokens[i + 1]?.text !== '(') continue;
    // Qualified with pg_catalog: the qualifier goes with the call.
    const qualified = i >= lo + 2 && tokens[i - 1]!.text === '.' && identName(tokens[i - 2]!, text) === 'pg_catalog' && tokens[i - 2]!.start >= pos;
    const start = qualified ? tokens[i - 2]!.start : t.start;
    // The arguments: top-level commas between the parentheses.
    let depth = 0;
    let j = i + 1;
    const bounds: [number, number][] = [];
    let argLo = i + 2;
    for (; j < hi; j++) {
      const x = tokens[j]!.text;
      if (x === '(' || x === '[') depth++;
      else if (x === ')' || x === ']') {
        depth--;
        if (depth === 0) break;
      } else if (x === ',' && depth === 1) {
        bounds.push([argLo, j]);
        argLo = j + 1;
      }
    }
    if (j >= hi) continue;
    if (argLo < j) bounds.push([argLo, j]);
    const args = bounds.map(([a, b]) => rewriteRange(text, tokens, a, b, tokens[a]!.start, tokens[b - 1]!.end));
    const replacement = REWRITES[name]!(args);
    if (replacement === null) continue;
    out += text.slice(pos, start) + replacement;
    pos = tokens[j]!.end;
    i = j;
  }
  return out + text.slice(pos, to);
}
