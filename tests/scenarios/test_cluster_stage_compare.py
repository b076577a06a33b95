"""Two runs with pipeline stages compared stage by stage (`profdiff cluster -d RUN -bp BASE`): the 4-rank
run of tests/data/cluster_stage_synth (stages (0, 1) and (2, 3)) against a copy in which rank 2 computes
10 ms more: stage 1 grows by it (its Computing and Stage, each the largest of its ranks), stage 0 does
not; the JSON, the screen line, the workbook's StageCompare (the diff red) and the page say so. A
comparison without pipeline groups: no stage compared, and a note says why. Needs no ../shared data.
"""
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "common"))
from py_checks import grid_rows, read_xlsx_grid  # noqa: E402
from scenario_util import BIN, Checks, SRC  # noqa: E402

DATA = os.path.join(SRC, "tests", "data", "cluster_stage_synth")
check = Checks()


def run(args):
    p = subprocess.run([BIN] + args, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def add_computing(run_dir, rank, us):
    """Rank `rank`'s step computes `us` µs more: its Computing and its Stage (its step's span) grow."""
    path = os.path.join(run_dir, f"rank{rank}_ascend_pt", "ASCEND_PROFILER_OUTPUT", "step_trace_time.csv")
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    head = rows[0]
    for col in ("Computing", "Stage"):
        i = head.index(col)
        rows[1][i] = repr(float(rows[1][i]) + us)
    with open(path, "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)


def check_stage_growth(tmp, base, slow):
    out = os.path.join(tmp, "out")
    rc, so, se = run(["cluster", "-d", slow, "-bp", base, "-o", out, "--format", "json"])
    check(rc == 0, f"exit {rc}: {se}")
    stages = json.loads(so)["run_comparison"]["stages"] if rc == 0 else {}
    items = stages.get("items", [])
    check(stages.get("base_stages") == 2 and stages.get("comparison_stages") == 2 and len(items) == 2
          and stages.get("not_compared_because") is None, f"two stages compared: {stages}")
    check([(i["base_ranks"], i["comparison_ranks"], i["steps"]) for i in items] == [([0, 1], [0, 1], 1), ([2, 3], [2, 3], 1)],
          f"the stages' ranks and steps: {items}")
    delta = [{v["column"]: v["delta_ns"] for v in i["values"]} for i in items]
    check(len(delta) == 2 and set(delta[0].values()) == {0}, f"stage 0 unchanged: {delta}")
    # Stage (2, 3)'s Computing was rank 3's 130.25 µs, now rank 2's 10120.25; its Stage 133 -> 10132.
    check(len(delta) == 2 and delta[1].get("Computing") == 9_990_000 and delta[1].get("Stage") == 9_999_000
          and delta[1].get("Free") == 0 and "Bubble" in delta[1], f"stage 1 grew: {delta}")
    rc, so, _ = run(["cluster", "-d", slow, "-bp", base, "-o", out, "--force"])
    check(rc == 0 and "  stages: stage 1 (ranks 2, 3) grew most: Computing +9.990 ms, Stage +9.999 ms\n" in so,
          f"the screen's stage line: {so}")
    sheet = read_xlsx_grid(os.path.join(out, "profdiff_cluster.xlsx")).get("StageCompare", {})
    table = grid_rows(sheet, 3)
    head = table[0] if table else []
    col = head.index("Diff Stage(us)") + 1 if "Diff Stage(us)" in head else 0
    check(len(table) == 3 and sheet.get((5, col)) == (9999, "FF0000") and sheet.get((4, col), (None,))[0] == 0,
          f"StageCompare: {table}")
    with open(os.path.join(out, "profdiff_cluster.html"), encoding="utf-8") as f:
        page = f.read()
    check('<section id="run-detail">' in page and "<h3>Pipeline stages</h3>" in page
          and "Computing +9.990 ms" in page, "the page's stage changes")


def check_no_stages(tmp, base):
    """A comparison whose p2p groups are not pipeline-parallel: no stage rows, nothing compared, a note."""
    flat = os.path.join(tmp, "flat")
    shutil.copytree(base, flat)
    for rank in range(4):
        path = os.path.join(flat, f"rank{rank}_ascend_pt", "profiler_metadata.json")
        with open(path) as f:
            meta = json.load(f)
        for g in meta["parallel_group_info"].values():
            if g["group_name"] == "pp":
                g["group_name"] = "tp"
        with open(path, "w") as f:
            json.dump(meta, f)
    rc, so, se = run(["cluster", "-d", flat, "-bp", base, "-o", os.path.join(tmp, "out_flat"), "--format", "json"])
    cmp = json.loads(so)["run_comparison"] if rc == 0 else {}
    why = cmp.get("stages", {}).get("not_compared_because") or ""
    check(rc == 0 and cmp["stages"]["items"] == [] and why.startswith("the comparison run has no pipeline stages")
          and "the base has 2" in why and why in cmp.get("notes", []) and why in se, f"no stages: {why!r}: {se}")


def main():
    if not BIN or not os.path.exists(BIN):
        sys.exit(f"PROFDIFF_BIN is not set or does not exist: {BIN!r}")
    tmp = tempfile.mkdtemp(prefix="profdiff_stage_compare_")
    try:
        base, slow = os.path.join(tmp, "base"), os.path.join(tmp, "slow")
        subprocess.run([sys.executable, os.path.join(DATA, "make_run.py"), base], check=True)
        shutil.copytree(base, slow)
        add_computing(slow, 2, 10000.0)
        check_stage_growth(tmp, base, slow)
        check_no_stages(tmp, base)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    check.finish()


if __name__ == "__main__":
    main()
