"""`profdiff cluster` against the reference's ClusterTimeSummary and ClusterTimeCompareSummary
(../shared/oracle-cluster, its cluster_time_summary and cluster_time_compare_summary recipes).

- A DB run (2025 levels 1 and 2) writes cluster_analysis_output/cluster_time_summary.csv: under
  --reference-compat byte for byte the file the reference's `--export_type text` wrote (26.1), and its
  values those of the ClusterTimeSummary table both lines wrote (`--export_type db`); in the default
  mode each value is the reference's rounded to the ns, and profdiff_cluster.json's time_summary rows
  hold those ns.
- Level 0 (no communication groups) writes none, and says why, as the reference writes none.
- Two DB runs (-d level2 -bp level1) write cluster_time_compare_summary.csv: under --reference-compat
  the rows of the reference's ClusterTimeCompareSummary (both lines); by default each value rounded to
  the ns. With a level0 side (which the reference fails on) none is written.
- A run of text exports writes neither.
Exits 77 (skip) when ../shared is absent.
"""
import csv
import glob
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from oracle_util import Checks, exact_ns, CORPUS, ORACLE_CLUSTER, read_bytes, run_profdiff, SHARED, SKIP  # noqa: E402

OUT = "cluster_analysis_output"
check = Checks()


def rows(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


def same_rounded(got, want, what):
    check(len(got) == len(want), f"{what}: {len(got)} rows, oracle {len(want)}")
    for g, w in zip(got[1:], want[1:]):
        check(g[:2] == w[:2], f"{what}: row keys {g[:2]} != {w[:2]}")
        for gv, wv in zip(g[2:], w[2:]):
            check(exact_ns(gv) == exact_ns(wv), f"{what}: {gv} is not {wv} rounded to the ns")


def cluster(run, out, *extra):
    return run_profdiff(["cluster", "-d", run, "-o", out, "-q"] + list(extra))


def check_single(level, tmp):
    name = f"msinsight_pt_db_2025_level{level}"
    text = glob.glob(os.path.join(ORACLE_CLUSTER, f"{name}__cluster_time_summary__text", "ClusterTimeSummary", "*.csv"))
    for flags, suffix in ((["--reference-compat"], ""), (["--reference-compat=8.2"], "__r82"), ([], "")):
        out = os.path.join(tmp, f"{name}{suffix}_{len(flags)}")
        rc, _, se = cluster(os.path.join(CORPUS, name), out, *flags)
        check(rc == 0, f"{name} {flags}: exit {rc}: {se}")
        got_path = os.path.join(out, OUT, "cluster_time_summary.csv")
        if not os.path.exists(got_path):
            check(False, f"{name} {flags}: no cluster_time_summary.csv")
            continue
        table = os.path.join(ORACLE_CLUSTER, f"{name}__cluster_time_summary__db{suffix}",
                             "cluster_analysis.db__ClusterTimeSummary.csv")
        got, want = rows(got_path), rows(table)
        if flags:
            check(got[1:] == want[1:], f"{name} {flags}: rows differ from {table}")
            if not suffix and text:
                check(read_bytes(got_path) == read_bytes(text[0]), f"{name}: cluster_time_summary.csv differs from {text[0]}")
        else:
            same_rounded(got, want, f"{name} default")
            with open(os.path.join(out, "profdiff_cluster.json")) as f:
                j = json.load(f)["time_summary"]
            check([r["stepTime_ns"] for r in j["rows"]] == [int(exact_ns(w[2])) for w in want[1:]]
                  and j["not_written_because"] is None, f"{name}: profdiff_cluster.json time_summary {j}")


def check_compare(tmp):
    cur, base = (os.path.join(CORPUS, f"msinsight_pt_db_2025_level{lv}") for lv in (2, 1))
    case = "cmp__msinsight_pt_db_2025_level2__vs__msinsight_pt_db_2025_level1"
    for flags, suffix in ((["--reference-compat"], ""), (["--reference-compat=8.2"], "__r82"), ([], "")):
        out = os.path.join(tmp, f"cmp{suffix}_{len(flags)}")
        rc, _, se = cluster(cur, out, "-bp", base, *flags)
        check(rc == 0, f"compare {flags}: exit {rc}: {se}")
        got_path = os.path.join(out, OUT, "cluster_time_compare_summary.csv")
        if not os.path.exists(got_path):
            check(False, f"compare {flags}: no cluster_time_compare_summary.csv")
            continue
        want = rows(os.path.join(ORACLE_CLUSTER, case + suffix, "cluster_analysis.db__ClusterTimeCompareSummary.csv"))
        got = rows(got_path)
        if flags:
            check(got == want, f"compare {flags}: differs from the oracle's ClusterTimeCompareSummary{suffix}")
        else:
            check(got[0] == want[0], "compare default: header")
            same_rounded(got, want, "compare default")
    out = os.path.join(tmp, "cmp_level0")
    rc, _, se = cluster(os.path.join(CORPUS, "msinsight_pt_db_2025_level0"), out, "-bp", base)
    check(rc == 0 and not os.path.exists(os.path.join(out, OUT, "cluster_time_compare_summary.csv")),
          f"level0 vs level1: exit {rc}, or a compare summary written: {se}")


def main():
    if not os.path.isdir(ORACLE_CLUSTER) or not os.path.isdir(CORPUS):
        print(f"SKIP: {SHARED} (corpus and oracle-cluster) is absent; the cluster parity test needs it")
        sys.exit(SKIP)
    tmp = tempfile.mkdtemp(prefix="profdiff_cluster_time_")
    try:
        for level in (1, 2):
            check_single(level, tmp)
        out = os.path.join(tmp, "level0")
        rc, _, se = run_profdiff(["cluster", "-d", os.path.join(CORPUS, "msinsight_pt_db_2025_level0"), "-o", out])
        check(rc == 0 and not os.path.exists(os.path.join(out, OUT, "cluster_time_summary.csv"))
              and "cluster_time_summary.csv is not written" in se and "CommAnalyzerTime" in se,
              f"level0: exit {rc}, a summary written or no reason given: {se}")
        check_compare(tmp)
        out = os.path.join(tmp, "text")
        rc, _, se = cluster(os.path.join(CORPUS, "msinsight_pt_text_2025_level1"), out)
        check(rc == 0 and not glob.glob(os.path.join(out, OUT, "cluster_time_*")), f"text run: exit {rc}: {se}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    check.finish()


if __name__ == "__main__":
    main()
