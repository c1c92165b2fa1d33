#!/usr/bin/env bash
# Proves the README on a machine that has nothing: builds a Debian 12 minbase root with
# debootstrap, clones this checkout (its committed HEAD) into it with the model zoo beside
# it, and runs there, as root with nothing preinstalled:
#   bash scripts/demo.sh, bash scripts/test.sh, and the Cortex-M4 build (cmake --preset cortex-m4);
# with --ci, the demo and then the whole of .ci/run (which starts with the test command and
# builds every Cortex-M target), so CI proves everything on the fresh root and builds it once.
# Needs root (debootstrap, chroot, mounts) and Debian's package mirror.
#   fresh-machine-check.sh [--ci] [ROOT]     ROOT defaults to build/fresh-machine (removed first)
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
zoo="$(cd "${GRT_MODEL_ZOO:-../shared}" && pwd -P)"
inside='bash scripts/demo.sh
    bash scripts/test.sh
    bash tests/target/fetch-mbedtls-source.sh
    cmake --preset cortex-m4 >/dev/null
    cmake --build --preset cortex-m4
    ctest --preset cortex-m4'
if [ "${1:-}" = "--ci" ]; then
  inside='demo_start=$SECONDS
    bash scripts/demo.sh
    echo "ci: demo in $((SECONDS - demo_start)) s"
    GRT_CI_IN_FRESH_ROOT=1 bash .ci/run'
  shift
fi
root="${1:-build/fresh-machine}"
mirror="${GRT_DEBIAN_MIRROR:-http://deb.debian.org/debian}"

if [ "$(id -u)" -ne 0 ]; then
  echo "fresh-machine-check: needs root (debootstrap, chroot and mounts)" >&2
  exit 1
fi
bash scripts/install-deps.sh fresh

mounted=()
cleanup() {
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[$i]}" 2>/dev/null || true; done
}
trap cleanup EXIT

rm -rf "$root"
mkdir -p "$root"
root="$(cd "$root" && pwd)"
echo "fresh-machine-check: debootstrap --variant=minbase bookworm into $root"
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 ||
  { tail -20 "$root.debootstrap.log" >&2; exit 1; }

# The checkout as CI gets it (a clean clone of what is committed) and the zoo beside it, in
# root's home inside the fresh root.
home="$root/root"
mkdir -p "$home"
git clone -q --no-hardlinks "$repo" "$home/graphrt"
cp -a "$zoo" "$home/shared"
cp /etc/resolv.conf "$root/etc/resolv.conf"
for fs in proc sys dev dev/pts dev/shm; do
  mount --bind "/$fs" "$root/$fs"
  mounted+=("$root/$fs")
done

echo "fresh-machine-check: inside the fresh root:" $inside
chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin CI=true LANG=C.UTF-8 \
  /bin/bash -euo pipefail -c "cd ~/graphrt
    $inside"
echo "fresh-machine-check: passed on a fresh Debian 12 root"
