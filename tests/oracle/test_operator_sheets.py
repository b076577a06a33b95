"""Parity of the operator and module sheets with the reference (--reference-compat).

For each oracle case, profdiff writes a workbook with --enable_operator_compare --reference-compat
(plus the case's options); the sheets are read back with openpyxl and compared with the reference's
CSV dump (../shared/oracle/<case>/csv/<Sheet>.csv): the same sheet set, row count, the same
operator/module names in the same order, durations within 0.001 and ratios within 0.0001.
Exits 77 (skip) when ../shared is absent.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import oracle_util as ou  # noqa: E402

TEXT = "msinsight_pt_text_2025_level1"
R0 = os.path.join(TEXT, "rank0_ascend_pt")
R1 = os.path.join(TEXT, "rank1_ascend_pt")
GPU = "kineto_resnet50_v100_2021jun_devprops/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz"

# case: (base, comparison, options as in ../shared/oracle/MANIFEST.tsv). The enabled comparisons
# matter: with the overall or communication comparison enabled the reference also attaches HCCL ops
# as kernels (reference §4.3 step 3), so cases run with "all compares" are run here without an
# --enable_* flag too.
CASES = {
    "npu_text_r0_r1": (R0, R1, []),
    "o_disable_module": (R0, R1, ["--disable_module"]),
    "o_maxk": (R0, R1, ["--disable_module", "--max_kernel_num=10", "--enable_operator_compare"]),
    "o_use_shape": (R0, R1, ["--disable_module", "--use_input_shape", "--enable_operator_compare"]),
    "o_disable_details": (R0, R1, ["--disable_details"]),
    "gpu_vs_npu": (GPU, R0, []),
}

SHEETS = ["ModuleCompareStatistic", "ModuleCompare", "OperatorCompareStatistic", "OperatorCompare"]

# Per sheet: (name columns, duration columns, ratio columns), 0-based.
COLUMNS = {
    "OperatorCompare": ([1, 6], [5, 10, 11], [12]),
    "OperatorCompareStatistic": ([1], [2, 3, 4, 5, 6], [7]),
    "ModuleCompare": ([1, 2, 3, 4, 8], [6, 7, 10, 11, 12, 13], [14]),
    "ModuleCompareStatistic": ([1, 2, 3, 4], [6, 7, 8, 10, 11, 12, 13, 14], [15]),
}

DUR_TOL = 0.001
RATIO_TOL = 0.0001


def check_case(case, base, comparison, extra):
    errors = []
    out = os.path.join(ou.tmpdir(), "result.xlsx")
    args = ["compare", "-bp", os.path.join(ou.CORPUS, base), "-d", os.path.join(ou.CORPUS, comparison),
            "--reference-compat", "-o", out, "-q"] + extra
    rc, stdout, stderr = ou.run_profdiff(args)
    if rc != 0:
        return [f"{case}: profdiff exited {rc}: {stderr.strip()[:500]}"]
    wb = ou.read_xlsx(out)
    for sheet in SHEETS:
        theirs = ou.read_oracle_csv(case, sheet)
        have = sheet in wb
        if theirs is None:
            if have:
                errors.append(f"{case}/{sheet}: profdiff wrote the sheet, the reference did not")
            continue
        if not have:
            errors.append(f"{case}/{sheet}: missing (the reference wrote {len(theirs)} rows)")
            continue
        ours = ou.sheet_values(wb[sheet])
        if len(ours) != len(theirs):
            errors.append(f"{case}/{sheet}: {len(ours)} rows, reference {len(theirs)}")
        if ours and theirs and [str(c) for c in ours[2]] != theirs[2]:
            errors.append(f"{case}/{sheet}: header {ours[2]} != {theirs[2]}")
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
                            errors.append(f"{case}/{sheet} row {i + 1} col {c + 1} "
                                          f"({theirs[2][c]}): ours {ov!r} reference {tv!r}")
        if bad > 8:
            errors.append(f"{case}/{sheet}: {bad} mismatching cells in all")
        print(f"{case}/{sheet}: {len(ours)} rows (reference {len(theirs)}), {bad} mismatching cells")
    return errors


def main():
    ou.require_shared()
    errors = []
    for case, (base, comparison, extra) in CASES.items():
        if not os.path.isdir(os.path.join(ou.ORACLE, case)):
            errors.append(f"{case}: oracle case missing")
            continue
        errors += check_case(case, base, comparison, extra)
    for e in errors:
        print("FAIL:", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
