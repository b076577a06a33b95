#!/usr/bin/env bash
# Module comparison at scale (docs/performance.md, "## Module comparison at scale").
#
#   bench/module_bench.sh [--runs N] [--build DIR] [--work DIR] [--baseline BIN] [--big]
#
# The TraceLens H100 google_owlv2 Kineto trace of ../shared/corpus (55 MB, 2345 nn.Module events,
# 65 k python functions) is replicated 8 times (333 MB) and, with --big, 20 times (834 MB) by
# ../shared/bench/replicate_trace.py into the work directory; each replica is compared against the
# original (`compare -d <replica> -bp <original>`), interleaved:
#   "default":          every comparison, the module comparison included (the workbook),
#   "default + JSON":   the same with --json (every section built),
#   "--disable_module": the operator comparison instead of the module one,
# and the medians of wall, CPU and peak RSS (/usr/bin/time -v) are printed, with the inputs' size.
# With --baseline BIN (an older profdiff) its default run is measured too, interleaved.
# The replicas (~1.2 GB with --big) stay in the work directory: delete it when done.
set -euo pipefail

BENCH_SCRIPT="$0"
# shellcheck source=bench/bench_common.sh
source "$(dirname "$0")/bench_common.sh"
[[ "$work" != "$build/bench-overall" ]] || work="$build/bench-module"
mkdir -p "$work"

owl="$shared/corpus/tracelens_h100_vs_mi300_hf_models/h100/google_owlv2-large-patch14-ensemble__1016001.json.gz"
[[ -s "$owl" ]] || { echo "no owlv2 trace at $owl" >&2; exit 2; }
orig="$work/owlv2.json"
[[ -s "$orig" ]] || gunzip -c "$owl" > "$orig"

# replica N: the path of the N-copy replica, made once.
replica() {
  local out="$work/owlv2_x$1.json"
  if [[ ! -s "$out" ]]; then
    /usr/bin/python3 "$shared/bench/replicate_trace.py" "$orig" "$out.tmp" "$1" > /dev/null
    mv "$out.tmp" "$out"
  fi
  echo "$out"
}

# cases N: the interleaved runs of the N-copy replica against the original.
cases() {
  local x
  x="$(replica "$1")"
  local common=(compare -d "$x" -bp "$orig" -o "$work/out.xlsx" --force -q)
  local olds=() defs=() jsons=() offs=()
  for ((i = 0; i < runs; i++)); do
    [[ -z "$baseline" ]] || olds+=("$(run_once "$baseline" "${common[@]}")")
    defs+=("$(run_once "$bin" "${common[@]}")")
    jsons+=("$(run_once "$bin" "${common[@]}" --json "$work/out.json")")
    offs+=("$(run_once "$bin" "${common[@]}" --disable_module)")
  done
  local mb=$(( ($(stat -c %s "$x") + $(stat -c %s "$orig")) / 1000000 ))
  local label="x$1 ($mb MB of inputs)"
  local name lines
  for name in baseline default json off; do
    case "$name" in
      baseline) [[ -n "$baseline" ]] || continue; lines=("${olds[@]}") ;;
      default) lines=("${defs[@]}") ;;
      json) lines=("${jsons[@]}") ;;
      off) lines=("${offs[@]}") ;;
    esac
    local w c r
    read -r w c r <<< "$(median_of "${lines[@]}")"
    printf '%-24s %-22s wall %6.2f s  cpu %6.2f s  peak RSS %7.1f MiB\n' "$label" \
      "$(case "$name" in baseline) echo "baseline (default)" ;; default) echo "default" ;;
                        json) echo "default + JSON" ;; off) echo "--disable_module" ;; esac)" "$w" "$c" "$r"
  done
}

echo "profdiff $("$bin" --version | awk '{print $2}'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "owlv2 trace: $(du -m "$orig" | cut -f1) MB; $runs runs each, interleaved, medians"
cases 8
[[ $big == 0 ]] || cases 20
echo "load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
