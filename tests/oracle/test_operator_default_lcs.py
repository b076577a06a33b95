"""CLI check of the operator matching in each mode (docs/reference/operators.md#sequence-matching,
docs/deviations.md operator row 1).

By default profdiff matches operators with a true LCS. That pairs more operators than either line of
the reference on B = [b, b, a, a], C = [a, a, b] against the 8.2 recurrence
(--reference-compat=8.2: 1 pair), and it lists a gap's base-only items before its comparison-only
items, as the current reference (26.1, the bare --reference-compat, difflib's SequenceMatcher) does:
B = [a, b, c, d], C = [b, c, e] gives (a,−), (b,b), (c,c), (d,−), (−,e); 8.2 puts (−,e) before (d,−).

Runs on tiny Kineto traces written here (no ../shared needed): the JSON result's match rate and the
OperatorCompare sheet read back with openpyxl. With ../shared, also the ResNet50 GPU trace against
the Ascend rank 0 profile (oracle case gpu_vs_npu): 76 pairs by default (13 from the top-level LCS;
the rest inside the wrappers it drills into: "DistributedDataParallel.forward" around the NPU
forward pass, autograd wrappers; docs/deviations.md operator row "unmatched wrappers"), 12 by the
8.2 recurrence, 7 by 26.1's SequenceMatcher.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import oracle_util as ou  # noqa: E402

LINE_82 = "--reference-compat=8.2"
LINE_261 = "--reference-compat"


def trace(names):
    events = []
    ts = 1000
    for n in names:
        events.append({"ph": "X", "cat": "cpu_op", "name": n, "pid": 1, "tid": 1, "ts": ts, "dur": 10})
        ts += 100
    return {"traceEvents": events}


def write_pair(tmp, tag, base_names, comparison_names):
    paths = []
    for side, names in (("base", base_names), ("comp", comparison_names)):
        path = os.path.join(tmp, f"{tag}_{side}.json")
        with open(path, "w") as f:
            json.dump(trace(names), f)
        paths.append(path)
    return paths


def run(tmp, base, comp, extra, tag):
    out = os.path.join(tmp, f"{tag}.xlsx")
    rc, stdout, stderr = ou.run_profdiff(["compare", "-bp", base, "-d", comp, "--enable_operator_compare",
                                          "--format", "json", "-o", out, "-q"] + extra)
    if rc != 0:
        sys.exit(f"{tag}: profdiff exited {rc}: {stderr}")
    result = json.loads(stdout)
    wb = ou.read_xlsx(out)
    rows = ou.sheet_values(wb["OperatorCompare"])[3:]
    return result, rows


def pairs_of(rows):
    """The sheet's (base name, comparison name) per row, '-' for a missing side."""
    return [(r[1] or "-", r[6] or "-") for r in rows]


def check_small_pairs(tmp, errors):
    base, comp = write_pair(tmp, "lcs", ["b", "b", "a", "a"], ["a", "a", "b"])
    exact, exact_rows = run(tmp, base, comp, [], "default")
    current, current_rows = run(tmp, base, comp, [LINE_261], "current")
    old, old_rows = run(tmp, base, comp, [LINE_82], "old")
    if exact["operators"]["matching"] != "lcs" or current["operators"]["matching"] != "sequence-matcher":
        errors.append(f"matching: {exact['operators']['matching']!r}, {current['operators']['matching']!r}")
    if exact["operators"]["match_rate"]["matched"] != 2 or len(exact_rows) != 5:
        errors.append(f"default: {exact['operators']['match_rate']}, {len(exact_rows)} rows (expected 2 pairs, 5 rows)")
    paired = sorted(p for p in pairs_of(exact_rows) if "-" not in p)
    if paired not in ([("a", "a"), ("a", "a")], [("b", "b"), ("b", "b")]):
        errors.append(f"default pairs {paired}")
    m = exact["operators"]["match_rate"]
    if abs(m["base"] - 0.5) > 1e-12 or abs(m["comparison"] - 2 / 3) > 1e-12:
        errors.append(f"default match rate {m}")
    if pairs_of(current_rows) != [("b", "-"), ("b", "-"), ("a", "a"), ("a", "a"), ("-", "b")]:
        errors.append(f"26.1 (SequenceMatcher) rows {pairs_of(current_rows)}")
    ops = exact["operators"]
    if not isinstance(ops.get("top_by_diff"), list) or len(ops.get("operator_statistic", [])) != 2:
        errors.append("JSON: top_by_diff / operator_statistic missing or wrong")
    if old.get("reference_line") != "8.2":
        errors.append(f"8.2 run: JSON reference_line is {old.get('reference_line')!r}")
    if old["operators"]["matching"] != "reference-compat" or old["operators"]["match_rate"]["matched"] != 1 \
            or len(old_rows) != 6:
        errors.append(f"8.2: {old['operators']['matching']!r}, {old['operators']['match_rate']}, {len(old_rows)} rows "
                      "(expected the recurrence, 1 pair, 6 rows)")


def check_gap_order(tmp, errors):
    base, comp = write_pair(tmp, "gap", ["a", "b", "c", "d"], ["b", "c", "e"])
    base_first = [("a", "-"), ("b", "b"), ("c", "c"), ("d", "-"), ("-", "e")]
    runs = [("default", []), ("26.1", [LINE_261]), ("8.2", [LINE_82])]
    for tag, extra in runs:
        _, rows = run(tmp, base, comp, extra, "gap_" + tag.replace(".", "_"))
        want = base_first if tag != "8.2" else [("a", "-"), ("b", "b"), ("c", "c"), ("-", "e"), ("d", "-")]
        if pairs_of(rows) != want:
            errors.append(f"gap order {tag}: rows {pairs_of(rows)}, expected {want}")


def check_real_data(errors):
    if not os.path.isdir(ou.CORPUS):
        print(f"note: {ou.CORPUS} is absent; the real-data part of this test is skipped")
        return
    gpu = os.path.join(ou.CORPUS, "kineto_resnet50_v100_2021jun_devprops/resnet50_num_workers_0/"
                                  "worker0.1623143089861.pt.trace.json.gz")
    npu = os.path.join(ou.CORPUS, "msinsight_pt_text_2025_level1/rank0_ascend_pt")
    want = {"default": 76, "26.1": 7, "8.2": 12}
    runs = [("default", []), ("26.1", [LINE_261]), ("8.2", [LINE_82])]
    matched = {}
    for tag, extra in runs:
        rc, stdout, stderr = ou.run_profdiff(["compare", "-bp", gpu, "-d", npu, "--enable_operator_compare",
                                              "--format", "json", "--no-xlsx", "-q"] + extra)
        if rc != 0:
            errors.append(f"gpu_vs_npu {tag}: rc {rc}: {stderr[:300]}")
            continue
        matched[tag] = json.loads(stdout)["operators"]["match_rate"]["matched"]
    print(f"gpu_vs_npu matched operators: {matched}")
    if matched != want:
        errors.append(f"gpu_vs_npu: matched {matched}, expected {want}")


def main():
    try:
        import openpyxl  # noqa: F401
    except ImportError:
        print("SKIP: openpyxl is not installed")
        return ou.SKIP
    tmp = ou.tmpdir()
    errors = []
    check_small_pairs(tmp, errors)
    check_gap_order(tmp, errors)
    # Without the operator comparison the key is null.
    base, comp = write_pair(tmp, "none", ["a"], ["a"])
    rc, stdout, stderr = ou.run_profdiff(["compare", "-bp", base, "-d", comp, "--enable_profiling_compare",
                                          "--format", "json", "--no-xlsx", "-q"])
    if rc != 0 or json.loads(stdout).get("operators", "missing") is not None:
        errors.append(f"--enable_profiling_compare alone: rc {rc}, operators should be null")
    check_real_data(errors)
    for e in errors:
        print("FAIL:", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
