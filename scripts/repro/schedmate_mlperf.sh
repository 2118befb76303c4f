#!/usr/bin/env bash
# Reproduces SchedMate on the MLPerf Training runs: duration accuracy per round (v0.7 held out)
# beside Helios-style, GBDT and previous-run; diagnosis of the MLPerf result logs and the labelled
# real logs; then advise -> hints -> simulate compare (SJF/QSSF x Helios-style/GBDT/SchedMate/oracle
# x load 1/4/16), and SJF over loads 1x..128x as a sensitivity study. Needs ../shared/data (or MLSYS_DATA_DIR).
# Usage: scripts/repro/schedmate_mlperf.sh [path/to/mlsys] [output folder]
set -euo pipefail
# Shipped configs name the shared data as ${MLSYS_DATA_DIR}/...; default: the folder beside the repository.
export MLSYS_DATA_DIR="${MLSYS_DATA_DIR:-$(cd "$(dirname "$0")/../../.." && pwd)/shared/data}"
cd "$(dirname "$0")/../.."
MLSYS=${1:-build/bin/mlsys}
OUT=${2:-results/schedmate/mlperf}
DATA=${MLSYS_DATA_DIR:-../shared/data}
RUNS=$DATA/jobs/mlperf/runs.csv
[ -f "$RUNS" ] || { echo "MLPerf runs not found at $RUNS (set MLSYS_DATA_DIR)" >&2; exit 1; }
echo "== 1. duration accuracy (online), MLPerf logs and labelled logs"
"$MLSYS" schedmate evaluate configs/repro/schedmate/mlperf_evaluate.yaml --set "schedmate.jobs=$RUNS" \
  --set "schedmate.evaluate.mlperf_logs=$DATA/jobs/mlperf/logs" --set "schedmate.evaluate.mlperf_runs=$RUNS" \
  --set "schedmate.evaluate.labelled_logs=$DATA/jobs/logs" --out "$OUT/evaluate" --overwrite
echo "== 2. SchedMate advice -> hints.csv"
"$MLSYS" schedmate advise configs/repro/schedmate/mlperf_advise.yaml --set "schedmate.jobs=$RUNS" \
  --out "$OUT/advise" --overwrite
echo "== 3. scheduling: Helios-style vs GBDT vs SchedMate vs oracle estimates"
"$MLSYS" simulate compare configs/repro/schedmate/mlperf_scheduling.yaml --set "trace.path=$RUNS" \
  --set "sim.hints_file=$OUT/advise/hints.csv" --out "$OUT/simulate" --overwrite
# Average JCT per policy and load: Helios-style / SchedMate (target >= 1.5 at 16x), SchedMate / oracle
# (target <= 1.15) and Helios-style / oracle (what perfect durations would give: the headroom).
jct_table() {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
    { key = sprintf("%-5s load=%-4s", $col["policy"], $col["load"]); jct[key, $col["estimator"]] = $col["avg_jct_s"]; keys[key] = 1 }
    END { printf "%-15s %9s %9s %11s %9s %9s %9s %9s\n", "policy, load", "helios_s", "gbdt_s", "schedmate_s", "oracle_s",
            "helios/sm", "sm/oracle", "helios/or";
          for (k in keys) printf "%-15s %9.0f %9.0f %11.0f %9.0f %9.2f %9.3f %9.2f\n", k, jct[k, "helios"], jct[k, "gbdt"],
            jct[k, "hints"], jct[k, "oracle"], jct[k, "helios"] / jct[k, "hints"], jct[k, "hints"] / jct[k, "oracle"],
            jct[k, "helios"] / jct[k, "oracle"] | "sort -k1,1 -k2.6bn" }' "$1"
}
echo "== avg JCT (s): Helios-style / SchedMate (target >= 1.5 at SJF 16x), SchedMate / oracle (target <= 1.15)"
jct_table "$OUT/simulate/compare.csv"
echo "== 4. sensitivity (not the headline): SJF over loads 1x..128x"
"$MLSYS" simulate compare configs/repro/schedmate/mlperf_scheduling_loads.yaml --set "trace.path=$RUNS" \
  --set "sim.hints_file=$OUT/advise/hints.csv" --out "$OUT/simulate_loads" --overwrite
jct_table "$OUT/simulate_loads/compare.csv"
