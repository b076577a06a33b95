#!/usr/bin/env bash
# Every comparison on every core (docs/performance.md, "Every comparison on every core", issue 35).
#
#   bench/scaling_bench.sh [--runs N] [--build DIR] [--work DIR] [--baseline BIN] [--copies "4 29"]
#
# On the ResNet50 Kineto pair of the corpus and on copies of it made by
# ../shared/bench/replicate_trace.py (×4 and ×29 by default: ~140 MB and ~1 GB a side, kept in the work
# directory), interleaved so that every case sees the same machine load, and prints medians:
#   1. the 1 GB pair (the largest copy) with every comparison and the workbook against the overall
#      comparison alone (--enable_profiling_compare): wall, CPU, peak RSS and the every/overall ratio;
#   2. each phase's CPU time per copy (--verbose) at every size, and the largest/smallest-copy ratio
#      of each (a linear phase stays near 1);
#   3. `inspect` of one 1 GB trace with --threads 1 and with the default (one thread per core).
# With --baseline BIN (an older profdiff), its runs of case 1 are measured too, interleaved.
set -euo pipefail

BENCH_SCRIPT="$0"
BENCH_WORK_NAME=bench-scaling
copies="4 29"
args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --copies) copies="$2"; shift ;;
    *) args+=("$1") ;;
  esac
  shift
done
# shellcheck source=bench/bench_common.sh
source "$(dirname "$0")/bench_common.sh" "${args[@]}"

sizes=(1)
for n in $copies; do
  sizes+=("$n")
  for x in a b; do
    if [[ ! -s "$work/${x}_x$n.json" ]]; then
      echo "making $work/${x}_x$n.json ($n copies) ..."
      /usr/bin/python3 "$shared/bench/replicate_trace.py" "$work/$x.json" "$work/${x}_x$n.json.tmp" "$n" > /dev/null
      mv "$work/${x}_x$n.json.tmp" "$work/${x}_x$n.json"
    fi
  done
  ln -sf "$work/a.json" "$work/a_x1.json"
  ln -sf "$work/b.json" "$work/b_x1.json"
done
big="${sizes[-1]}"
echo "profdiff $("$bin" --version | awk '{print $2}'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

# phases_of N: `compare --verbose` of the ×N pair with every comparison; prints "phase cpu_ms" lines
# (the overall comparison's row, which renders its sheet, is "overall row").
phases_of() {
  "$bin" compare -bp "$work/a_x$1.json" -d "$work/b_x$1.json" -o "$work/out.xlsx" --force --verbose 2>&1 >/dev/null |
    sed -n 's/^profdiff: phase \(.*\): \([0-9.]*\) ms wall, \([0-9.]*\) ms CPU.*/\1\t\3/p' |
    awk -F'\t' '$1 == "overall" && seen++ { $1 = "overall row" } { print $1 "\t" $2 }'
}

# 1. The 1 GB pair: every comparison against the overall comparison alone.
common=(compare -bp "$work/a_x$big.json" -d "$work/b_x$big.json" -o "$work/out.xlsx" --force -q)
alone=() every=() old_every=()
for ((i = 0; i < runs; i++)); do
  alone+=("$(run_once "$bin" "${common[@]}" --enable_profiling_compare)")
  every+=("$(run_once "$bin" "${common[@]}")")
  [[ -z "$baseline" ]] || old_every+=("$(run_once "$baseline" "${common[@]}")")
done
read -r aw ac ar <<< "$(median_of "${alone[@]}")"
read -r ew ec er <<< "$(median_of "${every[@]}")"
printf '×%s pair, overall comparison alone        wall %6.2f s  cpu %6.2f s  peak RSS %7.1f MiB\n' "$big" "$aw" "$ac" "$ar"
printf '×%s pair, every comparison + workbook     wall %6.2f s  cpu %6.2f s  peak RSS %7.1f MiB\n' "$big" "$ew" "$ec" "$er"
if [[ -n "$baseline" ]]; then
  read -r ow oc or <<< "$(median_of "${old_every[@]}")"
  printf '×%s pair, every comparison (baseline)     wall %6.2f s  cpu %6.2f s  peak RSS %7.1f MiB\n' "$big" "$ow" "$oc" "$or"
fi
printf '×%s pair, every / alone                   wall x%.2f  cpu x%.2f\n' "$big" \
  "$(awk -v p="$ew" -v q="$aw" 'BEGIN { print p / q }')" "$(awk -v p="$ec" -v q="$ac" 'BEGIN { print p / q }')"

# 2. Each phase's CPU per copy (median of the runs), at every size.
declare -A per_copy
for n in "${sizes[@]}"; do
  tmp="$work/phases_$n.txt"; : > "$tmp"
  for ((i = 0; i < runs; i++)); do phases_of "$n" >> "$tmp"; done
  while IFS= read -r phase; do
    values="$(awk -F'\t' -v p="$phase" '$1 == p { print $2 }' "$tmp" | sort -n)"
    cpu="$(sed -n "$((($(wc -l <<< "$values") + 1) / 2))p" <<< "$values")"
    per_copy["$phase,$n"]="$(awk -v c="$cpu" -v n="$n" 'BEGIN { printf "%.4f", c / n }')"
  done < <(cut -f1 "$tmp" | sort -u)
done
printf '\n%-22s' "CPU ms per copy"; for n in "${sizes[@]}"; do printf '%10s' "×$n"; done; printf '%12s\n' "×$big/×${sizes[1]}"
for phase in "load inputs" "build timelines" "overall" "overall row" "operator pairing" "gate and comparisons" "gate" "operators" "memory" \
             "communication" "api" "kernel" "write outputs"; do
  printf '%-22s' "$phase"
  # Per copy to 0.01 ms; the ratio from the unrounded values (--verbose prints each phase to 0.1 ms,
  # so a phase of well under 1 ms at the smaller size has a coarse ratio).
  for n in "${sizes[@]}"; do
    v="${per_copy["$phase,$n"]:-}"
    if [[ -n "$v" ]]; then printf '%10.2f' "$v"; else printf '%10s' -; fi
  done
  printf '%12s\n' "$(awk -v a="${per_copy["$phase,$big"]:-0}" -v b="${per_copy["$phase,${sizes[1]}"]:-0}" \
                     'BEGIN { if (b > 0) printf "x%.2f", a / b; else print "-" }')"
done

# 3. Loading one 1 GB trace: one thread against one per core.
one=() all=()
for ((i = 0; i < runs; i++)); do
  one+=("$(run_once "$bin" inspect "$work/a_x$big.json" --threads 1)")
  all+=("$(run_once "$bin" inspect "$work/a_x$big.json")")
done
read -r ow oc or <<< "$(median_of "${one[@]}")"
read -r dw dc dr <<< "$(median_of "${all[@]}")"
printf '\ninspect ×%s trace, --threads 1        wall %6.2f s  cpu %6.2f s  peak RSS %7.1f MiB\n' "$big" "$ow" "$oc" "$or"
printf 'inspect ×%s trace, default threads    wall %6.2f s  cpu %6.2f s  peak RSS %7.1f MiB\n' "$big" "$dw" "$dc" "$dr"
printf 'inspect ×%s trace, --threads 1 / default  wall x%.2f\n' "$big" "$(awk -v p="$ow" -v q="$dw" 'BEGIN { print p / q }')"
echo "load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
