#!/usr/bin/env bash
# Fault injection (issue 32): kills `profdiff compare` runs on a generated big pair with SIGINT,
# SIGTERM or SIGHUP at random points of every phase (check, load, timelines, comparisons, each output
# written) and checks what is left:
#   * killed (exit 128 + signal): nothing at all under the run's output directory (no hidden
#     .NAME.tmp-XXXXXX, no output, not the directories the run made), nothing in its private TMPDIR
#     (a WAL database's copy);
#   * finished (exit 0): every output, whole (the JSON parses, the workbook is a sound zip, the CSVs
#     and the HTML page as long as an undisturbed run's);
#   * the inputs byte for byte as they were.
# Any other outcome is a failure (exit 1). Usage:
#   bench/fault_injection.sh [--runs N] [--ops N] [--bin PROFDIFF] [--work DIR] [--seed N]
# Defaults: 60 runs, 2,000 ops per step over 40 steps a side, build/src/cli/profdiff, build/fault-injection.
# With ../shared/corpus present, every third run reads a WAL-mode Ascend DB export as its base
# (a committed transaction left in its -wal: the private copy is made, then killed or finished).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
runs=60
ops=2000
bin="$here/build/src/cli/profdiff"
work="$here/build/fault-injection"
seed=$$
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs) runs="$2"; shift ;;
    --ops) ops="$2"; shift ;;
    --bin) bin="$2"; shift ;;
    --work) work="$2"; shift ;;
    --seed) seed="$2"; shift ;;
    *) echo "usage: $0 [--runs N] [--ops N] [--bin PROFDIFF] [--work DIR] [--seed N]" >&2; exit 2 ;;
  esac
  shift
done
[[ -x "$bin" ]] || { echo "no profdiff binary at $bin (build first)" >&2; exit 2; }
RANDOM=$seed
rm -rf "$work"
mkdir -p "$work/in" "$work/out" "$work/tmp"

# The big pair: ProfilerStep#N steps of `ops` torch ops, each launching one kernel (ac2g flows).
python3 - "$work/in" "$ops" <<'EOF'
import sys
out_dir, ops = sys.argv[1], int(sys.argv[2])
for name, slower in (("base.json", 0), ("comparison.json", 1)):
    with open(f"{out_dir}/{name}", "w") as f:
        f.write('{"schemaVersion":1,"traceEvents":[\n')
        f.write('{"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"python"}},\n')
        f.write('{"ph":"M","name":"process_name","pid":0,"tid":0,"args":{"name":"GPU 0"}},\n')
        ts, i = 1000, 0
        for s in range(40):
            f.write(f'{{"ph":"X","cat":"user_annotation","name":"ProfilerStep#{s}","pid":1,"tid":1,"ts":{ts},"dur":{ops * 12 + 2}}},\n')
            for o in range(ops):
                k = o % 97
                f.write(f'{{"ph":"X","cat":"cpu_op","name":"aten::op_{k}","pid":1,"tid":1,"ts":{ts + 1},"dur":10,"args":{{"External id":{i}}}}},\n'
                        f'{{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":{ts + 2},"dur":3,"args":{{"correlation":{i}}}}},\n'
                        f'{{"ph":"X","cat":"kernel","name":"kernel_{k}","pid":0,"tid":7,"ts":{ts + 6},"dur":{4 + slower},"args":{{"correlation":{i},"stream":7,"device":0}}}},\n'
                        f'{{"ph":"s","cat":"ac2g","name":"ac2g","id":{i},"pid":1,"tid":1,"ts":{ts + 2}}},\n'
                        f'{{"ph":"f","cat":"ac2g","name":"ac2g","id":{i},"pid":0,"tid":7,"ts":{ts + 6},"bp":"e"}},\n')
                ts += 12
                i += 1
            ts += 2
        f.write(f'{{"ph":"i","name":"end","pid":1,"tid":1,"ts":{ts},"s":"t"}}]}}\n')
EOF

# A WAL-mode DB export with a committed transaction in its -wal (from the corpus, when present).
db_profile=""
corpus_db="$(find "$here/../shared/corpus" -name 'ascend_pytorch_profiler_*.db' -size -8M 2>/dev/null | sort | head -n 1 || true)"
if [[ -n "$corpus_db" ]]; then
  db_profile="$work/in/wal_ascend_pt"
  mkdir -p "$db_profile/ASCEND_PROFILER_OUTPUT"
  python3 - "$corpus_db" "$db_profile/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db" "$work/tmp/work.db" <<'EOF'
import shutil, sqlite3, sys
src, dst, scratch = sys.argv[1:4]
shutil.copyfile(src, scratch)
db = sqlite3.connect(scratch, isolation_level=None)
db.execute("PRAGMA journal_mode=WAL")
db.execute("PRAGMA wal_autocheckpoint=0")
db.execute("DELETE FROM TASK WHERE rowid % 2 = 0")
shutil.copyfile(scratch, dst)
shutil.copyfile(scratch + "-wal", dst + "-wal")
db.close()
EOF
  rm -f "$work/tmp/"*
fi

checksum() { find "$work/in" -type f -print0 | sort -z | xargs -0 sha256sum; }
inputs_before="$(checksum)"

args_for() {  # args_for RUN_DIR USE_DB
  local base="$work/in/base.json"
  [[ "$2" == 1 ]] && base="$db_profile"
  echo compare -bp "$base" -d "$work/in/comparison.json" -o "$1/wb.xlsx" --json "$1/r.json" \
    --html "$1/r.html" --csv "$1/csv" -q
}

# Undisturbed runs: the outputs to expect and where each phase ends (--verbose), per kind of run.
declare -A expect_files phase_ends total_ms
kinds=(0)
[[ -n "$db_profile" ]] && kinds+=(1)
for kind in "${kinds[@]}"; do
  dir="$work/whole$kind"
  start=$(date +%s%N)
  # shellcheck disable=SC2046
  TMPDIR="$work/tmp" "$bin" $(args_for "$dir" "$kind") --verbose 2> "$work/whole$kind.err" > /dev/null
  total_ms[$kind]=$(( ($(date +%s%N) - start) / 1000000 ))
  expect_files[$kind]="$(cd "$dir" && find . -printf '%P %s\n' | sort)"
  # "profdiff: phase NAME: W ms wall, ..." (not a DB load's own steps, "load base: TABLE: ..."):
  # each phase as "START END NAME", in ms from the start; then the exit after the last phase.
  phase_ends[$kind]="$(awk -F': ' -v total="${total_ms[$kind]}" '
    /^profdiff: phase / && NF == 3 { name = $2; sub(/^phase /, "", name); split($3, w, " ");
      printf "%d %d %s\n", t, t + w[1], name; t += w[1] }
    END { printf "%d %d %s\n", t, total, "exit" }' "$work/whole$kind.err")"
  echo "undisturbed run (kind $kind): ${total_ms[$kind]} ms; phases (start, end in ms):"
  sed 's/^/  /' <<< "${phase_ends[$kind]}"
done

whole_outputs_ok() {  # whole_outputs_ok DIR KIND
  local dir="$1"
  [[ "$(cd "$dir" && find . -printf '%P %s\n' | sort | awk '{print $1}')" == \
     "$(awk '{print $1}' <<< "${expect_files[$2]}")" ]] || return 1
  python3 - "$dir" <<'EOF' || return 1
import json, sys, zipfile
d = sys.argv[1]
json.load(open(f"{d}/r.json"))
assert zipfile.ZipFile(f"{d}/wb.xlsx").testzip() is None
assert open(f"{d}/r.html").read().rstrip().endswith("</html>")
EOF
}

declare -A killed_in finished_in
killed=0 finished=0 failures=0
signals=(INT TERM HUP)
for ((i = 0; i < runs; i++)); do
  kind=0
  [[ -n "$db_profile" && $((i % 3)) == 2 ]] && kind=1
  sig=${signals[$((RANDOM % 3))]}
  # Every phase in turn, at a random point of it: the short ones (writing the outputs) as often as
  # loading. Timings vary from run to run, so a kill lands near, not always in, the phase aimed at.
  mapfile -t phases <<< "${phase_ends[$kind]}"
  read -r from to phase <<< "${phases[$(( i % ${#phases[@]} ))]}"
  delay_ms=$(( from + (RANDOM * 32768 + RANDOM) % (to - from + 1) ))
  dir="$work/out/$i"
  # shellcheck disable=SC2046
  TMPDIR="$work/tmp" env --default-signal=INT,TERM,HUP "$bin" $(args_for "$dir" "$kind") \
    > /dev/null 2> "$work/out/$i.err" &
  pid=$!
  sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
  kill -s "$sig" "$pid" 2> /dev/null || true
  rc=0
  { wait "$pid"; } 2> /dev/null || rc=$?  # no "Hangup" job report
  sig_rc=$((128 + $(kill -l "$sig")))
  debris="$(find "$work/tmp" -mindepth 1 -print -quit)"
  if [[ $rc == "$sig_rc" ]]; then
    if [[ -e "$dir" || -n "$debris" ]]; then
      echo "FAIL run $i: SIG$sig at $delay_ms ms ($phase) left: $(find "$dir" "$work/tmp" -mindepth 1 2>/dev/null | tr '\n' ' ')"
      failures=$((failures + 1))
    else
      killed=$((killed + 1))
      killed_in[$phase]=$(( ${killed_in[$phase]:-0} + 1 ))
      finished_in[$phase]=$(( ${finished_in[$phase]:-0} + 0 ))
    fi
  elif [[ $rc == 0 ]] && whole_outputs_ok "$dir" "$kind" && [[ -z "$debris" ]]; then
    finished=$((finished + 1))
    finished_in[$phase]=$(( ${finished_in[$phase]:-0} + 1 ))
    killed_in[$phase]=$(( ${killed_in[$phase]:-0} + 0 ))
  else
    echo "FAIL run $i: SIG$sig at $delay_ms ms ($phase): exit $rc, outputs $(find "$dir" -mindepth 1 2>/dev/null | tr '\n' ' ')"
    sed 's/^/  stderr: /' "$work/out/$i.err"
    failures=$((failures + 1))
  fi
  rm -rf "$dir" "$work/tmp/"*
done

[[ "$(checksum)" == "$inputs_before" ]] || { echo "FAIL: an input changed"; failures=$((failures + 1)); }
echo "runs: $runs (seed $seed): killed and clean $killed, finished whole $finished, failures $failures"
echo "kills by phase aimed at (killed and clean / finished whole):"
for phase in "${!killed_in[@]}"; do
  printf '  %3d / %3d  %s\n' "${killed_in[$phase]}" "${finished_in[$phase]}" "$phase"
done | sort -k4
[[ $failures == 0 ]]
