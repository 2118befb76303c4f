#!/usr/bin/env bash
# ctest scripts/readme_first_steps: the README's first steps work as written. Its first code block
# puts the binary on PATH before any command calls `mlsys`; with that line, `mlsys` is the build's
# binary (when the build is the README's build/); every relative link of the README names a file
# or folder that exists (the paper table's reproduction scripts among them).
# Usage: readme_first_steps_test.sh <source dir>
set -euo pipefail
src=$1
readme=$src/README.md
path_line=$(grep -n '^export PATH=.*build/bin' "$readme" | head -1 | cut -d: -f1 || true)
first_call=$(grep -n '^mlsys ' "$readme" | head -1 | cut -d: -f1 || true)
[[ -n $path_line ]] || { echo "FAIL: README never puts build/bin on PATH"; exit 1; }
[[ -n $first_call && $path_line -lt $first_call ]] || { echo "FAIL: README calls mlsys (line $first_call) before putting it on PATH (line $path_line)"; exit 1; }
bad=0
while read -r link; do
  target=${link%%#*}
  [[ -z $target || $target == http* ]] && continue
  [[ -e $src/$target ]] || { echo "FAIL: README links to $target, which does not exist"; bad=1; }
done < <(grep -o '](\([^)]*\))' "$readme" | sed 's/^](//; s/)$//')
[[ $bad -eq 0 ]] || exit 1
for s in sylvie analysim helios schedmate coopt; do
  grep -q "(scripts/repro/$s.sh)" "$readme" || { echo "FAIL: the papers table does not link scripts/repro/$s.sh"; exit 1; }
done
if [[ -x $src/build/bin/mlsys ]]; then
  got=$(cd "$src" && eval "$(sed -n "${path_line}p" "$readme" | sed 's/ *#.*//')" && command -v mlsys)
  [[ $got == "$src/build/bin/mlsys" ]] || { echo "FAIL: with the README's PATH line, mlsys is '$got'"; exit 1; }
  (cd "$src" && eval "$(sed -n "${path_line}p" "$readme" | sed 's/ *#.*//')" && mlsys version >/dev/null)
fi
echo "README first steps: ok"
