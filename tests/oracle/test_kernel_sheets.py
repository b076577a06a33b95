"""Parity of the KernelCompare / KernelTypeCompare sheets with both release lines of the reference.

For each oracle case that has a kernel sheet (and o_gpu_kernel, where the reference wrote none: compat
lines only, the default mode compares GPU sides), and
for each line, profdiff writes a workbook with that line's flag (`--reference-compat=8.2` against
../shared/oracle, the bare `--reference-compat` against ../shared/oracle-26.1) plus the case's
options. The workbook is read back with openpyxl and compared with the reference's CSV dump cell for
cell: numbers exactly (as floats), text exactly, blanks as blanks, then the row-1 merge ranges, the
column widths and the ratio columns' formats (a float column whose ratios > 1 and "INF" are red
percentages, docs/reference/workbook.md). The default (exact) mode is run too: its durations round
to the reference's 2 decimals and its ratios are the exact ones (docs/deviations.md row 19;
oracle_util.default_mode_cell). Exits 77 (skip) when ../shared is absent.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import oracle_util as ou  # noqa: E402

TEXT = "msinsight_pt_text_2025_level1"
R0 = os.path.join(TEXT, "rank0_ascend_pt")
R1 = os.path.join(TEXT, "rank1_ascend_pt")
H100 = "kineto_h100_2026_tiny_uncompressed"
DB_R0 = "msinsight_pt_db_2025_level1/rank0_ascend_pt"
DB_R1 = "msinsight_pt_db_2025_level1/rank1_ascend_pt"

# case: (base, comparison, options as in ../shared/oracle/MANIFEST.tsv)
CASES = {
    "npu_text_r0_r1": (R0, R1, []),
    "npu_text_step50": (R0, R1, ["--base_step=50", "--comparison_step=50"]),
    "o_disable_details": (R0, R1, ["--disable_details"]),
    "o_disable_module": (R0, R1, ["--disable_module"]),
    "o_kernel_type": (R0, R1, ["--enable_kernel_compare", "--use_kernel_type"]),
    # The Ascend DB export (issue #9): KernelCompare from TASK + COMPUTE_TASK_INFO.
    "npu_db_r0_r1": (DB_R0, DB_R1, []),
    "npu_db_step50": (DB_R0, DB_R1, ["--base_step=50", "--comparison_step=50"]),
}
# KernelTypeCompare of a DB side: the reference's totals are float sums, reproduced only by the
# compat lines (the exact mode sums ns: docs/deviations.md row 6).
# A GPU pair: the reference writes no kernel sheet, as the compat lines do; the exact mode compares GPU
# sides (docs/deviations.md, kernel comparison row 6: the golden h100_pair_default holds this pair's
# KernelCompare sheet).
COMPAT_CASES = {"o_db_kernel_type": (DB_R0, DB_R1, ["--enable_kernel_compare", "--use_kernel_type"]),
                "o_gpu_kernel": (H100 + "/before_fix_trace.json", H100 + "/after_fix_trace.json",
                                 ["--enable_kernel_compare"])}

LINES = {
    "8.2": (ou.ORACLE, ["--reference-compat=8.2"]),
    "26.1": (ou.ORACLE_26_1, ["--reference-compat"]),
    "exact": (ou.ORACLE, []),
}

SHEETS = ["KernelCompare", "KernelTypeCompare"]
MERGES = ["D1:H1", "I1:M1"]
WIDTHS = [10, 30, 20] + [20] * 12
RATIO_COLUMNS = [13, 14]  # 0-based: Diff Total Ratio, Diff Avg Ratio


LAYOUT = ou.SheetLayout(MERGES, WIDTHS, RATIO_COLUMNS, lambda big: "0.00%" if big else "#,##0.00")


def main():
    ou.require_shared()
    errors = []
    for line, (oracle, flags) in LINES.items():
        cases = dict(CASES, **(COMPAT_CASES if line != "exact" else {}))
        for case, (base, comparison, extra) in cases.items():
            if not os.path.isdir(os.path.join(oracle, case)):
                errors.append(f"{line}/{case}: oracle case missing")
                continue
            errors += ou.check_sheets_case(f"{line}/{case}", os.path.join(oracle, case), flags, base, comparison,
                                           extra, SHEETS, LAYOUT, "kernel")
    ou.finish(errors)


if __name__ == "__main__":
    main()
