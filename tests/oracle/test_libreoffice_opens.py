"""The workbook opens in LibreOffice (issue: "opens in LibreOffice and Excel-compatible readers").

Writes a workbook with every sheet profdiff produces for a pair (OverallMetrics and the operator or
module sheets), and the cluster workbook of the bundled two-rank run compared with itself, converts it with headless LibreOffice to one CSV per sheet, and checks that
LibreOffice saw the same sheets, the same number of rows and the same text cells as openpyxl (the
Excel-compatible reader the other tests use). Skipped (exit 77) when LibreOffice (`soffice`, Debian
package libreoffice-calc-nogui) is not installed: a large package, so a user's install does not
pull it in; CI installs it (.ci/run step 1b).
Uses the bundled tests/data profiles, plus the msinsight NPU pair when ../shared is present.
"""
import csv
import glob
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import oracle_util as u  # noqa: E402

DATA = os.path.join(os.path.abspath(u.SOURCE_DIR), "tests", "data")
# LibreOffice's CSV filter: comma, double quote, UTF-8, first line 1, sheet -1 = every sheet.
CSV_FILTER = "csv:Text - txt - csv (StarCalc):44,34,UTF8,1,,0,false,true,false,false,false,-1"


def norm(text):
    """Line ends as both readers agree on: openpyxl 3.0 leaves the xlsx escape of CR (_x000D_) as is,
    LibreOffice's CSV export writes CR LF inside a cell as LF."""
    return text.replace("_x000D_", "\r").replace("\r\n", "\n")


def check(base, comp, tmp, failures):
    xlsx = os.path.join(tmp, "w.xlsx")
    rc, _, err = u.run_profdiff(["compare", "-bp", base, "-d", comp, "-o", xlsx, "-q"])
    if rc != 0:
        failures.append(f"{base} vs {comp}: profdiff rc {rc}: {err}")
        return
    return check_workbook(f"{os.path.basename(base)} vs {os.path.basename(comp)}", xlsx, tmp, failures)


def check_cluster(tmp, failures):
    """profdiff_cluster.xlsx of the bundled two-rank run against itself (-bp: every sheet of two runs)."""
    run = os.path.join(DATA, "kineto_2rank_nccl")
    out = os.path.join(tmp, "cluster")
    rc, _, err = u.run_profdiff(["cluster", "-d", run, "-bp", run, "-o", out, "-q"])
    if rc != 0:
        failures.append(f"cluster {run}: profdiff rc {rc}: {err}")
        return
    xlsx = os.path.join(tmp, "w.xlsx")  # the name the LibreOffice CSV files are matched by
    shutil.copy(os.path.join(out, "profdiff_cluster.xlsx"), xlsx)
    check_workbook("cluster kineto_2rank_nccl -bp itself", xlsx, tmp, failures)


def check_workbook(label, xlsx, tmp, failures):
    wb = u.read_xlsx(xlsx)["__wb__"]
    out = os.path.join(tmp, "lo")
    os.makedirs(out)
    p = subprocess.run(["soffice", f"-env:UserInstallation=file://{tmp}/profile", "--headless",
                        "--convert-to", CSV_FILTER, "--outdir", out, xlsx],
                       capture_output=True, text=True, timeout=300)
    files = sorted(glob.glob(os.path.join(out, "w-*.csv")))
    if p.returncode != 0 or not files:
        failures.append(f"{label}: LibreOffice could not open the workbook: {p.stdout} {p.stderr}")
        return
    lo_sheets = {os.path.basename(f)[2:-4]: f for f in files}
    if sorted(lo_sheets) != sorted(wb.sheetnames):
        failures.append(f"LibreOffice sheets {sorted(lo_sheets)} != openpyxl {sorted(wb.sheetnames)}")
        return
    infinite = [0]
    for name in wb.sheetnames:
        ours = u.sheet_values(wb[name])
        with open(lo_sheets[name], newline="", encoding="utf-8") as f:
            theirs = list(csv.reader(f))
        while theirs and not any(theirs[-1]):
            theirs.pop()
        if len(theirs) != len(ours):
            failures.append(f"{name}: LibreOffice reads {len(theirs)} rows, openpyxl {len(ours)}")
            continue
        for r, (a, b) in enumerate(zip(ours, theirs), 1):
            for c, x in enumerate(a):
                # Text cells must read the same; numbers are shown through their number formats.
                if isinstance(x, str) and x != "" and (c >= len(b) or norm(b[c]) != norm(x)):
                    got = b[c] if c < len(b) else None
                    failures.append(f"{name} row {r} col {c + 1}: LibreOffice {got!r:.120} != {x!r:.120}")
                    break
                # An infinite ratio is a number (a filter keeps it) that its number format shows as
                # "INF" (issue 34, item 4).
                if isinstance(x, float) and x >= 1e300:
                    infinite[0] += 1
                    if c >= len(b) or b[c] != "INF":
                        failures.append(f"{name} row {r} col {c + 1}: an infinite ratio shows as {b[c] if c < len(b) else None!r}")
    print(f"{label}: LibreOffice opened {len(files)} sheets, {infinite[0]} infinite ratios shown as INF")
    return infinite[0]


def main():
    if shutil.which("soffice") is None:
        print("SKIP: LibreOffice (soffice) is not installed (apt-get install libreoffice-calc-nogui)")
        sys.exit(u.SKIP)
    pairs = [(os.path.join(DATA, "kineto_h100_tiny/before_fix_trace.json"),
              os.path.join(DATA, "kineto_h100_tiny/after_fix_trace.json")),
             # NPU vs GPU: rows whose base is 0, so infinite ratios.
             (os.path.join(DATA, "ascend_trace_view/trace_view.json"),
              os.path.join(DATA, "kineto_h100_tiny/before_fix_trace.json"))]
    level1 = os.path.join(u.CORPUS, "msinsight_pt_text_2025_level1")
    if os.path.isdir(level1):
        pairs.append((os.path.join(level1, "rank0_ascend_pt"), os.path.join(level1, "rank1_ascend_pt")))
    failures = []
    infinite = 0
    for base, comp in pairs:
        tmp = u.tmpdir()
        infinite += check(base, comp, tmp, failures) or 0
    check_cluster(u.tmpdir(), failures)
    if infinite == 0:
        failures.append("no infinite ratio in the workbooks: the INF number format went unchecked")
    if failures:
        print("\n".join(failures[:50]))
        sys.exit(1)
    print("OK: LibreOffice opens every workbook with the same sheets, rows and text cells")


main()
