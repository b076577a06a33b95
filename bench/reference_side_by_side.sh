#!/usr/bin/env bash
# profdiff and the reference (`msprof-analyze compare`) on the same pair, interleaved, on one machine,
# so that their ratio holds even on a shared machine (absolute times do not; docs/performance.md).
#
#   bench/reference_side_by_side.sh [--runs N] [--build DIR] [--reference CMD] BASE COMPARISON [-- FLAGS...]
#
# BASE and COMPARISON are what `-bp` and `-d` take (a Kineto trace, an Ascend profile directory).
# FLAGS go to both tools (e.g. --enable_operator_compare). Runs profdiff in the default mode and with
# --reference-compat, and the reference (CMD, default `msprof-analyze`; MSPROF_ANALYZE=CMD works too)
# writing into a temporary directory, N times each (default 3) under /usr/bin/time -v, and prints the
# medians of wall, CPU and peak RSS with the reference/profdiff ratios. The reference is optional:
# without it (`pip install msprof-analyze`, or its sources run with Debian's python3: a wrapper that
# calls msprof_analyze.cli.entrance, docs/performance.md) the script says so and exits 2.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="$here/build"; runs=3; ref="${MSPROF_ANALYZE:-msprof-analyze}"
usage() { echo "usage: $0 [--runs N] [--build DIR] [--reference CMD] BASE COMPARISON [-- FLAGS...]" >&2; exit 2; }
args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs) runs="$2"; shift ;;
    --build) build="$2"; shift ;;
    --reference) ref="$2"; shift ;;
    --) shift; break ;;
    -*) usage ;;
    *) args+=("$1") ;;
  esac
  shift
done
flags=("$@")
[[ ${#args[@]} -eq 2 ]] || usage
base="${args[0]}"; comparison="${args[1]}"
bin="$build/src/cli/profdiff"
[[ -x "$bin" ]] || { echo "no profdiff binary at $bin (build first)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time is needed (apt-get install time)" >&2; exit 2; }
if ! command -v "$ref" >/dev/null 2>&1; then
  echo "the reference '$ref' is not installed (pip install msprof-analyze, or --reference CMD):" \
       "nothing to compare against" >&2
  exit 2
fi
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT

# run_once NAME CMD...: one run under /usr/bin/time -v, appended to $work/NAME as "wall cpu rss_mib".
run_once() {
  local name="$1"; shift
  /usr/bin/time -v "$@" > "$work/out.txt" 2> "$work/time.txt" || { cat "$work/out.txt" "$work/time.txt" >&2; exit 1; }
  awk -F': ' '
    /Elapsed \(wall clock\)/ { n = split($2, t, ":"); w = (n == 3) ? t[1]*3600 + t[2]*60 + t[3] : t[1]*60 + t[2] }
    /User time/ { u = $2 } /System time/ { s = $2 } /Maximum resident/ { r = $2 }
    END { printf "%.3f %.3f %.1f\n", w, u + s, r / 1024 }' "$work/time.txt" >> "$work/$name"
}
median() { sort -n "$work/$1" | sed -n "$(( ($(wc -l < "$work/$1") + 1) / 2 ))p"; }

echo "profdiff $("$bin" --version | awk '{print $2}') vs $ref, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "base $base, comparison $comparison, flags: ${flags[*]:-(none)}; $runs runs each, interleaved, medians"
for ((i = 0; i < runs; i++)); do
  run_once profdiff "$bin" compare -bp "$base" -d "$comparison" -o "$work/p.xlsx" --force -q "${flags[@]}"
  run_once compat "$bin" compare -bp "$base" -d "$comparison" -o "$work/c.xlsx" --force -q --reference-compat "${flags[@]}"
  rm -rf "$work/ref"; mkdir "$work/ref"
  run_once reference "$ref" compare -bp "$base" -d "$comparison" --output_path "$work/ref" "${flags[@]}"
done
read -r rw rc rr <<< "$(median reference)"
for name in profdiff compat reference; do
  read -r w c r <<< "$(median "$name")"
  printf '%-10s wall %8.2f s  cpu %8.2f s  peak RSS %8.1f MiB   reference/this: wall x%.1f  cpu x%.1f  RSS x%.1f\n' \
    "$name" "$w" "$c" "$r" "$(awk -v a="$rw" -v b="$w" 'BEGIN { print a / b }')" \
    "$(awk -v a="$rc" -v b="$c" 'BEGIN { print a / b }')" "$(awk -v a="$rr" -v b="$r" 'BEGIN { print a / b }')"
done
echo "load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
