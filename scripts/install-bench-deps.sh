#!/usr/bin/env bash
# Installs what bench/ needs beyond scripts/install-deps.sh on Debian 12:
# Halide 14 (a peer), matplotlib (the optional --plot PNG), and the Python
# peers (NumPy, PyTorch). Idempotent, through install-deps.sh.
set -euo pipefail
exec "$(dirname "$0")/install-deps.sh" --name install-bench-deps \
  build-essential cmake ninja-build \
  libdlpack-dev \
  libhalide14-0-dev \
  python3-numpy python3-torch python3-matplotlib
