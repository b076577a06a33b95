"""A synthetic 8-rank Kineto run (bench/make_cluster.py from a corpus rank) and a synthetic 8-rank Ascend
run of DB exports (bench/make_ascend_cluster.py), each with one rank made slower before a collective:
`profdiff cluster` names that rank, the cause (computing) and every other rank as waiting for it; with
-bp (the same run without the straggler) the gate says REGRESSION (exit 1) with the straggler as the
reason, and PASS (exit 0) when the threshold allows the change. The Ascend pair's
cluster_time_compare_summary.csv says the same: the straggler computes 20 ms more, the others wait 20 ms
more.

Needs the corpus's hta_trace_filter and msinsight_pt_db_2025_level2 ranks (../shared); exits 77 (skip)
without them.
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
from scenario_util import BIN, Checks, SHARED, SKIP, SRC  # noqa: E402

SOURCE = os.path.join(SHARED, "corpus", "hta_trace_filter", "sampled_rank-0.json.gz")
ASCEND_SOURCE = os.path.join(SHARED, "corpus", "msinsight_pt_db_2025_level2", "rank0_ascend_pt")
check = Checks()


def run(args):
    p = subprocess.run([BIN] + args, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def make(out, *extra, ranks=8):
    subprocess.run([sys.executable, os.path.join(SRC, "bench", "make_cluster.py"), SOURCE, out, "--ranks", str(ranks)]
                   + list(extra), check=True)


def near(value, want, tolerance=1000):
    return isinstance(value, int) and abs(value - want) <= tolerance


def check_collective_growth(what, cmp, straggler):
    """-bp: the straggler's late arrival is the collectives' change: skew +20 ms at one collective
    (it arrives last there), the 7 others each wait 20 ms more, the transfer unchanged; no stages."""
    top = cmp.get("top_collectives") or [{}]
    t = top[0]
    d = t.get("delta", {})
    check(near(t.get("change_ns"), 20_000_000) and near(d.get("skew_ns"), 20_000_000) and near(d.get("transfer_ns"), 0)
          and near(d.get("wait_ns"), 140_000_000, 7000) and t.get("comparison", {}).get("last_rank") == straggler
          and near(t.get("base", {}).get("skew_ns"), 0), f"{what}: top collective change: {t}")
    check(all(abs(x["change_ns"]) <= 1000 for x in top[1:]), f"{what}: only that collective changed: {top[1:]}")
    kinds = cmp.get("collectives", {}).get("kinds", [])
    grew = [k for k in kinds if k["delta"]["skew_ns"] > 1000]
    check(len(grew) == 1 and near(grew[0]["delta"]["skew_ns"], 20_000_000)
          and grew[0]["base"]["count"] == grew[0]["comparison"]["count"] and grew[0]["kind"] == t["base"].get("kind"),
          f"{what}: one group x kind's skew grew by 20 ms: {kinds}")
    stages = cmp.get("stages", {})
    check(stages.get("items") == [] and str(stages.get("not_compared_because")).startswith("neither run"),
          f"{what}: no stages: {stages}")
    check(cmp.get("rank_percentiles", {}).get("note") is None and cmp.get("notes") == [],
          f"{what}: the same ranks, no note: {cmp.get('notes')}")


def check_lead_in(what, late):
    """What preceded the straggler's late arrival: 20 ms more computing than the others, no more idle."""
    b = late[0].get("before_arrival", {}) if late else {}
    check(b.get("cause") == "computing" and abs(b.get("computing_excess_ns", 0) - 20_000_000) <= 100_000
          and abs(b.get("idle_excess_ns", 1 << 40)) <= 100_000 and b.get("top_kernels"),
          f"{what}: before its late arrival the straggler computed 20 ms more: {late[:1]}")


def check_ascend(tmp):
    slow, base = os.path.join(tmp, "ascend_slow"), os.path.join(tmp, "ascend_base")
    gen = [sys.executable, os.path.join(SRC, "bench", "make_ascend_cluster.py"), ASCEND_SOURCE]
    subprocess.run(gen + [slow, "--ranks", "8", "--straggler", "3", "--delay-ms", "20", "--collective", "1"], check=True)
    subprocess.run(gen + [base, "--ranks", "8"], check=True)
    out = os.path.join(tmp, "ascend_out")
    rc, so, se = run(["cluster", "-d", slow, "-bp", base, "-o", out, "--gate-e2e", "1", "--format", "json", "-q"])
    check(rc == 1, f"ascend: exit {rc} (REGRESSION is 1): {se}")
    j = json.loads(so)
    s = [x for x in j["slow_ranks"] if x["cause"] != "none"]
    check(len(s) == 1 and s[0]["rank"] == 3 and s[0]["cause"] == "computing", f"ascend straggler: {j['slow_ranks']}")
    check(s and sorted(w["rank"] for w in s[0]["waiters"]) == [0, 1, 2, 4, 5, 6, 7], f"ascend waiters: {s}")
    check_lead_in("ascend", j["collectives"]["late_ranks"])
    check(j["verdict"]["result"] == "regression" and j["run_comparison"]["straggler_reasons"]
          and "rank 3" in j["run_comparison"]["straggler_reasons"][0], f"ascend verdict: {j['run_comparison']}")
    check_collective_growth("ascend", j["run_comparison"], 3)
    kinds = j["run_comparison"]["collectives"]["kinds"]
    check(kinds and all(k["kind"] == "hcom_allReduce" for k in kinds), f"ascend: HCCL kinds without numbers: {kinds}")
    with open(os.path.join(out, "cluster_analysis_output", "cluster_time_compare_summary.csv")) as f:
        rows = list(csv.DictReader(f))
    check(len(rows) == 8, f"ascend: {len(rows)} compare rows")
    for r in rows:
        straggler = r["rank"] == "3"
        check(r["computationDiff"] == ("20000" if straggler else "0")
              and r["communicationWaitStageTimeDiff"] == ("0" if straggler else "20000"),
              f"ascend compare summary row {r['rank']}: {r['computationDiff']}, {r['communicationWaitStageTimeDiff']}")
    # The workbook's ClusterTimeCompareSummary sheet: the CSV's columns and numbers, the straggler's
    # computationDiff red (it grew), the others' zero not.
    sheet = read_xlsx_grid(os.path.join(out, "profdiff_cluster.xlsx")).get("ClusterTimeCompareSummary", {})
    table = grid_rows(sheet, 3)
    head = table[0] if table else []
    check(head == list(rows[0].keys()), f"ascend ClusterTimeCompareSummary header: {head}")
    col = head.index("computationDiff") + 1 if "computationDiff" in head else 0
    for r in range(4, 4 + len(rows)):
        rank = sheet.get((r, 1), (None,))[0]
        value, fill = sheet.get((r, col), (None, None))
        check((value, fill) == ((20000, "FF0000") if rank == 3 else (0, None)),
              f"ascend ClusterTimeCompareSummary rank {rank}: computationDiff {value}, fill {fill}")


def check_two_run_outputs(out):
    """The workbook and the page of the 8-rank Kineto pair (rank 5 the new straggler, 1 % gate)."""
    book = read_xlsx_grid(os.path.join(out, "profdiff_cluster.xlsx"))
    check(list(book)[6:] == ["RunCompare", "StepCompare", "RankCompare", "SlowRankChanges", "CollectiveCompare",
                             "TopCollectiveChanges", "RankPercentiles"], f"sheets: {list(book)}")
    kinds = book.get("CollectiveCompare", {})
    head = [kinds.get((3, c), (None,))[0] for c in range(1, 15)]
    skew = head.index("Diff Skew(us)") + 1 if "Diff Skew(us)" in head else 0
    value, fill = kinds.get((4, skew), (None, None))
    check(value is not None and abs(value - 20000) <= 1 and fill == "FF0000", f"CollectiveCompare skew: {value} {fill}")
    verdict = grid_rows(book.get("RunCompare", {}), 4)[-1:]
    check(verdict and verdict[0][0] == "Verdict" and verdict[0][6] == "REGRESSION" and "rank 5" in verdict[0][7],
          f"RunCompare verdict: {verdict}")
    ranks = book.get("RankCompare", {})
    head = [ranks.get((3, c), (None,))[0] for c in range(1, 15)]
    computing, communication = head.index("Diff Computing(us)") + 1, head.index("Diff Communication(Not Overlapped)(us)") + 1
    for r in range(4, 12):
        rank = ranks.get((r, 1), (None,))[0]
        grew = computing if rank == 5 else communication  # the straggler computes, the others wait
        value, fill = ranks.get((r, grew), (None, None))
        check(abs(value - 10000) <= 1 and fill == "FF0000", f"RankCompare rank {rank}: {value} {fill} (mean of 2 steps)")
    matrix = grid_rows(book.get("WaitMatrix", {}), 3)
    check(matrix and matrix[0][1] == "Waits On Rank 5(us)" and len(matrix) == 8, f"WaitMatrix: {matrix}")
    with open(os.path.join(out, "profdiff_cluster.html"), encoding="utf-8") as f:
        page = f.read()
    check('<section id="run-compare">' in page and "rank 5 (new slow rank)" in page
          and 'Verdict: <b class="verdict">regression</b>' in page, "the page: the verdict and the new slow rank")


def check_rank_counts(tmp, slow):
    """8 ranks (rank 5 the straggler) against a 4-rank base: ranks 0-3 by id, the whole runs by percentile."""
    base4 = os.path.join(tmp, "base4")
    make(base4, "--gzip", ranks=4)
    rc, so, se = run(["cluster", "-d", slow, "-bp", base4, "-o", os.path.join(tmp, "o7"), "--format", "json"])
    check(rc == 0, f"8 ranks against 4: exit {rc}: {se}")
    cmp = json.loads(so)["run_comparison"] if rc == 0 else {}
    p = cmp.get("rank_percentiles", {})
    note = p.get("note") or ""
    check("4 in the base, 8 in the comparison" in note and "matched by id only where both runs have them" in note
          and "the rank percentiles compare the whole runs" in note and note in cmp.get("notes", [])
          and "ranks are matched by id only" in se, f"the percentile note: {note!r}; stderr: {se}")
    check(p.get("base_ranks") == 4 and p.get("comparison_ranks") == 8 and len(p.get("rows", [])) == 16,
          f"percentile rows: {p}")
    check([r["rank"] for r in cmp.get("ranks", [])] == [0, 1, 2, 3] and cmp.get("comparison_only_ranks") == [4, 5, 6, 7],
          f"ranks by id: {cmp.get('ranks')}, {cmp.get('comparison_only_ranks')}")
    rows = {(r["metric"], r["stat"]): r for r in p.get("rows", [])}
    top = rows.get(("computing", "max"), {})
    # Rank 5 computes 20 ms more in one of the two steps: 10 ms more on average; the others wait for it.
    check(top.get("comparison_rank") == 5 and near(top.get("delta_ns"), 10_000_000)
          and near(rows.get(("computing", "p50"), {}).get("delta_ns"), 0)
          and near(rows.get(("communication", "p50"), {}).get("delta_ns"), 10_000_000)
          and near(rows.get(("step", "max"), {}).get("delta_ns"), 10_000_000), f"percentiles: {rows}")
    top_c = (cmp.get("top_collectives") or [{}])[0]
    check(top_c.get("base", {}).get("ranks") == 4 and top_c.get("comparison", {}).get("ranks") == 8
          and top_c.get("comparison", {}).get("last_rank") == 5, f"4 vs 8 ranks, the collective: {top_c}")
    rc, so, se = run(["cluster", "-d", slow, "-bp", base4, "-o", os.path.join(tmp, "o8")])
    check(rc == 0 and "  ranks by percentile (different ranks: 4 in the base, 8 in the comparison): step p50" in so,
          f"the screen's percentile line: {so}")


def main():
    if not os.path.exists(SOURCE) or not os.path.isdir(ASCEND_SOURCE):
        print(f"SKIP: {SOURCE} or {ASCEND_SOURCE} is absent (../shared)")
        sys.exit(SKIP)
    tmp = tempfile.mkdtemp(prefix="profdiff_straggler_")
    try:
        check_ascend(tmp)
        slow, base = os.path.join(tmp, "slow"), os.path.join(tmp, "base")
        make(slow, "--straggler", "5", "--delay-ms", "20", "--collective", "2", "--gzip")
        make(base, "--gzip")
        rc, so, se = run(["cluster", "-d", slow, "-o", os.path.join(tmp, "o1"), "--format", "json", "-q"])
        check(rc == 0, f"one run: exit {rc}: {se}")
        j = json.loads(so)
        s = [x for x in j["slow_ranks"] if x["cause"] != "none"]
        check(len(s) == 1 and s[0]["rank"] == 5 and s[0]["cause"] == "computing",
              f"the straggler: rank 5, computing: {j['slow_ranks']}")
        check(s and sorted(w["rank"] for w in s[0]["waiters"]) == [0, 1, 2, 3, 4, 6, 7],
              f"every other rank waits for it: {s}")
        check(s and all(abs(w["extra_wait_ns"] - 20_000_000) <= 1000 for w in s[0]["waiters"]),
              f"each waits the 20 ms: {s}")
        late = j["collectives"]["late_ranks"]
        check(late and late[0]["rank"] == 5, f"rank 5 arrives last at the collectives: {late}")
        check_lead_in("kineto", late)
        waits = j["collectives"]["waits_on"]
        check(sorted(w["waiter"] for w in waits) == [0, 1, 2, 3, 4, 6, 7] and all(w["blocker"] == 5 for w in waits),
              f"waiter -> blocker: every other rank waits on rank 5: {waits}")
        check(s and abs(s[0]["saving_if_median_ns"] - 20_000_000) <= 1000, f"the step would be 20 ms shorter: {s}")
        rc, so, se = run(["cluster", "-d", slow, "-bp", base, "-o", os.path.join(tmp, "o2"), "--gate-e2e", "1"])
        check(rc == 1, f"two runs, 1 % gate: exit {rc} (REGRESSION is 1): {se}")
        check("gate: REGRESSION" in so and "why: rank 5 is a new straggler" in so and "cause computing" in so,
              f"the verdict names the straggler: {so}")
        check_two_run_outputs(os.path.join(tmp, "o2"))
        rc, so, se = run(["cluster", "-d", slow, "-bp", base, "-o", os.path.join(tmp, "o3"), "--gate-e2e", "5",
                          "--format", "json"])
        check(rc == 0, f"two runs, 5 % gate: exit {rc}: {se}")
        j = json.loads(so)
        check(j["verdict"]["result"] == "pass" and j["run_comparison"]["slow_ranks"][0]["status"] == "new"
              and j["run_comparison"]["straggler_reasons"], f"pass, the straggler still named: {j['run_comparison']}")
        check_collective_growth("kineto", j["run_comparison"], 5)
        check_rank_counts(tmp, slow)
        # --drill-down worst: the straggler's own compare, its workbook beside the cluster outputs.
        out = os.path.join(tmp, "o4")
        rc, so, se = run(["cluster", "-d", slow, "-bp", base, "-o", out, "--drill-down", "worst", "--format", "json"])
        j = json.loads(so) if rc == 0 else {}
        d = j.get("drill_down") or {}
        check(rc == 0 and d.get("rank") == 5 and d.get("why") == "the new straggler"
              and os.path.exists(os.path.join(out, "drill_down_rank5.xlsx"))
              and abs(d["comparison_e2e_ns"] - d["base_e2e_ns"] - 20_000_000) <= 1000,
              f"--drill-down worst: exit {rc}, {d}: {se}")
        rc, _, se = run(["cluster", "-d", slow, "-bp", base, "-o", os.path.join(tmp, "o5"), "--drill-down", "9"])
        check(rc == 3 and "rank 9 is not in both runs" in se, f"--drill-down 9: exit {rc}: {se}")
        for bad in (["--drill-down", "worst"], ["-bp", base, "--drill-down", "x"]):
            rc, _, se = run(["cluster", "-d", slow, "-o", os.path.join(tmp, "o6")] + bad)
            check(rc == 2 and "--drill-down" in se, f"{bad}: a usage error (exit {rc}): {se}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    check.finish()


if __name__ == "__main__":
    main()
