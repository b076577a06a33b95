#!/usr/bin/env bash
# Builds profdiff and runs it on the real profiles bundled in tests/data:
#   inspect on the H100 Kineto trace and the Ascend trace_view.json, then
#   compare of the "after" H100 trace (-d) against the "before" one (-bp), writing out/.
# PROFDIFF=PATH: use that profdiff binary (e.g. the installed one) instead of building.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${BUILD_DIR:-build}"
JOBS="${JOBS:-2}"
# PROFDIFF=/usr/bin/profdiff runs an installed profdiff instead of building one (CI checks the .deb so).
if [ -n "${PROFDIFF:-}" ]; then
  PD="$PROFDIFF"
else
  cmake -S . -B "$BUILD_DIR" -G Ninja -DPROFDIFF_WERROR=ON >/dev/null
  ninja -C "$BUILD_DIR" -j "$JOBS" profdiff
  PD="$BUILD_DIR/src/cli/profdiff"
fi
DATA=tests/data
set -x
"$PD" --version
"$PD" inspect "$DATA/kineto_h100_tiny/before_fix_trace.json"
"$PD" inspect "$DATA/ascend_trace_view/trace_view.json"
"$PD" compare -d "$DATA/kineto_h100_tiny/after_fix_trace.json" \
              -bp "$DATA/kineto_h100_tiny/before_fix_trace.json" \
              -o out/ --force --json out/result.json
