"""`profdiff cluster` against the reference's communication files (../shared/oracle-cluster).

On every text cluster of the corpus (2025 levels 0-2, the GPT-3 2-rank sample with its rank folders
renamed *_ascend_pt as the oracle case did) and every mode the oracle ran (-m all, communication_time,
communication_matrix), in the default mode and under --reference-compat (26.1 and =8.2, whose files
are the same), communication_group.json, cluster_communication.json and cluster_communication_matrix.json
equal the reference's byte for byte, and a file the reference did not write is not written. A DB run
writes none of them (the reference puts its tables in cluster_analysis.db). Exits 77 (skip) when
../shared is absent.
"""
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from oracle_util import Checks, CLUSTER_TEXT_RUNS, CORPUS, GPT3, gpt3_as_ascend_pt, ORACLE_CLUSTER, read_bytes, run_profdiff, SHARED, SKIP  # noqa: E402

MODES = ["all", "communication_time", "communication_matrix"]
FILES = ["communication_group.json", "cluster_communication.json", "cluster_communication_matrix.json"]
check = Checks()


def check_case(name, run, tmp):
    for mode in MODES:
        for flags, suffix in (([], ""), (["--reference-compat"], ""), (["--reference-compat=8.2"], "__r82")):
            oracle = os.path.join(ORACLE_CLUSTER, f"{name}__{mode}{suffix}")
            out = os.path.join(tmp, f"{name}_{mode}_{len(flags)}{suffix}")
            rc, _, se = run_profdiff(["cluster", "-d", run, "-o", out, "-q", "-m", mode] + flags)
            check(rc == 0, f"{name} -m {mode} {flags}: exit {rc}: {se}")
            for f in FILES:
                want, got = os.path.join(oracle, f), os.path.join(out, "cluster_analysis_output", f)
                if os.path.exists(want):
                    check(os.path.exists(got) and read_bytes(got) == read_bytes(want),
                          f"{name} -m {mode} {flags}: {f} differs from {want}")
                else:
                    check(not os.path.exists(got), f"{name} -m {mode} {flags}: {f} written, the reference did not")


def main():
    if not os.path.isdir(ORACLE_CLUSTER) or not os.path.isdir(CORPUS):
        print(f"SKIP: {SHARED} (corpus and oracle-cluster) is absent; the cluster parity test needs it")
        sys.exit(SKIP)
    tmp = tempfile.mkdtemp(prefix="profdiff_cluster_comm_")
    try:
        for name in CLUSTER_TEXT_RUNS:
            check_case(name, os.path.join(CORPUS, name), tmp)
        check_case(GPT3 + "_as_ascend_pt", gpt3_as_ascend_pt(tmp), tmp)
        out = os.path.join(tmp, "db")
        rc, _, se = run_profdiff(["cluster", "-d", os.path.join(CORPUS, "msinsight_pt_db_2025_level1"), "-o", out, "-q"])
        check(rc == 0, f"db: exit {rc}: {se}")
        for f in FILES:
            check(not os.path.exists(os.path.join(out, "cluster_analysis_output", f)), f"db: {f} written")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    check.finish()


if __name__ == "__main__":
    main()
