#!/usr/bin/env bash
# Reproduces the CoOpt Fashion-MNIST protocol numbers in docs/coopt.md (needs Debian's
# dataset-fashion-mnist). Priors are trained once into $OUT/priors and reused by every run.
#   scripts/repro/coopt.sh [build dir or path/to/mlsys] [out dir] [--long]
# Runs the protocol comparison (timed: the issue asks for < 3 minutes on 2 cores), the CNN vs MLP
# student run, prints both in one table, then the participant-phase scaling benchmark. --long also
# runs the 15-epoch curves (configs/repro/coopt/fashion_mnist_long.yaml).
set -euo pipefail
build=${1:-build}
# Like the other repro scripts, the first argument may name the binary (<build>/bin/mlsys).
if [[ -f "$build" ]]; then build=$(dirname "$(dirname "$build")"); fi
out=${2:-results/repro/coopt}
long=${3:-}
mkdir -p "$out"
bin="$build/bin/mlsys"
# The priors are the public models: train them (about 2 s) before the timed comparison.
"$bin" coopt priors configs/repro/coopt/fashion_mnist.yaml --out "$out/priors-run" --overwrite \
  --set coopt.priors_dir="$out/priors" >/dev/null
echo "load before the comparison: $(uptime)"
time \
  "$bin" coopt compare configs/repro/coopt/fashion_mnist.yaml --out "$out/compare" --overwrite \
  --set coopt.priors_dir="$out/priors"
time \
  "$bin" coopt compare configs/repro/coopt/fashion_mnist_cnn.yaml --out "$out/cnn" --overwrite \
  --set coopt.priors_dir="$out/priors"
if [[ "$long" == "--long" ]]; then
  time \
    "$bin" coopt compare configs/repro/coopt/fashion_mnist_long.yaml --out "$out/long" --overwrite \
    --set coopt.priors_dir="$out/priors"
fi
echo
echo "Linear-probe test accuracy (%), 10 labels/class, mean +- sd over 3 seeds (CNN row: the CNN run)"
awk -F, 'FNR == 1 { next }
  { key = $1; if (!(key in seen)) { seen[key] = 1; order[++n] = key }
    cell[key, $2] = sprintf("%.2f +- %.2f", 100 * $3, 100 * $4); if (!($2 in ep)) { ep[$2] = 1; eps[++m] = $2 } }
  END { printf "%-15s", "method"; for (j = 1; j <= m; ++j) printf " | epoch %-9s", eps[j]; print "";
        for (i = 1; i <= n; ++i) { printf "%-15s", order[i];
          for (j = 1; j <= m; ++j) printf " | %-15s", ((order[i], eps[j]) in cell) ? cell[order[i], eps[j]] : "";
          print "" } }' "$out/compare/comparison.csv" <(grep '^coopt_cnn,' "$out/cnn/comparison.csv" | sed '1i header')
echo
"$build/bench/bench_dataopt_participants" 20000 3
