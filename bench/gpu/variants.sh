#!/usr/bin/env bash
# Prepares variants of the GPU cases for bench/gpu/device-run.sh: the same
# cases generated with other layoutc options, one directory each under
# bench/gpu/build/variants/ (ignored by git; carry it to the GPU machine).
#
#   bench/gpu/variants.sh NAME CASES [layoutc options...]
#   e.g. bench/gpu/variants.sh lanes8 P1,P4,P7,P8 --cuda-transpose-load-lanes=8
#
# Environment: LAYOUTC (default build/bin/layoutc).
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 2 ] || {
  sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
}
name=$1 cases=$2
shift 2
LAYOUTC=$(realpath "${LAYOUTC:-build/bin/layoutc}")
dir=bench/gpu/build/variants/$name
rm -rf "$dir"
mkdir -p "$dir"
# manifest.py runs one binary: a wrapper adds the options.
printf '#!/bin/sh\nexec %q %s "$@"\n' "$LAYOUTC" "$*" >"$dir/layoutc"
chmod +x "$dir/layoutc"
echo "layoutc $* (cases $cases)" >"$dir/what"
/usr/bin/python3 bench/gpu/manifest.py --layoutc "$dir/layoutc" --out "$dir" \
  --cases "$cases" --clean
