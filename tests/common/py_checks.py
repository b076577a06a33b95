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


def read_xlsx_grid(path):
    """A workbook read with zipfile and ElementTree alone (no openpyxl): {sheet name: {(row, col):
    (value, fill)}}, row and col 1-based as Excel numbers them, value a str or a float, fill the
    cell's solid fill as "RRGGBB" (None without one). Sheets in the workbook's order."""
    import re
    import xml.etree.ElementTree as ET
    import zipfile

    m = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
    rel = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
    with zipfile.ZipFile(path) as z:
        styles = ET.fromstring(z.read("xl/styles.xml"))
        fills = []
        for f in styles.iter(m + "fill"):
            p = f.find(m + "patternFill")
            fg = p.find(m + "fgColor") if p is not None else None
            solid = p is not None and p.get("patternType") == "solid" and fg is not None
            fills.append(fg.get("rgb")[-6:] if solid and fg.get("rgb") else None)
        xfs = [fills[int(x.get("fillId", "0"))] for x in styles.find(m + "cellXfs").iter(m + "xf")]
        shared = []
        if "xl/sharedStrings.xml" in z.namelist():
            for si in ET.fromstring(z.read("xl/sharedStrings.xml")).iter(m + "si"):
                shared.append("".join(t.text or "" for t in si.iter(m + "t")))
        rels = {r.get("Id"): r.get("Target") for r in ET.fromstring(z.read("xl/_rels/workbook.xml.rels"))}
        sheets = {}
        for s in ET.fromstring(z.read("xl/workbook.xml")).iter(m + "sheet"):
            grid = {}
            for c in ET.fromstring(z.read("xl/" + rels[s.get(rel)].lstrip("/").removeprefix("xl/"))).iter(m + "c"):
                letters, row = re.match(r"([A-Z]+)(\d+)", c.get("r")).groups()
                col = 0
                for ch in letters:
                    col = col * 26 + ord(ch) - 64
                t, v = c.get("t"), c.find(m + "v")
                if t == "inlineStr":
                    value = "".join(x.text or "" for x in c.iter(m + "t"))
                elif t == "s":
                    value = shared[int(v.text)]
                elif t == "str":
                    value = v.text or ""
                else:
                    value = float(v.text) if v is not None else None
                grid[(int(row), col)] = (value, xfs[int(c.get("s", "0"))])
            sheets[s.get("name")] = grid
    return sheets


def grid_rows(grid, first_row=1):
    """The values of a read_xlsx_grid sheet as rows from `first_row` (lists, None where empty)."""
    if not grid:
        return []
    rows = max(r for r, _ in grid)
    cols = max(c for _, c in grid)
    return [[grid.get((r, c), (None, None))[0] for c in range(1, cols + 1)] for r in range(first_row, rows + 1)]


def sqlite_tables(path):
    """{table: (columns, declared types, rows)} of an SQLite file opened read-only (immutable): rows in
    rowid order, each cell as Python's sqlite3 gives it."""
    import sqlite3

    con = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
    try:
        out = {}
        for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"):
            info = list(con.execute(f'PRAGMA table_info("{name}")'))
            rows = [list(r) for r in con.execute(f'SELECT * FROM "{name}" ORDER BY rowid')]
            out[name] = ([i[1] for i in info], [i[2] for i in info], rows)
        return out
    finally:
        con.close()


def table_csv_rows(columns, rows):
    """A table as the cluster oracle dumps it with Python's csv module (header row, floats as repr(),
    None as an empty cell), read back as lists of strings."""
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(columns)
    for r in rows:
        w.writerow([repr(v) if isinstance(v, float) else v for v in r])
    return list(csv.reader(io.StringIO(buf.getvalue())))
