"""CLI check: by default profdiff matches operators with a true LCS, which pairs more operators than
the reference's recurrence (--reference-compat) on B = [b, b, a, a], C = [a, a, b] (reference §8.4).

Runs on two tiny Kineto traces written here (no ../shared needed): the JSON result's match rate and
the OperatorCompare sheet read back with openpyxl.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import oracle_util as ou  # noqa: E402


def trace(names):
    events = []
    ts = 1000
    for n in names:
        events.append({"ph": "X", "cat": "cpu_op", "name": n, "pid": 1, "tid": 1, "ts": ts, "dur": 10})
        ts += 100
    return {"traceEvents": events}


def run(tmp, base, comp, extra, tag):
    out = os.path.join(tmp, f"{tag}.xlsx")
    rc, stdout, stderr = ou.run_profdiff(["compare", "-bp", base, "-d", comp, "--enable_operator_compare",
                                          "--format", "json", "-o", out, "-q"] + extra)
    if rc != 0:
        sys.exit(f"{tag}: profdiff exited {rc}: {stderr}")
    result = json.loads(stdout)
    wb = ou.read_xlsx(out)
    rows = ou.sheet_values(wb["OperatorCompare"])[3:]
    return result["operators"], rows


def main():
    try:
        import openpyxl  # noqa: F401
    except ImportError:
        print("SKIP: openpyxl is not installed")
        return ou.SKIP
    tmp = ou.tmpdir()
    base = os.path.join(tmp, "base.json")
    comp = os.path.join(tmp, "comp.json")
    with open(base, "w") as f:
        json.dump(trace(["b", "b", "a", "a"]), f)
    with open(comp, "w") as f:
        json.dump(trace(["a", "a", "b"]), f)
    errors = []
    exact, exact_rows = run(tmp, base, comp, [], "default")
    compat, compat_rows = run(tmp, base, comp, ["--reference-compat=8.2"], "compat")
    if exact["matching"] != "lcs" or compat["matching"] != "reference-compat":
        errors.append(f"matching: {exact['matching']!r}, {compat['matching']!r}")
    if exact["match_rate"]["matched"] != 2:
        errors.append(f"default matched {exact['match_rate']['matched']}, expected 2")
    if compat["match_rate"]["matched"] != 1:
        errors.append(f"reference-compat matched {compat['match_rate']['matched']}, expected 1")
    if len(exact_rows) != 5 or len(compat_rows) != 6:
        errors.append(f"OperatorCompare rows: default {len(exact_rows)} (expected 5), "
                      f"reference-compat {len(compat_rows)} (expected 6)")
    paired = [(r[1], r[6]) for r in exact_rows if r[1] and r[6]]
    if sorted(paired) != [("a", "a"), ("a", "a")] and sorted(paired) != [("a", "a"), ("b", "b")]:
        errors.append(f"default pairs {paired}")
    if abs(exact["match_rate"]["base"] - 0.5) > 1e-12 or abs(exact["match_rate"]["comparison"] - 2 / 3) > 1e-12:
        errors.append(f"default match rate {exact['match_rate']}")
    if not isinstance(exact.get("top_by_diff"), list) or len(exact.get("operator_statistic", [])) != 2:
        errors.append("JSON: top_by_diff / operator_statistic missing or wrong")
    # Without the operator comparison the key is null.
    rc, stdout, stderr = ou.run_profdiff(["compare", "-bp", base, "-d", comp, "--enable_profiling_compare",
                                          "--format", "json", "--no-xlsx", "-q"])
    if rc != 0 or json.loads(stdout).get("operators", "missing") is not None:
        errors.append(f"--enable_profiling_compare alone: rc {rc}, operators should be null")
    # On real data (when ../shared is there): the ResNet50 GPU trace vs the Ascend rank 0 profile,
    # the reference recurrence pairs 12 top-level operators, the true LCS 13.
    if os.path.isdir(ou.CORPUS):
        gpu = os.path.join(ou.CORPUS, "kineto_resnet50_v100_2021jun_devprops/resnet50_num_workers_0/"
                                      "worker0.1623143089861.pt.trace.json.gz")
        npu = os.path.join(ou.CORPUS, "msinsight_pt_text_2025_level1/rank0_ascend_pt")
        matched = {}
        for tag, extra in (("default", []), ("compat", ["--reference-compat=8.2"])):
            rc, stdout, stderr = ou.run_profdiff(["compare", "-bp", gpu, "-d", npu, "--enable_operator_compare",
                                                  "--format", "json", "--no-xlsx", "-q"] + extra)
            if rc != 0:
                errors.append(f"gpu_vs_npu {tag}: rc {rc}: {stderr[:300]}")
                continue
            matched[tag] = json.loads(stdout)["operators"]["match_rate"]["matched"]
        print(f"gpu_vs_npu matched operators: {matched}")
        if matched.get("compat") != 12 or not matched.get("default", 0) > matched.get("compat", 0):
            errors.append(f"gpu_vs_npu: expected the default to pair more than the reference's 12: {matched}")
    else:
        print(f"note: {ou.CORPUS} is absent; the real-data part of this test is skipped")
    for e in errors:
        print("FAIL:", e)
    print(f"default: {exact['match_rate']}; reference-compat: {compat['match_rate']}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
