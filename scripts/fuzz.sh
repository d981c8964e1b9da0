#!/usr/bin/env bash
# Coverage-guided fuzzing with libFuzzer (Debian's clang-22, libfuzzer-22-dev
# and libclang-rt-22-dev):
#
#   scripts/fuzz.sh [TARGET] [DURATION] [libFuzzer flags...]
#   scripts/fuzz.sh pipeline 30 -jobs=2 -workers=2   # 30 minutes, 2 processes
#   scripts/fuzz.sh all 20s                          # each target 20 seconds
#   scripts/fuzz.sh --build-only
#
# TARGET: pipeline, codegen, dlpack or all (default: all, one after another).
# DURATION: minutes (default 10), or seconds with an "s" suffix; with all,
# each target gets the whole duration. libFuzzer runs -jobs=N in -workers
# processes (by default half the cores), each for the whole duration.
#
# Builds (or reuses) the instrumented fuzz build in $FUZZ_BUILD_DIR (default
# build-fuzz/: clang-22, -DLAYOUTC_FUZZ=ON, libFuzzer + ASan + UBSan, with
# assertions). The checked-in seeds (fuzz/corpus/<target>, fuzz/regressions/
# <target>) are read only: new corpus entries go to
# $FUZZ_OUT_DIR/corpus/<target> (default build-fuzz/fuzz-out), which later
# runs start from too, and crashes, timeouts and out-of-memory inputs to
# $FUZZ_OUT_DIR/artifacts/<target>/. Every run has explicit limits:
# -max_total_time, -timeout=10 (seconds per input), -rss_limit_mb=2048,
# -max_len=4096; flags given after DURATION come later and override them.
#
# Ends with one line per target: executions, coverage (cov, ft) and the
# number of crashes, timeouts and OOMs found; the exit status is non-zero
# when any target found one or did not run.
set -uo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=${FUZZ_BUILD_DIR:-build-fuzz}
OUT_DIR=${FUZZ_OUT_DIR:-$BUILD_DIR/fuzz-out}
TARGETS=(pipeline codegen dlpack)

usage() {
  sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
}

build() {
  local cc=${CC:-clang-22} cxx=${CXX:-clang++-22}
  if ! command -v "$cxx" >/dev/null; then
    echo "fuzz.sh: $cxx not found (apt-get install clang-22 libfuzzer-22-dev" \
      "libclang-rt-22-dev)" >&2
    return 1
  fi
  if [ ! -f "$BUILD_DIR/build.ninja" ]; then
    # -O1 keeps execution fast and stack traces readable; no -DNDEBUG, so
    # that assertions in our code and in LLVM's headers stay on.
    cmake -G Ninja -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
      "-DCMAKE_C_FLAGS_RELEASE=-O1 -gline-tables-only" \
      "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -gline-tables-only" \
      -DLAYOUTC_FUZZ=ON || return 1
  fi
  cmake --build "$BUILD_DIR" --target "${TARGETS[@]/#/layoutc-fuzz-}"
}

target=all
if [ $# -gt 0 ]; then
  case $1 in
  --build-only) build; exit ;;
  -h | --help) usage ;;
  all | pipeline | codegen | dlpack) target=$1; shift ;;
  *) echo "fuzz.sh: unknown target '$1'" >&2; usage ;;
  esac
fi
duration=${1:-10}
[ $# -gt 0 ] && shift
case $duration in
*s) seconds=${duration%s} ;;
*) seconds=$((duration * 60)) ;;
esac
if ! [[ $seconds =~ ^[0-9]+$ ]] || [ "$seconds" -eq 0 ]; then
  echo "fuzz.sh: duration '$duration' is not a number of minutes or Ns" >&2
  usage
fi
[ "$target" = all ] || TARGETS=("$target")

build || { echo "fuzz.sh: the fuzz build failed" >&2; exit 1; }
mkdir -p "$OUT_DIR"
BUILD_DIR=$(cd "$BUILD_DIR" && pwd)
OUT_DIR=$(cd "$OUT_DIR" && pwd)

export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

summary=()
status=0
for t in "${TARGETS[@]}"; do
  bin=$BUILD_DIR/bin/layoutc-fuzz-$t
  corpus=$OUT_DIR/corpus/$t
  artifacts=$OUT_DIR/artifacts/$t
  logs=$OUT_DIR/logs/$t
  mkdir -p "$corpus" "$artifacts" "$logs"
  rm -f "$logs"/*.log
  # allow_user_poisoning=0: Debian's libMLIR is not instrumented while the
  # LLVM allocator code inlined into our objects is (see
  # test-sanitizers.sh). malloc_context_size=0 for the compiler targets:
  # ASan keeps every distinct allocation stack forever, and MLIR's deep,
  # input-shaped recursion makes new ones all the time (170 MB more for each
  # million inputs: an OOM within half an hour); rerun an artifact without
  # it for the allocation stacks.
  asan=allow_user_poisoning=0
  [ "$t" != dlpack ] && asan+=:malloc_context_size=0
  dict=()
  [ "$t" != dlpack ] && dict=(-dict="$PWD/fuzz/mlir.dict")
  # The first directory receives what libFuzzer adds; the others are seeds.
  dirs=("$corpus")
  seeds=("$PWD/fuzz/corpus/$t" "$PWD/fuzz/regressions/$t")
  # Code generation starts with the pipeline.
  [ "$t" = codegen ] && seeds+=("$PWD/fuzz/regressions/pipeline")
  for d in "${seeds[@]}"; do
    [ -d "$d" ] && dirs+=("$d")
  done
  touch "$logs/start"
  echo "== layoutc-fuzz-$t: ${seconds}s, new inputs in $corpus, artifacts in $artifacts"
  # libFuzzer writes the logs of -jobs=N workers into its working directory.
  (cd "$logs" && ASAN_OPTIONS=${ASAN_OPTIONS:-$asan} \
    "$bin" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "${dict[@]}" "$@" "${dirs[@]}") \
    2>&1 | tee "$logs/main.log"
  rc=${PIPESTATUS[0]}
  # Executions: summed over the jobs' final stats; coverage: the largest
  # cov/ft any job reported last. With -jobs, the workers' logs are
  # fuzz-<n>.log (which the main log repeats); else the main log.
  stats=("$logs"/fuzz-*.log)
  [ -e "${stats[0]}" ] || stats=("$logs/main.log")
  read -r execs cov ft < <(awk '
    /stat::number_of_executed_units:/ { execs += $2 }
    /cov: [0-9]+ ft: [0-9]+/ {
      for (i = 1; i < NF; ++i) {
        if ($i == "cov:") c[FILENAME] = $(i + 1)
        if ($i == "ft:") f[FILENAME] = $(i + 1)
      }
    }
    END {
      for (k in c) { if (c[k] > cov) cov = c[k]; if (f[k] > ft) ft = f[k] }
      print execs + 0, cov + 0, ft + 0
    }' "${stats[@]}")
  found() {
    find "$artifacts" -type f -newer "$logs/start" \( "$@" \) | wc -l
  }
  crashes=$(found -name 'crash-*' -o -name 'leak-*' -o -name 'deadly-*')
  timeouts=$(found -name 'timeout-*')
  ooms=$(found -name 'oom-*')
  line="layoutc-fuzz-$t: $execs executions, cov: $cov ft: $ft;"
  line+=" $crashes crashes, $timeouts timeouts, $ooms OOMs"
  [ $((crashes + timeouts + ooms)) -gt 0 ] && line+=" (in $artifacts)"
  if [ "$rc" -ne 0 ] || [ $((crashes + timeouts + ooms)) -gt 0 ] ||
    [ "$execs" -eq 0 ]; then
    line+=" FAILED (exit $rc)"
    status=1
  fi
  summary+=("$line")
done
echo
printf '%s\n' "${summary[@]}"
exit $status
