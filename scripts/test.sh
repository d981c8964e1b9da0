#!/usr/bin/env bash
# Installs, builds and runs the whole test suite: the lit tests (dialect,
# passes, layoutc, the PyTorch differential test, the fuzz corpus replay),
# the GoogleTest unit tests of the layout algebra, kernel planner and runtime,
# the pytest suite of the Python package (test/python/), and a short run of
# each fuzz target. Ends with one "N passed, M failed" line.
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

# The Python package (test/python/, pytest): random PyTorch functions traced,
# compiled and compared with eager PyTorch, the errors of what cannot be
# compiled, the kernel caches, the CLI. Kernels are cached in a fresh
# directory under the build directory, removed afterwards. Errors count as
# failures.
pytest_cache=$(mktemp -d "$BUILD_DIR/pytest-kernels.XXXXXX")
PYTHONPATH=$BUILD_DIR/python LAYOUTC_CACHE_DIR=$pytest_cache \
  /usr/bin/python3 -m pytest -q -p no:cacheprovider test/python 2>&1 | tee "$log"
pytest_status=${PIPESTATUS[0]}
rm -rf "$pytest_cache"
pytest_summary=$(grep -E '^=* *[0-9]+ (passed|failed|error|errors|skipped|xfailed)' "$log" | tail -n 1)
pytest_passed=$(echo "$pytest_summary" | grep -Eo '[0-9]+ passed' | grep -Eo '[0-9]+' || echo 0)
pytest_failed=$(echo "$pytest_summary" | grep -Eo '[0-9]+ (failed|errors?)' |
  awk '{ n += $1 } END { print n + 0 }')

# Short fuzzing runs (scripts/fuzz.sh): the instrumented build in build-fuzz/
# (clang, libFuzzer, ASan, UBSan; only the fuzz targets and what they link),
# then each target for FUZZ_SECONDS (default 20) from the checked-in corpus,
# new inputs and artifacts in build-fuzz/test-run/. Each target counts as one
# test, failed by a crash, a timeout or an out-of-memory input (or a failed
# build). FUZZ_SECONDS=0 skips them.
fuzz_passed=0
fuzz_failed=0
fuzz_seconds=${FUZZ_SECONDS:-20}
if [ "$fuzz_seconds" -gt 0 ]; then
  fuzz_out=${FUZZ_BUILD_DIR:-build-fuzz}/test-run
  if ./scripts/fuzz.sh --build-only >"$log" 2>&1; then
    rm -rf "$fuzz_out"
    for t in pipeline codegen dlpack; do
      if FUZZ_OUT_DIR=$fuzz_out ./scripts/fuzz.sh "$t" "${fuzz_seconds}s" \
        >"$log" 2>&1; then
        fuzz_passed=$((fuzz_passed + 1))
      else
        fuzz_failed=$((fuzz_failed + 1))
        grep -v -E '^#[0-9]+ +(NEW|REDUCE|pulse)' "$log" | tail -n 60
      fi
      tail -n 1 "$log"
    done
  else
    tail -n 30 "$log"
    echo "fuzz: the fuzz build failed (scripts/fuzz.sh --build-only)"
    fuzz_failed=3
  fi
fi

if [ "$lit_status" -ne 0 ] && [ "$lit_failed" -eq 0 ]; then lit_failed=1; fi
if [ "$unit_status" -ne 0 ] && [ "$unit_failed" -eq 0 ]; then unit_failed=1; fi
if [ "$pytest_status" -ne 0 ] && [ "$pytest_failed" -eq 0 ]; then pytest_failed=1; fi
echo
echo "lit: $lit_passed passed, $lit_failed failed; unit: $unit_passed passed, $unit_failed failed;" \
  "pytest: $pytest_passed passed, $pytest_failed failed; fuzz: $fuzz_passed passed, $fuzz_failed failed"
echo "$((lit_passed + unit_passed + pytest_passed + fuzz_passed)) passed," \
  "$((lit_failed + unit_failed + pytest_failed + fuzz_failed)) failed"
[ "$lit_status" -eq 0 ] && [ "$unit_status" -eq 0 ] && [ "$pytest_status" -eq 0 ] &&
  [ "$fuzz_failed" -eq 0 ]
