"""The link matrix and the ops' bandwidth in profdiff's own JSON, screen and workbook (`links`;
`collectives.items[].arrivals[]` `transport`, `size_mb`, `bandwidth_gbps`: each rank's op takes its
communication.json (text) / CommAnalyzerBandwidth (DB) transport that moved the most, SDMA and LOCAL
aside). The link matrix: on the corpus's 2-rank runs,
text (from cluster_communication_matrix.json) and DB (from cluster_analysis.db's
ClusterCommunicationMatrix), the links are the `Total Op Info` entries those outputs hold, each with
its transport, size, time and bandwidth; the screen says how many and whether any is slow; the
workbook has a LinkMatrix sheet. A Kineto run has no link matrix: `links` is null.

Needs the corpus (../shared); exits 77 (skip) without it.
"""
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "common"))
from scenario_util import BIN, Checks, SHARED, SKIP, SRC  # noqa: E402
from py_checks import grid_rows, read_xlsx_grid  # noqa: E402

check = Checks()


def cluster(run, out):
    p = subprocess.run([BIN, "cluster", "-d", run, "-o", out, "--force"], capture_output=True, text=True)
    check(p.returncode == 0, f"{run}: exit {p.returncode}: {p.stderr}")
    with open(os.path.join(out, "profdiff_cluster.json")) as f:
        return json.load(f), p.stdout


def totals_of_json(path):
    with open(path) as f:
        doc = json.load(f)
    out = []
    for steps in doc.values():
        for step, ops in steps.items():
            for op, links in ops.items():
                if op.startswith("Total Op Info"):
                    for key, info in links.items():
                        src, dst = key.split("-")
                        out.append((step, op.split("@")[1], int(src), int(dst), info["Transport Type"],
                                    info["Bandwidth(GB/s)"]))
    return out


def totals_of_db(path):
    c = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
    try:
        return [(r[0], r[1], int(r[2]), int(r[3]), r[4], r[5]) for r in c.execute(
            "select step, group_name, src_rank, dst_rank, transport_type, bandwidth from ClusterCommunicationMatrix "
            "where hccl_op_name = 'Total Op Info'")]
    finally:
        c.close()


def expected_transfers(run, out):
    """op name -> (transport, size, bandwidth) of rank 0, from its own communication.json (text) or
    analysis.db (DB)."""
    best = {}
    def keep(op, transport, size, bw):
        if transport in ("SDMA", "LOCAL") or not size > 0:
            return
        if op not in best or size > best[op][1]:
            best[op] = (transport, size, bw)
    for root, _, files in os.walk(os.path.join(run, "rank0_ascend_pt")):
        if "communication.json" in files:
            with open(os.path.join(root, "communication.json")) as f:
                for step in json.load(f).values():
                    for kind in ("collective", "p2p"):
                        for name, v in step.get(kind, {}).items():
                            for transport, t in v.get("Communication Bandwidth Info", {}).items():
                                keep(name.split("@")[0], transport, t.get("Transit Size(MB)", 0), t.get("Bandwidth(GB/s)", 0))
        if "analysis.db" in files:
            c = sqlite3.connect(f"file:{os.path.join(root, 'analysis.db')}?immutable=1", uri=True)
            for op, transport, size, bw in c.execute(
                    "select hccl_op_name, transport_type, transit_size, bandwidth from CommAnalyzerBandwidth"):
                keep(op, transport, size, bw)
            c.close()
    return best


def check_bandwidth(run, out, j):
    want = expected_transfers(run, out)
    arrivals = [(c["name"], a) for c in j["collectives"]["items"] for a in c["arrivals"] if a["rank"] == 0]
    check(len(arrivals) == 4 and want, f"{run}: rank 0's collectives {len(arrivals)}, transfers {len(want)}")
    for name, a in arrivals:
        w = want.get(name)
        check(w is not None and (a.get("transport"), a.get("size_mb"), a.get("bandwidth_gbps")) == w,
              f"{run}: {name}: {a} vs the profile's {w}")


def main():
    text = os.path.join(SHARED, "corpus", "msinsight_pt_text_2025_level2")
    db = os.path.join(SHARED, "corpus", "msinsight_pt_db_2025_level2")
    if not os.path.isdir(text) or not os.path.isdir(db):
        print(f"SKIP: {text} or {db} is absent (../shared)")
        sys.exit(SKIP)
    tmp = tempfile.mkdtemp(prefix="profdiff_links_")
    try:
        for run, source, totals in (
                (text, "cluster_communication_matrix.json",
                 lambda out: totals_of_json(os.path.join(out, "cluster_analysis_output", "cluster_communication_matrix.json"))),
                (db, "ClusterCommunicationMatrix",
                 lambda out: totals_of_db(os.path.join(out, "cluster_analysis_output", "cluster_analysis.db")))):
            out = os.path.join(tmp, os.path.basename(run))
            j, screen = cluster(run, out)
            links = j.get("links") or {}
            check(links.get("source") == source, f"{run}: source {links.get('source')}")
            got = [(l["step"], l["group"], l["src"], l["dst"], l["transport"], l["bandwidth_gbps"])
                   for l in links.get("items", [])]
            want = totals(out)
            check(got == want and len(got) == 4, f"{run}: links {got} vs the matrix totals {want}")
            check(all(l["size_mb"] > 0 and l["time_ms"] > 0 for l in links.get("items", [])), f"{run}: sizes, times")
            check(links.get("slow") == [], f"{run}: no slow link: {links.get('slow')}")
            check("links: 4 src -> dst links" in screen and "HCCS" in screen, f"{run}: screen: {screen}")
            check_bandwidth(run, out, j)
            rows = grid_rows(read_xlsx_grid(os.path.join(out, "profdiff_cluster.xlsx")).get("LinkMatrix"), 4)
            check(len(rows) == 4 and [r[4] for r in rows].count("HCCS") == 2, f"{run}: the LinkMatrix sheet: {rows}")
        kineto = os.path.join(SRC, "tests", "data", "kineto_2rank_nccl")
        if os.path.isdir(kineto):
            j, _ = cluster(kineto, os.path.join(tmp, "kineto"))
            check(j.get("links") is None, f"a Kineto run has no link matrix: {j.get('links')}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    check.finish()


if __name__ == "__main__":
    main()
