"""time with time zone through psycopg2 and psycopg 3 (text and binary results, binary parameters, arrays):
prints one line per check; test/gateway/timetz.test.ts compares them with what PostgreSQL 15 gives.
Usage: timetz_check.py PORT USER PASSWORD DB"""
import datetime

import psycopg
import psycopg2

from driver_dsn import dsn

c2 = psycopg2.connect(dsn)
c2.autocommit = True
k = c2.cursor()
k.execute("create table dz_t (id int primary key, t timetz, ts timetz[])")
k.execute("insert into dz_t values (1, '12:34:56.5+02', '{01:00-03:30,NULL}'), (2, %s, NULL), (3, NULL, '{}')",
          (datetime.time(23, 59, 59, tzinfo=datetime.timezone(datetime.timedelta(hours=-5))),))
k.execute("select id, t, ts from dz_t order by id")
print('psycopg2', k.fetchall())
print('psycopg2 type codes', [d.type_code for d in k.description])

c3 = psycopg.connect(dsn, autocommit=True)
print('psycopg3 text', c3.execute("select id, t, ts from dz_t order by id").fetchall())
print('psycopg3 binary', c3.execute("select id, t, ts from dz_t order by id", binary=True).fetchall())
tz = datetime.timezone(datetime.timedelta(hours=5, minutes=30))
print('psycopg3 binary parameter', c3.execute("select id from dz_t where t < %b order by id", [datetime.time(12, 0, tzinfo=tz)]).fetchall())
print('psycopg3 at time zone', c3.execute("select t at time zone '+01' from dz_t where id = 1", binary=True).fetchall())
print('psycopg3 current_time type', type(c3.execute("select current_time").fetchone()[0]).__name__)
k.execute("drop table dz_t")
