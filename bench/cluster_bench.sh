#!/usr/bin/env bash
# `profdiff cluster` on two synthetic runs of N Kineto ranks each (bench/make_cluster.py): the run
# with a straggler (rank 1 computes 20 ms longer before the 3rd collective) against the same run
# without it, under /usr/bin/time -v: wall, CPU and peak RSS, medians of --runs.
#
#   bench/cluster_bench.sh [--ranks N] [--source TRACE] [--runs R] [--build DIR] [--work DIR] [-- FLAGS...]
#
# TRACE (default: the corpus's hta_df_index_resolver rank, a 54 MB V100 training rank with NCCL
# kernels, "real per-rank size") is copied N times (default 256) per run, gzip'd, into
# WORK/cluster_N (made once, kept: delete it to remake). FLAGS go to `profdiff cluster` (e.g. -j 1).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="$here/build"; ranks=256; runs=3; work=""
source="$here/../shared/corpus/hta_df_index_resolver/df_index_resolver.json.gz"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --ranks) ranks="$2"; shift ;;
    --source) source="$2"; shift ;;
    --runs) runs="$2"; shift ;;
    --build) build="$2"; shift ;;
    --work) work="$2"; shift ;;
    --) shift; break ;;
    *) echo "usage: $0 [--ranks N] [--source TRACE] [--runs R] [--build DIR] [--work DIR] [-- FLAGS...]" >&2; exit 2 ;;
  esac
  shift
done
flags=("$@")
bin="$build/src/cli/profdiff"
[[ -x "$bin" ]] || { echo "no profdiff binary at $bin (build first)" >&2; exit 2; }
[[ -f "$source" ]] || { echo "no source trace $source (../shared, or --source)" >&2; exit 2; }
work="${work:-$build/bench-cluster}/cluster_$ranks"
if [[ ! -f "$work/done" ]]; then
  rm -rf "$work"; mkdir -p "$work"
  echo "making $ranks ranks per run from $source in $work ..."
  python3 "$here/bench/make_cluster.py" "$source" "$work/slow" --ranks "$ranks" --straggler 1 --delay-ms 20 \
    --collective 2 --gzip
  python3 "$here/bench/make_cluster.py" "$source" "$work/base" --ranks "$ranks" --gzip
  touch "$work/done"
fi
echo "profdiff $("$bin" --version | awk '{print $2}'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "runs of $ranks ranks: $(du -sh "$work/slow" | cut -f1) + $(du -sh "$work/base" | cut -f1) gzip'd," \
     "$(( $(stat -c %s "$work/slow/rank0.json.gz") * 0 + $(zcat "$work/slow/rank0.json.gz" | wc -c) / 1000000 )) MB a rank unpacked"
results=()
for ((i = 0; i < runs; i++)); do
  /usr/bin/time -v "$bin" cluster -d "$work/slow" -bp "$work/base" -o "$work/out" --force -q "${flags[@]}" \
    > "$work/stdout.txt" 2> "$work/time.txt" || { cat "$work/time.txt" >&2; exit 1; }
  results+=("$(awk -F': ' '
    /Elapsed \(wall clock\)/ { n = split($2, t, ":"); w = (n == 3) ? t[1]*3600 + t[2]*60 + t[3] : t[1]*60 + t[2] }
    /User time/ { u = $2 } /System time/ { s = $2 } /Maximum resident/ { r = $2 }
    END { printf "%.2f %.2f %.1f\n", w, u + s, r / 1024 }' "$work/time.txt")")
done
printf '%s\n' "${results[@]}" | sort -n | awk -v n="$runs" 'NR == int((n + 1) / 2) {
  printf "cluster -d (with straggler) -bp (without): wall %.2f s, CPU %.2f s, peak RSS %.1f MiB (median of %d)\n", $1, $2, $3, n }'
grep -E "why:|slow rank|gate:" "$work/stdout.txt" || true
