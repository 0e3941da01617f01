"""psycopg 3 (Debian python3-psycopg, pure-Python libpq binding) against the gateway: run by
test/gateway/python-drivers.test.ts.

psycopg 3 binds parameters on the server (extended protocol, BEGIN itself as an unnamed statement),
prepares a query as a named statement from its sixth execution, asks for binary parameters and
results on request, pipelines, runs server-side cursors as DECLARE + Describe portal + FETCH, copies
row by row (text and binary), and nests transaction() blocks as savepoints. Every check compares values; the script exits
1 at the first difference and prints how many checks passed.
Usage: psycopg3_check.py PORT USER PASSWORD DATABASE TABLE
"""
import datetime
import decimal
import uuid

import psycopg
import psycopg.errors

from value_checks import DATABASE as database, PASSWORD as password, PORT as port, TABLE as table, USER as user, check, done


conn = psycopg.connect(host="127.0.0.1", port=port, user=user, password=password, dbname=database)
check("server_version", conn.info.server_version // 10000, 15)
check("encoding", conn.info.encoding, "utf-8")
conn.execute(f"CREATE TABLE {table} (id int PRIMARY KEY, name text, price numeric(10,2), ok boolean, d date, "
             "ts timestamp, tz timestamptz, f float8, u uuid, big bigint, sm smallint)")
conn.commit()

row = (1, "O'Reilly ünïcode", decimal.Decimal("12.34"), True, datetime.date(2024, 1, 2),
       datetime.datetime(2024, 1, 2, 3, 4, 5, 678900), datetime.datetime(2024, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc),
       1.5, uuid.UUID("12345678-1234-5678-1234-567812345678"), 2 ** 40, 7)
cur = conn.cursor()
check("insert, text parameters", cur.execute(f"INSERT INTO {table} VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)", row).rowcount, 1)
bcur = conn.cursor(binary=True)
check("insert, binary parameters", bcur.execute(f"INSERT INTO {table} VALUES (%b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b)", (2,) + row[1:]).rowcount, 1)
conn.commit()
check("select, text results", cur.execute(f"SELECT * FROM {table} WHERE id = %(id)s", {"id": 1}).fetchone(), row)
check("select, binary results", bcur.execute(f"SELECT * FROM {table} WHERE id = %s", (2,)).fetchone(), (2,) + row[1:])
check("column types", [(d.name, d.type_code) for d in bcur.description],
      [("id", 23), ("name", 25), ("price", 1700), ("ok", 16), ("d", 1082), ("ts", 1114), ("tz", 1184), ("f", 701), ("u", 2950), ("big", 20), ("sm", 21)])
# Parameters the query leaves untyped keep the types psycopg declares for them (over a scan on a cluster
# too, where replicas run the query): a date, a timestamp, an int2 and a numeric come back as such.
untyped = (datetime.date(2024, 5, 6), datetime.datetime(2024, 5, 6, 7, 8, 9), decimal.Decimal("1.25"))
check("untyped parameters, text results", cur.execute(f"SELECT %s, %s, %s, id FROM {table} WHERE id > 0 ORDER BY id", untyped).fetchall(),
      [untyped + (1,), untyped + (2,)])
check("untyped parameters, binary results", bcur.execute(f"SELECT %s, %s, %s, id FROM {table} WHERE id > 0 ORDER BY id", untyped).fetchall(),
      [untyped + (1,), untyped + (2,)])

# The sixth execution of a query becomes a named prepared statement (_pg3_0).
names = [cur.execute(f"SELECT name, %s::int FROM {table} WHERE id = %s", (i, 1 + i % 2)).fetchone() for i in range(8)]
check("repeated query, prepared after five runs", names, [(row[1], i) for i in range(8)])
check("prepare=True", cur.execute(f"SELECT price FROM {table} WHERE id = %s", (1,), prepare=True).fetchone(), (row[2],))
cur.executemany(f"INSERT INTO {table} (id, name) VALUES (%s, %s)", [(i, f"n{i}") for i in range(10, 30)])
cur.executemany(f"INSERT INTO {table} (id, name) VALUES (%s, %s) RETURNING id * 2", [(i, f"r{i}") for i in range(40, 43)], returning=True)
returned = []
while True:
    returned.append(cur.fetchone())
    if not cur.nextset():
        break
check("executemany returning", returned, [(80,), (82,), (84,)])
conn.commit()
check("count", conn.execute(f"SELECT count(*) FROM {table}").fetchone(), (25,))

with conn.pipeline():
    a = conn.execute("SELECT %s::int + 1", (5,))
    b = conn.execute(f"SELECT name FROM {table} WHERE id = %s", (10,))
    c = conn.execute(f"UPDATE {table} SET name = 'piped' WHERE id = %s", (11,))
check("pipeline results", (a.fetchone(), b.fetchone(), c.rowcount), ((6,), ("n10",), 1))
conn.commit()

# Server-side cursors: DECLARE, Describe portal, FETCH FORWARD n; text and binary.
with conn.cursor(name="sc") as sc:
    sc.itersize = 4
    sc.execute(f"SELECT id, name FROM {table} WHERE id >= %s ORDER BY id", (20,))
    check("server cursor description", [d.name for d in sc.description], ["id", "name"])
    check("server cursor rows", [r[0] for r in sc], list(range(20, 30)) + [40, 41, 42])
with conn.cursor(name="scb", binary=True, scrollable=True) as sc:
    sc.execute(f"SELECT id, price FROM {table} WHERE id <= %s ORDER BY id", (2,))
    check("binary server cursor", sc.fetchall(), [(1, row[2]), (2, row[2])])
    sc.scroll(0, mode="absolute")
    check("scroll back", sc.fetchone(), (1, row[2]))
conn.commit()

with cur.copy(f"COPY {table} (id, name) FROM STDIN") as cp:
    for i in range(100, 110):
        cp.write_row((i, f"c{i}" if i != 105 else None))
check("copy in", cur.rowcount, 10)
with cur.copy(f"COPY (SELECT id, name FROM {table} WHERE id >= 100 ORDER BY id) TO STDOUT") as cp:
    rows = list(cp.rows())
check("copy out", rows[4:6], [("104", "c104"), ("105", None)])
# Binary COPY: psycopg's own binary dumpers and loaders for every column type.
types = ["int4", "text", "numeric", "bool", "date", "timestamp", "timestamptz", "float8", "uuid", "int8", "int2"]
with cur.copy(f"COPY {table} FROM STDIN (FORMAT BINARY)") as cp:
    cp.set_types(types)
    cp.write_row((200,) + row[1:])
    cp.write_row((201,) + (None,) * 10)
check("binary copy in", cur.rowcount, 2)
with cur.copy(f"COPY (SELECT * FROM {table} WHERE id >= 200 ORDER BY id) TO STDOUT (FORMAT BINARY)") as cp:
    cp.set_types(types)
    binary_rows = list(cp.rows())
check("binary copy out", binary_rows, [(200,) + row[1:], (201,) + (None,) * 10])
cur.execute(f"DELETE FROM {table} WHERE id >= 200")
conn.commit()

with conn.transaction():
    cur.execute(f"UPDATE {table} SET name = 'outer' WHERE id = 12")
    with conn.transaction():
        cur.execute(f"UPDATE {table} SET name = 'inner' WHERE id = 13")
    try:
        with conn.transaction():
            cur.execute(f"UPDATE {table} SET name = 'undone' WHERE id = 14")
            cur.execute(f"INSERT INTO {table} (id) VALUES (1)")
    except psycopg.errors.UniqueViolation as e:
        check("duplicate key in a savepoint", e.sqlstate, "23505")
conn.commit()
check("savepoints", conn.execute(f"SELECT id, name FROM {table} WHERE id IN (12, 13, 14) ORDER BY id").fetchall(),
      [(12, "outer"), (13, "inner"), (14, "n14")])
conn.commit()

try:
    conn.execute(f"SELECT * FROM {table}_missing")
    check("unknown table raised", False, True)
except psycopg.errors.UndefinedTable as e:
    check("unknown table SQLSTATE", e.sqlstate, "42P01")
conn.rollback()
check("current_user", conn.execute("SELECT current_user, current_database()").fetchone(), (user, database))
conn.rollback()

conn.autocommit = True
check("autocommit update", conn.execute(f"UPDATE {table} SET name = 'auto' WHERE id = 15").rowcount, 1)
conn.isolation_level = psycopg.IsolationLevel.SERIALIZABLE
conn.read_only = True
conn.autocommit = False
check("serializable read-only transaction", conn.execute(f"SELECT name FROM {table} WHERE id = 15").fetchone(), ("auto",))
conn.commit()
conn.read_only = False
conn.autocommit = True
conn.execute(f"DROP TABLE {table}")
conn.close()
done()
