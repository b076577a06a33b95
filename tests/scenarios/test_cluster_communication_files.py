"""`profdiff cluster` writes the reference's communication files of a run of Ascend text exports.

A synthetic 3-rank run (tests/data/cluster_comm_synth/make_run.py: integer and float values, p2p and
collective groups, a group of one rank, an operator type that is neither, a rank's own "Total Op Info",
top/middle/bottom matrix entries, a link to a local rank nobody maps, a link key without '-', a
non-ASCII operator name, profiler_metadata.json naming one group) gives, under every -m mode, in the
default mode and under --reference-compat, the files the reference (msprof-analyze 26.1) wrote for it
(tests/data/cluster_comm_synth/expected/<mode>/) byte for byte; the matrix links the reference leaves
out are said once on stderr; -m communication_time / communication_matrix write only their file; an
unknown mode is refused; an existing communication file is kept without --force. A 4-rank run with
pipeline-parallel ("pp") p2p groups (tests/data/cluster_stage_synth) gets the reference's stage rows in
cluster_step_trace_time.csv, byte for byte under --reference-compat.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from scenario_util import BIN, Checks, read_bytes, SRC  # noqa: E402

DATA = os.path.join(SRC, "tests", "data", "cluster_comm_synth")
FILES = ["communication_group.json", "cluster_communication.json", "cluster_communication_matrix.json"]
check = Checks()


def run(args):
    p = subprocess.run([BIN] + args, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def check_mode(run_dir, tmp, mode, extra):
    out = os.path.join(tmp, f"out_{mode}_{'_'.join(extra).strip('-=.')}")
    rc, _, se = run(["cluster", "-d", run_dir, "-o", out, "-m", mode] + extra)
    check(rc == 0, f"{mode} {extra}: exit {rc}: {se}")
    expected_dir = os.path.join(DATA, "expected", mode)
    for name in FILES:
        got = os.path.join(out, "cluster_analysis_output", name)
        want = os.path.join(expected_dir, name)
        if not os.path.exists(want):
            check(not os.path.exists(got), f"{mode} {extra}: {name} must not be written")
            continue
        check(os.path.exists(got) and read_bytes(got) == read_bytes(want), f"{mode} {extra}: {name} differs from {want}")
    if mode != "communication_time":
        check(se.count("cluster_communication_matrix.json:") == 1 and "left out" in se,
              f"{mode}: the links left out are said once: {se}")
    return out


def check_stages(tmp):
    """A 4-rank run with pipeline stages (tests/data/cluster_stage_synth): the stage rows and the groups
    as the reference wrote them."""
    data = os.path.join(SRC, "tests", "data", "cluster_stage_synth")
    run_dir = os.path.join(tmp, "stage_run")
    subprocess.run([sys.executable, os.path.join(data, "make_run.py"), run_dir], check=True)
    out = os.path.join(tmp, "stage_out")
    rc, _, se = run(["cluster", "-d", run_dir, "-o", out, "--reference-compat", "-q"])
    check(rc == 0, f"stages: exit {rc}: {se}")
    for name in ("cluster_step_trace_time.csv", "communication_group.json"):
        got = os.path.join(out, "cluster_analysis_output", name)
        check(os.path.exists(got) and read_bytes(got) == read_bytes(os.path.join(data, "expected", name)),
              f"stages: {name} differs from the reference's")


def check_parallel_indexes(tmp):
    """The same run with profiler_metadata.json's distributed_args: the reference's DP / PP / TP Index
    columns (Megatron's layout), for a world of 4 and of 8 (4 ranks found); sizes that do not partition
    the world: no columns and a warning."""
    data = os.path.join(SRC, "tests", "data", "cluster_stage_synth")
    cases = (('{"world_size": 4, "tensor_model_parallel_size": 1, "pipeline_model_parallel_size": 2, '
              '"data_parallel_size": 2}', "cluster_step_trace_time.csv"),
             ('{"world_size": 8, "tensor_model_parallel_size": 2, "pipeline_model_parallel_size": 2, '
              '"data_parallel_size": 2}', "world8_cluster_step_trace_time.csv"),
             ('{"world_size": 6, "tensor_model_parallel_size": 2, "pipeline_model_parallel_size": 2, '
              '"data_parallel_size": 2}', None))
    for i, (args, expected) in enumerate(cases):
        run_dir = os.path.join(tmp, f"parallel_run{i}")
        subprocess.run([sys.executable, os.path.join(data, "make_run.py"), run_dir, "--distributed-args", args], check=True)
        out = os.path.join(tmp, f"parallel_out{i}")
        rc, so, se = run(["cluster", "-d", run_dir, "-o", out, "--reference-compat", "--format", "json", "-q"])
        check(rc == 0, f"parallel {args}: exit {rc}: {se}")
        got = read_bytes(os.path.join(out, "cluster_analysis_output", "cluster_step_trace_time.csv"))
        want = read_bytes(os.path.join(data, "expected_parallel", expected) if expected else
                          os.path.join(data, "expected", "cluster_step_trace_time.csv"))
        check(got == want, f"parallel {args}: cluster_step_trace_time.csv differs from the reference's:\n{got}")
        if rc != 0:
            continue
        index = [r.get("parallel_index") for r in json.loads(so)["ranks"]]
        if expected is None:
            check(index == [None] * 4 and "do not partition" in se, f"parallel {args}: {index} {se}")
        elif i == 1:
            check(index == [{"dp": 0, "pp": 0, "tp": 0}, {"dp": 0, "pp": 0, "tp": 1}, {"dp": 1, "pp": 0, "tp": 0},
                            {"dp": 1, "pp": 0, "tp": 1}], f"parallel {args}: {index}")


def main():
    if not BIN or not os.path.exists(BIN):
        sys.exit(f"PROFDIFF_BIN is not set or does not exist: {BIN!r}")
    tmp = tempfile.mkdtemp(prefix="profdiff_cluster_comm_")
    try:
        check_stages(tmp)
        check_parallel_indexes(tmp)
        run_dir = os.path.join(tmp, "run")
        subprocess.run([sys.executable, os.path.join(DATA, "make_run.py"), run_dir], check=True)
        for mode in ("all", "communication_time", "communication_matrix"):
            for extra in ([], ["--reference-compat"], ["--reference-compat=8.2"]):
                out = check_mode(run_dir, tmp, mode, extra)
        rc, _, se = run(["cluster", "-d", run_dir, "-o", out, "-m", "slow_rank"])
        check(rc == 2 and "slow_rank" in se, f"an unknown mode is refused (exit {rc}): {se}")
        group = os.path.join(out, "cluster_analysis_output", "communication_group.json")
        before = read_bytes(group)
        rc, _, se = run(["cluster", "-d", run_dir, "-o", out, "-m", "all"])
        check(rc == 2 and "communication_group.json" in se, f"no --force keeps the files (exit {rc}): {se}")
        check(read_bytes(group) == before, "the refused run changed communication_group.json")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    check.finish()


if __name__ == "__main__":
    main()
