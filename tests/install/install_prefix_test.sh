#!/usr/bin/env bash
# `cmake --install BUILD --prefix TMP` installs the binary, the man page, the bash completion and the
# docs; the installed binary runs a real comparison on the bundled data; the man page renders and
# documents every compare option.
#   tests/install/install_prefix_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src="$1"; build="$2"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$tmp/prefix" > "$tmp/install.log"
pd="$tmp/prefix/bin/profdiff"
for f in bin/profdiff share/man/man1/profdiff.1.gz share/bash-completion/completions/profdiff \
         share/doc/profdiff/README.md share/doc/profdiff/LICENSE share/doc/profdiff/docs/json-schema.md \
         share/doc/profdiff/docs/deviations.md share/doc/profdiff/docs/reference/overall.md; do
  [[ -e "$tmp/prefix/$f" ]] || fail "not installed: $f"
done

"$pd" --version | grep -Eq '^profdiff [0-9]+\.[0-9]+\.[0-9]+( \(git [0-9a-f]+(-dirty)?\))?$' ||
  fail "unexpected --version: $("$pd" --version)"

data="$src/tests/data/kineto_h100_tiny"
"$pd" compare -d "$data/after_fix_trace.json" -bp "$data/before_fix_trace.json" -o "$tmp/out/" \
  --json "$tmp/out/result.json" > "$tmp/screen.txt" 2> "$tmp/err.txt" || fail "compare failed: $(cat "$tmp/err.txt")"
ls "$tmp"/out/performance_comparison_result_*.xlsx > /dev/null || fail "no workbook written"
grep -q '"schema": "profdiff.compare/1"' "$tmp/out/result.json" || fail "no JSON result"
grep -q 'Computing Time' "$tmp/screen.txt" || fail "no screen table"

# The man page: every option of `compare --help` is in it; it renders without groff warnings.
page="$tmp/profdiff.1"
gzip -dc "$tmp/prefix/share/man/man1/profdiff.1.gz" > "$page"
for opt in $("$pd" compare --help | grep -oE '^  (-[A-Za-z],)*--?[A-Za-z][A-Za-z0-9_-]*' | sed 's/^  //; s/.*,//'); do
  grep -qF -- "$(printf '%s' "$opt" | sed 's/-/\\-/g')" "$page" || fail "man page lacks $opt"
done
if command -v groff > /dev/null; then
  warnings="$(groff -man -Tutf8 -ww -z "$page" 2>&1)"
  [[ -z "$warnings" ]] || fail "groff warnings: $warnings"
  groff -man -Tutf8 -P -cbou "$page" 2> /dev/null | grep -q 'EXIT STATUS' || fail "rendered page lacks EXIT STATUS"
fi
echo "installed into a temporary prefix; the installed profdiff compared the bundled pair"
