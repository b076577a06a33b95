"""Parity of the CommunicationCompare sheet with both release lines of the reference.

For each text/GPU/DB oracle case with a CommunicationCompare.csv (and o_gpu_comm, where the reference
wrote none), and for each line, profdiff writes a workbook with that line's flag plus the case's
options; the workbook is read back with openpyxl and compared with the reference's CSV dump cell
for cell (numbers as floats, text exactly, blanks as blanks), then the row-1 merge ranges, the column
widths and the Diff Ratio column's format. Exits 77 (skip) when ../shared is absent.
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
    # The Ascend DB export (issue #9): groups from COMMUNICATION_OP.groupName, tasks from
    # COMMUNICATION_TASK_INFO.
    "npu_db_r0_r1": (DB_R0, DB_R1, []),
    "npu_db_step50": (DB_R0, DB_R1, ["--base_step=50", "--comparison_step=50"]),
}

LINES = {
    "8.2": (ou.ORACLE, ["--reference-compat=8.2"]),
    "26.1": (ou.ORACLE_26_1, ["--reference-compat"]),
}

SHEETS = ["CommunicationCompare"]
MERGES = ["B1:H1", "I1:O1"]
WIDTHS = [10] + ([25, 20, 10] + [17] * 4) * 2 + [20, 20]
RATIO_COLUMNS = [16]  # 0-based: Diff Ratio


LAYOUT = ou.SheetLayout(MERGES, WIDTHS, RATIO_COLUMNS, lambda big: "0.00%")


def main():
    ou.run_sheet_parity(CASES, LINES, SHEETS, LAYOUT, "communication")


if __name__ == "__main__":
    main()
