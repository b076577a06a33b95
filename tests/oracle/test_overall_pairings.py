"""Every pairing of input kinds works end to end (issue #3): GPU vs GPU, GPU vs NPU, NPU vs GPU and
NPU vs NPU, with a Kineto trace (plain and .json.gz), an Ascend `*_ascend_pt` text profile directory,
an `ASCEND_PROFILER_OUTPUT` directory and a bare `trace_view.json` (trace level), in both arithmetic
modes.

For each run: exit 0, an OverallMetrics sheet whose last row is "E2E Time" and whose E2E cells equal
the JSON result's e2e, the screen table's row labels (GPU/NPU) and E2E header ("(Not minimal
profiling)" iff a side is NPU), the JSON deltas summing to the E2E delta, and each input's headline
numbers being the same whatever it is paired with and on whichever side it is (a side never depends
on the other side). In --reference-compat mode each input's E2E time must also equal the reference's
(from the oracle's OverallMetrics sheets).
"""
import itertools
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import oracle_util as u  # noqa: E402

C = "corpus/"
INPUTS = {
    # name: (path relative to ../shared, device, reference e2e in ms from the oracle)
    "kineto": (C + "kineto_h100_2026_tiny_uncompressed/before_fix_trace.json", "GPU", 2e-05),
    "kineto_gz": (C + "kineto_resnet50_v100_2021jun_devprops/resnet50_num_workers_0/"
                  "worker0.1623143089861.pt.trace.json.gz", "GPU", 994.1),
    "ascend_pt": (C + "msinsight_pt_text_2025_level1/rank0_ascend_pt", "NPU", 136.581009),
    "ascend_output": (C + "msinsight_pt_text_2025_level1/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT", "NPU",
                      131.912616),
    "trace_view": (C + "mstt_advisor_timeline_trace_view/trace_view.json", "NPU", 11.269917),
}
HEADLINE = ("e2e_ns", "computing_ns", "uncovered_communication_ns", "free_ns", "wait_ns")


def pairings():
    gpu = ["kineto", "kineto_gz"]
    npu = ["ascend_pt", "ascend_output", "trace_view"]
    out = [("kineto", "kineto_gz"), ("kineto_gz", "kineto")]           # GPU vs GPU
    out += [(g, n) for g in gpu for n in npu]                          # GPU base vs NPU comparison
    out += [(n, g) for n in npu for g in gpu]                          # NPU base vs GPU comparison
    out += list(itertools.product(npu, npu))                           # NPU vs NPU (incl. self)
    return out


def run(base, comp, compat, failures):
    d = u.tmpdir()
    xlsx, js = os.path.join(d, "x.xlsx"), os.path.join(d, "r.json")
    args = ["compare", "-bp", INPUTS[base][0], "-d", INPUTS[comp][0], "-o", xlsx, "--json", js, "-q",
            "--enable_profiling_compare"] + (["--reference-compat=8.2"] if compat else [])
    rc, stdout, stderr = u.run_profdiff(args, cwd=u.SHARED)
    where = f"{base} vs {comp} ({'compat' if compat else 'exact'})"
    if rc != 0:
        failures.append(f"{where}: exit {rc}: {stderr.strip()}")
        return None
    with open(js, encoding="utf-8") as f:
        res = json.load(f)
    sides = res["sides"]
    # Devices and screen.
    want = (INPUTS[base][1], INPUTS[comp][1])
    if (sides["base"]["label"], sides["comparison"]["label"]) != want:
        failures.append(f"{where}: side labels {sides['base']['label']}/{sides['comparison']['label']} != {want}")
    rows = [l for l in stdout.splitlines() if l.startswith("|")]
    labels = [r.strip("|").split("|")[0].strip() for r in rows[2:4]]
    if tuple(labels) != want:
        failures.append(f"{where}: screen row labels {labels} != {want}")
    npu = "NPU" in want
    e2e_header = rows[1].strip("|").split("|")[-1].strip()
    if e2e_header != ("E2E Time(Not minimal profiling)" if npu else "E2E Time"):
        failures.append(f"{where}: E2E header {e2e_header!r}")
    # Deltas sum to the E2E delta.
    deltas = res["deltas"]
    if sum(c["delta_ns"] for c in deltas["categories"]) != deltas["e2e_delta_ns"]:
        failures.append(f"{where}: deltas do not sum to the E2E delta")
    # Workbook.
    ws = u.read_xlsx(xlsx)["OverallMetrics"]
    vals = u.sheet_values(ws)
    last = vals[-1]
    if last[0] != "E2E Time":
        failures.append(f"{where}: last row {last[0]!r}")
    else:
        for col, side in ((1, "base"), (4, "comparison")):
            if abs(last[col] - sides[side]["e2e_ms"]) > 1e-9:
                failures.append(f"{where}: E2E cell {last[col]} != JSON {sides[side]['e2e_ms']}")
    if vals[2][0] != "Index":
        failures.append(f"{where}: header row {vals[2]}")
    return sides


def main():
    u.require_shared()
    failures = []
    for compat in (True, False):
        seen = {}  # input -> headline numbers
        for base, comp in pairings():
            sides = run(base, comp, compat, failures)
            if sides is None:
                continue
            for name, side in ((base, sides["base"]), (comp, sides["comparison"])):
                got = tuple(side[k] for k in HEADLINE)
                if name in seen and seen[name] != got:
                    failures.append(f"{name}: headline numbers depend on the pairing: {seen[name]} vs {got}")
                seen.setdefault(name, got)
                if compat and abs(side["e2e_ms"] - INPUTS[name][2]) > 1e-6:
                    failures.append(f"{name}: compat e2e {side['e2e_ms']} ms != reference {INPUTS[name][2]}")
        print(f"{'compat' if compat else 'exact'}: {len(pairings())} pairings run")
    u.finish(failures)


if __name__ == "__main__":
    main()
