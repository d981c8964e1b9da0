#!/usr/bin/env bash
# Installs the dependencies (if missing), configures and builds layoutc.
#   BUILD_DIR   build directory (default: build)
#   BUILD_TYPE  CMake build type (default: Release)
set -euo pipefail
cd "$(dirname "$0")/.."
"./scripts/install-deps.sh"

BUILD_DIR=${BUILD_DIR:-build}
BUILD_TYPE=${BUILD_TYPE:-Release}
cmake -G Ninja -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE="$BUILD_TYPE" \
  ${CMAKE_EXTRA_ARGS:-}
cmake --build "$BUILD_DIR" --target layoutc layout-opt LayoutAlgebraTests KernelPlanTests LayoutRuntimeTests \
  LayoutCudaEmuTests layoutc-python
