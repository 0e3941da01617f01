"""Row values (the record type) through psycopg2 and psycopg 3: anonymous records (ROW(...), derived
tables; oid 2249, which psycopg 3 parses into tuples from text and from record_send's binary form) and a
table's row type (pg_class.reltype, `SELECT t FROM t`). Prints one line per check;
test/gateway/records.test.ts compares them with what PostgreSQL 15 gives.
Usage: record_check.py PORT USER PASSWORD DB"""

import psycopg
import psycopg2

from driver_dsn import dsn

c2 = psycopg2.connect(dsn)
c2.autocommit = True
k = c2.cursor()
k.execute("create table dr_r (a int primary key, b text, c numeric, d date)")
k.execute("insert into dr_r values (1, 'a b', 1.50, '2020-01-02'), (2, '', NULL, NULL), (3, 'x\"y\\z,(', -3, '1999-12-31')")
k.execute("select dr_r, row(a, b), (a, null::text, true) from dr_r order by a")
print('psycopg2', k.fetchall())
reltype = None
k.execute("select reltype from pg_class where relname = 'dr_r'")
reltype = k.fetchone()[0]
k.execute("select dr_r, row(a, b) from dr_r limit 0")
print('psycopg2 type codes: the table row type, record', k.description[0].type_code == reltype, k.description[1].type_code)

c3 = psycopg.connect(dsn, autocommit=True)
q = "select row(a, b, c, d), x from dr_r, lateral (select a * 10 as n, 'q' as m) x order by a"
print('psycopg3 text', c3.execute(q).fetchall())
# psycopg 3 loads the records of one result with one transformer: one record column per binary query.
print('psycopg3 binary', c3.execute("select row(a, b, c, d) from dr_r order by a", binary=True).fetchall())
print('psycopg3 binary derived table', c3.execute("select x from dr_r, lateral (select a * 10 as n, 'q' as m) x order by a", binary=True).fetchall())
print('psycopg3 nested', c3.execute("select row(1, row(2, 'x y'), null)").fetchall())
print('psycopg3 table row type text', c3.execute("select dr_r from dr_r order by a").fetchall())
cur = c3.execute("select dr_r from dr_r order by a", binary=True)
rows = cur.fetchall()
print('psycopg3 table row type binary', cur.description[0].type_code == reltype, [r[0][:4] for r in rows])
print('psycopg3 row null tests', c3.execute("select a, dr_r is null, dr_r is not null, row(c, d) is null from dr_r order by a").fetchall())
k.execute("drop table dr_r")
