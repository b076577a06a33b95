"""Shared helpers for the oracle parity tests (run by ctest with Debian's /usr/bin/python3).

The workbook profdiff writes is read back with openpyxl, an independent xlsx reader, and compared
with what the reference tool wrote for the same inputs (../shared/oracle/<case>/csv/<Sheet>.csv).
A test exits 77 (ctest SKIP_RETURN_CODE) when ../shared is absent, e.g. in a user's fresh clone.
"""
import atexit
import csv
import decimal
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


# ---- Cell-for-cell parity of a comparison's sheets (shared by the kernel, communication, ... tests) ----

def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


INF_NUMBER_FORMAT = '[>=1E+300]"INF";0.00%'


def is_inf_number(v):
    """The default mode's infinite ratio: the largest double (its format shows INF)."""
    return isinstance(v, float) and v >= 1e300


def default_mode_cell(ours, theirs, ratio):
    """The default mode's exact cell against the reference's rounded one (docs/deviations.md row 19):
    a ratio is INF only where the reference's is (the reference's may be INF where ours is finite:
    its base rounded to 0.00; the value is the ratio of the exact values, which
    oracle.test_exact_diffs checks), a number rounds to the reference's 2 decimals (or agrees to
    its last decimal when it has more; a tie may round the other way: within one unit of it),
    anything else is equal."""
    if ratio:  # INF only where the reference's is (its base may round to 0 where ours is exact)
        return (not is_inf_number(ours) or theirs == "INF") and (ours == "") == (theirs == "")
    if isinstance(ours, float) and theirs not in ("", "INF"):
        try:
            t = float(theirs)
        except ValueError:
            return False
        if "e" not in theirs.lower():
            # The reference rounds these columns to 2 decimals (80.0 is written "80"): ours must
            # round to it; a value given with more decimals must agree to its last one.
            decimals = len(theirs.split(".")[1]) if "." in theirs else 0
            return abs(ours - t) <= 10.0 ** -max(decimals, 2) + 1e-9
    return same_cell(ours, theirs)


def same_cell(ours, theirs):
    """Our xlsx value against the reference's CSV text: equal floats, or equal text. The 8.2 oracle ran
    gpu_vs_npu on a gunzipped copy of the .json.gz trace (MANIFEST.tsv), so a banner naming the .json.gz
    equals the reference's .json."""
    if ours == "" or theirs == "":
        return ours == "" and theirs == ""
    if isinstance(ours, (int, float)) and not isinstance(ours, bool):
        try:
            t = float(theirs)
        except ValueError:
            return False
        return float(ours) == t or (math.isinf(t) and math.isinf(float(ours)))
    return str(ours) == theirs or str(ours).replace(".json.gz", ".json") == theirs


class SheetLayout:
    """Row-1 merge ranges, column widths and the ratio columns (0-based) of a sheet; `ratio_format(big)`
    is the number format a ratio cell must have (big: above 1 or INF, the cells painted red)."""

    def __init__(self, merges, widths, ratio_columns, ratio_format):
        self.merges, self.widths = merges, widths
        self.ratio_columns, self.ratio_format = ratio_columns, ratio_format

    def check(self, label, ws, fitted=False):
        """`fitted`: the default mode, where a text column may be wider than the reference's (up to
        80 characters, to its longest line), never narrower; --reference-compat keeps the widths."""
        from openpyxl.utils import get_column_letter
        errors = []
        got = sorted(str(r) for r in ws.merged_cells.ranges)
        if got != self.merges:
            errors.append(f"{label}: merged ranges {got}, expected {self.merges}")
        for i, w in enumerate(self.widths):
            cw = ws.column_dimensions[get_column_letter(i + 1)].width
            # xlsx stores the width plus padding
            bad = cw is None or (cw < w - 1 or cw > max(w, 80) + 1 if fitted else abs(cw - w) > 1)
            if bad:
                errors.append(f"{label}: column {i + 1} width {cw}, expected about {w}"
                              + (" or wider, up to 80" if fitted else ""))
                break
        for rc in self.ratio_columns:
            for row in ws.iter_rows(min_row=4, min_col=rc + 1, max_col=rc + 1):
                c = row[0]
                v = c.value
                big = v == "INF" or (isinstance(v, (int, float)) and v > 1)
                red = c.fill is not None and c.fill.fgColor is not None and str(c.fill.fgColor.rgb).endswith("FF0000")
                # The default mode writes an infinite ratio as the largest double shown as INF.
                want = INF_NUMBER_FORMAT if is_inf_number(v) else self.ratio_format(big)
                if big != red or (v != "INF" and c.number_format != want):
                    errors.append(f"{label} {c.coordinate}: value {v!r}, red {red}, format {c.number_format!r}")
                    break
        return errors


def check_sheet(label, ws, theirs, layout, fitted=False):
    """The sheet's layout, then every cell against the reference's CSV rows (`fitted`: the default
    mode, whose numbers are exact where the reference's are rounded: default_mode_cell)."""
    errors = layout.check(label, ws, fitted)
    ours = sheet_values(ws)
    if len(ours) != len(theirs):
        errors.append(f"{label}: {len(ours)} rows, reference {len(theirs)}")
    bad = 0
    for i in range(min(len(ours), len(theirs))):
        o, t = ours[i], theirs[i]
        for c in range(max(len(o), len(t))):
            ov = o[c] if c < len(o) else ""
            tv = t[c] if c < len(t) else ""
            ok = default_mode_cell(ov, tv, c in layout.ratio_columns) if fitted else same_cell(ov, tv)
            if not ok:
                bad += 1
                if bad <= 8:
                    errors.append(f"{label} row {i + 1} col {c + 1}: ours {ov!r} reference {tv!r}")
    if bad > 8:
        errors.append(f"{label}: {bad} mismatching cells in all")
    print(f"{label}: {len(ours)} rows (reference {len(theirs)}), {bad} mismatching cells")
    return errors


def check_sheets_case(label, oracle_case_dir, flags, base, comparison, extra, sheets, layout, what):
    """Runs profdiff (from ../shared, corpus-relative paths, so the banners read like the reference's)
    and checks each of `sheets` against <oracle_case_dir>/csv/<sheet>.csv; a sheet the reference did not
    write must not be written either."""
    out = os.path.join(tmpdir(), "result.xlsx")
    args = ["compare", "-bp", "corpus/" + base, "-d", "corpus/" + comparison, "-o", out, "-q"] + flags + extra
    rc, _, stderr = run_profdiff(args, cwd=SHARED)
    if rc != 0:
        return [f"{label}: profdiff exited {rc}: {stderr.strip()[:500]}"]
    wb = read_xlsx(out)
    errors, found = [], 0
    for sheet in sheets:
        path = os.path.join(oracle_case_dir, "csv", sheet + ".csv")
        if not os.path.exists(path):
            if sheet in wb:
                errors.append(f"{label}/{sheet}: profdiff wrote the sheet, the reference did not")
            continue
        theirs = read_csv(path)
        found += 1
        if sheet not in wb:
            errors.append(f"{label}/{sheet}: missing (the reference wrote {len(theirs)} rows)")
            continue
        sheet_layout = layout[sheet] if isinstance(layout, dict) else layout  # a dict: one layout per sheet
        fitted = not any(f.startswith("--reference-compat") for f in flags)
        errors += check_sheet(f"{label}/{sheet}", wb[sheet], theirs, sheet_layout, fitted)
    if found == 0:
        print(f"{label}: no {what} sheet, as in the reference")
    return errors


def run_sheet_parity(cases, lines, sheets, layout, what):
    """check_sheets_case for every (line, case); `lines` maps a label to (oracle dir, flags). Exits."""
    require_shared()
    errors = []
    for line, (oracle, flags) in lines.items():
        for case, (base, comparison, extra) in cases.items():
            if not os.path.isdir(os.path.join(oracle, case)):
                errors.append(f"{line}/{case}: oracle case missing")
                continue
            errors += check_sheets_case(f"{line}/{case}", os.path.join(oracle, case), flags, base, comparison,
                                        extra, sheets, layout, what)
    finish(errors)


# The failed-checks collector and byte reader every Python test uses (tests/common/py_checks.py).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from py_checks import Checks, read_bytes  # noqa: E402,F401


# The cluster oracles (../shared/oracle-cluster) and the corpus's multi-rank text runs.
ORACLE_CLUSTER = os.path.join(SHARED, "oracle-cluster")
CLUSTER_TEXT_RUNS = ["msinsight_pt_text_2025_level0", "msinsight_pt_text_2025_level1", "msinsight_pt_text_2025_level2"]
GPT3 = "msinsight_server_gpt3_2rank_trimmed"


def gpt3_as_ascend_pt(tmp):
    """The GPT-3 2-rank sample in the oracle case's layout: each test_rank_N linked as test_rank_N_ascend_pt."""
    run = os.path.join(tmp, "gpt3_as_ascend_pt")
    os.makedirs(run)
    for r in ("test_rank_0", "test_rank_1"):
        os.symlink(os.path.join(CORPUS, GPT3, r), os.path.join(run, r + "_ascend_pt"))
    return run


def exact_ns(us_text):
    """A µs decimal as the reference writes it, rounded half to even to the ns (the default mode's value)."""
    return (decimal.Decimal(us_text) * 1000).quantize(decimal.Decimal(1), rounding=decimal.ROUND_HALF_EVEN)
