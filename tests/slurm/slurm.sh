#!/bin/sh
# Slurm.EmittedSweepRunsUnderSlurm (label slurm), run by ctest (tests/CMakeLists.txt):
#   slurm.sh CLI SCENARIO
# Starts a one-node Slurm on this machine (Debian's slurmctld, slurmd, slurm-client and munge,
# which ./collsim test installs when it can), every file and socket in a temporary directory,
# its own munge key and ports; submits what `collsim run SCENARIO --emit slurm` writes, with task
# 1 made to fail (its output directory is a file); merges, which names task 1 and the command
# that runs it again; runs that command; merges again and compares the result byte for byte
# with a local `collsim run` of the scenario (its rows in the merge's order). Exits 77 (skipped)
# with the reason when Slurm cannot be set up here.
set -u
cli=$1 scenario=$2
skip() { echo "skipped: $*"; exit 77; }
for c in munged slurmctld slurmd sbatch squeue sinfo; do
  command -v $c >/dev/null || skip "no $c (Debian: apt-get install slurmd slurmctld slurm-client munge)"
done
[ "$(id -u)" -eq 0 ] || skip "slurmd must run as root to start jobs"
dir=$(mktemp -d /tmp/collsim-slurm-XXXXXX)
chmod 755 "$dir"
stop() {
  for d in slurmd slurmctld munged; do
    [ -s "$dir/$d.pid" ] && kill "$(cat "$dir/$d.pid")" 2>/dev/null
  done
  sleep 0.5
  rm -rf "$dir"
}
trap stop EXIT
# munge: its own key and socket
dd if=/dev/urandom of="$dir/munge.key" bs=1024 count=1 2>/dev/null && chmod 600 "$dir/munge.key"
munged -f --key-file="$dir/munge.key" --socket="$dir/munge.sock" --pid-file="$dir/munged.pid" \
  --log-file="$dir/munged.log" --seed-file="$dir/munged.seed" ||
  skip "munged did not start: $(tail -1 "$dir/munged.log" 2>/dev/null)"
host=$(hostname -s) port=$((20000 + $$ % 20000 * 2))
mkdir -p "$dir/state" "$dir/spool"
cat >"$dir/slurm.conf" <<CONF
ClusterName=collsim
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$dir/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
SwitchType=switch/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=collsim Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"
slurmctld -f "$SLURM_CONF" || skip "slurmctld did not start: $(tail -2 "$dir/slurmctld.log" 2>/dev/null)"
slurmd -f "$SLURM_CONF" || skip "slurmd did not start: $(tail -2 "$dir/slurmd.log" 2>/dev/null)"
up=0
for i in $(seq 1 60); do
  sinfo -h -o %t 2>/dev/null | grep -q idle && { up=1; break; }
  sleep 0.5
done
[ $up -eq 1 ] || skip "the node did not come up: $(tail -2 "$dir/slurmd.log" "$dir/slurmctld.log" 2>/dev/null)"
echo "slurm: one node ($host) up"

fail=0
wait_job() { # wait_job JOBID: until Slurm lists none of its tasks
  for i in $(seq 1 600); do
    [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return 0
    sleep 0.3
  done
  echo "FAIL: job $1 did not end"; squeue; fail=1
}
sweep=$dir/sweep
"$cli" run "$scenario" --emit slurm --entry "$cli" --out "$sweep" >"$dir/emit.out" || { cat "$dir/emit.out"; exit 1; }
sbatch_cmd=$(grep "^sbatch " "$dir/emit.out")
[ "$sbatch_cmd" = "sbatch $sweep/collsim.sbatch" ] || { echo "FAIL: emit printed '$sbatch_cmd'"; fail=1; }
# task 1 fails: its output directory cannot be made
mkdir -p "$sweep/tasks" && : >"$sweep/tasks/1"
job=$(sbatch --parsable "$sweep/collsim.sbatch") || { echo "FAIL: sbatch"; exit 1; }
wait_job "$job"
"$cli" merge "$sweep"/tasks/*/results.csv --out "$sweep/results.csv" >"$dir/merge1.out" 2>&1
cat "$dir/merge1.out"
again=$(sed -n 's/.*; run them again: //p' "$dir/merge1.out")
[ "$again" = "sbatch --array=1 $sweep/collsim.sbatch" ] ||
  { echo "FAIL: merge did not name task 1 and its command ('$again')"; tail -5 "$sweep"/tasks/slurm-*_1.out; fail=1; }
rm -f "$sweep/tasks/1"
job=$(${again%% *} --parsable ${again#* }) || { echo "FAIL: $again"; exit 1; }
wait_job "$job"
"$cli" merge "$sweep"/tasks/*/results.csv --out "$sweep/results.csv" --strict >"$dir/merge2.out" 2>&1 ||
  { echo "FAIL: the merge after the second submission"; fail=1; }
cat "$dir/merge2.out"
# the same scenario run locally, its rows in the merge's order
"$cli" run "$scenario" --out "$dir/local" >/dev/null 2>&1 || { echo "FAIL: local run"; fail=1; }
"$cli" merge "$dir/local/results.csv" --out "$dir/local.csv" >/dev/null
if cmp "$sweep/results.csv" "$dir/local.csv"; then
  echo "slurm: the merged results equal the local run's byte for byte ($(($(wc -l <"$dir/local.csv") - 1)) rows)"
else
  echo "FAIL: the merged results differ from the local run's"; diff "$sweep/results.csv" "$dir/local.csv" | head; fail=1
fi
exit $fail
