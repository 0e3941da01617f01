"""What the Python driver checks share: their arguments, and check(), which compares a value with the
one expected, counts it, and exits 1 at the first difference. done() prints how many passed."""
import sys

PORT, USER, PASSWORD, DATABASE, TABLE = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
_checks = 0


def check(what, got, want):
    global _checks
    if got != want:
        print(f"FAIL {what}: got {got!r}, want {want!r}")
        sys.exit(1)
    _checks += 1


def done():
    print(f"ok {_checks} checks")
