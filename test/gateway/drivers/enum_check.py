"""Enum types through psycopg2, psycopg 3 (text and binary results, with and without its enum adapter)
and SQLAlchemy 1.4's Enum (create_all, insert/select, comparisons, inspector's get_enums, drop_all).
Prints one line per check; test/gateway/enum.test.ts compares them with what PostgreSQL 15 gives.
Usage: enum_check.py PORT USER PASSWORD DB"""
import psycopg
import psycopg2
import sqlalchemy as sa
from psycopg.types.enum import EnumInfo, register_enum

from driver_dsn import Mood, db, dsn, password, port, user

c2 = psycopg2.connect(dsn)
c2.autocommit = True
k = c2.cursor()
k.execute("create type dr_mood as enum ('sad', 'ok', 'happy')")
k.execute("create table dr_t (id int primary key, m dr_mood)")
k.execute("insert into dr_t values (%s, %s), (%s, %s)", (1, 'happy', 2, 'sad'))
k.execute("select id, m from dr_t where m >= %s order by m", ('ok',))
rows = k.fetchall()
print('psycopg2', rows)
k.execute("select m from dr_t limit 0")
k2 = c2.cursor()
k2.execute("select oid from pg_type where typname = 'dr_mood'")
print('psycopg2 type_code is the enum oid', k.description[0].type_code == k2.fetchone()[0])
try:
    k.execute("insert into dr_t values (%s, %s)", (3, 'nope'))
except psycopg2.Error as e:
    print('psycopg2 error', e.pgcode, str(e).splitlines()[0])

c3 = psycopg.connect(dsn, autocommit=True)
print('psycopg3 text', c3.execute("select id, m from dr_t where m = %s", ['sad']).fetchall())
print('psycopg3 binary', c3.execute("select m from dr_t order by m", binary=True).fetchall())
info = EnumInfo.fetch(c3, 'dr_mood')
print('psycopg3 EnumInfo', info.name, info.labels)
register_enum(info, c3, Mood)
print('psycopg3 adapted', c3.execute("select id, m from dr_t order by m").fetchall())
print('psycopg3 adapted binary', c3.execute("select m from dr_t order by m", binary=True).fetchall())
print('psycopg3 enum parameter', c3.execute("select id from dr_t where m = %s", [Mood.happy]).fetchall())
c3.execute("insert into dr_t values (%s, %s)", [4, Mood.ok])
oid = c3.execute("select oid from pg_type where typname = 'dr_mood'").fetchone()[0]
c3.pgconn.prepare(b'dr_st', b'select m from dr_t where m = $1')
d = c3.pgconn.describe_prepared(b'dr_st')
print('psycopg3 Describe: parameter and column are the enum oid', d.nparams, d.param_type(0) == oid, d.ftype(0) == oid)
print('psycopg3 binary enum parameter', c3.execute("select id from dr_t where m > %b order by id", [Mood.sad]).fetchall())
k.execute("drop table dr_t")
k.execute("drop type dr_mood")

eng = sa.create_engine(f"postgresql+psycopg2://{user}:{password}@127.0.0.1:{port}/{db}")
md = sa.MetaData()
t = sa.Table('sa_en_person', md, sa.Column('id', sa.Integer, primary_key=True),
             sa.Column('mood', sa.Enum(Mood, name='sa_en_mood'), nullable=False),
             sa.Column('color', sa.Enum('red', 'green', name='sa_en_color')))
md.create_all(eng)
md.create_all(eng)
with eng.begin() as c:
    c.execute(t.insert(), [{'id': 1, 'mood': Mood.happy, 'color': 'red'}, {'id': 2, 'mood': Mood.sad, 'color': None},
                           {'id': 3, 'mood': Mood.ok, 'color': 'green'}])
with eng.connect() as c:
    print('sqlalchemy rows', [tuple(r) for r in c.execute(sa.select(t).order_by(t.c.mood))])
    print('sqlalchemy where', [tuple(r) for r in c.execute(sa.select(t.c.id).where(t.c.mood > Mood.sad).order_by(t.c.id))])
insp = sa.inspect(eng)
print('sqlalchemy get_enums', sorted((e['name'], e['labels'], e['schema'], e['visible']) for e in insp.get_enums() if e['name'].startswith('sa_en_')))
print('sqlalchemy get_columns', [(c['name'], str(c['type']), c['nullable']) for c in insp.get_columns('sa_en_person')])
md.drop_all(eng)
print('sqlalchemy after drop_all', sorted(e['name'] for e in sa.inspect(eng).get_enums() if e['name'].startswith('sa_en_')))
