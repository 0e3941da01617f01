"""psycopg2 (Debian python3-psycopg2) against the gateway: run by test/gateway/python-drivers.test.ts.

psycopg2 speaks the simple query protocol only and interpolates parameters into the text itself, so
this checks that the literals it writes (quoted strings, numerics, dates, timestamps with and without
a zone, UUIDs, NULL, tuples for IN, ARRAY[...] for ANY) mean what they mean in PostgreSQL, and the
driver's own machinery: implicit BEGIN, commit and rollback, autocommit, set_session, SQLSTATE error
classes, named (server-side) cursors, which are DECLARE/FETCH/CLOSE, dictionary cursors, executemany,
execute_values, and copy_from/copy_to/copy_expert. Every check compares values; the script exits 1 at
the first difference and prints how many checks passed.
Usage: psycopg2_check.py PORT USER PASSWORD DATABASE TABLE
"""
import datetime
import decimal
import io
import uuid

import psycopg2
import psycopg2.errors
import psycopg2.extras

from value_checks import DATABASE as database, PASSWORD as password, PORT as port, TABLE as table, USER as user, check, done


psycopg2.extras.register_uuid()
conn = psycopg2.connect(host="127.0.0.1", port=port, user=user, password=password, dbname=database)
check("server_version", conn.server_version // 10000, 15)
check("encoding", conn.encoding, "UTF8")
cur = conn.cursor()
cur.execute(f"CREATE TABLE {table} (id int PRIMARY KEY, name text, price numeric(10,2), ok boolean, d date, "
            "ts timestamp, tz timestamptz, f float8, u uuid)")
conn.commit()

row = (1, "O'Reilly \\ \"quoted\" ünïcode", decimal.Decimal("12.34"), True, datetime.date(2024, 1, 2),
       datetime.datetime(2024, 1, 2, 3, 4, 5, 678900),
       datetime.datetime(2024, 1, 2, 3, 4, 5, tzinfo=datetime.timezone(datetime.timedelta(hours=-3))),
       1.5, uuid.UUID("12345678-1234-5678-1234-567812345678"))
cur.execute(f"INSERT INTO {table} VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)", row)
check("insert rowcount", cur.rowcount, 1)
conn.commit()

cur.execute(f"SELECT * FROM {table} WHERE id = %(id)s", {"id": 1})
got = cur.fetchone()
check("row values", got[:6] + got[7:], row[:6] + row[7:])
# timestamptz comes back in UTC, the same instant.
check("timestamptz instant", got[6], row[6])
check("timestamptz zone", got[6].utcoffset(), datetime.timedelta(0))
check("column types", [(d.name, d.type_code) for d in cur.description],
      [("id", 23), ("name", 25), ("price", 1700), ("ok", 16), ("d", 1082), ("ts", 1114), ("tz", 1184), ("f", 701), ("u", 2950)])

cur.executemany(f"INSERT INTO {table} (id, name) VALUES (%s, %s)", [(i, f"n{i}") for i in range(2, 12)])
psycopg2.extras.execute_values(cur, f"INSERT INTO {table} (id, name) VALUES %s", [(i, f"v{i}") for i in range(20, 30)])
conn.commit()
cur.execute(f"SELECT count(*) FROM {table}")
check("count after executemany and execute_values", cur.fetchone(), (21,))
cur.execute(f"SELECT id FROM {table} WHERE id IN %s ORDER BY id", ((2, 3, 4),))
check("IN tuple", cur.fetchall(), [(2,), (3,), (4,)])
cur.execute(f"SELECT id FROM {table} WHERE id = ANY(%s) ORDER BY id", ([20, 5, 99],))
check("ANY(ARRAY[...])", cur.fetchall(), [(5,), (20,)])
cur.execute("SELECT %s::int IS NULL, %s + 1, %s || 'x', %s * 2.5", (None, 41, "a", decimal.Decimal("2")))
check("literals", cur.fetchone(), (True, 42, "ax", decimal.Decimal("5.0")))
cur.execute(f"SELECT name FROM {table} WHERE name LIKE %s ORDER BY id", ("v2%",))
check("LIKE with a parameter", cur.fetchall(), [(f"v2{i}",) for i in range(10)])
cur.execute("SELECT current_database(), current_user")
check("current_database, current_user", cur.fetchone(), (database, user))
conn.rollback()

# Errors: the SQLSTATE picks psycopg2's exception class; the transaction is then failed until rollback.
try:
    cur.execute(f"INSERT INTO {table} (id) VALUES (1)")
    check("duplicate key raised", False, True)
except psycopg2.errors.UniqueViolation as e:
    check("duplicate key SQLSTATE", e.pgcode, "23505")
try:
    cur.execute("SELECT 1")
    check("failed transaction raised", False, True)
except psycopg2.errors.InFailedSqlTransaction as e:
    check("failed transaction SQLSTATE", e.pgcode, "25P02")
conn.rollback()
try:
    cur.execute("SELECT * FROM no_such_table")
    check("unknown table raised", False, True)
except psycopg2.errors.UndefinedTable as e:
    check("unknown table SQLSTATE", e.pgcode, "42P01")
conn.rollback()

# Named cursors: DECLARE ... CURSOR WITHOUT HOLD FOR ..., FETCH FORWARD itersize, CLOSE.
named = conn.cursor(name="big rows")
named.itersize = 4
named.execute(f"SELECT id, name FROM {table} WHERE id >= %s ORDER BY id", (5,))
ids = [r[0] for r in named]
check("named cursor rows", ids, list(range(5, 12)) + list(range(20, 30)))
named.close()
scroll = conn.cursor(name="scroller", scrollable=True)
scroll.execute(f"SELECT id FROM {table} ORDER BY id")
check("fetchmany", scroll.fetchmany(3), [(1,), (2,), (3,)])
scroll.scroll(-2)
check("scroll relative back", scroll.fetchone(), (2,))
scroll.scroll(0, mode="absolute")
check("scroll absolute", scroll.fetchone(), (1,))
scroll.close()
conn.commit()
held = conn.cursor(name="held", withhold=True)
held.execute(f"SELECT id FROM {table} WHERE id < 4 ORDER BY id")
conn.commit()
check("WITH HOLD cursor after commit", held.fetchall(), [(1,), (2,), (3,)])
held.close()

dcur = conn.cursor(cursor_factory=psycopg2.extras.RealDictCursor)
dcur.execute(f"SELECT id, name FROM {table} WHERE id = %s", (2,))
check("dict cursor", dict(dcur.fetchone()), {"id": 2, "name": "n2"})
conn.rollback()

cur.copy_from(io.StringIO("100\tc100\n101\t\\N\n"), table, columns=("id", "name"))
check("copy_from rowcount", cur.rowcount, 2)
conn.commit()
out = io.StringIO()
cur.copy_to(out, table, columns=("id", "name"))
check("copy_to", [line for line in out.getvalue().splitlines() if int(line.split("\t")[0]) >= 100], ["100\tc100", "101\t\\N"])
out = io.StringIO()
cur.copy_expert(f"COPY (SELECT id, name FROM {table} WHERE id >= 100 ORDER BY id) TO STDOUT WITH CSV HEADER", out)
check("copy_expert csv", out.getvalue(), "id,name\n100,c100\n101,\n")
conn.commit()

conn.set_session(isolation_level="SERIALIZABLE", readonly=True)
cur.execute("SELECT 1")
check("read-only serializable session", cur.fetchone(), (1,))
conn.commit()
conn.set_session(isolation_level="DEFAULT", readonly=False)
conn.autocommit = True
cur.execute(f"UPDATE {table} SET name = 'auto' WHERE id = 2")
check("autocommit update", cur.rowcount, 1)
conn.autocommit = False
conn2 = psycopg2.connect(host="127.0.0.1", port=port, user=user, password=password, dbname=database)
c2 = conn2.cursor()
c2.execute(f"SELECT name FROM {table} WHERE id = 2")
check("autocommitted update seen by another connection", c2.fetchone(), ("auto",))
conn2.close()
with conn:
    with conn.cursor() as c:
        c.execute(f"DROP TABLE {table}")
conn.close()
done()
