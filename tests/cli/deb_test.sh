#!/usr/bin/env bash
# ctest cli/deb_package: `cpack -G DEB` builds the package; its contents unpacked into a scratch
# root (dpkg-deb -x; installing with apt into a clean Debian 12 is ctest cli/deb_clean_root) run the
# quickstart from another folder, which also shows the /usr tree is relocatable.
# Usage: deb_test.sh <build dir> <work dir>
set -euo pipefail
build=$1 work=$2
rm -rf "$work"
mkdir -p "$work/root" "$work/run"
t0=$(date +%s.%N)
cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work/pkg" >/dev/null
deb=$(ls "$work"/pkg/mlsys_*.deb)
t1=$(date +%s.%N)
dpkg-deb -f "$deb" Package Version Architecture Depends
dpkg-deb -x "$deb" "$work/root"
[[ -x "$work/root/usr/bin/mlsys" ]] || { echo "FAIL: usr/bin/mlsys missing from the package"; exit 1; }
cd "$work/run"
"$work/root/usr/bin/mlsys-quickstart" >quickstart.log 2>&1 || { cat quickstart.log; echo "FAIL: quickstart"; exit 1; }
ls results/quickstart
printf 'package %s (%s KiB) built in %.1f s\n' "$(basename "$deb")" "$(( $(stat -c %s "$deb") / 1024 ))" "$(awk "BEGIN{print $t1 - $t0}")"
