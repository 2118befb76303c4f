#!/usr/bin/env bash
# MPI ranks vs inproc: `mpirun -np 3 mlsys coopt optimize` must write the same targets, byte for
# byte, as one inproc rank (each rank loads only its shard; S and projections are broadcast).
# usage: mpi_equivalence.sh <mlsys binary> <config.yaml> <scratch dir>
set -euo pipefail
bin=$1 cfg=$2 dir=$3
rm -rf "$dir" && mkdir -p "$dir"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
"$bin" coopt optimize "$cfg" --out "$dir/inproc" >/dev/null
timeout 300 mpirun -np 3 "$bin" coopt optimize "$cfg" --set comm.backend=mpi --out "$dir/mpi" --overwrite \
  --set coopt.dataset_dir="$dir/mpi/optimized" --set coopt.priors_dir="$dir/mpi/priors" >/dev/null
for k in 0 1 2; do
  for f in targets.npy targets_unaligned.npy images.npy index.npy; do
    cmp "$dir/inproc/optimized/shard-$k/$f" "$dir/mpi/optimized/shard-$k/$f"
  done
done
echo "mpi and inproc optimized datasets are identical"
