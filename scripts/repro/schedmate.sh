#!/usr/bin/env bash
# Reproduces SchedMate's evaluation: duration accuracy (vs Helios-style), then the scheduling
# comparison (Helios-style vs SchedMate vs oracle estimates under SJF, QSSF, EASY) on the
# Philly/Gavel VC traces. Needs ../shared/data (or MLSYS_DATA_DIR).
# Usage: scripts/repro/schedmate.sh [path/to/mlsys] [output folder]
set -euo pipefail
# Shipped configs name the shared data as ${MLSYS_DATA_DIR}/...; default: the folder beside the repository.
export MLSYS_DATA_DIR="${MLSYS_DATA_DIR:-$(cd "$(dirname "$0")/../../.." && pwd)/shared/data}"
cd "$(dirname "$0")/../.."
MLSYS=${1:-build/bin/mlsys}
OUT=${2:-results/schedmate/repro}
DATA=${MLSYS_DATA_DIR:-../shared/data}
[ -d "$DATA/traces/philly_gavel" ] || { echo "shared data not found at $DATA (set MLSYS_DATA_DIR)" >&2; exit 1; }
paths=(--set "schedmate.jobs=$DATA/traces/philly_gavel" --set "schedmate.throughputs=$DATA/jobs/gavel_isolated_throughputs.csv")
echo "== 1. duration accuracy (online protocol) and self-checks"
"$MLSYS" schedmate evaluate configs/repro/schedmate/duration_accuracy.yaml "${paths[@]}" \
  --set "schedmate.loghub=$DATA/jobs/loghub/HPC_2k.log_structured.csv" --out "$OUT/evaluate" --overwrite
echo "== 2. SchedMate advice -> hints.csv"
"$MLSYS" schedmate advise configs/repro/schedmate/advise_philly.yaml "${paths[@]}" --out "$OUT/advise" --overwrite
echo "== 3. scheduling: Helios-style vs SchedMate vs oracle estimates"
"$MLSYS" simulate compare configs/repro/schedmate/scheduling.yaml \
  --set "trace.path=$DATA/traces/philly_gavel" --set "trace.throughputs=$DATA/jobs/gavel_isolated_throughputs.csv" \
  --set "sim.cluster.path=$DATA/traces/helios_meta/philly_vc_nodes.csv" \
  --set "sim.hints_file=$OUT/advise/hints.csv" --out "$OUT/simulate" --overwrite
cat "$OUT/simulate/compare.txt" 2>/dev/null || true
echo "== avg JCT: Helios-style / SchedMate (target >= 1.5) and SchedMate / oracle (target <= 1.15)"
awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
  { key = $col["policy"] " load=" $col["load"]; jct[key, $col["estimator"]] = $col["avg_jct_s"]; keys[key] = 1 }
  END { printf "%-18s %12s %12s %12s %14s %15s\n", "policy", "helios_s", "schedmate_s", "oracle_s", "helios/sm", "sm/oracle";
        for (k in keys) printf "%-18s %12.0f %12.0f %12.0f %14.2f %15.3f\n", k, jct[k, "helios"], jct[k, "hints"],
          jct[k, "oracle"], jct[k, "helios"] / jct[k, "hints"], jct[k, "hints"] / jct[k, "oracle"] | "sort" }' \
  "$OUT/simulate/compare.csv"
echo "== 4. failed jobs: no retry vs blind retry vs SchedMate's failure actions (generated trace and logs)"
scripts/repro/schedmate_failures.sh "$MLSYS" "$OUT/failures"
