"""Arrays of enum types through psycopg2 and psycopg 3 (text and binary results, psycopg 3 with and
without its enum adapter, which also registers the array type). Prints one line per check;
test/gateway/enum-arrays.test.ts compares them with what PostgreSQL 15 gives.
Usage: enum_array_check.py PORT USER PASSWORD DB"""
import psycopg
import psycopg2
from psycopg.types.enum import EnumInfo, register_enum

from driver_dsn import Mood, dsn

c2 = psycopg2.connect(dsn)
c2.autocommit = True
k = c2.cursor()
k.execute("create type da_mood as enum ('sad', 'ok', 'happy')")
k.execute("create table da_t (id int primary key, ms da_mood[])")
k.execute("insert into da_t values (%s, %s::da_mood[]), (%s, %s), (%s, '{}'), (4, NULL)", (1, ['happy', 'sad'], 2, '{ok,NULL}', 3))
k.execute("select id, ms from da_t order by id")
print('psycopg2', k.fetchall())
k2 = c2.cursor()
k2.execute("select typarray from pg_type where typname = 'da_mood'")
print('psycopg2 type_code is the array type oid', k.description[1].type_code == k2.fetchone()[0])
k.execute("select id from da_t where %s = any(ms) order by id", ('sad',))
print('psycopg2 any', k.fetchall())
try:
    k.execute("insert into da_t values (%s, %s::da_mood[])", (5, ['nope']))
except psycopg2.Error as e:
    print('psycopg2 error', e.pgcode, str(e).splitlines()[0])

c3 = psycopg.connect(dsn, autocommit=True)
print('psycopg3 text', c3.execute("select id, ms from da_t order by id").fetchall())
enum_oid = c3.execute("select oid from pg_type where typname = 'da_mood'").fetchone()[0]
rows = c3.execute("select id, ms from da_t order by id", binary=True).fetchall()
# array_send's element oid (bytes 8..12) is the enum's, which differs between servers: checked, then masked.
print('psycopg3 binary element oid is the enum oid', all(int.from_bytes(b[8:12], 'big') == enum_oid for _, b in rows if b is not None))
print('psycopg3 binary', [(i, b if b is None else b[:8] + b'<oid>' + b[12:]) for i, b in rows])
print('psycopg3 array_agg', c3.execute("select array_agg(u order by u) from da_t, unnest(ms) u").fetchall())
info = EnumInfo.fetch(c3, 'da_mood')
print('psycopg3 EnumInfo', info.name, info.labels, info.array_oid == c3.execute("select typarray from pg_type where typname = 'da_mood'").fetchone()[0])
register_enum(info, c3, Mood)
print('psycopg3 adapted', c3.execute("select id, ms from da_t order by id").fetchall())
print('psycopg3 adapted binary', c3.execute("select id, ms from da_t order by id", binary=True).fetchall())
print('psycopg3 enum_range binary', c3.execute("select enum_range(null::da_mood)", binary=True).fetchall())
c3.execute("insert into da_t values (%s, %s)", [6, [Mood.ok, Mood.happy]])
print('psycopg3 array parameter', c3.execute("select ms from da_t where id = 6").fetchall())
print('psycopg3 binary array parameter', c3.execute("select id from da_t where ms = %b", [[Mood.happy, Mood.sad]]).fetchall())
k.execute("drop table da_t")
k.execute("drop type da_mood")
