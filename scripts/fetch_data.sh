#!/usr/bin/env bash
# Downloads the public datasets that mlsys's tests, benchmarks and paper reproductions read, into
# $MLSYS_DATA_DIR, and verifies each file's sha256. The table is scripts/data/manifest.tsv (one
# row per file: dataset, path under the data folder, sha256, URL of those exact bytes or "-",
# conversion); docs/DATA.md describes every dataset, its licence and how it was made.
#
#   scripts/fetch_data.sh [--manifest FILE] [--list | --check] [DATASET ...]
#
# Without names: every dataset mlsys reads. Datasets named *_source are the upstream archives that
# converted datasets were made from; they are fetched only when named.
#
#   MLSYS_DATA_DIR      where the files go (default: ../shared/data beside the checkout)
#   MLSYS_DATA_MIRROR   base URL of a copy laid out like the data folder (https://, http:// or
#                       file://); every file is then fetched from MLSYS_DATA_MIRROR/<path>
#
# A file already present with the recorded checksum is kept; one present with another checksum is
# an error (it is never overwritten). A download whose checksum differs is refused and removed.
# Files marked "-" have no public copy of those bytes (they were converted): the script names the
# conversion and fails for them unless a mirror serves them. --list prints the table, --check only
# verifies the files present. Exit status: 0 all requested files in place and verified, 1 a
# download failed, was refused or a file needs converting, 2 bad usage.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
manifest=$root/scripts/data/manifest.tsv
mode=fetch
wanted=()
usage() { sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; }
while [[ $# -gt 0 ]]; do
  case $1 in
    --manifest) [[ $# -ge 2 ]] || { echo "fetch_data: --manifest needs a file" >&2; exit 2; }; manifest=$2; shift 2 ;;
    --list) mode=list; shift ;;
    --check) mode=check; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "fetch_data: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) wanted+=("$1"); shift ;;
  esac
done
[[ -r $manifest ]] || { echo "fetch_data: cannot read the manifest $manifest" >&2; exit 2; }
data=${MLSYS_DATA_DIR:-$root/../shared/data}
mirror=${MLSYS_DATA_MIRROR:-}
mirror=${mirror%/}

if command -v curl >/dev/null; then
  download() { curl -fsSL --retry 2 -o "$2" "$1"; }
elif command -v wget >/dev/null; then
  download() { wget -q -O "$2" "$1"; }
else
  download() { echo "neither curl nor wget is installed (Debian: apt-get install curl)" >&2; return 1; }
fi
command -v sha256sum >/dev/null || { echo "fetch_data: sha256sum is missing (Debian: coreutils)" >&2; exit 2; }

# The datasets the manifest knows, to refuse a misspelt name before anything is downloaded.
known=$(grep -v '^#' "$manifest" | cut -f1 | sort -u)
for w in "${wanted[@]+"${wanted[@]}"}"; do
  grep -qxF "$w" <<<"$known" || { echo "fetch_data: unknown dataset '$w'; known: $(tr '\n' ' ' <<<"$known")" >&2; exit 2; }
done
selected() {
  [[ ${#wanted[@]} -eq 0 ]] && { [[ $1 != *_source ]]; return; }
  local w
  for w in "${wanted[@]}"; do [[ $w == "$1" ]] && return 0; done
  return 1
}

ok=0 fetched=0 failed=0
while IFS=$'\t' read -r dataset path sum url conversion; do
  [[ -z $dataset || $dataset == \#* ]] && continue
  selected "$dataset" || continue
  if [[ $mode == list ]]; then
    printf '%-22s %-70s %s\n' "$dataset" "$path" "$url"
    continue
  fi
  target=$data/$path
  if [[ -e $target ]]; then
    have=$(sha256sum "$target" | cut -d' ' -f1)
    if [[ $have == "$sum" ]]; then
      ok=$((ok + 1))
    else
      echo "FAILED $dataset $path: present with sha256 $have, expected $sum; move it away and run again" >&2
      failed=$((failed + 1))
    fi
    continue
  fi
  if [[ $mode == check ]]; then
    echo "MISSING $dataset $path" >&2
    failed=$((failed + 1))
    continue
  fi
  source_url=$url
  [[ -n $mirror ]] && source_url=$mirror/$path
  if [[ $source_url == - ]]; then
    echo "FAILED $dataset $path: no public copy of this file; it is made by: $conversion" >&2
    failed=$((failed + 1))
    continue
  fi
  mkdir -p "$(dirname "$target")"
  tmp=$target.part.$$
  if ! download "$source_url" "$tmp"; then
    rm -f "$tmp"
    echo "FAILED $dataset $path: cannot download $source_url" >&2
    failed=$((failed + 1))
    continue
  fi
  got=$(sha256sum "$tmp" | cut -d' ' -f1)
  if [[ $got != "$sum" ]]; then
    rm -f "$tmp"
    echo "FAILED $dataset $path: checksum mismatch from $source_url (sha256 $got, expected $sum); refused" >&2
    failed=$((failed + 1))
    continue
  fi
  mv "$tmp" "$target"
  echo "fetched $dataset $path"
  [[ $conversion != - ]] && echo "  next: $conversion"
  fetched=$((fetched + 1))
done <"$manifest"

[[ $mode == list ]] && exit 0
echo "fetch_data: $ok verified in place, $fetched downloaded and verified, $failed failed (data folder $data)"
[[ $failed -eq 0 ]]
