#!/usr/bin/env bash
# The GPU runner of layoutc's CUDA backend (bench/gpu/README.md): the GPU
# cases of shared/bench/CASES.md checked against PyTorch CUDA and timed
# against the copy/read limits. The GPU machine needs only nvcc, a C compiler
# and a Python with torch: layoutc runs here, in `prepare`.
#
#   scripts/gpu-bench.sh prepare      regenerate bench/gpu/generated/ (needs layoutc)
#   scripts/gpu-bench.sh build        nvcc -> bench/gpu/build/libgpucases.so
#   scripts/gpu-bench.sh build-emu    the same library on the host emulation (no nvcc)
#   scripts/gpu-bench.sh run [--check-only] [--cases P1,R2] [runner.py options]
#   scripts/gpu-bench.sh selftest [--no-nvcc]   what can be tested without a GPU
#
# Environment: LAYOUTC (default build/bin/layoutc, else build-cuda/bin/layoutc),
# NVCC (default $CUDACXX, else /usr/local/cuda/bin/nvcc, else nvcc on PATH),
# CUDA_ARCH (default sm_80,sm_90: SASS for each, PTX for the last), CC, CXX,
# JOBS (parallel compiles, default 2), GPU_BENCH_BUILD_DIR (default
# bench/gpu/build), GPU_BENCH_GENERATED (the generated files `build` compiles,
# default bench/gpu/generated), DLPACK_INCLUDE (a directory holding dlpack/dlpack.h),
# PYTHON (default: the first of /usr/bin/python3, python3 whose torch sees a GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
GEN=${GPU_BENCH_GENERATED:-$ROOT/bench/gpu/generated}
B=${GPU_BENCH_BUILD_DIR:-$ROOT/bench/gpu/build}
case "$B" in /*) ;; *) B=$ROOT/$B ;; esac
JOBS=${JOBS:-2}
CUDA_ARCH=${CUDA_ARCH:-sm_80,sm_90}
CC=${CC:-cc}
CXX=${CXX:-c++}

log() { echo "gpu-bench: $*" >&2; }
die() {
  log "$*"
  exit 1
}
usage() {
  sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
  exit "${1:-0}"
}

find_layoutc() {
  if [ -n "${LAYOUTC:-}" ]; then
    echo "$LAYOUTC"
    return
  fi
  local c
  for c in "$ROOT/build/bin/layoutc" "$ROOT/build-cuda/bin/layoutc"; do
    if [ -x "$c" ] && "$c" --help 2>/dev/null | grep -q -- '--target=<value>'; then
      echo "$c"
      return
    fi
  done
  die "no layoutc with --target=cuda: build it (scripts/build.sh) or set LAYOUTC"
}

find_nvcc() {
  local c
  for c in "${NVCC:-}" "${CUDACXX:-}" /usr/local/cuda/bin/nvcc "$(command -v nvcc || true)"; do
    if [ -n "$c" ] && [ -x "$c" ]; then
      echo "$c"
      return 0
    fi
  done
  return 1
}

# A Python whose torch sees a GPU, else one with torch at all (the runner
# then explains that there is no GPU), else nothing.
find_python() {
  if [ -n "${PYTHON:-}" ]; then
    echo "$PYTHON"
    return
  fi
  local c fallback=""
  for c in /usr/bin/python3 "$(command -v python3 || true)"; do
    [ -n "$c" ] && [ -x "$c" ] || continue
    if "$c" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
      echo "$c"
      return
    fi
    if [ -z "$fallback" ] && "$c" -c 'import torch' 2>/dev/null; then
      fallback=$c
    fi
  done
  [ -n "$fallback" ] || die "no python3 with torch: install PyTorch with CUDA (pip install torch) or set PYTHON"
  echo "$fallback"
}

# The directory holding dlpack/dlpack.h, which layout_rt's headers include.
# Debian's libdlpack-dev installs it; without it, PyTorch's own copy
# (torch/include/ATen/dlpack.h, the same DLTensor layout) is used through a
# forwarding header in the build directory.
find_dlpack() {
  local d
  for d in "${DLPACK_INCLUDE:-}" /usr/include /usr/local/include; do
    if [ -n "$d" ] && [ -f "$d/dlpack/dlpack.h" ]; then
      echo "$d"
      return
    fi
  done
  local py torch_h
  # PyTorch's copy: ATen/dlpack.h in its include directory (where it has
  # been for years), else the first dlpack.h anywhere under it.
  local find_torch_dlpack='
import os, torch
inc = os.path.join(os.path.dirname(torch.__file__), "include")
hits = [os.path.join(inc, "ATen", "dlpack.h")]
for d, _, files in os.walk(inc):
    hits += [os.path.join(d, f) for f in sorted(files) if f == "dlpack.h"]
print(next((h for h in hits if os.path.isfile(h)), ""))'
  for py in "${PYTHON:-}" /usr/bin/python3 "$(command -v python3 || true)"; do
    [ -n "$py" ] && [ -x "$py" ] || continue
    torch_h=$("$py" -c "$find_torch_dlpack" 2>/dev/null || true)
    if [ -n "$torch_h" ] && [ -f "$torch_h" ]; then
      mkdir -p "$B/dlpack/dlpack"
      printf '/* Forwards to PyTorch'"'"'s copy of DLPack (no libdlpack-dev here). */\n#include "%s"\n' \
        "$torch_h" >"$B/dlpack/dlpack/dlpack.h"
      echo "$B/dlpack"
      return
    fi
  done
  die "dlpack/dlpack.h not found: apt-get install libdlpack-dev, or set DLPACK_INCLUDE to a directory holding dlpack/dlpack.h (https://github.com/dmlc/dlpack, include/)"
}

cmd_prepare() {
  local layoutc
  layoutc=$(find_layoutc)
  log "layoutc: $layoutc"
  python3 bench/gpu/manifest.py --layoutc "$layoutc" --out "$GEN" --clean "$@"
}

# needs_build OBJ SRC: OBJ is missing or older than SRC, a layout_rt or
# generated header, or this script. (A changed compiler or flag list removes
# every object first: build_lib's stamp.)
needs_build() {
  local out=$1 src=$2
  [ -f "$out" ] || return 0
  [ "$src" -nt "$out" ] && return 0
  [ "$ROOT/scripts/gpu-bench.sh" -nt "$out" ] && return 0
  local h
  for h in "$ROOT"/runtime/include/layout_rt/*.h "$ROOT"/runtime/cuda/include/layout_rt/*.h "$GEN"/*.h; do
    [ "$h" -nt "$out" ] && return 0
  done
  return 1
}

# build_lib MODE: MODE nvcc (real CUDA) or emu (host C++ on layout_rt's
# emulation). Objects go to $B/MODE/, the library to $B.
build_lib() {
  local mode=$1 compiler lib
  local -a cuflags linkcmd
  local dl
  [ -f "$GEN/manifest.json" ] || die "$GEN/manifest.json missing: run scripts/gpu-bench.sh prepare first"
  dl=$(find_dlpack)
  local inc=(-I"$ROOT/runtime/include" -I"$ROOT/runtime/cuda/include" -I"$dl" -I"$GEN")
  if [ "$mode" = nvcc ]; then
    compiler=$(find_nvcc) || die "nvcc not found: install the CUDA toolkit or set NVCC"
    local gencode=() arch last=""
    IFS=, read -r -a archs <<<"$CUDA_ARCH"
    for arch in "${archs[@]}"; do
      arch=${arch#sm_}
      [[ $arch =~ ^[0-9]+[a-z]?$ ]] || die "bad CUDA_ARCH entry '$arch' (expected e.g. sm_80,sm_90)"
      gencode+=(-gencode "arch=compute_$arch,code=sm_$arch")
      last=$arch
    done
    [ -n "$last" ] || die "CUDA_ARCH is empty"
    gencode+=(-gencode "arch=compute_$last,code=compute_$last")
    cuflags=(-O3 -std=c++17 -Xcompiler -fPIC "${gencode[@]}" "${inc[@]}")
    lib=$B/libgpucases.so
    linkcmd=("$compiler" -shared -o "$lib")
    log "nvcc: $compiler ($("$compiler" --version | grep -o 'release [0-9.]*')), ${archs[*]}"
  else
    compiler=$CXX
    cuflags=(-x c++ -O2 -std=c++17 -fPIC "${inc[@]}")
    lib=$B/libgpucases_emu.so
    linkcmd=("$CXX" -shared -o "$lib")
  fi
  local obj=$B/$mode
  mkdir -p "$obj"
  # A different compiler or flag list invalidates every object.
  local stamp="$compiler ${cuflags[*]} | $CC"
  if [ ! -f "$obj/flags" ] || [ "$(cat "$obj/flags")" != "$stamp" ]; then
    rm -f "$obj"/*.o
    echo "$stamp" >"$obj/flags"
  fi
  local src base jobs=() objs=()
  for src in "$GEN"/*.cu "$ROOT/bench/gpu/limits.cu"; do
    base=$(basename "$src" .cu)
    objs+=("$obj/$base.o")
    if needs_build "$obj/$base.o" "$src"; then
      jobs+=("$src")
    fi
  done
  for src in "$ROOT"/runtime/src/*.c; do
    base=rt_$(basename "$src" .c)
    objs+=("$obj/$base.o")
    if needs_build "$obj/$base.o" "$src"; then
      "$CC" -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -fPIC -pthread -I"$ROOT/runtime/include" -I"$dl" -c "$src" -o "$obj/$base.o"
    fi
  done
  if [ "${#jobs[@]}" -gt 0 ]; then
    log "compiling ${#jobs[@]} CUDA files ($mode, $JOBS jobs)"
    # xargs stops at the first failing compile (exit 255) and shows its errors.
    printf '%s\n' "${jobs[@]}" |
      xargs -P "$JOBS" -I{} sh -c 'o="$1/$(basename "$2" .cu).o"; shift 2; "$@" -c "$0" -o "$o" || exit 255' \
        {} "$obj" {} "$compiler" "${cuflags[@]}" ||
      die "compiling failed ($mode)"
  fi
  # Only this source list's objects: a case removed since leaves a stale one.
  "${linkcmd[@]}" "${objs[@]}" -lpthread -lm
  log "built $lib"
}

cmd_run() {
  local py a lib=$B/libgpucases.so what=build
  py=$(find_python)
  for a in "$@"; do
    if [ "$a" = --emulate ]; then
      lib=$B/libgpucases_emu.so
      what=build-emu
    fi
  done
  [ -f "$lib" ] || die "$lib missing: run scripts/gpu-bench.sh $what first"
  exec "$py" bench/gpu/runner.py --manifest "$GEN/manifest.json" --lib "$lib" "$@"
}

cmd_selftest() {
  local py layoutc tmp fails=0 nvcc=1 a
  for a in "$@"; do
    case "$a" in
    --no-nvcc) nvcc=0 ;;
    *) die "selftest: unknown option $a (known: --no-nvcc)" ;;
    esac
  done
  py=${PYTHON:-/usr/bin/python3}
  "$py" -c 'import torch' 2>/dev/null || die "selftest needs torch: set PYTHON"
  layoutc=$(find_layoutc)
  tmp=$(mktemp -d)
  SELFTEST_TMP=$tmp
  trap 'rm -rf "${SELFTEST_TMP:-}"' EXIT

  # (1) The checked-in generated files are what layoutc makes of cases.py now.
  "$py" bench/gpu/manifest.py --layoutc "$layoutc" --out "$tmp/gen" >/dev/null ||
    die "selftest: regenerating failed"
  if diff -r -q -x .clang-format "$GEN" "$tmp/gen" >"$tmp/diff"; then
    echo "selftest: generated files are up to date ($(ls "$GEN" | wc -l) files)"
  else
    sed 's/^/  /' "$tmp/diff"
    echo "selftest: FAIL: bench/gpu/generated/ is stale: run scripts/gpu-bench.sh prepare"
    fails=$((fails + 1))
  fi

  # (2) The library builds with nvcc for the GPU machine.
  if [ "$nvcc" = 0 ]; then
    echo "selftest: nvcc build skipped (--no-nvcc)"
  elif find_nvcc >/dev/null; then
    if build_lib nvcc && "$py" bench/gpu/runner.py --manifest "$GEN/manifest.json" \
      --lib "$B/libgpucases.so" --symbols-only; then
      echo "selftest: nvcc build ok"
    else
      echo "selftest: FAIL: nvcc build"
      fails=$((fails + 1))
    fi
  else
    echo "selftest: nvcc build skipped (no nvcc)"
  fi

  # (3) The runner's descriptions of every case agree with the headers and
  # with torch, without a GPU.
  if "$py" bench/gpu/runner.py --manifest "$GEN/manifest.json" --dry; then
    echo "selftest: dry run ok"
  else
    echo "selftest: FAIL: dry run"
    fails=$((fails + 1))
  fi

  # (4) The small sizes run end to end on the host emulation: the runner's
  # DLTensors, calls, checks and error paths against the real launchers.
  if build_lib emu && "$py" bench/gpu/runner.py --manifest "$GEN/manifest.json" \
    --lib "$B/libgpucases_emu.so" --emulate --check-only; then
    echo "selftest: emulated check ok"
  else
    echo "selftest: FAIL: emulated check"
    fails=$((fails + 1))
  fi

  # (5) The timing and table code, on the emulation (not a measurement).
  if "$py" bench/gpu/runner.py --manifest "$GEN/manifest.json" \
    --lib "$B/libgpucases_emu.so" --emulate --cases P1,C1,R5 --sizes small \
    --time-size small --runs 10 --warmup 1 --json "$tmp/times.json" &&
    "$py" -c 'import json, sys; rows = json.load(open(sys.argv[1]))["rows"]; sys.exit(0 if len(rows) == 3 and all(r["check"] == "ok" and all(t[0] > 0 for t in r["times"].values()) for r in rows) else 1)' "$tmp/times.json"; then
    echo "selftest: emulated timing ok"
  else
    echo "selftest: FAIL: emulated timing"
    fails=$((fails + 1))
  fi

  if [ "$fails" -eq 0 ]; then
    echo "selftest: passed"
  else
    echo "selftest: $fails part(s) failed"
    exit 1
  fi
}

[ $# -gt 0 ] || usage 2
sub=$1
shift
case "$sub" in
prepare) cmd_prepare "$@" ;;
build) build_lib nvcc ;;
build-emu) build_lib emu ;;
run) cmd_run "$@" ;;
selftest) cmd_selftest "$@" ;;
-h | --help) usage 0 ;;
*)
  log "unknown command '$sub'"
  usage 2
  ;;
esac
