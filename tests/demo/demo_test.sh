#!/usr/bin/env bash
# scripts/demo.sh, run as a user runs it (with the built binary, writing to a temporary OUT): it
# compares the bundled NPU profile (-d) with the bundled GPU trace (-bp), both sides with a non-zero
# E2E, and writes the workbook, the HTML page and the JSON result where it says they are.
#   tests/demo/demo_test.sh SOURCE_DIR PROFDIFF_BINARY
set -euo pipefail
src="$(cd "$1" && pwd)"; pd="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
fail() { echo "FAIL: $*" >&2; exit 1; }
out="$(mktemp -d)"; trap 'rm -rf "$out"' EXIT
log="$out/demo.log"
OUT="$out/o" PROFDIFF="$pd" bash "$src/scripts/demo.sh" > "$log" 2>&1 </dev/null || { cat "$log"; fail "demo.sh failed"; }
[[ -s "$out/o/result.json" ]] || fail "no JSON result"
[[ -s "$out/o/report.html" ]] || fail "no HTML page"
ls "$out"/o/performance_comparison_result_*.xlsx >/dev/null 2>&1 || fail "no workbook"
grep -q "HTML page: $out/o/report.html" "$log" || fail "demo.sh does not say where the page is"
grep -q "JSON:      $out/o/result.json" "$log" || fail "demo.sh does not say where the JSON is"
python3 - "$out/o/result.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
b, c = d["inputs"]["base"], d["inputs"]["comparison"]
assert b["device"] == "GPU" and b["path"].endswith(".pt.trace.json.gz"), b
assert c["device"] == "NPU" and c["path"].endswith("rank0_ascend_pt"), c
eb, ec = d["sides"]["base"]["e2e_ns"], d["sides"]["comparison"]["e2e_ns"]
assert eb > 0 and ec > 0, (eb, ec)
print(f"demo: GPU E2E {eb} ns, NPU E2E {ec} ns")
PY
echo "demo.sh: headline comparison written and located"
