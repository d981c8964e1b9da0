#!/usr/bin/env bash
# Lists the C++ sources under dialect/ and compiler/ over 800 lines and the
# functions over 120 lines (Universal Ctags' function extents), the limits
# docs/internals/architecture.md sets; exits 1 if there is any. Needs
# Universal Ctags (scripts/install-deps.sh installs it).
#   check-sizes.sh [FILE_LIMIT [FUNCTION_LIMIT]]
set -euo pipefail
cd "$(dirname "$0")/.."
file_limit=${1:-800}
fn_limit=${2:-120}
bad=0
while read -r file; do
  lines=$(wc -l <"$file")
  if ((lines > file_limit)); then
    echo "$file: $lines lines"
    bad=1
  fi
  while IFS=$'\t' read -r n name; do
    echo "$file: $name: $n lines"
    bad=1
  done < <(ctags --fields=+nKe -o - "$file" |
    awk -F'\t' -v lim="$fn_limit" '{
      l = e = k = "";
      for (i = 1; i <= NF; i++) {
        if ($i ~ /^line:/) l = substr($i, 6);
        if ($i ~ /^end:/) e = substr($i, 5);
        if ($i == "function") k = $i;
      }
      if (k == "function" && e != "" && e - l + 1 > lim)
        printf "%d\t%s\n", e - l + 1, $1
    }')
done < <(if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git ls-files 'dialect/*.cpp' 'dialect/*.h' 'compiler/*.cpp' 'compiler/*.h'
else
  find dialect compiler -name '*.cpp' -o -name '*.h' | sort
fi)
exit $bad
