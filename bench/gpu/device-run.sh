#!/usr/bin/env bash
# Everything the GPU runner does on a machine with a GPU, in one command, for
# a short lease (bench/gpu/README.md, "In one call"): build, check, time,
# sanitize, profile. Needs only what scripts/gpu-bench.sh build and run need
# (nvcc, a C compiler, a python3 with CUDA torch); compute-sanitizer and ncu
# are used when found. Each phase has its own time limit, so one that hangs
# leaves the others' results.
#
#   bench/gpu/device-run.sh [OUT]      results under OUT (default $OUT, else
#                                      bench/gpu/build/device-run)
#
# Environment: PHASES (default "build check time variants memcheck racecheck
# ncu"),
# CASES (comma list for check/time/sanitizers, default all), CUDA_ARCH and
# JOBS (passed to the build; default sm_90 and nproc), RUNS (timed samples,
# default 20).
#
# OUT receives at most 8 files (what a lease returns):
#   log.txt        every phase's output, with its exit status and seconds
#   table.txt      the timed table (scripts/gpu-bench.sh run)
#   bench.json     the runner's raw times (--json)
#   memcheck.txt   compute-sanitizer --tool memcheck over the small and odd
#   racecheck.txt  sizes of every case (layoutc's kernels only)
#   ncu.csv        Nsight Compute metrics of every full-size layoutc kernel
#   env.txt        device, driver, nvcc, torch
#   variants.txt   the tables of bench/gpu/build/variants/*/, if any
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
OUT=${1:-${OUT:-$ROOT/bench/gpu/build/device-run}}
mkdir -p "$OUT"
PHASES=${PHASES:-build check time variants memcheck racecheck ncu}
CASES=${CASES:-}
RUNS=${RUNS:-20}
export CUDA_ARCH=${CUDA_ARCH:-sm_90}
export JOBS=${JOBS:-$(nproc)}
export PYTHONUNBUFFERED=1
LOG=$OUT/log.txt
: >"$LOG"

say() { echo "device-run: $*" | tee -a "$LOG"; }

PY=${PYTHON:-}
if [ -z "$PY" ]; then
  for c in "$(command -v python3 || true)" /usr/bin/python3; do
    if [ -n "$c" ] && "$c" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
      PY=$c
      break
    fi
  done
fi
[ -n "$PY" ] || PY=python3
export PYTHON=$PY

RUNNER=("$PY" bench/gpu/runner.py --manifest bench/gpu/generated/manifest.json
  --lib bench/gpu/build/libgpucases.so)
CASE_ARGS=()
[ -n "$CASES" ] && CASE_ARGS=(--cases "$CASES")

# phase NAME LIMIT_SECONDS CMD...: runs CMD with its output in the log,
# records its status and time; the script goes on whatever it returns.
declare -A STATUS
phase() {
  local name=$1 limit=$2
  shift 2
  say "== $name (limit ${limit}s): $*"
  local t0=$SECONDS rc
  timeout --kill-after=10 "$limit" "$@" >>"$LOG" 2>&1
  rc=$?
  STATUS[$name]="exit $rc, $((SECONDS - t0)) s"
  [ "$rc" = 124 ] && STATUS[$name]+=" (timed out)"
  say "== $name: ${STATUS[$name]}"
  return "$rc"
}

wants() { [[ " $PHASES " == *" $1 "* ]]; }

{
  date -u
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv 2>&1
  nvidia-smi 2>&1 | head -20
  nvcc --version 2>&1 | tail -2 || /usr/local/cuda/bin/nvcc --version 2>&1 | tail -2
  "$PY" -c 'import torch; p = torch.cuda.get_device_properties(0); print("torch", torch.__version__, "cuda", torch.version.cuda, p.name, p.multi_processor_count, "SMs", p.total_memory >> 20, "MiB")' 2>&1
  command -v compute-sanitizer ncu 2>&1
  compute-sanitizer --version 2>&1 | tail -1
  compute-sanitizer --help 2>&1 | grep -i -A2 'kernel-name\|kernel-regex' | head -8
} >"$OUT/env.txt"
cat "$OUT/env.txt" >>"$LOG"

if wants build; then
  phase build 120 scripts/gpu-bench.sh build
fi
if wants check; then
  # small and odd sizes, the bad-DLTensor rejections, the limit kernels.
  phase check 120 "${RUNNER[@]}" --check-only "${CASE_ARGS[@]}"
fi
if wants time; then
  # The full sizes: checked, then timed against the limits.
  phase time 240 "${RUNNER[@]}" --sizes full --runs "$RUNS" \
    --json "$OUT/bench.json" "${CASE_ARGS[@]}"
  # The table is the end of the phase's output.
  awk '/^Device: /{p=1} p' "$LOG" | sed '/^device-run: /d' >"$OUT/table.txt"
fi

if wants variants; then
  # Other code generation choices for the same cases, each a directory of
  # generated files with its manifest (prepared by bench/gpu/variants.sh),
  # built and timed here, in the same lease as the table above.
  for v in bench/gpu/build/variants/*/; do
    [ -f "$v/manifest.json" ] || continue
    name=$(basename "$v")
    {
      echo "== variant $name: $(cat "$v/what" 2>/dev/null)"
    } >>"$OUT/variants.txt"
    phase "variant-$name-build" 120 env GPU_BENCH_GENERATED="$ROOT/$v" \
      GPU_BENCH_BUILD_DIR="$ROOT/$v/build" scripts/gpu-bench.sh build
    timeout 240 "$PY" bench/gpu/runner.py --manifest "$v/manifest.json" \
      --lib "$v/build/libgpucases.so" --sizes full --runs "$RUNS" \
      >>"$OUT/variants.txt" 2>&1
    echo "== variant $name: exit $?" >>"$OUT/variants.txt"
  done
fi

SAN=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null || true)
# Only layoutc's kernels (named <function>__k<n>_<strategy>) are
# instrumented: PyTorch's own kernels are not ours to check, and racecheck
# over them would take most of the lease. A caching allocator hides
# out-of-bounds accesses inside its pooled blocks, so every tensor is its
# own cudaMalloc.
for tool in memcheck racecheck; do
  wants "$tool" || continue
  if [ -z "$SAN" ]; then
    say "$tool: no compute-sanitizer"
    continue
  fi
  filter=()
  # (grep -q would close the pipe early: under pipefail a SIGPIPE'd --help
  # reads as "no such option".)
  if "$SAN" --help 2>&1 | grep -c -- '--kernel-name' >/dev/null; then
    filter=(--kernel-name kns=__k)
  fi
  phase "$tool" 180 env PYTORCH_NO_CUDA_MEMORY_CACHING=1 "$SAN" --tool "$tool" \
    "${filter[@]}" --error-exitcode 99 --print-limit 50 \
    --log-file "$OUT/$tool.txt" \
    "${RUNNER[@]}" --check-only --sizes small,odd "${CASE_ARGS[@]}"
  tail -3 "$OUT/$tool.txt" | sed 's/^/  /' | tee -a "$LOG"
done

if wants ncu; then
  NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null || true)
  if [ -z "$NCU" ]; then
    say "ncu: not found"
  else
    # One launch of each full-size kernel (function names without _small or
    # _odd): time, DRAM traffic, achieved occupancy, global sectors per
    # request, shared-memory bank conflicts.
    metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
    metrics+=,dram__throughput.avg.pct_of_peak_sustained_elapsed
    metrics+=,sm__warps_active.avg.pct_of_peak_sustained_active
    metrics+=,sm__maximum_warps_per_active_cycle_pct
    metrics+=,launch__registers_per_thread,launch__grid_size,launch__block_size
    metrics+=,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem
    metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
    metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
    metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
    metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
    metrics+=,smsp__inst_executed.sum,lts__t_sectors_srcunit_tex_op_read.sum
    phase ncu 150 "$NCU" --clock-control none --csv --page raw \
      --kernel-name 'regex:^[a-z]+[0-9]+__k' --metrics "$metrics" \
      --log-file "$OUT/ncu.csv" \
      "${RUNNER[@]}" --check-only --sizes full "${CASE_ARGS[@]}"
  fi
fi

say "summary:"
for p in build check time memcheck racecheck ncu; do
  [ -n "${STATUS[$p]:-}" ] && say "  $p: ${STATUS[$p]}"
done
[ -f "$OUT/table.txt" ] && cat "$OUT/table.txt"
exit 0
