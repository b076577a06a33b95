#!/usr/bin/env bash
# Installs everything profdiff needs to build, test, fuzz and package on Debian 12 (bookworm), with
# apt-get (dpkg-dev: the .deb's Depends; man-db and bash-completion: the install tests).
# Idempotent: re-running only re-checks the packages. Run as root, or as a user with sudo.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config
  nlohmann-json3-dev libcli11-dev libfmt-dev libxlsxwriter-dev
  libgtest-dev libgmock-dev zlib1g-dev libsqlite3-dev libisal-dev
  python3 python3-openpyxl
  clang libclang-rt-14-dev
  dpkg-dev man-db bash-completion
)

if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1; then
  SUDO=(sudo)
else
  echo "install-deps.sh: run as root (or install sudo); needed packages: ${PACKAGES[*]}" >&2
  exit 1
fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps.sh: all ${#PACKAGES[@]} packages are already installed"
  exit 0
fi

echo "install-deps.sh: installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update
"${SUDO[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
