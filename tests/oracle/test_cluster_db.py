"""`profdiff cluster` against the reference's cluster_analysis.db of the corpus's DB runs
(../shared/oracle-cluster: msinsight_pt_db_2025_level{0,1,2} under -m all / communication_time /
communication_matrix, both lines).

- Under --reference-compat (26.1) and --reference-compat=8.2 every table the reference wrote for that
  case, with its columns and declared types (read from the oracle's .db), and its rows cell for cell as
  the oracle dumps them (csv of repr(); RankDeviceMap.profilePath with the corpus path as
  `corpus/<cluster>`): ClusterStepTraceTime, HostInfo, RankDeviceMap, CommunicationGroupMapping,
  ClusterCommunicationTime/-Bandwidth/-Matrix (8.2's matrix rows in its own order). Nothing else but
  ClusterTimeSummary, which profdiff adds for a run with communication groups: the rows of the
  reference's cluster_time_summary recipe (its `__cluster_time_summary__db` case, both lines).
- With -bp (level2 against level1): ClusterTimeCompareSummary as the reference's
  cluster_time_compare_summary recipe wrote it (both lines).
- The default mode: the same tables, types and rows; each Total Op Info sum of ClusterCommunicationTime
  the exact sum (math.fsum) of its ops, which differs from the reference's Kahan sum in the last digit
  on level1 (docs/deviations.md, cluster row 5); every other float within 1e-12 of the reference's; the
  time summaries each value the reference's rounded to the ns (cluster row 3).
Exits 77 (skip) when ../shared is absent.
"""
import csv
import math
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from oracle_util import Checks, exact_ns, CORPUS, ORACLE_CLUSTER, run_profdiff, SHARED, SKIP  # noqa: E402
from py_checks import sqlite_tables, table_csv_rows  # noqa: E402

DB = "cluster_analysis.db"
MODES = ("all", "communication_time", "communication_matrix")
LINES = ((["--reference-compat"], ""), (["--reference-compat=8.2"], "__r82"), ([], ""))
ADDED = {"ClusterTimeSummary", "ClusterTimeCompareSummary"}  # the separate recipes' tables
check = Checks()


def oracle_tables(case):
    """{table: (csv rows, [(column, type)])} of an oracle case."""
    path = os.path.join(ORACLE_CLUSTER, case)
    types = {n: list(zip(c, t)) for n, (c, t, _) in sqlite_tables(os.path.join(path, DB)).items()}
    out = {}
    for f in os.listdir(path):
        if f.startswith(DB + "__") and f.endswith(".csv"):
            with open(os.path.join(path, f), newline="") as fh:
                out[f[len(DB) + 2:-4]] = (list(csv.reader(fh)), types[f[len(DB) + 2:-4]])
    return out


def produced(out, cluster):
    real = os.path.realpath(os.path.join(CORPUS, cluster))
    got = {}
    for name, (cols, types, rows) in sqlite_tables(os.path.join(out, "cluster_analysis_output", DB)).items():
        text = [[c.replace(real, f"corpus/{cluster}") for c in r] for r in table_csv_rows(cols, rows)]
        got[name] = (text, list(zip(cols, types)), rows)
    return got


def close(x, y):
    """Two cells of a dump: equal, or floats within 1e-12 of each other."""
    try:
        return x == y or math.isclose(float(x), float(y), rel_tol=1e-12)
    except ValueError:
        return False


def same_or_close(got, want, what):
    check(len(got) == len(want), f"{what}: {len(got)} rows, the reference's {len(want)}")
    for g, w in zip(got, want):
        check(len(g) == len(w) and all(close(x, y) for x, y in zip(g, w)), f"{what}: {g} is not {w}")


def same_rounded(got, want, what):
    check(got[0] == want[0] and len(got) == len(want), f"{what}: header or row count")
    for g, w in zip(got[1:], want[1:]):
        check(g[:2] == w[:2] and all(exact_ns(a) == exact_ns(b) for a, b in zip(g[2:], w[2:])),
              f"{what}: {g} is not {w} rounded to the ns")


def exact_time_totals(got, what):
    """Each Total Op Info value of ClusterCommunicationTime: math.fsum of its ops (times the group's
    rank sets in CommunicationGroupMapping)."""
    mapping = got["CommunicationGroupMapping"][2]
    rows = got["ClusterCommunicationTime"][2]
    for r in (r for r in rows if r[2] == "Total Op Info"):
        k = len({m[1] for m in mapping if m[2] == r[3]}) or 1
        parts = [p for p in rows if p[2] != "Total Op Info" and (p[0], p[1], p[3]) == (r[0], r[1], r[3])]
        for c in range(5, 10):
            check(r[c] == math.fsum([p[c] for p in parts] * k), f"{what}: total {r[:4]} column {c}: {r[c]!r}")


def check_case(cluster, mode, flags, suffix, tmp):
    what = f"{cluster} -m {mode} {' '.join(flags) or 'default'}"
    out = os.path.join(tmp, f"{cluster}_{mode}_{suffix}_{len(flags)}")
    rc, _, se = run_profdiff(["cluster", "-d", os.path.join(CORPUS, cluster), "-o", out, "-m", mode, "-q"] + flags)
    check(rc == 0, f"{what}: exit {rc}: {se}")
    if rc != 0:
        return
    want = oracle_tables(f"{cluster}__{mode}{suffix}")
    got = produced(out, cluster)
    check(set(got) - ADDED == set(want), f"{what}: tables {sorted(got)}, the reference's {sorted(want)}")
    differs = False
    for name in set(got) & set(want):
        check(got[name][1] == want[name][1], f"{what}: {name} columns {got[name][1]}, the reference's {want[name][1]}")
        if flags:
            check(got[name][0] == want[name][0], f"{what}: {name} differs from the reference's")
        else:
            same_or_close(got[name][0], want[name][0], f"{what}: {name}")
            differs |= got[name][0] != want[name][0]
    if not flags and "ClusterCommunicationTime" in got:
        exact_time_totals(got, what)
    if not flags and cluster.endswith("level1") and mode != "communication_matrix":
        check(differs, f"{what}: no exact sum differs from the reference's float sums")
    summary = got.get("ClusterTimeSummary")
    oracle_case = os.path.join(ORACLE_CLUSTER, f"{cluster}__cluster_time_summary__db{suffix}")
    if not os.path.exists(os.path.join(oracle_case, DB + "__ClusterTimeSummary.csv")):
        check(summary is None, f"{what}: a ClusterTimeSummary the reference does not write")
        return
    ref = oracle_tables(os.path.basename(oracle_case))["ClusterTimeSummary"]
    check(summary is not None and summary[1] == ref[1], f"{what}: ClusterTimeSummary columns")
    if summary is not None:
        if flags:
            check(summary[0] == ref[0], f"{what}: ClusterTimeSummary differs from the reference's")
        else:
            same_rounded(summary[0], ref[0], f"{what}: ClusterTimeSummary")


def check_compare(tmp):
    cur, base = (os.path.join(CORPUS, f"msinsight_pt_db_2025_level{lv}") for lv in (2, 1))
    case = "cmp__msinsight_pt_db_2025_level2__vs__msinsight_pt_db_2025_level1"
    for flags, suffix in LINES:
        out = os.path.join(tmp, f"cmp{suffix}_{len(flags)}")
        rc, _, se = run_profdiff(["cluster", "-d", cur, "-bp", base, "-o", out, "-q"] + flags)
        check(rc == 0, f"compare {flags}: exit {rc}: {se}")
        got = produced(out, "msinsight_pt_db_2025_level2").get("ClusterTimeCompareSummary")
        want = oracle_tables(case + suffix)["ClusterTimeCompareSummary"]
        check(got is not None and got[1] == want[1], f"compare {flags}: ClusterTimeCompareSummary columns")
        if got is None:
            continue
        if flags:
            check(got[0] == want[0], f"compare {flags}: ClusterTimeCompareSummary differs from the reference's")
        else:
            same_rounded(got[0], want[0], "compare default: ClusterTimeCompareSummary")


def main():
    if not os.path.isdir(ORACLE_CLUSTER) or not os.path.isdir(CORPUS):
        print(f"SKIP: {SHARED} (corpus and oracle-cluster) is absent; the cluster parity test needs it")
        sys.exit(SKIP)
    tmp = tempfile.mkdtemp(prefix="profdiff_cluster_db_")
    try:
        for level in (0, 1, 2):
            for mode in MODES:
                for flags, suffix in LINES:
                    check_case(f"msinsight_pt_db_2025_level{level}", mode, flags, suffix, tmp)
        check_compare(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    check.finish()


if __name__ == "__main__":
    main()
