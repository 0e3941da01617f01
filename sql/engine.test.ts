import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine, type ExecResult } from './engine.ts';
import { formatText } from './types.ts';
import { encodeKey } from './key-encoding.ts';

const engine = await Engine.create();

function rows(r: ExecResult): (string | null)[][] {
  assert.ok(r.ok, r.ok ? '' : `${r.error.code} ${r.error.message}`);
  return r.rows.map((row) => row.map((v, i) => (v === null ? null : formatText(v, r.columns[i]?.type ?? 'text'))));
}

function errCode(r: ExecResult): string {
  assert.ok(!r.ok, 'expected an error');
  return r.error.code;
}

void test('creates, fills and queries a table with PostgreSQL command tags', () => {
  const s = engine.session();
  assert.equal(s.execute('CREATE TABLE e1 (id int PRIMARY KEY, name varchar(10) NOT NULL, amt numeric(8,2) DEFAULT 0)').ok, true);
  const ins = s.execute("INSERT INTO e1 VALUES (1, 'a', 1.5), (2, 'b', 2.25), (3, 'c', NULL)");
  assert.ok(ins.ok && ins.tag === 'INSERT 0 3');
  assert.deepEqual(rows(s.execute('SELECT id, amt FROM e1 WHERE id >= $1 ORDER BY id DESC', [2])), [['3', null], ['2', '2.25']]);
  const upd = s.execute('UPDATE e1 SET amt = amt * 2 WHERE id = 1 RETURNING amt');
  assert.ok(upd.ok && upd.tag === 'UPDATE 1');
  assert.deepEqual(rows(upd), [['3.00']]);
  const del = s.execute('DELETE FROM e1 WHERE amt IS NULL');
  assert.ok(del.ok && del.tag === 'DELETE 1');
  assert.deepEqual(rows(s.execute('SELECT count(*), sum(amt) FROM e1')), [['2', '5.25']]);
});

void test('reports constraint and runtime errors with SQLSTATEs instead of throwing', () => {
  const s = engine.session();
  s.execute('CREATE TABLE e2 (id int PRIMARY KEY, v text NOT NULL)');
  s.execute("INSERT INTO e2 VALUES (1, 'x')");
  assert.equal(errCode(s.execute("INSERT INTO e2 VALUES (1, 'y')")), '23505');
  assert.equal(errCode(s.execute('INSERT INTO e2 VALUES (2, NULL)')), '23502');
  assert.equal(errCode(s.execute('SELECT 1/0')), '22012');
  assert.equal(errCode(s.execute('SELECT 2147483647 + 1')), '22003');
  assert.equal(errCode(s.execute('SELECT nope FROM e2')), '42703');
  assert.equal(errCode(s.execute('SELECT * FROM nope')), '42P01');
  assert.equal(errCode(s.execute('SELEC 1')), '42601');
  assert.equal(errCode(s.execute("SELECT 'abc'::int")), '22P02');
});

void test('checks CHECK constraints with the names and messages of PostgreSQL 15', () => {
  const s = engine.session();
  assert.ok(s.execute('CREATE TABLE eck (id int PRIMARY KEY, a int CHECK (a > 0), b int, c int CHECK (c > 0) CHECK (c < 100), CHECK (a > b), CHECK (b >= 0), CONSTRAINT named CHECK (a < 1000))').ok);
  // What psql prints against PostgreSQL 15 for the same statements (the first failing constraint by name).
  const cases: [string, string][] = [
    ['(2, 0, -5, 50)', 'ck_a_check'], ['(3, 5, 6, 50)', 'ck_check'], ['(4, 5, 1, 100)', 'ck_c_check1'], ['(5, 2000, 1, 5)', 'named'], ['(7, 5, -1, 5)', 'ck_b_check'],
  ];
  for (const [values, name] of cases) {
    const r = s.execute(`INSERT INTO eck VALUES ${values}`);
    assert.ok(!r.ok);
    assert.equal(r.error.code, '23514');
    assert.equal(r.error.message, `new row for relation "eck" violates check constraint "${name.replace(/^ck/, 'eck')}"`);
    assert.equal(r.error.detail, `Failing row contains ${values}.`);
  }
  assert.ok(s.execute('INSERT INTO eck VALUES (8, NULL, NULL, NULL)').ok, 'a NULL check result passes');
  assert.equal(errCode(s.execute('CREATE TABLE eck2 (id int PRIMARY KEY, CONSTRAINT x CHECK (id > 0), CONSTRAINT x CHECK (id < 9))')), '42710');
});

void test('buffers transaction writes, shows them to the transaction and applies them at commit', () => {
  const a = engine.session();
  const b = engine.session();
  a.execute('CREATE TABLE e3 (id int PRIMARY KEY, v int)');
  a.execute('BEGIN');
  a.execute('INSERT INTO e3 VALUES (1, 10)');
  assert.deepEqual(rows(a.execute('SELECT v FROM e3')), [['10']]);
  assert.deepEqual(rows(b.execute('SELECT v FROM e3')), []);
  assert.equal(a.execute('COMMIT').ok, true);
  assert.deepEqual(rows(b.execute('SELECT v FROM e3')), [['10']]);
  a.execute('BEGIN');
  a.execute('UPDATE e3 SET v = 11');
  a.execute('ROLLBACK');
  assert.deepEqual(rows(b.execute('SELECT v FROM e3')), [['10']]);
});

void test('aborts a transaction after an error until ROLLBACK (25P02)', () => {
  const s = engine.session();
  s.execute('CREATE TABLE e4 (id int PRIMARY KEY)');
  s.execute('BEGIN');
  s.execute('INSERT INTO e4 VALUES (1)');
  assert.equal(errCode(s.execute('INSERT INTO e4 VALUES (1)')), '23505');
  assert.equal(errCode(s.execute('SELECT 1')), '25P02');
  const c = s.execute('COMMIT');
  assert.ok(c.ok && c.tag === 'ROLLBACK');
  assert.deepEqual(rows(s.execute('SELECT count(*) FROM e4')), [['0']]);
});

void test('prepares statements with inferred parameter and result types', () => {
  engine.session().execute('CREATE TABLE e5 (id bigint PRIMARY KEY, price numeric(10,2), name text)');
  const p = engine.prepare('SELECT name, price * 2 AS p2 FROM e5 WHERE id = $1 AND price > $2 LIMIT $3');
  assert.ok(p.ok);
  assert.deepEqual(p.info.paramTypes, ['int8', 'numeric', 'int8']);
  assert.deepEqual(p.info.columns.map((c) => [c.name, c.type]), [['name', 'text'], ['p2', 'numeric']]);
  const s = engine.session();
  assert.ok(s.prepare('ins', 'INSERT INTO e5 VALUES ($1, $2, $3)').ok);
  assert.ok(s.executePrepared('ins', ['7', '1.5', 'x']).ok);
  assert.deepEqual(rows(s.execute('SELECT id, price FROM e5')), [['7', '1.50']]);
});

void test('applies a cast\'s type modifier to an untyped parameter, as PostgreSQL does', () => {
  // PostgreSQL 15: EXECUTE of this with these values gives abc|x |24:00:00|1.3|2020-01-01 10:00:01.
  const r = engine.session().execute('SELECT $1::varchar(3), $2::char(2), $3::time(1), $4::numeric(3,1), $5::timestamp(0)',
    ['abcdef', 'x', '23:59:59.99', '1.26', '2020-01-01 10:00:00.6']);
  assert.deepEqual(rows(r), [['abc', 'x ', '24:00:00', '1.3', '2020-01-01 10:00:01']]);
});

void test("reports a constant cast's type modifier in the result's columns, as PostgreSQL's RowDescription does", () => {
  // PostgreSQL 15's atttypmod of each: numeric(4,1) 262149, varchar(3) 7, time(2) 2, char(4) 8; none without a modifier.
  const p = engine.prepare("SELECT 1.5::numeric(4,1) AS a, 'x'::varchar(3) AS b, '12:00'::time(2) AS c, CAST('ab' AS char(4)) AS d, 1.5::numeric AS e");
  assert.ok(p.ok);
  assert.deepEqual(p.info.columns.map((c) => [c.name, c.typmod]), [['a', 262149], ['b', 7], ['c', 2], ['d', 8], ['e', -1]]);
});

void test('executes multi-statement strings statement by statement', () => {
  const s = engine.session();
  const all = s.executeAll('CREATE TABLE e6 (a int); INSERT INTO e6 VALUES (1), (2); SELECT sum(a) FROM e6');
  assert.deepEqual(all.map((r) => (r.ok ? r.tag : r.error.code)), ['CREATE TABLE', 'INSERT 0 2', 'SELECT 1']);
});

void test('gives tables without a primary key a hidden row id and accepts ADD PRIMARY KEY later', () => {
  const s = engine.session();
  s.execute('CREATE TABLE e7 (a int, b text) WITH (fillfactor=100)');
  s.execute("INSERT INTO e7 VALUES (2, 'y'), (1, 'x'), (1, 'x')");
  assert.deepEqual(rows(s.execute('SELECT * FROM e7 ORDER BY a')), [['1', 'x'], ['1', 'x'], ['2', 'y']]);
  assert.equal(errCode(s.execute('ALTER TABLE e7 ADD PRIMARY KEY (a)')), '23505');
  s.execute('DELETE FROM e7 WHERE a = 1');
  assert.equal(s.execute('ALTER TABLE e7 ADD PRIMARY KEY (a)').ok, true);
  assert.equal(errCode(s.execute("INSERT INTO e7 VALUES (2, 'z')")), '23505');
});

void test('fixes now() for the whole transaction', () => {
  const e = engine.session();
  e.execute('BEGIN');
  const a = rows(e.execute('SELECT now()'));
  const b = rows(e.execute('SELECT CURRENT_TIMESTAMP'));
  e.execute('COMMIT');
  assert.deepEqual(a, b);
});

void test('aborts the second of two conflicting transactions with 40001 (serializable)', () => {
  const a = engine.session();
  const b = engine.session();
  a.execute('CREATE TABLE e8 (id int PRIMARY KEY, v int)');
  a.execute('INSERT INTO e8 VALUES (1, 0), (2, 0)');
  a.execute('BEGIN');
  b.execute('BEGIN');
  a.execute('UPDATE e8 SET v = v + 1 WHERE id = 1');
  b.execute('UPDATE e8 SET v = v + 10 WHERE id = 1');
  assert.equal(a.execute('COMMIT').ok, true);
  assert.equal(errCode(b.execute('COMMIT')), '40001');
  assert.deepEqual(rows(a.execute('SELECT v FROM e8 WHERE id = 1')), [['1']]);
  // Write skew through a phantom: each counts rows then inserts.
  a.execute('BEGIN');
  b.execute('BEGIN');
  rows(a.execute('SELECT count(*) FROM e8 WHERE v > 5'));
  rows(b.execute('SELECT count(*) FROM e8 WHERE v > 5'));
  a.execute('INSERT INTO e8 VALUES (3, 9)');
  b.execute('INSERT INTO e8 VALUES (4, 9)');
  assert.equal(a.execute('COMMIT').ok, true);
  assert.equal(errCode(b.execute('COMMIT')), '40001');
});

void test('runs outer joins, recursive CTEs and correlated subqueries over grouped rows', () => {
  const s = engine.session();
  s.execute('CREATE TABLE e9 (id int PRIMARY KEY, g int)');
  s.execute('CREATE TABLE e10 (g int PRIMARY KEY, total int)');
  s.execute('INSERT INTO e9 VALUES (1, 1), (2, 1), (3, 2)');
  s.execute('INSERT INTO e10 VALUES (1, 2), (2, 5), (3, 0)');
  assert.deepEqual(rows(s.execute('SELECT g, count(*) FROM e9 GROUP BY g HAVING count(*) <> (SELECT total FROM e10 WHERE e10.g = e9.g) ORDER BY g')), [['2', '1']]);
  assert.deepEqual(rows(s.execute('SELECT e9.id, e10.g FROM e9 RIGHT JOIN e10 ON e9.g = e10.g ORDER BY 2, 1')), [['1', '1'], ['2', '1'], ['3', '2'], [null, '3']]);
  assert.deepEqual(rows(s.execute('SELECT count(*) FROM e9 FULL JOIN e10 ON e9.id = e10.total')), [['5']]);
  assert.deepEqual(rows(s.execute('WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 4) SELECT sum(x) FROM n')), [['10']]);
});

void test('rolls back to a savepoint, keeping earlier writes and leaving the aborted state', () => {
  const s = engine.session();
  s.execute('CREATE TABLE e11 (id int PRIMARY KEY)');
  s.execute('BEGIN');
  s.execute('INSERT INTO e11 VALUES (1)');
  s.execute('SAVEPOINT sp');
  s.execute('INSERT INTO e11 VALUES (2)');
  assert.equal(errCode(s.execute('INSERT INTO e11 VALUES (2)')), '23505');
  assert.equal(s.execute('ROLLBACK TO SAVEPOINT sp').ok, true);
  s.execute('INSERT INTO e11 VALUES (3)');
  assert.equal(s.execute('COMMIT').ok, true);
  assert.deepEqual(rows(s.execute('SELECT id FROM e11 ORDER BY id')), [['1'], ['3']]);
});

void test('adds a column to a filled table, existing rows taking its default', () => {
  const s = engine.session();
  s.execute('CREATE TABLE e12 (id int PRIMARY KEY, v int UNIQUE)');
  s.execute('INSERT INTO e12 VALUES (1, 1)');
  assert.equal(s.execute('ALTER TABLE e12 ADD COLUMN w numeric(5,2) DEFAULT 1.5').ok, true);
  assert.equal(errCode(s.execute('ALTER TABLE e12 ADD COLUMN x text NOT NULL')), '23502');
  assert.equal(errCode(s.execute('INSERT INTO e12 VALUES (2, 1)')), '23505');
  s.execute('INSERT INTO e12 (id, v) VALUES (3, 3)');
  assert.deepEqual(rows(s.execute('SELECT * FROM e12 ORDER BY id')), [['1', '1', '1.50'], ['3', '3', '1.50']]);
});

void test('DDL in a transaction block is undone by ROLLBACK, keeps the writes before it, and holds other sessions off', () => {
  const s = engine.session();
  const other = engine.session();
  assert.ok(s.execute('CREATE TABLE keepme (id int PRIMARY KEY)').ok);
  assert.ok(s.execute('INSERT INTO keepme VALUES (1), (2)').ok);
  for (const ddl of ['DROP TABLE keepme', 'TRUNCATE keepme', 'ALTER TABLE keepme ADD COLUMN v text', 'CREATE TABLE other (id int PRIMARY KEY)']) {
    assert.ok(s.execute('BEGIN').ok);
    assert.ok(s.execute(ddl).ok, ddl);
    // Until it ends, other sessions neither see nor build on it.
    assert.equal(errCode(other.execute('SELECT count(*) FROM keepme')), '40001', ddl);
    assert.equal(errCode(other.execute('INSERT INTO keepme VALUES (9)')), '40001', ddl);
    assert.ok(s.execute('ROLLBACK').ok);
    assert.deepEqual(rows(other.execute('SELECT * FROM keepme ORDER BY id')), [['1'], ['2']], ddl);
  }
  assert.equal(errCode(s.execute('SELECT * FROM other')), '42P01');
  // Writes before and after DDL in one transaction commit together; a savepoint after DDL undoes what follows it.
  assert.ok(s.execute('BEGIN').ok);
  assert.ok(s.execute('INSERT INTO keepme VALUES (3)').ok);
  assert.ok(s.execute("ALTER TABLE keepme ADD COLUMN v text DEFAULT 'x'").ok);
  assert.ok(s.execute("INSERT INTO keepme VALUES (4, 'y')").ok);
  assert.ok(s.execute('SAVEPOINT a').ok);
  assert.ok(s.execute('DROP TABLE keepme').ok);
  assert.ok(s.execute('ROLLBACK TO a').ok);
  assert.ok(s.execute('COMMIT').ok);
  assert.deepEqual(rows(other.execute('SELECT * FROM keepme ORDER BY id')), [['1', 'x'], ['2', 'x'], ['3', 'x'], ['4', 'y']]);
  // A savepoint before the first DDL: rolling back to it undoes the DDL and frees the engine.
  assert.ok(s.execute('BEGIN').ok);
  assert.ok(s.execute('INSERT INTO keepme VALUES (5)').ok);
  assert.ok(s.execute('SAVEPOINT b').ok);
  assert.ok(s.execute('TRUNCATE keepme').ok);
  assert.ok(s.execute('ROLLBACK TO b').ok);
  assert.deepEqual(rows(other.execute('SELECT count(*) FROM keepme')), [['4']]);
  assert.ok(s.execute('COMMIT').ok);
  assert.deepEqual(rows(other.execute('SELECT count(*) FROM keepme')), [['5']]);
  // A failed transaction that ran DDL is undone at COMMIT (which reports ROLLBACK).
  assert.ok(s.execute('BEGIN').ok);
  assert.ok(s.execute('DROP TABLE keepme').ok);
  assert.equal(errCode(s.execute('SELECT 1 / 0')), '22012');
  const c = s.execute('COMMIT');
  assert.ok(c.ok && c.tag === 'ROLLBACK');
  assert.deepEqual(rows(other.execute('SELECT count(*) FROM keepme')), [['5']]);
});

void test('DROP COLUMN refuses a primary-key column, and a dropped column is NULL in new rows', () => {
  const s = engine.session();
  assert.ok(s.execute('CREATE TABLE dcol (id int PRIMARY KEY, v int NOT NULL, w text)').ok);
  assert.equal(errCode(s.execute('ALTER TABLE dcol DROP COLUMN id')), '0A000');
  assert.ok(s.execute('ALTER TABLE dcol DROP COLUMN v').ok);
  assert.ok(s.execute("INSERT INTO dcol VALUES (1, 'x')").ok);
  const t = engine.catalog.require('dcol');
  assert.deepEqual(t.columns.map((c) => [c.name, c.hidden, c.dropped === true]), [['id', false, false], ['........pg.dropped.2........', true, true], ['w', false, false]]);
  assert.deepEqual(engine.store.get(t, encodeKey([1], t.pkTypes))?.row, [1, null, 'x']);
});

void test('FOREIGN KEY constraints are stored under PostgreSQL\'s names, without a notice, and enforced', async () => {
  const own = await Engine.create();
  const s = own.session();
  assert.ok(s.execute('CREATE TABLE fkt_parent (id int PRIMARY KEY, code text UNIQUE)').ok);
  const created = s.execute('CREATE TABLE fkt_child (id int PRIMARY KEY, p int REFERENCES fkt_parent (id) ON DELETE CASCADE, c text, FOREIGN KEY (c) REFERENCES fkt_parent (code) MATCH FULL ON UPDATE SET NULL)');
  assert.ok(created.ok);
  assert.equal(created.notices, undefined);
  const altered = s.execute('ALTER TABLE fkt_child ADD CONSTRAINT fk_p FOREIGN KEY (p) REFERENCES fkt_parent');
  assert.ok(altered.ok);
  assert.equal(altered.notices, undefined);
  assert.deepEqual(own.catalog.require('fkt_child').foreignKeys, [
    { name: 'fkt_child_p_fkey', columns: [1], refTable: 'fkt_parent', refColumns: [0], onDelete: 'cascade', onUpdate: 'no action', matchFull: false },
    { name: 'fkt_child_c_fkey', columns: [2], refTable: 'fkt_parent', refColumns: [1], onDelete: 'no action', onUpdate: 'set null', matchFull: true },
    { name: 'fk_p', columns: [1], refTable: 'fkt_parent', refColumns: [0], onDelete: 'no action', onUpdate: 'no action', matchFull: false },
  ]);
  const missing = s.execute('INSERT INTO fkt_child VALUES (1, 5, NULL)');
  assert.ok(!missing.ok);
  assert.equal(missing.error.code, '23503');
  assert.equal(missing.error.message, 'insert or update on table "fkt_child" violates foreign key constraint "fkt_child_p_fkey"');
  assert.equal(missing.error.detail, 'Key (p)=(5) is not present in table "fkt_parent".');
  assert.ok(s.execute("INSERT INTO fkt_parent VALUES (5, 'x')").ok);
  assert.ok(s.execute("INSERT INTO fkt_child VALUES (1, 5, 'x')").ok);
  assert.ok(s.execute("UPDATE fkt_parent SET code = 'y'").ok);
  assert.deepEqual(rows(s.execute('SELECT id, p, c FROM fkt_child')), [['1', '5', null]]); // ON UPDATE SET NULL
  // Both constraints on p fire in creation order: the CASCADE deletes the row before fk_p (NO ACTION) looks, as in PostgreSQL.
  assert.ok(s.execute('DELETE FROM fkt_parent').ok);
  assert.deepEqual(rows(s.execute('SELECT id FROM fkt_child')), []);
  assert.ok(s.execute('ALTER TABLE fkt_child DROP CONSTRAINT fkt_child_p_fkey').ok);
  assert.ok(s.execute("INSERT INTO fkt_parent VALUES (6, 'z')").ok && s.execute('INSERT INTO fkt_child VALUES (2, 6, NULL)').ok);
  const referenced = s.execute('DELETE FROM fkt_parent');
  assert.ok(!referenced.ok);
  assert.equal(referenced.error.message, 'update or delete on table "fkt_parent" violates foreign key constraint "fk_p" on table "fkt_child"');
  assert.equal(referenced.error.detail, 'Key (id)=(6) is still referenced from table "fkt_child".');
  // Not supported: MATCH PARTIAL (0A000, as PostgreSQL says). Deferred checks: test/sql/foreign-keys-deferrable.slt.
  for (const sql of ['CREATE TABLE fkt_def (p int REFERENCES fkt_parent MATCH PARTIAL)']) {
    const r = s.execute(sql);
    assert.ok(!r.ok, sql);
    assert.equal(r.error.code, '0A000', sql);
  }
  const plain = s.execute('CREATE TABLE fkt_none (id int PRIMARY KEY)');
  assert.ok(plain.ok);
  assert.equal(plain.notices, undefined);
});

void test('CREATE SCHEMA: public exists (a notice under IF NOT EXISTS), any other is refused with 0A000 and creates nothing', () => {
  const s = engine.session();
  const again = s.execute('CREATE SCHEMA IF NOT EXISTS public');
  assert.ok(again.ok && again.tag === 'CREATE SCHEMA');
  assert.deepEqual(again.notices, ['schema "public" already exists, skipping']);
  assert.equal(errCode(s.execute('CREATE SCHEMA public')), '42P06');
  const other = s.execute('CREATE SCHEMA IF NOT EXISTS app');
  assert.ok(!other.ok && other.error.code === '0A000' && /keeps its tables.* in schema public/.test(other.error.message));
  assert.equal(errCode(s.execute('CREATE TABLE app.t (a int)')), '3F000');
  assert.equal(errCode(s.execute('SELECT * FROM t')), '42P01');
  const drop = s.execute('DROP SCHEMA IF EXISTS app');
  assert.ok(drop.ok && drop.tag === 'DROP SCHEMA');
  assert.deepEqual(drop.notices, ['schema "app" does not exist, skipping']);
  assert.equal(errCode(s.execute('DROP SCHEMA public CASCADE')), '0A000');
});

void test('DROP ROLE names the default privileges that depend on the role, as PostgreSQL 15 words them', () => {
  const s = engine.session();
  for (const q of ['CREATE ROLE dr_a', 'CREATE ROLE dr_b', 'ALTER DEFAULT PRIVILEGES GRANT SELECT ON TABLES TO dr_a',
    'ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT INSERT ON TABLES TO dr_a', 'ALTER DEFAULT PRIVILEGES GRANT USAGE ON SEQUENCES TO dr_a',
    'ALTER DEFAULT PRIVILEGES FOR ROLE dr_b REVOKE ALL ON FUNCTIONS FROM PUBLIC']) assert.ok(s.execute(q).ok, q);
  const a = s.execute('DROP ROLE dr_a');
  assert.ok(!a.ok && a.error.code === '2BP01');
  assert.match(a.error.detail ?? '', /^privileges for default privileges on new relations belonging to role \S+\nprivileges for default privileges on new relations belonging to role \S+ in schema public\nprivileges for default privileges on new sequences belonging to role \S+$/);
  const b = s.execute('DROP ROLE dr_b');
  assert.ok(!b.ok && b.error.detail === 'owner of default privileges on new functions belonging to role dr_b');
  for (const q of ['ALTER DEFAULT PRIVILEGES REVOKE ALL ON TABLES FROM dr_a', 'ALTER DEFAULT PRIVILEGES IN SCHEMA public REVOKE ALL ON TABLES FROM dr_a',
    'ALTER DEFAULT PRIVILEGES REVOKE ALL ON SEQUENCES FROM dr_a', 'ALTER DEFAULT PRIVILEGES FOR ROLE dr_b GRANT ALL ON FUNCTIONS TO PUBLIC', 'DROP ROLE dr_a', 'DROP ROLE dr_b']) assert.ok(s.execute(q).ok, q);
});
