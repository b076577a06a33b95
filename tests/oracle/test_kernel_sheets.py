"""Parity of the KernelCompare / KernelTypeCompare sheets with both release lines of the reference.

For each oracle case that has a kernel sheet (and o_gpu_kernel, where the reference wrote none), and
for each line, profdiff writes a workbook with that line's flag (`--reference-compat=8.2` against
../shared/oracle, the bare `--reference-compat` against ../shared/oracle-26.1) plus the case's
options. The workbook is read back with openpyxl and compared with the reference's CSV dump cell for
cell: numbers exactly (as floats), text exactly, blanks as blanks, then the row-1 merge ranges, the
column widths and the ratio columns' formats (a float column whose ratios > 1 and "INF" are red
percentages, reference §14). The default (exact) mode is run too: on these profiles (durations with
three decimals) it gives the same cells. Exits 77 (skip) when ../shared is absent.
"""
import csv
import math
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import oracle_util as ou  # noqa: E402

TEXT = "msinsight_pt_text_2025_level1"
R0 = os.path.join(TEXT, "rank0_ascend_pt")
R1 = os.path.join(TEXT, "rank1_ascend_pt")
H100 = "kineto_h100_2026_tiny_uncompressed"

# case: (base, comparison, options as in ../shared/oracle/MANIFEST.tsv)
CASES = {
    "npu_text_r0_r1": (R0, R1, []),
    "npu_text_step50": (R0, R1, ["--base_step=50", "--comparison_step=50"]),
    "o_disable_details": (R0, R1, ["--disable_details"]),
    "o_disable_module": (R0, R1, ["--disable_module"]),
    "o_kernel_type": (R0, R1, ["--enable_kernel_compare", "--use_kernel_type"]),
    "o_gpu_kernel": (H100 + "/before_fix_trace.json", H100 + "/after_fix_trace.json",
                     ["--enable_kernel_compare"]),
}

LINES = {
    "8.2": (ou.ORACLE, ["--reference-compat=8.2"]),
    "26.1": (os.path.join(ou.SHARED, "oracle-26.1"), ["--reference-compat"]),
    "exact": (ou.ORACLE, []),
}

SHEETS = ["KernelCompare", "KernelTypeCompare"]
MERGES = ["D1:H1", "I1:M1"]
WIDTHS = [10, 30, 20] + [20] * 12
RATIO_COLUMNS = [13, 14]  # 0-based: Diff Total Ratio, Diff Avg Ratio


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def same_cell(ours, theirs):
    """Our xlsx value against the reference's CSV text: equal floats, or equal text."""
    if ours == "" or theirs == "":
        return ours == "" and theirs == ""
    if isinstance(ours, (int, float)) and not isinstance(ours, bool):
        try:
            t = float(theirs)
        except ValueError:
            return False
        return float(ours) == t or (math.isinf(t) and math.isinf(float(ours)))
    return str(ours) == theirs


def check_layout(label, ws):
    from openpyxl.utils import get_column_letter
    errors = []
    got = sorted(str(r) for r in ws.merged_cells.ranges)
    if got != MERGES:
        errors.append(f"{label}: merged ranges {got}, expected {MERGES}")
    for i, w in enumerate(WIDTHS):
        cw = ws.column_dimensions[get_column_letter(i + 1)].width
        if cw is None or abs(cw - w) > 1:  # xlsx stores the width plus padding
            errors.append(f"{label}: column {i + 1} width {cw}, expected about {w}")
            break
    for rc in RATIO_COLUMNS:
        for row in ws.iter_rows(min_row=4, min_col=rc + 1, max_col=rc + 1):
            c = row[0]
            v = c.value
            big = v == "INF" or (isinstance(v, (int, float)) and v > 1)
            red = c.fill is not None and c.fill.fgColor is not None and str(c.fill.fgColor.rgb).endswith("FF0000")
            fmt = "0.00%" if big else "#,##0.00"
            if big != red or (v != "INF" and c.number_format != fmt):
                errors.append(f"{label} {c.coordinate}: value {v!r}, red {red}, format {c.number_format!r}")
                break
    return errors


def check_sheet(label, ws, theirs):
    errors = check_layout(label, ws)
    ours = ou.sheet_values(ws)
    if len(ours) != len(theirs):
        errors.append(f"{label}: {len(ours)} rows, reference {len(theirs)}")
    bad = 0
    for i in range(min(len(ours), len(theirs))):
        o, t = ours[i], theirs[i]
        for c in range(max(len(o), len(t))):
            ov = o[c] if c < len(o) else ""
            tv = t[c] if c < len(t) else ""
            if not same_cell(ov, tv):
                bad += 1
                if bad <= 8:
                    errors.append(f"{label} row {i + 1} col {c + 1}: ours {ov!r} reference {tv!r}")
    if bad > 8:
        errors.append(f"{label}: {bad} mismatching cells in all")
    print(f"{label}: {len(ours)} rows (reference {len(theirs)}), {bad} mismatching cells")
    return errors


def check_case(line, case, base, comparison, extra):
    oracle, flags = LINES[line]
    label = f"{line}/{case}"
    out = os.path.join(ou.tmpdir(), "result.xlsx")
    # Run from ../shared with corpus-relative paths, so the row-1 banners read like the reference's.
    args = ["compare", "-bp", "corpus/" + base, "-d", "corpus/" + comparison, "-o", out, "-q"] + flags + extra
    rc, _, stderr = ou.run_profdiff(args, cwd=ou.SHARED)
    if rc != 0:
        return [f"{label}: profdiff exited {rc}: {stderr.strip()[:500]}"]
    wb = ou.read_xlsx(out)
    errors = []
    found = 0
    for sheet in SHEETS:
        path = os.path.join(oracle, case, "csv", sheet + ".csv")
        theirs = read_csv(path) if os.path.exists(path) else None
        if theirs is None:
            if sheet in wb:
                errors.append(f"{label}/{sheet}: profdiff wrote the sheet, the reference did not")
            continue
        found += 1
        if sheet not in wb:
            errors.append(f"{label}/{sheet}: missing (the reference wrote {len(theirs)} rows)")
            continue
        errors += check_sheet(f"{label}/{sheet}", wb[sheet], theirs)
    if found == 0:
        print(f"{label}: no kernel sheet, as in the reference")
    return errors


def main():
    ou.require_shared()
    errors = []
    for line, (oracle, _) in LINES.items():
        for case, (base, comparison, extra) in CASES.items():
            if not os.path.isdir(os.path.join(oracle, case)):
                errors.append(f"{line}/{case}: oracle case missing")
                continue
            errors += check_case(line, case, base, comparison, extra)
    ou.finish(errors)


if __name__ == "__main__":
    main()
