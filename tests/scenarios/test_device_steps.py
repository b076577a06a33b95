#!/usr/bin/env python3
"""Step time as the device sees it (docs/deviations.md "Steps as the device ran them").

A copy of a real trace with every GPU event stretched 1.5x about the first kernel and every CPU
event untouched is a 50 % slower GPU: the gate must say REGRESSION (exit 1). Timed by the host's
ProfilerStep windows it would pass (the host windows do not move). Two traces: one with GPU-side
step markers (`gpu_user_annotation` ProfilerStep#N: the step is their span) and one without (the
step is the span of the device work each host step launched). The unchanged pair passes.
"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import scenario_util as u  # noqa: E402

BUNDLED_NO_MARKERS = os.path.join(u.SRC, "tests/data/kineto_resnet50_v100/worker0.1623143089861.pt.trace.json.gz")
# (trace, whether more than 5 % of its device busy time lies outside its steps, whether the step is
# exactly the GPU-side marker's span). The Qwen capture starts inside the step before
# ProfilerStep#6, whose kernels (13.3 of 43.1 ms) have no marker. The MI250 training step's marker
# covers the main thread's kernels only (Kineto derives it from the annotated thread's launches):
# the backward thread's kernels of that step run after it, and the step's window holds them.
CORPUS_MARKERS = [
    ("corpus/tracelens_h100_vs_mi300_hf_models/h100/Falconsai_nsfw_image_detection__1016002.json.gz", False, True),
    ("corpus/tracelens_h100_vs_mi300_hf_models/mi300/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz", True, True),
    ("corpus/hta_amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz", False, False),
]
MI250_STEP_NS = 4203669612366093 - 4203669603454205  # the marker's start to the last backward kernel's end


def compare(tmp, base, comparison, extra, rc):
    out = os.path.join(tmp, f"r{len(os.listdir(tmp))}.json")
    p = u.run(["compare", "-d", comparison, "-bp", base, "--no-xlsx", "--json", out, "--color", "never",
               "--gate-e2e", "5", "--gate-compute", "5"] + extra, check_rc=rc)
    with open(out, encoding="utf-8") as f:
        return p, json.load(f)


def check_stretched(path, expect_source, work_outside=False, marker_exact=True):
    with tempfile.TemporaryDirectory() as tmp:
        doc = u.load_trace(path)
        markers = u.gpu_marker_span_ns(doc)
        slow = os.path.join(tmp, "slow.json")
        u.write_trace(u.stretch_gpu(doc, 1.5), slow)
        p, r = compare(tmp, path, slow, [], 1)
        assert "gate: REGRESSION" in p.stdout, p.stdout
        e2e = [c for c in r["verdict"]["checks"] if c["category"] == "e2e"][0]
        assert e2e["result"] == "regression", e2e
        assert 49.0 < e2e["delta_pct"] < 51.0, e2e  # the GPU is 1.5x slower per step
        sides = r["sides"]
        assert sides["base"]["step_windows"]["source"] == expect_source, sides["base"]["step_windows"]
        if markers and not marker_exact:
            assert r["verdict"]["steps"]["base"]["median_ns"] == MI250_STEP_NS, r["verdict"]["steps"]
        elif markers:  # the step time is the GPU-side markers' span, to the nanosecond
            spans = sorted(end - start for start, end in markers.values())
            median = spans[len(spans) // 2] if len(spans) % 2 else (spans[len(spans) // 2 - 1] + spans[len(spans) // 2]) // 2
            assert r["verdict"]["steps"]["base"]["median_ns"] == median, (r["verdict"]["steps"], markers)
        for side in ("base", "comparison"):
            w = sides[side]["step_windows"]
            assert (w["busy_outside_steps_ns"] * 20 > w["busy_ns"]) == work_outside, (side, w)
        # The unchanged pair passes, unless device work outside every step makes a per-step verdict
        # unsafe: then it cannot pass (exit 4), while the slower copy above is still a regression.
        p, r = compare(tmp, path, path, [], 4 if work_outside else 0)
        if work_outside:
            assert "gate: INCOMPARABLE" in p.stdout and "cannot pass: base: " in p.stdout, p.stdout
            assert r["verdict"]["unsafe_reasons"], r["verdict"]
        else:
            assert "gate: PASS" in p.stdout, p.stdout
    print(f"ok: {os.path.basename(path)} ({expect_source})")


def main():
    if not u.BIN:
        print("PROFDIFF_BIN is not set")
        return 1
    check_stretched(BUNDLED_NO_MARKERS, "launched_device_work")
    if not os.path.isdir(os.path.join(u.SHARED, "corpus")):
        print(f"skipped: the traces with GPU-side step markers are in {u.SHARED}/corpus, which is absent")
        return u.SKIP
    for path, outside, exact in CORPUS_MARKERS:
        check_stretched(os.path.join(u.SHARED, path), "device_markers", outside, exact)
    return 0


if __name__ == "__main__":
    sys.exit(main())
