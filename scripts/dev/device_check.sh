#!/usr/bin/env bash
# The one command a session with a borrowed GPU machine runs there (docs/GPU_CHECK.md): unpacks a
# bundle made by scripts/gpu_bundle.sh, runs the bundle's scripts/gpu_check.sh (bundle mode: nothing
# is built on the GPU machine), and leaves what the device tool brings back in $OUT:
#   report.md               the check's report (copied every few seconds while the check runs, so a
#                           stopped command still brings back the part written so far)
#   gpu_check_logs.tar.xz   every log, nvidia-smi output and run summary (no graphs, no checkpoints)
#   manifest.txt            the bundle's manifest (commit, build flags, libraries)
#   exit_code.txt           gpu_check.sh's exit code: 0 passed, 1 failed or stopped, 77 no GPU
# and prints report.md at the end.
#
#   bash scripts/dev/device_check.sh [BUNDLE.tar.xz]     (default .gpubundle/mlsys-gpu.tar.xz)
#   env: OUT (default ./device_check_out); DEVICE_CHECK_LIMIT_S (default 570: this whole command,
#        kept under the device tool's 600 s); GPU_CHECK_BUDGET_S (default: what is left less 60 s)
set -euo pipefail

tarball=${1:-.gpubundle/mlsys-gpu.tar.xz}
dest=${OUT:-$PWD/device_check_out}
limit=${DEVICE_CHECK_LIMIT_S:-570}
mkdir -p "$dest"
say() { printf 'device_check: %s\n' "$*"; }
if [[ ! -f $tarball ]]; then
  say "no bundle at $tarball: make it with scripts/gpu_bundle.sh and carry its folder (docs/GPU_CHECK.md)" |
    tee "$dest/report.md"
  exit 1
fi
scratch=$(mktemp -d "${TMPDIR:-/tmp}/mlsys-device-check.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
tar -C "$scratch" -xJf "$tarball"
manifest=$(find "$scratch" -mindepth 2 -maxdepth 2 -name manifest.txt | head -1)
if [[ -z $manifest ]]; then
  say "$tarball holds no */manifest.txt: not a bundle from scripts/gpu_bundle.sh" | tee "$dest/report.md"
  exit 1
fi
bundle=$(dirname "$manifest")
cp "$manifest" "$dest/manifest.txt"
say "bundle $(sed -nE 's/^commit: *//p' "$manifest") unpacked in $SECONDS s"

check=$scratch/check
mkdir -p "$check"
left=$((limit - SECONDS - 25))  # 25 s to pack what comes back
export GPU_CHECK_BUDGET_S=${GPU_CHECK_BUDGET_S:-$((left - 60))}
timeout -k 10 "$left" bash "$bundle/scripts/gpu_check.sh" --bundle "$bundle" "$check" >"$check/console.log" 2>&1 &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
  [[ -f $check/report.md ]] && cp "$check/report.md" "$dest/report.md"
  sleep 2
done
rc=0
wait "$pid" || rc=$?
[[ -f $check/report.md ]] && cp "$check/report.md" "$dest/report.md"
echo "$rc" >"$dest/exit_code.txt"
tar -C "$scratch" --exclude=check/work --exclude='*.bin' --exclude='*.mlsg' -cJf "$dest/gpu_check_logs.tar.xz" check

echo "---- gpu_check.sh console (last 25 lines) ----"
tail -25 "$check/console.log"
echo "---- report.md ----"
cat "$dest/report.md" 2>/dev/null || echo "(no report.md)"
say "gpu_check.sh exited $rc after $SECONDS s; $dest holds report.md, gpu_check_logs.tar.xz, manifest.txt, exit_code.txt"
exit "$rc"
