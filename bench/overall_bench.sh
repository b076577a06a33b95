#!/usr/bin/env bash
# Overall-comparison benchmark (docs/performance.md, "## Overall comparison").
#
#   bench/overall_bench.sh [--big] [--runs N] [--build DIR] [--work DIR]
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
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
build="$here/build"
work=""
runs=5
big=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --big) big=1 ;;
    --runs) runs="$2"; shift ;;
    --build) build="$2"; shift ;;
    --work) work="$2"; shift ;;
    *) echo "usage: $0 [--big] [--runs N] [--build DIR] [--work DIR]" >&2; exit 2 ;;
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
mkdir -p "$work"

a="$work/a.json"; b="$work/b.json"
[[ -s "$a" ]] || gunzip -c "$pair/worker0.1623143089861.pt.trace.json.gz" > "$a"
[[ -s "$b" ]] || gunzip -c "$pair/worker0.1623143566756.pt.trace.json.gz" > "$b"

# measure LABEL CMD...: runs CMD $runs times, prints the median run.
measure() {
  local label="$1"; shift
  local lines=()
  for ((i = 0; i < runs; i++)); do
    /usr/bin/time -v "$@" > /dev/null 2> "$work/time.txt" || { cat "$work/time.txt" >&2; exit 1; }
    lines+=("$(awk -F': ' '
      /Elapsed \(wall clock\)/ { n = split($2, t, ":"); w = (n == 3) ? t[1]*3600 + t[2]*60 + t[3] : t[1]*60 + t[2] }
      /User time/ { u = $2 } /System time/ { s = $2 } /Maximum resident/ { r = $2 }
      END { printf "%.2f %.2f %.1f\n", w, u + s, r / 1024 }' "$work/time.txt")")
  done
  local med
  med="$(printf '%s\n' "${lines[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p")"
  read -r w c r <<< "$med"
  printf '%-58s wall %6.2f s  cpu %6.2f s  peak RSS %7.1f MiB\n' "$label" "$w" "$c" "$r"
}

out="$work/out.xlsx"
echo "profdiff $("$bin" --version | awk '{print $2}'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "inputs: $(du -m "$a" | cut -f1) MB + $(du -m "$b" | cut -f1) MB"
measure "inspect a.json (loading one trace)" "$bin" inspect "$a"
measure "compare a.json b.json (exact)" "$bin" compare -bp "$a" -d "$b" -o "$out" --force -q --enable_profiling_compare
measure "compare a.json b.json (--reference-compat)" "$bin" compare -bp "$a" -d "$b" -o "$out" --force -q \
  --enable_profiling_compare --reference-compat
measure "compare .json.gz pair (exact)" "$bin" compare -bp "$pair/worker0.1623143089861.pt.trace.json.gz" \
  -d "$pair/worker0.1623143566756.pt.trace.json.gz" -o "$out" --force -q --enable_profiling_compare

if [[ $big == 1 ]]; then
  for x in a b; do
    if [[ ! -s "$work/${x}_1g.json" ]]; then
      echo "making $work/${x}_1g.json (29 copies) ..."
      /usr/bin/python3 "$shared/bench/replicate_trace.py" "$work/$x.json" "$work/${x}_1g.json.tmp" 29
      mv "$work/${x}_1g.json.tmp" "$work/${x}_1g.json"
    fi
  done
  runs=3
  echo "inputs: $(du -m "$work/a_1g.json" | cut -f1) MB + $(du -m "$work/b_1g.json" | cut -f1) MB"
  measure "inspect a_1g.json (loading one trace)" "$bin" inspect "$work/a_1g.json"
  measure "compare a_1g.json b_1g.json (exact)" "$bin" compare -bp "$work/a_1g.json" -d "$work/b_1g.json" \
    -o "$out" --force -q --enable_profiling_compare
  measure "compare a_1g.json b_1g.json (--reference-compat)" "$bin" compare -bp "$work/a_1g.json" \
    -d "$work/b_1g.json" -o "$out" --force -q --enable_profiling_compare --reference-compat
fi
