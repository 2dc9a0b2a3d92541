#!/usr/bin/env bash
# Rewrites the two records of the released ABI from the tree, after a deliberate change of it:
#   abi/libkindred.so.0.abi        abidw's description of the library (types included), which CI
#                                  compares the packaged library with (tools/check_abi.sh)
#   debian/libkindred0.symbols     the Debian symbols file, one line per symbol of src/kindred.map
# Usage: bash tools/update_abi_baseline.sh
# It builds the library alone in build-abi/ (unoptimised, with debug information: abidw reads the
# types from it; fast to compile, and the optimisation level does not change the ABI).
# Read docs/conventions.md ("ABI") first: a change that breaks the ABI also bumps the SONAME.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 tools/gen_symbols.py src/kindred.map > debian/libkindred0.symbols
echo "wrote debian/libkindred0.symbols"

if [ ! -f build-abi/meson-private/coredata.dat ]; then
  rm -rf build-abi
  meson setup build-abi -Dbuildtype=debug -Dtests=disabled >/dev/null
fi
ninja -C build-abi src/libkindred.so.0.1.0 >/dev/null || ninja -C build-abi
lib=$(readlink -f build-abi/src/libkindred.so.0)
bash tools/check_abi.sh --has-debug-info "$lib"
# only what the exported functions reach, without source locations: the file changes only when the ABI does
abidw --headers-dir include --drop-private-types --exported-interfaces-only --no-show-locs \
  --no-corpus-path --no-comp-dir-path "$lib" > abi/libkindred.so.0.abi
echo "wrote abi/libkindred.so.0.abi from $lib"
