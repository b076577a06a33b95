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
# its overall+operator run is measured too, interleaved, as "today". With --instructions, each case
# of the ResNet50 pair also runs once under valgrind (callgrind), and the instructions it executed
# and their ratios are printed: they hold on a busy machine, where the times move by a third.
set -euo pipefail

BENCH_SCRIPT="$0"
# shellcheck source=bench/bench_common.sh
source "$(dirname "$0")/bench_common.sh"

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
  [[ -z "$baseline" ]] || printf '%-44s every / today overall+operator    wall x%.2f  cpu x%.2f\n' "$label" \
    "$(awk -v p="$aw" -v q="$ow" 'BEGIN { print p / q }')" "$(awk -v p="$ac" -v q="$oc" 'BEGIN { print p / q }')"
}

echo "profdiff $("$bin" --version | awk '{print $2}'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "resnet50 pair: $(du -m "$a" | cut -f1) MB + $(du -m "$b" | cut -f1) MB; $runs runs each, interleaved, medians"
pair_cases "resnet50 pair" "$a" "$b"
pair_cases "resnet50 pair" "$a" "$b" --reference-compat

# instruction_cases MODE...: instructions of each case of the ResNet50 pair in one mode.
instruction_cases() {
  local common=(compare -bp "$a" -d "$b" -o "$work/out.xlsx" --force -q "$@")
  local two=(--enable_profiling_compare --enable_operator_compare)
  local label="resnet50 pair ${*:-(exact)}" ti ai ji oi=""
  [[ -z "$baseline" ]] || oi="$(instructions_of "$baseline" "${common[@]}" "${two[@]}")"
  ti="$(instructions_of "$bin" "${common[@]}" "${two[@]}")"
  ai="$(instructions_of "$bin" "${common[@]}")"
  ji="$(instructions_of "$bin" "${common[@]}" --json "$work/out.json" --force)"
  [[ -z "$oi" ]] || printf '%-44s today (baseline) overall+operator  %6.0f M instructions\n' "$label" "$((oi / 1000000))"
  printf '%-44s overall+operator                  %6.0f M instructions\n' "$label" "$((ti / 1000000))"
  printf '%-44s every comparison (workbook)       %6.0f M instructions  x%.3f' "$label" "$((ai / 1000000))" \
    "$(awk -v p="$ai" -v q="$ti" 'BEGIN { print p / q }')"
  [[ -z "$oi" ]] || printf '  (x%.3f today)' "$(awk -v p="$ai" -v q="$oi" 'BEGIN { print p / q }')"
  printf '\n%-44s every comparison + JSON           %6.0f M instructions  x%.3f\n' "$label" "$((ji / 1000000))" \
    "$(awk -v p="$ji" -v q="$ti" 'BEGIN { print p / q }')"
}
if [[ $instructions == 1 ]]; then
  instruction_cases
  instruction_cases --reference-compat
fi

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
