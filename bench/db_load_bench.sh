#!/usr/bin/env bash
# Ascend DB export loading benchmark (docs/performance.md, "## Ascend DB export at scale").
#
#   bench/db_load_bench.sh [--tasks N] [--runs N] [--build DIR] [--work DIR] [--baseline BIN] [--instructions]
#
# Makes (once) a DB export of about N TASK rows (default 500000; the issue's budget is for 5000000)
# from the corpus with bench/make_db_bench.py, in the work directory (default build/bench-db, never
# the repository; delete it to make it again), then times `profdiff inspect` of it, which loads the
# whole profile: with the default threads and with --threads 1, the median of --runs runs by wall
# time (wall seconds, user+sys CPU seconds, peak RSS MiB from /usr/bin/time). With --baseline BIN
# (an older profdiff) both binaries run interleaved, so that both see the same machine load. Then
# one load step by step (`inspect --verbose`: each table's wall and CPU time, the peak RSS so far).
# With --instructions, the instructions of one `inspect --threads 1` run as well (callgrind: a cost that
# does not move with the machine's load; slow at 5 M tasks). Needs ../shared and Python 3.
set -euo pipefail

tasks=500000
args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --tasks) tasks="$2"; shift ;;
    *) args+=("$1") ;;
  esac
  shift
done
set -- "${args[@]+"${args[@]}"}"

BENCH_SCRIPT="$0"
BENCH_WORK_NAME=bench-db
BENCH_PAIR=0
# shellcheck source=bench/bench_common.sh
source "$(dirname "$0")/bench_common.sh"

input="$work/db_bench_ascend_pt"
[[ -d "$input" ]] || python3 "$here/bench/make_db_bench.py" --tasks "$tasks" "$work" >&2
echo "input: $input ($(du -sh "$input" | cut -f1))"

# measure LABEL ARGS...: the median of $runs runs of `inspect ARGS` (with --baseline: its runs and
# ours in turn).
measure() {
  local label="$1"; shift
  local ours=() theirs=()
  for ((i = 0; i < runs; ++i)); do
    [[ -n "$baseline" ]] && theirs+=("$(run_once "$baseline" inspect "$@" "$input")")
    ours+=("$(run_once "$bin" inspect "$@" "$input")")
  done
  [[ -n "$baseline" ]] && printf '%-34s %s\n' "baseline $label" "$(median_of "${theirs[@]}")"
  printf '%-34s %s\n' "$label" "$(median_of "${ours[@]}")"
}

echo "                                   wall_s cpu_s rss_MiB (median of $runs)"
measure "inspect, default threads"
measure "inspect, --threads 1" --threads 1
# Where one load's time and memory go: `inspect --verbose` prints each step of the DB load.
echo "one load by step (inspect --verbose, default threads):"
"$bin" inspect --verbose "$input" 2>&1 >/dev/null | grep '^profdiff: load ' | sed 's/^profdiff: load /  /'
if [[ "$instructions" == 1 ]]; then
  [[ -n "$baseline" ]] && echo "baseline instructions, threads 1: $(instructions_of "$baseline" inspect --threads 1 "$input")"
  echo "instructions, threads 1:          $(instructions_of "$bin" inspect --threads 1 "$input")"
fi
