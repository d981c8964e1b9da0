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
cmake -G Ninja -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS=-fsanitize=address,undefined -fno-sanitize-recover=undefined" \
  "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined"
export ASAN_OPTIONS=detect_leaks=0:allow_user_poisoning=0
export UBSAN_OPTIONS=print_stacktrace=1
cmake --build "$BUILD_DIR" --target check-layout
"$BUILD_DIR/bin/LayoutAlgebraTests" --gtest_brief=1
