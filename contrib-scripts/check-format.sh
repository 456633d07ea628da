#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Checks that every C++ file of the module is formatted with the repository's .clang-format
# (ns-3.37's file, verbatim). Usage: check-format.sh <module-root> [clang-format]
#   --fix as the third argument reformats in place instead of checking.
# Exit 0: formatted; 1: files differ (listed); 77: no clang-format 14 to check with (CTest
# reports the test as skipped: other clang-format versions break lines differently).
set -euo pipefail
root=${1:?usage: check-format.sh <module-root> [clang-format] [--fix]}
cf=${2:-clang-format}
mode=${3:-check}
if ! command -v "$cf" >/dev/null 2>&1; then
  echo "check-format: $cf not found (Debian package clang-format)" >&2
  exit 77
fi
major=$("$cf" --version | sed -n 's/.*version \([0-9]*\).*/\1/p')
if [ "$major" != "14" ]; then
  echo "check-format: $cf is version $major; the files are formatted with clang-format 14" >&2
  exit 77
fi
cd "$root"
mapfile -t files < <(find model helper test bench bindings examples contrib-scripts doc \
  -type f \( -name '*.h' -o -name '*.cc' \) -not -path '*/build*' | sort)
if [ "$mode" = "--fix" ]; then
  "$cf" -i "${files[@]}"
  exit 0
fi
if "$cf" --dry-run --Werror "${files[@]}" >/dev/null 2>&1; then
  echo "check-format: ${#files[@]} files formatted"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  if ! "$cf" --dry-run --Werror "$f" >/dev/null 2>&1; then
    bad+=("$f")
  fi
done
if [ ${#bad[@]} -ne 0 ]; then
  echo "check-format: ${#bad[@]} of ${#files[@]} files are not formatted (fix: $0 $root $cf --fix):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
