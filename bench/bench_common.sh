# Shared by the benchmarks of bench/ (sourced, not run): options [--big] [--runs N] [--build DIR]
# [--work DIR] [--baseline BIN] [--instructions] (comparisons_bench.sh), the paths (the ResNet50 pair of ../shared/corpus, unpacked into the
# work directory as a.json and b.json), and run_once / median_of. The sourcing script sets
# BENCH_SCRIPT to "$0" first (this file finds the repository from it); BENCH_WORK_NAME names the
# default work directory under the build (bench-overall), and BENCH_PAIR=0 skips the ResNet50 pair
# (a benchmark of other inputs).
here="$(cd "$(dirname "$BENCH_SCRIPT")/.." && pwd)"
build="$here/build"
work=""
runs=5
big=0
baseline=""
instructions=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --big) big=1 ;;
    --runs) runs="$2"; shift ;;
    --build) build="$2"; shift ;;
    --work) work="$2"; shift ;;
    --baseline) baseline="$2"; shift ;;
    --instructions) instructions=1 ;;
    *) echo "usage: $0 [--big] [--runs N] [--build DIR] [--work DIR] [--baseline BIN] [--instructions]" >&2; exit 2 ;;
  esac
  shift
done
work="${work:-$build/${BENCH_WORK_NAME:-bench-overall}}"
bin="$build/src/cli/profdiff"
shared="$here/../shared"
pair="$shared/corpus/kineto_resnet50_v100_2021jun_devprops/resnet50_num_workers_0"
[[ -x "$bin" ]] || { echo "no profdiff binary at $bin (build first)" >&2; exit 2; }
[[ -d "$shared/corpus" ]] || { echo "the corpus is not at $shared (needed for the benchmark)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time is needed (apt-get install time)" >&2; exit 2; }
[[ -z "$baseline" || -x "$baseline" ]] || { echo "no baseline binary at $baseline" >&2; exit 2; }
mkdir -p "$work"

a="$work/a.json"; b="$work/b.json"
if [[ "${BENCH_PAIR:-1}" == 1 ]]; then
  [[ -d "$pair" ]] || { echo "the ResNet50 pair is not at $pair (needed for the benchmark)" >&2; exit 2; }
  [[ -s "$a" ]] || gunzip -c "$pair/worker0.1623143089861.pt.trace.json.gz" > "$a"
  [[ -s "$b" ]] || gunzip -c "$pair/worker0.1623143566756.pt.trace.json.gz" > "$b"
fi

# run_once CMD...: runs CMD once under /usr/bin/time -v, prints "wall cpu rss_mib".
run_once() {
  /usr/bin/time -v "$@" > /dev/null 2> "$work/time.txt" || { cat "$work/time.txt" >&2; exit 1; }
  awk -F': ' '
    /Elapsed \(wall clock\)/ { n = split($2, t, ":"); w = (n == 3) ? t[1]*3600 + t[2]*60 + t[3] : t[1]*60 + t[2] }
    /User time/ { u = $2 } /System time/ { s = $2 } /Maximum resident/ { r = $2 }
    END { printf "%.2f %.2f %.1f\n", w, u + s, r / 1024 }' "$work/time.txt"
}

# instructions_of CMD...: the instructions CMD executes (valgrind's callgrind, all threads): a cost
# that does not move with the machine's load, unlike wall and CPU times.
instructions_of() {
  command -v valgrind > /dev/null || { echo "valgrind is needed for --instructions (apt-get install valgrind)" >&2; exit 2; }
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 > /dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

# median_of LINE...: the line with the median wall time.
median_of() {
  printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"
}
