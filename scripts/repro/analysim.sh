#!/usr/bin/env bash
# AnalySIM studies: every policy on the Philly/Gavel VC traces, preemption/migration vs FIFO on a
# loaded trace, placers on openb, the FGD paper's fill-until-full experiment on openb, and
# placement under link contention on Philly/Gavel at three rack-uplink bandwidths. Tables
# land in results/repro/analysim/*/compare.txt (fill: results/repro/analysim/openb_fill/fill.txt).
set -euo pipefail
cd "$(dirname "$0")/../.."
# Usage: scripts/repro/analysim.sh [path/to/mlsys] [output folder]  (MLSYS_BIN also names the binary)
BIN=${1:-${MLSYS_BIN:-build/bin/mlsys}}
OUT=${2:-results/repro/analysim}
export MLSYS_DATA_DIR=${MLSYS_DATA_DIR:-../shared/data}
"$BIN" simulate compare configs/simulate/philly_gavel_policies.yaml --set run.out_dir="$OUT/policies" --set run.overwrite=true
"$BIN" simulate compare configs/repro/analysim/preemption_migration.yaml --set run.out_dir="$OUT/preemption" --set run.overwrite=true
"$BIN" simulate compare configs/simulate/estimators.yaml --set run.out_dir="$OUT/estimators" --set run.overwrite=true
"$BIN" simulate compare configs/simulate/openb_placers.yaml --set run.out_dir="$OUT/openb" --set run.overwrite=true
"$BIN" simulate fill configs/simulate/openb_fill.yaml --set run.out_dir="$OUT/openb_fill" --set run.overwrite=true
for bw in 100 25 10; do  # placement under link contention, rack uplinks at bw Gbit/s
  "$BIN" simulate compare configs/simulate/philly_gavel_links.yaml --set sim.cluster.links.inter_rack_gbps=$bw \
    --set run.out_dir="$OUT/links_uplink_$bw" --set run.overwrite=true
done
