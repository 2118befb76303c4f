#!/usr/bin/env bash
# ctest scripts/plot_run: scripts/plot/plot_run.py on small run folders the real binary writes
# (simulate run and compare, train-gnn, schedmate's quickstart, coopt compare on tiny synthetic
# data, a two-configuration train-gnn sweep); every expected figure must exist as a non-empty PDF
# and PNG. Skipped (exit 77) where Debian's matplotlib is missing.
# Usage: plot_run_test.sh <source dir> <mlsys binary> <work dir>
set -euo pipefail
src=$1 bin=$2 work=$3
# Debian's interpreter (the one python3-matplotlib is installed for), even where another python3
# (pyenv, conda) comes first on PATH.
py=/usr/bin/python3
[[ -x $py ]] || py=python3
if ! "$py" -c "import matplotlib" 2>/dev/null; then
  echo "TEST SKIPPED [no-matplotlib]: $py cannot import matplotlib (scripts/setup installs python3-matplotlib)"
  exit 77
fi
rm -rf "$work"
mkdir -p "$work"
q=(--quiet)  # the runs' own reports go to <run>.out
"$bin" simulate --out "$work/simulate" "${q[@]}" > "$work/simulate.out"
"$bin" simulate compare --out "$work/compare" "${q[@]}" --set tracegen.jobs=200 --set 'sim.compare.policies=[fifo,sjf]' > "$work/compare.out"
"$bin" train-gnn --out "$work/gnn" "${q[@]}" --set gnn.epochs=4 --set gnn.eval_every=2 > "$work/gnn.out"
"$bin" schedmate --out "$work/schedmate" "${q[@]}" > "$work/schedmate.out"
"$bin" coopt compare --out "$work/coopt" "${q[@]}" --set coopt.data.source=synthetic \
  --set coopt.pool.begin=400 --set coopt.pool.size=300 --set coopt.test_size=200 --set coopt.align.fraction=0.1 \
  --set coopt.student.mlp_arch=mlp:32 --set coopt.student.cnn_arch=cnn:2:16 --set coopt.align.dim=8 \
  --set coopt.student.epochs=2 --set 'coopt.eval.epochs=[1,2]' --set coopt.eval.seeds=2 \
  --set 'coopt.priors=[{name: sup, kind: supervised, arch: "mlp:16", rows: [0, 200], epochs: 1}, {name: rnd, kind: random, arch: "mlp:20"}]' > "$work/coopt.out"
cat > "$work/sweep.yaml" <<'YAML'
sweep:
  command: train-gnn
  seeds: [1]
  grid:
    gnn.fwd_bits: [32, 1]
  set: ["gnn.epochs=3"]
YAML
"$bin" sweep "$work/sweep.yaml" --out "$work/sweep" "${q[@]}" > "$work/sweep.out"

# Not-evaluated accuracies are empty cells in epochs.csv, never -1.
if grep -q -- ',-1,' "$work/gnn/epochs.csv"; then
  echo "epochs.csv still writes -1 for accuracies that were not evaluated" >&2
  exit 1
fi

status=0
check() {  # run folder, then the figure names it must give
  local run=$1
  shift
  "$py" "$src/scripts/plot/plot_run.py" "$work/$run" --out "$work/figures/$run"
  for name in "$@"; do
    for ext in pdf png; do
      if [[ ! -s "$work/figures/$run/$name.$ext" ]]; then
        echo "missing or empty: figures/$run/$name.$ext" >&2
        status=1
      fi
    done
  done
}
check simulate jct_cdf utilization
check compare compare_jct compare_util
check gnn curves breakdown
check schedmate predicted_vs_true
check coopt accuracy_few_labels accuracy_all_labels
check sweep breakdown_all runs/0000/curves runs/0001/breakdown
# A folder that is not a run is refused with exit 2.
if "$py" "$src/scripts/plot/plot_run.py" "$work/figures" >/dev/null 2>&1; then
  echo "plot_run.py accepted a folder that is no run" >&2
  status=1
fi
exit $status
