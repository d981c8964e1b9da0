#!/usr/bin/env bash
# Builds layoutc with AddressSanitizer + UndefinedBehaviorSanitizer into
# build-asan/ and runs the whole suite under them.
#
# allow_user_poisoning=0: Debian's libMLIR is not instrumented, while the
# LLVM allocator code inlined into our objects is; manual poisoning by one
# side and allocation by the other would report false use-after-poison.
set -euo pipefail
cd "$(dirname "$0")/.."
"./scripts/install-deps.sh"
BUILD_DIR=${BUILD_DIR:-build-asan}
# The runtime (C), the execution tests' drivers and the generated CUDA built
# as host C++ are instrumented too: the generated kernels run inside
# sanitized processes, and the drivers' guard bytes around every buffer
# catch what the uninstrumented CPU kernels write out of bounds. Without nvcc
# (CUDACXX points nowhere): nvcc only compiles the same sources for the GPU,
# which the normal run checks, and would link its programs uninstrumented.
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
cmake -G Ninja -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS=$SAN" "-DCMAKE_C_FLAGS=$SAN" \
  "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined" \
  "-DLAYOUT_TEST_CC=cc $SAN" "-DLAYOUT_TEST_CXX=c++ $SAN"
export CUDACXX=/nonexistent/nvcc
export ASAN_OPTIONS=detect_leaks=0:allow_user_poisoning=0
export UBSAN_OPTIONS=print_stacktrace=1
cmake --build "$BUILD_DIR" --target check-layout
for t in LayoutAlgebraTests KernelPlanTests LayoutRuntimeTests LayoutCudaEmuTests; do
  "$BUILD_DIR/bin/$t" --gtest_brief=1
done
