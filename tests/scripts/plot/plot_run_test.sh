#!/usr/bin/env bash
# ctest scripts/plot_run: scripts/plot/plot_run.py on small run folders the real binary writes
# (simulate run, compare and stats, train-gnn, schedmate's quickstart and evaluate, coopt compare
# on tiny synthetic data, a two-configuration train-gnn sweep); every expected figure must exist as
# a non-empty PDF and PNG, 3.3 in wide (6.9 in with --size page). Every SVG the runs wrote must be
# column-sized: at most 3.3 in wide, all text 8 pt. Skipped (exit 77) where Debian's matplotlib is
# missing.
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
"$bin" schedmate evaluate --out "$work/evaluate" "${q[@]}" > "$work/evaluate.out"
"$bin" simulate stats --out "$work/stats" "${q[@]}" > "$work/stats.out"
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
check evaluate duration_scatter
check stats demand arrivals vc_gpu_hours
# Figure sizes: every PNG (200 dpi) and PDF page of the column preset is 3.3 in wide; --size page
# gives 6.9 in.
"$py" "$src/scripts/plot/plot_run.py" "$work/compare" --out "$work/figures/page" --size page > /dev/null
"$py" - "$work/figures" <<'PY' || status=1
import os, re, struct, sys
root, bad = sys.argv[1], []
for d, _, files in os.walk(root):
    lo, hi = (6.89, 6.91) if os.path.basename(d) == "page" else (3.29, 3.31)
    for f in files:
        path = os.path.join(d, f)
        if f.endswith(".png"):
            with open(path, "rb") as fh:
                w = struct.unpack(">I", fh.read(24)[16:20])[0] / 200
        elif f.endswith(".pdf"):
            m = re.search(rb"/MediaBox \[\s*0 0 ([0-9.]+)", open(path, "rb").read())
            w = float(m.group(1)) / 72 if m else 0
        else:
            continue
        if not lo <= w <= hi:
            bad.append(f"{path}: {w:.2f} in wide, expected {lo}..{hi}")
print("\n".join(bad), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
# The SVGs every run wrote: column width (3.3 in; two stacked panels for train-gnn's curves) and
# 8 pt text throughout (font-size in user units of 1 pt).
for svg in "$work"/*/*.svg; do
  width=$(sed -n '1s/.* width="\([0-9.]*\)in".*/\1/p' "$svg")
  if [[ -z $width ]] || awk -v w="$width" 'BEGIN { exit !(w > 3.3001) }'; then
    echo "$svg: width '$width' in, expected at most 3.3 in" >&2
    status=1
  fi
  if grep -o 'font-size="[0-9.]*"' "$svg" | grep -qv 'font-size="8"'; then
    echo "$svg: text other than 8 pt: $(grep -o 'font-size="[0-9.]*"' "$svg" | sort -u | tr '\n' ' ')" >&2
    status=1
  fi
done
# plot_run.py colours a name as the SVG writer does (the shared table, then the hashed palette
# slot): the compare run's lines (unlisted names) and the coopt run's methods (listed ones).
"$py" - "$src/scripts/plot" "$work" <<'PY' || status=1
import os, re, sys
sys.path.insert(0, sys.argv[1])
import plot_run
work, bad = sys.argv[2], 0
runs = {"compare/jct_cdf.svg": [plot_run.config_label(r) for r in plot_run.rows_of(os.path.join(work, "compare"), "compare.csv")],
        "coopt/accuracy_few_labels.svg": list(dict.fromkeys(r["method"] for r in plot_run.rows_of(os.path.join(work, "coopt"), "comparison.csv")))}
for path, names in runs.items():
    strokes = re.findall(r'<polyline fill="none" stroke="(#[0-9A-Fa-f]{6})"', open(os.path.join(work, path)).read())
    if not names or plot_run.colors_for(names) != strokes:
        print(f"{path}: SVG colours {strokes} for {names}, plot_run.py gives {plot_run.colors_for(names)}", file=sys.stderr)
        bad = 1
sys.exit(bad)
PY
# One seed has no spread: the titles say "one seed", never "sd over 1 seeds".
"$bin" coopt compare --out "$work/coopt1" "${q[@]}" --set coopt.data.source=synthetic \
  --set coopt.pool.begin=400 --set coopt.pool.size=300 --set coopt.test_size=200 --set coopt.align.fraction=0.1 \
  --set coopt.student.mlp_arch=mlp:32 --set coopt.student.cnn_arch=cnn:2:16 --set coopt.align.dim=8 \
  --set coopt.student.epochs=1 --set 'coopt.eval.epochs=[1]' --set coopt.eval.target_epoch=1 --set coopt.eval.seeds=1 \
  --set 'coopt.priors=[{name: rnd, kind: random, arch: "mlp:20"}]' > "$work/coopt1.out"
if grep -l "1 seeds" "$work"/coopt1/*.svg; then
  echo "coopt compare with one seed still titles its figures 'over 1 seeds'" >&2
  status=1
fi
grep -q "one seed" "$work/coopt1/accuracy_few_labels.svg" || { echo "accuracy_few_labels.svg does not say 'one seed'" >&2; status=1; }
check sweep breakdown_all runs/0000/curves runs/0001/breakdown
# A folder that is not a run is refused with exit 2.
if "$py" "$src/scripts/plot/plot_run.py" "$work/figures" >/dev/null 2>&1; then
  echo "plot_run.py accepted a folder that is no run" >&2
  status=1
fi
exit $status
