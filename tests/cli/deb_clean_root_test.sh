#!/usr/bin/env bash
# ctest cli/deb_clean_root (label packaging): the .deb of this build (CPU or CUDA) installs with apt
# into a minimal Debian 12 root made by debootstrap, apt resolving its Depends from Debian's
# servers, and `mlsys version` and `mlsys-quickstart` run inside it as an unprivileged user, with
# no CUDA toolkit. Every ELF file of the package finds its libraries there, except libraries of
# the GPU plugins that the package description names (cmake/mlsys_cpack_project.cmake).
# The bootstrapped root is cached as a tarball, and the downloaded packages as .debs, under
# <cache dir>, so only the first run pays for debootstrap. Skipped, with the reason, when not root,
# without debootstrap or a permitted chroot, or when the Debian mirror cannot be reached.
# Usage: deb_clean_root_test.sh <build dir> <work dir> <cache dir>
#   MLSYS_DEBIAN_MIRROR (default http://deb.debian.org/debian), MLSYS_DEBIAN_SECURITY_MIRROR
#   (default http://deb.debian.org/debian-security) choose the servers.
set -euo pipefail
build=$1 work=$2 cache=$3
mirror=${MLSYS_DEBIAN_MIRROR:-http://deb.debian.org/debian}
security=${MLSYS_DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}

skip() {
  echo "TEST SKIPPED [$1]: $2"
  exit 77
}
fail() {
  echo "FAIL: $1"
  [[ -n ${2:-} && -f $2 ]] && tail -30 "$2"
  exit 1
}
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

[[ $(id -u) -eq 0 ]] || skip not-root "making and entering a Debian root (debootstrap, chroot) needs root: run ctest -L packaging as root"
command -v debootstrap >/dev/null || skip no-debootstrap "debootstrap is not installed (scripts/setup installs it)"
command -v chroot >/dev/null || skip no-chroot "chroot (coreutils) is not on PATH"
chroot / /bin/true 2>/dev/null || skip no-chroot "chroot is not permitted here (a container without CAP_SYS_CHROOT?)"
host=$(sed -E 's#^[a-z]+://([^/:]+).*#\1#' <<<"$mirror")
port=80
[[ $mirror == https://* ]] && port=443
timeout 10 bash -c "exec 3<>/dev/tcp/$host/$port" 2>/dev/null ||
  skip no-network "the Debian mirror $mirror cannot be reached (set MLSYS_DEBIAN_MIRROR to one that can)"

rm -rf "$work"
mkdir -p "$work" "$cache/archives"
root=$work/root
t0=$(now)
cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work/pkg" >"$work/cpack.log" 2>&1 || fail "cpack -G DEB" "$work/cpack.log"
deb=$(ls "$work"/pkg/mlsys_*.deb)
description=$(dpkg-deb -f "$deb" Description)
dpkg-deb -f "$deb" Package Version Depends
t1=$(now)

tarball=$cache/debian12-minbase.tar.gz
made_root=reused
if [[ ! -f $tarball ]]; then
  debootstrap --variant=minbase bookworm "$work/bootstrap" "$mirror" >"$work/debootstrap.log" 2>&1 ||
    fail "debootstrap bookworm from $mirror" "$work/debootstrap.log"
  tar -C "$work/bootstrap" -czf "$tarball.part" . && mv "$tarball.part" "$tarball"
  rm -rf "$work/bootstrap"
  made_root=made
fi
mkdir "$root"
tar -C "$root" -xzf "$tarball"
t2=$(now)

# A clean Debian 12 as installed: main, updates and security; the host's resolver for the names.
cat >"$root/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb $security bookworm-security main
EOF
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp "$cache"/archives/*.deb "$root/var/cache/apt/archives/" 2>/dev/null || true
cp "$deb" "$root/tmp/"
# env -i: nothing of the host's environment (LD_LIBRARY_PATH, MLSYS_*, OMP_*) leaks into the root.
clean_env=(env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C DEBIAN_FRONTEND=noninteractive)
chroot "$root" "${clean_env[@]}" sh -c "apt-get update -qq && apt-get install -y -qq /tmp/$(basename "$deb")" \
  >"$work/apt.log" 2>&1 || fail "apt-get install of $(basename "$deb") in the clean root" "$work/apt.log"
# Keep what apt downloaded for the next run (and only that, so the cache follows Debian's updates).
rm -f "$cache"/archives/*.deb
cp "$root"/var/cache/apt/archives/*.deb "$cache/archives/" 2>/dev/null || true
t3=$(now)

# Every ELF file of the package finds its libraries in the root; only the GPU plugins may miss
# libraries, and only those their description names.
# shellcheck disable=SC2016  # the script runs inside the root: its variables expand there
unresolved=$(chroot "$root" "${clean_env[@]}" bash -c '
  for f in $(dpkg -L mlsys); do
    [[ -f $f && ! -L $f ]] && head -c 4 "$f" | grep -q ELF || continue
    ldd "$f" | sed -n "s#^[[:space:]]*\([^[:space:]]*\) => not found.*#${f##*/} \1#p"
  done' | sort -u) || fail "listing the package's unresolved libraries in the clean root"
while read -r file soname; do
  [[ -z $file ]] && continue
  if [[ $description != *"$file"* || $description != *"$soname"* ]]; then
    fail "$file needs $soname, which the clean root lacks and the package neither depends on nor names"
  fi
  echo "not in the root, as the description says: $soname (for $file)"
done <<<"$unresolved"

mkdir -p "$root/tmp/run"
chown 65534:65534 "$root/tmp/run"
chroot --userspec=65534:65534 "$root" "${clean_env[@]}" HOME=/tmp/run bash -c 'cd /tmp/run && mlsys version && mlsys-quickstart' \
  >"$work/quickstart.log" 2>&1 || fail "mlsys version / mlsys-quickstart in the clean root" "$work/quickstart.log"
t4=$(now)
sed -n '1,/^  compiler/p' "$work/quickstart.log"
echo "quickstart results:" "$root"/tmp/run/results/quickstart/* | sed "s#$root/tmp/run/results/quickstart/##g"
printf 'cpack %s s, root %s in %s s, apt install %s s (apt cache %s KiB), checks and quickstart %s s\n' \
  "$(secs "$t0" "$t1")" "$made_root" "$(secs "$t1" "$t2")" "$(secs "$t2" "$t3")" \
  "$(du -sk "$cache/archives" | cut -f1)" "$(secs "$t3" "$t4")"
rm -rf "$root"
