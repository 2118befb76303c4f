#!/usr/bin/env bash
# Reproduces the CoOpt Fashion-MNIST protocol numbers in docs/coopt.md (needs Debian's
# dataset-fashion-mnist). Priors are trained once into $OUT/priors and reused by both runs.
#   scripts/repro/coopt_fashion_mnist.sh [build dir] [out dir]
set -euo pipefail
build=${1:-build}
out=${2:-results/repro/coopt}
mkdir -p "$out"
bin="$build/bin/mlsys"
time \
  "$bin" coopt compare configs/repro/coopt/fashion_mnist.yaml --out "$out/compare" --overwrite \
  --set coopt.priors_dir="$out/priors"
time \
  "$bin" coopt compare configs/repro/coopt/fashion_mnist_cnn.yaml --out "$out/cnn" --overwrite \
  --set coopt.priors_dir="$out/priors"
"$build/bench/bench_dataopt_participants" 20000 3
