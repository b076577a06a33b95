"""Shared by the Python tests (tests/oracle, tests/scenarios): a test's failed checks, and reading a file's
bytes."""
import sys


class Checks:
    """A test's failed checks: check(cond, msg) records and prints a failure; finish() ends the test
    (exit 1 when a check failed, else prints "ok")."""

    def __init__(self):
        self.failures = []

    def __call__(self, cond, msg):
        if not cond:
            self.failures.append(msg)
            print("FAIL:", msg)

    def finish(self):
        if self.failures:
            print(f"{len(self.failures)} failure(s)")
            sys.exit(1)
        print("ok")


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()
