#!/usr/bin/env bash
# Cost of every comparison (docs/performance.md, "## Every comparison").
#
#   bench/comparisons_bench.sh [--big] [--runs N] [--build DIR] [--work DIR] [--baseline BIN]
#
# On the ResNet50 Kineto pair of the corpus (and with --big on the two ~1 GB traces made from it by
# ../shared/bench/replicate_trace.py, 29 copies each, kept in the work directory), runs interleaved
# (so that every case sees the same machine load):
#   "overall+operator": --enable_profiling_compare --enable_operator_compare (what ran before the
#                       memory, communication, API and kernel comparisons existed),
#   "every comparison": no --enable_* flag (the workbook), then the same with the JSON result too
#                       (every section built),
# in the exact mode and with --reference-compat, and prints the medians of wall, CPU and peak RSS
# (/usr/bin/time -v) and the every/overall+operator ratios. With --baseline BIN (an older profdiff)
# its overall+operator run is measured too, interleaved, as "today".
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
build="$here/build"
work=""
runs=5
big=0
baseline=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --big) big=1 ;;
    --runs) runs="$2"; shift ;;
    --build) build="$2"; shift ;;
    --work) work="$2"; shift ;;
    --baseline) baseline="$2"; shift ;;
    *) echo "usage: $0 [--big] [--runs N] [--build DIR] [--work DIR] [--baseline BIN]" >&2; exit 2 ;;
  esac
  shift
done
work="${work:-$build/bench-overall}"
bin="$build/src/cli/profdiff"
shared="$here/../shared"
pair="$shared/corpus/kineto_resnet50_v100_2021jun_devprops/resnet50_num_workers_0"
[[ -x "$bin" ]] || { echo "no profdiff binary at $bin (build first)" >&2; exit 2; }
[[ -d "$pair" ]] || { echo "the corpus is not at $shared (needed for the benchmark)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time is needed (apt-get install time)" >&2; exit 2; }
[[ -z "$baseline" || -x "$baseline" ]] || { echo "no baseline binary at $baseline" >&2; exit 2; }
mkdir -p "$work"

a="$work/a.json"; b="$work/b.json"
[[ -s "$a" ]] || gunzip -c "$pair/worker0.1623143089861.pt.trace.json.gz" > "$a"
[[ -s "$b" ]] || gunzip -c "$pair/worker0.1623143566756.pt.trace.json.gz" > "$b"

# run_once CMD...: runs CMD once under /usr/bin/time -v, prints "wall cpu rss_mib".
run_once() {
  /usr/bin/time -v "$@" > /dev/null 2> "$work/time.txt" || { cat "$work/time.txt" >&2; exit 1; }
  awk -F': ' '
    /Elapsed \(wall clock\)/ { n = split($2, t, ":"); w = (n == 3) ? t[1]*3600 + t[2]*60 + t[3] : t[1]*60 + t[2] }
    /User time/ { u = $2 } /System time/ { s = $2 } /Maximum resident/ { r = $2 }
    END { printf "%.2f %.2f %.1f\n", w, u + s, r / 1024 }' "$work/time.txt"
}

# median_of LINE...: the line with the median wall time.
median_of() {
  printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"
}

# pair_cases NAME X Y MODE...: the interleaved cases of one pair in one mode (MODE: extra flags).
pair_cases() {
  local name="$1" x="$2" y="$3"; shift 3
  local common=(compare -bp "$x" -d "$y" -o "$work/out.xlsx" --force -q "$@")
  local two=(--enable_profiling_compare --enable_operator_compare)
  local olds=() twos=() alls=() jsons=()
  for ((i = 0; i < runs; i++)); do
    [[ -z "$baseline" ]] || olds+=("$(run_once "$baseline" "${common[@]}" "${two[@]}")")
    twos+=("$(run_once "$bin" "${common[@]}" "${two[@]}")")
    alls+=("$(run_once "$bin" "${common[@]}")")
    jsons+=("$(run_once "$bin" "${common[@]}" --json "$work/out.json" --force)")
  done
  local tw tc tr aw ac ar jw jc jr
  read -r tw tc tr <<< "$(median_of "${twos[@]}")"
  read -r aw ac ar <<< "$(median_of "${alls[@]}")"
  read -r jw jc jr <<< "$(median_of "${jsons[@]}")"
  local label="$name ${*:-(exact)}"
  if [[ -n "$baseline" ]]; then
    local ow oc or
    read -r ow oc or <<< "$(median_of "${olds[@]}")"
    printf '%-44s today (baseline) overall+operator  wall %6.2f s  cpu %6.2f s  peak RSS %7.1f MiB\n' \
      "$label" "$ow" "$oc" "$or"
  fi
  printf '%-44s overall+operator                  wall %6.2f s  cpu %6.2f s  peak RSS %7.1f MiB\n' \
    "$label" "$tw" "$tc" "$tr"
  printf '%-44s every comparison (workbook)       wall %6.2f s  cpu %6.2f s  peak RSS %7.1f MiB\n' \
    "$label" "$aw" "$ac" "$ar"
  printf '%-44s every comparison + JSON           wall %6.2f s  cpu %6.2f s  peak RSS %7.1f MiB\n' \
    "$label" "$jw" "$jc" "$jr"
  printf '%-44s every / overall+operator          wall x%.2f  cpu x%.2f  (with JSON: wall x%.2f  cpu x%.2f)\n' \
    "$label" "$(awk -v p="$aw" -v q="$tw" 'BEGIN { print p / q }')" "$(awk -v p="$ac" -v q="$tc" 'BEGIN { print p / q }')" \
    "$(awk -v p="$jw" -v q="$tw" 'BEGIN { print p / q }')" "$(awk -v p="$jc" -v q="$tc" 'BEGIN { print p / q }')"
}

echo "profdiff $("$bin" --version | awk '{print $2}'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "resnet50 pair: $(du -m "$a" | cut -f1) MB + $(du -m "$b" | cut -f1) MB; $runs runs each, interleaved, medians"
pair_cases "resnet50 pair" "$a" "$b"
pair_cases "resnet50 pair" "$a" "$b" --reference-compat

if [[ $big == 1 ]]; then
  for x in a b; do
    if [[ ! -s "$work/${x}_1g.json" ]]; then
      echo "making $work/${x}_1g.json (29 copies) ..."
      /usr/bin/python3 "$shared/bench/replicate_trace.py" "$work/$x.json" "$work/${x}_1g.json.tmp" 29
      mv "$work/${x}_1g.json.tmp" "$work/${x}_1g.json"
    fi
  done
  runs=3
  echo "1 GB pair: $(du -m "$work/a_1g.json" | cut -f1) MB + $(du -m "$work/b_1g.json" | cut -f1) MB;" \
    "$runs runs each, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  pair_cases "1 GB pair" "$work/a_1g.json" "$work/b_1g.json"
  pair_cases "1 GB pair" "$work/a_1g.json" "$work/b_1g.json" --reference-compat
fi
echo "load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
