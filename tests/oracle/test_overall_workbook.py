"""The OverallMetrics workbook's layout and styling (docs/reference/overall.md#overallmetrics-sheet,
docs/reference/workbook.md), read back with openpyxl, and the output-file safety rules
(docs/deviations.md): never overwrite without --force, temp file + rename, nothing left behind.

Uses only the bundled profiles in tests/data (GPU base vs NPU comparison and the reverse), so it runs
without ../shared.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import oracle_util as u  # noqa: E402

DATA = os.path.join(os.path.abspath(u.SOURCE_DIR), "tests", "data")
GPU = "kineto_h100_tiny/before_fix_trace.json"
NPU = "ascend_trace_view/trace_view.json"
COVERAGE = {GPU: " [no step markers]", NPU: " [1 step (ProfilerStep#1)]"}

GREEN, YELLOW, RED, BLUE, LIGHT = "FF00FF00", "FFFFFF00", "FFFF0000", "FF00BFFF", "FF87CEFA"
HEADER = ["Index", "Duration(ms)", "Duration Ratio", "Number", "Duration(ms)", "Duration Ratio", "Number",
          "Diff Duration(ms)", "Diff Ratio"]
WIDTHS = {"A": 40, "B": 20, "C": 20, "D": 10, "E": 20, "F": 20, "G": 10, "H": 20, "I": 10}
# Column number formats (docs/reference/workbook.md): Index DEFAULT, durations FLOAT, ratios RATIO,
# numbers DEFAULT.
FORMATS = ["#,##0", "#,##0.00", "0.00%", "#,##0", "#,##0.00", "0.00%", "#,##0", "#,##0.00", "0.00%"]
BLUE_ROWS = {"Computing Time", "Uncovered Communication Time", "Free Time", "E2E Time"}
LIGHT_ROWS = {"\tFlash Attention (Forward)", "\tFlash Attention (Backward)", "\tConv (Forward)",
              "\tConv (Backward)", "\tMatmul", "\tPage Attention", "\tVector", "\tCube", "\tSDMA (Tensor Move)",
              "\tOther", "\tUncovered Communication Overlapped"}


def fill(c):
    return c.fill.fgColor.rgb if c.fill is not None and c.fill.fill_type == "solid" else None


def check_workbook(path, base_arg, comp_arg, failures, seen):
    wb = u.read_xlsx(path)["__wb__"]
    if wb.sheetnames != ["OverallMetrics"]:
        failures.append(f"sheets {wb.sheetnames}")
        return
    ws = wb["OverallMetrics"]
    where = f"{base_arg} vs {comp_arg}"
    # Row 1: merged banners, green base / yellow comparison, bold; A1 and H1:I1 empty and unformatted.
    merged = sorted(str(r) for r in ws.merged_cells.ranges)
    if merged != ["B1:D1", "E1:G1"]:
        failures.append(f"{where}: merged ranges {merged}")
    # The default mode adds each side's step coverage (docs/deviations.md, Outputs row 2).
    # A pair of different devices says so on the comparison banner (issue 31: the workbook banner).
    kind = {a: ("GPU" if "kineto" in a else "NPU") for a in (base_arg, comp_arg)}
    unfair = "" if kind[base_arg] == kind[comp_arg] else " [NOT COMPARABLE: different devices: "
    if (ws["B1"].value != "Base Profiling: " + base_arg + COVERAGE[base_arg]
            or not ws["E1"].value.startswith("Comparison Profiling: " + comp_arg + COVERAGE[comp_arg] + unfair)
            or (not unfair and ws["E1"].value != "Comparison Profiling: " + comp_arg + COVERAGE[comp_arg])):
        failures.append(f"{where}: banners {ws['B1'].value!r} {ws['E1'].value!r}")
    if fill(ws["B1"]) != GREEN or fill(ws["E1"]) != YELLOW or not ws["B1"].font.b or not ws["E1"].font.b:
        failures.append(f"{where}: banner formats {fill(ws['B1'])} {fill(ws['E1'])}")
    for ref in ("A1", "H1", "I1"):
        if ws[ref].value is not None or fill(ws[ref]) is not None:
            failures.append(f"{where}: {ref} should be empty and unformatted")
    if any(c.value is not None for c in ws[2]):
        failures.append(f"{where}: row 2 is not empty")
    # Row 3: header, bold Arial 11, thin border, green except the comparison columns E-G (yellow).
    header = [c.value for c in ws[3]]
    if header != HEADER:
        failures.append(f"{where}: header {header}")
    for i, c in enumerate(ws[3]):
        want = YELLOW if 4 <= i <= 6 else GREEN
        if fill(c) != want or not c.font.b or c.font.name != "Arial" or c.font.sz != 11 or c.border.left.style != "thin":
            failures.append(f"{where}: header cell {c.coordinate} format (fill {fill(c)}, bold {c.font.b})")
    # Column widths (xlsx stores the width plus the 0.71 character padding). The default mode (this
    # test's) widens a text column to its longest line, up to 80, never below the reference's width.
    for col, w in WIDTHS.items():
        got = ws.column_dimensions[col].width
        if got < w + 0.7109375 - 1e-6 or got > max(w, 80) + 0.7109375 + 1e-6:
            failures.append(f"{where}: column {col} width {got}, expected {w} or wider up to 80")
    # Data rows.
    for row in ws.iter_rows(min_row=4):
        label = row[0].value
        if row[0].data_type != "s" or not isinstance(label, str):
            failures.append(f"{where}: {row[0].coordinate} is not a text cell")
            continue
        tabs = len(label) - len(label.lstrip("\t"))
        if int(row[0].alignment.indent) != tabs:
            failures.append(f"{where}: {label!r} indent {row[0].alignment.indent} != {tabs}")
        want_fill = BLUE if label in BLUE_ROWS else LIGHT if (label in LIGHT_ROWS or (tabs == 1 and label not in (
            "\tSDMA", "\tFree"))) else None
        for i, c in enumerate(row):
            if c.font.name != "Arial" or c.border.left.style != "thin" or c.alignment.horizontal != "left":
                failures.append(f"{where}: {c.coordinate} base format")
            ratio = i == 8
            v = c.value
            # An infinite ratio (a zero base) is, in the default mode, the largest double shown as "INF"
            # by its number format, so that a number filter keeps it (issue 34, item 4).
            inf = isinstance(v, float) and v >= 1e300
            red = ratio and (inf or v == "INF" or (isinstance(v, (int, float)) and v > 1))
            if red:
                seen.add("red_inf" if inf else "red_ratio")
                if v == "INF":
                    failures.append(f"{where}: {label!r} ratio is the text INF in the default mode")
                want = INF_FORMAT if inf else "0.00%"
                if fill(c) != RED or c.number_format != want:
                    failures.append(f"{where}: {label!r} ratio {v} is not red (fill {fill(c)}, {c.number_format})")
                continue
            if ratio:
                seen.add("plain_ratio")
            if fill(c) != want_fill:
                failures.append(f"{where}: {label!r} {c.coordinate} fill {fill(c)} != {want_fill}")
            if c.number_format != FORMATS[i]:
                failures.append(f"{where}: {c.coordinate} number format {c.number_format!r} != {FORMATS[i]!r}")
        if want_fill is not None:
            seen.add(want_fill)
        else:
            seen.add("no_fill")


INF_FORMAT = '[>=1E+300]"INF";0.00%'


def check_compat_inf_is_text(failures):
    """--reference-compat keeps the reference's text "INF" (red) in the Diff Ratio column."""
    out = os.path.join(u.tmpdir(), "compat.xlsx")
    rc, _, err = u.run_profdiff(["compare", "-bp", GPU, "-d", NPU, "-o", out, "-q", "--enable_profiling_compare",
                                 "--reference-compat"], cwd=DATA)
    if rc != 0:
        failures.append(f"compat: exit {rc}: {err}")
        return
    ws = u.read_xlsx(out)["OverallMetrics"]
    values = [r[8].value for r in ws.iter_rows(min_row=4)]
    if "INF" not in values or any(isinstance(v, float) and v >= 1e300 for v in values):
        failures.append(f"compat Diff Ratio column {values}: want the text INF")


def check_styles(failures):
    seen = set()
    d = u.tmpdir()
    for base, comp in ((GPU, NPU), (NPU, GPU)):
        out = os.path.join(d, f"{len(os.listdir(d))}.xlsx")
        rc, _, err = u.run_profdiff(["compare", "-bp", base, "-d", comp, "-o", out, "-q",
                                     "--enable_profiling_compare"], cwd=DATA)
        if rc != 0:
            failures.append(f"{base} vs {comp}: exit {rc}: {err}")
            continue
        check_workbook(out, base, comp, failures, seen)
    # The two runs must have exercised every style checked above.
    for what in ("red_inf", "red_ratio", "plain_ratio", BLUE, LIGHT, "no_fill"):
        if what not in seen:
            failures.append(f"the test data did not exercise {what}")


def check_no_overwrite(failures):
    d = u.tmpdir()
    out = os.path.join(d, "result.xlsx")
    args = ["compare", "-bp", GPU, "-d", NPU, "-o", out, "-q", "--enable_profiling_compare"]
    rc, _, err = u.run_profdiff(args, cwd=DATA)
    if rc != 0:
        failures.append(f"first run exited {rc}: {err}")
        return
    st = os.stat(out)
    with open(out, "rb") as f:
        first = f.read()
    rc, _, err = u.run_profdiff(args, cwd=DATA)
    if rc != 2 or "--force" not in err:
        failures.append(f"second run without --force: exit {rc} (want 2 with a hint at --force): {err}")
    with open(out, "rb") as f:
        if f.read() != first or os.stat(out).st_ino != st.st_ino:
            failures.append("the existing workbook was modified without --force")
    rc, _, err = u.run_profdiff(args + ["--force"], cwd=DATA)
    if rc != 0:
        failures.append(f"--force run exited {rc}: {err}")
    elif os.stat(out).st_ino == st.st_ino:
        failures.append("--force rewrote the file in place instead of renaming a temporary file over it")
    if sorted(os.listdir(d)) != ["result.xlsx"]:
        failures.append(f"files left behind: {sorted(os.listdir(d))}")
    # A failed write leaves nothing: an output directory that cannot be created.
    rc, _, err = u.run_profdiff(["compare", "-bp", GPU, "-d", NPU, "-o", os.path.join(out, "sub", "x.xlsx"), "-q"],
                                cwd=DATA)
    if rc == 0:
        failures.append("writing below a file succeeded")
    # JSON and CSV outputs follow the same rule.
    js = os.path.join(d, "r.json")
    for extra in (["--json", js], ["--json", js]):
        rc, _, err = u.run_profdiff(["compare", "-bp", GPU, "-d", NPU, "--no-xlsx", "-q"] + extra, cwd=DATA)
    if rc != 2:
        failures.append(f"--json over an existing file without --force: exit {rc}")


def main():
    failures = []
    check_styles(failures)
    check_compat_inf_is_text(failures)
    check_no_overwrite(failures)
    u.finish(failures)


if __name__ == "__main__":
    main()
