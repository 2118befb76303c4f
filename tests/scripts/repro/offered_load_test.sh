#!/usr/bin/env bash
# ctest scripts/offered_load: scripts/repro/offered_load.awk (the offered load that
# scripts/repro/schedmate_mlperf.sh prints beside each time compression) on a stats overview:
# 100 GPU-hours over a 10-hour window on a 20-GPU pool offer 0.5 of its capacity; an empty pool or
# window is an error, not a number.
# Usage: offered_load_test.sh <source dir> <work dir>
set -euo pipefail
src=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
printf 'metric,value\njobs,3\ngpu_hours,100\nfirst_submit_s,3600\nlast_submit_s,39600\n' > "$work/overview.csv"
got=$(awk -F, -v pool=20 -f "$src/scripts/repro/offered_load.awk" "$work/overview.csv")
[ "$got" = "0.5" ] || { echo "FAIL: offered load $got, expected 0.5"; exit 1; }
if awk -F, -v pool=0 -f "$src/scripts/repro/offered_load.awk" "$work/overview.csv" 2>/dev/null; then
  echo "FAIL: an empty pool gave a number"; exit 1
fi
printf 'metric,value\ngpu_hours,100\nfirst_submit_s,5\nlast_submit_s,5\n' > "$work/flat.csv"
if awk -F, -v pool=20 -f "$src/scripts/repro/offered_load.awk" "$work/flat.csv" 2>/dev/null; then
  echo "FAIL: an empty submit window gave a number"; exit 1
fi
echo "offered load: ok"
