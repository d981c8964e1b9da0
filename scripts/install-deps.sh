#!/usr/bin/env bash
# Installs everything layoutc needs on a fresh Debian 12 machine. Idempotent:
# packages already present are left as they are, and apt-get runs only when
# something is missing.
#   scripts/install-deps.sh                 layoutc's packages
#   scripts/install-deps.sh --name N P...   the Debian packages P... instead,
#                                           reporting as N (install-bench-deps.sh)
set -euo pipefail

NAME=install-deps
PACKAGES=(
  build-essential cmake ninja-build git
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  liblld-22-dev
  clang-22 libfuzzer-22-dev libclang-rt-22-dev
  libgtest-dev
  libdlpack-dev
  universal-ctags
  python3-torch python3-numpy
  python3-dev python3-pytest librsvg2-bin
)
if [ "${1:-}" = "--name" ]; then
  NAME=${2:?--name needs a name}
  shift 2
  PACKAGES=("$@")
fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "$NAME: all packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "$NAME: installing ${missing[*]}"
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
