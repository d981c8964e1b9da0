#!/usr/bin/env bash
# Times `layoutc --emit=obj` on generated programs of 1, 50, 500 and 5000
# functions (bench/codegen/gen.py), at each -j, and prints wall seconds and
# peak memory (GNU time's maximum resident set) per run, plus whether the
# objects of one program are byte-identical across -j.
#
#   bench/codegen/run.sh [--sizes 1,50,500,5000] [--jobs 1,2] [--cases]
#
# --cases uses the heavier program that cycles through bench/cases (every
# benchmark kernel at full and odd sizes) instead of the mixed one.
# Environment: LAYOUTC (default build/bin/layoutc), PYTHON (default
# /usr/bin/python3), OUT (scratch directory, default a temporary one).
set -euo pipefail
cd "$(dirname "$0")/../.."
LAYOUTC=${LAYOUTC:-build/bin/layoutc}
PY=${PYTHON:-/usr/bin/python3}
SIZES=1,50,500,5000
JOBS=1,2
GEN_ARGS=()
while [ $# -gt 0 ]; do
  case "$1" in
  --sizes) SIZES=${2:?}; shift ;;
  --jobs) JOBS=${2:?}; shift ;;
  --cases) GEN_ARGS=(--cases) ;;
  *) echo "usage: $0 [--sizes 1,50,500,5000] [--jobs 1,2] [--cases]" >&2; exit 2 ;;
  esac
  shift
done
[ -x /usr/bin/time ] || { echo "run.sh: needs GNU time (/usr/bin/time)" >&2; exit 2; }
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
echo "# layoutc --emit=obj; $(nproc) CPUs ($cpu); $(date -u +%Y-%m-%dT%H:%MZ)"
echo "# program: bench/codegen/gen.py ${GEN_ARGS[*]:-} N"
printf '%-10s %-4s %10s %12s %12s  %s\n' functions -j wall_s peak_MiB object_KiB same_bytes
IFS=, read -ra sizes <<<"$SIZES"
IFS=, read -ra jobs <<<"$JOBS"
for n in "${sizes[@]}"; do
  "$PY" bench/codegen/gen.py "${GEN_ARGS[@]}" "$n" >"$OUT/p$n.mlir"
  first=""
  for j in "${jobs[@]}"; do
    obj="$OUT/p$n.j$j.o"
    /usr/bin/time -f '%e %M' -o "$OUT/time" "$LAYOUTC" "$OUT/p$n.mlir" \
      --emit=obj -j"$j" -o "$obj"
    read -r wall kib <"$OUT/time"
    same="-"
    if [ -z "$first" ]; then first=$obj
    elif cmp -s "$first" "$obj"; then same=yes
    else same=NO; fi
    printf '%-10s %-4s %10s %12d %12d  %s\n' "$n" "$j" "$wall" $((kib / 1024)) \
      $(($(stat -c %s "$obj") / 1024)) "$same"
  done
done
