#!/usr/bin/env bash
# ctest scripts/gpu_bundle: the GPU check's bundle is made from this build and runs from a folder
# outside the checkout, with only the bundle's libraries: its self-check passes (nothing resolves
# outside the bundle but glibc / CUDA / NCCL), `mlsys version` starts from it, and the CPU smoke
# check (device test cases, Cora on the CPU, a small R-MAT) passes. A build without CUDA is skipped:
# the bundle is for GPU nodes.
# Usage: gpu_bundle_test.sh <source dir> <build dir> <work dir>
set -euo pipefail
src=$1 build=$2 work=$3
if [[ ! -f $build/lib/libmlsys_cuda.so ]]; then
  echo "SKIPPED [no-cuda-build]: this build has no CUDA plugin; the GPU bundle needs one"
  exit 77
fi
rm -rf "$work"
mkdir -p "$work"
data=() node_env=()
if [[ -n ${MLSYS_DATA_DIR:-} && -d $MLSYS_DATA_DIR/graphs/cora ]]; then data=(--data "$MLSYS_DATA_DIR"); fi
# Fast compression: the test checks the contents, not the size.
XZ_OPT=-0 bash "$src/scripts/gpu_bundle.sh" "$build" "$work/out/mlsys-gpu.tar.xz" --no-strip "${data[@]}" > "$work/bundle.log" 2>&1 ||
  { echo "FAIL: gpu_bundle.sh"; tail -20 "$work/bundle.log"; exit 1; }
mkdir -p "$work/node"
tar -C "$work/node" -xJf "$work/out/mlsys-gpu.tar.xz"
rm -rf "$work/out"
b="$work/node/mlsys-gpu"
[[ -f $b/manifest.txt ]] || { echo "FAIL: no manifest.txt in the bundle"; exit 1; }
bash "$src/scripts/gpu_bundle.sh" --check "$b" > "$work/check.log" 2>&1 ||
  { echo "FAIL: the unpacked bundle's self-check"; tail -20 "$work/check.log"; exit 1; }
# The binary starts with the bundle's libraries only (no build tree, no system's MLSYS_* variables).
env -i PATH=/usr/bin:/bin HOME="$work" LD_LIBRARY_PATH="$b/lib:$b/lib/deps" "$b/bin/mlsys" version > "$work/version.txt" 2>&1 ||
  { echo "FAIL: mlsys version from the bundle"; cat "$work/version.txt"; exit 1; }
rc=0
((${#data[@]})) && node_env=(MLSYS_DATA_DIR="$b/data")
env -i PATH=/usr/bin:/bin HOME="$work" "${node_env[@]}" bash "$b/scripts/gpu_check.sh" --cpu-smoke "$work/smoke" > "$work/smoke.log" 2>&1 || rc=$?
[[ $rc -eq 0 ]] || { echo "FAIL: gpu_check.sh --cpu-smoke exited $rc"; tail -30 "$work/smoke.log"; tail -30 "$work/smoke/report.md" 2>/dev/null; exit 1; }
if ((${#data[@]})); then
  grep -q "Cora" "$work/smoke/report.md" || { echo "FAIL: the smoke report has no Cora section"; exit 1; }
fi
echo "ok: bundle made, self-check passed, mlsys starts from it, CPU smoke check passed"
