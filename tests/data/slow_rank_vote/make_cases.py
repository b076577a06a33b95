#!/usr/bin/env python3
"""Makes cases.json: inputs of the reference's slow-rank vote (msprof-analyze `cluster -m slow_rank`) and
what the reference itself computes for them, for tests/analysis/cluster/slow_rank_vote_test.cc.

    REF=/path/to/msprof-analyze-sources tests/data/slow_rank_vote/make_cases.py > tests/data/slow_rank_vote/cases.json

REF is a checkout of Ascend/msprof-analyze (26.1 line, commit 8399c1cd here); its SlowRankVoteAnalysis is run
on each case's rows exactly as its recipe runs it (one pandas DataFrame of rankId, groupName, opName,
startNs, communication_time = (endNs - startNs) / 1000.0 µs, the ranks' rows one rank after the other), and
its text export (`--export_type text`: rank_stats.csv, slow_op_stats.csv after its unit conversion) is
written with its own helpers. The rows are random but seeded: running this again gives the same file.
"""
import io
import json
import os
import random
import sys

import pandas as pd

sys.path.insert(0, os.environ["REF"])
from msprof_analyze.cluster_analyse.recipes.slow_rank.slow_rank import SlowRankVoteAnalysis  # noqa: E402
from msprof_analyze.cluster_analyse.common_func.utils import convert_unit  # noqa: E402


def make_rows(rng, ranks, groups, ops, base_us, jitter_us, slow=None, high=None, skip=None, p2p=False):
    """rows: (rank, group, op, start_ns, end_ns). slow: {(group, op): (rank, how much shorter, ns)},
    high: {(group, op): (rank, how much longer)}, skip: (rank, group, op) left out (an uneven group)."""
    rows = []
    for r in ranks:
        t = 1_700_000_000_000_000_000 + rng.randrange(0, 1000)
        for g in groups:
            for k in range(ops):
                name = f"hcom_allReduce__{g[-3:]}_{k}_1"
                t += rng.randrange(1000, 50_000)
                if skip and (r, g, k) in skip:
                    continue
                dur = base_us * 1000 + rng.randrange(0, jitter_us * 1000 + 1)
                if slow and (g, k) in slow and slow[(g, k)][0] == r:
                    dur = max(1, dur - slow[(g, k)][1])
                if high and (g, k) in high and high[(g, k)][0] == r:
                    dur += high[(g, k)][1]
                rows.append((r, g, name, t, t + dur))
                t += dur
            if p2p:
                for name in (f"hcom_send__{g[-3:]}_0_1", f"hcom_receive__{g[-3:]}_0_1", f"hcom_BatchSendRecv__{g[-3:]}_1"):
                    t += 10_000
                    dur = rng.randrange(1000, 90_000) if r % 3 else 5
                    rows.append((r, g, name, t, t + dur))
                    t += dur
    return rows


def run_reference(rows):
    df = pd.DataFrame([{"rankId": r, "groupName": g, "opName": o, "startNs": s,
                        "communication_time": (e - s) / 1000.0} for r, g, o, s, e in rows],
                      columns=["rankId", "groupName", "opName", "startNs", "communication_time"])
    perpector, stats = SlowRankVoteAnalysis(df).run()
    out = {"votes": [[int(i), int(v)] for i, v in perpector["slowAffectCount"].items()],
           "stats": [], "rank_stats_csv": "", "slow_op_stats_csv": ""}
    if perpector.empty:
        return out
    for rec in stats.to_dict("records"):
        out["stats"].append({k: (repr(float(v)) if isinstance(v, float) else (int(v) if not isinstance(v, str) else v))
                             for k, v in rec.items()})
    buf = io.StringIO()
    convert_unit(perpector, "Ns", "Us", 1000.0).to_csv(buf, index=True)
    out["rank_stats_csv"] = buf.getvalue()
    buf = io.StringIO()
    convert_unit(stats, "Ns", "Us", 1000.0).to_csv(buf, index=False)
    out["slow_op_stats_csv"] = buf.getvalue()
    return out


def cases():
    rng = random.Random(20261128)
    g1, g2 = "10.0.0.1%eth0_60000_0_1736414082311975", "10.0.0.1%eth0_60001_0_1736414082312999"
    yield "dixon_8_ranks", make_rows(rng, range(8), [g1], 6, 800, 40, slow={(g1, 1): (5, 500_000), (g1, 4): (2, 700_000)})
    yield "dixon_5_ranks_p2p_and_uneven_group", make_rows(
        rng, range(5), [g1, g2], 4, 300, 30, slow={(g1, 0): (3, 250_000), (g2, 2): (1, 280_000)},
        skip={(4, g2, 3)}, p2p=True)
    yield "dixon_9_ranks", make_rows(rng, range(9), [g1], 5, 500, 20, slow={(g1, 2): (7, 300_000)})
    yield "dixon_12_ranks", make_rows(rng, range(12), [g1], 5, 500, 20, slow={(g1, 3): (0, 400_000)})
    yield "dixon_40_ranks", make_rows(rng, range(40), [g1, g2], 3, 900, 60,
                                      slow={(g1, 0): (39, 600_000), (g2, 1): (17, 700_000)})
    yield "few_distinct_values", [(r, g1, "hcom_allGather__975_0_1", 1_000 * r, 1_000 * r + (10_000 if r else 2_000))
                                  for r in range(6)]
    yield "three_sigma_120_ranks", make_rows(
        rng, range(120), [g1], 4, 700, 30, slow={(g1, 1): (77, 600_000)}, high={(g1, 2): (13, 9_000_000)})
    yield "three_sigma_101_ranks_no_outlier", make_rows(rng, range(101), [g1], 2, 700, 30)


def main():
    doc = {"generator": "tests/data/slow_rank_vote/make_cases.py",
           "reference": "msprof-analyze 26.1 line (commit 8399c1cd), SlowRankVoteAnalysis",
           "cases": []}
    for name, rows in cases():
        doc["cases"].append({"name": name, "rows": [list(r) for r in rows], "expected": run_reference(rows)})
    json.dump(doc, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
