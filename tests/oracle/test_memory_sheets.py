"""Parity of the MemoryCompare / MemoryCompareStatistic sheets with both release lines of the reference.

For each text/GPU oracle case that has a memory sheet (../shared/oracle/MANIFEST.tsv; the DB cases
and the DB cases npu_db_* of DB_CASES), and for each line, profdiff writes a workbook with that line's flag
(`--reference-compat=8.2` against ../shared/oracle, the bare `--reference-compat` against
../shared/oracle-26.1, whose operator pairing is difflib's) plus the case's options, and every cell is
compared with the reference's CSV dump (oracle_util.check_sheet): numbers exactly, the "Allocated
Details" text exactly, then the row-1 merge ranges, the column widths and the ratio columns' red
percentages. The default (exact) mode is checked on MemoryCompare (see EXACT_CASES). Exits 77 (skip)
when ../shared is absent.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import oracle_util as ou  # noqa: E402

TEXT = "msinsight_pt_text_2025_level1"
R0 = os.path.join(TEXT, "rank0_ascend_pt")
R1 = os.path.join(TEXT, "rank1_ascend_pt")
H100 = "kineto_h100_2026_tiny_uncompressed"
RESNET = ("kineto_resnet50_v100_2021jun_devprops/resnet50_num_workers_0/"
          "worker0.1623143089861.pt.trace.json.gz")
ADVISOR = "mstt_advisor_timeline_trace_view/trace_view.json"

# case: (base, comparison, options as in ../shared/oracle/MANIFEST.tsv)
CASES = {
    "npu_text_r0_r1": (R0, R1, []),
    "npu_text_step50": (R0, R1, ["--base_step=50", "--comparison_step=50"]),
    "gpu_vs_npu": (RESNET, R0, []),
    "gpu_vs_gpu_h100": (H100 + "/before_fix_trace.json", H100 + "/after_fix_trace.json", []),
    "npu_tracefile": (ADVISOR, R0 + "/ASCEND_PROFILER_OUTPUT/trace_view.json", []),
    "o_disable_details": (R0, R1, ["--disable_details"]),
    "o_disable_module": (R0, R1, ["--disable_module"]),
}

LINES = {label: (oracle, [flag]) for label, (oracle, flag) in ou.LINES.items()}

SHEETS = ["MemoryCompareStatistic", "MemoryCompare"]

LAYOUTS = {
    "MemoryCompare": ou.SheetLayout(["B1:F1", "G1:K1"], [10, 30, 20, 20, 20, 20, 30, 20, 20, 20, 20, 20, 20],
                                    [12], lambda big: "0.00%"),
    "MemoryCompareStatistic": ou.SheetLayout(["C1:E1", "F1:H1"], [10, 30, 25, 30, 25, 27, 33, 25, 20, 20],
                                             [9], lambda big: "0.00%"),
}


# The default (exact) mode writes the reference's MemoryCompare on the cases whose pairing a true LCS
# reproduces; its statistic differs only in the float sums of the durations (docs/deviations.md,
# memory 5), so that sheet is not compared here.
EXACT_CASES = {case: CASES[case] for case in ("npu_text_r0_r1", "npu_text_step50", "o_disable_module",
                                              "gpu_vs_gpu_h100")}


# The Ascend DB export (issue #9): OP_MEMORY read as each line reads it (docs/deviations.md, memory
# rows 6-9), on the operator tree of one node per PYTORCH_API row and connection id (operator row 8).
DB = "msinsight_pt_db_2025_level1"
DB_CASES = {
    "npu_db_r0_r1": (DB + "/rank0_ascend_pt", DB + "/rank1_ascend_pt", []),
    "npu_db_step50": (DB + "/rank0_ascend_pt", DB + "/rank1_ascend_pt", ["--base_step=50", "--comparison_step=50"]),
}


def main():
    ou.require_shared()
    errors = []
    for line, (oracle, flags) in LINES.items():
        for case, (base, comparison, extra) in {**CASES, **DB_CASES}.items():
            errors += ou.check_sheets_case(f"{line}/{case}", os.path.join(oracle, case), flags, base, comparison,
                                           extra, SHEETS, LAYOUTS, "memory")
    for case, (base, comparison, extra) in EXACT_CASES.items():
        errors += ou.check_sheets_case(f"exact/{case}", os.path.join(ou.ORACLE, case), [], base, comparison,
                                       extra, ["MemoryCompare"], LAYOUTS, "memory")
    ou.finish(errors)


if __name__ == "__main__":
    main()
