#!/usr/bin/env bash
# Failed jobs under three failure policies in `mlsys simulate` (configs/repro/schedmate/failures.yaml):
# no retry, blind retry of every failure, SchedMate's failure actions. Needs no shared data.
# Usage: scripts/repro/schedmate_failures.sh [path/to/mlsys] [output folder]
set -euo pipefail
# Shipped configs name the shared data as ${MLSYS_DATA_DIR}/...; default: the folder beside the repository.
export MLSYS_DATA_DIR="${MLSYS_DATA_DIR:-$(cd "$(dirname "$0")/../../.." && pwd)/shared/data}"
cd "$(dirname "$0")/../.."
MLSYS=${1:-build/bin/mlsys}
OUT=${2:-results/schedmate/failures}
CFG=configs/repro/schedmate/failures.yaml
echo "== 1. a generated trace with failed jobs"
"$MLSYS" simulate generate "$CFG" --out "$OUT/trace" --overwrite -q
echo "== 2. one generated log per failed job; its label is the ground truth (causes.csv)"
"$MLSYS" schedmate genlogs --out "$OUT/genlogs" --overwrite -q
rm -rf "$OUT/logs" && mkdir -p "$OUT/logs"
# Failure labels in corpus order; failed job k gets log k mod (number of failure logs).
awk -F, 'NR > 1 && $2 != "none" { print $1 "," $2 }' "$OUT/genlogs/logs/labels.csv" > "$OUT/failure_logs.csv"
awk -F, -v logs="$OUT/failure_logs.csv" -v src="$OUT/genlogs/logs" -v dst="$OUT/logs" '
  BEGIN { n = 0; m = 0; while ((getline line < logs) > 0) { split(line, f, ","); file[n] = f[1]; label[n] = f[2]; ++n }
          # What a retry runs into: infra faults pass (a bad node only when avoided), OOM needs more
          # memory, bugs, bad configs and unexplained failures recur. A crash after progress, a hang
          # and a run that did not converge pass when resubmitted from the last checkpoint (a new
          # seed, a healthy process).
          cause["infra/nccl_timeout"] = "transient"; cause["infra/network"] = "transient";
          cause["infra/storage"] = "transient"; cause["infra/gpu_hardware"] = "node";
          cause["infra/node_failure"] = "node"; cause["user/gpu_oom"] = "memory"; cause["user/host_oom"] = "memory";
          cause["user/script_error"] = "persistent"; cause["user/bad_config"] = "persistent";
          cause["run/crash_after_progress"] = "transient"; cause["run/hang"] = "transient";
          cause["run/not_converged"] = "transient";
          cause["unknown"] = "persistent"; print "job_id,cause,label" }
  NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
  $col["state"] == "failed" { k = m++ % n; system("cp \"" src "/" file[k] "\" \"" dst "/" $col["id"] ".log\"");
                              print $col["id"] "," cause[label[k]] "," label[k] }' \
  "$OUT/trace/trace.csv" > "$OUT/causes.csv"
echo "   $(($(wc -l < "$OUT/causes.csv") - 1)) failed jobs"
echo "== 3. SchedMate diagnoses the logs -> hints.csv"
"$MLSYS" schedmate advise --set "schedmate.jobs=$OUT/trace/trace.csv" --set "schedmate.log=$OUT/logs" \
  --out "$OUT/advise" --overwrite -q
echo "== 4. no retry vs blind retry vs SchedMate's failure actions"
"$MLSYS" simulate compare "$CFG" --set "trace.path=$OUT/trace/trace.csv" --set "sim.hints_file=$OUT/advise/hints.csv" \
  --set "sim.retry.causes_file=$OUT/causes.csv" --out "$OUT/simulate" --overwrite -q
cat "$OUT/simulate/compare.txt"
