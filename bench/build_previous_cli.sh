#!/usr/bin/env bash
# Builds the `kindred` program of an earlier commit against the library of an
# existing build directory, for bench/csv_read_bench.py: reading a CSV is
# all in the program (tools/kindred), so the library need not be rebuilt.
#   bash bench/build_previous_cli.sh COMMIT BUILD_DIR OUT_EXE
# The flags are those of the release build (-O3 -DNDEBUG, C++17).
set -euo pipefail
cd "$(dirname "$0")/.."
commit=$1 build=$2 out=$3
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT
git archive "$commit" tools/kindred data/iris.csv | tar -x -C "$src"
python3 "$src/tools/kindred/embed_text.py" "$src/data/iris.csv" "$src/bundled_iris.cpp" kBundledIrisCsv
g++ -std=c++17 -O3 -DNDEBUG -Iinclude -I"$src/tools/kindred" "$src"/tools/kindred/*.cpp "$src/bundled_iris.cpp" \
  -L"$build/src" -lkindred -Wl,-rpath,"$(realpath "$build/src")" -o "$out"
