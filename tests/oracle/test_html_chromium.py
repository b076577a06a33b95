"""The HTML page (--html) renders in a real browser: headless Chromium (Debian package chromium).

For a GPU-vs-NPU, an NPU-vs-NPU and a GPU-vs-GPU corpus pair, and the bundled H100 pair: the page
loads from the file with its Content-Security-Policy, no script or CSP error reaches the console,
the page's script ran (it fills the operator table's "N of M rows" counter, which is empty in the
HTML: a script blocked by the CSP would leave it empty), the rendered DOM holds at least two SVG
charts, and a screenshot is not blank. The same for the cluster page (profdiff_cluster.html) of the
bundled two-rank run compared with itself (at least three charts). Skipped (exit 77) when chromium is
not installed (a user's machine; CI installs it); the corpus pairs are skipped without ../shared.
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.dirname(__file__))
import oracle_util as u  # noqa: E402

DATA = os.path.join(os.path.abspath(u.SOURCE_DIR), "tests", "data")


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def png_distinct_bytes(path):
    """Distinct byte values of the decompressed image data (a blank page has a handful)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return 0
    pos, idat = 8, b""
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + length]
        pos += 12 + length
    return len(set(zlib.decompress(idat))) if idat else 0


def browser(binary, tmp, *args):
    cmd = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
           f"--user-data-dir={tmp}/chromium-profile", "--enable-logging=stderr", "--v=0",
           "--virtual-time-budget=5000", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=180)


def check(binary, base, comp, tmp, failures):
    where = f"{os.path.basename(base)} vs {os.path.basename(comp)}"
    page = os.path.join(tmp, "page.html")
    rc, _, err = u.run_profdiff(["compare", "-bp", base, "-d", comp, "--no-xlsx", "--html", page, "-q",
                                 "--force"])
    if rc != 0:
        failures.append(f"{where}: profdiff rc {rc}: {err}")
        return
    check_page(binary, where, page, tmp, failures, 2)


def check_cluster(binary, tmp, failures):
    """profdiff_cluster.html of the bundled two-rank run against itself: rank bars, skew columns, heat map."""
    run = os.path.join(DATA, "kineto_2rank_nccl")
    out = os.path.join(tmp, "cluster")
    rc, _, err = u.run_profdiff(["cluster", "-d", run, "-bp", run, "-o", out, "-q"])
    if rc != 0:
        failures.append(f"cluster {run}: profdiff rc {rc}: {err}")
        return
    check_page(binary, "cluster kineto_2rank_nccl -bp itself", os.path.join(out, "profdiff_cluster.html"), tmp,
               failures, 3)


def check_page(binary, where, page, tmp, failures, min_charts):
    url = "file://" + page
    dom = browser(binary, tmp, "--dump-dom", url)
    if dom.returncode != 0 or "</html>" not in dom.stdout:
        failures.append(f"{where}: chromium could not render the page: rc {dom.returncode} {dom.stderr[-500:]}")
        return
    console = [l for l in dom.stderr.splitlines()
               if "CONSOLE" in l or "Uncaught" in l or "Content Security Policy" in l or "Refused to" in l]
    if console:
        failures.append(f"{where}: console messages: {console[:3]}")
    charts = len(re.findall(r"<svg\b", dom.stdout))
    if charts < min_charts:
        failures.append(f"{where}: {charts} SVG chart(s) in the rendered page, expected at least {min_charts}")
    counter = re.search(r'id="shown">(\d+) of (\d+) rows<', dom.stdout)
    if counter is None and 'id="items-table"' in dom.stdout:
        failures.append(f"{where}: the page's script did not run (the row counter is empty)")
    shot = os.path.join(tmp, "shot.png")
    pic = browser(binary, tmp, f"--screenshot={shot}", "--window-size=1400,2200", url)
    distinct = png_distinct_bytes(shot) if os.path.exists(shot) else 0
    if pic.returncode != 0 or distinct < 16:
        failures.append(f"{where}: the screenshot is missing or blank ({distinct} distinct byte values)")
    print(f"{where}: {charts} charts, rows {counter.group(0) if counter else '-'}, "
          f"screenshot {distinct} distinct byte values")


def main():
    binary = chromium()
    if binary is None:
        print("SKIP: chromium is not installed (apt-get install chromium)")
        sys.exit(u.SKIP)
    pairs = [(os.path.join(DATA, "kineto_h100_tiny/before_fix_trace.json"),
              os.path.join(DATA, "kineto_h100_tiny/after_fix_trace.json"))]
    resnet = os.path.join(u.CORPUS, "kineto_resnet50_v100_2021jun_devprops/resnet50_num_workers_0")
    level1 = os.path.join(u.CORPUS, "msinsight_pt_text_2025_level1")
    if os.path.isdir(resnet) and os.path.isdir(level1):
        gpu_a = os.path.join(resnet, "worker0.1623143089861.pt.trace.json.gz")
        gpu_b = os.path.join(resnet, "worker0.1623143566756.pt.trace.json.gz")
        pairs += [(gpu_a, os.path.join(level1, "rank0_ascend_pt")),  # GPU vs NPU
                  (os.path.join(level1, "rank0_ascend_pt"), os.path.join(level1, "rank1_ascend_pt")),
                  (gpu_a, gpu_b)]
    else:
        print(f"note: {u.CORPUS} is absent: the bundled pair only")
    failures = []
    for base, comp in pairs:
        tmp = u.tmpdir()
        check(binary, base, comp, tmp, failures)
    check_cluster(binary, u.tmpdir(), failures)
    if failures:
        print("\n".join(failures))
        sys.exit(1)


if __name__ == "__main__":
    main()
