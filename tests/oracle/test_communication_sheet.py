"""Parity of the CommunicationCompare sheet with both release lines of the reference.

For each text/GPU oracle case with a CommunicationCompare.csv (and o_gpu_comm, where the reference
wrote none), and for each line, profdiff writes a workbook with that line's flag plus the case's
options; the workbook is read back with openpyxl and compared with the reference's CSV dump cell
for cell (numbers as floats, text exactly, blanks as blanks), then the row-1 merge ranges, the column
widths and the Diff Ratio column's format. Exits 77 (skip) when ../shared is absent.
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
V100 = "kineto_resnet50_v100_2021jun_devprops/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz"

# case: (base, comparison, options as in ../shared/oracle/MANIFEST.tsv)
CASES = {
    "npu_text_r0_r1": (R0, R1, []),
    "npu_text_step50": (R0, R1, ["--base_step=50", "--comparison_step=50"]),
    "o_disable_details": (R0, R1, ["--disable_details"]),
    "o_disable_module": (R0, R1, ["--disable_module"]),
    "gpu_vs_npu": (V100, R0, []),
    "npu_tracefile": ("mstt_advisor_timeline_trace_view/trace_view.json",
                      R0 + "/ASCEND_PROFILER_OUTPUT/trace_view.json", []),
    "o_gpu_comm": (H100 + "/before_fix_trace.json", H100 + "/after_fix_trace.json",
                   ["--enable_communication_compare"]),
}

LINES = {
    "8.2": (ou.ORACLE, ["--reference-compat=8.2"]),
    "26.1": (os.path.join(ou.SHARED, "oracle-26.1"), ["--reference-compat"]),
}

SHEETS = ["CommunicationCompare"]
MERGES = ["B1:H1", "I1:O1"]
WIDTHS = [10] + ([25, 20, 10] + [17] * 4) * 2 + [20, 20]
RATIO_COLUMNS = [16]  # 0-based: Diff Ratio


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
    # The 8.2 oracle ran gpu_vs_npu on a gunzipped copy of the .json.gz trace (MANIFEST.tsv): the banner
    # names the .json.
    return str(ours) == theirs or str(ours).replace(".json.gz", ".json") == theirs


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
            fmt = "0.00%"
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
        print(f"{label}: no communication sheet, as in the reference")
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
