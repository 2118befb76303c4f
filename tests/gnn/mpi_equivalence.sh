#!/usr/bin/env bash
# MPI ranks vs inproc threads: `mpirun -np 2 mlsys train-gnn` (one rank per partition) must give the
# same loss curve as the same run with 2 inproc workers (quickstart SBM, 1-bit fwd + bwd, pipelined).
# Every random stream is keyed by (seed, epoch, layer, node, rank pair), so the curves agree to
# rounding (1e-6 relative). The ranks share one run folder, in which only rank 0 writes results.
# The MPI run leaves gnn.parts unset: it defaults to the launcher's rank count.
# usage: mpi_equivalence.sh <mlsys binary> <scratch dir>
set -euo pipefail
bin=$1 dir=$2
rm -rf "$dir" && mkdir -p "$dir"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
args=(train-gnn --set gnn.epochs=12 --set gnn.graph.cache_dir="$dir/cache" --set run.threads=1)
"$bin" "${args[@]}" --set gnn.parts=2 --out "$dir/inproc" >/dev/null
# gnn.parts not set: under the launcher it is the rank count (2)
timeout 300 mpirun -np 2 --oversubscribe "$bin" "${args[@]}" --set comm.backend=mpi --out "$dir/mpi" >/dev/null
test "$(grep -c 'mlsys train-gnn: output in' "$dir/mpi/run.log")" = 1  # rank 1 does not write the log
python3 - "$dir/inproc/epochs.csv" "$dir/mpi/epochs.csv" <<'PY'
import csv, sys
a = [float(r["loss"]) for r in csv.DictReader(open(sys.argv[1]))]
b = [float(r["loss"]) for r in csv.DictReader(open(sys.argv[2]))]
assert len(a) == len(b) == 12, (len(a), len(b))
for i, (x, y) in enumerate(zip(a, b)):
    assert abs(x - y) <= 1e-6 * abs(x), f"epoch {i}: inproc loss {x} vs mpi {y}"
print("mpi and inproc loss curves agree over", len(a), "epochs")
PY
