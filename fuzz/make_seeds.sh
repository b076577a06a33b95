#!/usr/bin/env bash
# make_seeds.sh OUT_DIR [SHARED_DIR]
# Fills OUT_DIR/json, OUT_DIR/csv and OUT_DIR/db with the seeds every fuzz run starts from (CI's
# 60-second runs and fuzz/soak.sh alike): the bundled tiny Kineto trace and, when the
# shared corpus is there, its first 20 small (< 64 KiB) JSON and CSV files and its two smallest
# (< 1 MiB) profiler databases. Only reads SHARED_DIR.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${1:?usage: make_seeds.sh OUT_DIR [SHARED_DIR]}"
SHARED="${2:-$ROOT/../shared}"
mkdir -p "$OUT/json" "$OUT/csv" "$OUT/db"
cp "$ROOT"/tests/data/kineto_h100_tiny/*.json "$OUT/json/"
if [ -d "$SHARED/corpus" ]; then
  # The list is read into an array first: `find | head` would kill find with SIGPIPE, which
  # pipefail turns into a failure.
  copy_seeds() {  # copy_seeds KIND NAME-PATTERN
    local kind="$1" pattern="$2" f n=0
    local -a files
    mapfile -d '' files < <(find "$SHARED/corpus" -type f -name "$pattern" -size -64k -print0 | sort -z)
    for f in "${files[@]}"; do
      [ "$n" -lt 20 ] || break
      cp "$f" "$OUT/$kind/$(printf '%s' "$f" | md5sum | cut -c1-12).$kind"
      n=$((n + 1))
    done
    echo "seeds: $n $kind files from $SHARED/corpus"
  }
  copy_seeds json '*.json'
  copy_seeds csv '*.csv'
  local_dbs=()
  mapfile -d '' local_dbs < <(find "$SHARED/corpus" -type f -name 'ascend_pytorch_profiler_*.db' \
                                -size -1024k -print0 | sort -z)
  for f in "${local_dbs[@]:0:2}"; do
    cp "$f" "$OUT/db/$(printf '%s' "$f" | md5sum | cut -c1-12).db"
  done
  echo "seeds: ${#local_dbs[@]} db files found, $(ls "$OUT/db" | wc -l) used"
else
  echo "note: $SHARED/corpus is absent; fuzzing from the bundled seeds only"
fi
