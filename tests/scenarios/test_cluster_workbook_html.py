"""`profdiff cluster` on the bundled run (tests/data/kineto_2rank_nccl: ranks 0 and 1 of a 128-rank NCCL
job) writes profdiff_cluster.xlsx and profdiff_cluster.html beside its JSON, lists them in `outputs`, and
they say what the JSON and cluster_step_trace_time.csv say: the workbook (read with zipfile and XML, no
openpyxl) has the sheets and headers of docs/json-schema.md, its ClusterStepTraceTime sheet holds the CSV's
rows, SlowRanks names rank 1 (computing) for both steps, LateRanks and WaitMatrix say rank 0 waits 381.329
ms on rank 1; the page has its sections and draws the JSON's numbers. A second run elsewhere writes the
same bytes; a third without --force is refused and changes nothing. Needs only the repository.
"""
import csv
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "common"))
from py_checks import grid_rows, read_xlsx_grid  # noqa: E402
from scenario_util import Checks, SRC, run  # noqa: E402

RUN = "tests/data/kineto_2rank_nccl"  # relative: the outputs name the run as given
SHEETS = ["ClusterStepTraceTime", "SlowRanks", "CollectiveSkew", "CollectiveArrivals", "LateRanks", "WaitMatrix"]
check = Checks()


def cluster(out, *extra):
    p = run(["cluster", "-d", RUN, "-o", out, "--format", "json", "-q", *extra])
    return p.returncode, (json.loads(p.stdout) if p.returncode == 0 else None), p.stderr


def page_data(page):
    m = re.search(r'<script type="application/json" id="profdiff-data">(.*?)</script>', page, re.S)
    return json.loads(m.group(1)) if m else {}


def check_workbook(out, j):
    book = read_xlsx_grid(os.path.join(out, "profdiff_cluster.xlsx"))
    check(list(book) == SHEETS, f"sheets: {list(book)}")
    steps = grid_rows(book.get("ClusterStepTraceTime", {}))
    check(steps and steps[0][0] == f"Cluster Profiling: {RUN}", f"banner: {steps[:1]}")
    with open(os.path.join(out, "cluster_analysis_output", "cluster_step_trace_time.csv"), newline="") as f:
        table = list(csv.reader(f))
    check(steps[2:3] == table[:1], f"the CSV's header: {steps[2:3]} vs {table[:1]}")
    as_cells = [[float(v) if re.fullmatch(r"-?[0-9.]+", v) else v for v in row] for row in table[1:]]
    check(steps[3:] == as_cells, f"the CSV's rows: {steps[3:]} vs {as_cells}")
    slow = grid_rows(book.get("SlowRanks", {}), 3)
    head = slow[0] if slow else []
    check(head[:4] == ["Step", "Ranks", "Slow Rank", "Cause"], f"SlowRanks header: {head}")
    for row, s in zip(slow[1:], j["slow_ranks"]):
        got = dict(zip(head, row))
        check(got["Step"] == float(s["step"]) and got["Slow Rank"] == 1 and got["Cause"] == "computing"
              and got["Lead(us)"] == (s["work_ns"] - s["median_work_ns"]) / 1000, f"SlowRanks row {got} vs {s}")
    check(len(slow) == 3, f"SlowRanks: {len(slow)} rows")
    late = grid_rows(book.get("LateRanks", {}), 3)
    check(late[:1] and late[0][:4] == ["Rank", "Times Last", "Total Skew When Last(us)", "Cause Before Arrival"]
          and late[1][:4] == [1, 8, 381329, "idle"], f"LateRanks: {late}")
    matrix = grid_rows(book.get("WaitMatrix", {}), 3)
    check(matrix[:1] == [["Waiter Rank", "Waits On Rank 0(us)", "Waits On Rank 1(us)", "Total Wait(us)", "Collectives"]]
          and matrix[1][:3] == [0, None, 381329], f"WaitMatrix: {matrix}")
    skew = grid_rows(book.get("CollectiveSkew", {}), 4)
    check(len(skew) == 10 and [r[7] for r in skew] == [c["skew_ns"] / 1000 for c in j["collectives"]["items"]],
          f"CollectiveSkew: {skew}")
    check(len(grid_rows(book.get("CollectiveArrivals", {}), 4)) == 20, "CollectiveArrivals: 10 collectives x 2 ranks")


def check_page(out, j):
    with open(os.path.join(out, "profdiff_cluster.html"), encoding="utf-8") as f:
        page = f.read()
    for section in ("summary", "rank-time", "slow-ranks", "collectives", "wait-matrix"):
        check(f'<section id="{section}">' in page, f"the page has no {section} section")
    check('id="run-compare"' not in page, "one run: no run-compare section")
    check("<b>rank 1</b> arrives last at 8 of 10 collectives, 381.329 ms late in all" in page, "the headline")
    data = page_data(page)
    check(data.get("schema") == "profdiff.cluster/1", f"page data: {str(data)[:200]}")
    for bar, rank in zip(data.get("rank_bars", []), j["ranks"]):
        steps = [s["values_ns"] for s in rank["steps"]]
        mean = sum(v["Computing"] for v in steps) // len(steps)
        check(bar["rank"] == rank["rank"] and bar["computing_ns"] == mean, f"rank bar {bar} vs mean {mean}")
    check(len(data.get("collective_skew", [])) == 10 and data.get("waits_on") == j["collectives"]["waits_on"],
          "the page draws the JSON's collectives and waits")
    check(page.count('<rect class="col"') == 10 and page.count('<rect class="hm"') == 4, "skew columns, 2x2 heat map")
    check("http://" not in page and "https://" not in page, "the page loads nothing")


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def main():
    os.chdir(SRC)
    tmp = tempfile.mkdtemp(prefix="profdiff_cluster_outputs_")
    try:
        a, b = os.path.join(tmp, "a"), os.path.join(tmp, "deeper", "b")
        rc, j, err = cluster(a)
        check(rc == 0, f"exit {rc}: {err}")
        if rc != 0:
            check.finish()
        names = sorted(os.path.basename(p) for p in j["outputs"])
        check(names == ["cluster_step_trace_time.csv", "profdiff_cluster.html", "profdiff_cluster.json",
                        "profdiff_cluster.xlsx"], f"outputs: {j['outputs']}")
        check_workbook(a, j)
        check_page(a, j)
        rc, _, err = cluster(b)
        for name in ("profdiff_cluster.xlsx", "profdiff_cluster.html"):
            check(rc == 0 and digest(os.path.join(a, name)) == digest(os.path.join(b, name)),
                  f"{name}: not the same bytes in a second run ({err})")
        before = digest(os.path.join(a, "profdiff_cluster.xlsx"))
        rc, _, err = cluster(a)
        check(rc == 2 and "--force" in err and digest(os.path.join(a, "profdiff_cluster.xlsx")) == before,
              f"without --force: exit {rc}: {err}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    check.finish()


if __name__ == "__main__":
    main()
