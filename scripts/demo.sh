#!/usr/bin/env bash
# Installs, builds, and runs layoutc on an example: the explain JSON and the
# memory map of a 3x4 transpose and its contiguous copy.
set -euo pipefail
cd "$(dirname "$0")/.."
"./scripts/build.sh"
BUILD_DIR=${BUILD_DIR:-build}
example=examples/transpose.mlir
echo
echo "== $example"
cat "$example"
echo
echo "== layoutc $example --emit=explain"
"$BUILD_DIR/bin/layoutc" "$example" --emit=explain
echo
echo "== layoutc $example --emit=memory-map"
"$BUILD_DIR/bin/layoutc" "$example" --emit=memory-map
echo
echo "== layoutc $example --run   (JIT on iota inputs; PyTorch's printout)"
"$BUILD_DIR/bin/layoutc" "$example" --run
