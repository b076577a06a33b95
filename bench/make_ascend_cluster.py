#!/usr/bin/env python3
"""Makes a synthetic distributed run of N Ascend ranks (DB exports) from one real rank, with an injected
straggler, for `profdiff cluster` tests and benches (bench/make_cluster.py does the same for Kineto).

    bench/make_ascend_cluster.py SOURCE_RANK_DIR OUT_DIR --ranks N [--straggler R --delay-ms D --collective K]

SOURCE_RANK_DIR is an Ascend rank folder of a DB export (`*_ascend_pt` with profiler_info_<n>.json and
ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_<n>.db, analysis.db beside it), e.g. the corpus's
msinsight_pt_db_2025_level2/rank0_ascend_pt. It is read as an immutable file (SQLite's backup API;
a -wal beside it is not applied: take a rank without one) and never changed. Every rank is a copy as OUT_DIR/rank<r>_ascend_pt with its
rank in the file names, profiler_info and RANK_DEVICE_MAP.

--straggler R: rank R computes D ms longer right before the K-th communication op (COMMUNICATION_OP,
0-based, by start): the task that ends last before it lasts D ms more, and every time after it in the
profile (every *Ns column of the DB's tables) is D ms later; every other rank waits: its K-th
communication op lasts D ms more, and every time after its start is D ms later. analysis.db's
StepTraceTime says the same: the straggler's computing, the others' communication (not overlapped)
D ms more. Without --straggler the ranks are identical: the base run of the same job.

--jitter-us J: every communication op of every rank lasts up to J µs longer (a fixed pseudo-random amount
per rank and op, the same on every run), and every time after it is that much later, so the ranks' op
durations differ as on a real cluster (the slow-rank vote's outlier tests need distinct values).
"""
import argparse
import json
import os
import re
import sqlite3
import sys


def copy_db(src, dst):
    s = sqlite3.connect(f"file:{src}?immutable=1", uri=True)
    d = sqlite3.connect(dst)
    s.backup(d)
    s.close()
    d.execute("PRAGMA journal_mode=DELETE")
    return d


def time_columns(db):
    """(table, column) of every integer time column: names ending in 'Ns'."""
    out = []
    for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
        for row in db.execute(f"PRAGMA table_info('{table}')"):
            if row[1].endswith("Ns"):
                out.append((table, row[1]))
    return out


def insert_gap(db, at_ns, gap_ns):
    """Every time at or after `at_ns` is `gap_ns` later; an end after it too (what spans it lasts longer)."""
    for table, col in time_columns(db):
        op = ">" if col.lower().startswith("end") else ">="
        db.execute(f'UPDATE "{table}" SET "{col}" = "{col}" + ? WHERE "{col}" {op} ?', (gap_ns, at_ns))


def gap_point(db, collective, straggler):
    ops = db.execute("SELECT startNs, endNs FROM COMMUNICATION_OP ORDER BY startNs").fetchall()
    if collective >= len(ops):
        sys.exit(f"the source has {len(ops)} communication ops: no op {collective}")
    start = ops[collective][0]
    if not straggler:
        return start + 1
    row = db.execute("SELECT MAX(endNs) FROM TASK WHERE endNs <= ? AND startNs < endNs", (start,)).fetchone()
    if row[0] is None:
        sys.exit(f"no task ends before communication op {collective}")
    return row[0] - 1


def jitter_ns(rank, op, jitter_us):
    """A fixed pseudo-random 0..jitter_us µs (in ns) for one op of one rank."""
    return ((rank * 2654435761 + op * 40503 + 12345) % 1000003) % (int(jitter_us * 1000) + 1)


def add_jitter(db, rank, jitter_us):
    ops = db.execute("SELECT startNs FROM COMMUNICATION_OP ORDER BY startNs").fetchall()
    for k in reversed(range(len(ops))):  # the last first: an earlier gap then moves the later ops whole
        insert_gap(db, ops[k][0] + 1, jitter_ns(rank, k, jitter_us))


def adjust_step_trace(analysis_db, straggler, delay_us):
    cols = [r[1] for r in analysis_db.execute("PRAGMA table_info('StepTraceTime')")]
    if not cols:
        return
    if straggler:
        analysis_db.execute("UPDATE StepTraceTime SET computing = computing + ?", (delay_us,))
    else:
        analysis_db.execute("UPDATE StepTraceTime SET communication_not_overlapped = communication_not_overlapped + ?, "
                            "communication = communication + ?", (delay_us, delay_us))


def make_rank(src_dir, out_dir, rank, args, kind):
    src_out = os.path.join(src_dir, "ASCEND_PROFILER_OUTPUT")
    src_db = next(f for f in os.listdir(src_out) if re.match(r"ascend_pytorch_profiler(_\d+)?\.db$", f))
    info = next(f for f in os.listdir(src_dir) if re.match(r"profiler_info(_\d+)?\.json$", f))
    rank_dir = os.path.join(out_dir, f"rank{rank}_ascend_pt")
    out = os.path.join(rank_dir, "ASCEND_PROFILER_OUTPUT")
    os.makedirs(out)
    with open(os.path.join(src_dir, info)) as f:
        doc = json.load(f)
    if "rank_id" in doc:
        doc["rank_id"] = rank
    with open(os.path.join(rank_dir, f"profiler_info_{rank}.json"), "w") as f:
        json.dump(doc, f, indent=4)
    db = copy_db(os.path.join(src_out, src_db), os.path.join(out, f"ascend_pytorch_profiler_{rank}.db"))
    analysis = copy_db(os.path.join(src_out, "analysis.db"), os.path.join(out, "analysis.db")) \
        if os.path.exists(os.path.join(src_out, "analysis.db")) else None
    if kind != "base":
        delay_ns = round(args.delay_ms * 1e6)
        insert_gap(db, gap_point(db, args.collective, kind == "straggler"), delay_ns)
        if analysis is not None:
            adjust_step_trace(analysis, kind == "straggler", delay_ns / 1000)
    if args.jitter_us:
        add_jitter(db, rank, args.jitter_us)
    if db.execute("SELECT name FROM sqlite_master WHERE name = 'RANK_DEVICE_MAP'").fetchone():
        db.execute("UPDATE RANK_DEVICE_MAP SET rankId = ?", (rank,))
    for d in (db, analysis):
        if d is not None:
            d.commit()
            d.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("source_rank_dir")
    ap.add_argument("out_dir")
    ap.add_argument("--ranks", type=int, required=True)
    ap.add_argument("--straggler", type=int)
    ap.add_argument("--delay-ms", type=float, default=20.0)
    ap.add_argument("--collective", type=int, default=0)
    ap.add_argument("--jitter-us", type=float, default=0.0)
    a = ap.parse_args()
    for rank in range(a.ranks):
        kind = "base" if a.straggler is None else ("straggler" if rank == a.straggler else "waiter")
        make_rank(a.source_rank_dir, a.out_dir, rank, a, kind)


if __name__ == "__main__":
    main()
