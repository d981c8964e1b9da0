#!/usr/bin/env bash
# Installs everything layoutc needs on a fresh Debian 12 machine. Idempotent:
# packages already present are left as they are.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build git
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  libgtest-dev
  libdlpack-dev
  python3-torch python3-numpy
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
