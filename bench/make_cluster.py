#!/usr/bin/env python3
"""Makes a synthetic distributed run of N Kineto ranks from one real rank's trace, with an injected
straggler and a slow collective, for `profdiff cluster` tests and benches.

    bench/make_cluster.py SOURCE OUT_DIR --ranks N [--straggler R --delay-ms D --collective K]
                          [--slow-link-ms S --slow-collective J] [--gzip]

SOURCE is a Kineto trace (.json or .json.gz) with NCCL kernels (e.g. the corpus's
hta_trace_filter/sampled_rank-0.json.gz, or any rank of a real run, for real per-rank sizes). Every
rank is a copy of it with `distributedInfo` saying its rank and the world size N, written as
OUT_DIR/rank<r>.json[.gz].

--straggler R: rank R computes D ms longer right before the K-th collective (NCCL kernel, 0-based, in
time order): the compute kernel that ends last before it lasts D ms more, and everything after it
starts D ms later; every other rank waits: its K-th collective lasts D ms more, and everything after it
starts D ms later. All ranks thus end the collective together, as a synchronous job does, and the
step is D ms longer.

--slow-link-ms S: the J-th collective (default the last) takes S ms more on every rank (a slow link:
nobody waits for anybody, the transfer itself is slower).

Without --straggler and --slow-link-ms the ranks are identical: the base run of the same job.
"""
import argparse
import gzip
import json
import os
import sys


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def events_of(doc):
    return doc["traceEvents"] if isinstance(doc, dict) else doc


def is_kernel(e):
    return e.get("ph") == "X" and str(e.get("cat", "")).lower() == "kernel"


def is_collective(e):
    return is_kernel(e) and "nccl" in str(e.get("name", "")).lower()


def collectives(events):
    return sorted((e for e in events if is_collective(e)), key=lambda e: e["ts"])


def insert_gap(events, at_us, gap_us):
    """Every event that starts at or after `at_us` starts `gap_us` later; one that spans it lasts longer."""
    for e in events:
        ts = e.get("ts")
        if not isinstance(ts, (int, float)) or e.get("ph") == "M":
            continue
        if ts >= at_us:
            e["ts"] = ts + gap_us
        elif isinstance(e.get("dur"), (int, float)) and ts + e["dur"] > at_us:
            e["dur"] = e["dur"] + gap_us


def straggle(events, collective, delay_us, straggler):
    """The straggler's compute before the collective lasts longer; the others wait in it."""
    c = collectives(events)[collective]
    if straggler:
        before = [e for e in events if is_kernel(e) and not is_collective(e) and e["ts"] + e.get("dur", 0) <= c["ts"]]
        if not before:
            sys.exit(f"no compute kernel ends before collective {collective}")
        last = max(before, key=lambda e: e["ts"] + e.get("dur", 0))
        insert_gap(events, last["ts"] + last.get("dur", 0) - min(1, last.get("dur", 0) / 2), delay_us)
    else:
        insert_gap(events, c["ts"] + min(1, c.get("dur", 0) / 2), delay_us)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("source")
    ap.add_argument("out_dir")
    ap.add_argument("--ranks", type=int, required=True)
    ap.add_argument("--straggler", type=int)
    ap.add_argument("--delay-ms", type=float, default=20.0)
    ap.add_argument("--collective", type=int, default=0)
    ap.add_argument("--slow-link-ms", type=float, default=0.0)
    ap.add_argument("--slow-collective", type=int, default=-1)
    ap.add_argument("--gzip", action="store_true")
    a = ap.parse_args()
    source = load(a.source)
    if not collectives(events_of(source)):
        sys.exit(f"{a.source}: no NCCL kernel (cat 'kernel', a name with 'nccl'): no collective to inject at")
    text = json.dumps(source)
    os.makedirs(a.out_dir, exist_ok=True)
    # At most three distinct ranks (the straggler, the others, or all alike): each variant is made
    # once with a placeholder rank, then written per rank (a 256-rank run of a 54 MB rank in minutes).
    variants = {}
    for rank in range(a.ranks):
        kind = "straggler" if rank == a.straggler else "other"
        if kind not in variants:
            variants[kind] = variant(text, a, kind == "straggler")
        name = os.path.join(a.out_dir, f"rank{rank}.json" + (".gz" if a.gzip else ""))
        body = variants[kind].replace('"rank": "__RANK__"', f'"rank": {rank}', 1)
        if a.gzip:
            with gzip.open(name, "wt", encoding="utf-8", compresslevel=1) as f:
                f.write(body)
        else:
            with open(name, "w", encoding="utf-8") as f:
                f.write(body)


def variant(text, a, straggler):
    """One rank's trace as text, its rank a placeholder."""
    doc = json.loads(text)
    events = events_of(doc)
    if isinstance(doc, dict):
        info = dict(doc.get("distributedInfo") or {})
        info.update({"rank": "__RANK__", "world_size": a.ranks})
        doc["distributedInfo"] = info
    if a.straggler is not None:
        straggle(events, a.collective, round(a.delay_ms * 1000), straggler)
    if a.slow_link_ms:
        c = collectives(events)[a.slow_collective]
        insert_gap(events, c["ts"] + min(1, c.get("dur", 0) / 2), round(a.slow_link_ms * 1000))
    return json.dumps(doc)

if __name__ == "__main__":
    main()
