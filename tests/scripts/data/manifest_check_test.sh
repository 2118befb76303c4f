#!/usr/bin/env bash
# ctest scripts/fetch_data_manifest: every file scripts/data/manifest.tsv lists (all datasets but
# the *_source archives) is in $MLSYS_DATA_DIR with the recorded sha256, and every file there is
# listed: the table docs/DATA.md and scripts/fetch_data.sh rely on matches the real data.
# Skipped (exit 77) without the data folder.
# Usage: manifest_check_test.sh <source dir>
set -euo pipefail
src=$1
data=${MLSYS_DATA_DIR:-}
if [[ -z $data || ! -d $data ]]; then
  echo "TEST SKIPPED [no-shared-data]: MLSYS_DATA_DIR is not set to the data folder (../shared/data)"
  exit 77
fi
MLSYS_DATA_DIR=$data bash "$src/scripts/fetch_data.sh" --check
listed=$(grep -v '^#' "$src/scripts/data/manifest.tsv" | cut -f2 | sort)
present=$(cd "$data" && find . -type f | sed 's|^\./||' | sort)
unlisted=$(comm -13 <(echo "$listed") <(echo "$present"))
[[ -z $unlisted ]] || { echo "FAIL: files in $data that scripts/data/manifest.tsv does not list:"; echo "$unlisted"; exit 1; }
echo "manifest: every file listed and verified"
