"""In the default mode no output rounds a diff or a ratio (issue 34, item 1; docs/deviations.md row
19): for a corpus GPU pair and an NPU pair, every diff and ratio of the JSON result, the tidy CSV
and the HTML page's tables equals the difference (ratio) of the exact values beside it, and every
`_ms`/`_us` value equals its `_ns` twin. The reference rounds a diff to 0.01 (ms or µs) and a ratio
to 4 decimals: an error of up to 0.005, which the tolerances here (1e-9 relative, 1 ns for a value
against its ns) would catch. Under --reference-compat the rounding stays (checked last, so the test
would fail if the policy field stopped switching it).
"""
import csv
import html.parser
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import oracle_util as u  # noqa: E402

GPU = ("kineto_resnet50_v100_2021jun_devprops/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz",
       "kineto_resnet50_v100_2021jun_devprops/resnet50_num_workers_0/worker0.1623143566756.pt.trace.json.gz")
NPU = ("msinsight_pt_text_2025_level1/rank0_ascend_pt", "msinsight_pt_text_2025_level1/rank1_ascend_pt")
UNIT_PER_NS = {"ms": 1e-6, "us": 1e-3}


def close(a, b, tol=1e-9):
    if a == b:  # INF where the exact ratio is inf (a comparison-only row)
        return True
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


def exact_ratio(b, c):
    if b == 0:
        return 1.0 if c == 0 else float("inf")
    return c / b


# ---- JSON ---------------------------------------------------------------------------------------

def side_value(obj, side, field, unit):
    """The value of `field` (e.g. "total", "self", "" for the main one) in `unit` on one side of a
    row: flat ("base_total_ms") or nested ({"base": {"total_us": ...}}); 0 for an absent side;
    None when the row has no such value."""
    flat = f"{side}_{field}_{unit}" if field else f"{side}_{unit}"
    if flat in obj:
        return obj[flat] if obj[flat] is not None else 0.0
    nested = obj.get(side, "missing")
    if nested is None:
        return 0.0
    if not isinstance(nested, dict):
        return None
    for key in ([f"{field}_{unit}"] if field else []) + [f"total_{unit}", f"duration_{unit}"]:
        if key in nested:
            return nested[key]
    ends = [k for k in nested if k.endswith("_" + unit)]
    return nested[ends[0]] if len(ends) == 1 else None


def row_diff_pair(obj):
    """(field, unit) of the row's own diff ("self_diff_us" -> ("self", "us")), or None."""
    for k in obj:
        if "diff" in k.split("_") and not k.endswith(("ratio", "_ns")) and not isinstance(obj[k], (dict, list)):
            rest = [p for p in k.split("_") if p != "diff"]
            return "_".join(rest[:-1]), rest[-1]
    return None


def ratio_sides(obj, key):
    """The (base, comparison) values a ratio field divides, or None."""
    field = "_".join(p for p in key.split("_") if p not in ("diff", "ratio"))
    if field == "calls":
        return tuple(float((obj.get(s) or {}).get("calls", 0)) for s in ("base", "comparison"))
    if field:
        for unit in ("ms", "us"):
            b, c = side_value(obj, "base", field, unit), side_value(obj, "comparison", field, unit)
            if b is not None and c is not None:
                return b, c
        return None
    pair = row_diff_pair(obj)
    if pair is None:
        return None
    b, c = side_value(obj, "base", *pair), side_value(obj, "comparison", *pair)
    return None if b is None or c is None else (b, c)


def check_json_diff(path, obj, key, failures):
    value = obj[key]
    if value is None or isinstance(value, str):  # an absent value; "INF" is checked by the workbook tests
        return
    if key.endswith("ratio"):
        sides = ratio_sides(obj, key)
        if sides is None:
            failures.append(f"json {path}.{key}: no value pair found in {sorted(obj)}")
        elif not close(value, exact_ratio(*sides)):
            failures.append(f"json {path}.{key} = {value!r}, exact {sides[1]!r} / {sides[0]!r} = "
                            f"{exact_ratio(*sides)!r}")
        return
    rest = [p for p in key.split("_") if p != "diff"]
    unit, field = rest[-1], "_".join(rest[:-1])
    if unit in ("ns", "pct"):
        return
    b, c = side_value(obj, "base", field, unit), side_value(obj, "comparison", field, unit)
    if b is None or c is None:
        failures.append(f"json {path}.{key}: no value pair found in {sorted(obj)}")
    elif not close(value, c - b):
        failures.append(f"json {path}.{key} = {value!r}, exact {c!r} - {b!r} = {c - b!r}")


def check_json_value_against_ns(path, obj, key, failures):
    """A `_ms`/`_us` value beside its `_ns` twin is that ns count converted (within 1 ns, the ns being
    rounded from the exact sub-ns sum of an Ascend side)."""
    stem, unit = key.rsplit("_", 1)
    twin = obj.get(stem + "_ns")
    if isinstance(twin, int) and isinstance(obj[key], (int, float)):
        if abs(obj[key] - twin * UNIT_PER_NS[unit]) > 1.0000001 * UNIT_PER_NS[unit]:
            failures.append(f"json {path}.{key} = {obj[key]!r}, its {stem}_ns = {twin}")


def walk_json(path, v, failures, counts):
    if isinstance(v, dict):
        for key in v:
            if "diff" in key.split("_") and not isinstance(v[key], (dict, list)):
                counts["json"] += 1
                check_json_diff(path, v, key, failures)
            if key.endswith(("_ms", "_us")) and not isinstance(v[key], (dict, list)):
                check_json_value_against_ns(path, v, key, failures)
            walk_json(f"{path}.{key}", v[key], failures, counts)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            walk_json(f"{path}[{i}]", x, failures, counts)


# ---- tidy CSV -----------------------------------------------------------------------------------

# The side columns of a diff column whose name does not say them.
CSV_PAIRS = {("CommunicationCompare.csv", "diff_duration_us"): "total_duration_us",
             ("MemoryCompareStatistic.csv", "diff_memory_mb"): "allocated_memory_mb"}
CSV_RATIO_OF = {"diff_total_ratio": ("total_duration", "device_total_time"), "diff_avg_ratio": ("avg_duration",),
                "diff_self_ratio": ("self_time",), "diff_calls_ratio": ("calls",)}


def num(cell):
    return 0.0 if cell in ("", None) else float(cell)


def csv_side_columns(header, stems):
    """The side column names ("device_total_time_us") whose base_/comparison_ columns exist, one per
    candidate stem that names exactly one: equal, ending "_<stem>" or starting "<stem>_"."""
    found = []
    for s in ([stems] if isinstance(stems, str) else stems):
        sides = [h[5:] for h in header if h.startswith("base_")]
        for match in (lambda x: x == s, lambda x: x.endswith("_" + s), lambda x: x.startswith(s + "_")):
            cols = [x for x in sides if match(x) and "comparison_" + x in header]
            if len(cols) == 1:
                found.append(cols[0])
                break
    return found


def check_csv(name, rows, failures, counts):
    header = rows[0]
    diffs = [h for h in header if "diff" in h.split("_") and not h.endswith("ratio")]
    for col in header:
        if "diff" not in col.split("_"):
            continue
        if col.endswith("ratio"):
            stems = list(CSV_RATIO_OF.get(col, ()))
            if diffs:
                stems.append(CSV_PAIRS.get((name, diffs[0])) or "_".join(p for p in diffs[0].split("_") if p != "diff"))
            stems.append("device_self_time")  # a module sheet's operator rows: the ratio of their self times
        else:
            stems = [CSV_PAIRS.get((name, col)) or "_".join(p for p in col.split("_") if p != "diff")]
        sides = csv_side_columns(header, stems)
        if not sides:
            failures.append(f"csv {name}: no base/comparison columns for {col} in {header}")
            continue
        di = header.index(col)
        for r in rows[1:]:
            if r[di] == "":
                continue
            # The first pair of columns this row fills (a module's TOTAL row its total times, its
            # operator rows their self times).
            side = next((x for x in sides if r[header.index("base_" + x)] != "" or
                         r[header.index("comparison_" + x)] != ""), sides[0])
            counts["csv"] += 1
            b, c = num(r[header.index("base_" + side)]), num(r[header.index("comparison_" + side)])
            d = r[di]
            want = exact_ratio(b, c) if col.endswith("ratio") else c - b
            got = float("inf") if d in ("INF", "inf") else float(d)
            if not close(got, want):
                failures.append(f"csv {name}: {col} = {d} where {side} {b!r} -> {c!r} gives {want!r}")
                break


# ---- HTML ---------------------------------------------------------------------------------------

class Tables(html.parser.HTMLParser):
    """Every <table>: its header texts and, per row, the cells' data-v values (None for text)."""

    def __init__(self):
        super().__init__()
        self.tables, self.cell, self.in_th = [], None, False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self.tables.append({"head": [], "rows": []})
        elif tag == "tr" and self.tables:
            self.tables[-1]["rows"].append([])
        elif tag == "th" and self.tables:
            self.in_th = True
            self.tables[-1]["head"].append("")
        elif tag == "td" and self.tables and self.tables[-1]["rows"]:
            self.tables[-1]["rows"][-1].append(float(a["data-v"]) if "data-v" in a else None)

    def handle_endtag(self, tag):
        if tag == "th":
            self.in_th = False

    def handle_data(self, data):
        if self.in_th:
            self.tables[-1]["head"][-1] += data


def check_html(page, failures, counts):
    p = Tables()
    p.feed(page)
    for t in p.tables:
        head = t["head"]
        for di, h in enumerate(head):
            if "diff" not in h and "ratio" not in h:
                continue
            # "total diff (ms)" pairs with "base total (ms)"/"comparison total (ms)", "diff (ms)" with
            # "base (ms)" (or the one "base … (ms)" column); a ratio with the first pair of the table.
            unit = h[h.rfind("("):] if "(" in h else ""
            what = " ".join(h.replace("diff", "").replace("ratio", "").replace(unit, "").split())

            def column(side):
                exact = [i for i, x in enumerate(head) if x == " ".join(f"{side} {what} {unit}".split())]
                loose = [i for i, x in enumerate(head) if x.startswith(side + " ") and x.endswith(unit)]
                return exact[:1] or (loose if len(loose) == 1 else [])
            pair = column("base") + column("comparison")
            if "ratio" in h:
                pair = [i for i, x in enumerate(head) if x.startswith("base") and "(ms)" in x][:1] + [
                    i for i, x in enumerate(head) if x.startswith("comparison") and "(ms)" in x][:1]
            if len(pair) != 2:
                failures.append(f"html: no base/comparison columns for {h!r} in {head}")
                continue
            for r in t["rows"]:
                if len(r) != len(head) or r[di] is None or r[pair[0]] is None or r[pair[1]] is None:
                    continue
                counts["html"] += 1
                b, c = r[pair[0]], r[pair[1]]
                want = exact_ratio(b, c) if "ratio" in h else c - b
                if r[di] < 1e307 and not close(r[di], want):
                    failures.append(f"html: {h} = {r[di]!r} where {head[pair[0]]} {b!r} -> {c!r} gives {want!r}")
                    break


def run_pair(label, base, comp, extra, failures):
    d = u.tmpdir()
    args = ["compare", "-bp", os.path.join(u.CORPUS, base), "-d", os.path.join(u.CORPUS, comp), "--no-xlsx", "-q",
            "--json", os.path.join(d, "r.json"), "--csv", os.path.join(d, "csv"), "--html", os.path.join(d, "r.html")]
    rc, _, err = u.run_profdiff(args + extra)
    if rc != 0:
        failures.append(f"{label}: exit {rc}: {err}")
        return None
    return d


def main():
    u.require_shared()
    failures = []
    for label, (base, comp) in (("GPU pair", GPU), ("NPU pair", NPU)):
        d = run_pair(label, base, comp, [], failures)
        if d is None:
            continue
        counts = {"json": 0, "csv": 0, "html": 0}
        mine = []
        with open(os.path.join(d, "r.json"), encoding="utf-8") as f:
            walk_json("", json.load(f), mine, counts)
        for name in sorted(os.listdir(os.path.join(d, "csv"))):
            with open(os.path.join(d, "csv", name), newline="", encoding="utf-8") as f:
                check_csv(name, list(csv.reader(f)), mine, counts)
        with open(os.path.join(d, "r.html"), encoding="utf-8") as f:
            check_html(f.read(), mine, counts)
        failures += [f"{label}: {m}" for m in mine[:40]]
        for where, n in counts.items():
            if n < 20:
                failures.append(f"{label}: only {n} diffs and ratios checked in the {where} output")
        print(f"{label}: {counts['json']} JSON, {counts['csv']} CSV, {counts['html']} HTML diffs and ratios checked")
    # --reference-compat keeps the reference's rounding: the same checks find rounded diffs there.
    d = run_pair("compat", NPU[0], NPU[1], ["--reference-compat"], failures)
    if d is not None:
        mine, counts = [], {"json": 0, "csv": 0, "html": 0}
        with open(os.path.join(d, "r.json"), encoding="utf-8") as f:
            walk_json("", json.load(f), mine, counts)
        if not mine:
            failures.append("--reference-compat: no diff is rounded, so the checks above could not fail")
    u.finish(failures)


if __name__ == "__main__":
    main()
