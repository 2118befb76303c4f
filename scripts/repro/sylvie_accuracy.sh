#!/usr/bin/env bash
# Sylvie accuracy study (#12): GCN, GraphSAGE and GAT on real graphs, single-worker fp32 against
# 4 and 8 METIS parts with 1-bit forward + backward halos, pipelined (plain, K = 5, adaptive), over
# SEEDS seeds. Passes when, per (graph, model, parts, variant): mean test accuracy within 1.0 point
# of fp32's mean, no seed more than 3 points below that mean, and no run's final training loss
# more than 10% above its minimum. One thread per run (run it in the background with nice).
# Usage: scripts/repro/sylvie_accuracy.sh [path/to/mlsys] [output folder] [SEEDS (default 5)] [graphs (default: cora amazon_computers coauthor_cs)] [models (default: gcn sage gat)]
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
    # amazon_computers GCN: lr 0.002, chosen on validation (seeds 1-3, 200 epochs, fp32, 1 worker):
    # final val 85.00 +- 0.00 against 84.89 +- 0.79 (0.005) and 84.44 +- 0.31 (0.01); at 0.01 the
    # train loss spiked late in some runs (fp32 seed 4, 1-bit 8 parts seeds 2 and 5), which the
    # lower rate removes.
    # 400 epochs: at lr 0.002 the evaluation-pass train loss was still falling at epoch 200 (fp32:
    # 0.145 -> 0.088 over its last 70 epochs, train accuracy 98.5%), i.e. not converged.
    amazon_computers/gcn) echo "--set gnn.optim.lr=0.002 --set gnn.epochs=400" ;;
    # amazon_computers GAT: lr 0.002 with weight decay on every layer, chosen on validation (seeds
    # 1-3, 200 epochs, fp32, 1 worker) as the most accurate setting whose train loss settles: final
    # val 85.67 +- 0.98, eval loss last/min 1.00-1.03; lr 0.002 with decay on the first layer only
    # reached 85.78 +- 1.29 but one seed's loss climbed 66% from its minimum (1.11, 1.66); the
    # GAT paper's setting 84.44 +- 1.55 (1.24, 1.17); lr 0.005 83.78; lr 0.01 82.56 (1.41-1.45).
    amazon_computers/gat) echo "--set gnn.optim.lr=0.002 --set gnn.optim.decay_first_layer_only=false" ;;
  esac
}
one() {  # folder, config, extra args...
  local dir="$1" cfg="$2"; shift 2
  [ -f "$dir/summary.json" ] && return 0  # done already: the study can be resumed
  mkdir -p "$(dirname "$dir")"
  (cd "$root" && OMP_NUM_THREADS=1 "$mlsys" train-gnn "$cfg" --out "$dir" --set run.overwrite=true --set run.progress=off \
      --set run.threads=1 "$@" > /dev/null 2> "$dir.err") || { echo "FAILED: $dir (see $dir.err)"; return 0; }
  rm -f "$dir.err"
}
for g in $graphs; do
  cfg="configs/repro/sylvie/accuracy_$g.yaml"
  for m in $models; do
    for s in $(seq 1 "$seeds"); do
      # shellcheck disable=SC2046
      one "$out/$g/$m/fp32_p1/seed$s" "$cfg" --seed "$s" --set gnn.model.arch="$m" $(tuned_of "$g" "$m")
      for p in 4 8; do
        for v in $variants; do
          # shellcheck disable=SC2046
          one "$out/$g/$m/${v}_p$p/seed$s" "$cfg" --seed "$s" --set gnn.model.arch="$m" --set gnn.parts="$p" $(tuned_of "$g" "$m") $(args_of "$v")
        done
      done
    done
    echo "== $g $m done"
  done
done
python3 "$root/scripts/repro/sylvie_accuracy_table.py" "$out"
