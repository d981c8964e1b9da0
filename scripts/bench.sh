#!/usr/bin/env bash
# Runs the CPU benchmark suite (shared/bench/CASES.md) and prints one table:
# layoutc's generated kernels (static, and "dyn": each case compiled once
# with every size dynamic) beside the copy/read limits, a naive C++ loop
# nest, Halide 14, NumPy and PyTorch. See bench/README.md.
#
#   ./scripts/bench.sh [--quick] [--threads 1,2] [--cases P1,R2] [--plot out.png]
#   ./scripts/bench.sh --suite hptt [--threads 1,2] [--cases H01,H57]
#                      (the HPTT-style suite: layoutc and the copy limit only)
#   --tuned            adds a "layoutc tuned" column: each case tuned first
#                      (layoutc --tune, at the most threads of --threads) into
#                      build-bench/layoutc/wisdom.json, then planned with it
#   --wisdom FILE      the same column from an existing tuning file
#   --baseline BIN     the same column ("layoutc base", "base/st") from
#                      another layoutc binary's default plans (the same
#                      flags), timed side by side: A/B of a planner change
#
# Environment: BENCH_BUILD_DIR (default build-bench), LAYOUTC (default
# build/bin/layoutc), LAYOUTC_FLAGS (code-generation flags, default
# --mcpu=host --wisdom=none), PYTHON (default /usr/bin/python3, which has torch and
# numpy), CXX, CC, BENCH_MIN_RUNS (default 5).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

QUICK=0
THREADS=1,2
CASES=""
PLOT=""
SUITE=cases
TUNED=0
WISDOM=""
BASELINE=""
TUNE_ASKED=0
usage() {
  sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'
  exit "${1:-0}"
}
while [ $# -gt 0 ]; do
  case "$1" in
  --quick) QUICK=1 ;;
  --threads) THREADS=${2:?--threads needs a list}; shift ;;
  --threads=*) THREADS=${1#*=} ;;
  --cases) CASES=${2:?--cases needs a list}; shift ;;
  --cases=*) CASES=${1#*=} ;;
  --suite) SUITE=${2:?--suite needs a name}; shift ;;
  --suite=*) SUITE=${1#*=} ;;
  --tuned) TUNED=1; TUNE_ASKED=1 ;;
  --wisdom) WISDOM=${2:?--wisdom needs a file}; TUNED=1; shift ;;
  --wisdom=*) WISDOM=${1#*=}; TUNED=1 ;;
  --baseline) BASELINE=${2:?--baseline needs a layoutc}; TUNED=1; shift ;;
  --baseline=*) BASELINE=${1#*=}; TUNED=1 ;;
  --plot) PLOT=${2:?--plot needs a file}; shift ;;
  --plot=*) PLOT=${1#*=} ;;
  -h | --help) usage 0 ;;
  *) echo "bench: unknown argument $1" >&2; usage 2 ;;
  esac
  shift
done
[[ $THREADS =~ ^[0-9]+(,[0-9]+)*$ ]] || { echo "bench: bad --threads $THREADS" >&2; exit 2; }
if [ -n "$BASELINE" ]; then
  # One column: a baseline binary's plans or a tuning file's, not both.
  [ -z "$WISDOM" ] && [ "$TUNE_ASKED" = 0 ] || { echo "bench: --baseline and --wisdom/--tuned share a column; give one" >&2; exit 2; }
  [ -x "$BASELINE" ] || { echo "bench: --baseline $BASELINE is not an executable layoutc" >&2; exit 2; }
fi
case "$SUITE" in
cases) ;;
hptt) [ "$QUICK" = 0 ] || { echo "bench: --suite hptt has full sizes only" >&2; exit 2; } ;;
*) echo "bench: unknown --suite $SUITE (cases, hptt)" >&2; exit 2 ;;
esac
if [ -n "$PLOT" ]; then
  case "$PLOT" in /*) ;; *) PLOT="$ROOT/$PLOT" ;; esac
fi
if [ -n "$WISDOM" ]; then
  case "$WISDOM" in /*) ;; *) WISDOM="$ROOT/$WISDOM" ;; esac
  [ -f "$WISDOM" ] || { echo "bench: no tuning file $WISDOM" >&2; exit 2; }
fi

B=${BENCH_BUILD_DIR:-$ROOT/build-bench}
LAYOUTC=${LAYOUTC:-$ROOT/build/bin/layoutc}
PY=${PYTHON:-/usr/bin/python3}
CXX=${CXX:-c++}
CC=${CC:-cc}
MIN_RUNS=${BENCH_MIN_RUNS:-5}
mkdir -p "$B/halide" "$B/layoutc" "$B/rt"
log() { echo "bench: $*" >&2; }

# ---- cases ------------------------------------------------------------------
SPEC_ARGS=(--suite "$SUITE")
[ "$QUICK" = 1 ] && SPEC_ARGS+=(--quick)
[ -n "$CASES" ] && SPEC_ARGS+=(--cases "$CASES")
"$PY" bench/cases.py --spec "${SPEC_ARGS[@]}" >"$B/spec.txt"
mapfile -t IDS < <(cut -d' ' -f1 "$B/spec.txt" | uniq)
[ "${#IDS[@]}" -gt 0 ] || { echo "bench: no cases selected" >&2; exit 2; }
log "cases: ${IDS[*]}"

DRIVER_FLAGS=(-O3 -march=native -std=c++17 -fopenmp -Ibench)
DRIVER_SRCS=(bench/driver.cpp)
DRIVER_LIBS=(-lpthread -lm)

# ---- Halide (ahead of time; compile time is never timed) ---------------------
HALIDE_INC=/usr/include/halide14
if [ "$SUITE" = hptt ]; then
  # The HPTT-style suite measures layoutc against the copy limit only.
  HALIDE_NOTE="Halide: not run for this suite"
elif [ -f "$HALIDE_INC/Halide.h" ] && [ -e /usr/lib/x86_64-linux-gnu/libHalide14.so ]; then
  GEN="$B/halide/halide_gen"
  if [ ! -x "$GEN" ] || [ bench/halide_gen.cpp -nt "$GEN" ] || [ bench/spec.h -nt "$GEN" ]; then
    log "building the Halide generator"
    "$CXX" -O1 -std=c++17 -I"$HALIDE_INC" -Ibench bench/halide_gen.cpp -o "$GEN" \
      -lHalide14 -lpthread -ldl
  fi
  # Pipelines are generic over extents: one pair per case, regenerated when
  # the generator or the case list changes.
  "$PY" bench/cases.py --spec >"$B/halide/spec-all.txt"
  STALE=()
  for id in "${IDS[@]}"; do
    o="$B/halide/hl_${id,,}_p.o"
    if [ ! -f "$o" ] || [ "$GEN" -nt "$o" ] || [ bench/cases.py -nt "$o" ]; then
      STALE+=("$id")
    fi
  done
  if [ "${#STALE[@]}" -gt 0 ]; then
    log "generating Halide pipelines: ${STALE[*]}"
    printf '%s\n' "${STALE[@]}" |
      xargs -P 2 -I{} "$GEN" "$B/halide/spec-all.txt" "$B/halide" {}
  fi
  if [ ! -f "$B/halide/hl_runtime.o" ] || [ "$GEN" -nt "$B/halide/hl_runtime.o" ]; then
    "$GEN" --runtime "$B/halide"
  fi
  "$GEN" --table "$B/halide" "${IDS[@]}"
  DRIVER_FLAGS+=(-DBENCH_HAVE_HALIDE -I"$HALIDE_INC")
  DRIVER_SRCS+=("$B/halide/halide_table.cpp" "$B/halide/hl_runtime.o")
  for id in "${IDS[@]}"; do
    DRIVER_SRCS+=("$B/halide/hl_${id,,}_s.o" "$B/halide/hl_${id,,}_p.o")
  done
  DRIVER_LIBS+=(-ldl)
  HALIDE_NOTE="Halide 14 (AOT, $(dpkg-query -W -f='${Version}' libhalide14-0-dev 2>/dev/null || echo '?'))"
else
  log "Halide 14 missing (scripts/install-bench-deps.sh): no Halide column"
  HALIDE_NOTE="Halide: missing"
fi

# ---- layoutc ------------------------------------------------------------------
LAYOUTC_NOTE=""
HAVE_LAYOUTC=0
if [ ! -x "$LAYOUTC" ]; then
  LAYOUTC_NOTE="layoutc: not built ($LAYOUTC)"
elif ! "$LAYOUTC" --help 2>/dev/null | grep -q 'obj'; then
  LAYOUTC_NOTE="layoutc: backend missing"
fi
if [ -z "$LAYOUTC_NOTE" ]; then
  RT="$B/rt/liblayout_rt.a"
  if [ ! -f "$RT" ] || [ -n "$(find runtime/src runtime/include -newer "$RT" -type f | head -1)" ]; then
    log "building layout_rt"
    rm -f "$B"/rt/*.o
    for c in runtime/src/*.c; do
      "$CC" -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Iruntime/include -fPIC \
        -c "$c" -o "$B/rt/$(basename "${c%.c}").o"
    done
    rm -f "$RT"
    ar rcs "$RT" "$B"/rt/*.o
  fi
  OK_IDS=()
  DYN_IDS=()
  TUNED_IDS=()
  # The default plans: no tuning preset (docs/tuning.md) unless
  # LAYOUTC_FLAGS asks.
  FLAGS=${LAYOUTC_FLAGS---mcpu=host --wisdom=none}
  # compile SRC BASE [WISDOM]: BASE.o and BASE.h from SRC (planned with the
  # tuning file WISDOM), unless they are up to date (built by this layoutc
  # with these flags, newer than SRC and WISDOM); on failure, logs
  # layoutc's errors and returns 1.
  compile() {
    local src=$1 base=$2 wisdom=${3:-} LAYOUTC=${4:-$LAYOUTC}
    local flags=$FLAGS
    [ -n "$wisdom" ] && flags="${FLAGS//--wisdom=none/} --wisdom=$wisdom"
    if [ ! -f "$base.o" ] || [ "$LAYOUTC" -nt "$base.o" ] ||
      [ "$src" -nt "$base.o" ] ||
      { [ -n "$wisdom" ] && [ "$wisdom" -nt "$base.o" ]; } ||
      [ "$(cat "$base.flags" 2>/dev/null)" != "$LAYOUTC $flags" ]; then
      rm -f "$base.o" "$base.h" "$base.flags"
      # shellcheck disable=SC2086
      if ! "$LAYOUTC" "$src" --emit=obj,header -o "$base" $flags \
        2>"$base.err"; then
        log "layoutc failed on $src:"
        sed 's/^/  /' "$base.err" >&2
        return 1
      fi
      echo "$LAYOUTC $flags" >"$base.flags"
    fi
  }
  TUNE_FILE=${WISDOM:-$B/layoutc/wisdom.json}
  TUNE_THREADS=$(tr ',' '\n' <<<"$THREADS" | sort -n | tail -1)
  # tune ID SRC: the tuned twin of the case (functions fn_tuned), planned
  # with TUNE_FILE after tuning the case into it (unless --wisdom gave
  # one); its failure drops only that column.
  tune() {
    local id=$1 src=$2 tsrc="$B/layoutc/${1,,}_tuned.mlir"
    if [ -n "$BASELINE" ]; then
      "$PY" bench/cases.py --tuned-mlir "$src" "$tsrc.new"
      if cmp -s "$tsrc.new" "$tsrc"; then rm "$tsrc.new"; else mv "$tsrc.new" "$tsrc"; fi
      compile "$tsrc" "$B/layoutc/${id,,}_tuned" "" "$BASELINE"
      return
    fi
    if [ -z "$WISDOM" ]; then
      log "tuning $id on $TUNE_THREADS thread(s)"
      if ! LRT_NUM_THREADS=$TUNE_THREADS "$LAYOUTC" "$src" \
        --tune="$TUNE_FILE" >"$B/layoutc/${id,,}.tune.txt" \
        2>"$B/layoutc/${id,,}.tune.err"; then
        log "layoutc --tune failed on $src:"
        sed 's/^/  /' "$B/layoutc/${id,,}.tune.err" >&2
        return 1
      fi
      sed 's/^/  /' "$B/layoutc/${id,,}.tune.txt" >&2
    fi
    "$PY" bench/cases.py --tuned-mlir "$src" "$tsrc.new"
    if cmp -s "$tsrc.new" "$tsrc"; then rm "$tsrc.new"; else mv "$tsrc.new" "$tsrc"; fi
    compile "$tsrc" "$B/layoutc/${id,,}_tuned" "$TUNE_FILE"
  }
  # A fresh tuning run starts from an empty file.
  [ "$TUNED" = 1 ] && [ -z "$WISDOM$BASELINE" ] && rm -f "$TUNE_FILE"
  CASE_DIR=bench/cases
  if [ "$SUITE" = hptt ]; then
    # Generated, not checked in; rewritten only when they change, so that
    # their objects stay up to date.
    CASE_DIR="$B/hptt"
    "$PY" bench/cases.py --write-mlir "$B/hptt.new" --suite hptt
    mkdir -p "$CASE_DIR"
    for f in "$B"/hptt.new/*.mlir; do
      cmp -s "$f" "$CASE_DIR/${f##*/}" || mv "$f" "$CASE_DIR/${f##*/}"
    done
    rm -rf "$B/hptt.new"
  fi
  for id in "${IDS[@]}"; do
    compile "$CASE_DIR/${id,,}.mlir" "$B/layoutc/${id,,}" || continue
    OK_IDS+=("$id")
    if [ "$TUNED" = 1 ] && tune "$id" "$CASE_DIR/${id,,}.mlir"; then
      TUNED_IDS+=("$id")
    fi
    [ "$SUITE" = cases ] || continue
    # The same case with every size of x dynamic, compiled once for all its
    # variants (the "dyn" column); its failure drops only that column.
    dsrc="$B/layoutc/${id,,}_dyn.mlir"
    "$PY" bench/cases.py --dynamic-mlir "$dsrc.new" --cases "$id" \
      $([ "$QUICK" = 1 ] && echo --quick)
    # Replaced only when it changed, so that its object stays up to date.
    if cmp -s "$dsrc.new" "$dsrc"; then rm "$dsrc.new"; else mv "$dsrc.new" "$dsrc"; fi
    compile "$dsrc" "$B/layoutc/${id,,}_dyn" || continue
    DYN_IDS+=("$id")
  done
  if [ "${#OK_IDS[@]}" -gt 0 ]; then
    OK_LIST=$(IFS=,; echo "${OK_IDS[*]}")
    TABLE_SEL=(--cases "$OK_LIST" --suite "$SUITE")
    [ "$QUICK" = 1 ] && TABLE_SEL+=(--quick)
    DYN_LIST=$(IFS=,; echo "${DYN_IDS[*]}")
    TUNED_LIST=$(IFS=,; echo "${TUNED_IDS[*]}")
    "$PY" bench/cases.py --layoutc-table "$B/layoutc/layoutc_table.cpp" \
      --dynamic-cases "$DYN_LIST" --tuned-cases "$TUNED_LIST" \
      --headers "$B/layoutc" "${TABLE_SEL[@]}"
    DRIVER_FLAGS+=(-DBENCH_HAVE_LAYOUTC -I"$B/layoutc" -Iruntime/include)
    DRIVER_SRCS+=("$B/layoutc/layoutc_table.cpp")
    for id in "${OK_IDS[@]}"; do DRIVER_SRCS+=("$B/layoutc/${id,,}.o"); done
    for id in "${DYN_IDS[@]}"; do DRIVER_SRCS+=("$B/layoutc/${id,,}_dyn.o"); done
    for id in "${TUNED_IDS[@]}"; do DRIVER_SRCS+=("$B/layoutc/${id,,}_tuned.o"); done
    DRIVER_LIBS=("$RT" "${DRIVER_LIBS[@]}")
    HAVE_LAYOUTC=1
    REV=$(git rev-parse --short HEAD 2>/dev/null || echo '?')
    git diff --quiet HEAD 2>/dev/null || REV="$REV+changes"
    LAYOUTC_NOTE="layoutc: $LAYOUTC ${FLAGS:-(default target)} (tree $REV, binary of $(date -u -r "$LAYOUTC" '+%H:%M UTC'), f_raw entry points)"
    if [ -n "$BASELINE" ]; then
      LAYOUTC_NOTE+="; base: $BASELINE (binary of $(date -u -r "$BASELINE" '+%H:%M UTC'))"
    elif [ "$TUNED" = 1 ]; then
      LAYOUTC_NOTE+="; tuned: --wisdom=$TUNE_FILE"
      [ -z "$WISDOM" ] && LAYOUTC_NOTE+=" (tuned in this run at $TUNE_THREADS thread(s))"
    fi
  else
    LAYOUTC_NOTE="layoutc: compile failed"
  fi
fi

# ---- driver -------------------------------------------------------------------
log "building the driver"
"$CXX" "${DRIVER_FLAGS[@]}" "${DRIVER_SRCS[@]}" -o "$B/driver" "${DRIVER_LIBS[@]}"

# ---- run ------------------------------------------------------------------------
LOAD=$(cut -d' ' -f1 /proc/loadavg)
BUSY=""
if awk -v l="$LOAD" 'BEGIN { exit !(l > 0.5) }'; then
  BUSY="WARNING: load average $LOAD at start: other work is running, timings are noisy"
  log "$BUSY"
fi
RES="$B/results.tsv"
: >"$RES"
DRIVER_ARGS=(--threads "$THREADS" --min-runs "$MIN_RUNS")
[ "$HAVE_LAYOUTC" = 1 ] || DRIVER_ARGS+=(--no-layoutc "${LAYOUTC_NOTE#layoutc: }")
[ "$TUNED" = 1 ] && DRIVER_ARGS+=(--tuned)
HAVE_PEERS=0
if [ "$SUITE" = hptt ]; then
  # Copy limit, layoutc, and the serial naive loop nest as the reference
  # its results are verified against (not timed).
  DRIVER_ARGS+=(--no-naive-timing)
  PEERS_NOTE="NumPy/PyTorch: not run for this suite"
elif "$PY" -c 'import numpy, torch' 2>/dev/null; then
  HAVE_PEERS=1
  PEERS_NOTE="NumPy $("$PY" -c 'import numpy; print(numpy.__version__)'), PyTorch $("$PY" -c 'import torch; print(torch.__version__)')"
else
  log "$PY lacks numpy/torch: no NumPy/PyTorch columns"
  PEERS_NOTE="NumPy/PyTorch: missing in $PY"
fi
# One case at a time, the peers' process right after the driver's, so that
# every column of a row is timed within seconds of its limit: the load from
# other tenants drifts over the minutes a whole suite takes (PyTorch's R3
# at 2 threads read 47-57 GB/s against a 30-36 GB/s read limit timed
# minutes before, and 25-36 GB/s when timed on its own).
START=$(date +%s)
for id in "${IDS[@]}"; do
  grep "^$id " "$B/spec.txt" >"$B/spec-case.txt"
  "$B/driver" "$B/spec-case.txt" "${DRIVER_ARGS[@]}" >>"$RES"
  if [ "$HAVE_PEERS" = 1 ]; then
    "$PY" bench/peers.py "$B/spec-case.txt" --threads "$THREADS" \
      --min-runs "$MIN_RUNS" >>"$RES"
  fi
done
END=$(date +%s)

TABLE_ARGS=(--note "$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC'); measured in $((END - START)) s"
  --note "${LAYOUTC_NOTE/#layoutc:/layoutc}; $HALIDE_NOTE; $PEERS_NOTE")
[ -n "$BUSY" ] && TABLE_ARGS+=(--note "$BUSY")
[ -n "$PLOT" ] && TABLE_ARGS+=(--plot "$PLOT")
[ -n "$BASELINE" ] && TABLE_ARGS+=(--baseline)
"$PY" bench/table.py "$RES" "${TABLE_ARGS[@]}"
