"""The reference's slow-rank vote on a whole run: a synthetic 8-rank run of DB exports
(bench/make_ascend_cluster.py from the corpus's msinsight_pt_db_2025_level2 rank 0) with rank 3 made 20 ms
slower before collective 1 and every op's duration jittered (up to 50 µs per rank and op, fixed).
tests/data/slow_rank_vote/synthetic_db_8/ holds what the reference (26.1, run on its sources:
`cluster_analysis.py -d RUN -m slow_rank --export_type text`) wrote for that run:
SlowRankAnalysis/rank_stats.csv and slow_op_stats.csv, and cluster_analysis_db_tables.json the SlowRank
and SlowOpStats tables of its cluster_analysis.db with its default --export_type db (columns, declared
types, rows; floats as Python's repr). Under --reference-compat `profdiff cluster` writes the same bytes
and tables; by default the same votes with exact µs statistics, and the JSON's slow_rank_vote names
rank 3.

Needs the corpus (../shared); exits 77 (skip) without it.
"""
import csv
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from scenario_util import BIN, Checks, SHARED, SKIP, SRC, read_bytes  # noqa: E402

SOURCE = os.path.join(SHARED, "corpus", "msinsight_pt_db_2025_level2", "rank0_ascend_pt")
EXPECTED = os.path.join(SRC, "tests", "data", "slow_rank_vote", "synthetic_db_8")
check = Checks()


def cluster(run, out, *extra):
    p = subprocess.run([BIN, "cluster", "-d", run, "-o", out, "--format", "json", "-q"] + list(extra),
                       capture_output=True, text=True)
    check(p.returncode == 0, f"cluster {extra}: exit {p.returncode}: {p.stderr}")
    return json.loads(p.stdout) if p.returncode == 0 else {}


def db_tables(out):
    path = os.path.join(out, "cluster_analysis_output", "cluster_analysis.db")
    if not os.path.exists(path):
        return {}
    c = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
    try:
        return {t: {"columns": [[r[1], r[2]] for r in c.execute(f'pragma table_info("{t}")')],
                    "rows": [list(r) for r in c.execute(f'select * from "{t}"')]}
                for t in ("SlowRank", "SlowOpStats")}
    finally:
        c.close()


def main():
    if not os.path.isdir(SOURCE):
        print(f"SKIP: {SOURCE} is absent (../shared)")
        sys.exit(SKIP)
    tmp = tempfile.mkdtemp(prefix="profdiff_vote_")
    try:
        run = os.path.join(tmp, "run")
        subprocess.run([sys.executable, os.path.join(SRC, "bench", "make_ascend_cluster.py"), SOURCE, run, "--ranks", "8",
                        "--straggler", "3", "--delay-ms", "20", "--collective", "1", "--jitter-us", "50"], check=True)
        for line in ("26.1", "8.2"):
            out = os.path.join(tmp, "compat" + line)
            j = cluster(run, out, f"--reference-compat={line}")
            got_dir = os.path.join(out, "cluster_analysis_output", "SlowRankAnalysis")
            for name in ("rank_stats.csv", "slow_op_stats.csv"):
                got = read_bytes(os.path.join(got_dir, name))
                check(got == read_bytes(os.path.join(EXPECTED, name)), f"{line}: {name} differs from the reference's:\n{got}")
            check(j.get("slow_rank_vote", {}).get("method") == "reference", f"{line}: method {j.get('slow_rank_vote')}")
            with open(os.path.join(EXPECTED, "cluster_analysis_db_tables.json")) as f:
                want = json.load(f)
            got = db_tables(out)
            check(got == want, f"{line}: cluster_analysis.db SlowRank / SlowOpStats differ from the reference's:\n{got}")
        out = os.path.join(tmp, "exact")
        j = cluster(run, out)
        v = j.get("slow_rank_vote", {})
        check(v.get("method") == "exact" and v.get("ranks") == [{"rank": 3, "votes": 1}], f"exact vote: {v}")
        stats = db_tables(out).get("SlowOpStats", {}).get("rows", [[]])[0]
        check(stats[5:] == [19818259.0, 7066599.0, 2329362.0, 22300158.75, 22309951.0, 22326563.0, 22340558.0,
                            158546073.0], f"exact SlowOpStats: the ns its columns name: {stats}")
        with open(os.path.join(out, "cluster_analysis_output", "SlowRankAnalysis", "slow_op_stats.csv")) as f:
            got = list(csv.DictReader(f))
        with open(os.path.join(EXPECTED, "slow_op_stats.csv")) as f:
            ref = list(csv.DictReader(f))
        check(len(got) == len(ref) == 1, f"exact: {len(got)} voted ops")
        for g, r in zip(got, ref):
            for k in ("SlowRank", "OpName", "GroupName", "Timestamp", "Count"):
                check(g[k] == r[k], f"exact {k}: {g[k]} vs the reference's {r[k]}")
            # The reference's (Us) columns hold ms (its µs divided again by 1000); ours the µs they name.
            for k in ("Min(Us)", "Max(Us)", "Median(Us)", "Q1(Us)", "Q3(Us)", "Sum(Us)"):
                check(abs(float(g[k]) - 1000 * float(r[k])) <= 1e-6 * abs(1000 * float(r[k])) + 1e-9,
                      f"exact {k}: {g[k]} µs vs the reference's {r[k]} (ms)")
        # --step_id: the ops launched in that step's STEP_TIME window (the run's one step: all of them,
        # the same files, as the reference writes them with --step_id 50); a step no rank has is refused.
        out = os.path.join(tmp, "step")
        cluster(run, out, "--reference-compat", "--step_id", "50")
        for name in ("rank_stats.csv", "slow_op_stats.csv"):
            got = read_bytes(os.path.join(out, "cluster_analysis_output", "SlowRankAnalysis", name))
            check(got == read_bytes(os.path.join(EXPECTED, name)), f"--step_id 50: {name} differs:\n{got}")
        p = subprocess.run([BIN, "cluster", "-d", run, "-o", os.path.join(tmp, "nostep"), "--step_id", "7", "-q"],
                           capture_output=True, text=True)
        check(p.returncode != 0 and "--step_id 7" in p.stderr, f"--step_id 7: {p.returncode} {p.stderr}")
        again = os.path.join(tmp, "again")  # an earlier run's vote files alone
        shutil.copytree(os.path.join(out, "cluster_analysis_output", "SlowRankAnalysis"),
                        os.path.join(again, "cluster_analysis_output", "SlowRankAnalysis"))
        p = subprocess.run([BIN, "cluster", "-d", run, "-o", again], capture_output=True, text=True)
        check(p.returncode != 0 and "rank_stats.csv" in p.stderr + p.stdout,
              f"an earlier run's vote files are not overwritten without --force: {p.returncode} {p.stderr}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    check.finish()


if __name__ == "__main__":
    main()
