#!/usr/bin/env bash
# Fails when clang-format (14, the .clang-format at the root) would change a C++ or CUDA file
# git tracks; --fix formats them in place instead.
#   tools/check_format.sh          # check (CI)
#   tools/check_format.sh --fix    # format the tree
set -euo pipefail
cd "$(dirname "$0")/.."
format=${CLANG_FORMAT:-clang-format-14}
command -v "$format" > /dev/null || { echo "check_format.sh: $format not found (apt-get install clang-format-14)" >&2; exit 2; }
mapfile -t files < <(git ls-files -- '*.cpp' '*.hpp' '*.h' '*.cu' '*.cuh' ':!:tests/fuzz/corpus/*')
if [ "${1:-}" = "--fix" ]; then
  "$format" -i "${files[@]}"
else
  "$format" --dry-run --Werror "${files[@]}"
  echo "check_format.sh: ${#files[@]} files formatted as .clang-format says"
fi
