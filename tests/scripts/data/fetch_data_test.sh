#!/usr/bin/env bash
# ctest scripts/fetch_data: scripts/fetch_data.sh against a local mirror (file:// URLs) of small
# fixture files listed in a manifest of their own: a download is verified and kept, a re-run keeps
# what is in place, a checksum mismatch is refused and leaves nothing, a file missing from the
# mirror, a converted file without a public copy and a tampered local file are errors naming the
# file, an unknown dataset is a usage error (exit 2), and *_source datasets are fetched only when
# named.
# Usage: fetch_data_test.sh <source dir> <work dir>
set -euo pipefail
src=$1 work=$2
rm -rf "$work"
mkdir -p "$work/mirror/a" "$work/mirror/b" "$work/direct"
printf 'alpha\n' > "$work/mirror/a/one.txt"
printf 'x,y\n1,2\n' > "$work/mirror/a/two.csv"
printf 'tampered\n' > "$work/mirror/b/bad.txt"
printf 'served without the mirror\n' > "$work/direct/d.txt"
sum() { sha256sum "$1" | cut -d' ' -f1; }
text_sum() { printf '%s' "$1" | sha256sum | cut -d' ' -f1; }
{
  printf '# dataset\tpath\tsha256\turl\tconversion\n'
  printf 'good\ta/one.txt\t%s\t-\t-\n' "$(sum "$work/mirror/a/one.txt")"
  printf 'good\ta/two.csv\t%s\t-\tconvert it with tool X\n' "$(sum "$work/mirror/a/two.csv")"
  printf 'bad\tb/bad.txt\t%s\t-\t-\n' "$(text_sum $'original\n')"
  printf 'gone\tc/missing.txt\t%s\t-\t-\n' "$(text_sum x)"
  printf 'direct\td/d.txt\t%s\tfile://%s\t-\n' "$(sum "$work/direct/d.txt")" "$work/direct/d.txt"
  printf 'converted\te/made.txt\t%s\t-\tmade by tool Y from its source\n' "$(text_sum y)"
  printf 'good_source\tsources/raw.zip\t%s\t-\t-\n' "$(text_sum z)"
} > "$work/manifest.tsv"

rc=0
fetch() {  # fetch MIRROR ARGS...: runs the script, output in $work/out, status in $rc
  local mirror=$1
  shift
  set +e
  MLSYS_DATA_DIR=$work/data MLSYS_DATA_MIRROR=$mirror bash "$src/scripts/fetch_data.sh" --manifest "$work/manifest.tsv" "$@" \
    > "$work/out" 2>&1
  rc=$?
  set -e
}
fail() { echo "FAIL: $*"; cat "$work/out"; exit 1; }
expect() {  # expect STATUS TEXT
  [[ $rc -eq $1 ]] || fail "exit $rc, expected $1"
  grep -qF -- "$2" "$work/out" || fail "output lacks: $2"
}

fetch "file://$work/mirror" good
expect 0 "2 downloaded and verified, 0 failed"
cmp -s "$work/mirror/a/one.txt" "$work/data/a/one.txt" || fail "a/one.txt differs from the mirror's"
cmp -s "$work/mirror/a/two.csv" "$work/data/a/two.csv" || fail "a/two.csv differs from the mirror's"
grep -qF "next: convert it with tool X" "$work/out" || fail "the conversion step is not named"

fetch "file://$work/nowhere" good  # everything in place: nothing is downloaded
expect 0 "2 verified in place, 0 downloaded and verified, 0 failed"

fetch "file://$work/mirror" bad
expect 1 "FAILED bad b/bad.txt: checksum mismatch"
[[ -z $(find "$work/data" -path '*b/*') ]] || fail "a refused download left a file behind"

fetch "file://$work/mirror" gone
expect 1 "FAILED gone c/missing.txt: cannot download file://$work/mirror/c/missing.txt"

fetch "" direct  # no mirror: the manifest's own URL
expect 0 "fetched direct d/d.txt"
cmp -s "$work/direct/d.txt" "$work/data/d/d.txt" || fail "d/d.txt differs from its source"

fetch "" converted
expect 1 "no public copy of this file; it is made by: made by tool Y from its source"

printf 'changed\n' > "$work/data/a/one.txt"
fetch "file://$work/mirror" good
expect 1 "FAILED good a/one.txt: present with sha256 $(sum "$work/data/a/one.txt")"
grep -qx changed "$work/data/a/one.txt" || fail "a local file was overwritten"

fetch "file://$work/mirror" nosuch
expect 2 "unknown dataset 'nosuch'"

fetch "file://$work/mirror" --list
expect 0 "a/one.txt"
if grep -qF good_source "$work/out"; then fail "a *_source dataset was selected without being named"; fi
fetch "file://$work/mirror" --list good_source
expect 0 "sources/raw.zip"
echo "fetch_data: ok"
