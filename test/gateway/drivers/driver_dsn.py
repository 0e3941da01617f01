"""What the print-and-compare driver scripts share (enum_check.py, enum_array_check.py, record_check.py,
timetz_check.py): their arguments PORT USER PASSWORD DB as a libpq connection string, and Mood, the
Python enum the enum checks map their enum type to."""
import enum
import sys

port, user, password, db = sys.argv[1:5]
dsn = f"host=127.0.0.1 port={port} user={user} password={password} dbname={db} sslmode=disable"


class Mood(enum.Enum):
    sad = 'sad'
    ok = 'ok'
    happy = 'happy'
