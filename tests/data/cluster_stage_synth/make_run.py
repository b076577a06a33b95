#!/usr/bin/env python3
"""Writes a synthetic 4-rank Ascend text run with pipeline stages (profdiff's own data): ranks 0-1 and
2-3 each a data-parallel collective group, ranks 0-2 and 1-3 each a pipeline-parallel p2p group whose
process group profiler_metadata.json names "pp"; every rank's step_trace_time.csv has other values.
expected/cluster_step_trace_time.csv is what the reference (msprof-analyze 26.1 @8399c1cd,
`cluster -m all`) wrote for it: its rank rows, then a stage row per stage, (0, 1) and (2, 3).

    tests/data/cluster_stage_synth/make_run.py OUT_DIR [--distributed-args JSON]

--distributed-args: profiler_metadata.json's "distributed_args" on every rank (the job's parallel
sizes); expected_parallel/cluster_step_trace_time.csv is what the reference wrote for
'{"world_size": 4, "tensor_model_parallel_size": 1, "pipeline_model_parallel_size": 2,
"data_parallel_size": 2}': the same rows with its DP / PP / TP Index columns;
world8_cluster_step_trace_time.csv for a world of 8 (tensor, pipeline and data-parallel size 2: the
4 ranks found are the first 4 of Megatron's layout).
"""
import json
import os
import sys


def double_hash(data):
    h = [0, 0]
    for d in data:
        h[0] = (h[0] * 29 + ord(d)) & 0xFFFFFFFF
        h[1] = (h[1] * 131 + ord(d)) & 0xFFFFFFFF
    return (h[0] << 32) | h[1]


GROUPS = {"dp_a": ("dp", [0, 1]), "dp_b": ("dp", [2, 3]), "pp_a": ("pp", [0, 2]), "pp_b": ("pp", [1, 3])}


def op(k):
    return {"Communication Time Info": {"Start Timestamp(us)": 1000.0 + k, "Elapse Time(ms)": 1.5 + k,
                                        "Transit Time(ms)": 0.5, "Wait Time(ms)": 1.0, "Synchronization Time(ms)": 0.1,
                                        "Idle Time(ms)": 0.0, "Wait Time Ratio": 0.6667, "Synchronization Time Ratio": 0.1667},
            "Communication Bandwidth Info": {}}


def main():
    out = sys.argv[1]
    args = json.loads(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == "--distributed-args" else None
    for rank in (3, 2, 1, 0):  # on tmpfs, listed 0, 1, 2, 3 (newest first)
        d = os.path.join(out, f"rank{rank}_ascend_pt")
        o = os.path.join(d, "ASCEND_PROFILER_OUTPUT")
        os.makedirs(o)
        with open(os.path.join(d, f"profiler_info_{rank}.json"), "w") as f:
            json.dump({"config": {"common_config": {}}, "rank_id": rank}, f)
        info = {gid: {"group_name": name, "group_rank": ranks.index(rank), "global_ranks": ranks}
                for gid, (name, ranks) in GROUPS.items() if rank in ranks}
        with open(os.path.join(d, "profiler_metadata.json"), "w") as f:
            json.dump({"parallel_group_info": info, **({"distributed_args": args} if args else {})}, f)
        coll, p2p = {}, {}
        for gid, (name, ranks) in GROUPS.items():
            if rank not in ranks:
                continue
            target = coll if name == "dp" else p2p
            target[f"hcom_{'allReduce' if name == 'dp' else 'send'}__{gid}_0@{double_hash(gid)}"] = op(rank)
        with open(os.path.join(o, "communication.json"), "w") as f:
            json.dump({"step7": {"collective": coll, "p2p": p2p}}, f)
        with open(os.path.join(o, "step_trace_time.csv"), "w") as f:
            f.write("Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
                    "Communication(Not Overlapped and Exclude Receive),Preparing\n")
            f.write(f"7,{100.25 + 10 * rank},{20.5 + rank},{3.125},{23.625 + rank},{7.0 - rank},{130.0 + rank},"
                    f"{rank * 0.5},{20.5},{1.5 + rank}\n")


if __name__ == "__main__":
    main()
