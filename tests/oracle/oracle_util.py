"""Shared helpers for the oracle parity tests (run by ctest with Debian's /usr/bin/python3).

The workbook profdiff writes is read back with openpyxl, an independent xlsx reader, and compared
with what the reference tool wrote for the same inputs (../shared/oracle/<case>/csv/<Sheet>.csv).
A test exits 77 (ctest SKIP_RETURN_CODE) when ../shared is absent, e.g. in a user's fresh clone.
"""
import atexit
import csv
import math
import os
import shutil
import subprocess
import sys
import tempfile

SOURCE_DIR = os.environ.get("PROFDIFF_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SHARED = os.path.abspath(os.path.join(SOURCE_DIR, "..", "shared"))
CORPUS = os.path.join(SHARED, "corpus")
ORACLE = os.path.join(SHARED, "oracle")            # the reference's 8.2 line
ORACLE_26_1 = os.path.join(SHARED, "oracle-26.1")  # the reference's 26.1 line (the current one)
# Release line -> (oracle directory, the profdiff flag that imitates that line).
LINES = {"8.2": (ORACLE, "--reference-compat=8.2"), "26.1": (ORACLE_26_1, "--reference-compat")}
SKIP = 77


def require_shared():
    if not os.path.isdir(CORPUS) or not os.path.isdir(ORACLE):
        print(f"SKIP: {SHARED} (corpus and oracle) is absent; the oracle parity tests need it")
        sys.exit(SKIP)


def profdiff_bin():
    b = os.environ.get("PROFDIFF_BIN")
    if not b or not os.path.exists(b):
        sys.exit(f"PROFDIFF_BIN is not set or does not exist: {b!r}")
    return os.path.abspath(b)  # tests may run profdiff in another working directory


def run_profdiff(args, cwd=None):
    """Runs profdiff; returns (returncode, stdout, stderr)."""
    p = subprocess.run([profdiff_bin()] + list(args), cwd=cwd, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def read_xlsx(path):
    """{sheet name: openpyxl worksheet} with the workbook kept open in the returned dict's '__wb__'."""
    import openpyxl  # Debian: python3-openpyxl

    wb = openpyxl.load_workbook(path)
    sheets = {ws.title: ws for ws in wb.worksheets}
    sheets["__wb__"] = wb
    return sheets


def sheet_values(ws):
    """Rows of cell values, None as ''."""
    return [["" if c is None else c for c in row] for row in ws.iter_rows(values_only=True)]


def read_oracle_csv(case, sheet, oracle=ORACLE):
    path = os.path.join(oracle, case, "csv", sheet + ".csv")
    if not os.path.exists(path):
        return None
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def _as_number(v):
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        s = v.strip()
        if s in ("", "/", "INF", "inf", "NaN", "nan"):
            return None
        try:
            return float(s)
        except ValueError:
            return None
    return None


def cells_match(ours, theirs, tol):
    """A cell read from our xlsx against the reference's CSV text: numbers within `tol`, text equal."""
    a, b = _as_number(ours), _as_number(theirs)
    if a is not None and b is not None:
        if math.isinf(a) or math.isinf(b):
            return a == b
        return abs(a - b) <= tol
    return str(ours).strip() == str(theirs).strip()


_TMPDIRS = []


def _remove_tmpdirs():
    for d in _TMPDIRS:
        shutil.rmtree(d, ignore_errors=True)


atexit.register(_remove_tmpdirs)


def tmpdir():
    """A fresh temporary directory, removed when the test exits (set PROFDIFF_KEEP_TMP=1 to keep it)."""
    d = tempfile.mkdtemp(prefix="profdiff-oracle-")
    if not os.environ.get("PROFDIFF_KEEP_TMP"):
        _TMPDIRS.append(d)
    return d


def finish(failures, ok_message="OK"):
    """Prints the failures and exits 1, or prints `ok_message`."""
    if failures:
        print("\n".join(failures))
        sys.exit(1)
    print(ok_message)
