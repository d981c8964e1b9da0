#!/usr/bin/env bash
# Installs, builds and runs the whole test suite: the lit tests (dialect,
# passes, layoutc, the PyTorch differential test) and the GoogleTest unit
# tests of the layout algebra, kernel planner and runtime. Ends with one "N passed, M failed" line.
set -uo pipefail
cd "$(dirname "$0")/.."
"./scripts/build.sh" || exit 1
BUILD_DIR=${BUILD_DIR:-build}

log=$(mktemp)
trap 'rm -f "$log"' EXIT

# lit: -sv prints failures in full; the summary counts every test.
cmake --build "$BUILD_DIR" --target check-layout 2>&1 | tee "$log"
lit_status=${PIPESTATUS[0]}
lit_passed=$(grep -Eo '^ *Passed *: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || echo 0)
lit_failed=$(grep -E '^ *(Failed|Unresolved|Timed Out|Unexpectedly Passed) *: *[0-9]+' "$log" |
  awk -F: '{ n += $2 } END { print n + 0 }')

# The GoogleTest binaries also run inside lit (one lit test each); run them
# here too so the summary counts their individual tests.
: >"$log"
unit_status=0
for t in LayoutAlgebraTests KernelPlanTests LayoutRuntimeTests LayoutCudaEmuTests; do
  "$BUILD_DIR/bin/$t" --gtest_brief=1 >>"$log" 2>&1 || unit_status=1
done
tail -n 4 "$log"
unit_passed=$(grep -Eo '\[  PASSED  \] [0-9]+' "$log" | awk '{ n += $NF } END { print n + 0 }')
unit_failed=$(grep -Eo '\[  FAILED  \] [0-9]+ test' "$log" | awk '{ n += $(NF - 1) } END { print n + 0 }')

if [ "$lit_status" -ne 0 ] && [ "$lit_failed" -eq 0 ]; then lit_failed=1; fi
if [ "$unit_status" -ne 0 ] && [ "$unit_failed" -eq 0 ]; then unit_failed=1; fi
echo
echo "lit: $lit_passed passed, $lit_failed failed; unit: $unit_passed passed, $unit_failed failed"
echo "$((lit_passed + unit_passed)) passed, $((lit_failed + unit_failed)) failed"
[ "$lit_status" -eq 0 ] && [ "$unit_status" -eq 0 ]
