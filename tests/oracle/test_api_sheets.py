"""Parity of the ApiCompare sheet with both release lines of the reference.

For each oracle case that has an ApiCompare sheet (MANIFEST.tsv; the DB cases npu_db_* included)
and for each line, profdiff writes a workbook with that line's flag (`--reference-compat=8.2`
against ../shared/oracle, the bare `--reference-compat` against ../shared/oracle-26.1) plus the
case's options, and the sheet is compared with the reference's CSV dump cell for cell (numbers
exactly, text exactly), then its row-1 merge ranges, column widths and ratio formats. The default
(exact) mode is run too: on the text/GPU profiles its exact values round to the reference's (its
ratios are the exact ones, docs/deviations.md row 19; oracle_util.default_mode_cell); on the DB cases
it counts each op once where the reference counts it once per connection id, so there it must
differ (and only in rows of such ops). Exits 77 (skip) when ../shared is absent.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import oracle_util as ou  # noqa: E402

TEXT = "msinsight_pt_text_2025_level1"
R0 = os.path.join(TEXT, "rank0_ascend_pt")
R1 = os.path.join(TEXT, "rank1_ascend_pt")
H100 = "kineto_h100_2026_tiny_uncompressed"
DB = "msinsight_pt_db_2025_level1"
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
    # Ascend DB export (issue #9): one operator-tree node per PYTORCH_API row and connection id under
    # --reference-compat (docs/deviations.md, operator row 8).
    "npu_db_r0_r1": (DB + "/rank0_ascend_pt", DB + "/rank1_ascend_pt", []),
    "npu_db_step50": (DB + "/rank0_ascend_pt", DB + "/rank1_ascend_pt", ["--base_step=50", "--comparison_step=50"]),
}
# The default mode keeps one node per op: its DB calls differ from the reference's (checked below).
EXACT_SKIPS = {"npu_db_r0_r1", "npu_db_step50"}

LINES = {line: (oracle, [flag]) for line, (oracle, flag) in ou.LINES.items()}
LINES["exact"] = (ou.ORACLE, [])

SHEETS = ["ApiCompare"]
MERGES = ["C1:F1", "G1:J1"]
WIDTHS = [10, 30] + [20] * 12
RATIO_COLUMNS = [10, 11, 12, 13]  # 0-based: Diff Total/Self/Avg/Calls Ratio

LAYOUT = ou.SheetLayout(MERGES, WIDTHS, RATIO_COLUMNS, lambda big: "0.00%" if big else "#,##0.00")


def check_db_default(errors):
    """The default mode on a DB case: fewer calls than the reference for the ops it duplicates, never
    more, and the same names in the same order."""
    for case in sorted(EXACT_SKIPS):
        base, comparison, extra = CASES[case]
        out = os.path.join(ou.tmpdir(), "api.xlsx")
        rc, _, err = ou.run_profdiff(["compare", "-bp", "corpus/" + base, "-d", "corpus/" + comparison, "-o", out,
                                      "-q", "--enable_api_compare"] + extra, cwd=ou.SHARED)
        if rc != 0:
            errors.append(f"exact/{case}: profdiff exited {rc}: {err.strip()[:300]}")
            continue
        ours = ou.sheet_values(ou.read_xlsx(out)["ApiCompare"])[3:]
        theirs = ou.read_oracle_csv(case, "ApiCompare")[3:]
        fewer = 0
        for o, t in zip(ours, theirs):
            if o[1] != t[1]:
                errors.append(f"exact/{case}: name {o[1]!r} where the reference has {t[1]!r}")
                break
            if int(o[5]) > int(float(t[5])):
                errors.append(f"exact/{case}/{o[1]}: {o[5]} calls, more than the reference's {t[5]}")
            fewer += int(o[5]) < int(float(t[5]))
        if len(ours) != len(theirs) or fewer == 0:
            errors.append(f"exact/{case}: {len(ours)} rows ({len(theirs)} in the reference), {fewer} with fewer "
                          "calls: the default mode should count each DB op once")
        print(f"exact/{case}: {fewer} of {len(ours)} names with fewer calls than the reference (one node per op)")


def main():
    ou.require_shared()
    errors = []
    for line, (oracle, flags) in LINES.items():
        for case, (base, comparison, extra) in CASES.items():
            if line == "exact" and case in EXACT_SKIPS:
                continue
            errors += ou.check_sheets_case(f"{line}/{case}", os.path.join(oracle, case), flags, base, comparison,
                                           extra, SHEETS, LAYOUT, "API")
    check_db_default(errors)
    ou.finish(errors)


if __name__ == "__main__":
    main()
