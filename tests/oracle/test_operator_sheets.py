"""Parity of the operator and module sheets with both release lines of the reference.

For each oracle case and each line, profdiff writes a workbook with that line's flag (plus the
case's options): `--reference-compat=8.2` against ../shared/oracle (msprof-analyze 8.2.0) and the
bare `--reference-compat` (the current line, 26.1) against ../shared/oracle-26.1 (the cases that
exist there). The sheets are read back with openpyxl and compared with the reference's CSV dump
(<oracle>/<case>/csv/<Sheet>.csv): the same sheet set and row count, the same operator/module names
in the same order, durations within 0.001 and ratios within 0.0001 (the checks the parity
requirement names), and then every other cell too (kernel details, input shapes/types, call
stacks, counts, banners) as text. The two lines differ on gpu_vs_npu and npu_tracefile: 26.1 pairs
operators with difflib's SequenceMatcher and lists a gap's base-only items first.
Exits 77 (skip) when ../shared is absent.
"""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import oracle_util as ou  # noqa: E402

TEXT = "msinsight_pt_text_2025_level1"
R0 = os.path.join(TEXT, "rank0_ascend_pt")
R1 = os.path.join(TEXT, "rank1_ascend_pt")
GPU = "kineto_resnet50_v100_2021jun_devprops/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz"
H100 = "kineto_h100_2026_tiny_uncompressed"
DB = "msinsight_pt_db_2025_level1"
TRACE_VIEW = "mstt_advisor_timeline_trace_view/trace_view.json"
R0_TRACE_VIEW = os.path.join(R0, "ASCEND_PROFILER_OUTPUT/trace_view.json")

# case: (base, comparison, options as in ../shared/oracle/MANIFEST.tsv). The enabled comparisons
# matter: with the overall or communication comparison enabled the reference also attaches HCCL ops
# as kernels (docs/reference/loading.md#kernel-linking step 3), so cases run with "all compares" are
# run here without an --enable_* flag too.
CASES = {
    "npu_text_r0_r1": (R0, R1, []),
    "o_disable_module": (R0, R1, ["--disable_module"]),
    "o_maxk": (R0, R1, ["--disable_module", "--max_kernel_num=10", "--enable_operator_compare"]),
    "o_use_shape": (R0, R1, ["--disable_module", "--use_input_shape", "--enable_operator_compare"]),
    "o_disable_details": (R0, R1, ["--disable_details"]),
    "gpu_vs_npu": (GPU, R0, []),
    "gpu_vs_gpu_h100": (H100 + "/before_fix_trace.json", H100 + "/after_fix_trace.json", []),
    "npu_text_step50": (R0, R1, ["--base_step=50", "--comparison_step=50"]),
    "npu_tracefile": (TRACE_VIEW, R0_TRACE_VIEW, []),
    # Ascend DB export (issue #9): the fwdbwd links of two ops sharing a connection id, and under
    # --reference-compat the reference's DB module kernels, task ids and step query
    # (docs/deviations.md, operator rows 8-11).
    "npu_db_r0_r1": (DB + "/rank0_ascend_pt", DB + "/rank1_ascend_pt", []),
    "npu_db_step50": (DB + "/rank0_ascend_pt", DB + "/rank1_ascend_pt", ["--base_step=50", "--comparison_step=50"]),
}

# Release line -> (oracle directory, the flag that asks for that line).
LINES = {
    "8.2": (ou.ORACLE, "--reference-compat=8.2"),
    "26.1": (ou.ORACLE_26_1, "--reference-compat"),
}

TRUNCATED = "...[truncated by profdiff]"  # profdiff marks a cell cut at Excel's 32767 characters

SHEETS = ["ModuleCompareStatistic", "ModuleCompare", "OperatorCompareStatistic", "OperatorCompare"]

# Per sheet: (name columns, duration columns, ratio columns), 0-based.
COLUMNS = {
    "OperatorCompare": ([1, 6], [5, 10, 11], [12]),
    "OperatorCompareStatistic": ([1], [2, 3, 4, 5, 6], [7]),
    "ModuleCompare": ([1, 2, 3, 4, 8], [6, 7, 10, 11, 12, 13], [14]),
    "ModuleCompareStatistic": ([1, 2, 3, 4], [6, 7, 8, 10, 11, 12, 13, 14], [15]),
}

# Layout (docs/reference/workbook.md): row-1 merge ranges and column widths.
LAYOUT = {
    "OperatorCompare": (["B1:F1", "G1:K1"], [10, 30, 20, 20, 20, 20, 30, 20, 20, 20, 20, 20, 20]),
    "OperatorCompareStatistic": (["C1:D1", "E1:F1"], [10, 30, 25, 25, 30, 30, 20, 20]),
    "ModuleCompare": (["E1:H1", "I1:L1"], [10, 20, 15, 35, 25, 20, 20, 20, 25, 20, 20, 20, 20, 20, 15, 30, 30]),
    "ModuleCompareStatistic": (["F1:I1", "J1:M1"],
                               [10, 20, 15, 35, 25, 20, 20, 10, 20, 20, 20, 10, 20, 20, 20, 15, 30, 30]),
}
RATIO_COLUMN = {"OperatorCompare": 12, "OperatorCompareStatistic": 7, "ModuleCompare": 14,
                "ModuleCompareStatistic": 15}


def check_layout(case, sheet, ws):
    from openpyxl.utils import get_column_letter
    errors = []
    merges, widths = LAYOUT[sheet]
    got = sorted(str(r) for r in ws.merged_cells.ranges)
    if got != sorted(merges):
        errors.append(f"{case}/{sheet}: merged ranges {got}, expected {merges}")
    for i, w in enumerate(widths):
        cw = ws.column_dimensions[get_column_letter(i + 1)].width
        if cw is None or abs(cw - w) > 1:  # xlsx stores the width plus padding
            errors.append(f"{case}/{sheet}: column {i + 1} width {cw}, expected about {w}")
            break
    # Ratio column: numbers > 1 and "INF" red with the 0.00% format, others without fill.
    rc = RATIO_COLUMN[sheet]
    for row in ws.iter_rows(min_row=4, min_col=rc + 1, max_col=rc + 1):
        c = row[0]
        v = c.value
        big = v == "INF" or (isinstance(v, (int, float)) and v > 1)
        red = c.fill is not None and c.fill.fgColor is not None and str(c.fill.fgColor.rgb).endswith("FF0000")
        if big != red or (isinstance(v, (int, float)) and c.number_format != "0.00%"):
            errors.append(f"{case}/{sheet} {c.coordinate}: value {v!r}, red {red}, format {c.number_format!r}")
            break
    return errors


DUR_TOL = 0.001
RATIO_TOL = 0.0001

def read_oracle_csv(oracle, case, sheet):
    path = os.path.join(oracle, case, "csv", sheet + ".csv")
    if not os.path.exists(path):
        return None
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def check_case(line, case, base, comparison, extra):
    oracle, flag = LINES[line]
    label = f"{line}/{case}"
    errors = []
    out = os.path.join(ou.tmpdir(), "result.xlsx")
    # Run from ../shared with corpus-relative paths, so the row-1 banners read like the reference's.
    args = ["compare", "-bp", "corpus/" + base, "-d", "corpus/" + comparison, flag, "-o", out, "-q"] + extra
    rc, stdout, stderr = ou.run_profdiff(args, cwd=ou.SHARED)
    if rc != 0:
        return [f"{label}: profdiff exited {rc}: {stderr.strip()[:500]}"]
    wb = ou.read_xlsx(out)
    for sheet in SHEETS:
        theirs = read_oracle_csv(oracle, case, sheet)
        have = sheet in wb
        if theirs is None:
            if have:
                errors.append(f"{label}/{sheet}: profdiff wrote the sheet, the reference did not")
            continue
        if not have:
            errors.append(f"{label}/{sheet}: missing (the reference wrote {len(theirs)} rows)")
            continue
        errors += check_layout(label, sheet, wb[sheet])
        ours = ou.sheet_values(wb[sheet])
        if len(ours) != len(theirs):
            errors.append(f"{label}/{sheet}: {len(ours)} rows, reference {len(theirs)}")
        if ours and theirs and [str(c) for c in ours[2]] != theirs[2]:
            errors.append(f"{label}/{sheet}: header {ours[2]} != {theirs[2]}")
        names, durs, ratios = COLUMNS[sheet]
        bad = 0
        for i in range(3, min(len(ours), len(theirs))):
            o, t = ours[i], theirs[i]
            for cols, tol in ((names, None), (durs, DUR_TOL), (ratios, RATIO_TOL)):
                for c in cols:
                    ov = o[c] if c < len(o) else ""
                    tv = t[c] if c < len(t) else ""
                    ok = ou.cells_match(ov, tv, tol if tol is not None else 0)
                    if not ok:
                        bad += 1
                        if bad <= 8:
                            errors.append(f"{label}/{sheet} row {i + 1} col {c + 1} "
                                          f"({theirs[2][c]}): ours {ov!r} reference {tv!r}")
        if bad > 8:
            errors.append(f"{label}/{sheet}: {bad} mismatching cells in all")
        # Every other cell, as text (numbers with the duration tolerance); kernel details exactly,
        # durations as the trace wrote them (139.4186019897461 in npu_tracefile's advisor trace).
        other = 0
        checked = set(names) | set(durs) | set(ratios)
        for i in range(0, min(len(ours), len(theirs))):
            o, t = ours[i], theirs[i]
            for c in range(max(len(o), len(t))):
                if i >= 3 and c in checked:
                    continue
                ov = o[c] if c < len(o) else ""
                tv = t[c] if c < len(t) else ""
                if i == 0 and case == "gpu_vs_npu":  # the reference read a gunzipped copy (.json)
                    ov = str(ov).replace(".json.gz", ".json")
                if isinstance(ov, str) and ov.endswith(TRUNCATED) and len(tv) >= 32767 and \
                        tv.startswith(ov[:-len(TRUNCATED)]):
                    continue
                if not ou.cells_match(ov, tv, DUR_TOL):
                    other += 1
                    if other <= 5:
                        errors.append(f"{label}/{sheet} row {i + 1} col {c + 1}: ours {str(ov)[:120]!r} "
                                      f"reference {str(tv)[:120]!r}")
        if other > 5:
            errors.append(f"{label}/{sheet}: {other} other mismatching cells in all")
        print(f"{label}/{sheet}: {len(ours)} rows (reference {len(theirs)}), {bad} mismatching "
              f"name/duration/ratio cells, {other} other mismatching cells")
    return errors


def main():
    ou.require_shared()
    errors = []
    for line, (oracle, flag) in LINES.items():
        if not os.path.isdir(oracle):
            errors.append(f"{line}: oracle directory {oracle} missing")
            continue
        for case, (base, comparison, extra) in CASES.items():
            if not os.path.isdir(os.path.join(oracle, case)):
                if line == "8.2":  # the 8.2 oracle has every case; 26.1 the cases listed in its MANIFEST
                    errors.append(f"{line}/{case}: oracle case missing")
                continue
            errors += check_case(line, case, base, comparison, extra)
    for e in errors:
        print("FAIL:", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
