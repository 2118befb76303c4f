#!/usr/bin/env bash
# `mlsys simulate helios` as a whole process (start-up, reading the Helios-format cluster_log.csv,
# the FIFO simulation, helios_results.csv and perjob/fifo.csv) on bench_sim_engine's lightly loaded
# 100k-job single-VC trace (part 3, written with --helios-trace), against the Helios simulator's
# 1,370 jobs/s FIFO on that kind of trace (72.9 s for 100,000 jobs; ../shared/reference/helios_gavel/
# README.md, quoted, not re-run here). CPU time (user + system, all threads) is the figure other
# processes on a shared machine change least; the load average is printed before each run.
# Usage: bench/sim_helios_cli.sh [build dir=build] [repeats=9]   (MLSYS_BIN names another mlsys binary)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
REPEATS=${2:-9}
BIN=${MLSYS_BIN:-$BUILD/bin/mlsys}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$BUILD/bench/bench_sim_engine" --helios-trace "$tmp/trace" >/dev/null
echo "== mlsys simulate helios, FIFO only, 100,000 jobs (bench_sim_engine --helios-trace), whole process =="
cpus=()
for i in $(seq "$REPEATS"); do
  load=$(cut -d' ' -f1 /proc/loadavg)
  TIMEFORMAT='%R %U %S'
  t=$({ time "$BIN" simulate helios --set sim.helios.cluster_log="$tmp/trace/cluster_log.csv" \
          --set 'sim.helios.policies=[fifo]' --set sim.helios.event_driven=false --set run.progress=off \
          --out "$tmp/run$i" >/dev/null 2>&1; } 2>&1)
  read -r wall user sys <<<"$t"
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.3f", u + s}')
  printf 'run %d  load %s  wall %s s  user %s s  sys %s s  cpu %s s\n' "$i" "$load" "$wall" "$user" "$sys" "$cpu"
  cpus+=("$cpu")
  if [[ $i -gt 1 ]]; then
    cmp -s "$tmp/run1/perjob/fifo.csv" "$tmp/run$i/perjob/fifo.csv" || { echo "perjob/fifo.csv differs between runs"; exit 1; }
    rm -rf "$tmp/run$i"
  fi
done
median=$(printf '%s\n' "${cpus[@]}" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}')
awk -v m="$median" -v n="$REPEATS" 'BEGIN {printf "median of %d: CPU (user + sys) %.3f s = %.0fx Helios FIFO (72.9 s for 100,000 jobs; target >= 500x: <= 0.146 s)\n", n, m, 72.9 / m}'
