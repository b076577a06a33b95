"""`profdiff cluster` against the reference's cluster outputs (../shared/oracle-cluster).

- cluster_step_trace_time.csv under --reference-compat (26.1 and =8.2) equals the reference's file byte
  for byte on every text cluster of the corpus (2025 levels 0-2, the GPT-3 2-rank sample with its rank
  folders renamed *_ascend_pt as the oracle case did);
- the default mode writes the exact values: each cell is the reference's value rounded to the ns;
- the collectives matched across ranks name the same rank as the step analysis (level1: skew 5.607716 ms);
- a DB cluster's ranks, measured on their timelines (the overall analysis's step split), give the
  Computing, Communication(Not Overlapped) and Free of the reference's ClusterStepTraceTime table
  (cluster_analysis.db, both lines) exactly;
- the JSON result names the ranks, what a partial rank lacks and the rank that holds the step back;
- a Kineto run (hta_trace_filter: ranks 0-1 of 128) has its missing ranks named, its NCCL kernels
  matched across ranks and the same rank named by both analyses;
- a synthetic 4-rank run of partial ranks whose ranks 2-3 compute 170 ms more (rank 3 1 µs more than
  rank 2) names rank 3, the cause "computing" and ranks 0-1 as the waiters;
- outputs are never overwritten without --force and never written inside the run.
Exits 77 (skip) when ../shared is absent.
"""
import csv
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from oracle_util import Checks, exact_ns, CLUSTER_TEXT_RUNS, CORPUS, GPT3, gpt3_as_ascend_pt, ORACLE_CLUSTER, run_profdiff, SHARED, SKIP  # noqa: E402

DB_CLUSTERS = ["msinsight_pt_db_2025_level0", "msinsight_pt_db_2025_level1", "msinsight_pt_db_2025_level2"]
check = Checks()


def run_cluster(run, out, *extra):
    rc, so, se = run_profdiff(["cluster", "-d", run, "-o", out, "-q"] + list(extra))
    return rc, so, se


def read(path, mode="rb"):
    with open(path, mode) as f:
        return f.read()


def check_case(name, run, tmp):
    for line, flag, suffix in (("26.1", "--reference-compat", ""), ("8.2", "--reference-compat=8.2", "__r82")):
        oracle = os.path.join(ORACLE_CLUSTER, f"{name}__all{suffix}", "cluster_step_trace_time.csv")
        out = os.path.join(tmp, f"{name}_{line}")
        rc, so, se = run_cluster(run, out, flag)
        check(rc == 0, f"{name} {line}: exit {rc}: {se}")
        got = os.path.join(out, "cluster_analysis_output", "cluster_step_trace_time.csv")
        if rc == 0:
            check(read(got) == read(oracle), f"{name} {line}: cluster_step_trace_time.csv differs from {oracle}")
    out = os.path.join(tmp, f"{name}_exact")
    rc, so, se = run_cluster(run, out)
    check(rc == 0, f"{name} exact: exit {rc}: {se}")
    if rc != 0:
        return None
    with open(os.path.join(out, "cluster_analysis_output", "cluster_step_trace_time.csv"), newline="") as f:
        got = list(csv.reader(f))
    with open(os.path.join(ORACLE_CLUSTER, f"{name}__all", "cluster_step_trace_time.csv"), newline="") as f:
        want = list(csv.reader(f))
    check(got[0] == want[0] and len(got) == len(want), f"{name} exact: header or row count differs")
    for g, w in zip(got[1:], want[1:]):
        check(g[:3] == w[:3], f"{name} exact: row keys {g[:3]} != {w[:3]}")
        for gv, wv in zip(g[3:], w[3:]):
            check(exact_ns(gv) == exact_ns(wv), f"{name} exact: {gv} is not {wv} rounded to the ns")
    check("holds the step back" in so, f"{name}: the screen names no slow rank:\n{so}")
    return json.loads(read(os.path.join(out, "profdiff_cluster.json"), "r"))


def check_db_case(name, tmp):
    out = os.path.join(tmp, name)
    rc, so, se = run_cluster(os.path.join(CORPUS, name), out)
    check(rc == 0, f"{name}: exit {rc}: {se}")
    if rc != 0:
        return
    with open(os.path.join(out, "cluster_analysis_output", "cluster_step_trace_time.csv"), newline="") as f:
        got = list(csv.DictReader(f))
    cols = {"Computing": "computing", "Communication(Not Overlapped)": "communication_not_overlapped", "Free": "free"}
    for suffix in ("", "__r82"):
        path = os.path.join(ORACLE_CLUSTER, f"{name}__all{suffix}", "cluster_analysis.db__ClusterStepTraceTime.csv")
        with open(path, newline="") as f:
            want = [r for r in csv.DictReader(f) if r["type"] == "rank"]
        check(len(got) == len(want) and len(want) > 0, f"{name}{suffix}: {len(got)} rows, oracle {len(want)}")
        for g, w in zip(got, want):
            check((g["Step"], g["Index"]) == (w["step"], w["index"]), f"{name}{suffix}: row {g} vs {w}")
            for ours, theirs in cols.items():
                check(exact_ns(g[ours]) == exact_ns(w[theirs]),
                      f"{name}{suffix} rank {g['Index']} {ours}: {g[ours]} != oracle {w[theirs]}")


def check_kineto_run(tmp):
    """hta_trace_filter: ranks 0 and 1 of a 128-rank Kineto run (distributedInfo)."""
    out = os.path.join(tmp, "kineto")
    rc, so, se = run_cluster(os.path.join(CORPUS, "hta_trace_filter"), out, "--format", "json")
    check(rc == 0, f"kineto: exit {rc}: {se}")
    if rc != 0:
        return
    j = json.loads(so)
    check(j["run"]["world_size"] == 128 and j["run"]["missing_ranks"] == list(range(2, 128)), "kineto: world size")
    check(all(r["export"] == "kineto" and r["step_source"] == "timeline" for r in j["ranks"]), "kineto: ranks")
    c = j["collectives"]
    check(c["matched"] == 10 and not any(i["names_differ"] for i in c["items"]) and not c["notes"],
          f"kineto: collectives {c['matched']}, notes {c['notes']}")
    check([s["rank"] for s in j["slow_ranks"]] == [1, 1] and c["late_ranks"][0]["rank"] == 1,
          f"kineto: slow {j['slow_ranks']}, late {c['late_ranks']}")


def synthetic_straggler(tmp):
    """4 partial ranks from GPT-3 rank 0's side files; ranks 2-3 compute 170 ms more, 0-1 wait 170 ms more."""
    run = os.path.join(tmp, "straggler_run")
    src = os.path.join(CORPUS, GPT3, "test_rank_0", "ASCEND_PROFILER_OUTPUT")
    with open(os.path.join(src, "step_trace_time.csv"), newline="") as f:
        rows = list(csv.reader(f))
    head = rows[0]
    ci, ni = head.index("Computing"), head.index("Communication(Not Overlapped)")
    for rank in range(4):
        out = os.path.join(run, f"node_{rank}_ascend_pt", "ASCEND_PROFILER_OUTPUT")
        os.makedirs(out)
        shutil.copy(os.path.join(CORPUS, GPT3, "test_rank_0", "profiler_info_0.json"),
                    os.path.join(run, f"node_{rank}_ascend_pt", f"profiler_info_{rank}.json"))
        shutil.copy(os.path.join(src, "kernel_details.csv"), out)
        body = [list(r) for r in rows[1:]]
        for r in body:
            col = ci if rank >= 2 else ni
            r[col] = repr(float(r[col]) + 170000.0 + rank)
        with open(os.path.join(out, "step_trace_time.csv"), "w", newline="") as f:
            csv.writer(f).writerows([head] + body)
    out = os.path.join(tmp, "straggler_out")
    rc, so, se = run_cluster(run, out, "--format", "json")
    check(rc == 0, f"straggler: exit {rc}: {se}")
    if rc != 0:
        return
    j = json.loads(so)
    slow = j["slow_ranks"]
    check(len(slow) == 1 and slow[0]["rank"] == 3 and slow[0]["cause"] == "computing",
          f"straggler: expected rank 3 (computing), got {slow}")
    # Rank 2 computes as long (1 µs less) and does not wait: only ranks 0 and 1 wait for rank 3.
    check(slow and sorted(w["rank"] for w in slow[0]["waiters"]) == [0, 1], f"straggler: waiters {slow}")
    check(all("trace_view.json" in r["missing"] and "communication.json" in r["missing"] for r in j["ranks"]),
          "straggler: each partial rank names what it lacks")


def check_safety(tmp):
    run = os.path.join(CORPUS, CLUSTER_TEXT_RUNS[1])
    out = os.path.join(tmp, "safety")
    rc, _, se = run_cluster(run, out)
    check(rc == 0, f"safety: first run exit {rc}: {se}")
    before = read(os.path.join(out, "cluster_analysis_output", "cluster_step_trace_time.csv"))
    rc, _, se = run_cluster(run, out, "--reference-compat")
    check(rc == 2 and ("--force" in se or "exists" in se), f"safety: no --force must refuse (exit {rc}): {se}")
    check(read(os.path.join(out, "cluster_analysis_output", "cluster_step_trace_time.csv")) == before,
          "safety: the refused run changed the output")
    rc, _, se = run_cluster(run, out, "--reference-compat", "--force")
    check(rc == 0, f"safety: --force must replace (exit {rc}): {se}")
    copy = os.path.join(tmp, "copy_run")
    shutil.copytree(run, copy, symlinks=True)
    rc, _, se = run_cluster(copy, os.path.join(copy, "rank0_ascend_pt"))
    check(rc == 2, f"safety: an output inside the run must be refused (exit {rc}): {se}")
    rc, _, se = run_profdiff(["cluster", "-d", run, "-o", out, "--force", "--rank_list", "0,7"])
    check(rc == 3 and "no rank 7" in se, f"safety: --rank_list naming a missing rank (exit {rc}): {se}")
    rc, _, se = run_profdiff(["cluster", "-d", run, "-o", out, "--force", "--step_id", "49"])
    check(rc == 3 and "--step_id 49" in se, f"--step_id of no rank (exit {rc}): {se}")


def main():
    if not os.path.isdir(ORACLE_CLUSTER) or not os.path.isdir(CORPUS):
        print(f"SKIP: {SHARED} (corpus and oracle-cluster) is absent; the cluster parity test needs it")
        sys.exit(SKIP)
    tmp = tempfile.mkdtemp(prefix="profdiff_cluster_")
    try:
        for name in CLUSTER_TEXT_RUNS:
            j = check_case(name, os.path.join(CORPUS, name), tmp)
            if j:
                check(j["schema"] == "profdiff.cluster/1" and j["run"]["ranks_found"] == [0, 1], f"{name}: json run")
                check(all(r["step_source"] == "step_trace_time.csv" for r in j["ranks"]), f"{name}: step source")
                check([s["step"] for s in j["slow_ranks"]] == ["50"], f"{name}: slow_ranks {j['slow_ranks']}")
                # Two independent answers agree: the rank that holds the step back by its own work is
                # the one that arrives last, by time, at the step's four allreduces.
                late = j["collectives"]["late_ranks"]
                check(j["collectives"]["matched"] == 4 and late and late[0]["rank"] == j["slow_ranks"][0]["rank"],
                      f"{name}: collectives {j['collectives']['matched']}, late {late}, slow {j['slow_ranks']}")
                if name.endswith("level1"):
                    # trace_view.json: rank 0 starts hcom_allReduce__586_0_1 at 1736408883732241.564 µs,
                    # rank 1 at 1736408883737849.280 µs.
                    check(late and late[0]["skew_ns"] == 5607716, f"{name}: skew {late}")
        j = check_case(GPT3 + "_as_ascend_pt", gpt3_as_ascend_pt(tmp), tmp)
        if j:
            check(all(r["export"] == "partial" and "trace_view.json" in r["missing"] for r in j["ranks"]),
                  f"gpt3: partial ranks name trace_view.json as missing: {[r['missing'] for r in j['ranks']]}")
        for name in DB_CLUSTERS:
            check_db_case(name, tmp)
        check_kineto_run(tmp)
        synthetic_straggler(tmp)
        check_safety(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    check.finish()


if __name__ == "__main__":
    main()
