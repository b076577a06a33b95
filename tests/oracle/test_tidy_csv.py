"""`--csv DIR` in the default mode writes tidy tables (docs/deviations.md, Outputs row 1): read with
Python's csv module as pandas would, every file has one header row of unique snake_case names and
every row has the header's width; --reference-compat keeps the workbook grid (banner row first).

Uses only the bundled profiles in tests/data, so it runs without ../shared.
"""
import csv
import os
import re
import sys

sys.path.insert(0, os.path.dirname(__file__))
import oracle_util as u  # noqa: E402

DATA = os.path.join(os.path.abspath(u.SOURCE_DIR), "tests", "data")
PAIRS = [("kineto_h100_tiny/before_fix_trace.json", "kineto_h100_tiny/after_fix_trace.json"),
         ("ascend_trace_view/trace_view.json", "kineto_h100_tiny/before_fix_trace.json")]
SNAKE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")


def read_rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def check_tidy(label, out, failures):
    files = sorted(n for n in os.listdir(out) if n.endswith(".csv"))
    if "OverallMetrics.csv" not in files:
        failures.append(f"{label}: no OverallMetrics.csv in {files}")
    for name in files:
        rows = read_rows(os.path.join(out, name))
        if not rows:
            failures.append(f"{label}/{name}: empty file")
            continue
        header = rows[0]
        if len(set(header)) != len(header):
            failures.append(f"{label}/{name}: repeated column names {header}")
        bad = [h for h in header if not SNAKE.match(h)]
        if bad:
            failures.append(f"{label}/{name}: not snake_case: {bad}")
        for i, r in enumerate(rows[1:], start=2):
            if len(r) != len(header):
                failures.append(f"{label}/{name}:{i}: {len(r)} cells under {len(header)} columns")
                break
        if len(rows) < 2:
            failures.append(f"{label}/{name}: a header without rows")
    overall = read_rows(os.path.join(out, "OverallMetrics.csv")) if "OverallMetrics.csv" in files else []
    if overall and not {"base_duration_ms", "comparison_duration_ms", "diff_duration_ms"} <= set(overall[0]):
        failures.append(f"{label}/OverallMetrics.csv: header {overall[0]}")
    # The labels without the reference's tabs, their depth in the `indent` column (issue 34, item 6).
    if overall and overall[0][:2] != ["index", "indent"]:
        failures.append(f"{label}/OverallMetrics.csv: header starts {overall[0][:2]}, want index, indent")
    elif overall:
        if any(r[0].startswith("\t") for r in overall[1:]):
            failures.append(f"{label}/OverallMetrics.csv: a tab-indented index {[r[0] for r in overall[1:]]}")
        if not any(int(r[1]) > 0 for r in overall[1:]):
            failures.append(f"{label}/OverallMetrics.csv: no indented row {[r[:2] for r in overall[1:]]}")


def main():
    failures = []
    d = u.tmpdir()
    for i, (base, comp) in enumerate(PAIRS):
        out = os.path.join(d, f"tidy{i}")
        rc, _, err = u.run_profdiff(["compare", "-bp", base, "-d", comp, "--no-xlsx", "-q", "--csv", out], cwd=DATA)
        if rc != 0:
            failures.append(f"{base} vs {comp}: exit {rc}: {err}")
            continue
        check_tidy(f"{base} vs {comp}", out, failures)
    # The reference's layout: the banner row, an empty row, then its (repeated) headers.
    out = os.path.join(d, "grid")
    base, comp = PAIRS[0]
    rc, _, err = u.run_profdiff(["compare", "-bp", base, "-d", comp, "--no-xlsx", "-q", "--reference-compat",
                                 "--csv", out], cwd=DATA)
    if rc != 0:
        failures.append(f"--reference-compat: exit {rc}: {err}")
    else:
        rows = read_rows(os.path.join(out, "OverallMetrics.csv"))
        if len(rows) < 3 or not rows[0][1].startswith("Base Profiling: ") or rows[2].count("Duration(ms)") != 2:
            failures.append(f"--reference-compat OverallMetrics.csv starts {rows[:3]}")
    u.finish(failures)


if __name__ == "__main__":
    main()
