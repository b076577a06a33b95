#!/usr/bin/env python3
"""Writes a synthetic 4-rank run of Ascend DB exports (profdiff's own data) for the reference's
cluster_analysis.db: each rank an ascend_pytorch_profiler_<N>.db (HOST_INFO, RANK_DEVICE_MAP, META_DATA
parallel_group_info, and an empty TASK table so that it reads as a profiler database) and an
analysis.db (StepTraceTime, CommAnalyzerTime, CommAnalyzerBandwidth, CommAnalyzerMatrix), made to reach
the corners of the reference's DB route:

- collective groups dp_a (ranks 0-1) and dp_b (2-3), p2p groups pp_a (0-2) and pp_b (1-3) whose process
  group META_DATA names "pp" (stage rows (0,1) and (2,3)), a group "mix" with a collective op on ranks
  0-1 and a p2p op on rank 0 only (two rank sets: its rows count twice in the Total Op Info sums), a
  group tp_x on every rank that the metadata does not list;
- two steps, ten ops per dp group and step (pairwise and Kahan sums differ from the exact ones),
  synchronization_time integers everywhere (an INTEGER column), one rank's large_packet_ratio a float
  (a REAL column), a NULL group name and a NULL package size (left out of the sums), rank 2 without
  CommAnalyzerBandwidth rows (left out of the time tables);
- matrix links of several operators per group with top/middle/bottom/total entries, self links that
  map local to global ranks, a link to a local rank no profiled rank maps, p2p links;
- two hosts, and profiler_metadata.json distributed_args on rank 1 (ClusterBaseInfo; its world_size a
  string, so the reference's parallel partition fails and the dp/pp/tp indexes stay 0).

expected/ holds what the reference (msprof-analyze 26.1 @8399c1cd, `cluster -m all`, the run made on
tmpfs) wrote: each table of its cluster_analysis.db as `<table>.csv` (header, rowid order, Python
csv, floats as repr(); the run's path in RankDeviceMap.profilePath as `<run>`), `schema.txt` (each
table's columns and declared types) and `tables_by_mode.txt` (the tables `-m all`,
`communication_time` and `communication_matrix` wrote; the tables the modes share were identical).

    tests/data/cluster_db_synth/make_run.py OUT_DIR
"""
import json
import os
import random
import sqlite3
import sys

RANKS = 4


def double_hash(data):
    h = [0, 0]
    for d in data:
        h[0] = (h[0] * 29 + ord(d)) & 0xFFFFFFFF
        h[1] = (h[1] * 131 + ord(d)) & 0xFFFFFFFF
    return (h[0] << 32) | h[1]


# group id -> (process group name, global ranks, listed in META_DATA)
GROUPS = {"dp_a": ("dp", [0, 1], True), "dp_b": ("dp", [2, 3], True), "pp_a": ("pp", [0, 2], True),
          "pp_b": ("pp", [1, 3], True), "mix": ("", [0, 1], False), "tp_x": ("", [0, 1, 2, 3], False)}


def name_of(gid):
    return str(double_hash(gid))


def ops_of(rank):
    """(op name, group id, type, step) of the rank's communication ops, in order."""
    ops = []
    for step in ("step7", "step8"):
        for gid, (pg, ranks, _) in GROUPS.items():
            if rank not in ranks:
                continue
            if pg == "dp":
                ops += [(f"hcom_allReduce__{gid}_{k}_1", gid, "collective", step) for k in range(10)]
            elif pg == "pp":
                verb = "send" if ranks.index(rank) == 0 else "receive"
                ops += [(f"hcom_{verb}__{gid}_{k}_1", gid, "p2p", step) for k in range(2)]
            elif gid == "mix":
                ops.append((f"hcom_allGather__{gid}_0_1", gid, "collective", step))
                if rank == 0:
                    ops.append((f"hcom_send__{gid}_0_1", gid, "p2p", step))
            else:
                ops.append((f"hcom_broadcast__{gid}_0_1", gid, "collective", step))
    return ops


def ms(rng, lo, hi, digits=11):
    return round(rng.uniform(lo, hi), rng.randint(3, digits))


def profiler_db(path, rank):
    c = sqlite3.connect(path)
    c.executescript("""
CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, deviceId INTEGER, connectionId INTEGER, globalTaskId INTEGER,
  globalPid INTEGER, taskType INTEGER, contextId INTEGER, streamId INTEGER, taskId INTEGER, modelId INTEGER,
  depth INTEGER);
CREATE TABLE META_DATA (name TEXT, value TEXT);
CREATE TABLE HOST_INFO (hostUid TEXT, hostName TEXT);
CREATE TABLE RANK_DEVICE_MAP (rankId INTEGER, deviceId INTEGER);
""")
    info = {gid: {"group_name": pg, "group_rank": ranks.index(rank), "global_ranks": ranks}
            for gid, (pg, ranks, listed) in GROUPS.items() if listed and rank in ranks}
    c.execute("INSERT INTO META_DATA VALUES ('SCHEMA_VERSION', '1.0.0')")
    c.execute("INSERT INTO META_DATA VALUES ('parallel_group_info', ?)", (json.dumps(info),))
    c.execute("INSERT INTO HOST_INFO VALUES (?, ?)", ("7411" if rank < 2 else "7422", "hostA" if rank < 2 else "hostB"))
    c.execute("INSERT INTO RANK_DEVICE_MAP VALUES (?, ?)", (rank, rank + 4 if rank >= 2 else rank))
    c.commit()
    c.close()


ANALYSIS_SCHEMA = """
CREATE TABLE StepTraceTime (step TEXT, computing NUMERIC, communication_not_overlapped NUMERIC, overlapped NUMERIC,
  communication NUMERIC, free NUMERIC, stage NUMERIC, bubble NUMERIC,
  communication_not_overlapped_and_exclude_receive NUMERIC, preparing NUMERIC);
CREATE TABLE CommAnalyzerBandwidth (hccl_op_name TEXT, group_name TEXT, transport_type TEXT, transit_size NUMERIC,
  transit_time NUMERIC, bandwidth NUMERIC, large_packet_ratio NUMERIC, package_size NUMERIC, count NUMERIC,
  total_duration NUMERIC, step TEXT, type TEXT);
CREATE TABLE CommAnalyzerMatrix (hccl_op_name TEXT, group_name TEXT, src_rank TEXT, dst_rank TEXT,
  transport_type TEXT, transit_size NUMERIC, transit_time NUMERIC, bandwidth NUMERIC, step TEXT, type TEXT,
  op_name TEXT);
CREATE TABLE CommAnalyzerTime (hccl_op_name TEXT, group_name TEXT, start_timestamp NUMERIC, elapse_time NUMERIC,
  transit_time NUMERIC, wait_time NUMERIC, synchronization_time NUMERIC, idle_time NUMERIC, step TEXT, type TEXT);
"""


def time_rows(rng, rank):
    rows = []
    t = 1736410576400000.0 + 1000 * rank
    for op, gid, kind, step in ops_of(rank):
        t += ms(rng, 50, 900, 3)
        start = float(int(t)) if rng.random() < 0.3 else t  # some whole µs: stored as INTEGER
        elapse = ms(rng, 0.5, 90)
        transit = ms(rng, 0.1, elapse)
        wait = ms(rng, 0, elapse - transit)
        rows.append((op, name_of(gid), start, elapse, transit, wait, rng.randint(0, 3),
                     round(elapse - transit - wait, 9), step, kind))
    if rank == 3:
        rows.append(("hcom_allReduce__lost_0_1", None, t + 5.0, 1.25, 0.5, 0.25, 0, 0.5, "step8", "collective"))
    return rows


def bandwidth_rows(rng, rank):
    rows = []
    for op, gid, kind, step in ops_of(rank):
        for transport in ("HCCS", "SDMA") if kind == "collective" else ("RDMA",):
            size, time = ms(rng, 1, 300, 6), ms(rng, 0.01, 20)
            packages = [(ms(rng, 0.5, 20, 6), 12), (ms(rng, 0.5, 20, 6), 2)] if transport != "SDMA" else [(0, 0)]
            for package, count in packages:
                lpr = 0.5 if rank == 3 and transport == "RDMA" else 0
                rows.append((op, name_of(gid), transport, size, time, round(size / time, 4), lpr, package, count,
                             ms(rng, 0, time) if count else 0, step, kind))
    if rank == 1:
        rows.append(("hcom_allReduce__dp_a_0_1", name_of("dp_a"), "HCCS", 1.0, 0.5, 2.0, 0, None, 1, 0.25, "step7",
                     "collective"))
    return rows


def local_rank(gid, rank):
    return GROUPS[gid][1].index(rank)


def matrix_rows(rng, rank):
    rows = []
    for step in ("step7", "step8"):
        for gid, (pg, ranks, _) in GROUPS.items():
            if rank not in ranks or gid in ("mix", "tp_x"):
                continue
            me = local_rank(gid, rank)
            kind = "p2p" if pg == "pp" else "collective"
            families = ("send",) if kind == "p2p" else ("allreduce", "broadcast")
            peers = [local_rank(gid, r) for r in ranks] + ([5] if gid == "dp_a" else [])
            for family in families:
                for stat in ("top1", "middle", "bottom1", "total"):
                    for peer in peers:
                        if kind == "p2p" and peer != me and me != 0:
                            continue
                        size, time = ms(rng, 1, 60, 6), ms(rng, 0.005, 3)
                        transport = "LOCAL" if peer == me else ("RDMA" if kind == "p2p" else "HCCS")
                        op_name = None if stat == "total" and rank == 1 else (
                            "" if stat == "total" else f"hcom_{family}__{gid}_{rng.randint(0, 9)}_1")
                        rows.append((f"{family}-{stat}", name_of(gid), str(me), str(peer), transport, size, time,
                                     round(size / time, 4), step, kind, op_name))
    return rows


def analysis_db(path, rank):
    rng = random.Random(1000 + rank)
    c = sqlite3.connect(path)
    c.executescript(ANALYSIS_SCHEMA)
    for step in ("7", "8"):
        c.execute("INSERT INTO StepTraceTime VALUES (?,?,?,?,?,?,?,?,?,?)",
                  (step, ms(rng, 8000, 9000, 3), ms(rng, 80000, 99000, 3), ms(rng, 3000, 4100, 3),
                   ms(rng, 90000, 103000, 3), ms(rng, 20000, 26000, 3), ms(rng, 120000, 133000, 3), 0,
                   ms(rng, 80000, 99000, 3), ms(rng, 16000, 19000, 3)))
    c.executemany("INSERT INTO CommAnalyzerTime VALUES (?,?,?,?,?,?,?,?,?,?)", time_rows(rng, rank))
    if rank != 2:
        c.executemany("INSERT INTO CommAnalyzerBandwidth VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", bandwidth_rows(rng, rank))
    c.executemany("INSERT INTO CommAnalyzerMatrix VALUES (?,?,?,?,?,?,?,?,?,?,?)", matrix_rows(rng, rank))
    c.commit()
    c.close()


def main():
    out = sys.argv[1]
    for rank in reversed(range(RANKS)):  # on tmpfs, listed 0, 1, 2, 3 (newest first)
        d = os.path.join(out, f"rank{rank}_ascend_pt")
        o = os.path.join(d, "ASCEND_PROFILER_OUTPUT")
        os.makedirs(o)
        with open(os.path.join(d, f"profiler_info_{rank}.json"), "w") as f:
            json.dump({"config": {"common_config": {}}, "rank_id": rank}, f)
        if rank == 1:
            with open(os.path.join(d, "profiler_metadata.json"), "w") as f:
                json.dump({"distributed_args": {"world_size": "4", "backend": "hccl", "rank": 1, "ratio": 0.1,
                                                "flags": [True, None], "name": "t\u00e9st"}}, f)
        profiler_db(os.path.join(o, f"ascend_pytorch_profiler_{rank}.db"), rank)
        analysis_db(os.path.join(o, "analysis.db"), rank)


if __name__ == "__main__":
    main()
