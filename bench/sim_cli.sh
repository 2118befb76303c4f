#!/usr/bin/env bash
# The default `mlsys simulate` path as users run it, as a whole process (trace generation,
# simulation, metrics, jobs.csv and the other outputs, plots), beside the engine-only figure
# (bench_sim_engine --fifo). Each run's wall, user and system time and the simulate phase's own
# line; then the medians. Other processes on the machine slow the wall times: the load average is
# printed before each run, and the CPU times are the figures that load changes least.
# Usage: bench/sim_cli.sh [mlsys] [bench build dir] [repeats=5] [jobs=1000000] [nodes=1000]
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-build/bin/mlsys}
BENCH=${2:-build/bench}
REPEATS=${3:-5}
JOBS=${4:-1000000}
NODES=${5:-1000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "== mlsys simulate --set tracegen.jobs=$JOBS --set sim.cluster.nodes=$NODES (default metrics), whole process =="
walls=() cpus=()
for i in $(seq "$REPEATS"); do
  load=$(cut -d' ' -f1 /proc/loadavg)
  TIMEFORMAT='%R %U %S'
  t=$({ time env -u MLSYS_DATA_DIR "$BIN" simulate --set tracegen.jobs="$JOBS" --set sim.cluster.nodes="$NODES" \
          --set run.progress=off --out "$tmp/run$i" >"$tmp/out$i" 2>&1; } 2>&1)
  read -r wall user sys <<<"$t"
  sim=$(sed -n 's/^ *simulated in //p' "$tmp/out$i")
  mem=$(sed -n 's/^ *peak host memory \([^,]*\),.*/\1/p' "$tmp/out$i")
  printf 'run %d  load %s  wall %s s  user %s s  sys %s s  peak %s  simulate: %s\n' "$i" "$load" "$wall" "$user" "$sys" "$mem" "$sim"
  walls+=("$wall") cpus+=("$(awk -v u="$user" -v s="$sys" 'BEGIN {print u + s}')")
  [[ $i -gt 1 ]] && cmp -s "$tmp/run1/jobs.csv" "$tmp/run$i/jobs.csv" || [[ $i -eq 1 ]] || { echo "jobs.csv differs between runs"; exit 1; }
  [[ $i -gt 1 ]] && rm -rf "$tmp/run$i"
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
echo "median of $REPEATS: wall $(median "${walls[@]}") s, CPU (user + sys) $(median "${cpus[@]}") s, $JOBS jobs"
echo "== engine only (bench_sim_engine --fifo) =="
"$BENCH/bench_sim_engine" --fifo | tail -1
