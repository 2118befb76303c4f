#!/usr/bin/env bash
# Sylvie accuracy study (#12): GCN, GraphSAGE and GAT on real graphs, single-worker fp32 against
# 4 and 8 METIS parts with 1-bit forward + backward halos, pipelined (plain, K = 5, adaptive), over
# SEEDS seeds. Checks per (graph, model, parts, variant): mean test accuracy within 1.0 point of
# fp32's mean, no seed more than 3 points below that mean, and the issue's loss check "no run's
# final training loss more than 10% above its minimum" -- reported as specified (on the training
# step's loss, which dropout makes wander: it fails for fp32 too) and on the evaluation pass's
# train loss beside it. The table lists missing and failed runs; the script exits 1 when a row has
# fewer than SEEDS finished seeds. One thread per run (run it in the background with nice).
# Usage: scripts/repro/sylvie_accuracy.sh [path/to/mlsys] [output folder] [SEEDS (default 5)] [graphs (default: cora amazon_computers coauthor_cs)] [models (default: gcn sage gat)]
# JOBS=N runs N runs at once (default 1; one thread each, so up to the number of cores).
set -euo pipefail
# Shipped configs name the shared data as ${MLSYS_DATA_DIR}/...; default: the folder beside the repository.
export MLSYS_DATA_DIR="${MLSYS_DATA_DIR:-$(cd "$(dirname "$0")/../../.." && pwd)/shared/data}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
mlsys="${1:-$root/build/bin/mlsys}"
out="${2:-$root/results/repro/sylvie_accuracy}"
seeds="${3:-5}"
graphs="${4:-cora amazon_computers coauthor_cs}"
models="${5:-gcn sage gat}"
out="$(mkdir -p "$out" && cd "$out" && pwd)"
variants="1bit_pipeline 1bit_pipeline_k5 adaptive"
jobs_max="${JOBS:-1}"
args_of() {
  case "$1" in
    1bit_pipeline) echo "--set gnn.fwd_bits=1 --set gnn.bwd_bits=1 --set gnn.pipeline=true" ;;
    1bit_pipeline_k5) echo "--set gnn.fwd_bits=1 --set gnn.bwd_bits=1 --set gnn.pipeline=true --set gnn.staleness.bound=5" ;;
    adaptive) echo "--set gnn.fwd_bits=1 --set gnn.bwd_bits=1 --set gnn.pipeline=true --set gnn.staleness.adaptive=true" ;;
  esac
}
# Settings chosen per (graph, architecture) on the graph's validation split (see the graph's config).
tuned_of() {
  case "$1/$2" in
    # GAT's own published Cora setting (Velickovic et al. 2018: 8 heads x 8 hidden, dropout 0.6,
    # lr 0.005, weight decay 5e-4 on every layer); validation, seeds 1-3: 78.4% vs 76.4% with the
    # GCN setting above.
    # coauthor_cs: the same setting, chosen on validation (seeds 1-3, 200 epochs, fp32, 1 worker):
    # final val 86.89 +- 0.31 with a steady eval loss, against 86.37 (lr 0.002), 84.52 (lr 0.005)
    # and 84.44 (lr 0.01) with the GCN setting.
    cora/gat | coauthor_cs/gat) echo "--set gnn.model.hidden=8 --set gnn.model.heads=8 --set gnn.model.dropout=0.6 --set gnn.optim.lr=0.005 --set gnn.optim.decay_first_layer_only=false" ;;
    amazon_computers/sage) echo "--set gnn.graph.normalize_features=true" ;;
    # amazon_computers GCN: the Cora setting (lr 0.01, 200 epochs) with a cosine learning-rate
    # schedule, chosen on validation (seeds 1-3, fp32, 1 worker; mean +- sample sd): final val
    # 86.89 +- 1.50 with the eval loss settled on every seed (last/min 1.00), against 85.00 +- 0.67
    # (lr 0.002, 400 epochs, cosine), 85.00 +- 0.00 (lr 0.005, cosine) and 84.44 +- 0.38 (lr 0.01,
    # constant). Without a schedule the test runs' train loss spiked late at lr 0.01 and still
    # moved 10-25% between evaluations at the end at lr 0.002 / 400 epochs (the previous choice).
    amazon_computers/gcn) echo "--set gnn.optim.schedule=cosine" ;;
    # amazon_computers GAT: lr 0.002 with weight decay on every layer and a cosine schedule, chosen
    # on validation (seeds 1-3, 200 epochs, fp32, 1 worker; mean +- sample sd): final val 85.89 +-
    # 1.50, eval loss last/min 1.00 on every seed; constant lr 0.002 85.67 +- 1.20 (1.00-1.03); with
    # decay on the first layer only 85.78 +- 1.58 but one seed's loss climbed 66% from its minimum;
    # the GAT paper's setting 84.44 +- 1.90; lr 0.005 83.78; lr 0.01 82.56 (1.41-1.45).
    # fresh_bits 8: a pipelined run's fresh epochs at 8 bits, chosen on validation (8 parts, K = 5,
    # constant lr, seeds 1-3): final val 85.22 +- 0.84 against 78.33 +- 2.33 with 1-bit fresh epochs
    # (eval loss last/min up to 2.47) and 83.11 +- 2.41 with gnn.halo.smooth_fresh (up to 2.17).
    amazon_computers/gat) echo "--set gnn.optim.lr=0.002 --set gnn.optim.decay_first_layer_only=false --set gnn.optim.schedule=cosine --set gnn.staleness.fresh_bits=8" ;;
  esac
}
one() {  # folder, config, extra args...
  local dir="$1" cfg="$2"; shift 2
  # Done already (the study can be resumed), unless the run was stopped early (SIGINT/SIGTERM
  # write a summary with "interrupted": true): that one runs again.
  [ -f "$dir/summary.json" ] && ! grep -q '"interrupted": true' "$dir/summary.json" && return 0
  mkdir -p "$(dirname "$dir")"
  (cd "$root" && OMP_NUM_THREADS=1 "$mlsys" train-gnn "$cfg" --out "$dir" --set run.overwrite=true --set run.progress=off \
      --set run.threads=1 "$@" > /dev/null 2> "$dir.err") || { echo "FAILED: $dir (see $dir.err)"; return 0; }
  rm -f "$dir.err"
}
# Starts one run in the background once fewer than JOBS are running.
start() {
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
  one "$@" &
}
for g in $graphs; do
  cfg="configs/repro/sylvie/accuracy_$g.yaml"
  for m in $models; do
    for s in $(seq 1 "$seeds"); do
      # shellcheck disable=SC2046
      start "$out/$g/$m/fp32_p1/seed$s" "$cfg" --seed "$s" --set gnn.model.arch="$m" $(tuned_of "$g" "$m")
      for p in 4 8; do
        for v in $variants; do
          # shellcheck disable=SC2046
          start "$out/$g/$m/${v}_p$p/seed$s" "$cfg" --seed "$s" --set gnn.model.arch="$m" --set gnn.parts="$p" $(tuned_of "$g" "$m") $(args_of "$v")
        done
      done
    done
    wait
    echo "== $g $m done"
  done
done
python3 "$root/scripts/repro/sylvie_accuracy_table.py" "$out" --seeds "$seeds"
