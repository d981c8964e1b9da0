#!/usr/bin/env bash
# Installs, builds, and runs layoutc on an example: the explain JSON and the
# memory map of a 3x4 transpose and its contiguous copy; then the Python
# route, a traced PyTorch NCHW -> NHWC conversion (examples/python/nhwc.py).
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
echo
echo "== PYTHONPATH=$BUILD_DIR/python /usr/bin/python3 examples/python/nhwc.py"
cat examples/python/nhwc.py
echo "--"
PYTHONPATH="$BUILD_DIR/python" /usr/bin/python3 examples/python/nhwc.py
