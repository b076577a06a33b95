#!/usr/bin/env bash
# Overall-comparison benchmark (docs/performance.md, "## Overall comparison").
#
#   bench/overall_bench.sh [--big] [--runs N] [--build DIR] [--work DIR] [--baseline BIN]
#
# 1. The ResNet50 Kineto pair of the corpus (2 x 35 MB uncompressed; the reference takes 23.8 s and
#    465 MB): `profdiff compare` with the default (exact) arithmetic and with --reference-compat, the
#    workbook written; then the same reading the .json.gz files directly. `profdiff inspect` of one file
#    shows what loading alone costs.
# 2. With --big: two ~1 GB traces made from the pair with ../shared/bench/replicate_trace.py (29 copies
#    each, written to the work directory, never to the repository), compared the same way.
#
# Each line: wall seconds, user+sys CPU seconds and peak RSS (MiB), from /usr/bin/time -v; the median
# run by wall time is printed. Needs ../shared (the corpus) next to the repository.
#
# With --baseline BIN (an older profdiff, e.g. one built before a restructure): the compare cases run
# both binaries interleaved (old, new, old, new, ...) so that both see the same machine load, and
# each line gives both medians and the new/old ratio of wall and CPU time. The compat cases give the
# old binary its bare --reference-compat (release line 8.2 before 26.1 existed) and the new one
# --reference-compat=8.2 (same arithmetic) and the bare flag (the same command line, now 26.1).
# The cases are then the screen's defaults (overall + operators) and --enable_profiling_compare.
set -euo pipefail

BENCH_SCRIPT="$0"
# shellcheck source=bench/bench_common.sh
source "$(dirname "$0")/bench_common.sh"

# measure LABEL CMD...: runs CMD $runs times, prints the median run.
measure() {
  local label="$1"; shift
  local lines=()
  for ((i = 0; i < runs; i++)); do lines+=("$(run_once "$@")"); done
  local w c r
  read -r w c r <<< "$(median_of "${lines[@]}")"
  printf '%-58s wall %6.2f s  cpu %6.2f s  peak RSS %7.1f MiB\n' "$label" "$w" "$c" "$r"
}

# measure_ab LABEL OLD_FLAG NEW_FLAG ARGS...: runs "$baseline ARGS OLD_FLAG" and "$bin ARGS NEW_FLAG"
# alternately, $runs times each (a flag of "-" means none), prints both medians and new/old.
measure_ab() {
  local label="$1" old_flag="$2" new_flag="$3"; shift 3
  local old_extra=() new_extra=() olds=() news=()
  [[ "$old_flag" == "-" ]] || old_extra=("$old_flag")
  [[ "$new_flag" == "-" ]] || new_extra=("$new_flag")
  for ((i = 0; i < runs; i++)); do
    olds+=("$(run_once "$baseline" "$@" "${old_extra[@]}")")
    news+=("$(run_once "$bin" "$@" "${new_extra[@]}")")
  done
  local ow oc or nw nc nr
  read -r ow oc or <<< "$(median_of "${olds[@]}")"
  read -r nw nc nr <<< "$(median_of "${news[@]}")"
  printf '%-66s old %6.2f s %6.2f cpu %6.1f MiB | new %6.2f s %6.2f cpu %6.1f MiB | wall x%.2f cpu x%.2f\n' \
    "$label" "$ow" "$oc" "$or" "$nw" "$nc" "$nr" "$(awk -v a="$nw" -v b="$ow" 'BEGIN { print a / b }')" \
    "$(awk -v a="$nc" -v b="$oc" 'BEGIN { print a / b }')"
}

# compare_ab NAME A B: the compare cases of one pair, old vs new (see the header).
compare_ab() {
  local name="$1" x="$2" y="$3"
  local common=(compare -bp "$x" -d "$y" -o "$out" --force -q)
  local mode
  for mode in default --enable_profiling_compare; do
    local sel=()
    [[ "$mode" == default ]] || sel=("$mode")
    measure_ab "$name $mode exact" - - "${common[@]}" "${sel[@]}"
    measure_ab "$name $mode compat 8.2" --reference-compat --reference-compat=8.2 "${common[@]}" "${sel[@]}"
    measure_ab "$name $mode compat (bare: old 8.2, new 26.1)" --reference-compat --reference-compat \
      "${common[@]}" "${sel[@]}"
  done
}

out="$work/out.xlsx"

# make_big: the two ~1 GB traces (once; they stay in the work directory).
make_big() {
  for x in a b; do
    if [[ ! -s "$work/${x}_1g.json" ]]; then
      echo "making $work/${x}_1g.json (29 copies) ..."
      /usr/bin/python3 "$shared/bench/replicate_trace.py" "$work/$x.json" "$work/${x}_1g.json.tmp" 29
      mv "$work/${x}_1g.json.tmp" "$work/${x}_1g.json"
    fi
  done
}

if [[ -n "$baseline" ]]; then
  echo "new profdiff $bin, baseline $baseline"
  echo "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); $runs runs each, interleaved, medians"
  compare_ab "resnet50 pair" "$a" "$b"
  if [[ $big == 1 ]]; then
    make_big
    runs=3
    echo "1 GB pair, load average $(cut -d' ' -f1-3 /proc/loadavg); $runs runs each, interleaved, medians"
    compare_ab "1 GB pair" "$work/a_1g.json" "$work/b_1g.json"
  fi
  echo "load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
  exit 0
fi

echo "profdiff $("$bin" --version | awk '{print $2}'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "inputs: $(du -m "$a" | cut -f1) MB + $(du -m "$b" | cut -f1) MB"
measure "inspect a.json (loading one trace)" "$bin" inspect "$a"
measure "compare a.json b.json (exact)" "$bin" compare -bp "$a" -d "$b" -o "$out" --force -q --enable_profiling_compare
measure "compare a.json b.json (--reference-compat)" "$bin" compare -bp "$a" -d "$b" -o "$out" --force -q \
  --enable_profiling_compare --reference-compat
measure "compare .json.gz pair (exact)" "$bin" compare -bp "$pair/worker0.1623143089861.pt.trace.json.gz" \
  -d "$pair/worker0.1623143566756.pt.trace.json.gz" -o "$out" --force -q --enable_profiling_compare

if [[ $big == 1 ]]; then
  make_big
  runs=3
  echo "inputs: $(du -m "$work/a_1g.json" | cut -f1) MB + $(du -m "$work/b_1g.json" | cut -f1) MB"
  measure "inspect a_1g.json (loading one trace)" "$bin" inspect "$work/a_1g.json"
  measure "compare a_1g.json b_1g.json (exact)" "$bin" compare -bp "$work/a_1g.json" -d "$work/b_1g.json" \
    -o "$out" --force -q --enable_profiling_compare
  measure "compare a_1g.json b_1g.json (--reference-compat)" "$bin" compare -bp "$work/a_1g.json" \
    -d "$work/b_1g.json" -o "$out" --force -q --enable_profiling_compare --reference-compat
fi
