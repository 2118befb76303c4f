#!/usr/bin/env bash
# Runs every benchmark binary (one core where the benchmark says so) and tees the output to
# bench/results/<date>.txt for docs/BENCHMARKS.md. Usage: bench/run_all.sh [BUILD_DIR]
set -uo pipefail
build=${1:-build}
mkdir -p bench/results
log=bench/results/$(date +%Y%m%d-%H%M%S).txt
{
  echo "# mlsys benchmarks, $(date -u), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
  for b in "$build"/bench/bench_*; do
    [[ -x "$b" ]] || continue
    echo
    echo "\$ $b"
    "$b" || echo "(benchmark $b failed with status $?)"
  done
  for s in bench/*.sh; do
    [[ "$s" == bench/run_all.sh ]] && continue
    echo
    echo "\$ bash $s $build"
    bash "$s" "$build" || echo "(benchmark $s failed with status $?)"
  done
} 2>&1 | tee "$log"
echo "results saved to $log"
