#!/usr/bin/env bash
# `profdiff cluster` in shards (docs/rank-summary.md) against the one-machine run, on a synthetic run of
# N Kineto ranks (bench/make_cluster.py; rank 1 a straggler): the one-machine `cluster -d`, the map as
# K `cluster summarize` shards run one after the other (each on every core, as K machines would run
# them at once), the reduce `cluster --summaries`, each under /usr/bin/time -v (wall, CPU, peak RSS);
# the summaries' size per rank; and a check that the reduce's JSON equals the one-machine JSON.
#
#   bench/cluster_shards_bench.sh [--ranks N] [--shards K] [--source TRACE] [--build DIR] [--work DIR]
#
# TRACE (default: the corpus's hta_trace_filter rank 0, 1.8 MB, 10 NCCL collectives) is copied N
# times (default 1000), gzip'd, into WORK/shards_N (made once, kept: delete it to remake).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="$here/build"; ranks=1000; shards=8; work=""
source="$here/../shared/corpus/hta_trace_filter/sampled_rank-0.json.gz"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --ranks) ranks="$2"; shift ;;
    --shards) shards="$2"; shift ;;
    --source) source="$2"; shift ;;
    --build) build="$2"; shift ;;
    --work) work="$2"; shift ;;
    *) echo "usage: $0 [--ranks N] [--shards K] [--source TRACE] [--build DIR] [--work DIR]" >&2; exit 2 ;;
  esac
  shift
done
bin="$build/src/cli/profdiff"
[[ -x "$bin" ]] || { echo "no profdiff binary at $bin (build first)" >&2; exit 2; }
[[ -f "$source" ]] || { echo "no source trace $source (../shared, or --source)" >&2; exit 2; }
work="${work:-$build/bench-cluster}/shards_$ranks"
if [[ ! -f "$work/done" ]]; then
  rm -rf "$work"; mkdir -p "$work"
  echo "making $ranks ranks from $source in $work ..."
  python3 "$here/bench/make_cluster.py" "$source" "$work/run" --ranks "$ranks" --straggler 1 --delay-ms 20 --gzip
  touch "$work/done"
fi
rm -rf "$work/one" "$work/sharded" "$work/sums"

# timed NAME CMD...: runs CMD under /usr/bin/time -v, prints "NAME wall_s cpu_s peak_MiB".
timed() {
  local name="$1"; shift
  /usr/bin/time -v "$@" > "$work/$name.stdout" 2> "$work/$name.time" || { cat "$work/$name.time" >&2; exit 1; }
  awk -F': ' -v name="$name" '
    /Elapsed \(wall clock\)/ { n = split($2, t, ":"); w = (n == 3) ? t[1]*3600 + t[2]*60 + t[3] : t[1]*60 + t[2] }
    /User time/ { u = $2 } /System time/ { s = $2 } /Maximum resident/ { r = $2 }
    END { printf "%-28s %8.2f s wall %8.2f s CPU %8.1f MiB peak\n", name, w, u + s, r / 1024 }' "$work/$name.time"
}

echo "profdiff $("$bin" --version | awk '{print $2}'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "run of $ranks ranks: $(du -sh "$work/run" | cut -f1) gzip'd; $shards shards"
timed one_machine "$bin" cluster -d "$work/run" -o "$work/out" -q --verbose
mv "$work/out" "$work/one"
map_wall=0; map_cpu=0; map_rss=0
for ((i = 0; i < shards; i++)); do
  line="$(timed "shard_$i" "$bin" cluster summarize -d "$work/run" -o "$work/sums" --shard-index "$i" --shard-count "$shards" -q --verbose)"
  read -r wall cpu rss <<< "$(awk '{print $2, $5, $8}' <<< "$line")"
  map_wall="$(awk -v a="$map_wall" -v b="$wall" 'BEGIN{print a + b}')"
  map_cpu="$(awk -v a="$map_cpu" -v b="$cpu" 'BEGIN{print a + b}')"
  map_rss="$(awk -v a="$map_rss" -v b="$rss" 'BEGIN{print (b > a) ? b : a}')"
done
printf "%-28s %8.2f s wall %8.2f s CPU %8.1f MiB peak (the largest shard's)\n" "map: $shards shards in turn" \
  "$map_wall" "$map_cpu" "$map_rss"
timed reduce "$bin" cluster --summaries "$work/sums" -o "$work/out" -q --verbose
mv "$work/out" "$work/sharded"
awk -v n="$ranks" '{ s += $1; if ($1 > m) m = $1 } END { printf "summaries: %d files, %.1f MiB in all, %.1f KiB a rank on average, %.1f KiB the largest\n", NR, s / 1048576, s / NR / 1024, m / 1024 }' \
  <(find "$work/sums" -name 'rank_*.summary.json' -printf '%s\n')
echo "one machine, load and summarise ranks: $(grep -m1 'load and summarise ranks' "$work/one_machine.time" || true)"
awk '/phase load and summarise ranks/ { for (i = 1; i <= NF; ++i) if ($(i+1) == "ms" && $(i+2) == "CPU,") c += $i }
     /phase discover ranks/ { for (i = 1; i <= NF; ++i) if ($(i+1) == "ms" && $(i+2) == "CPU,") d += $i }
     END { printf "map, the %d shards: load and summarise ranks %.1f ms CPU in all, discover ranks %.1f ms CPU in all\n", n, c, d }' \
  n="$shards" "$work"/shard_*.time
echo "reduce, reading the summaries:          $(grep -m1 'read summaries' "$work/reduce.time" || true)"
# The JSON lists its outputs by absolute path: compare it with the -o directory's name made equal.
if cmp -s <(sed "s#$work/one#OUT#g; s#$work/out#OUT#g" "$work/one/profdiff_cluster.json") \
          <(sed "s#$work/sharded#OUT#g; s#$work/out#OUT#g" "$work/sharded/profdiff_cluster.json"); then
  echo "the reduce's profdiff_cluster.json equals the one-machine one"
else
  echo "error: the reduce's profdiff_cluster.json differs from the one-machine one" >&2; exit 1
fi
