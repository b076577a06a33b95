"""Helpers of the scenario tests: run profdiff, read and write Kineto traces, stretch a GPU."""
import decimal
import gzip
import json
import os
import sys
import subprocess

BIN = os.environ.get("PROFDIFF_BIN", "")
SRC = os.environ.get("PROFDIFF_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SHARED = os.path.normpath(os.path.join(SRC, "..", "shared"))
SKIP = 77  # ctest's SKIP_RETURN_CODE

# Kineto categories of the events that run on the GPU (old and new names, compared lower-cased).
GPU_CATEGORIES = {"kernel", "gpu_memcpy", "gpu_memset", "gpu_user_annotation", "memcpy", "memset"}
LAUNCH_FLOW_CATEGORIES = {"ac2g", "async", "async_gpu", "async_cpu_to_gpu"}


def load_trace(path):
    """The trace as a Python value; floats as Decimal (exact), integers as int."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f, parse_float=decimal.Decimal)


def write_trace(doc, path):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, default=lambda v: float(v) if isinstance(v, decimal.Decimal) else v)


def events_of(doc):
    return doc["traceEvents"] if isinstance(doc, dict) else doc


def is_gpu_event(e):
    cat = str(e.get("cat", "")).lower()
    if cat in GPU_CATEGORIES:
        return True
    return e.get("ph") == "f" and cat in LAUNCH_FLOW_CATEGORIES  # a launch flow ends on the GPU


def stretch_gpu(doc, factor):
    """Every GPU event (kernels, copies, memsets, GPU-side annotations, the launch flows' ends)
    stretched by `factor` about the first kernel's start; CPU events untouched."""
    evs = events_of(doc)
    k0 = min(decimal.Decimal(e["ts"]) for e in evs if str(e.get("cat", "")).lower() == "kernel")
    f = decimal.Decimal(str(factor))
    for e in evs:
        if not isinstance(e, dict) or not is_gpu_event(e) or "ts" not in e:
            continue
        e["ts"] = k0 + (decimal.Decimal(e["ts"]) - k0) * f
        if "dur" in e:
            e["dur"] = decimal.Decimal(e["dur"]) * f
    return doc


def run(args, check_rc=None):
    p = subprocess.run([BIN] + args, capture_output=True, text=True, errors="replace")
    if check_rc is not None and p.returncode != check_rc:
        raise AssertionError(f"profdiff {' '.join(args)}: exit {p.returncode}, expected {check_rc}\n"
                             f"stdout:\n{p.stdout}\nstderr:\n{p.stderr}")
    return p


def gpu_marker_span_ns(doc):
    """{step id: (first start, last end) in ns} of the gpu_user_annotation ProfilerStep#N markers."""
    spans = {}
    for e in events_of(doc):
        if not isinstance(e, dict) or str(e.get("cat", "")).lower() != "gpu_user_annotation":
            continue
        name = str(e.get("name", ""))
        if not name.startswith("ProfilerStep#"):
            continue
        step = int(name[len("ProfilerStep#"):])
        start = decimal.Decimal(e["ts"]) * 1000
        end = start + decimal.Decimal(e["dur"]) * 1000
        lo, hi = spans.get(step, (start, end))
        spans[step] = (min(lo, start), max(hi, end))
    return {k: (int(v[0]), int(v[1])) for k, v in spans.items()}


# The failed-checks collector and byte reader every Python test uses (tests/common/py_checks.py).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from py_checks import Checks, read_bytes  # noqa: E402,F401
