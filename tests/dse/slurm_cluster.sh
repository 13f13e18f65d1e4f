#!/usr/bin/env bash
# A one-node Slurm cluster on this machine for the sweep tests, all of it in
# one folder: a private munge key and munged, slurmctld and slurmd on ports of
# their own, no systemd and nothing under /etc. Each step that fails says so
# and exits non-zero, so a test over it never passes without Slurm.
#
#   tests/dse/slurm_cluster.sh start DIR   prints the SLURM_CONF to export
#   tests/dse/slurm_cluster.sh stop DIR    stops the daemons by their pids
set -euo pipefail
cmd=${1:?start or stop}
W=$(cd "${2:?a folder}" 2>/dev/null && pwd || { mkdir -p "$2" && cd "$2" && pwd; })
fail() { echo "slurm cluster: $1" >&2; exit 1; }

stop() {
  for d in slurmd slurmctld munged; do
    [ -f "$W/$d.pid" ] || continue
    pid=$(cat "$W/$d.pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
    rm -f "$W/$d.pid"
  done
}

if [ "$cmd" = stop ]; then stop; exit 0; fi
[ "$cmd" = start ] || fail "unknown command '$cmd': expected start or stop"
for tool in munged slurmctld slurmd sbatch squeue sinfo; do
  command -v "$tool" >/dev/null || fail "step 'find $tool': not installed (Debian: slurmctld slurmd slurm-client munge)"
done
stop
chmod 755 "$W"
mkdir -p "$W/munge/key" "$W/munge/run" "$W/state" "$W/spool"
chmod 700 "$W/munge/key"
dd if=/dev/urandom of="$W/munge/key/munge.key" bs=1024 count=1 status=none
chmod 400 "$W/munge/key/munge.key"
munged --socket="$W/munge/run/munge.sock" --key-file="$W/munge/key/munge.key" --pid-file="$W/munged.pid" \
  --log-file="$W/munged.log" --seed-file="$W/munge/seed" || fail "step 'start munged': see $W/munged.log"
host=$(hostname -s)
# Ports of our own, from the folder's name, so that two clusters do not meet.
base=$(( 20000 + $(echo "$W" | cksum | cut -d' ' -f1) % 20000 ))
cat > "$W/slurm.conf" <<CONF
ClusterName=accelc
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmctldPort=$base
SlurmdPort=$((base + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$W/munge/run/munge.sock
StateSaveLocation=$W/state
SlurmdSpoolDir=$W/spool
SlurmctldPidFile=$W/slurmctld.pid
SlurmdPidFile=$W/slurmd.pid
SlurmctldLogFile=$W/slurmctld.log
SlurmdLogFile=$W/slurmd.log
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
SelectType=select/cons_tres
SlurmdParameters=config_overrides
ReturnToService=2
MaxArraySize=5
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 RealMemory=1000
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$W/slurm.conf
slurmctld -f "$SLURM_CONF" || fail "step 'start slurmctld': see $W/slurmctld.log"
slurmd -f "$SLURM_CONF" || fail "step 'start slurmd': see $W/slurmd.log"
for _ in $(seq 200); do
  [ "$(sinfo -h -o %t 2>/dev/null | head -1)" = idle ] && { echo "$SLURM_CONF"; exit 0; }
  sleep 0.05
done
fail "step 'wait for the node to be idle': sinfo says '$(sinfo -h -o %t 2>&1 | head -1)'; see $W/slurmctld.log and $W/slurmd.log"
