"""The exact NPU communication split of the default mode on the 910B profiles (docs/deviations.md
row 12 and "NPU communication: wait, transmit, idle"), next to what the Ascend profiler itself
wrote for the same rank (ASCEND_PROFILER_OUTPUT/communication.json, "Total Op Info").

* split_adds_up: per NPU side and group, transmit + wait + idle = uncovered, all >= 0, and the
  side's groups cover its uncovered communication; the default's Wait/Transmit rows are the split.
* mostly_waiting_not_transmitting: on rank 0 at most 20 % of the uncovered communication is
  transmit (the reference's rule puts all of it under Transmit: its Wait row is absent there).
* profiler_agrees_on_transfer: the profiler's Transit time (its main plane's Memcpy and
  Reduce_Inline, summed over whole ops) and ours (union over every plane, only while uncovered)
  are both a few ms, and its Wait + Idle (everything else) matches our wait + idle within the
  difference of what the two measure (whole ops versus their uncovered part).
* compat_unchanged: under --reference-compat (both lines) there is no split line on the screen and
  the Wait/Transmit rows follow the reference's rule (Wait absent, Transmit = uncovered).

Needs ../shared (the corpus); skips (77) without it.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import oracle_util as u  # noqa: E402

PAIR = "msinsight_pt_text_2025_level1"


def side_dirs():
    base = os.path.join(u.CORPUS, PAIR, "rank0_ascend_pt")
    comp = os.path.join(u.CORPUS, PAIR, "rank1_ascend_pt")
    return base, comp


def run_json(extra, failures, where):
    base, comp = side_dirs()
    rc, out, err = u.run_profdiff(["compare", "-bp", base, "-d", comp, "--no-xlsx", "-q", "--format", "json",
                                   "--enable_profiling_compare"] + extra)
    if rc != 0:
        failures.append(f"{where}: exit {rc}: {err}")
        return None
    return json.loads(out)


def row(res, label):
    """The row of `label`, given as the sheet writes it ("\t\tWait"): the JSON has the reference's tabs
    under --reference-compat, the bare label ("Wait", depth in `indent`) in the default mode."""
    for r in res["overall_metrics"]:
        bare, depth = label.lstrip("\t"), len(label) - len(label.lstrip("\t"))
        if r["label"] == label or (r["label"] == bare and r["indent"] == depth):
            return r
    return None


def profiler_totals(rank_dir):
    """The profiler's own Transit/Wait/Idle (ms) over all collective ops of the rank's steps."""
    with open(os.path.join(rank_dir, "ASCEND_PROFILER_OUTPUT", "communication.json")) as f:
        comm = json.load(f)
    total = {"transit": 0.0, "wait": 0.0, "idle": 0.0, "elapse": 0.0}
    for step in comm.values():
        info = step.get("collective", {}).get("Total Op Info", {}).get("Communication Time Info", {})
        total["transit"] += info.get("Transit Time(ms)", 0.0)
        total["wait"] += info.get("Wait Time(ms)", 0.0)
        total["idle"] += info.get("Idle Time(ms)", 0.0)
        total["elapse"] += info.get("Elapse Time(ms)", 0.0)
    return total


def split_adds_up(res, failures):
    for side in ("base", "comparison"):
        s = res["sides"][side]
        groups = s.get("communication_groups")
        if not groups:
            failures.append(f"{side}: no communication_groups")
            continue
        for g in groups:
            parts = (g["transmit_ns"], g["wait_ns"], g["idle_ns"])
            if min(parts) < 0 or sum(parts) != g["uncovered_ns"]:
                failures.append(f"{side} {g['group']}: {parts} do not add up to {g['uncovered_ns']}")
        if sum(g["uncovered_ns"] for g in groups) != s["uncovered_communication_ns"]:
            failures.append(f"{side}: groups' uncovered {[g['uncovered_ns'] for g in groups]} != "
                            f"{s['uncovered_communication_ns']} (one group covers every op here)")
        if s["wait_ns"] != sum(g["wait_ns"] for g in groups):
            failures.append(f"{side}: wait_ns {s['wait_ns']} is not the split's wait")
    wait, transmit = row(res, "\t\tWait"), row(res, "\t\tTransmit")
    g0 = res["sides"]["base"]["communication_groups"][0]
    if wait is None or abs(wait["base"]["duration_ms"] - g0["wait_ns"] / 1e6) > 1e-9:
        failures.append(f"default Wait row {wait} is not the split's wait {g0['wait_ns']} ns")
    if transmit is None or abs(transmit["base"]["duration_ms"] - g0["transmit_ns"] / 1e6) > 1e-9:
        failures.append(f"default Transmit row {transmit} is not the split's transmit {g0['transmit_ns']} ns")


def mostly_waiting_not_transmitting(res, failures):
    groups = res["sides"]["base"]["communication_groups"]
    uncovered = sum(g["uncovered_ns"] for g in groups)
    transmit = sum(g["transmit_ns"] for g in groups)
    print(f"rank0: uncovered {uncovered} ns, transmit {transmit} ns ({100.0 * transmit / uncovered:.1f} %), "
          f"wait {sum(g['wait_ns'] for g in groups)} ns, idle {sum(g['idle_ns'] for g in groups)} ns")
    if uncovered < 90_000_000:
        failures.append(f"rank0 uncovered communication {uncovered} ns, expected about 102 ms")
    if transmit > 0.2 * uncovered:
        failures.append(f"rank0 transmit {transmit} ns is more than 20 % of uncovered {uncovered} ns")


def profiler_agrees_on_transfer(res, failures):
    base, comp = side_dirs()
    for side, rank_dir in (("base", base), ("comparison", comp)):
        prof = profiler_totals(rank_dir)
        groups = res["sides"][side]["communication_groups"]
        ours = {k: sum(g[k + "_ns"] for g in groups) / 1e6 for k in ("uncovered", "transmit", "wait", "idle")}
        print(f"{side}: profiler transit {prof['transit']:.3f} wait {prof['wait']:.3f} idle {prof['idle']:.3f} "
              f"(elapse {prof['elapse']:.3f}) ms; profdiff transmit {ours['transmit']:.3f} wait {ours['wait']:.3f} "
              f"idle {ours['idle']:.3f} (uncovered {ours['uncovered']:.3f}) ms")
        # Transfer: the profiler counts one plane over whole ops, we every plane while uncovered; on
        # this all-reduce both are a few ms and within 1 ms of each other.
        if abs(prof["transit"] - ours["transmit"]) > 1.0:
            failures.append(f"{side}: transfer {ours['transmit']:.3f} ms vs profiler {prof['transit']:.3f} ms")
        # Not transferring: the profiler's wait + idle over whole ops, ours over the uncovered part,
        # which is the ops minus at most the computing that overlaps them.
        not_transfer = ours["wait"] + ours["idle"]
        gap = prof["elapse"] - ours["uncovered"]
        if not (0 <= (prof["wait"] + prof["idle"]) - not_transfer <= gap + 1.0):
            failures.append(f"{side}: wait+idle {not_transfer:.3f} ms vs profiler "
                            f"{prof['wait'] + prof['idle']:.3f} ms (ops - uncovered = {gap:.3f} ms)")


def words_of_the_profiler(failures):
    """The screen and the HTML page say what communication.json calls "waiting for peers" (issue 34, item 7)."""
    base, comp = side_dirs()
    page = os.path.join(u.tmpdir(), "r.html")
    rc, out, err = u.run_profdiff(["compare", "-bp", base, "-d", comp, "--no-xlsx", "--enable_profiling_compare",
                                   "--html", page])
    sentence = "count that time, over whole ops, as Wait and most of Idle"
    if rc != 0 or "waiting for peers" not in out or sentence not in out:
        failures.append(f"screen: exit {rc}, no sentence naming the profiler's words: {out[-600:]}")
    with open(page, encoding="utf-8") as f:
        if sentence not in f.read():
            failures.append("HTML page: no sentence naming the profiler's words")


def compat_unchanged(failures):
    base, comp = side_dirs()
    for line, (_, flag) in u.LINES.items():
        res = run_json([flag], failures, f"compat {line}")
        if res is None:
            continue
        if row(res, "\t\tWait") is not None:
            failures.append(f"{line}: the reference's rule has no Wait row on this pair")
        t, g = row(res, "\t\tTransmit"), row(res, "\tGroup 0 Communication")
        if t is None or g is None or t["base"]["duration_ms"] != g["base"]["duration_ms"]:
            failures.append(f"{line}: Transmit row {t} is not the whole group {g}")
        rc, out, err = u.run_profdiff(["compare", "-bp", base, "-d", comp, "--no-xlsx", "-q", flag])
        if rc != 0 or "waiting for peers" in out:
            failures.append(f"{line}: exit {rc} or a split line on the reference's screen: {out[-300:]}")


def main():
    if not os.path.isdir(os.path.join(u.CORPUS, PAIR)):
        print(f"SKIP: {os.path.join(u.CORPUS, PAIR)} is absent")
        sys.exit(u.SKIP)
    failures = []
    res = run_json([], failures, "default")
    if res is not None:
        split_adds_up(res, failures)
        mostly_waiting_not_transmitting(res, failures)
        profiler_agrees_on_transfer(res, failures)
    words_of_the_profiler(failures)
    compat_unchanged(failures)
    base, comp = side_dirs()
    rc, out, err = u.run_profdiff(["compare", "-bp", base, "-d", comp, "--no-xlsx", "-q"])
    if rc != 0 or "NPU (base): uncovered communication 102.0 ms: 98.0 ms waiting for peers" not in out:
        failures.append(f"default screen lacks the split line: {out[-400:]}")
    u.finish(failures)


if __name__ == "__main__":
    main()
