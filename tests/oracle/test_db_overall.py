"""Parity of the overall comparison on the Ascend DB export (issue #9) with both reference lines.

For the DB oracle cases (npu_db_r0_r1, npu_db_step50: msinsight_pt_db_2025_level1 rank0 vs rank1,
../shared/oracle and ../shared/oracle-26.1), runs `profdiff compare --enable_profiling_compare` with
each line's flag, reads the OverallMetrics sheet of the workbook back with openpyxl and checks it row
by row against the reference's CSV: the same labels in the same order, durations within 0.001 ms,
ratios within 0.001 ms / E2E, the same counts. The screen table on stdout must show the same cells as
the reference's stdout.txt.

On the 8.2 line the reference measured a communication group's Wait and Transmit against other
not-overlapped intervals than its Uncovered Communication Time (85.228 ms beside 98.072 ms: it merged
the compute intervals in place, policy field db_compute_runs_take_busy_ends; 26.1 merges copies).
The group rows of GROUP_ROWS are checked exactly on both lines: the durations as the reference's
floats (85.22849000000001, not just within 0.001 ms).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import oracle_util as u  # noqa: E402

DB_R0 = "corpus/msinsight_pt_db_2025_level1/rank0_ascend_pt"
DB_R1 = "corpus/msinsight_pt_db_2025_level1/rank1_ascend_pt"
CASES = {
    "npu_db_r0_r1": [],
    "npu_db_step50": ["--base_step=50", "--comparison_step=50"],
}
TOL_MS = 0.001
# The communication group's rows (the 8.2 quirk), checked exactly.
GROUP_ROWS = {"Wait", "Transmit", "90.91.105.46%enp189s0f0_60000_0_1736410538306028"}


def parse_table(text):
    lines = [l for l in text.splitlines() if l.startswith("|")]
    split = lambda l: [c.strip() for c in l.strip()[1:-1].split("|")]  # noqa: E731
    return [split(l) for l in lines[1:]] if len(lines) >= 2 else []


def check_row(where, ours, theirs, e2e, failures):
    label = str(theirs[0]).strip()
    if str(ours[0]).strip() != label:
        failures.append(f"{where}: label {ours[0]!r} != {theirs[0]!r}")
        return
    for col, (a, b) in enumerate(zip(ours[1:], theirs[1:]), start=1):
        tol = TOL_MS
        if col in (2, 5):  # duration ratios
            tol = TOL_MS / (e2e[0] if col == 2 else e2e[1])
        if col in (7, 8):  # diff (2 decimals) and diff ratio (4 decimals), rounded by the reference
            tol = 0.01 if col == 7 else 0.0001
        if not u.cells_match(a, b, tol + 1e-12):
            failures.append(f"{where}: row {label!r} column {col}: ours {a!r}, the reference's {b!r}")


def check_case(line, case, extra, failures):
    oracle, flag = u.LINES[line]
    theirs = u.read_oracle_csv(case, "OverallMetrics", oracle)
    if theirs is None:
        return False
    out_dir = u.tmpdir()
    xlsx = os.path.join(out_dir, "db.xlsx")
    rc, out, err = u.run_profdiff(["compare", "-bp", DB_R0, "-d", DB_R1, "-o", xlsx, flag,
                                   "--enable_profiling_compare"] + extra, cwd=u.SHARED)
    if rc != 0:
        failures.append(f"{line}/{case}: exit {rc}: {err.strip()}")
        return True
    ours = u.sheet_values(u.read_xlsx(xlsx)["OverallMetrics"])
    data_ours, data_theirs = ours[3:], theirs[3:]
    if [r[0] for r in data_ours] != [r[0] for r in data_theirs]:
        failures.append(f"{line}/{case}: row labels differ:\n  ours {[r[0] for r in data_ours]}\n"
                        f"  want {[r[0] for r in data_theirs]}")
        return True
    e2e = (float(data_theirs[-1][1]), float(data_theirs[-1][4]))
    for a, b in zip(data_ours, data_theirs):
        where = f"{line}/{case}"
        if b[0].strip() in GROUP_ROWS:
            for col in (1, 4):  # the durations, as the reference's floats
                if repr(float(a[col])) != str(b[col]).strip():
                    failures.append(f"{where}: row {b[0].strip()!r} column {col}: ours {a[col]!r}, "
                                    f"the reference's {b[col]!r} (exactly)")
        check_row(where, a, b, e2e, failures)
    with open(os.path.join(oracle, case, "stdout.txt"), encoding="utf-8") as f:
        want_screen = parse_table(f.read())
    if parse_table(out) != want_screen:
        failures.append(f"{line}/{case}: screen differs:\n{out}")
    return True


def main():
    u.require_shared()
    failures = []
    checked = 0
    for line in u.LINES:
        for case, extra in CASES.items():
            if check_case(line, case, extra, failures):
                checked += 1
                print(f"{line}/{case}: checked")
    if checked < 4:
        failures.append(f"only {checked} (line, case) runs found in the oracles; expected 4")
    u.finish(failures, f"OK: DB OverallMetrics and screen match the reference on {checked} runs")


if __name__ == "__main__":
    main()
