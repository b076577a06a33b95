#!/usr/bin/env bash
# A one-node Slurm cluster on this machine runs scripts/slurm/ for real: the map as an array job
# (profdiff cluster summarize, one shard per task) over a 2-rank corpus run, the reduce as a job that
# depends on it (profdiff cluster --summaries), both submitted by profdiff-cluster-submit.sh. The
# reduce's profdiff_cluster.json, .xlsx, .html and cluster_analysis_output/ must equal, byte for byte,
# what the one-machine `profdiff cluster -d RUN -o OUT` writes. Then a map over a run without ranks
# must fail and its reduce be cancelled, not left waiting.
#   tests/slurm/slurm_smoke.sh SOURCE_DIR PROFDIFF_BINARY
# Skips (77) without slurm-wlm (slurmctld, slurmd, sbatch, ...) or without ../shared (the corpus).
# PROFDIFF_SLURM_KEEP=1 keeps its temporary directory (slurm.conf, daemons' and jobs' logs, outputs).
# The cluster is private to the test: its slurm.conf (SLURM_CONF), state, spool and logs in a
# temporary directory, loopback ports free at start, no authentication (auth/none, cred/none: Debian
# 12's Slurm 22.05 has both), no cgroups (proctrack/linuxproc, task/none), no accounting (jobs are
# followed with scontrol while their records live), daemons and jobs running as the current user
# (root in CI, or any user). Its daemons are stopped by their process ids, never by name, so other
# Slurm instances (another run of this test, a real slurmd) are left alone.
set -euo pipefail
src="$(cd "$1" && pwd)"; pd="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
export PATH="$PATH:/usr/local/sbin:/usr/sbin:/sbin"  # slurmctld and slurmd are in sbin
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
for tool in slurmctld slurmd sbatch squeue sinfo scontrol scancel; do
  command -v "$tool" > /dev/null ||
    skip "$tool is not installed: the Slurm smoke test needs Slurm's daemons and commands (apt-get install slurm-wlm)"
done
run="$src/../shared/corpus/msinsight_pt_text_2025_level1"  # 2 ranks, text exports with communication files
[[ -d "$run" ]] || skip "$run is absent (../shared, the corpus); the Slurm smoke test needs a multi-rank run"
run="$(realpath "$run")"
shards=3  # more tasks than ranks: one task has no rank to summarise

tmp="$(mktemp -d /tmp/profdiff_slurm.XXXXXX)"  # short: slurmd's sockets live in its spool directory
ctld_pid="" slurmd_pid="" job_ids=()
stop_pid() {  # stop_pid PID: SIGTERM, then SIGKILL after 10 s
  local pid="$1" i
  [[ -n "$pid" ]] && kill "$pid" 2> /dev/null || return 0
  for ((i = 0; i < 100; i++)); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2> /dev/null || true
  wait "$pid" 2> /dev/null || true
}
cleanup() {
  local rc=$?
  set +e
  if [[ ${#job_ids[@]} -gt 0 && -n "$ctld_pid" ]]; then
    scancel "${job_ids[@]}" 2> /dev/null
    for ((i = 0; i < 50; i++)); do  # let slurmd end the jobs' processes before it stops
      [[ -z "$(squeue -h -j "$(IFS=,; echo "${job_ids[*]}")" -t running,completing -o %i 2> /dev/null)" ]] && break
      sleep 0.1
    done
  fi
  stop_pid "$slurmd_pid"
  stop_pid "$ctld_pid"
  if [[ $rc -ne 0 && $rc -ne 77 ]]; then
    for f in "$tmp"/log/* "$tmp"/out*/slurm-logs/*; do
      [[ -f "$f" ]] && { echo "--- $f"; tail -n 40 "$f"; }
    done
  fi
  [[ -n "${PROFDIFF_SLURM_KEEP:-}" ]] && echo "kept $tmp" || rm -rf "$tmp"
  exit "$rc"
}
trap cleanup EXIT
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/log"

# Two loopback ports free now (held together so that they differ), for slurmctld and slurmd.
read -r ctld_port slurmd_port < <(/usr/bin/python3 -c '
import socket
socks = [socket.socket() for _ in range(2)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in socks])')
# The node as slurmd sees it (a node configured larger than it is would be drained).
read -r cpus memory < <(env -u SLURM_CONF slurmd -C | tr ' ' '\n' |
  awk -F= '$1 == "CPUs" {c = $2} $1 == "RealMemory" {m = $2} END {print c, m}')
[[ "$cpus" -ge 1 && "$memory" -ge 1 ]] || fail "slurmd -C did not give the node's CPUs and memory"
user="$(id -un)"
cat > "$tmp/slurm.conf" << EOF
ClusterName=profdiff-smoke
SlurmctldHost=localhost
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/none
CredType=cred/none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
ReturnToService=2
MinJobAge=600
MailProg=/bin/true
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=smoke Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$tmp/slurm.conf"
start=$SECONDS
slurmctld -D -i > "$tmp/log/slurmctld.out" 2>&1 &
ctld_pid=$!
slurmd -D -N localhost > "$tmp/log/slurmd.out" 2>&1 &
slurmd_pid=$!
for ((i = 0; ; i++)); do
  kill -0 "$ctld_pid" 2> /dev/null || fail "slurmctld exited: $(tail -n 5 "$tmp/log/slurmctld.out")"
  kill -0 "$slurmd_pid" 2> /dev/null || fail "slurmd exited: $(tail -n 5 "$tmp/log/slurmd.out")"
  [[ "$(sinfo -h -n localhost -o %T 2> /dev/null)" == idle ]] && break
  ((i < 300)) || fail "the node is not idle after 30 s: $(sinfo -h -n localhost -o '%T %E' 2>&1)"
  sleep 0.1
done
echo "slurm: node idle after $((SECONDS - start)) s (slurmctld pid $ctld_pid, slurmd pid $slurmd_pid)"

# job_states ID...: one "JobId JobState ExitCode" line per job or array task.
job_states() {
  local id
  for id in "$@"; do
    scontrol show job -o "$id" | awk '
      function field(key,  m) {
        if (!match($0, "(^| )" key "=[^ ]*")) return ""
        m = substr($0, RSTART, RLENGTH); sub(/^ /, "", m)
        return substr(m, length(key) + 2)
      }
      {
        t = field("ArrayTaskId")
        print (t != "" ? field("ArrayJobId") "_" t : field("JobId")), field("JobState"), field("ExitCode")
      }'
  done
}
# wait_jobs ID...: until no job or task is pending, running or completing (at most 180 s).
wait_jobs() {
  local deadline=$((SECONDS + 180))
  while job_states "$@" | awk '$2 ~ /^(PENDING|CONFIGURING|RUNNING|COMPLETING|SUSPENDED|REQUEUED|RESIZING)$/ {busy = 1}
                              END {exit !busy}'; do
    ((SECONDS < deadline)) || fail "jobs $* not done after 180 s: $(job_states "$@" | tr '\n' ';')"
    sleep 0.5
  done
}
# submit OUT RUN K [reduce flags]: profdiff-cluster-submit.sh; sets map_id and reduce_id.
submit() {
  local out="$1" run_dir="$2" k="$3" text
  shift 3
  text="$(cd "$tmp" && PROFDIFF="$pd" PROFDIFF_CPUS=1 bash "$src/scripts/slurm/profdiff-cluster-submit.sh" \
    "$run_dir" "$out" "$k" "$@")" || fail "profdiff-cluster-submit.sh failed: $text"
  echo "$text"
  map_id="$(awk '$1 == "map" && $2 == "job:" {print $3}' <<< "$text")"
  reduce_id="$(awk '$1 == "reduce" && $2 == "job:" {print $3}' <<< "$text")"
  [[ "$map_id" =~ ^[0-9]+$ && "$reduce_id" =~ ^[0-9]+$ ]] || fail "no job ids in the submit script's output"
  job_ids+=("$map_id" "$reduce_id")
}

# The one-machine result first, in the OUT the reduce then writes (moved aside), so that any path
# recorded in the outputs is the same.
"$pd" cluster -d "$run" -o "$tmp/out" -q > "$tmp/log/one_machine.out" 2>&1 ||
  fail "profdiff cluster -d $run failed: $(cat "$tmp/log/one_machine.out")"
mv "$tmp/out" "$tmp/one"

submit "$tmp/out" "$run" "$shards" -q
wait_jobs "$map_id" "$reduce_id"
states="$(job_states "$map_id" "$reduce_id")"
echo "$states"
[[ "$(grep -c "^${map_id}_" <<< "$states")" -eq "$shards" ]] || fail "the map is not $shards array tasks"
bad="$(awk '$2 != "COMPLETED" || $3 != "0:0"' <<< "$states")"
[[ -z "$bad" ]] || fail "not every job succeeded: $bad"
echo "slurm: map ($shards tasks) and reduce done after $((SECONDS - start)) s"

for ((t = 0; t < shards; t++)); do
  [[ -s "$tmp/out/slurm-logs/profdiff-map_${map_id}_$t.log" ]] || fail "no log of map task $t"
done
[[ -s "$tmp/out/slurm-logs/profdiff-reduce_$reduce_id.log" ]] || fail "no log of the reduce"
expected="$("$pd" cluster summarize -d "$run" --list-ranks | awk -F'\t' '{print "rank_" $1 ".summary.json"}' | sort)"
[[ "$(wc -l <<< "$expected")" -eq 2 ]] || fail "--list-ranks does not list the run's 2 ranks: $expected"
got="$(ls "$tmp/out/summaries" | sort)"
[[ "$got" == "$expected" ]] || fail "the summaries are [$got], expected [$expected]"
for f in profdiff_cluster.json profdiff_cluster.xlsx profdiff_cluster.html; do
  cmp "$tmp/one/$f" "$tmp/out/$f" || fail "$f of the Slurm reduce differs from the one-machine run's"
done
[[ -n "$(ls "$tmp/one/cluster_analysis_output")" ]] || fail "the one-machine run wrote no cluster_analysis_output/"
diff -r "$tmp/one/cluster_analysis_output" "$tmp/out/cluster_analysis_output" ||
  fail "cluster_analysis_output/ of the Slurm reduce differs from the one-machine run's"
echo "slurm: the reduce's outputs equal the one-machine run's: profdiff_cluster.json, .xlsx, .html," \
  "cluster_analysis_output/ ($(ls "$tmp/one/cluster_analysis_output" | tr '\n' ' '))"

# A map that fails (a run without ranks): its tasks fail and the reduce is cancelled, not left pending.
mkdir "$tmp/no_ranks"
submit "$tmp/out_failed" "$tmp/no_ranks" 2
wait_jobs "$map_id" "$reduce_id"
states="$(job_states "$map_id" "$reduce_id")"
echo "$states"
[[ -z "$(awk -v m="$map_id" 'index($1, m "_") == 1 && $2 != "FAILED"' <<< "$states")" ]] ||
  fail "a map task over a run without ranks did not fail"
for ((t = 0; t < 2; t++)); do
  grep -q "error:.*$tmp/no_ranks" "$tmp/out_failed/slurm-logs/profdiff-map_${map_id}_$t.log" ||
    fail "the log of map task $t does not say what is wrong with $tmp/no_ranks"
done
grep -q "^$reduce_id CANCELLED " <<< "$states" || fail "the reduce of a failed map was not cancelled"
[[ ! -e "$tmp/out_failed/profdiff_cluster.json" ]] || fail "the reduce of a failed map wrote a result"
echo "slurm smoke: passed in $((SECONDS - start)) s"
