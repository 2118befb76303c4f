#!/usr/bin/env bash
# Validates the GPU path of mlsys in one command on a machine with one or more NVIDIA GPUs (issue
# #17): installs the packages (scripts/setup), builds with CUDA, runs every CUDA and NCCL test, then
# the GPU benchmarks (bench/gpu_*: GEMM vs cuBLAS, SpMM / SpMM^T vs device copy, 1-bit quantize vs
# memcpy), a train-gnn R-MAT 2^20 epoch on the GPU beside the CPU, and Cora GCN accuracy on the GPU
# vs the CPU over 5 seeds. Writes report.md and the raw logs into the output folder.
#
#   scripts/gpu_check.sh [OUTPUT_DIR]      (default gpu_check/<UTC time>)
#   env: BUILD_DIR (default build-gpu), MLSYS_DATA_DIR (default ../shared/data, for Cora),
#        JOBS (default nproc)
#
# Exit codes: 0 all checks passed; 1 a check failed (report.md says which); 77 no usable NVIDIA GPU
# here (the build was checked, nothing else ran). Meant to finish within 10 minutes on an H200 node.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
out=${1:-gpu_check/$(date -u +%Y%m%d-%H%M%S)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
build=${BUILD_DIR:-build-gpu}
jobs=${JOBS:-$(nproc)}
data=${MLSYS_DATA_DIR:-$repo/../shared/data}
report="$out/report.md"
failures=0
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMP_WAIT_POLICY=passive

say() { printf 'gpu_check: %s\n' "$*"; }
note() { printf '%s\n' "$*" >>"$report"; }
fail() {
  failures=$((failures + 1))
  say "FAIL: $*"
  note "- **FAIL**: $*"
}
# step <name> <timeout seconds> <command...>: runs it with its output in $out/<name>.log.
step() {
  local name=$1 limit=$2
  shift 2
  say "$name (log: $out/$name.log)"
  local t0=$SECONDS rc=0
  timeout "$limit" "$@" >"$out/$name.log" 2>&1 || rc=$?
  say "$name: exit $rc after $((SECONDS - t0)) s"
  return "$rc"
}
# json_field <summary.json> <key>: one top-level number of a run's summary.
json_field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }

{
  echo "# mlsys GPU check"
  echo
  echo "$(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(nproc) CPU cores"
  echo
} >"$report"

# ---- 1. packages and the CUDA build ----
if ! step setup 300 bash scripts/setup; then
  fail "scripts/setup failed (see setup.log)"
  exit 1
fi
if [[ ! -x /usr/local/cuda/bin/nvcc ]] && ! command -v nvcc >/dev/null; then
  fail "no CUDA toolkit: nvcc not found in /usr/local/cuda/bin or PATH (install the CUDA toolkit)"
  exit 1
fi
if ! step configure 120 cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DMLSYS_WITH_CUDA=ON; then
  fail "cmake configure failed (see configure.log)"
  exit 1
fi
# Only what the GPU checks use (the other test suites have no CUDA or NCCL case): faster on a fresh node.
if ! step build 420 cmake --build "$build" -j "$jobs" --target mlsys plugins test_core bench_gpu_gemm bench_gpu_spmm \
    bench_gpu_quant; then
  fail "build failed (see build.log)"
  exit 1
fi
mlsys="$build/bin/mlsys"
"$mlsys" version >"$out/version.txt" 2>&1 || true
note "## Build"
note
note '```'
cat "$out/version.txt" >>"$report"
note '```'
note

# ---- 2. is there a GPU? ----
gpus=0
if command -v nvidia-smi >/dev/null && nvidia-smi -L >"$out/nvidia-smi.txt" 2>&1; then
  gpus=$(grep -c '^GPU ' "$out/nvidia-smi.txt" || true)
fi
if ((gpus == 0)); then
  why=$(grep -E '^ +cuda +device' "$out/version.txt" | sed -E 's/^ +cuda +device +//' || true)
  say "the build is fine, but there is no NVIDIA GPU here (${why:-nvidia-smi found none}); nothing GPU-related was run"
  note "**Stopped: no NVIDIA GPU on this machine** (${why:-nvidia-smi found none}). The build was checked; no test or benchmark ran."
  exit 77
fi
if ! grep -qE '^ +cuda +device +available' "$out/version.txt"; then
  fail "nvidia-smi lists $gpus GPU(s) but mlsys cannot use them: $(grep -E '^ +cuda ' "$out/version.txt" || echo 'no cuda line in mlsys version')"
  exit 1
fi
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv >"$out/gpus.csv" 2>&1 || true
note "## Machine"
note
note "$gpus GPU(s):"
note '```'
cat "$out/gpus.csv" >>"$report"
note '```'
note

# ---- 3. every CUDA and NCCL test ----
note "## CUDA and NCCL tests"
note
if step ctest_gpu 600 bash -c "cd '$build' && MLSYS_DATA_DIR='$data' ctest -R 'cuda|nccl|core/plugins' --output-on-failure -j 4"; then
  note "- ctest (\`-R 'cuda|nccl|core/plugins'\`): $(grep -E 'tests passed' "$out/ctest_gpu.log" | tail -1)"
else
  fail "CUDA/NCCL tests failed: $(grep -E 'tests passed|tests failed' "$out/ctest_gpu.log" | tail -1) (see ctest_gpu.log)"
fi
# On a GPU machine nothing may be skipped, except NCCL's 2-rank test on a single GPU (NCCL refuses
# two ranks on one device: reason gpus<ranks).
skipline=$(grep -E '^skipped tests:' "$out/ctest_gpu.log" | tail -1 || true)
note "- ${skipline:-skipped tests: (no summary line)}"
if [[ -n "$skipline" && "$skipline" != "skipped tests: none" ]]; then
  bad=$(sed -E 's/^skipped tests: [0-9]+ \((.*)\)$/\1/' <<<"$skipline" | tr ',' '\n' | sed -E 's/^ +//' | grep -vE '^gpus<ranks [0-9]+$' || true)
  if [[ -n "$bad" ]] || ((gpus > 1)); then
    fail "tests were skipped on a machine with $gpus GPU(s): $skipline"
  else
    note "- with one GPU, NCCL across 2 ranks is skipped: NCCL does not allow two ranks on one device"
  fi
fi
if ((gpus > 2)); then
  # core/comm/nccl_mpi_np2 covers 2 ranks; here every local GPU, one rank each.
  if step nccl_all_gpus 300 mpirun -np "$gpus" --oversubscribe --mca btl self,vader,tcp \
      --mca btl_vader_single_copy_mechanism none "$build/tests/test_core_comm_mpi" "-tc=comm/nccl*"; then
    note "- NCCL collectives across all $gpus GPUs (mpirun -np $gpus): passed"
  else
    fail "NCCL collectives across all $gpus GPUs failed (see nccl_all_gpus.log)"
  fi
fi
note

# ---- 4. kernel benchmarks ----
note "## Kernel benchmarks"
note
note "| benchmark | value | ratio | target |"
note "|---|---|---|---|"
for b in gemm spmm quant; do
  if step "bench_gpu_$b" 300 "$build/bench/bench_gpu_$b"; then
    while read -r _ name value unit rest; do
      ratio=$(sed -nE 's/.*ratio ([0-9.]+).*/\1/p' <<<"$rest")
      target=$(sed -nE 's/.*target ([0-9.]+) (pass|FAIL).*/>= \1 (\2)/p' <<<"$rest")
      note "| $name | $value $unit | ${ratio:--} | ${target:--} |"
    done < <(grep '^RESULT ' "$out/bench_gpu_$b.log")
  else
    fail "bench_gpu_$b failed (a wrong result or a CUDA error; see bench_gpu_$b.log)"
  fi
done
note
note "GEMM ratio: cuBLAS time / mlsys time (1 = as fast as cuBLAS). SpMM / quantize ratio: effective bandwidth /"
note "device copy bandwidth. A missed target is reported here, not counted as a failure."
note

# ---- 5. train-gnn: R-MAT 2^20 epoch, GPU beside CPU ----
note "## train-gnn R-MAT 2^20 (31M nonzeros, F=128, GCN 2x128, one worker, fp32)"
note
note "| device | mean epoch (s) | test accuracy |"
note "|---|---|---|"
rmat=(--set gnn.graph.source=rmat --set gnn.graph.rmat_scale=20 --set gnn.graph.rmat_edges=16000000
      --set gnn.graph.features=128 --set gnn.graph.classes=16 --set gnn.model.hidden=128
      --set gnn.fwd_bits=32 --set gnn.bwd_bits=32 --parts 1 --epochs 5 -q)
for dev in cuda cpu; do
  if step "rmat_$dev" 300 "$mlsys" train-gnn "${rmat[@]}" --set "device.type=$dev" --out "$out/rmat_$dev"; then
    epoch=$(json_field "$out/rmat_$dev/summary.json" mean_epoch_s)
    acc=$(json_field "$out/rmat_$dev/summary.json" final_test_acc)
    note "| $dev | $epoch | $acc |"
    if [[ $dev == cuda ]] && ! python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) <= 0.1 else 1)' "$epoch"; then
      note "| (target: GPU epoch <= 0.1 s: missed) | | |"
    fi
  else
    fail "train-gnn R-MAT 2^20 on $dev failed (see rmat_$dev.log)"
  fi
done
note

# ---- 6. Cora GCN accuracy, GPU vs CPU, 5 seeds ----
note "## Cora GCN (configs/train-gnn/cora_gcn.yaml), test accuracy over 5 seeds"
note
if [[ ! -d "$data/graphs/cora" ]]; then
  fail "Cora not found at $data/graphs/cora (set MLSYS_DATA_DIR to the shared data folder)"
else
  for dev in cuda cpu; do
    for seed in 1 2 3 4 5; do
      if ! step "cora_${dev}_$seed" 120 "$mlsys" train-gnn configs/train-gnn/cora_gcn.yaml \
          --set "gnn.graph.path=$data/graphs/cora" --set "device.type=$dev" --seed "$seed" -q \
          --out "$out/cora_${dev}_$seed"; then
        fail "Cora on $dev, seed $seed failed (see cora_${dev}_$seed.log)"
      fi
    done
  done
  if python3 - "$out" >>"$report" <<'EOF'
import json, os, statistics, sys
out = sys.argv[1]
acc = {}
for dev in ("cuda", "cpu"):
    acc[dev] = [json.load(open(os.path.join(out, f"cora_{dev}_{s}", "summary.json")))["test_acc_at_best_val"]
                for s in range(1, 6)]
print("| device | seeds 1..5 (test acc at best val) | mean |")
print("|---|---|---|")
for dev, v in acc.items():
    print(f"| {dev} | {' '.join(f'{a:.3f}' for a in v)} | {statistics.mean(v):.4f} |")
gap = abs(statistics.mean(acc["cuda"]) - statistics.mean(acc["cpu"]))
print()
# Same model, same seeds; only float summation order differs between the devices.
print(f"GPU - CPU mean gap {gap:.4f} (allowed 0.015)")
sys.exit(0 if gap <= 0.015 else 1)
EOF
  then :; else fail "Cora accuracy differs between GPU and CPU by more than 1.5 points (or a run is missing)"; fi
fi
note

# ---- verdict ----
note "## Verdict"
note
if ((failures == 0)); then
  note "All checks passed in $SECONDS s."
  say "all checks passed in $SECONDS s; report: $report"
  exit 0
fi
note "$failures check(s) failed (see above and the logs). Total time $SECONDS s."
say "$failures check(s) failed; report: $report"
exit 1
