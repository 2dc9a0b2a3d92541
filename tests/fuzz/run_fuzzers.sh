#!/usr/bin/env bash
# Builds the libFuzzer harnesses with clang (ASan + UBSan + coverage), runs
# every committed input once (seeds and kept crashes), then fuzzes each
# harness for SECONDS seconds on a scratch copy of its corpus. A crash fails
# the run; its input is printed and saved under build-fuzz/artifacts/, to be
# committed to tests/fuzz/regressions/<harness>/ with the fix.
#   bash tests/fuzz/run_fuzzers.sh [SECONDS]      (default 60)
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
harnesses=(fuzz_model_load fuzz_csv fuzz_mtx fuzz_side_files fuzz_options fuzz_fit)

if [ ! -d build-fuzz ]; then
  CC=clang CXX=clang++ CFLAGS=-fsanitize=fuzzer-no-link CXXFLAGS=-fsanitize=fuzzer-no-link \
    meson setup build-fuzz -Dtests=enabled -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debugoptimized >/dev/null
fi
ninja -C build-fuzz "${harnesses[@]/#/tests/fuzz/}"

export OPENBLAS_NUM_THREADS=1
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
meson test -C build-fuzz --no-rebuild --suite fuzz --print-errorlogs

artifacts=$PWD/build-fuzz/artifacts
mkdir -p "$artifacts"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for h in "${harnesses[@]}"; do
  cp -r "tests/fuzz/corpus/$h" "$scratch/$h"
  # -timeout: an input running 300 s is reported as a hang (legal options,
  # e.g. tens of thousands of restarts, make one fit of fuzz_options take
  # about a minute under ASan and coverage: slow, not a fault); -rss_limit_mb:
  # one using 2 GiB as a leak or runaway allocation.
  if ! build-fuzz/tests/fuzz/$h -max_total_time="$seconds" -timeout=300 -rss_limit_mb=2048 \
       -artifact_prefix="$artifacts/$h-" -print_final_stats=1 "$scratch/$h" >"$scratch/$h.log" 2>&1; then
    tail -n 60 "$scratch/$h.log"
    echo "fuzzing: $h found a failure; the input is in $artifacts/" >&2
    exit 1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$scratch/$h.log")
  echo "fuzzing: $h ran $runs inputs in ${seconds} s, no failure"
done
