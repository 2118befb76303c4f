#!/usr/bin/env bash
# Validates the GPU path of mlsys in one command on a machine with NVIDIA GPUs (issues #17, #27):
# every CUDA / NCCL / device test case of every test suite, the GPU kernel benchmarks, train-gnn on
# R-MAT 2^20 and 2^22 on the GPU beside the CPU and PyTorch, 4 workers sharing one GPU at 1 bit,
# and Cora GCN / GraphSAGE / GAT accuracy on the GPU vs the CPU over 5 seeds. Writes report.md
# (section by section, so a stopped run still leaves one) and every log into the output folder.
#
#   scripts/gpu_check.sh [--bundle DIR] [--cpu-smoke] [OUTPUT_DIR]
#
# Two ways to get the binaries:
#   build mode   (this script inside a checkout): installs our packages (scripts/setup), builds with
#                CUDA into $BUILD_DIR, then checks. Needs a Debian 12 machine with apt.
#   bundle mode  (this script inside a bundle from scripts/gpu_bundle.sh, i.e. a manifest.txt one
#                folder up, or --bundle DIR): builds nothing; runs the bundle's binaries with the
#                bundle's lib/ and lib/deps/ and the node's glibc, CUDA, NCCL and driver
#                (docs/GPU_CHECK.md). The MPI cases need Open MPI on the node (not bundled).
#   --cpu-smoke  the CPU-only parts (binaries start, the device test cases (the cuda ones skip),
#                Cora GCN / GraphSAGE / GAT on the CPU with 1 seed, a small R-MAT on the CPU):
#                validates a bundle on a machine without a GPU. Exit 0 or 1.
#
# env: BUILD_DIR (build mode, default build-gpu), JOBS (default nproc), MLSYS_DATA_DIR (Cora:
#      default the bundle's data/, else ../shared/data), GPU_CHECK_BUDGET_S (seconds all checks
#      together may take after the build, default 540: each step's timeout is clipped to what is
#      left, and a step that no longer fits is reported as not run).
#
# Exit codes: 0 all checks passed; 1 a check failed or did not finish (report.md says which);
# 77 no usable NVIDIA GPU here (the binaries were checked to start, nothing else ran).
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; }
bundle=""
smoke=0
out=""
while (($#)); do
  case $1 in
    --bundle) bundle=${2:?--bundle needs the unpacked bundle folder}; shift 2 ;;
    --bundle=*) bundle=${1#--bundle=}; shift ;;
    --cpu-smoke) smoke=1; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "gpu_check: unknown option $1 (see --help)" >&2; exit 1 ;;
    *) [[ -z $out ]] || { echo "gpu_check: one output folder only (see --help)" >&2; exit 1; }; out=$1; shift ;;
  esac
done
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [[ -z $bundle && -f $here/../manifest.txt ]]; then bundle=$here/..; fi
if [[ -n $bundle ]]; then
  [[ -f $bundle/manifest.txt ]] || { echo "gpu_check: $bundle is not an unpacked bundle (no manifest.txt)" >&2; exit 1; }
  root=$(cd "$bundle" && pwd)
else
  root=$(cd "$here/.." && pwd)
fi
out=${out:-$root/gpu_check/$(date -u +%Y%m%d-%H%M%S)}
if [[ -e $out/report.md ]]; then echo "gpu_check: $out already holds a report: give a new output folder" >&2; exit 1; fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$root"
work=$out/work  # large files (graphs, caches): the logs tarball leaves this folder out
runs=$out/runs  # run folders (summary.json, epochs.csv, config.yaml)
mkdir -p "$work" "$runs"
report=$out/report.md
cores=$(nproc)
jobs=${JOBS:-$cores}
budget=${GPU_CHECK_BUDGET_S:-540}
failures=()
running=()  # pids of the steps in flight (killed on a signal)
cora_threads=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMP_WAIT_POLICY=passive MLSYS_CACHE_DIR=$work/cache

say() { printf 'gpu_check: %s\n' "$*"; }
note() { printf '%s\n' "$*" >>"$report"; }
fail() {
  failures+=("$*")
  say "FAIL: $*"
}
verdict() {  # verdict [interrupted]: the failures so far and the exit code
  note
  note "## Verdict"
  note
  if [[ ${1:-} == interrupted ]]; then note "**Interrupted after $SECONDS s**: the sections above are all that ran."; fi
  local f
  for f in "${failures[@]}"; do note "- **FAIL**: $f"; done
  if [[ -f $out/steps.tsv ]]; then  # where the time went, to size the budget
    note "- Step times (s): $(awk -F'\t' '{printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $3}' "$out/steps.tsv")."
  fi
  if [[ -z ${1:-} ]] && ((${#failures[@]} == 0)); then
    note "All checks passed in $SECONDS s."
    say "all checks passed in $SECONDS s; report: $report"
    exit 0
  fi
  note "${#failures[@]} check(s) failed. Total time $SECONDS s; logs beside this report."
  say "${#failures[@]} check(s) failed; report: $report"
  exit 1
}
# shellcheck disable=SC2317  # invoked by the traps below
on_signal() {
  trap - TERM INT
  ((${#running[@]} == 0)) || kill -TERM "${running[@]}" 2>/dev/null || true
  say "interrupted by SIG$1"
  verdict interrupted
}
trap 'on_signal TERM' TERM
trap 'on_signal INT' INT

deadline=$((SECONDS + 100000))  # set for real once the build (if any) is done
left() { echo $((deadline - SECONDS)); }
# clip <limit>: the limit, at most what is left of the budget.
clip() { local l; l=$(left); echo $(($1 < l ? $1 : l)); }
# step <name> <limit s> <command...>: runs it with its output in $out/<name>.log, killed after the
# limit (clipped to the budget). Returns its exit code; 124 timed out, 125 not run (budget spent).
step() {
  local name=$1 limit
  limit=$(clip "$2")
  shift 2
  if ((limit < 5)); then
    echo "not run: the check's time budget ($budget s) was spent" >"$out/$name.log"
    say "$name: not run, the time budget is spent"
    printf '%s\t%s\t%s\n' "$name" "not run" 0 >>"$out/steps.tsv"
    return 125
  fi
  say "$name (at most $limit s; log: $out/$name.log)"
  local t0=$SECONDS rc=0
  timeout -k 5 "$limit" "$@" >"$out/$name.log" 2>&1 &
  running=("$!")
  wait "${running[0]}" || rc=$?
  running=()
  say "$name: exit $rc after $((SECONDS - t0)) s"
  printf '%s\t%s\t%s\n' "$name" "$rc" "$((SECONDS - t0))" >>"$out/steps.tsv"
  return "$rc"
}
# why <exit code> <name>: the words for a step that did not succeed.
why() {
  case $1 in
    124) echo "timed out (see $2.log)" ;;
    125) echo "not run: the time budget was spent" ;;
    *) echo "exit $1 (see $2.log)" ;;
  esac
}
json_field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }
# epoch_stats <run folder>: "<median> <mean> <test acc> <peak RSS MiB>", epochs after the first
# (epoch 0 warms pools and caches; summary.json's mean leaves it out the same way).
epoch_stats() {
  python3 - "$1" <<'EOF'
import csv, json, statistics, sys
d = sys.argv[1]
t = [float(r["epoch_s"]) for r in csv.DictReader(open(f"{d}/epochs.csv"))]
t = t[1:] or t
s = json.load(open(f"{d}/summary.json"))
print(f"{statistics.median(t):.4f} {s['mean_epoch_s']:.4f} {s['final_test_acc']:.3f} {s['peak_rss_bytes'] / 2**20:.0f}")
EOF
}
# le <a> <b>: a <= b (decimals).
le() { python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) <= float(sys.argv[2]) else 1)' "$1" "$2"; }

mode=$([[ -n $bundle ]] && echo bundle || echo build)
((smoke)) && mode+=", CPU smoke"
{
  echo "# mlsys GPU check"
  echo
  echo "$(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -n), $cores CPU cores; mode: $mode"
  echo
} >"$report"
command -v python3 >/dev/null || { fail "python3 is needed (the report's numbers come from the runs' JSON)"; verdict; }

# ---- 1. the binaries: from the bundle, or built here ----
if [[ -n $bundle ]]; then
  bin=$root/bin
  mlsys=$bin/mlsys
  tests_dir=$bin
  bench_dir=$bin
  # Only our binaries get the bundle's libraries (python3 and PyTorch keep the node's own).
  ld="$root/lib:$root/lib/deps${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  data=${MLSYS_DATA_DIR:-$root/data}
  [[ ! -f $data/graphs/cora/meta.txt && -f $root/data/graphs/cora/meta.txt ]] && data=$root/data
  note "## Bundle"
  note
  note '```'
  sed -n '/^$/q; p' "$root/manifest.txt" >>"$report"
  note '```'
  note
  # glibc comes from the node: the bundle needs at least the version it was linked against.
  need=$(sed -nE 's/^glibc_required: *//p' "$root/manifest.txt")
  have=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}' || true)
  if [[ -n $need && -n $have && $(printf '%s\n%s\n' "$need" "$have" | sort -V | head -1) != "$need" ]]; then
    fail "this machine's glibc is $have, the bundle needs $need or newer: make the bundle on an older distribution"
    verdict
  fi
  # CUDA and NCCL come from the node: where the loader does not find one, look where toolkits and
  # pip wheels keep them and add that folder.
  node_missing() {
    { env LD_LIBRARY_PATH="$ld" ldd "$root"/lib/libmlsys_*.so "$bin"/bench_gpu_* 2>/dev/null || true; } |
      awk '$2 == "=>" && $3 == "not" {print $1}' | sort -u
  }
  for lib in $(node_missing); do
    for dir in ${CUDA_HOME:+"$CUDA_HOME"/lib64} /usr/local/cuda/lib64 /usr/local/cuda/lib \
        /usr/local/cuda/targets/x86_64-linux/lib /usr/lib/x86_64-linux-gnu /usr/lib64 \
        $(python3 -c 'import glob, site
for r in site.getsitepackages() + [site.getusersitepackages()]:
    print(*glob.glob(r + "/nvidia/*/lib") + glob.glob(r + "/nvidia/*/*/lib"), sep="\n")' 2>/dev/null); do
      if [[ -e $dir/$lib ]]; then
        [[ :$ld: == *":$dir:"* ]] || ld+=":$dir"
        break
      fi
    done
  done
  ours=(env "LD_LIBRARY_PATH=$ld" "MLSYS_PLUGIN_PATH=$root/lib")
  still=$(node_missing | tr '\n' ' ')
  # Where each library the bundle expects from the node comes from here.
  from_here=$({ env LD_LIBRARY_PATH="$ld" ldd "$root"/lib/libmlsys_*.so "$bin"/bench_gpu_* 2>/dev/null || true; } |
    awk '$2 == "=>" {print $1, $3}' | sort -u)
  note "Libraries from this machine:"
  note
  read -ra node_libs <<<"$(sed -nE 's/^node_libs: *//p' "$root/manifest.txt")"
  for lib in "${node_libs[@]}"; do
    note "- $lib: $(awk -v l="$lib" '$1 == l {print $2; exit}' <<<"$from_here")"
  done
  note
  if [[ -n $still ]]; then note "**Not found on this machine**: $still(the cuda / nccl plugins cannot load without them)"; note; fi
else
  build=${BUILD_DIR:-build-gpu}
  mlsys=$build/bin/mlsys
  tests_dir=$build/tests
  bench_dir=$build/bench
  ours=(env)
  data=${MLSYS_DATA_DIR:-$root/../shared/data}
  if ! step setup 300 bash scripts/setup; then fail "scripts/setup failed (see setup.log)"; verdict; fi
  if [[ ! -x /usr/local/cuda/bin/nvcc ]] && ! command -v nvcc >/dev/null; then
    fail "no CUDA toolkit: nvcc not found in /usr/local/cuda/bin or PATH (install the CUDA toolkit)"
    verdict
  fi
  if ! step configure 120 cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DMLSYS_WITH_CUDA=ON; then
    fail "cmake configure failed (see configure.log)"
    verdict
  fi
  # Every test suite (each may hold device cases), the plugins and the GPU benchmarks.
  if ! step build 900 cmake --build "$build" -j "$jobs" --target mlsys plugins test_core test_gnn test_dataopt \
      test_cli test_sched test_sim bench_gpu_gemm bench_gpu_spmm bench_gpu_quant; then
    fail "build failed (see build.log)"
    verdict
  fi
fi
deadline=$((SECONDS + budget))
export MLSYS_DATA_DIR=$data
configs=$root/configs/train-gnn
pyref=$root/bench/gnn_pytorch_gcn.py

# The binaries start: mlsys prints its build, every test suite lists its cases.
if ! "${ours[@]}" "$mlsys" version >"$out/version.txt" 2>&1; then
  fail "$mlsys does not start: $(tail -3 "$out/version.txt" | tr '\n' ' ')"
  verdict
fi
mapfile -t suites < <(find "$tests_dir" -maxdepth 1 -type f -name 'test_*' -perm -u+x ! -name '*.*' ! -name 'test_core_comm_mpi' | sort)
((${#suites[@]} > 0)) || { fail "no test_* suite in $tests_dir"; verdict; }
started=0
for t in "${suites[@]}"; do
  log=$out/start_$(basename "$t").log
  if "${ours[@]}" "$t" --list-test-cases >/dev/null 2>"$log"; then started=$((started + 1))
  else fail "$(basename "$t") does not start: $(tail -2 "$log" | tr '\n' ' ')"
  fi
  [[ -s $log ]] || rm -f "$log"
done
note "## Build"
note
note '```'
cat "$out/version.txt" >>"$report"
note '```'
note
names=$(for t in "${suites[@]}"; do basename "$t"; done | paste -sd ' ')
note "$started of ${#suites[@]} test suites start ($names)."
note

# ---- 2. is there a GPU? ----
gpus=0
if ((!smoke)); then
  if command -v nvidia-smi >/dev/null && nvidia-smi -L >"$out/nvidia-smi.txt" 2>&1; then
    gpus=$(grep -c '^GPU ' "$out/nvidia-smi.txt" || true)
  fi
  if ((gpus == 0)); then
    reason=$(grep -E '^ +cuda +device' "$out/version.txt" | sed -E 's/^ +cuda +device +//' || true)
    say "the binaries start, but there is no NVIDIA GPU here (${reason:-nvidia-smi found none}); nothing GPU-related was run"
    note "**Stopped: no NVIDIA GPU on this machine** (${reason:-nvidia-smi found none}). The binaries were checked to start; no test or benchmark ran (exit 77)."
    if ((${#failures[@]})); then verdict; fi
    exit 77
  fi
  if ! grep -qE '^ +cuda +device +available' "$out/version.txt"; then
    fail "nvidia-smi lists $gpus GPU(s) but mlsys cannot use them: $(grep -E '^ +cuda ' "$out/version.txt" || echo 'no cuda line in mlsys version')"
    verdict
  fi
  nvidia-smi --query-gpu=name,memory.total,driver_version,compute_cap --format=csv >"$out/gpus.csv" 2>&1 ||
    nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv >"$out/gpus.csv" 2>&1 || true
  note "## Machine"
  note
  note "$gpus GPU(s):"
  note '```'
  cat "$out/gpus.csv" >>"$report"
  note '```'
  note
fi

# ---- 3. the device test cases of every suite, one process per suite ----
# By name: BACKEND_TEST's "[cuda]" variants, the cuda / nccl / plugin / backend / device cases. Left
# out: names that match but test no device (a /dev file, an LLM analyzer backend, a jobs file);
# "GPU" in sched / sim names means a simulated cluster's GPUs, so it is no pattern.
tc='*cuda*,*nccl*,*plugin*,*backend*,*device*'
tce='fs read:*,every analyzer backend*,@file scripts*'
note "## Device test cases (doctest \`-tc='$tc'\`)"
note
note "| suite | cases | passed | failed | skipped (reasons) | seconds | result |"
note "|---|---|---|---|---|---|---|"
for t in "${suites[@]}"; do
  s=$(basename "$t")
  n=$("${ours[@]}" "$t" --list-test-cases -tc="$tc" -tce="$tce" 2>/dev/null | sed -nE 's/.*passing the current filters: ([0-9]+).*/\1/p')
  if [[ ${n:-0} == 0 ]]; then note "| $s | 0 | | | | | no device case |"; continue; fi
  t0=$SECONDS
  rc=0
  step "$s" "$([[ $s == test_core ]] && echo 180 || echo 90)" "${ours[@]}" "$t" -tc="$tc" -tce="$tce" --duration=true || rc=$?
  counts=$(sed -nE 's/^\[doctest\] test cases: *([0-9]+) *\| *([0-9]+) passed *\| *([0-9]+) failed.*/\1 \2 \3/p' "$out/$s.log" | tail -1)
  read -r ran passed failed <<<"${counts:-? ? ?}"
  skipped=$(sed -nE 's/^skipped ([0-9]+ of [0-9]+ test case\(s\) \(.*\))$/\1/p' "$out/$s.log" | tail -1)
  reasons=$(sed -nE 's/^skipped [0-9]+ of [0-9]+ test case\(s\) \((.*)\)$/\1/p' "$out/$s.log" | tail -1)
  result=passed
  if ((rc != 0 && rc != 77)); then
    result="**FAIL**: $(why "$rc" "$s")"
    fail "$s device cases: $(why "$rc" "$s")"
  elif [[ -n $reasons ]] && ((!smoke)); then
    # On a GPU machine nothing may skip, except NCCL across more ranks than there are GPUs.
    bad=$(tr ',' '\n' <<<"$reasons" | sed -E 's/^ +//' | grep -vE '^gpus<ranks: [0-9]+$' || true)
    if [[ -n $bad ]]; then
      result="**FAIL**: cases skipped on a GPU machine"
      fail "$s skipped device cases on a machine with $gpus GPU(s): $reasons"
    fi
  elif ((rc == 77)); then
    result="all skipped (no GPU)"
  fi
  note "| $s | ${ran:-?} | ${passed:-?} | ${failed:-?} | ${skipped:--} | $((SECONDS - t0)) | $result |"
done
note
# NCCL across GPUs, one rank per GPU: needs mpirun (Open MPI is not part of a bundle).
if ((gpus >= 2)); then
  if ! command -v mpirun >/dev/null; then
    note "- NCCL across $gpus GPUs: not run: no mpirun on this machine (the MPI cases need Open MPI on the node)"
  elif step nccl_all_gpus 120 mpirun -np "$gpus" --oversubscribe "${ours[@]}" "$tests_dir/test_core_comm_mpi" "-tc=comm/nccl*"; then
    note "- NCCL collectives across all $gpus GPUs (mpirun -np $gpus): passed"
  else
    fail "NCCL collectives across all $gpus GPUs failed: $(why $? nccl_all_gpus)"
    note "- NCCL collectives across all $gpus GPUs: **FAIL** (see nccl_all_gpus.log)"
  fi
  note
elif ((!smoke)); then
  note "- NCCL across GPUs: not run: one GPU (NCCL allows one rank per GPU)"
  note
fi

# ---- 4. kernel benchmarks ----
if ((!smoke)); then
  note "## Kernel benchmarks"
  note
  note "| benchmark | value | ratio, target and the rest of its RESULT line |"
  note "|---|---|---|"
  for b in gemm spmm quant; do
    if [[ ! -x $bench_dir/bench_gpu_$b ]]; then
      fail "bench_gpu_$b is missing from $bench_dir"
      note "| bench_gpu_$b | **missing** | |"
      continue
    fi
    rc=0
    step "bench_gpu_$b" 90 "${ours[@]}" "$bench_dir/bench_gpu_$b" || rc=$?
    while read -r _ name value unit rest; do
      note "| $name | $value $unit | ${rest:--} |"
    done < <(grep '^RESULT ' "$out/bench_gpu_$b.log" || true)
    if ((rc != 0)); then
      fail "bench_gpu_$b: $(why "$rc" "bench_gpu_$b") (a wrong result or a CUDA error)"
      note "| bench_gpu_$b | **FAIL** | $(why "$rc" "bench_gpu_$b") |"
    fi
  done
  note
  note "GEMM ratio: cuBLAS time / mlsys time (1 = as fast as cuBLAS). SpMM / quantize ratio: effective bandwidth /"
  note "device copy bandwidth. A missed target is reported here, not counted as a failure."
  note
fi

# ---- 5. Cora: GCN, GraphSAGE, GAT; GPU vs CPU over 5 seeds ----
# Same model, same seeds; only the float summation order differs between the devices. The issue's
# target is a gap of at most 0.5 point; a gap over 1.5 points counts as a failure (a real bug, not
# noise: 5 seeds of Cora scatter by about half a point).
cora_row() {  # cora_row <arch> <seeds>: one table row from the runs' summaries; exit 1 on a failure
  python3 - "$runs" "$1" "$2" <<'EOF'
import json, os, statistics, sys
runs, arch, seeds = sys.argv[1], sys.argv[2], int(sys.argv[3])
acc = {}
for dev in ("cuda", "cpu"):
    v = []
    for s in range(1, seeds + 1):
        p = os.path.join(runs, f"cora_{arch}_{dev}_{s}", "summary.json")
        if os.path.exists(p):
            v.append(json.load(open(p))["test_acc_at_best_val"])
    acc[dev] = v
cell = lambda v: (f"{' '.join(f'{100 * a:.1f}' for a in v)} (mean {100 * statistics.mean(v):.2f})" if v else "-")
gap, verdict, ok = "-", "", True
if acc["cuda"] and acc["cpu"]:
    g = statistics.mean(acc["cuda"]) - statistics.mean(acc["cpu"])
    gap = f"{100 * g:+.2f}"
    verdict = "met" if abs(g) <= 0.005 else ("missed" if abs(g) <= 0.015 else "**FAIL** (over 1.5 points)")
    ok = abs(g) <= 0.015
print(f"| {arch} | {cell(acc['cuda'])} | {cell(acc['cpu'])} | {gap} | {verdict} |")
sys.exit(0 if ok else 1)
EOF
}
# cora_runs <arch> <seeds> <devices...> -- <config args...>: every (device, seed) run at once,
# each with its share of the cores.
cora_runs() {
  local arch=$1 seeds=$2 devs=() dev seed name limit rc pids=() names=()
  shift 2
  while [[ $1 != -- ]]; do devs+=("$1"); shift; done
  shift
  local threads=$((cores / (seeds * ${#devs[@]})))
  ((threads >= 1)) || threads=1
  cora_threads=$threads
  limit=$(clip 120)
  if ((limit < 5)); then fail "Cora $arch: not run: the time budget was spent"; return; fi
  say "cora $arch: ${devs[*]} x $seeds seed(s) at once, $threads thread(s) each (at most $limit s)"
  for dev in "${devs[@]}"; do
    for ((seed = 1; seed <= seeds; seed++)); do
      name=cora_${arch}_${dev}_$seed
      timeout -k 5 "$limit" "${ours[@]}" "$mlsys" train-gnn "$@" --set "gnn.graph.path=$data/graphs/cora" --set "device.type=$dev" \
        --set "run.threads=$threads" --set gnn.trace_epochs=0 --set run.progress=off --seed "$seed" -q \
        --out "$runs/$name" >"$out/$name.log" 2>&1 &
      pids+=("$!")
      names+=("$name")
    done
  done
  running=("${pids[@]}")
  local t0=$SECONDS
  for i in "${!pids[@]}"; do
    rc=0
    wait "${pids[$i]}" || rc=$?
    ((rc == 0)) || fail "Cora ${names[$i]}: $(why "$rc" "${names[$i]}")"
  done
  running=()
  printf '%s\t%s\t%s\n' "cora_$arch" - "$((SECONDS - t0))" >>"$out/steps.tsv"
}
note "## Cora test accuracy (%, at the best validation epoch), GPU vs CPU"
note
if [[ ! -f $data/graphs/cora/meta.txt ]]; then
  fail "Cora not found at $data/graphs/cora (set MLSYS_DATA_DIR, or make the bundle with --data)"
else
  if ((smoke)); then seeds=1; devs=(cpu); else seeds=5; devs=(cuda cpu); fi
  note "| arch | GPU, seeds 1..$seeds | CPU, seeds 1..$seeds | GPU - CPU (points) | target: within 0.5 point |"
  note "|---|---|---|---|---|"
  for arch in gcn sage gat; do
    case $arch in
      gcn) cfg=("$configs/cora_gcn.yaml") ;;
      sage) cfg=("$configs/cora_sage.yaml") ;;
      gat) cfg=("$configs/cora_gcn.yaml" --set gnn.model.arch=gat) ;;
    esac
    cora_runs "$arch" "$seeds" "${devs[@]}" -- "${cfg[@]}"
    cora_row "$arch" "$seeds" >>"$report" || fail "Cora $arch: the GPU and CPU means differ by more than 1.5 points"
  done
  note
  note "Configs: configs/train-gnn/cora_gcn.yaml (Kipf & Welling), cora_sage.yaml, and cora_gcn.yaml with gnn.model.arch=gat."
  if ((smoke)); then
    acc=$(json_field "$runs/cora_gcn_cpu_1/summary.json" test_acc_at_best_val 2>/dev/null || echo 0)
    if [[ ! -f $runs/cora_gcn_cpu_1/summary.json ]]; then :  # its failure is counted already
    elif le 0.75 "$acc"; then note "Cora GCN on the CPU reaches $acc (sanity bound 0.75; published 0.815)."
    else fail "Cora GCN on the CPU reaches only $acc (expected about 0.8)"
    fi
  elif [[ -f $runs/cora_gcn_cuda_1/epochs.csv ]]; then
    # Determinism: the same seed and config twice on the GPU give the same loss and accuracy curve.
    rc=0
    step cora_gcn_cuda_1_again 60 "${ours[@]}" "$mlsys" train-gnn "$configs/cora_gcn.yaml" --set "gnn.graph.path=$data/graphs/cora" \
      --set device.type=cuda --set "run.threads=$cora_threads" --set gnn.trace_epochs=0 --set run.progress=off --seed 1 -q \
      --out "$runs/cora_gcn_cuda_1_again" || rc=$?
    if ((rc != 0)); then
      fail "Cora GCN GPU rerun: $(why "$rc" cora_gcn_cuda_1_again)"
    elif python3 - "$runs/cora_gcn_cuda_1" "$runs/cora_gcn_cuda_1_again" <<'EOF'
import csv, sys
cols = ("epoch", "loss", "train_acc", "val_acc", "test_acc", "eval_loss")
a, b = ([tuple(r[c] for c in cols) for r in csv.DictReader(open(d + "/epochs.csv"))] for d in sys.argv[1:])
sys.exit(0 if a == b and a else 1)
EOF
    then note "Determinism: Cora GCN seed 1 on the GPU twice gives the same loss and accuracy in every epoch."
    else fail "Cora GCN seed 1 on the GPU twice gives different curves (same seed and config must reproduce on one backend)"
    fi
  fi
fi
note

# ---- 6. train-gnn on R-MAT: GPU, 4 workers on one GPU at 1 bit, 2^22, CPU, PyTorch ----
model=(--set gnn.model.arch=gcn --set gnn.model.layers=2 --set gnn.model.hidden=128 --set gnn.trace_epochs=0
       --set run.progress=off -q)
fp32=(--set gnn.fwd_bits=32 --set gnn.bwd_bits=32 --set gnn.pipeline=false --parts 1)
bit1=(--set gnn.fwd_bits=1 --set gnn.bwd_bits=1 --set gnn.pipeline=true --parts 4)
rmat() {  # rmat <scale> <edges>: generator settings (16 classes, 128 features)
  echo --set gnn.graph.source=rmat --set "gnn.graph.rmat_scale=$1" --set "gnn.graph.rmat_edges=$2" \
    --set gnn.graph.features=128 --set gnn.graph.classes=16
}
if ((smoke)); then scale=14; edges=200000; else scale=20; edges=16000000; fi
read -ra gen <<<"$(rmat "$scale" "$edges")"
note "## train-gnn on R-MAT (GCN 2 x 128, F=128, 16 classes)"
note
# One graph file for every run at this scale and for PyTorch (the generator is seeded: the same graph).
graph=("${gen[@]}")
if step rmat${scale}_convert 90 "${ours[@]}" "$mlsys" train-gnn convert "${gen[@]}" --set "gnn.graph.convert_out=$work/rmat$scale.mlsg" \
    -q --out "$runs/rmat${scale}_convert"; then
  graph=(--graph "$work/rmat$scale.mlsg")
else
  note "(converting the graph to a file failed: $(why $? "rmat${scale}_convert"); each run generates it)"
  note
fi
note "| graph | device | workers, halo | epochs | median epoch (s) | mean epoch (s) | test acc | peak RSS (MiB) | target |"
note "|---|---|---|---|---|---|---|---|---|"
declare -A median=()
# train_row <key> <label> <device> <workers label> <epochs> <limit s> <target: max epoch s, or -> <args...>
train_row() {
  local key=$1 label=$2 dev=$3 wl=$4 epochs=$5 limit=$6 target=$7 rc=0 m mean acc rss verdict=-
  shift 7
  step "$key" "$limit" "${ours[@]}" "$mlsys" train-gnn "${model[@]}" "$@" --set "device.type=$dev" --epochs "$epochs" \
    --set "gnn.eval_every=$epochs" --out "$runs/$key" || rc=$?
  if ((rc != 0)); then
    fail "train-gnn $label on $dev ($wl): $(why "$rc" "$key")"
    note "| $label | $dev | $wl | $epochs | **FAIL**: $(why "$rc" "$key") | | | | |"
    return
  fi
  read -r m mean acc rss <<<"$(epoch_stats "$runs/$key")"
  median[$key]=$m
  if [[ $target != - ]]; then
    verdict="<= $target s: $(le "$m" "$target" && echo met || echo missed)"
  fi
  note "| $label | $dev | $wl | $epochs | $m | $mean | $acc | $rss | $verdict |"
}
if ((smoke)); then
  train_row rmat_cpu "2^$scale" cpu "1, fp32" 5 120 - "${graph[@]}" "${fp32[@]}"
  train_row rmat_cpu_4w "2^$scale" cpu "4, 1-bit pipelined" 5 120 - "${graph[@]}" "${bit1[@]}"
else
  train_row rmat20_cuda "2^20" cuda "1, fp32" 10 120 0.1 "${graph[@]}" "${fp32[@]}"
  # Target: 4 workers sharing the GPU at 1 bit take at most twice the 1-worker fp32 epoch.
  twice=$([[ -n ${median[rmat20_cuda]:-} ]] && python3 -c "print(f'{2 * ${median[rmat20_cuda]}:.4f}')" || echo -)
  train_row rmat20_cuda_4w "2^20" cuda "4 on one GPU, 1-bit pipelined" 10 180 "$twice" "${graph[@]}" "${bit1[@]}"
  read -ra gen22 <<<"$(rmat 22 64000000)"
  train_row rmat22_cuda "2^22" cuda "1, fp32" 10 200 - "${gen22[@]}" "${fp32[@]}"
  train_row rmat20_cpu "2^20" cpu "1, fp32" 5 150 - "${graph[@]}" "${fp32[@]}"
fi
note
if [[ -n ${median[rmat20_cuda]:-} && -n ${median[rmat20_cpu]:-} ]]; then
  note "GPU vs CPU at 2^20, 1 worker fp32: $(python3 -c "print(f'{${median[rmat20_cpu]} / max(${median[rmat20_cuda]}, 1e-9):.1f}')")x faster ($cores CPU cores)."
fi
note "Median and mean over the epochs after the first (which warms pools and caches); peak RSS of the process."
((smoke)) || note "Targets: the 2^20 GPU epoch at most 0.1 s (H200); 4 workers at 1 bit at most twice the 1-worker fp32 GPU epoch. A missed target is reported, not counted as a failure."

# PyTorch's full-graph GCN on the same graph file, each layout its own process; the faster is reported.
torch_py=""
for py in python3 /usr/bin/python3; do
  if command -v "$py" >/dev/null && "$py" -c "import torch" >/dev/null 2>&1; then torch_py=$(command -v "$py"); break; fi
done
note
if [[ -z $torch_py ]]; then
  note "PyTorch reference: not run (no python3 here imports torch)."
elif [[ ${graph[0]} != --graph ]]; then
  note "PyTorch reference: not run (no graph file: the conversion failed)."
else
  tv=$("$torch_py" -c "import torch; print(torch.__version__)")
  devices=(cpu)
  if ((!smoke)) && "$torch_py" "$pyref" --help 2>/dev/null | grep -q -- '--device'; then devices+=(cuda); fi
  note "| PyTorch $tv reference (bench/gnn_pytorch_gcn.py), 2^$scale | layout | epoch (s), epochs after the first | peak RSS (MiB) |"
  note "|---|---|---|---|"
  for dev in "${devices[@]}"; do
    best=""
    who=$([[ $dev == cuda ]] && echo "GPU" || echo "CPU, $cores threads")
    layouts=(csr coo)
    # PyG's GCNConv (cached) beside torch.sparse on the GPU, when the node has PyTorch Geometric.
    if [[ $dev == cuda ]] && "$torch_py" -c "import torch_geometric" >/dev/null 2>&1; then layouts+=(pyg); fi
    for layout in "${layouts[@]}"; do
      dargs=()
      [[ $dev == cuda ]] && dargs=(--device cuda)
      [[ $layout == pyg ]] && dargs+=(--impl pyg)
      rc=0
      step "torch_${dev}_$layout" 120 "$torch_py" "$pyref" "$work/rmat$scale.mlsg" --layout "${layout/pyg/csr}" --threads "$cores" \
        --epochs 5 --hidden 128 "${dargs[@]}" || rc=$?
      if ((rc != 0)); then
        note "| $who | $layout | not measured: $(why "$rc" "torch_${dev}_$layout") | |"
        continue
      fi
      read -r e r <<<"$(grep '^{' "$out/torch_${dev}_$layout.log" | tail -1 |
        python3 -c 'import json, sys; j = json.loads(sys.stdin.read()); print("%.4f %.0f" % (j["epoch_s"], j["peak_rss_bytes"] / 2**20))' ||
        true)"
      if [[ -z $e ]]; then
        note "| $who | $layout | not measured: no JSON line (see torch_${dev}_$layout.log) | |"
        continue
      fi
      note "| $who | $([[ $layout == pyg ]] && echo "PyG GCNConv (cached)" || echo "$layout") | $e | $r |"
      # The fastest torch.sparse layout is the reference; PyG is its own row.
      if [[ $layout != pyg ]] && { [[ -z $best ]] || le "$e" "${best%% *}"; }; then best="$e $layout"; fi
    done
    [[ -z $best ]] || note "| $who: **fastest** | ${best#* } | ${best%% *} | |"
  done
fi
note

verdict
