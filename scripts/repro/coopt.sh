#!/usr/bin/env bash
# Reproduces the CoOpt Fashion-MNIST numbers in docs/coopt.md (needs Debian's
# dataset-fashion-mnist and the shared images in ../shared/data/images; run from the repository
# root). The priors are task-agnostic (USPS, notMNIST, scikit-learn digits, random init): they are
# trained once into $OUT/priors (the public model zoo) and reused by every run.
#   scripts/repro/coopt.sh [build dir or path/to/mlsys] [out dir] [--long]
# Times the whole comparison (the issue asks for < 5 minutes on 2 cores): every MLP row over 5
# seeds to epoch 10, then the CNN student row; prints both in one table, then the participant-phase
# scaling benchmark. --long also runs the 20-epoch curves and the earlier task-specific protocol.
set -euo pipefail
# Shipped configs name the shared data as ${MLSYS_DATA_DIR}/...; default: the folder beside the repository.
export MLSYS_DATA_DIR="${MLSYS_DATA_DIR:-$(cd "$(dirname "$0")/../../.." && pwd)/shared/data}"
build=${1:-build}
# Like the other repro scripts, the first argument may name the binary (<build>/bin/mlsys).
if [[ -f "$build" ]]; then build=$(dirname "$(dirname "$build")"); fi
out=${2:-results/repro/coopt}
long=${3:-}
mkdir -p "$out"
bin="$build/bin/mlsys"
echo "load before the comparison: $(uptime)"
start=$(date +%s.%N)
"$bin" coopt priors configs/repro/coopt/fashion_mnist.yaml --out "$out/priors-run" --overwrite \
  --set coopt.priors_dir="$out/priors"
time \
  "$bin" coopt compare configs/repro/coopt/fashion_mnist.yaml --out "$out/compare" --overwrite \
  --set coopt.priors_dir="$out/priors"
time \
  "$bin" coopt compare configs/repro/coopt/fashion_mnist_cnn.yaml --out "$out/cnn" --overwrite \
  --set coopt.priors_dir="$out/priors"
end=$(date +%s.%N)
echo "whole comparison (priors, MLP rows, CNN row): $(echo "$end - $start" | bc) s wall; load after: $(uptime)"
if [[ "$long" == "--long" ]]; then
  time \
    "$bin" coopt compare configs/repro/coopt/fashion_mnist_long.yaml --out "$out/long" --overwrite \
    --set coopt.priors_dir="$out/priors"
  "$bin" coopt priors configs/repro/coopt/fashion_mnist_task_specific.yaml --out "$out/task-specific-priors" \
    --overwrite --set coopt.priors_dir="$out/priors-task-specific" >/dev/null
  time \
    "$bin" coopt compare configs/repro/coopt/fashion_mnist_task_specific.yaml --out "$out/task-specific" --overwrite \
    --set coopt.priors_dir="$out/priors-task-specific"
fi
echo
echo "Linear-probe test accuracy (%), mean +- sd over 5 seeds (CNN rows: the CNN run)"
awk -F, 'FNR == 1 { next }
  { key = $1; if (!(key in seen)) { seen[key] = 1; order[++n] = key }
    cell[key, $2] = sprintf("%.2f+-%.2f / %.2f+-%.2f", 100 * $3, 100 * $4, 100 * $5, 100 * $6);
    if (!($2 in ep)) { ep[$2] = 1; eps[++m] = $2 } }
  END { printf "%-14s", "method (10/cls / all)"; for (j = 1; j <= m; ++j) printf " | epoch %-20s", eps[j]; print "";
        for (i = 1; i <= n; ++i) { printf "%-14s", order[i];
          for (j = 1; j <= m; ++j) printf " | %-26s", ((order[i], eps[j]) in cell) ? cell[order[i], eps[j]] : "";
          print "" } }' "$out/compare/comparison.csv" <(grep '^coopt_cnn,' "$out/cnn/comparison.csv" | sed '1i header')
echo
"$build/bench/bench_dataopt_participants" 20000 3
