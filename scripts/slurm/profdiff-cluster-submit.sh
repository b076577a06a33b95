#!/usr/bin/env bash
# Submits a whole-run `profdiff cluster` to Slurm as a map and a reduce:
#
#   scripts/slurm/profdiff-cluster-submit.sh RUN OUT [K] [profdiff cluster flags for the reduce]
#
#   map:    an array of K tasks (sbatch --array=0-(K-1)), task I writing the summaries of its shard of
#           RUN's ranks into SUMDIR (profdiff cluster summarize);
#   reduce: one job that starts once every map task succeeded (--dependency=afterok:<map job id>) and
#           writes OUT/profdiff_cluster.json, .xlsx, .html and OUT/cluster_analysis_output/ from SUMDIR
#           (profdiff cluster --summaries SUMDIR -o OUT [flags]); when a map task fails the reduce is
#           cancelled (--kill-on-invalid-dep=yes) instead of waiting forever.
# It prints both job ids ("map job: <id>" and "reduce job: <id>") and where the logs go. Example:
#
#   PROFDIFF=/shared/bin/profdiff scripts/slurm/profdiff-cluster-submit.sh /lustre/runs/job42 \
#     /lustre/reports/job42 16 -bp /lustre/runs/job41 --gate-e2e 5
#
# K defaults to the number of ranks in RUN (`profdiff cluster summarize -d RUN --list-ranks`, run
# here), at most 16. Flags after K go to the reduce (-bp BASE_RUN, --force, --gate-*, -q, ...).
# RUN, OUT, SUMDIR and the logs must be on a file system every node sees; relative paths are made
# absolute here. Environment:
#   PROFDIFF                the profdiff binary, a path or a name on PATH (default: profdiff); made
#                           absolute here, so the same binary must exist at that path on the nodes
#   PROFDIFF_SUMMARIES      the summaries directory (default: OUT/summaries)
#   PROFDIFF_LOGS           the directory of the jobs' logs (default: OUT/slurm-logs), files
#                           profdiff-map_<job>_<task>.log (%A_%a) and profdiff-reduce_<job>.log
#   PROFDIFF_CPUS           CPUs per task, for the map's and the reduce's (default: 4); each task
#                           loads its ranks on that many workers
#   PROFDIFF_MAP_FLAGS      extra flags for the map's `profdiff cluster summarize` (e.g. --force: replace
#                           summaries of another run), split on spaces; the reduce's --reference-compat,
#                           --input-format and --strict are passed to the map as well
#   PROFDIFF_SBATCH_FLAGS   extra sbatch flags for both jobs (e.g. "--partition=cpu --time=00:30:00"),
#                           split on spaces; sbatch's own SBATCH_* variables work too
#   PROFDIFF_SBATCH_SCRIPT  the batch script (default: profdiff-cluster.sbatch beside this script)
set -euo pipefail

die() { echo "error: $*" >&2; exit 2; }
if [[ $# -lt 2 || "$1" == -h || "$1" == --help ]]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
fi
run="$1" out="$2"
shift 2
shards=""
if [[ $# -gt 0 && "$1" =~ ^[0-9]+$ ]]; then
  shards="$1"
  shift
fi

command -v sbatch > /dev/null || die "sbatch not found: run this on a Slurm submit host"
profdiff_bin="$(command -v -- "${PROFDIFF:-profdiff}" || true)"
[[ -n "$profdiff_bin" ]] || die "profdiff ('${PROFDIFF:-profdiff}') not found: set PROFDIFF to its path"
profdiff_bin="$(realpath -- "$profdiff_bin")"
script="${PROFDIFF_SBATCH_SCRIPT:-$(dirname -- "$(realpath -- "$0")")/profdiff-cluster.sbatch}"
[[ -f "$script" ]] || die "no batch script $script (set PROFDIFF_SBATCH_SCRIPT)"
[[ -d "$run" ]] || die "RUN $run is not a directory"
run="$(realpath -- "$run")"
out="$(realpath -m -- "$out")"
sumdir="$(realpath -m -- "${PROFDIFF_SUMMARIES:-$out/summaries}")"
logdir="$(realpath -m -- "${PROFDIFF_LOGS:-$out/slurm-logs}")"
cpus="${PROFDIFF_CPUS:-4}"
[[ "$cpus" =~ ^[1-9][0-9]*$ ]] || die "PROFDIFF_CPUS must be a positive number, got '$cpus'"
read -r -a map_flags <<< "${PROFDIFF_MAP_FLAGS:-}"
read -r -a sbatch_flags <<< "${PROFDIFF_SBATCH_FLAGS:-}"
# The reduce's flags that shape the summaries go to the map too: the reduce refuses summaries made
# with another --reference-compat, and --input-format / --strict decide how the ranks are read.
reduce_flags=("$@")
for ((i = 0; i < ${#reduce_flags[@]}; i++)); do
  flag="${reduce_flags[i]}" next="${reduce_flags[i + 1]:-}"
  case "$flag" in
    --reference-compat=* | --input-format=* | --strict) map_flags+=("$flag") ;;
    --reference-compat) map_flags+=("$flag"); [[ -n "$next" && "$next" != -* ]] && map_flags+=("$next") ;;
    --input-format) map_flags+=("$flag" "$next") ;;
  esac
done

if [[ -z "$shards" ]]; then
  # One task per rank, at most 16 (each task loads its ranks on PROFDIFF_CPUS workers).
  ranks="$("$profdiff_bin" cluster summarize -d "$run" --list-ranks | grep -c .)" ||
    die "no ranks found in $run (profdiff cluster summarize -d $run --list-ranks)"
  shards=$((ranks < 16 ? ranks : 16))
fi
[[ "$shards" -ge 1 ]] || die "K (the number of map tasks) must be at least 1, got $shards"

# Slurm does not create the directories of --output; the map's summaries directory exists before
# its tasks start (they may start at once on different nodes).
mkdir -p -- "$logdir" "$sumdir"
common=(--parsable --cpus-per-task="$cpus" --export=ALL,PROFDIFF="$profdiff_bin" "${sbatch_flags[@]}")

map_id="$(sbatch "${common[@]}" --job-name=profdiff-map --array="0-$((shards - 1))" \
  --output="$logdir/profdiff-map_%A_%a.log" "$script" map "$run" "$sumdir" "${map_flags[@]}")"
map_id="${map_id%%;*}"  # --parsable prints <id>[;<cluster>]
if ! reduce_id="$(sbatch "${common[@]}" --job-name=profdiff-reduce --dependency="afterok:$map_id" \
  --kill-on-invalid-dep=yes --output="$logdir/profdiff-reduce_%j.log" \
  "$script" reduce "$sumdir" "$out" "$@")"; then
  scancel "$map_id" || true
  die "the reduce was not submitted; the map job $map_id was cancelled"
fi
reduce_id="${reduce_id%%;*}"

echo "map job: $map_id"
echo "reduce job: $reduce_id"
echo "  map:    $shards task(s) of $run's ranks -> $sumdir; logs $logdir/profdiff-map_${map_id}_<task>.log"
echo "  reduce: after every map task succeeded, $sumdir -> $out; log $logdir/profdiff-reduce_${reduce_id}.log"
echo "  watch:  squeue -j $map_id,$reduce_id"
