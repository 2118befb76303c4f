#!/usr/bin/env bash
# Reproduces SchedMate on the MLPerf Training runs: duration accuracy per round (v0.7 held out)
# beside Helios-style, GBDT and previous-run; diagnosis of the MLPerf result logs and the labelled
# real logs; then advise -> hints -> simulate compare (SJF/QSSF x Helios-style/GBDT/SchedMate/oracle
# x load 1/4/16, each also stated as offered load), and SJF over loads 1x..128x as a sensitivity study. Needs ../shared/data (or MLSYS_DATA_DIR).
# A frozen protocol (#28, docs/PROTOCOLS.md): every setting from the committed
# configs/repro/schedmate/mlperf_*.yaml (the command line gives only data paths and folders);
# scripts/repro/protocol.py refuses uncommitted or changed ones and records the commit and their
# hashes in OUT/protocol.json. v0.6 is the development round (validation), v0.7 the held-out one
# (test): mlperf_evaluate_dev.yaml scores and writes v0.6 only (same online history), its rows are
# shown and recorded first, and the full evaluation (v0.7) and everything after it run only through
# protocol.py gate.
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
mkdir -p "$OUT"
python3 scripts/repro/protocol.py begin "$OUT" configs/repro/schedmate/mlperf_evaluate.yaml \
  configs/repro/schedmate/mlperf_evaluate_dev.yaml configs/repro/schedmate/mlperf_advise.yaml \
  configs/repro/schedmate/mlperf_scheduling.yaml configs/repro/schedmate/mlperf_scheduling_loads.yaml > /dev/null
# Duration accuracy rows of one round (within +-10% / +-50% / median APE per estimator).
accuracy_rows() {  # round, evaluate folder
  awk -F, -v round="$1" 'NR == 1 { printf "%-10s %5s  %-23s %-23s %-23s %-23s\n", "rows", "runs", "schedmate", "helios-style",
                                     "gbdt", "previous run"; next }
    $1 == round || index($1, round " ") == 1 {
      printf "%-10s %5d ", $1, $2; for (i = 3; i <= 14; i += 3) printf " %.3f / %.3f / %.3f  ", $i, $(i + 1), $(i + 2); print "" }' \
    "$2/duration_accuracy.csv"
}
echo "== 0. development round v0.6 only (mlperf_evaluate_dev.yaml: one history over both rounds, v0.6 scored)"
echo "(each cell: within +-10% / within +-50% / median APE)"
"$MLSYS" schedmate evaluate configs/repro/schedmate/mlperf_evaluate_dev.yaml --set "schedmate.jobs=$RUNS" \
  --out "$OUT/evaluate_v0.6" --overwrite > "$OUT/evaluate_v0.6.console" 2>&1
accuracy_rows v0.6 "$OUT/evaluate_v0.6"
python3 scripts/repro/protocol.py validated "$OUT"
python3 scripts/repro/protocol.py gate "$OUT"
echo "== 1. both rounds (v0.7 held out): duration accuracy (online), MLPerf logs and labelled logs"
"$MLSYS" schedmate evaluate configs/repro/schedmate/mlperf_evaluate.yaml --set "schedmate.jobs=$RUNS" \
  --set "schedmate.evaluate.mlperf_logs=$DATA/jobs/mlperf/logs" --set "schedmate.evaluate.mlperf_runs=$RUNS" \
  --set "schedmate.evaluate.labelled_logs=$DATA/jobs/logs" --out "$OUT/evaluate" --overwrite
echo "(each cell: within +-10% / within +-50% / median APE)"
accuracy_rows v0.7 "$OUT/evaluate"
accuracy_rows ALL "$OUT/evaluate" | tail -n +2
echo "== 2. SchedMate advice -> hints.csv"
"$MLSYS" schedmate advise configs/repro/schedmate/mlperf_advise.yaml --set "schedmate.jobs=$RUNS" \
  --out "$OUT/advise" --overwrite
echo "== 3. scheduling: Helios-style vs GBDT vs SchedMate vs oracle estimates"
"$MLSYS" simulate compare configs/repro/schedmate/mlperf_scheduling.yaml --set "trace.path=$RUNS" \
  --set "sim.hints_file=$OUT/advise/hints.csv" --out "$OUT/simulate" --overwrite
# Offered load: GPU-time the trace demands over the pool's capacity in the trace window (first to
# last submit); compressing arrivals N-fold shrinks the window N-fold, so offered load = N x the 1x
# value. GPU-hours and the window from `mlsys simulate stats`, the pool from the resolved config.
"$MLSYS" simulate stats configs/repro/schedmate/mlperf_scheduling.yaml --set "trace.path=$RUNS" \
  --out "$OUT/trace_stats" --overwrite >/dev/null
POOL=$("$MLSYS" config show simulate configs/repro/schedmate/mlperf_scheduling.yaml --set "trace.path=$RUNS" |
  awk '$1 == "nodes:" && !n { n = $2 } $1 == "gpus_per_node:" && !g { g = $2 } END { print n * g }')
OFFERED_1X=$(awk -F, -v pool="$POOL" -f scripts/repro/offered_load.awk "$OUT/trace_stats/overview.csv")
echo "offered load at 1x: $OFFERED_1X (pool of $POOL accelerators; Nx load offers N times that)"
# Average JCT per policy and load (with its offered load): Helios-style / SchedMate, SchedMate /
# oracle and Helios-style / oracle (what perfect durations would give: the headroom).
jct_table() {
  awk -F, -v per_x="$OFFERED_1X" 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
    { key = sprintf("%-5s load=%-4s", $col["policy"], $col["load"]); jct[key, $col["estimator"]] = $col["avg_jct_s"]; keys[key] = 1
      offered[key] = per_x * $col["load"] }
    END { printf "%-15s %8s %9s %9s %11s %9s %9s %9s %9s\n", "policy, load", "offered", "helios_s", "gbdt_s", "schedmate_s",
            "oracle_s", "helios/sm", "sm/oracle", "helios/or";
          for (k in keys) printf "%-15s %8.4f %9.0f %9.0f %11.0f %9.0f %9.2f %9.3f %9.2f\n", k, offered[k], jct[k, "helios"],
            jct[k, "gbdt"], jct[k, "hints"], jct[k, "oracle"], jct[k, "helios"] / jct[k, "hints"], jct[k, "hints"] / jct[k, "oracle"],
            jct[k, "helios"] / jct[k, "oracle"] | "sort -k1,1 -k2.6bn" }' "$1"
}
echo "== avg JCT (s) by time compression and offered load: Helios-style / SchedMate, SchedMate / oracle (target <= 1.15)"
jct_table "$OUT/simulate/compare.csv"
echo "== 4. sensitivity (not the headline): SJF over loads 1x..128x"
"$MLSYS" simulate compare configs/repro/schedmate/mlperf_scheduling_loads.yaml --set "trace.path=$RUNS" \
  --set "sim.hints_file=$OUT/advise/hints.csv" --out "$OUT/simulate_loads" --overwrite
jct_table "$OUT/simulate_loads/compare.csv"
