/**
 * Django 3.2 (Debian's python3-django over psycopg2) through the gateway, over the engine and over a
 * cluster: django/check.py migrates django.contrib.auth, contenttypes and an app with a foreign key,
 * unique and indexed columns, a many-to-many and the common field types, migrates again (nothing to
 * do), runs makemigrations --check, reads and writes through the ORM (select_related, a JSONField
 * lookup, transaction.atomic rolled back, a savepoint after a unique violation, a DEFERRABLE INITIALLY
 * DEFERRED foreign key failing at COMMIT; migration 0002's partial UniqueConstraint(condition=Q(...))
 * and Index(Lower(...)), their catalog text, Django's introspection of them and their enforcement) and
 * prints inspectdb, whose output must equal PostgreSQL 15's for the same models (django/inspectdb.expected; check.py passes against PostgreSQL 15 too).
 *
 * With it, DEFERRABLE foreign keys as the catalog and psql show them, and a deferred check made at
 * COMMIT: a referenced row deleted by a transaction that commits first fails the referencing one
 * (23503 on the engine; on the cluster the second transaction's timestamp is older than the delete
 * it would have to follow, so Pesto aborts it with 40001, and its retry would meet the 23503). Every
 * expected value was printed by PostgreSQL 15 for the same statements. Skipped, with the reason,
 * where Django is not installed.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type pg from 'pg';
import { DJANGO_SKIP, runDjangoCheck } from './client-scripts.ts';
import { PASSWORD, USER, clusterGatewayForSuite, engineGatewayForSuite, runPsql, withPg } from './gateway-fixture.ts';

const DJANGO_BASE_PORT = 8860;
const DEFERRED_BASE_PORT = 8880;

const INSPECTDB = readFileSync(join(import.meta.dirname, 'django', 'inspectdb.expected'), 'utf8');

async function djangoChecks(port: number): Promise<void> {
  const r = await runDjangoCheck(port, USER, PASSWORD);
  assert.equal(r.code, 0, r.output);
  assert.match(r.output, /^django check ok$/m);
  assert.equal(r.inspectdb, INSPECTDB);
}

/** psql's `\d` of a table, as PostgreSQL 15 prints it. */
async function describeTable(port: number, table: string): Promise<string> {
  const r = await runPsql(port, USER, '-c', `\\d ${table}`);
  return r.stdout + r.stderr;
}

const CHILD = `              Table "public.dc_child"
 Column |  Type   | Collation | Nullable | Default 
--------+---------+-----------+----------+---------
 id     | integer |           | not null | 
 p1     | integer |           |          | 
 p2     | integer |           |          | 
Indexes:
    "dc_child_pkey" PRIMARY KEY, btree (id)
Foreign-key constraints:
    "dc_child_p1_fkey" FOREIGN KEY (p1) REFERENCES dc_parent(id) DEFERRABLE INITIALLY DEFERRED
    "dc_p2" FOREIGN KEY (p2) REFERENCES dc_parent(id) ON DELETE CASCADE DEFERRABLE

`;
const PARENT = `             Table "public.dc_parent"
 Column |  Type   | Collation | Nullable | Default 
--------+---------+-----------+----------+---------
 id     | integer |           | not null | 
Indexes:
    "dc_parent_pkey" PRIMARY KEY, btree (id)
Referenced by:
    TABLE "dc_child" CONSTRAINT "dc_child_p1_fkey" FOREIGN KEY (p1) REFERENCES dc_parent(id) DEFERRABLE INITIALLY DEFERRED
    TABLE "dc_child" CONSTRAINT "dc_p2" FOREIGN KEY (p2) REFERENCES dc_parent(id) ON DELETE CASCADE DEFERRABLE

`;

async function deferrableCatalog(port: number): Promise<void> {
  await withPg(port, async (c) => {
    await c.query('CREATE TABLE dc_parent (id int PRIMARY KEY)');
    await c.query('CREATE TABLE dc_child (id int PRIMARY KEY, p1 int REFERENCES dc_parent DEFERRABLE INITIALLY DEFERRED, p2 int, CONSTRAINT dc_p2 FOREIGN KEY (p2) REFERENCES dc_parent (id) ON DELETE CASCADE DEFERRABLE)');
    const cons = await c.query({ rowMode: 'array', text: "SELECT conname, condeferrable, condeferred, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'dc_child'::regclass ORDER BY conname" });
    assert.deepEqual(cons.rows, [
      ['dc_child_p1_fkey', true, true, 'FOREIGN KEY (p1) REFERENCES dc_parent(id) DEFERRABLE INITIALLY DEFERRED'],
      ['dc_child_pkey', false, false, 'PRIMARY KEY (id)'],
      ['dc_p2', true, false, 'FOREIGN KEY (p2) REFERENCES dc_parent(id) ON DELETE CASCADE DEFERRABLE'],
    ]);
    const tc = await c.query({ rowMode: 'array', text: "SELECT constraint_name, constraint_type, is_deferrable, initially_deferred FROM information_schema.table_constraints WHERE table_name = 'dc_child' AND constraint_type <> 'CHECK' ORDER BY 1" });
    assert.deepEqual(tc.rows, [['dc_child_p1_fkey', 'FOREIGN KEY', 'YES', 'YES'], ['dc_child_pkey', 'PRIMARY KEY', 'NO', 'NO'], ['dc_p2', 'FOREIGN KEY', 'YES', 'NO']]);
  });
  assert.equal(await describeTable(port, 'dc_child'), CHILD);
  assert.equal(await describeTable(port, 'dc_parent'), PARENT);
}

/** A deferred check reads at COMMIT: the referenced row another transaction deleted meanwhile is gone. */
async function checkAtCommit(port: number, expected: { code: string; message: string }): Promise<void> {
  await withPg(port, (b) => withPg(port, async (a) => {
    await b.query('CREATE TABLE tw_parent (id int PRIMARY KEY)');
    await b.query('CREATE TABLE tw_child (id int PRIMARY KEY, parent_id int REFERENCES tw_parent DEFERRABLE INITIALLY DEFERRED)');
    await b.query('INSERT INTO tw_parent VALUES (1), (2)');
    await a.query('BEGIN');
    await a.query('INSERT INTO tw_child VALUES (1, 1)');
    assert.equal((await b.query('DELETE FROM tw_parent WHERE id = 1')).rowCount, 1);
    // The Pesto path and cause of a 40001 (fast or slow path) are left out: the outcome is what is checked.
    const failed = await a.query('COMMIT').then(() => null, (e: pg.DatabaseError) => ({ code: e.code ?? '', message: e.message.replace(/ \(Pesto .*\)$/, '') }));
    assert.deepEqual(failed, expected);
    assert.deepEqual((await a.query({ rowMode: 'array', text: 'SELECT count(*)::int FROM tw_child' })).rows, [[0]]);
    // Deferred again, the key arriving later in the transaction is what the check finds.
    await a.query('BEGIN');
    await a.query('INSERT INTO tw_child VALUES (2, 3)');
    await a.query('INSERT INTO tw_parent VALUES (3)');
    await a.query('COMMIT');
    assert.deepEqual((await b.query({ rowMode: 'array', text: 'SELECT id, parent_id FROM tw_child' })).rows, [[2, 3]]);
  }));
}

const VIOLATION = { code: '23503', message: 'insert or update on table "tw_child" violates foreign key constraint "tw_child_parent_id_fkey"' };

void describe('Django 3.2 through the gateway over the engine', { skip: DJANGO_SKIP }, () => {
  const port = engineGatewayForSuite();
  void it('migrates, finds no changes, runs the ORM and inspects the tables as on PostgreSQL 15', () => djangoChecks(port()));
  void it('shows DEFERRABLE foreign keys in pg_constraint, information_schema and psql\'s \\d', () => deferrableCatalog(port()));
  void it('checks a deferred foreign key at COMMIT against the rows committed by then', () => checkAtCommit(port(), VIOLATION));
});

void describe('Django 3.2 through the gateway over a cluster', { skip: DJANGO_SKIP }, () => {
  const { port } = clusterGatewayForSuite('gw-django', DJANGO_BASE_PORT);
  void it('migrates, finds no changes, runs the ORM and inspects the tables as on PostgreSQL 15', () => djangoChecks(port()));
  void it('shows DEFERRABLE foreign keys in pg_constraint, information_schema and psql\'s \\d', () => deferrableCatalog(port()));
});

void describe('deferred foreign key checks over a cluster', () => {
  const { port } = clusterGatewayForSuite('gw-deferred-fk', DEFERRED_BASE_PORT);
  void it('reads at COMMIT, before the prepare: a transaction older than the delete it missed aborts', () =>
    checkAtCommit(port(), { code: '40001', message: 'could not serialize access due to concurrent update' }));
});
