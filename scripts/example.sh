#!/usr/bin/env bash
# Builds layoutc (scripts/build.sh), installs it into a temporary prefix, and
# configures, builds and runs examples/app against the installed CMake
# package: a C program that calls the kernels layoutc generates from
# examples/app/nchw_to_nhwc.mlir and examples/app/channel_sum.mlir and checks
# them against plain loops. Exits non-zero on any mismatch.
#   BUILD_DIR       layoutc's build directory (default: build)
#   EXAMPLE_PREFIX  install prefix to use and keep (default: a temporary
#                   directory, removed at exit)
set -euo pipefail
cd "$(dirname "$0")/.."
"./scripts/build.sh"
BUILD_DIR=${BUILD_DIR:-build}

work=$(mktemp -d "${TMPDIR:-/tmp}/layoutc-example.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=${EXAMPLE_PREFIX:-$work/prefix}

echo
echo "== cmake --install $BUILD_DIR --prefix $prefix"
cmake --build "$BUILD_DIR" --target layoutc layout_rt
cmake --install "$BUILD_DIR" --prefix "$prefix"

echo
echo "== examples/app: find_package(layoutc) from $prefix"
cmake -G Ninja -S examples/app -B "$work/app" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix"
cmake --build "$work/app"

echo
echo "== layout_example"
"$work/app/layout_example"
