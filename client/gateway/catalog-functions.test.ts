import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule } from 'libpg-query';
import { RegCastSchemaError, qualifiedNameParts, regclassConstants, relationSpelling, rewriteCatalogFunctions } from './catalog-functions.ts';
import { missingRelation } from './catalog-names.ts';

before(() => loadModule());

const DEF = (x: string): string => `(SELECT definition AS pg_get_indexdef FROM pg_catalog.pesto_definition WHERE objid = (${x}))`;

void test('replaces catalog function calls, qualified or not, and leaves strings, other calls and other arities alone', () => {
  assert.equal(rewriteCatalogFunctions('SELECT pg_catalog.pg_get_indexdef(i.oid), \'pg_get_indexdef(1)\' FROM pg_index'),
    `SELECT ${DEF('i.oid')}, 'pg_get_indexdef(1)' FROM pg_index`);
  assert.equal(rewriteCatalogFunctions('SELECT "pg_get_indexdef"(1), lower(x), pg_get_indexdef(1, 0, true)'),
    `SELECT ${DEF('1')}, lower(x), pg_get_indexdef(1, 0, true)`);
  assert.equal(rewriteCatalogFunctions('SELECT pg_get_expr(d.adbin, d.adrelid, true)'), 'SELECT (SELECT (d.adbin)::text AS pg_get_expr)');
});

void test('rewrites arguments first, so calls nest, and keeps non-ASCII text in place', () => {
  assert.equal(rewriteCatalogFunctions("SELECT 'é', pg_get_indexdef(coalesce(pg_get_indexdef(2), 'ü'))"),
    `SELECT 'é', ${DEF(`coalesce(${DEF('2')}, 'ü')`)}`);
});

void test('turns regclass and regtype casts into lookups, named as PostgreSQL names the column', () => {
  const rel = (col: string, label: string, x: string): string => `(SELECT ${col} AS "${label}" FROM pg_catalog.pesto_relation_name WHERE spelling = (${x})::text)`;
  // A string constant is looked up by the spelling regclassin reads in it.
  const relConst = (x: string): string => `(SELECT oid AS "regclass" FROM pg_catalog.pesto_relation_name WHERE spelling = ${x})`;
  assert.equal(rewriteCatalogFunctions("SELECT 't'::regclass"), `SELECT ${relConst(`'"t"'`)}`);
  assert.equal(rewriteCatalogFunctions(`SELECT ' Public."Ü''s" '::regclass`), `SELECT ${relConst(`'"public"."Ü''s"'`)}`);
  assert.equal(rewriteCatalogFunctions("SELECT '16385'::regclass"), `SELECT ${relConst("'16385'")}`);
  assert.equal(rewriteCatalogFunctions("SELECT to_regclass('T')"), `SELECT (SELECT oid AS to_regclass FROM pg_catalog.pesto_relation_name WHERE spelling = '"t"')`);
  assert.equal(rewriteCatalogFunctions('SELECT a.attrelid::regclass::text FROM pg_attribute a'), `SELECT ${rel('display', 'attrelid', 'a.attrelid')} FROM pg_attribute a`);
  assert.equal(rewriteCatalogFunctions(`SELECT ('"' || s || '"')::"regclass"::oid`), `SELECT ${rel('oid', 'oid', `('"' || s || '"')`)}`);
  assert.equal(rewriteCatalogFunctions("SELECT coalesce(x, 'y')::regclass::text"), `SELECT ${rel('display', 'coalesce', "coalesce(x, 'y')")}`);
  assert.equal(rewriteCatalogFunctions("SELECT 'int4'::regtype::text"), `SELECT (SELECT display AS "text" FROM pg_catalog.pesto_type_name WHERE spelling = ('int4')::text)`);
  assert.equal(rewriteCatalogFunctions("SELECT '"), null);
});

void test('reads qualified names as regclass does, and refuses a regclass or regtype literal in a schema that does not exist', () => {
  assert.deepEqual(qualifiedNameParts('Public."My.T"'), ['public', 'My.T']);
  assert.deepEqual(qualifiedNameParts(' db . s . "a""b" '), ['db', 's', 'a"b']);
  assert.equal(qualifiedNameParts('a..b'), null);
  assert.equal(qualifiedNameParts('"open'), null);
  assert.throws(() => rewriteCatalogFunctions("SELECT 'NOS.t'::regclass"), (e: unknown) => e instanceof RegCastSchemaError && e.message === 'schema "nos" does not exist' && e.position === 8);
  assert.throws(() => rewriteCatalogFunctions("SELECT 'é', 'x.t'::pg_catalog.regtype"), (e: unknown) => e instanceof RegCastSchemaError && e.position === 13);
  assert.notEqual(rewriteCatalogFunctions("SELECT 'public.t'::regclass, 'pg_temp.t'::regclass, 'pg_catalog.int4'::regtype, 'a.b.c.d'::regclass"), null);
});

void test('spells a relation name as regclassin reads it, and finds which regclass constants name no relation of public', () => {
  assert.equal(relationSpelling('USERS'), '"users"');
  assert.equal(relationSpelling(' db . Public . "My""T" '), '"db"."public"."My""T"');
  assert.equal(relationSpelling('42'), '42');
  assert.equal(relationSpelling('a..b'), null);
  const constants = regclassConstants("SELECT 'é', 'NoSuch'::regclass, 'public.t'::pg_catalog.regclass::oid, 'int4'::regtype, x::regclass, E'e'::regclass");
  assert.deepEqual(constants.map((c) => [c.parts, c.position]), [[['nosuch'], 13], [['public', 't'], 33]]);
  const names = new Set(['"t"', '"public"."t"', '"pg_class"', '"pg_catalog"."pg_class"']);
  const missing = (s: string): string | null => {
    const c = regclassConstants(`SELECT '${s}'::regclass`)[0]!;
    const m = missingRelation(c, names, 'db');
    return m === null ? null : `${m.code} ${m.message} @${m.position}`;
  };
  assert.equal(missing('NoSuch'), '42P01 relation "nosuch" does not exist @8');
  assert.equal(missing('public."NoSuch"'), '42P01 relation "public.NoSuch" does not exist @8');
  assert.equal(missing('db.public.nosuch'), '42P01 relation "public.nosuch" does not exist @8');
  assert.equal(missing('other.public.t'), '0A000 cross-database references are not implemented: "other.public.t" @8');
  assert.equal(missing('a.b.c.d'), '42601 improper relation name (too many dotted names): a.b.c.d @8');
  // Found; or in a schema (or, unqualified, a pg_ name) whose relations this catalog does not all list; or an oid.
  for (const s of ['T', 'public.t', 'db.public.t', 'pg_rewrite', 'pg_catalog.nosuch', 'information_schema.tables', 'pg_temp.x', '12345', 'x"']) assert.equal(missing(s), null, s);
});
