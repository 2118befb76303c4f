#!/usr/bin/env bash
# Regenerates docs/figures/: the SVG figures of every command that draws some, at column width,
# each from the command's default (quickstart) config, as docs/FIGURES.md shows them.
# Usage: [MLSYS_DATA_DIR=...] scripts/plot/doc_figures.sh [path/to/mlsys]   (default: build/bin/mlsys)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-$root/build/bin/mlsys}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$root/docs/figures
rm -rf "$out"
# `simulate compare` sweeps four policies and two placers on the quickstart cluster (8 lines); the
# other runs are the commands' defaults.
runs=(
  "simulate compare --set sim.compare.policies=[fifo,sjf,qssf,las] --set sim.compare.placers=[consolidate,topology]"
  "simulate stats"
  "train-gnn"
  "schedmate evaluate"
  "coopt compare"
)
# The FGD fill experiment needs the openb trace (MLSYS_DATA_DIR); about 70 s on 2 cores.
data=${MLSYS_DATA_DIR:-}
if [[ -n $data && -d $data/traces/alibaba_openb_v2023 ]]; then
  runs+=("simulate fill $root/configs/simulate/openb_fill.yaml")
else
  echo "doc_figures: no openb trace under MLSYS_DATA_DIR; docs/figures/simulate_fill is left out" >&2
fi
for run in "${runs[@]}"; do
  read -r -a words <<< "$run"
  name=${words[0]}
  [[ ${words[1]:-} =~ ^[a-z] ]] && name+=_${words[1]}
  "$bin" "${words[@]}" --out "$work/$name" --quiet --set run.figure_size=column > "$work/$name.out"
  mkdir -p "$out/$name"
  cp "$work/$name"/*.svg "$out/$name/"
done
du -sh "$out"
