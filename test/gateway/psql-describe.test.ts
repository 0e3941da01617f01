/**
 * psql 15's describe commands through the gateway (client/gateway/psql-describe.ts): `\dt`, `\dt
 * pattern`, `\d table` (columns with types, NOT NULL and defaults, the primary key, UNIQUE constraints
 * and indexes), `\d` of a missing name, `\di`, `\dti`, `\l`, `\dn`, `\dt+`, `\du` and `\d+ table`. The
 * expected outputs are what psql prints against PostgreSQL 15 for the same DDL (a database with the C
 * collation, connected as the same user), byte for byte, except where a constant says otherwise.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PASSWORD, runPsql, startTestGateway } from './gateway-fixture.ts';

const USER = 'postgres';

const psql = (port: number, ...args: string[]): ReturnType<typeof runPsql> => runPsql(port, USER, ...args);

const DDL = [
  "CREATE TABLE demo (id int primary key, name text not null, v numeric(10,2) default 0, s serial, e varchar(20) unique, t timestamp default now(), c char(3) default 'ab', d date default '2024-01-02', f boolean default true)",
  'CREATE INDEX demo_name ON demo (name)',
  'create table nopk (a int)',
  'create table "Mixed Case" (k int, j int, primary key (k, j))',
];

/** `\\d` lists the SERIAL column's sequence too. */
const LIST_ALL = `             List of relations
 Schema |    Name    |   Type   |  Owner   
--------+------------+----------+----------
 public | Mixed Case | table    | postgres
 public | demo       | table    | postgres
 public | demo_s_seq | sequence | postgres
 public | nopk       | table    | postgres
(4 rows)

`;

const LIST = `           List of relations
 Schema |    Name    | Type  |  Owner   
--------+------------+-------+----------
 public | Mixed Case | table | postgres
 public | demo       | table | postgres
 public | nopk       | table | postgres
(3 rows)

`;

const LIST_DEMO = `        List of relations
 Schema | Name | Type  |  Owner   
--------+------+-------+----------
 public | demo | table | postgres
(1 row)

`;

const DEMO = `                                      Table "public.demo"
 Column |            Type             | Collation | Nullable |             Default             
--------+-----------------------------+-----------+----------+---------------------------------
 id     | integer                     |           | not null | 
 name   | text                        |           | not null | 
 v      | numeric(10,2)               |           |          | 0
 s      | integer                     |           | not null | nextval('demo_s_seq'::regclass)
 e      | character varying(20)       |           |          | 
 t      | timestamp without time zone |           |          | now()
 c      | character(3)                |           |          | 'ab'::bpchar
 d      | date                        |           |          | '2024-01-02'::date
 f      | boolean                     |           |          | true
Indexes:
    "demo_pkey" PRIMARY KEY, btree (id)
    "demo_e_key" UNIQUE CONSTRAINT, btree (e)
    "demo_name" btree (name)

`;

const NOPK = `                Table "public.nopk"
 Column |  Type   | Collation | Nullable | Default 
--------+---------+-----------+----------+---------
 a      | integer |           |          | 

`;

const MIXED = `             Table "public.Mixed Case"
 Column |  Type   | Collation | Nullable | Default 
--------+---------+-----------+----------+---------
 k      | integer |           | not null | 
 j      | integer |           | not null | 
Indexes:
    "Mixed Case_pkey" PRIMARY KEY, btree (k, j)

`;

const INDEXES = `                    List of relations
 Schema |      Name       | Type  |  Owner   |   Table    
--------+-----------------+-------+----------+------------
 public | Mixed Case_pkey | index | postgres | Mixed Case
 public | demo_e_key      | index | postgres | demo
 public | demo_name       | index | postgres | demo
 public | demo_pkey       | index | postgres | demo
(4 rows)

`;

const TABLES_AND_INDEXES_DEMO = `               List of relations
 Schema |    Name    | Type  |  Owner   | Table 
--------+------------+-------+----------+-------
 public | demo       | table | postgres | 
 public | demo_e_key | index | postgres | demo
 public | demo_name  | index | postgres | demo
 public | demo_pkey  | index | postgres | demo
(4 rows)

`;

const DATABASE_LIST = `                                        List of databases
 Name  |  Owner   | Encoding | Collate | Ctype | ICU Locale | Locale Provider | Access privileges 
-------+----------+----------+---------+-------+------------+-----------------+-------------------
 pesto | postgres | UTF8     | C       | C     |            | libc            | 
(1 row)

`;

// PostgreSQL 15 prints the database's size here; Pesto does not track sizes (the Size of \\dt+ is empty too).
const DATABASE_LIST_VERBOSE = `                                                         List of databases
 Name  |  Owner   | Encoding | Collate | Ctype | ICU Locale | Locale Provider | Access privileges | Size | Tablespace | Description 
-------+----------+----------+---------+-------+------------+-----------------+-------------------+------+------------+-------------
 pesto | postgres | UTF8     | C       | C     |            | libc            |                   |      | pg_default | 
(1 row)

`;

const SCHEMAS = `      List of schemas
  Name  |       Owner       
--------+-------------------
 public | pg_database_owner
(1 row)

`;

const DEMO_VERBOSE = `                                                                 Table "public.demo"
 Column |            Type             | Collation | Nullable |             Default             | Storage  | Compression | Stats target | Description 
--------+-----------------------------+-----------+----------+---------------------------------+----------+-------------+--------------+-------------
 id     | integer                     |           | not null |                                 | plain    |             |              | 
 name   | text                        |           | not null |                                 | extended |             |              | 
 v      | numeric(10,2)               |           |          | 0                               | main     |             |              | 
 s      | integer                     |           | not null | nextval('demo_s_seq'::regclass) | plain    |             |              | 
 e      | character varying(20)       |           |          |                                 | extended |             |              | 
 t      | timestamp without time zone |           |          | now()                           | plain    |             |              | 
 c      | character(3)                |           |          | 'ab'::bpchar                    | extended |             |              | 
 d      | date                        |           |          | '2024-01-02'::date              | plain    |             |              | 
 f      | boolean                     |           |          | true                            | plain    |             |              | 
Indexes:
    "demo_pkey" PRIMARY KEY, btree (id)
    "demo_e_key" UNIQUE CONSTRAINT, btree (e)
    "demo_name" btree (name)
Access method: heap

`;

// Not PostgreSQL's output: table sizes are not tracked (PostgreSQL prints 8192 bytes for demo), and the
// one role is the session's user, a superuser with no other attributes.
const LIST_VERBOSE = `                                     List of relations
 Schema |    Name    | Type  |  Owner   | Persistence | Access method | Size | Description 
--------+------------+-------+----------+-------------+---------------+------+-------------
 public | Mixed Case | table | postgres | permanent   | heap          |      | 
 public | demo       | table | postgres | permanent   | heap          |      | 
 public | nopk       | table | postgres | permanent   | heap          |      | 
(3 rows)

`;

// The gateway's configured user is a bootstrap superuser, as PostgreSQL's initdb user postgres is.
const ROLES = `                                   List of roles
 Role name |                         Attributes                         | Member of 
-----------+------------------------------------------------------------+-----------
 postgres  | Superuser, Create role, Create DB, Replication, Bypass RLS | {}

`;

void test('psql \\di, \\l, \\l+, \\dn, \\dt+, \\du and \\d+ list indexes, the database, the schema, the user and a table in full', async () => {
  const gw = await startTestGateway({ users: [{ name: USER, password: PASSWORD }] });
  try {
    const ddl = await psql(gw.port, '-v', 'ON_ERROR_STOP=1', ...DDL.flatMap((s) => ['-c', s]));
    assert.equal(ddl.code, 0, ddl.stderr);
    const commands = [['\\di', INDEXES], ['\\dti demo*', TABLES_AND_INDEXES_DEMO], ['\\l pesto', DATABASE_LIST], ['\\l', DATABASE_LIST], ['\\l+', DATABASE_LIST_VERBOSE], ['\\dn', SCHEMAS], ['\\dt+', LIST_VERBOSE], ['\\du', ROLES], ['\\d+ demo', DEMO_VERBOSE]] as const;
    for (const [command, expected] of commands) {
      const r = await psql(gw.port, '-c', command);
      assert.equal(r.code, 0, `${command}: ${r.stderr}`);
      assert.equal(r.stdout, expected, command);
    }
    const none = await psql(gw.port, '-c', '\\di nothere*');
    assert.equal(none.stderr, 'Did not find any relation named "nothere*".\n');
  } finally {
    await gw.close();
  }
});

void test('psql \\d, \\dt and \\d table print what they print against PostgreSQL 15', async () => {
  const gw = await startTestGateway({ users: [{ name: USER, password: PASSWORD }] });
  try {
    const empty = await psql(gw.port, '-c', '\\dt');
    assert.equal(empty.code, 0, empty.stderr);
    assert.equal(empty.stderr, 'Did not find any relations.\n');
    const ddl = await psql(gw.port, '-v', 'ON_ERROR_STOP=1', ...DDL.flatMap((s) => ['-c', s]));
    assert.equal(ddl.code, 0, ddl.stderr);
    for (const [command, expected] of [['\\d', LIST_ALL], ['\\dt', LIST], ['\\dt demo*', LIST_DEMO], ['\\d demo', DEMO], ['\\d nopk', NOPK], ['\\d "Mixed Case"', MIXED]] as const) {
      const r = await psql(gw.port, '-c', command);
      assert.equal(r.code, 0, `${command}: ${r.stderr}`);
      assert.equal(r.stdout, expected, command);
    }
    const missing = await psql(gw.port, '-c', '\\d nothere');
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr, 'Did not find any relation named "nothere".\n');
  } finally {
    await gw.close();
  }
});

// Foreign keys (psql asks for them when relhastriggers is set): "Foreign-key constraints" and "Referenced by", in name order.
const FK_DDL = [
  "CREATE TABLE fk_parent (id int PRIMARY KEY, code text UNIQUE);",
  "CREATE TABLE fk_child (id int PRIMARY KEY, parent_id int REFERENCES fk_parent ON DELETE CASCADE, code text, CONSTRAINT fk_code FOREIGN KEY (code) REFERENCES fk_parent (code) MATCH FULL ON UPDATE SET NULL ON DELETE RESTRICT);",
  "CREATE TABLE \"Odd Child\" (k int REFERENCES fk_parent);"
];
const FK_DESCRIBE: readonly (readonly [string, string])[] = [
  ["fk_parent", `             Table "public.fk_parent"
 Column |  Type   | Collation | Nullable | Default 
--------+---------+-----------+----------+---------
 id     | integer |           | not null | 
 code   | text    |           |          | 
Indexes:
    "fk_parent_pkey" PRIMARY KEY, btree (id)
    "fk_parent_code_key" UNIQUE CONSTRAINT, btree (code)
Referenced by:
    TABLE ""Odd Child"" CONSTRAINT "Odd Child_k_fkey" FOREIGN KEY (k) REFERENCES fk_parent(id)
    TABLE "fk_child" CONSTRAINT "fk_child_parent_id_fkey" FOREIGN KEY (parent_id) REFERENCES fk_parent(id) ON DELETE CASCADE
    TABLE "fk_child" CONSTRAINT "fk_code" FOREIGN KEY (code) REFERENCES fk_parent(code) MATCH FULL ON UPDATE SET NULL ON DELETE RESTRICT

`],
  ["fk_child", `               Table "public.fk_child"
  Column   |  Type   | Collation | Nullable | Default 
-----------+---------+-----------+----------+---------
 id        | integer |           | not null | 
 parent_id | integer |           |          | 
 code      | text    |           |          | 
Indexes:
    "fk_child_pkey" PRIMARY KEY, btree (id)
Foreign-key constraints:
    "fk_child_parent_id_fkey" FOREIGN KEY (parent_id) REFERENCES fk_parent(id) ON DELETE CASCADE
    "fk_code" FOREIGN KEY (code) REFERENCES fk_parent(code) MATCH FULL ON UPDATE SET NULL ON DELETE RESTRICT

`],
  ["\"Odd Child\"", `             Table "public.Odd Child"
 Column |  Type   | Collation | Nullable | Default 
--------+---------+-----------+----------+---------
 k      | integer |           |          | 
Foreign-key constraints:
    "Odd Child_k_fkey" FOREIGN KEY (k) REFERENCES fk_parent(id)

`]
];

void test('psql \\d lists a table\'s foreign keys and the foreign keys referencing it, as pg_get_constraintdef prints them', async () => {
  const gw = await startTestGateway({ users: [{ name: USER, password: PASSWORD }] });
  try {
    const ddl = await psql(gw.port, '-v', 'ON_ERROR_STOP=1', ...FK_DDL.flatMap((s) => ['-c', s]));
    assert.equal(ddl.code, 0, ddl.stderr);
    for (const [name, expected] of FK_DESCRIBE) {
      const r = await psql(gw.port, '-c', `\\d ${name}`);
      assert.equal(r.code, 0, `${name}: ${r.stderr}`);
      assert.equal(r.stdout, expected, name);
    }
  } finally {
    await gw.close();
  }
});

// CHECK constraints (psql asks when relchecks > 0): "Check constraints", in name order, as pg_get_constraintdef(oid, true) prints them.
const CHECK_DDL = [
  `CREATE TABLE ck_items (id int PRIMARY KEY, price numeric CHECK (price >= 0), "Label" varchar(10) CHECK (length("Label") > 0), kind text, qty int,
    CONSTRAINT kind_known CHECK (kind IN ('a', 'b') OR kind IS NULL), CHECK (qty BETWEEN 1 AND 100))`,
  'ALTER TABLE ck_items ADD CONSTRAINT later CHECK (qty <> 13) NOT VALID',
];
const CHECK_DESCRIBE = `                     Table "public.ck_items"
 Column |         Type          | Collation | Nullable | Default 
--------+-----------------------+-----------+----------+---------
 id     | integer               |           | not null | 
 price  | numeric               |           |          | 
 Label  | character varying(10) |           |          | 
 kind   | text                  |           |          | 
 qty    | integer               |           |          | 
Indexes:
    "ck_items_pkey" PRIMARY KEY, btree (id)
Check constraints:
    "ck_items_Label_check" CHECK (length("Label"::text) > 0)
    "ck_items_price_check" CHECK (price >= 0::numeric)
    "ck_items_qty_check" CHECK (qty >= 1 AND qty <= 100)
    "kind_known" CHECK ((kind = ANY (ARRAY['a'::text, 'b'::text])) OR kind IS NULL)
    "later" CHECK (qty <> 13) NOT VALID

`;

void test('psql \\d lists a table\'s CHECK constraints as PostgreSQL 15 prints them', async () => {
  const gw = await startTestGateway({ users: [{ name: USER, password: PASSWORD }] });
  try {
    const ddl = await psql(gw.port, '-v', 'ON_ERROR_STOP=1', ...CHECK_DDL.flatMap((s) => ['-c', s]));
    assert.equal(ddl.code, 0, ddl.stderr);
    const r = await psql(gw.port, '-c', '\\d ck_items');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, CHECK_DESCRIBE);
  } finally {
    await gw.close();
  }
});
