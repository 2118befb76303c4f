#!/usr/bin/env bash
# Runs every built fuzz target for FUZZ_SECONDS each (make fuzz). Corpus: the seeds in
# tests/fuzz/corpus/<name>/ (fuzz_config also gets every shipped config), grown in
# <build>/corpus/<name>/ across runs. A crash stops with the reproducer's path; the summary line
# per target is what docs/RELIABILITY.md records.
# Usage: tests/fuzz/run_all.sh <fuzz build dir> [seconds]
set -euo pipefail
build=$1
seconds=${2:-${FUZZ_SECONDS:-120}}
src=$(cd "$(dirname "$0")/../.." && pwd)
status=0
for bin in "$build"/tests/fuzz/fuzz_*; do
  [[ -x $bin && ! -d $bin ]] || continue
  name=$(basename "$bin")
  short=${name#fuzz_}
  corpus=$build/corpus/$short
  mkdir -p "$corpus" "$build/crashes/$short"
  cp -n "$src/tests/fuzz/corpus/$short"/* "$corpus"/ 2>/dev/null || true
  if [[ $short == config ]]; then cp -n "$src"/configs/*/*.yaml "$corpus"/ 2>/dev/null || true; fi
  log=$build/$name.log
  echo "== $name: ${seconds}s"
  if "$bin" "$corpus" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
       -print_final_stats=1 -artifact_prefix="$build/crashes/$short/" >"$log" 2>&1; then
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
    echo "   no finding: $execs runs ($rate/s), $cov, corpus $(ls "$corpus" | wc -l) inputs"
  else
    status=1
    tail -40 "$log"
    echo "   FINDING: reproducer in $build/crashes/$short/ (run: $bin <file>)"
  fi
done
exit $status
