"""`profdiff cluster` in shards (issue 36). For every corpus cluster (each corpus directory where
`cluster summarize --list-ranks` finds two ranks or more and the one-machine `cluster -d` succeeds) and a
64-rank synthetic Kineto run, `cluster summarize` in K = 1, 2 and 7 shards followed by the reduce
`cluster --summaries` writes the same outputs as the one-machine `cluster -d`, byte for byte (the
workbook's parts; its zip's time stamps aside), and prints the same screen; so does a pair of runs
(--base-summaries, or -bp beside --summaries). Then what goes wrong: a missing, truncated, foreign or
other-version summary makes the reduce fail naming the rank (exit 3), a different --reference-compat is
refused (exit 2), a summary of another run is not replaced without --force, re-running the failed shard
repairs the set; an identical summary is kept as it is; a shard killed at any point leaves nothing;
the shard comes from Slurm's or Kubernetes' environment.

Needs the corpus (../shared); exits 77 (skip) without it.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zipfile

sys.path.insert(0, os.path.dirname(__file__))
from scenario_util import BIN, Checks, SHARED, SKIP, SRC, read_bytes  # noqa: E402

CORPUS = os.path.join(SHARED, "corpus")
SYNTH_SOURCE = os.path.join(CORPUS, "hta_trace_filter", "sampled_rank-0.json.gz")
# The corpus clusters the test must find (others it finds are checked too).
KNOWN_CLUSTERS = {"msinsight_pt_text_2025_level0", "msinsight_pt_text_2025_level1", "msinsight_pt_text_2025_level2",
                  "msinsight_pt_db_2025_level0", "msinsight_pt_db_2025_level1", "msinsight_pt_db_2025_level2"}
check = Checks()


def run(args, env=None):
    p = subprocess.run([BIN] + args, capture_output=True, text=True, errors="replace",
                       env=None if env is None else {**os.environ, **env})
    return p.returncode, p.stdout, p.stderr


def list_ranks(path):
    rc, out, _ = run(["cluster", "summarize", "-d", path, "--list-ranks"])
    return [line.split("\t") for line in out.splitlines()] if rc == 0 else []


def outputs_of(out):
    """{relative path: bytes} of every file under `out`; a workbook as its zip members (docProps,
    which hold the creation time, aside)."""
    files = {}
    for root, _, names in os.walk(out):
        for name in names:
            path = os.path.join(root, name)
            rel = os.path.relpath(path, out)
            if name.endswith(".xlsx"):
                with zipfile.ZipFile(path) as z:
                    for member in z.namelist():
                        if not member.startswith("docProps/"):
                            files[f"{rel}!{member}"] = z.read(member)
            else:
                files[rel] = read_bytes(path)
    return files


def same_outputs(what, want, got):
    check(sorted(want) == sorted(got), f"{what}: files {sorted(set(want) ^ set(got))} differ in presence")
    for rel in sorted(set(want) & set(got)):
        check(want[rel] == got[rel], f"{what}: {rel} differs ({len(want[rel])} vs {len(got[rel])} bytes)")


def summarize_all(run_dir, sums, k, extra=()):
    for i in range(k):
        rc, _, err = run(["cluster", "summarize", "-d", run_dir, "-o", sums, "--shard-index", str(i),
                          "--shard-count", str(k), "-q"] + list(extra))
        check(rc == 0, f"summarize {run_dir} shard {i}/{k}: exit {rc}: {err}")


def one_machine(out, args):
    """The one-machine outputs and screen of `cluster ARGS -o OUT`, OUT removed after (the sharded
    route writes to the same path: the JSON lists its outputs by absolute path)."""
    rc, screen, err = run(["cluster"] + args + ["-o", out, "-q"])
    files = outputs_of(out) if rc == 0 else None
    shutil.rmtree(out, ignore_errors=True)
    return rc, screen, err, files


def check_equal_route(what, out, want, args):
    rc, screen, err = run(["cluster"] + args + ["-o", out, "-q"])
    check(rc == 0, f"{what}: the reduce exits {rc}: {err}")
    if rc == 0:
        check(screen == want[1], f"{what}: the screen differs:\n{screen}\n--- one machine:\n{want[1]}")
        same_outputs(what, want[3], outputs_of(out))
    shutil.rmtree(out, ignore_errors=True)


def check_cluster(name, run_dir, tmp, extra=()):
    out = os.path.join(tmp, "out")
    want = one_machine(out, ["-d", run_dir] + list(extra))
    if want[0] != 0:
        return False
    for k in (1, 2, 7):
        sums = os.path.join(tmp, f"sums_{name}_{k}")
        summarize_all(run_dir, sums, k, [e for e in extra if e.startswith("--reference-compat")])
        check_equal_route(f"{name} K={k}", out, want, ["--summaries", sums] + list(extra))
    return True


def corpus_clusters():
    found = []
    for name in sorted(os.listdir(CORPUS)):
        path = os.path.join(CORPUS, name)
        if os.path.isdir(path) and len(list_ranks(path)) >= 2:
            found.append((name, path))
    return found


def check_two_runs(tmp, cur, base, label):
    """-d/-bp against --summaries/--base-summaries and against --summaries with -bp."""
    out = os.path.join(tmp, "out")
    want = one_machine(out, ["-d", cur, "-bp", base])
    check(want[0] == 0, f"{label}: one machine -bp: exit {want[0]}: {want[2]}")
    if want[0] != 0:
        return
    cur_sums, base_sums = os.path.join(tmp, f"{label}_cur"), os.path.join(tmp, f"{label}_base")
    summarize_all(cur, cur_sums, 2)
    summarize_all(base, base_sums, 3)
    check_equal_route(f"{label} --base-summaries", out, want, ["--summaries", cur_sums, "--base-summaries", base_sums])
    check_equal_route(f"{label} -bp", out, want, ["--summaries", cur_sums, "-bp", base])


def reduce_fails(sums, out, rc_want, *words):
    rc, _, err = run(["cluster", "--summaries", sums, "-o", out, "-q", "--force"])
    check(rc == rc_want, f"reduce of {sums}: exit {rc}, expected {rc_want}: {err}")
    for w in words:
        check(w in err, f"reduce of {sums}: the error names {w!r}: {err}")
    check(not os.path.exists(os.path.join(out, "profdiff_cluster.json")), f"a failed reduce left {out}'s JSON")


def check_failures(tmp, level2, level1):
    sums, other, out = os.path.join(tmp, "f_sums"), os.path.join(tmp, "f_other"), os.path.join(tmp, "f_out")
    want = one_machine(out, ["-d", level2])
    summarize_all(level2, sums, 2)
    summarize_all(level1, other, 2)
    f0, f1 = os.path.join(sums, "rank_0.summary.json"), os.path.join(sums, "rank_1.summary.json")
    # An identical summary is kept as it is.
    before = os.stat(f0).st_mtime_ns
    rc, said, _ = run(["cluster", "summarize", "-d", level2, "-o", sums, "--shard-index", "0", "--shard-count", "2"])
    check(rc == 0 and "0 summaries written, 1 kept" in said and os.stat(f0).st_mtime_ns == before,
          f"re-running a finished shard keeps its summary: {rc} {said}")
    # A shard that failed: its summary is missing.
    os.remove(f1)
    reduce_fails(sums, out, 3, "rank(s) 1", "rank_1.summary.json")
    summarize_all(level2, sums, 2)  # re-running the shards: shard 0's is kept, shard 1's written
    check_equal_route("repaired after a missing summary", out, want, ["--summaries", sums])
    # A truncated summary.
    text = read_bytes(f0)
    with open(f0, "wb") as f:
        f.write(text[: len(text) // 2])
    reduce_fails(sums, out, 3, "rank 0", "rank_0.summary.json", "byte")
    rc, _, err = run(["cluster", "summarize", "-d", level2, "-o", sums, "--shard-index", "0", "--shard-count", "2"])
    check(rc == 0 and "cannot be read" in err, f"an unreadable summary is replaced, said: {rc} {err}")
    check_equal_route("repaired after a truncated summary", out, want, ["--summaries", sums])
    for junk in ("{}", "[1, 2]", '{"format": "profdiff-rank-summary"}'):  # JSON, but no summary
        with open(f0, "w") as f:
            f.write(junk)
        reduce_fails(sums, out, 3, "rank 0", "rank_0.summary.json")
        rc, _, err = run(["cluster", "summarize", "-d", level2, "-o", sums, "--shard-index", "0", "--shard-count", "2"])
        check(rc == 0 and "cannot be read" in err, f"{junk} is replaced, said: {rc} {err}")
    # Another run's summary.
    shutil.copy(os.path.join(other, "rank_1.summary.json"), f1)
    reduce_fails(sums, out, 3, "mixes runs", "rank 1", "msinsight_pt_text_2025_level1")
    rc, _, err = run(["cluster", "summarize", "-d", level2, "-o", sums, "--shard-index", "1", "--shard-count", "2"])
    check(rc == 2 and "--force" in err and "another run" in err, f"a foreign summary is kept without --force: {rc} {err}")
    rc, _, err = run(["cluster", "summarize", "-d", level2, "-o", sums, "--shard-index", "1", "--shard-count", "2",
                      "--force"])
    check(rc == 0, f"--force replaces it: {rc} {err}")
    check_equal_route("repaired after a foreign summary", out, want, ["--summaries", sums])
    # Another schema version.
    doc = json.loads(read_bytes(f0))
    doc["schema_version"] = 999
    with open(f0, "w") as f:
        json.dump(doc, f)
    reduce_fails(sums, out, 3, "rank 0", "schema version 999")
    os.remove(f0)
    summarize_all(level2, sums, 2)
    # The reduce's --reference-compat must be the summaries'.
    rc, _, err = run(["cluster", "--summaries", sums, "-o", out, "-q", "--reference-compat"])
    check(rc == 2 and "without --reference-compat" in err, f"--reference-compat mismatch: {rc} {err}")
    check(not os.path.exists(os.path.join(sums, ".")) or all(n.endswith(".summary.json") for n in os.listdir(sums)),
          f"only summaries in {sums}: {os.listdir(sums)}")


def check_failing_rank(tmp, level2):
    """A rank that cannot be loaded: its shard exits 3 naming it, writes the others' summaries; the
    reduce names it as missing."""
    run_dir = os.path.join(tmp, "broken_run")
    shutil.copytree(level2, run_dir)
    ranks = list_ranks(run_dir)
    broken = next(r for r in ranks if r[0] == "1")
    for root, _, names in os.walk(broken[2]):
        for n in names:
            if n == "trace_view.json":
                with open(os.path.join(root, n), "w") as f:
                    f.write("[{\"ph\": \"X\", ")
    sums = os.path.join(tmp, "broken_sums")
    rc, _, err = run(["cluster", "summarize", "-d", run_dir, "-o", sums, "-q"])
    check(rc == 3 and "rank 1" in err, f"a broken rank fails its shard naming it: {rc} {err}")
    check(os.path.exists(os.path.join(sums, "rank_0.summary.json")) and
          not os.path.exists(os.path.join(sums, "rank_1.summary.json")), f"the good rank's summary stays: {os.listdir(sums)}")
    reduce_fails(sums, os.path.join(tmp, "broken_out"), 3, "rank(s) 1")


def check_kills(tmp, run_dir, ranks):
    """SIGTERM at points spread over a shard's run (discovery, loading, writing): a killed shard leaves
    nothing of its own (no temporary file, no summary, not the directory it made); one that finished
    left every summary whole; running it again completes the set."""
    for i, delay in enumerate((0.01, 0.03, 0.08, 0.15, 0.3, 0.6)):
        sums = os.path.join(tmp, f"kill_{i}")
        p = subprocess.Popen([BIN, "cluster", "summarize", "-d", run_dir, "-o", sums, "-q"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        p.send_signal(signal.SIGTERM)
        rc = p.wait()
        left = sorted(os.listdir(sums)) if os.path.isdir(sums) else None
        if rc == 0:
            check(left is not None and len(left) == ranks and all(n.endswith(".summary.json") for n in left),
                  f"a finished shard left {left}")
        else:
            check(rc in (-signal.SIGTERM, 128 + signal.SIGTERM), f"killed after {delay} s: exit {rc}")
            check(left is None, f"a shard killed after {delay} s left {left}")
        rc, _, err = run(["cluster", "summarize", "-d", run_dir, "-o", sums, "-q"])
        check(rc == 0 and len(os.listdir(sums)) == ranks, f"re-running the killed shard: {rc} {err}")


def check_environment(tmp, level2):
    sums = os.path.join(tmp, "env_sums")
    slurm = {"SLURM_ARRAY_TASK_ID": "11", "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_COUNT": "2"}
    rc, out, err = run(["cluster", "summarize", "-d", level2, "-o", sums], env=slurm)
    check(rc == 0 and out.startswith("shard 1 of 2: 1 of the run's 2 ranks (1)"), f"Slurm's shard: {rc} {out} {err}")
    rc, _, err = run(["cluster", "summarize", "-d", level2, "-o", sums], env={"JOB_COMPLETION_INDEX": "0"})
    check(rc == 2 and "--shard-count" in err, f"an Indexed Job's index needs --shard-count: {rc} {err}")
    rc, out, err = run(["cluster", "summarize", "-d", level2, "-o", sums, "--shard-count", "2"],
                       env={"JOB_COMPLETION_INDEX": "0"})
    check(rc == 0 and out.startswith("shard 0 of 2: 1 of the run's 2 ranks (0)"), f"Indexed Job's shard: {rc} {out} {err}")
    rc, _, err = run(["cluster", "summarize", "-d", level2, "-o", sums, "--shard-index", "2", "--shard-count", "2"])
    check(rc == 2 and "not below" in err, f"an index beyond the count: {rc} {err}")
    ranks = list_ranks(level2)
    check([r[:2] for r in ranks] == [["0", "text"], ["1", "text"]] and all(os.path.isdir(r[2]) for r in ranks),
          f"--list-ranks: {ranks}")


def main():
    if not os.path.isdir(CORPUS):
        print(f"skipped: the corpus ({CORPUS}) is absent")
        return SKIP
    with tempfile.TemporaryDirectory() as tmp:
        used = set()
        for name, path in corpus_clusters():
            if check_cluster(name, path, tmp):
                used.add(name)
        print("corpus clusters checked:", ", ".join(sorted(used)))
        check(KNOWN_CLUSTERS <= used, f"the corpus clusters {sorted(KNOWN_CLUSTERS - used)} were not checked")
        text2 = os.path.join(CORPUS, "msinsight_pt_text_2025_level2")
        check_cluster("db2_compat", os.path.join(CORPUS, "msinsight_pt_db_2025_level2"), tmp, ["--reference-compat"])
        synth, synth_base = os.path.join(tmp, "synth64"), os.path.join(tmp, "synth64_base")
        subprocess.run([sys.executable, os.path.join(SRC, "bench", "make_cluster.py"), SYNTH_SOURCE, synth, "--ranks",
                        "64", "--straggler", "5", "--delay-ms", "20"], check=True)
        subprocess.run([sys.executable, os.path.join(SRC, "bench", "make_cluster.py"), SYNTH_SOURCE, synth_base,
                        "--ranks", "48"], check=True)
        check(check_cluster("synth64", synth, tmp), "the 64-rank synthetic run was checked")
        check_two_runs(tmp, synth, synth_base, "synth 64 vs 48")
        check_kills(tmp, synth, 64)
        check_two_runs(tmp, os.path.join(CORPUS, "msinsight_pt_db_2025_level2"),
                       os.path.join(CORPUS, "msinsight_pt_db_2025_level1"), "db level2 vs level1")
        check_failures(tmp, text2, os.path.join(CORPUS, "msinsight_pt_text_2025_level1"))
        check_failing_rank(tmp, text2)
        check_environment(tmp, text2)
    check.finish()
    return 0


if __name__ == "__main__":
    sys.exit(main())
