#!/usr/bin/env bash
# Packs a finished CUDA build into a relocatable bundle for GPU nodes that have the NVIDIA driver,
# CUDA and NCCL but none of our Debian libraries and no apt (issue #27): the bundle's
# scripts/gpu_check.sh then checks the GPU path without configuring or building anything there
# (docs/GPU_CHECK.md).
#
#   scripts/gpu_bundle.sh [BUILD_DIR] [OUT.tar.xz] [--data DATA_DIR] [--no-strip] [--no-folder]
#     BUILD_DIR  a CMake build with MLSYS_WITH_CUDA (default build)
#     OUT        the tarball (default .gpubundle/mlsys-gpu.tar.xz); the unpacked folder is written
#                beside it, named like the tarball without .tar.xz
#     --data     the shared data folder ($MLSYS_DATA_DIR): only graphs/cora is copied into data/
#     --no-strip keep the symbols of our binaries and libraries (stripped copies by default)
#     --no-folder  remove the unpacked folder once the tarball is written (a device session carries
#                the tarball's folder, at most 64 MiB)
#   scripts/gpu_bundle.sh --check DIR   only the self-check below, on an unpacked bundle
#
# Layout: bin/ (mlsys, every test_* suite, every bench_*), lib/ (our .so files and the cuda / nccl
# plugins: the plugin loader looks in libmlsys_core.so's folder), lib/deps/ (every library ldd names
# that the node is not expected to have: all but glibc and CUDA / NCCL / the driver), scripts/,
# bench/gnn_pytorch_gcn.py, configs/train-gnn/, data/ and manifest.txt. Binaries find lib/ and
# lib/deps/ through LD_LIBRARY_PATH, which gpu_check.sh sets for them (bundle_env.sh, for manual use).
# Open MPI's launcher and its plugins are not bundled: the MPI cases need Open MPI on the node.
#
# Ends with a self-check: with only the bundle on LD_LIBRARY_PATH, every bundled file must resolve
# each library from the bundle, except glibc and CUDA / NCCL / driver libraries; anything else is
# printed and the script fails. Exit codes: 0 bundle written, 1 error.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=""
out=""
data=""
strip_binaries=1
keep_folder=1
check_only=""
while (($#)); do
  case $1 in
    --data) data=${2:?--data needs a folder}; shift 2 ;;
    --data=*) data=${1#--data=}; shift ;;
    --no-strip) strip_binaries=0; shift ;;
    --no-folder) keep_folder=0; shift ;;
    --check) check_only=${2:?--check needs an unpacked bundle folder}; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "gpu_bundle: unknown option $1" >&2; exit 1 ;;
    *)
      if [[ -z $build ]]; then build=$1
      elif [[ -z $out ]]; then out=$1
      else echo "gpu_bundle: too many arguments: $1" >&2; exit 1
      fi
      shift ;;
  esac
done
build=${build:-build}
out=${out:-.gpubundle/mlsys-gpu.tar.xz}

say() { printf 'gpu_bundle: %s\n' "$*"; }
die() { printf 'gpu_bundle: error: %s\n' "$*" >&2; exit 1; }

is_elf() { [[ -f $1 && $(head -c 4 "$1" | od -An -c | tr -d ' ') == '177ELF' ]]; }

# Libraries the node provides. glibc (its version must be at least the manifest's glibc_required):
node_glibc='^(libc|libm|libmvec|libpthread|libdl|librt|libresolv|libutil|libanl|libnsl|libnss_[a-z]+|libthread_db|libBrokenLocale|libc_malloc_debug)\.so|^ld-linux[-a-z0-9_]*\.so|^linux-vdso\.so'
# CUDA, NCCL and the driver (libcurl must not match: the names are matched whole up to .so):
node_cuda='^(libcuda|libcudart|libcublas|libcublasLt|libcusparse|libcufft|libcurand|libcusolver|libnvJitLink|libnvrtc|libnvrtc-builtins|libnccl|libnvidia-[a-z0-9_-]+)\.so'
from_node() { [[ $1 =~ $node_glibc || $1 =~ $node_cuda ]]; }

# Self-check: with only the bundle on LD_LIBRARY_PATH, nothing but glibc and CUDA / NCCL / driver
# libraries may resolve from outside it. Prints each offender; fails if there is one.
self_check() {
  local b=$1 bad=0 f lib path
  while IFS= read -r f; do
    is_elf "$f" || continue
    while read -r lib path; do
      if from_node "$lib"; then continue; fi
      if [[ $path == - ]]; then
        say "self-check: ${f#"$b"/} needs $lib, which is neither in the bundle nor expected on the node"
        bad=1
      elif [[ $(readlink -f "$path") != "$b"/* ]]; then
        say "self-check: ${f#"$b"/} resolves $lib from outside the bundle: $path"
        bad=1
      fi
    done < <(env -u LD_PRELOAD LD_LIBRARY_PATH="$b/lib:$b/lib/deps" ldd "$f" 2>/dev/null |
             awk '$2 == "=>" { print $1, ($3 == "not" ? "-" : $3) }')
  done < <(find "$b/bin" "$b/lib" -type f | sort)
  return "$bad"
}
if [[ -n $check_only ]]; then
  [[ -f $check_only/manifest.txt ]] || die "$check_only is not an unpacked bundle (no manifest.txt)"
  check_only=$(cd "$check_only" && pwd)
  self_check "$check_only" || die "the bundle is incomplete (see the self-check lines above)"
  say "self-check: every bundled file resolves its libraries from the bundle, except glibc and CUDA / NCCL / driver"
  exit 0
fi

[[ $out == *.tar.xz ]] || die "the output must end in .tar.xz: $out"
[[ -d $build ]] || die "no build folder $build"
build=$(cd "$build" && pwd)
[[ -x $build/bin/mlsys ]] || die "$build/bin/mlsys is missing: build first (cmake --build $build)"
[[ -f $build/lib/libmlsys_cuda.so ]] || die "$build/lib/libmlsys_cuda.so is missing: configure with -DMLSYS_WITH_CUDA=ON and build the plugins"
if [[ -n $data ]]; then
  [[ -f $data/graphs/cora/meta.txt ]] || die "--data $data has no graphs/cora/meta.txt (give the shared data folder)"
  data=$(cd "$data" && pwd)
fi
mkdir -p "$(dirname "$out")"
outdir=$(cd "$(dirname "$out")" && pwd)
name=$(basename "$out" .tar.xz)
out=$outdir/$name.tar.xz
bundle=$outdir/$name
if [[ -e $bundle ]]; then
  [[ -f $bundle/manifest.txt ]] || die "$bundle exists and is not a bundle: not overwriting it"
  rm -rf "$bundle"
fi
mkdir -p "$bundle"/{bin,lib/deps,scripts,bench,configs}

# ---- binaries: mlsys, every test suite and benchmark executable of the build ----
sources=("$build/bin/mlsys")  # the build's own files: ldd on them finds our libraries through their RUNPATH
while IFS= read -r f; do
  is_elf "$f" || continue
  for s in "${sources[@]}"; do
    [[ $(basename "$s") == "$(basename "$f")" ]] && die "two executables named $(basename "$f") in $build"
  done
  sources+=("$f")
done < <(find "$build" \( -name CMakeFiles -o -name test_tmp -o -name _deps \) -prune -o \
              -type f -perm -u+x \( -name 'test_*' -o -name 'bench_*' \) ! -name '*.*' -print | sort)
cp "${sources[@]}" "$bundle/bin/"
ls "$bundle"/bin/test_* >/dev/null 2>&1 || die "no test_* executable in $build (build with MLSYS_BUILD_TESTS=ON)"
for b in gemm spmm quant; do  # what gpu_check.sh measures
  [[ -x $bundle/bin/bench_gpu_$b ]] || die "bench_gpu_$b is missing from $build (build it: cmake --build $build --target bench_gpu_$b)"
done

# ---- our libraries (wherever the build put them), the plugins and the dependencies ----
cp "$build"/lib/libmlsys_*.so "$bundle/lib/"
sources+=("$build"/lib/libmlsys_*.so)
libs_of() {  # libs_of FILE...: "name path" for every library ldd resolves ("-" when not found)
  ldd "$@" 2>/dev/null | awk '$2 == "=>" { print $1, ($3 == "not" ? "-" : $3) }'
}
declare -A dep_seen=()
missing=()
while read -r lib path; do
  [[ -n ${dep_seen[$lib]:-} ]] && continue
  dep_seen[$lib]=1
  if from_node "$lib"; then continue; fi
  if [[ $path == - ]]; then missing+=("$lib"); continue; fi
  real=$(readlink -f "$path")
  if [[ $real == "$build"/* ]]; then cp "$real" "$bundle/lib/$lib"
  else cp "$real" "$bundle/lib/deps/$lib"
  fi
done < <(for s in "${sources[@]}"; do libs_of "$s"; done)
((${#missing[@]} == 0)) || die "ldd finds no ${missing[*]} on this machine: cannot bundle them"
chmod -R u+w "$bundle"

if ((strip_binaries)); then
  # Only our files: the Debian libraries are already stripped. Device code (.nv_fatbin) is kept.
  for f in "$bundle"/bin/* "$bundle"/lib/*.so*; do
    strip --strip-unneeded "$f" 2>/dev/null || say "note: could not strip $(basename "$f")"
  done
fi

# ---- scripts, the PyTorch reference, configs, data ----
cp "$repo/scripts/gpu_check.sh" "$bundle/scripts/"
cp "$repo/bench/gnn_pytorch_gcn.py" "$bundle/bench/"
cp -r "$repo/configs/train-gnn" "$bundle/configs/"
if [[ -n $data ]]; then
  mkdir -p "$bundle/data/graphs"
  cp -rL "$data/graphs/cora" "$bundle/data/graphs/"
  chmod -R u+w "$bundle/data"
fi
cat >"$bundle/bundle_env.sh" <<'EOF'
# source bundle_env.sh: run the bundle's binaries by hand (scripts/gpu_check.sh sets this itself).
mlsys_bundle=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export LD_LIBRARY_PATH="$mlsys_bundle/lib:$mlsys_bundle/lib/deps${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export MLSYS_PLUGIN_PATH="$mlsys_bundle/lib" PATH="$mlsys_bundle/bin:$PATH"
[ -d "$mlsys_bundle/data" ] && export MLSYS_DATA_DIR="$mlsys_bundle/data"
EOF

# ---- manifest ----
cache_value() { sed -nE "s/^$1:[A-Z]+=(.*)$/\\1/p" "$build/CMakeCache.txt" | head -1; }
glibc_of() {  # the newest GLIBC_x.y version any of the files needs
  for f in "$@"; do objdump -T "$f" 2>/dev/null | awk '/\*UND\*/' | grep -oE 'GLIBC_[0-9]+\.[0-9]+' || true; done |
    sed 's/GLIBC_//' | sort -uV | tail -1
}
version_text=$(env LD_LIBRARY_PATH="$bundle/lib:$bundle/lib/deps" MLSYS_PLUGIN_PATH="$bundle/lib" "$bundle/bin/mlsys" version 2>&1) ||
  die "the bundled mlsys does not start: $version_text"
commit=$(sed -nE 's/^ +git: +//p' <<<"$version_text" | head -1)
mapfile -t elves < <(find "$bundle/bin" "$bundle/lib" -type f | sort)
node_libs=$(for f in "${elves[@]}"; do libs_of "$f"; done | awk '{print $1}' | sort -u |
  while read -r l; do if from_node "$l"; then printf '%s ' "$l"; fi; done)
{
  echo "mlsys GPU bundle (scripts/gpu_bundle.sh; docs/GPU_CHECK.md)"
  echo "created: $(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -n)"
  echo "commit: ${commit:-unknown}"
  echo "build_dir: $build"
  echo "build_type: $(cache_value CMAKE_BUILD_TYPE)"
  echo "cuda_gencode: $(grep -oE 'arch=compute_[0-9a-z]+,code=\[?[a-z_0-9,]+\]?' "$build/compile_commands.json" 2>/dev/null | sort -u | tr '\n' ' ')"
  echo "cuda_compiler: $(sed -nE 's/^set\(CMAKE_CUDA_COMPILER_VERSION "(.*)"\)$/\1/p' "$build"/CMakeFiles/*/CMakeCUDACompiler.cmake 2>/dev/null | head -1)"
  echo "cxx_flags: $(cache_value CMAKE_CXX_FLAGS) $(cache_value CMAKE_CXX_FLAGS_RELEASE)"
  echo "compiler: $(sed -nE 's/^ +compiler: +//p' <<<"$version_text")"
  echo "glibc_built: $(getconf GNU_LIBC_VERSION 2>/dev/null | sed 's/glibc //')"
  echo "glibc_required: $(glibc_of "${elves[@]}")"
  echo "node_libs: $node_libs"
  echo "stripped: $strip_binaries"
  echo "data: $([[ -n $data ]] && echo "graphs/cora (from $data)" || echo none)"
  echo
  echo "files (bytes):"
  (cd "$bundle" && find bin lib -type f -printf '  %p %s\n' | sort)
  echo
  echo "mlsys version (here):"
  while IFS= read -r line; do echo "  $line"; done <<<"$version_text"
} >"$bundle/manifest.txt"

self_check "$bundle" || die "the bundle is incomplete (see the self-check lines above)"
say "self-check: every bundled file resolves its libraries from the bundle, except glibc and CUDA / NCCL / driver"

XZ_OPT=${XZ_OPT:--6 -T0} tar -C "$outdir" -cJf "$out" "$name"
bytes=$(stat -c %s "$out")
limit=$((60 * 1024 * 1024))
say "$(find "$bundle/bin" -type f | wc -l) binaries, $(find "$bundle/lib" -maxdepth 1 -type f | wc -l) of our libraries, $(find "$bundle/lib/deps" -type f | wc -l) dependencies; unpacked $(du -sh "$bundle" | cut -f1)"
if ((keep_folder)); then say "wrote $out ($((bytes / 1024 / 1024)) MiB) and the folder $bundle"
else
  rm -rf "$bundle"
  say "wrote $out ($((bytes / 1024 / 1024)) MiB)"
fi
((bytes < limit)) || die "$out is $((bytes / 1024 / 1024)) MiB, over the 60 MiB a device session may carry"
