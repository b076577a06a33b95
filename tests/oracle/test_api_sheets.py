"""Parity of the ApiCompare sheet with both release lines of the reference.

For each text/GPU oracle case that has an ApiCompare sheet (MANIFEST.tsv; the DB cases are out of
scope) and for each line, profdiff writes a workbook with that line's flag (`--reference-compat=8.2`
against ../shared/oracle, the bare `--reference-compat` against ../shared/oracle-26.1) plus the
case's options, and the sheet is compared with the reference's CSV dump cell for cell (numbers
exactly, text exactly), then its row-1 merge ranges, column widths and ratio formats. The default
(exact) mode is run too: on these profiles its rounded values are the same. Exits 77 (skip) when
../shared is absent.
"""
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
    "gpu_vs_gpu_h100": (H100 + "/before_fix_trace.json", H100 + "/after_fix_trace.json", []),
    "gpu_vs_npu": (V100, R0, []),
    "npu_text_r0_r1": (R0, R1, []),
    "npu_text_step50": (R0, R1, ["--base_step=50", "--comparison_step=50"]),
    "npu_tracefile": ("mstt_advisor_timeline_trace_view/trace_view.json",
                      R0 + "/ASCEND_PROFILER_OUTPUT/trace_view.json", []),
    "o_disable_details": (R0, R1, ["--disable_details"]),
    "o_disable_module": (R0, R1, ["--disable_module"]),
    "o_usekt_noenable": (R0, R1, ["--enable_api_compare", "--use_kernel_type"]),
}

LINES = {line: (oracle, [flag]) for line, (oracle, flag) in ou.LINES.items()}
LINES["exact"] = (ou.ORACLE, [])

SHEETS = ["ApiCompare"]
MERGES = ["C1:F1", "G1:J1"]
WIDTHS = [10, 30] + [20] * 12
RATIO_COLUMNS = [10, 11, 12, 13]  # 0-based: Diff Total/Self/Avg/Calls Ratio

LAYOUT = ou.SheetLayout(MERGES, WIDTHS, RATIO_COLUMNS, lambda big: "0.00%" if big else "#,##0.00")


def main():
    ou.run_sheet_parity(CASES, LINES, SHEETS, LAYOUT, "API")


if __name__ == "__main__":
    main()
