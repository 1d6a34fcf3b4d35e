#!/usr/bin/env bash
# Stands up a one-node Slurm cluster on this machine (Debian's slurm-wlm:
# slurmctld and slurmd on localhost, authenticated by munge) and runs a real
# wave of reasoner attempts through it with `--launcher slurm`.
#
#   sudo bash experiments/slurm/setup-local-slurm.sh          # install, configure, start, run a wave
#   sudo bash experiments/slurm/setup-local-slurm.sh stop     # stop the daemons this script started
#
# For trying the Slurm launcher and experiments/slurm/run-collection.sh on one
# machine; a real cluster has its own configuration. Needs root and apt (Debian
# 12 / Ubuntu 22.04 or later); no systemd needed: the daemons are started
# directly. It writes /etc/slurm/slurm.conf (an existing one not written by
# this script is left alone unless FORCE=1), spool folders under /var/spool
# and logs under /var/log/slurm. Jobs run without cgroups (proctrack/linuxproc)
# and memory is a consumable resource, so --mem is checked at submission and
# polled while jobs run; completed jobs are listed in /var/log/slurm/jobcomp.log.
set -euo pipefail
cd "$(dirname "$0")/../.."

CONF=/etc/slurm/slurm.conf
MARK="# written by experiments/slurm/setup-local-slurm.sh"
CTLD_PID=/run/slurmctld.pid
SLURMD_PID=/run/slurmd.pid

die() { echo "setup-local-slurm: $*" >&2; exit 2; }

stop() {
    local pidfile pid
    for pidfile in "$SLURMD_PID" "$CTLD_PID"; do
        pid=$(cat "$pidfile" 2>/dev/null || true)
        if [ -n "$pid" ] && kill "$pid" 2>/dev/null; then
            echo "stopped $(basename "$pidfile" .pid) (pid $pid)"
        fi
    done
}

if [ "${1:-}" = stop ]; then stop; exit 0; fi
[ "$(id -u)" = 0 ] || die "run as root (it installs packages and starts daemons)"

# 1. Packages.
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y slurm-wlm munge
fi

# 2. munge: a key, its run folder, the daemon.
[ -s /etc/munge/munge.key ] || mungekey --create --keyfile=/etc/munge/munge.key
chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key
install -d -o munge -g munge -m 755 /run/munge
if ! munge -n </dev/null >/dev/null 2>&1; then
    runuser -u munge -- /usr/sbin/munged
    sleep 1
fi
munge -n </dev/null | unmunge >/dev/null || die "munge does not work; see /var/log/munge/munged.log"

# 3. slurm.conf for this one node, with its real CPUs and memory (slurmd -C).
host=$(hostname -s)
node_line=$(slurmd -C | grep '^NodeName=' | sed "s/^NodeName=[^ ]*/NodeName=$host/")
if [ -e "$CONF" ] && ! grep -qF "$MARK" "$CONF" && [ "${FORCE:-0}" != 1 ]; then
    die "$CONF exists and was not written by this script; move it away or set FORCE=1"
fi
install -d -o slurm -g slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
cat >"$CONF" <<CONF
$MARK
ClusterName=local
SlurmctldHost=$host
SlurmUser=slurm
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=task=5
JobCompType=jobcomp/filetxt
JobCompLoc=/var/log/slurm/jobcomp.log
MpiDefault=none
ReturnToService=2
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=$CTLD_PID
SlurmdPidFile=$SLURMD_PID
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
$node_line State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
echo "wrote $CONF for: $node_line"

# 4. Daemons (restarted so that they read the new configuration).
stop
sleep 1
slurmctld
slurmd
for _ in $(seq 30); do
    state=$(sinfo -h -n "$host" -o %T 2>/dev/null || true)
    [ "$state" = idle ] && break
    case "$state" in down*|drain*) scontrol update nodename="$host" state=resume || true;; esac
    sleep 1
done
sinfo
[ "$(sinfo -h -n "$host" -o %T)" = idle ] || die "the node is not idle; see /var/log/slurm/"

# 5. A job, then a real wave of reasoner attempts through srun.
srun --mem=64M --time=1:00 bash -c 'echo "srun ran on $(hostname) as job $SLURM_JOB_ID"'
cargo build --release --bins
# A small position limit makes the first waves fail, so that three waves of two
# attempts and the final run all go through srun.
./target/release/reasoner solve puzzles/klotski/century.txt --casebase casebase/seed.toml \
    --launcher slurm --max-memory 256M --attempt-timeout 120 --final-timeout 60 \
    --position-limit 30000 --attempts 6 --wave 2 --jobs 2
echo "the attempts as Slurm saw them (/var/log/slurm/jobcomp.log):"
grep 'Name=reasoner-century' /var/log/slurm/jobcomp.log | tail -n 7 |
    sed -E 's/.*(JobId=[0-9]+).* (Name=[^ ]+) (JobState=[^ ]+).* (TimeLimit=[^ ]+).*/  \1 \2 \3 \4/'
