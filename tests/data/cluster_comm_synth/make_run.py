#!/usr/bin/env python3
"""Writes the synthetic 3-rank Ascend text run of tests/data/cluster_comm_synth/run (profdiff's own data):
communication.json and communication_matrix.json with what the reference's cluster communication files
must handle: integer and float values, p2p and collective groups, a group one rank alone names, an
operator type that is neither, a rank's own "Total Op Info" (dropped), "top"/"middle"/"bottom" matrix
entries (not added to the total), a link to a local rank no profiled rank maps, a link key without '-'
(ends that rank's links), a non-ASCII operator name, and profiler_metadata.json parallel_group_info that
names one group (its id hashes to the group name). The expected/ files are what the reference
(msprof-analyze 26.1, commit 8399c1cd, `cluster -m MODE`) wrote for this run, made on tmpfs
(/dev/shm) so that its directory walk met the ranks in ascending order, as profdiff takes them (it
takes them in the file system's listing order; docs/deviations.md).

    tests/data/cluster_comm_synth/make_run.py OUT_DIR
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


DP_ID = "10.0.0.1%enp_60000_0_1741080127155567"
DP = str(double_hash(DP_ID))  # the collective group of all three ranks (metadata names it)
TP = "4067293946368353693"     # ranks 0 and 1
SOLO = "368314942532213303"    # rank 2 alone
PP = "13337953553061386822"    # p2p between 1 and 2


def time_info(start, elapse, transit, wait, sync, idle, ints=False):
    t = {"Start Timestamp(us)": start, "Elapse Time(ms)": elapse, "Transit Time(ms)": transit,
         "Wait Time(ms)": wait, "Synchronization Time(ms)": sync, "Idle Time(ms)": idle,
         "Wait Time Ratio": 0.5, "Synchronization Time Ratio": 0.25}
    if ints:
        t = {k: int(v) for k, v in t.items()}
    return t


def bw(hccs_size, hccs_time, dist):
    return {"RDMA": {"Transit Size(MB)": 0, "Transit Time(ms)": 0, "Bandwidth(GB/s)": 0, "Large Packet Ratio": 0,
                     "Size Distribution": {}},
            "HCCS": {"Transit Size(MB)": hccs_size, "Transit Time(ms)": hccs_time, "Bandwidth(GB/s)": 1.5,
                     "Large Packet Ratio": 0.0, "Size Distribution": dist}}


def op(rank, k, ints=False):
    base = 1736408883732241.5 + 1000 * k + rank
    return {"Communication Time Info": time_info(base, 1.1 + k / 3 + rank / 7, 0.1 + k / 9, 0.3 + rank / 11,
                                                 0.2 / (k + 1), 0.7 + k / 13, ints),
            "Communication Bandwidth Info": bw(2.064384 * (k + 1), 0.3 + k / 17,
                                               {"2.064384": [k + 1, 0.1 + k / 19], str(k + 0.5): [1, k]})}


def communication(rank):
    steps = {}
    coll = {f"hcom_allReduce__1_{k}_1@{DP}": op(rank, k) for k in range(3)}
    if rank < 2:
        coll[f"hcom_allGather__2_0_1@{TP}"] = op(rank, 5, ints=True)
        coll[f"hcom_broadcast_\u00e9_3@{TP}"] = op(rank, 6)
    else:
        coll[f"hcom_reduce__9_0_1@{SOLO}"] = op(rank, 7)
    coll[f"Total Op Info"] = {"ignored": 1}
    p2p = {}
    if rank in (1, 2):
        p2p[f"hcom_send__822_{rank}@{PP}"] = op(rank, 8)
    steps["step3"] = {"p2p": p2p, "collective": coll, "custom": {f"odd_op@{DP}": op(rank, 9)}}
    steps["step4"] = {"collective": {f"hcom_allReduce__1_9_1@{DP}": op(rank, 10, ints=True)}}
    steps["bad_step"] = [1, 2]
    return steps


def link(transport, size, time, name):
    return {"Transport Type": transport, "Transit Size(MB)": size, "Transit Time(ms)": time,
            "Bandwidth(GB/s)": 9.9, "Op Name": name}


def matrix(rank):
    local = {0: 0, 1: 1, 2: 2}[rank]
    coll = {}
    for kind in ("top1", "middle", "bottom1", "total"):
        links = {f"{local}-{local}": link("LOCAL", 4.1 + rank, 0.008 + rank / 1000, "hcom_allReduce__1_0_1")}
        for peer in range(3):
            if peer != local:
                links[f"{local}-{peer}"] = link("HCCS", 37.78 + peer, 2.15 + peer / 100, "hcom_allReduce__1_2_1")
        links[f"{local}-7"] = link("HCCS", 1, 1, "hcom_allReduce__1_2_1")  # local rank 7: nobody maps it
        if kind == "total":
            links["nodash"] = link("HCCS", 5, 5, "x")  # ends this rank's links of the operator
            links[f"{local}-0"] = link("HCCS", 5, 5, "after_the_break")
            del links[f"{local}-0"]["Op Name"]
        coll[f"allreduce-{kind}@{DP}"] = links
    if rank < 2:
        coll[f"allgather-total@{TP}"] = {f"{rank}-{rank}": link("LOCAL", 3, 2, "ag"),
                                         f"{rank}-{1 - rank}": {"Transit Size(MB)": 7, "Transit Time(ms)": 0}}
    p2p = {}
    if rank in (1, 2):
        p2p[f"send-total@{PP}"] = {f"{rank - 1}-{2 - rank}": link("HCCS", 20.97152, 0.86381540625, "hcom_send")}
    coll["Total Op Info"] = {"0-0": link("LOCAL", 1, 1, "ignored")}
    return {"step3": {"collective": coll, "p2p": p2p, "unknown_type": {"x@1": {}}}}


def write(path, obj):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(obj, f, indent=2, ensure_ascii=False)


def main():
    out = sys.argv[1]
    for rank in (2, 1, 0):  # on tmpfs, the directory then lists them 0, 1, 2 (newest first)
        d = os.path.join(out, f"rank{rank}_ascend_pt")
        write(os.path.join(d, f"profiler_info_{rank}.json"), {"config": {"common_config": {}}, "rank_id": rank})
        meta = {"ENV_VARIABLES": {}}
        if rank == 1:
            meta["parallel_group_info"] = {DP_ID: {"group_name": "dp", "group_rank": rank, "global_ranks": [2, 0, 1, 3]}}
        write(os.path.join(d, "profiler_metadata.json"), meta)
        o = os.path.join(d, "ASCEND_PROFILER_OUTPUT")
        write(os.path.join(o, "communication.json"), communication(rank))
        write(os.path.join(o, "communication_matrix.json"), matrix(rank))
        with open(os.path.join(o, "step_trace_time.csv"), "w") as f:
            f.write("Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
                    "Communication(Not Overlapped and Exclude Receive)\n")
            f.write(f"3,{100.5 + rank},{20.25},{3},{23.25},{7.125 + rank},{130.875},0,{20.25}\n")


if __name__ == "__main__":
    main()
