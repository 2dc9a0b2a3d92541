#!/usr/bin/env bash
# Compares a built libkindred with the committed ABI baseline (abi/libkindred.so.0.abi) using
# abidiff from abigail-tools, and fails on any change a program built against the baseline could
# notice: a function or variable removed, or a type, parameter or return value changed. Functions
# added in a new version node are compatible and allowed (--no-added-syms).
#   bash tools/check_abi.sh LIB [DEBUG_DIR]     LIB with debug information, or its stripped file
#                                               with DEBUG_DIR the root of its separate debug files
#   bash tools/check_abi.sh --has-debug-info LIB
# CI runs it on the library of the Debian package (.ci/package_test.sh); the baseline is rewritten
# by tools/update_abi_baseline.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)

has_debug_info() { readelf -S --wide "$1" 2>/dev/null | grep -q '\.debug_info'; }

if [ "${1:-}" = --has-debug-info ]; then
  has_debug_info "$2" || { echo "check_abi: $2 has no debug information: abidw and abidiff need it to see the types" >&2; exit 1; }
  exit 0
fi
lib=${1:?usage: check_abi.sh LIB [DEBUG_DIR]}
debug=()
if [ -n "${2:-}" ]; then debug=(--debug-info-dir2 "$2"); else "$0" --has-debug-info "$lib"; fi

set +e
abidiff --no-added-syms --drop-private-types --exported-interfaces-only --headers-dir2 "$here/include" "${debug[@]}" \
  "$here/abi/libkindred.so.0.abi" "$lib"
status=$?
set -e
# abidiff's exit status is a bit set: 1 error, 2 usage, 4 an ABI change, 8 an incompatible one.
if [ "$status" -ne 0 ]; then
  echo "check_abi: $lib differs from abi/libkindred.so.0.abi (abidiff status $status)." >&2
  echo "  If the change is meant, follow docs/conventions.md (ABI) and run tools/update_abi_baseline.sh." >&2
  exit 1
fi
echo "check_abi: $lib keeps the ABI of abi/libkindred.so.0.abi"
