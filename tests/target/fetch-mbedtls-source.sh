#!/usr/bin/env bash
# Fetches Debian bookworm's mbedTLS source package into a build folder (never into the
# repository), for the Cortex-M firmware's signature check. Usage:
#   bash tests/target/fetch-mbedtls-source.sh [DEST]      (default: build/mbedtls-source)
# Adds deb-src entries (mirroring the configured deb ones) when apt has none. Quick when already fetched.
set -euo pipefail
cd "$(dirname "$0")/../.."
dest="${1:-build/mbedtls-source}"

if compgen -G "$dest/mbedtls-*/library/ecdsa.c" >/dev/null; then
  echo "fetch-mbedtls-source: already in $dest"
  exit 0
fi

as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)

# apt-get source needs a deb-src entry; Debian's images ship binary entries only. Mirror
# the machine's own binary entries (whatever archive it is configured for) as source ones.
if ! grep -rqs -E '^(deb-src|Types:.*deb-src)' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  echo "fetch-mbedtls-source: adding deb-src entries beside the configured deb ones"
  for list in /etc/apt/sources.list.d/*.sources; do
    [ -f "$list" ] || continue
    sed -E 's/^Types:[[:space:]]*deb([[:space:]]|$)/Types: deb-src\1/' "$list" |
      "${as_root[@]}" tee "/etc/apt/sources.list.d/graphrt-src-$(basename "$list")" >/dev/null
  done
  if [ -f /etc/apt/sources.list ]; then
    sed -nE 's/^deb([[:space:]])/deb-src\1/p' /etc/apt/sources.list |
      "${as_root[@]}" tee /etc/apt/sources.list.d/graphrt-src.list >/dev/null
  fi
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
fi

# dpkg-source (dpkg-dev) unpacks the package.
dpkg-query -W -f='${Status}' dpkg-dev 2>/dev/null | grep -q "install ok installed" ||
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends dpkg-dev

mkdir -p "$dest"
(cd "$dest" && apt-get source -q mbedtls)
echo "fetch-mbedtls-source: mbedTLS source in $(ls -d "$dest"/mbedtls-*/)"
