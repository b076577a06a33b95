#!/usr/bin/env bash
# soak.sh TARGET SECONDS WORK_DIR [FUZZ_BUILD_DIR]
# A long libFuzzer run of one target (fuzz_json_trace, fuzz_csv or fuzz_ascend_db), for the soak that
# docs/reliability.md records. The corpus grows in WORK_DIR/corpus/TARGET (seeded by make_seeds.sh on
# first use, kept between runs); crash, leak and timeout inputs land in WORK_DIR/artifacts/TARGET;
# libFuzzer's log is WORK_DIR/TARGET.log and the CPU time and peak RSS of the run WORK_DIR/TARGET.time.
# Exits non-zero when the fuzzer found anything.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
TARGET="${1:?usage: soak.sh TARGET SECONDS WORK_DIR [FUZZ_BUILD_DIR]}"
SECONDS_TO_RUN="${2:?seconds}"
WORK="${3:?work dir}"
BUILD="${4:-$ROOT/build-fuzz}"
case "$TARGET" in
  fuzz_json_trace) kind=json ;;
  fuzz_csv) kind=csv ;;
  fuzz_ascend_db) kind=db ;;
  *) echo "soak.sh: unknown target $TARGET" >&2; exit 2 ;;
esac
[ -x "$BUILD/fuzz/$TARGET" ] || { echo "soak.sh: build $BUILD/fuzz/$TARGET first" >&2; exit 2; }
mkdir -p "$WORK/corpus/$TARGET" "$WORK/artifacts/$TARGET"
if [ -z "$(ls -A "$WORK/corpus/$TARGET")" ]; then
  seeds="$(mktemp -d)"
  "$ROOT/fuzz/make_seeds.sh" "$seeds" >/dev/null
  cp "$seeds/$kind"/* "$WORK/corpus/$TARGET/"
  rm -rf "$seeds"
fi
echo "soak: $TARGET for ${SECONDS_TO_RUN}s from $(ls "$WORK/corpus/$TARGET" | wc -l) inputs," \
     "commit $(git -C "$ROOT" rev-parse --short HEAD)"
cd "$WORK/artifacts/$TARGET"
status=0
/usr/bin/time -v -o "$WORK/$TARGET.time" \
  "$BUILD/fuzz/$TARGET" -max_total_time="$SECONDS_TO_RUN" -timeout=25 -rss_limit_mb=2048 \
  -print_final_stats=1 -artifact_prefix="$WORK/artifacts/$TARGET/" \
  "$WORK/corpus/$TARGET" </dev/null >"$WORK/$TARGET.log" 2>&1 || status=$?
grep -E '^(Done|stat::)|#[0-9]+ *DONE' "$WORK/$TARGET.log" || true
grep -E 'User time|System time|Maximum resident' "$WORK/$TARGET.time"
exit "$status"
