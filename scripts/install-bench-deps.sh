#!/usr/bin/env bash
# Installs what bench/ needs beyond scripts/install-deps.sh on Debian 12:
# Halide 14 (a peer), matplotlib (the optional --plot PNG), and the Python
# peers (NumPy, PyTorch). Idempotent: packages already present are left as
# they are, and apt-get runs only when something is missing.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build
  libdlpack-dev
  libhalide14-0-dev
  python3-numpy python3-torch python3-matplotlib
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-bench-deps: all packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-bench-deps: installing ${missing[*]}"
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
