#!/usr/bin/env bash
# Sylvie reproduction: {fp32 sync, fp32 pipeline, 1-bit sync, 1-bit pipeline, 1-bit pipeline K=5,
# K=10} x {GCN, GraphSAGE} on the scaled Reddit-shaped graph (configs/repro/sylvie/base.yaml says
# how it is scaled and why fp32 stays below its label-noise ceiling), 4 partitions, PCIe-4 link model with DELIVERED
# delays (comm.link_sleep); each configuration over the protocol's seeds, reported as mean +- sd on
# the validation split, then on the test split with the published rows of
# ../shared/reference/sylvie_results/reddit_n4.csv beside ours.
# A frozen protocol (#28): seeds and any extra config files come from the committed protocol file
# (configs/repro/sylvie/protocol.yaml; PROTOCOL=FILE for another, e.g. smoke_protocol.yaml: 20
# epochs), every setting from committed configs (no --set); scripts/repro/protocol.py refuses
# uncommitted or changed settings and records the commit and their hashes in OUT/protocol.json.
# Usage: scripts/repro/sylvie.sh [path/to/mlsys] [output folder]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
mlsys="${1:-$root/build/bin/mlsys}"
out="${2:-$root/results/repro/sylvie}"
protocol="${PROTOCOL:-$root/configs/repro/sylvie/protocol.yaml}"
proto() { python3 "$root/scripts/repro/protocol.py" get "$protocol" "$1"; }
seeds="$(proto seeds)"
extra=()
for f in $(proto extra_configs); do extra+=("$root/$f"); done
models="gcn sage"
variants="fp32_sync fp32_pipeline 1bit_sync 1bit_pipeline 1bit_pipeline_k5 1bit_pipeline_k10"
out="$(mkdir -p "$out" && cd "$out" && pwd)"
settings=("$root/configs/repro/sylvie/base.yaml" "${extra[@]}")
for m in $models; do for v in $variants; do settings+=("$root/configs/repro/sylvie/${m}_${v}.yaml"); done; done
python3 "$root/scripts/repro/protocol.py" begin "$out" "$protocol" "${settings[@]}" > /dev/null
ref="${MLSYS_DATA_DIR:-$root/../shared/data}/../reference/sylvie_results/reddit_n4.csv"
for m in $models; do
  for v in $variants; do
    for s in $seeds; do
      echo "== $m $v seed $s"
      (cd "$root" && "$mlsys" train-gnn "configs/repro/sylvie/${m}_${v}.yaml" "${extra[@]}" --out "$out/${m}_${v}/seed$s" --seed "$s" \
          --set run.overwrite=true --set run.progress=off | tail -2)
    done
  done
done
# The validation split first (recorded), then the test split, which protocol.py refuses unless
# the settings files are still committed and unchanged since that validation report.
python3 "$root/scripts/repro/sylvie_table.py" "$out" "$ref" "$seeds" validation
python3 "$root/scripts/repro/protocol.py" validated "$out"
python3 "$root/scripts/repro/protocol.py" gate "$out"
python3 "$root/scripts/repro/sylvie_table.py" "$out" "$ref" "$seeds" test
