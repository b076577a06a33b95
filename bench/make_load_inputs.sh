#!/usr/bin/env bash
# Makes the large, realistic load-benchmark inputs from corpus traces with the shared replicator
# (../shared/bench/replicate_trace.py), then (with --run) measures them with load_bench.
#
#   bench/make_load_inputs.sh [OUT_DIR] [--run] [--small-only]
#
# OUT_DIR defaults to build/bench-data (never committed). Inputs (sizes as written by the replicator):
#   kineto_100m.json   TraceLens H100 owlv2 Kineto trace (55 MB raw) x 2   ~  83 MB
#   kineto_1g.json     the same x 25                                        ~ 1.04 GB
#   ascend_100m.json   msinsight level1 rank0 trace_view.json (2.2 MB) x 40 ~ 102 MB
#   ascend_1g.json     the same x 400                                       ~ 1.02 GB
# Each file is made once; delete it to make it again. Needs python3 (standard library only).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"
OUT="build/bench-data"
RUN=0
SMALL_ONLY=0
for a in "$@"; do
  case "$a" in
    --run) RUN=1 ;;
    --small-only) SMALL_ONLY=1 ;;
    -*) echo "unknown option: $a" >&2; exit 2 ;;
    *) OUT="$a" ;;
  esac
done
SHARED="$ROOT/../shared"
REPLICATE="$SHARED/bench/replicate_trace.py"
KINETO_SRC="$SHARED/corpus/tracelens_h100_vs_mi300_hf_models/h100/google_owlv2-large-patch14-ensemble__1016001.json.gz"
ASCEND_SRC="$SHARED/corpus/msinsight_pt_text_2025_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"
for f in "$REPLICATE" "$KINETO_SRC" "$ASCEND_SRC"; do
  [ -f "$f" ] || { echo "missing $f (the shared corpus must be at ../shared)" >&2; exit 3; }
done
mkdir -p "$OUT"
[ -f "$OUT/owlv2_h100.json" ] || gzip -dc "$KINETO_SRC" > "$OUT/owlv2_h100.json"

gen() {  # gen NAME SOURCE COPIES
  local name="$1" src="$2" copies="$3"
  if [ -f "$OUT/$name" ]; then echo "have $OUT/$name"; return; fi
  echo "making $OUT/$name ($copies copies of $(basename "$src"))"
  python3 "$REPLICATE" "$src" "$OUT/$name.tmp" "$copies" && mv "$OUT/$name.tmp" "$OUT/$name"
}
gen kineto_100m.json "$OUT/owlv2_h100.json" 2
gen ascend_100m.json "$ASCEND_SRC" 40
if [ "$SMALL_ONLY" = 0 ]; then
  gen kineto_1g.json "$OUT/owlv2_h100.json" 25
  gen ascend_1g.json "$ASCEND_SRC" 400
fi
ls -l "$OUT"

if [ "$RUN" = 1 ]; then
  BENCH="${LOAD_BENCH:-build/bench/load_bench}"
  [ -x "$BENCH" ] || { echo "build $BENCH first (ninja -C build load_bench)" >&2; exit 3; }
  for f in kineto_100m ascend_100m kineto_1g ascend_1g; do
    [ -f "$OUT/$f.json" ] || continue
    "$BENCH" "$OUT/$f.json" --scan-only
    "$BENCH" "$OUT/$f.json" --repeat 3 | grep 'MB/s'
  done
fi
