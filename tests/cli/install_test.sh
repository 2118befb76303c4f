#!/usr/bin/env bash
# ctest cli/install_tree: `cmake --install` into a fresh prefix, check that every installed binary
# finds its libraries through RUNPATH $ORIGIN/../lib (never the build tree), copy the tree somewhere
# else (relocatable) and run the installed quickstart, all four commands, from an unrelated folder.
# Usage: install_test.sh <build dir> <prefix> <work dir>
set -euo pipefail
build=$1 prefix=$2 work=$3
rm -rf "$prefix" "$prefix.moved" "$work"
mkdir -p "$work"
t0=$(date +%s.%N)
cmake --install "$build" --prefix "$prefix" >/dev/null
t1=$(date +%s.%N)
for f in "$prefix"/bin/mlsys "$prefix"/lib/libmlsys_*.so; do
  rp=$(readelf -d "$f" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
  [[ "$rp" == *'$ORIGIN/../lib'* ]] || { echo "FAIL: $f: RUNPATH '$rp' lacks \$ORIGIN/../lib"; exit 1; }
  [[ "$rp" != *"$build"* ]] || { echo "FAIL: $f: RUNPATH points into the build tree: $rp"; exit 1; }
done
for h in core/util/json.hpp core/runtime/run_context.hpp sim/command.hpp gnn/command.hpp; do
  [[ -f "$prefix/include/mlsys/$h" ]] || { echo "FAIL: header $h not installed"; exit 1; }
done
[[ -f "$prefix/lib/cmake/mlsys/mlsysConfig.cmake" ]] || { echo "FAIL: no CMake package config"; exit 1; }
for f in share/bash-completion/completions/mlsys share/zsh/site-functions/_mlsys share/man/man1/mlsys.1; do
  [[ -s "$prefix/$f" ]] || { echo "FAIL: $f not installed (shell completion and man page)"; exit 1; }
done
grep -q "complete -o filenames -F _mlsys mlsys" "$prefix/share/bash-completion/completions/mlsys" ||
  { echo "FAIL: the installed bash completion does not register _mlsys"; exit 1; }
cp -a "$prefix" "$prefix.moved"
cd "$work"
unset LD_LIBRARY_PATH
if ! "$prefix.moved/bin/mlsys-quickstart" >quickstart.log 2>&1; then
  cat quickstart.log
  echo "FAIL: the installed quickstart failed"
  exit 1
fi
for c in train-gnn simulate schedmate coopt; do
  [[ -f "results/quickstart/$c/summary.json" ]] || { echo "FAIL: no results/quickstart/$c/summary.json"; exit 1; }
done
"$prefix.moved/bin/mlsys" version | grep -E "^  (git|compiler):"
t2=$(date +%s.%N)
printf 'install %.1f s, quickstart of the relocated tree %.1f s (4 commands)\n' "$(awk "BEGIN{print $t1 - $t0}")" "$(awk "BEGIN{print $t2 - $t1}")"
