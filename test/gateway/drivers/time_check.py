# time values through psycopg2 (text protocol, datetime.time both ways, COPY text and CSV) and psycopg 3
# (binary parameters and results, binary COPY both ways), run by test/gateway/time.test.ts against a
# gateway; prints what it saw as JSON (the expected values are PostgreSQL 15's).
import json, sys, io, datetime
import psycopg2, psycopg
port, user, password, db = sys.argv[1:5]
host = sys.argv[5] if len(sys.argv) > 5 else "127.0.0.1"
dsn = f"host={host} port={port} user={user} password={password} dbname={db}"
out = {}
T = datetime.time
iso = lambda v: None if v is None else v.isoformat()
# psycopg2: text protocol, datetime.time values both ways, COPY text and CSV.
c2 = psycopg2.connect(dsn)
c2.autocommit = True
cur = c2.cursor()
cur.execute("DROP TABLE IF EXISTS py_time")
cur.execute("CREATE TABLE py_time (id int PRIMARY KEY, t time, p time(2))")
cur.execute("INSERT INTO py_time VALUES (%s, %s, %s), (%s, %s, %s)", (1, T(10, 20, 30, 5), T(8, 0, 0, 125000), 2, T(23, 59, 59, 999999), None))
cur.execute("SELECT id, t, p FROM py_time WHERE t > %s ORDER BY t", (T(9, 0),))
out["psycopg2_types"] = [d.type_code for d in cur.description]
out["psycopg2"] = [[i, iso(t), iso(p)] for i, t, p in cur.fetchall()]
cur.copy_expert("COPY py_time FROM STDIN", io.StringIO("3\t24:00:00\t01:02:03.456\n"))
cur.copy_expert("COPY py_time (id, t) FROM STDIN (FORMAT csv)", io.StringIO('4,"7:08"\n'))
buf = io.StringIO()
cur.copy_expert("COPY (SELECT * FROM py_time ORDER BY id) TO STDOUT (FORMAT csv)", buf)
out["csv"] = buf.getvalue().splitlines()
buf = io.StringIO()
cur.copy_expert("COPY py_time TO STDOUT", buf)
out["text"] = sorted(buf.getvalue().splitlines())
c2.close()
# psycopg 3: binary parameters and results (OID 1083, int64 microseconds), binary COPY both ways.
with psycopg.connect(dsn, autocommit=True) as c:
    c.execute("INSERT INTO py_time VALUES (%b, %b, %b)", (5, T(12, 34, 56, 789012), T(0, 0)))
    cur = c.cursor(binary=True)
    cur.execute("SELECT id, t, p, t - %b FROM py_time WHERE t >= %b AND t < %b ORDER BY id", (T(1, 0), T(10, 0), T(23, 0)))
    out["binary_types"] = [d.type_code for d in cur.description]
    out["binary"] = [[i, iso(t), iso(p), str(d)] for i, t, p, d in cur.fetchall()]
    with cur.copy("COPY py_time (id, t) FROM STDIN (FORMAT BINARY)") as cp:
        cp.set_types(["int4", "time"])
        cp.write_row((6, T(6, 30, 0, 1)))
    with cur.copy("COPY (SELECT id, t FROM py_time WHERE id >= 5 ORDER BY id) TO STDOUT (FORMAT BINARY)") as cp:
        cp.set_types(["int4", "time"])
        out["copy_binary"] = [[i, iso(t)] for i, t in cp.rows()]
    try:
        c.execute("SELECT %s::time", ("25:00",))
    except psycopg.Error as e:
        out["error"] = [e.sqlstate, str(e).splitlines()[0]]
    c.execute("DROP TABLE py_time")
print(json.dumps(out))
