#!/usr/bin/env bash
# train-gnn scaling on one generated graph: epoch time, compute, wait and peak memory for P = 1, 2, 4
# workers as in-process threads and P = 2 as `mpirun -np 2` processes (comm.backend=mpi), fp32 and
# 1-bit pipelined, each run its own process (so peak RSS is that run's); beside PyTorch's
# single-process full-graph GCN on the same graph (bench/gnn_pytorch_gcn.py, when python3-torch is
# installed: `make bench` installs it).
# Usage: bench/gnn_scaling.sh [path/to/mlsys] [nodes (default 50000)] [epochs (default 10)] [threads (default 2)]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mlsys="$(cd "$(dirname "${1:-$root/build/bin/mlsys}")" && pwd)/$(basename "${1:-$root/build/bin/mlsys}")"
nodes="${2:-50000}"; epochs="${3:-10}"; threads="${4:-2}"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_WAIT_POLICY=passive
graph=(--set gnn.graph.source=sbm --set gnn.graph.nodes="$nodes" --set gnn.graph.classes=10 --set gnn.graph.avg_degree=16
       --set gnn.graph.homophily=0.6 --set gnn.graph.features=128 --set gnn.graph.feature_signal=0.12
       --set gnn.graph.train_fraction=0.1 --set gnn.graph.val_fraction=0.1)
model=(--set gnn.model.arch=gcn --set gnn.model.layers=2 --set gnn.model.hidden=128 --set gnn.model.dropout=0.5
       --set gnn.epochs="$epochs" --set gnn.eval_every="$epochs" --set gnn.trace_epochs=0 --set run.progress=off
       --set gnn.partition_cache=false --set gnn.graph.binary_cache=false)
row() {  # label, summary.json
  python3 - "$@" <<'PY'
import json, sys
label, path = sys.argv[1], sys.argv[2]
s = json.load(open(path)); t = s["mean_time_split"]
print(f"| {label} | {1e3*s['mean_epoch_s']:.1f} | {1e3*t['compute_s']:.1f} | {1e3*t['comm_s']:.1f} | {1e3*t['wait_s']:.1f} | "
      f"{1e3*t['reduce_s']:.1f} | {s['peak_rss_bytes']/2**20:.0f} | {100*s['final_test_acc']:.1f} |")
PY
}
echo "SBM $nodes nodes, degree 16, 128 features, 10 classes; GCN 2 x 128; $epochs epochs; $threads threads per process"
echo "| run | epoch ms | compute ms | comm ms | wait ms | all-reduce ms | peak RSS MiB | test % |"
echo "|---|---|---|---|---|---|---|---|"
for bits in 32 1; do
  pipe=$([ "$bits" = 1 ] && echo true || echo false)
  for p in 1 2 4; do
    [ "$p" = 1 ] && [ "$bits" = 1 ] && continue
    d="$work/inproc_${bits}_$p"
    "$mlsys" train-gnn --out "$d" --set run.threads="$threads" "${graph[@]}" "${model[@]}" --set gnn.parts="$p" \
        --set gnn.fwd_bits="$bits" --set gnn.bwd_bits="$bits" --set gnn.pipeline="$pipe" > /dev/null 2>&1
    row "inproc P=$p, $([ "$bits" = 1 ] && echo "1-bit pipelined" || echo fp32)" "$d/summary.json"
  done
  d="$work/mpi_${bits}"
  if mpirun --oversubscribe -np 2 "$mlsys" train-gnn --out "$d" --set run.threads=1 --set comm.backend=mpi "${graph[@]}" "${model[@]}" \
      --set gnn.parts=2 --set gnn.fwd_bits="$bits" --set gnn.bwd_bits="$bits" --set gnn.pipeline="$pipe" > "$work/mpi.log" 2>&1; then
    row "mpirun -np 2 (1 thread each; rank 0's RSS), $([ "$bits" = 1 ] && echo "1-bit pipelined" || echo fp32)" "$d/summary.json"
  else
    echo "| mpirun -np 2: failed ($(tail -1 "$work/mpi.log")) | | | | | | | |"
  fi
done
# Debian's python3-torch lives in the system interpreter; a python3 earlier on PATH (pyenv, a venv
# without system site packages) may not see it, so the first of these that imports torch runs the
# reference, and its row names it.
torch_py=""
for py in python3 /usr/bin/python3; do
  if command -v "$py" > /dev/null && "$py" -c "import torch" 2>/dev/null; then torch_py="$(command -v "$py")"; break; fi
done
if [ -n "$torch_py" ]; then
  "$mlsys" train-gnn convert --out "$work/conv" "${graph[@]}" --set gnn.graph.convert_out="$work/g.mlsg" > /dev/null 2>&1
  version="$("$torch_py" -c "import torch; print(torch.__version__)")"
  # Both of torch.sparse's layouts: the comparison is against the faster one (COO was faster than
  # CSR on R-MAT 2^20 here), and both rows are printed so the reader sees which.
  for layout in coo csr; do
    "$torch_py" "$root/bench/gnn_pytorch_gcn.py" "$work/g.mlsg" --layout "$layout" --threads "$threads" --epochs "$epochs" --hidden 128 |
      python3 -c "import json,sys; j=json.loads(sys.stdin.read()); print(f\"| PyTorch $version {j.get('layout','$layout')} (1 process, $threads threads; $torch_py) | {1e3*j['epoch_s']:.1f} | | | | | {j['peak_rss_bytes']/2**20:.0f} | |\")"
  done
else
  echo "| PyTorch: skipped (no python3 here imports torch; \`make bench\` installs python3-torch) | | | | | | | |"
fi
