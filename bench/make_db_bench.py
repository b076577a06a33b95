#!/usr/bin/env python3
"""Grows a corpus Ascend DB export into a large one for the DB loading benchmark (issue #9).

    bench/make_db_bench.py [--tasks N] [--source DB] OUT_DIR

Copies the source ascend_pytorch_profiler_*.db (default: the msinsight level1 rank 0 DB export of
../shared/corpus) to OUT_DIR/db_bench_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db
and appends time-shifted copies of the tables profdiff reads until TASK holds about N rows (default
5,000,000): each round copies every row of TASK, COMPUTE_TASK_INFO, TASK_PMU_INFO,
COMMUNICATION_OP, COMMUNICATION_TASK_INFO, PYTORCH_API, CONNECTION_IDS, OP_MEMORY and
MEMORY_RECORD once more, after the last one in time, with fresh task, op and connection ids (the
last round copies only the rows of the earliest part of the capture, to land near N). The other
tables stay as they are; STEP_TIME keeps its step. The source is opened read-only and immutable
(never changed); the output is made once (delete it to make it again). Python 3 standard library.
"""
import argparse
import os
import shutil
import sqlite3
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SOURCE = os.path.join(HERE, "..", "..", "shared", "corpus", "msinsight_pt_db_2025_level1", "rank0_ascend_pt",
                              "ASCEND_PROFILER_OUTPUT", "ascend_pytorch_profiler_0.db")

# table -> (time columns, task-id columns, op-id columns, connection-id columns, API-link columns)
TABLES = {
    "TASK": (["startNs", "endNs"], ["globalTaskId"], [], ["connectionId"], []),
    "COMPUTE_TASK_INFO": ([], ["globalTaskId"], [], [], []),
    "TASK_PMU_INFO": ([], ["globalTaskId"], [], [], []),
    "COMMUNICATION_OP": (["startNs", "endNs"], [], ["opId"], ["connectionId"], []),
    "COMMUNICATION_TASK_INFO": ([], ["globalTaskId"], ["opId"], [], []),
    "PYTORCH_API": (["startNs", "endNs"], [], [], [], ["connectionId"]),
    "CONNECTION_IDS": ([], [], [], ["connectionId"], ["id"]),
    "OP_MEMORY": (["allocationTime", "releaseTime"], [], [], [], []),
    "MEMORY_RECORD": (["timestamp"], [], [], [], []),
}
# The column that dates a row of each table for the partial last round (None: rows follow their task/op).
DATE = {"TASK": "startNs", "COMMUNICATION_OP": "startNs", "PYTORCH_API": "startNs", "OP_MEMORY": "allocationTime",
        "MEMORY_RECORD": "timestamp"}


def columns(db, table):
    return [r[1] for r in db.execute(f"PRAGMA table_info({table})")]


def scalar(db, sql):
    v = db.execute(sql).fetchone()[0]
    return int(v) if v is not None else 0


def copy_round(db, tables, shift_ns, task_off, op_off, conn_off, api_off, cutoff_ns):
    """Appends one shifted copy of every table; with cutoff_ns only rows dated before it (and the
    task/op rows of the copied tasks/ops)."""
    for table in tables:
        times, tasks, ops, conns, apis = TABLES[table]
        cols = columns(db, table)
        exprs = []
        for c in cols:
            if c in times:
                # PYTORCH_API keeps its times as text, as a real export does.
                cast = "CAST(CAST({0} AS INTEGER) + {1} AS TEXT)" if table == "PYTORCH_API" else "{0} + {1}"
                exprs.append(f"CASE WHEN {c} IS NULL THEN NULL ELSE {cast.format(c, shift_ns)} END")
            elif c in tasks:
                exprs.append(f"{c} + {task_off}")
            elif c in ops:
                exprs.append(f"{c} + {op_off}")
            elif c in conns:
                exprs.append(f"CASE WHEN {c} IS NULL THEN NULL ELSE {c} + {conn_off} END")
            elif c in apis:
                exprs.append(f"CASE WHEN {c} IS NULL THEN NULL ELSE {c} + {api_off} END")
            else:
                exprs.append(c)
        where = ""
        if cutoff_ns is not None:
            if table in DATE:
                where = f" WHERE CAST({DATE[table]} AS INTEGER) < {cutoff_ns}"
            elif tasks:
                where = f" WHERE {tasks[0]} IN (SELECT globalTaskId FROM TASK WHERE startNs < {cutoff_ns})"
            elif table == "CONNECTION_IDS":
                where = (" WHERE id IN (SELECT connectionId FROM PYTORCH_API "
                         f"WHERE CAST(startNs AS INTEGER) < {cutoff_ns})")
        db.execute(f"INSERT INTO {table} ({', '.join(cols)}) SELECT {', '.join(exprs)} FROM {table}{where}")


def grow(path, target_tasks):
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=OFF")
    db.execute("PRAGMA synchronous=OFF")
    tables = [t for t in TABLES if scalar(db, f"SELECT count(*) FROM sqlite_master WHERE name='{t}'")]
    while True:
        n = scalar(db, "SELECT count(*) FROM TASK")
        if n >= target_tasks or n == 0:
            break
        t0 = min(scalar(db, "SELECT min(startNs) FROM TASK"), scalar(db, "SELECT min(CAST(startNs AS INTEGER)) "
                                                                       "FROM PYTORCH_API"))
        t1 = max(scalar(db, "SELECT max(endNs) FROM TASK"), scalar(db, "SELECT max(CAST(endNs AS INTEGER)) "
                                                                     "FROM PYTORCH_API"))
        shift = t1 - t0 + 1000
        cutoff = None
        if 2 * n > target_tasks:  # the last round: the earliest part of the capture only
            cutoff = t0 + (t1 - t0) * (target_tasks - n) // n
        copy_round(db, tables, shift,
                   scalar(db, "SELECT max(globalTaskId) FROM TASK") + 1,
                   scalar(db, "SELECT max(opId) FROM COMMUNICATION_OP") + 1 if "COMMUNICATION_OP" in tables else 0,
                   scalar(db, "SELECT max(connectionId) FROM CONNECTION_IDS") + 1,
                   scalar(db, "SELECT max(id) FROM CONNECTION_IDS") + 1, cutoff)
        db.commit()
        print(f"  TASK rows: {scalar(db, 'SELECT count(*) FROM TASK'):,}", flush=True)
        if cutoff is not None:
            break
    db.execute("VACUUM")
    db.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out_dir")
    ap.add_argument("--tasks", type=int, default=5_000_000)
    ap.add_argument("--source", default=DEFAULT_SOURCE)
    a = ap.parse_args()
    if not os.path.isfile(a.source):
        print(f"missing {a.source} (the shared corpus must be at ../shared)", file=sys.stderr)
        return 3
    out_dir = os.path.join(a.out_dir, "db_bench_ascend_pt", "ASCEND_PROFILER_OUTPUT")
    out = os.path.join(out_dir, "ascend_pytorch_profiler_0.db")
    if os.path.exists(out):
        print(f"have {out}")
        return 0
    os.makedirs(out_dir, exist_ok=True)
    tmp = out + ".part"
    # Read through SQLite's backup API from an immutable read-only connection: no -wal/-shm beside
    # the source, nothing written there.
    src = sqlite3.connect(f"file:{os.path.abspath(a.source)}?mode=ro&immutable=1", uri=True)
    dst = sqlite3.connect(tmp)
    src.backup(dst)
    src.close()
    dst.close()
    print(f"making {out} (~{a.tasks:,} TASK rows)")
    grow(tmp, a.tasks)
    os.replace(tmp, out)
    print(f"{out}: {os.path.getsize(out) / 1e6:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
