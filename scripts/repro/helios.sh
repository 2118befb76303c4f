#!/usr/bin/env bash
# Reproduces the Helios simulator's results (../shared/reference/helios_gavel) with the
# compatibility mode and checks every per-job row and integer sum against the reference.
set -euo pipefail
cd "$(dirname "$0")/../.."
# Usage: scripts/repro/helios.sh [path/to/mlsys] [output folder]  (MLSYS_BIN also names the binary)
BIN=${1:-${MLSYS_BIN:-build/bin/mlsys}}
OUT=${2:-results/repro/helios}
export MLSYS_DATA_DIR=${MLSYS_DATA_DIR:-../shared/data}
"$BIN" simulate helios configs/repro/helios/helios_gavel.yaml --set run.out_dir="$OUT" --set run.overwrite=true
python3 - "$OUT" "$MLSYS_DATA_DIR/../reference/helios_gavel/results.csv" <<'PY'
import csv, sys
out = sys.argv[1]
ref = {(r["vc"], r["policy"]): r for r in csv.DictReader(open(sys.argv[2]))}
ours = {(r["vc"], r["policy"]): r for r in csv.DictReader(open(f"{out}/helios_results.csv"))}
bad = 0
for k, r in ref.items():
    for col in ["jobs", "sum_jct_s", "sum_queue_s", "makespan_s", "preemptions"]:
        if int(float(ours[k][col])) != int(r[col]):
            print("MISMATCH", k, col, ours[k][col], r[col]); bad += 1
print(f"{len(ref)} (vc, policy) rows compared, {bad} mismatches")
sys.exit(1 if bad else 0)
PY
