#!/usr/bin/env bash
# Builds profdiff and runs the headline comparison on the real profiles bundled in tests/data
# (provenance and licences in tests/data/PROVENANCE.md):
#   inspect on the GPU trace (ResNet50 on a V100, Kineto .json.gz) and on the NPU profile (AlexNet on
#   an Ascend 910B, rank 0, text export), then
#   compare of the NPU profile (-d) against the GPU trace (-bp), writing the workbook, the HTML page
#   and the JSON result to out/, and says where they are.
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
GPU=tests/data/kineto_resnet50_v100/worker0.1623143089861.pt.trace.json.gz
NPU=tests/data/ascend_910b_alexnet/rank0_ascend_pt
OUT="${OUT:-out}"  # OUT=DIR: write there instead
mkdir -p "$OUT"
set -x
"$PD" --version
"$PD" inspect "$GPU"
"$PD" inspect "$NPU"
"$PD" compare -d "$NPU" -bp "$GPU" -o "$OUT/" --force \
              --json "$OUT/result.json" --html "$OUT/report.html"
{ set +x; } 2>/dev/null
WORKBOOK="$(ls -t "$OUT"/performance_comparison_result_*.xlsx | head -n 1)"
cat <<MSG

The demo compared an Ascend 910B NPU profile (AlexNet, -d) with a V100 GPU trace (ResNet50, -bp):
two different models, so read it for what profdiff shows, not as a verdict.
  HTML page: $(realpath "$OUT/report.html")   (open it in a browser; works offline)
  workbook:  $(realpath "$WORKBOOK")
  JSON:      $(realpath "$OUT/result.json")
MSG
