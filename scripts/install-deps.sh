#!/usr/bin/env bash
# Installs what graphrt needs, from Debian 12's packages only. Quick when everything is
# already there; uses sudo when not run as root.
#   install-deps.sh        everything the test suite, CI and every cross build use (llvm for
#                          llvm-symbolizer: sanitizer and fuzzer reports name functions and lines)
#   install-deps.sh demo   only what the demo needs: the host tools and the runtime
#   install-deps.sh fresh  only what scripts/fresh-machine-check.sh needs (debootstrap, git)
set -euo pipefail

demo_packages=(
  cmake ninja-build g++ make pkg-config python3
  flatbuffers-compiler libflatbuffers-dev
  libdlpack-dev libmbedtls-dev
  nlohmann-json3-dev libcli11-dev
)
all_packages=(
  "${demo_packages[@]}"
  googletest libgtest-dev libbenchmark-dev
  valgrind
  clang libclang-rt-14-dev llvm
  gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib qemu-system-arm dpkg-dev
  python3-dev pybind11-dev python3-numpy python3-pytest
  debootstrap git
)

case "${1:-all}" in
  demo) packages=("${demo_packages[@]}") ;;
  fresh) packages=(debootstrap git) ;;
  all) packages=("${all_packages[@]}") ;;
  *) echo "install-deps: unknown profile '$1' (demo or all)" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
echo "install-deps: installing ${missing[*]}"
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
