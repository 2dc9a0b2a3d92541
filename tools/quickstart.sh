#!/usr/bin/env bash
# The README's Quick start, for a fresh Debian 12 machine (as root, or with sudo):
#   bash tools/quickstart.sh demo   install what is missing, build, run `kindred demo`
#   bash tools/quickstart.sh test   install what is missing, build, run every test
# Packages come from Debian's archive only; nothing is downloaded from elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-}
case "$mode" in demo|test) ;; *) echo "usage: bash tools/quickstart.sh demo|test [--print-packages]" >&2; exit 2 ;; esac

# What building needs, and what the tests add (why each is there: README.md, "Dependencies").
build_pkgs=(meson ninja-build pkg-config g++ python3 libopenblas-dev liblapacke-dev liblbfgs-dev)
test_pkgs=(libcmocka-dev doxygen python3-numpy python3-sklearn python3-pytest python3-cffi
           r-base-dev r-cran-testthat)
# clang and its runtimes (libFuzzer, sanitizers): the fuzzing build of .ci/run (tests/fuzz).
test_pkgs+=(clang libclang-rt-14-dev)
# The CLI's pictures rendered to PNG, `kindred ask` through a pseudo-terminal, the Python binding's plots.
test_pkgs+=(librsvg2-bin python3-pil tmux python3-matplotlib)
# issue 24 (shipping): the ABI check, R's sparse input, and Debian's own cargo (the Rust
# binding is tested with it as well as with any newer toolchain already on the machine).
test_pkgs+=(abigail-tools r-cran-matrix cargo)
# issue 27: sharded fits across MPI processes (tests/mpi: include/kindred_mpi.h under mpirun, and
# the Python binding over mpi4py). Test-only: libkindred and the demo never need MPI.
test_pkgs+=(openmpi-bin libopenmpi-dev python3-mpi4py)
# issue 27: kindred.dask (block predict, fits as tasks) tested on a LocalCluster (bindings/python/tests/test_dask.py).
test_pkgs+=(python3-dask python3-distributed)
pkgs=("${build_pkgs[@]}")
[ "$mode" = test ] && pkgs+=("${test_pkgs[@]}")

# --print-packages: the list this mode installs, one a line (tools/check_quickstart_packages.py
# compares it with what meson requires in this mode).
if [ "${2:-}" = --print-packages ]; then printf '%s\n' "${pkgs[@]}"; exit 0; fi

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  echo "installing: ${missing[*]}"
  $SUDO apt-get update -qq
  # Wait for another apt to end rather than fail. An install interrupted earlier leaves dpkg
  # half-done, and apt refuses to go on until it is finished: finish it, then try once more.
  install() { DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
                -o DPkg::Lock::Timeout=900 "${missing[@]}"; }
  install || { $SUDO dpkg --configure -a && install; }
fi

# The demo needs no test framework: tests are a meson option (meson_options.txt). The test mode
# asks for them explicitly, so that a missing cmocka is an error and not a smaller suite; the demo
# keeps whatever an existing build/ has, and a new one without them.
setup_opts=(); [ "$mode" = test ] && setup_opts=(-Dtests=enabled)
new_opts=("${setup_opts[@]}"); [ "$mode" = demo ] && new_opts=(-Dtests=disabled)
# An interrupted run may leave build/ half-configured (no coredata.dat, or a reconfigure that
# fails): start it again. Only a directory that meson made, or an empty one, is removed.
if [ -f build/meson-private/coredata.dat ] && meson setup --reconfigure build "${setup_opts[@]}" >/dev/null; then
  :
else
  if [ -e build ] && [ -n "$(ls -A build)" ] && [ ! -d build/meson-private ] && [ ! -d build/meson-logs ]; then
    echo "quickstart: build/ exists and was not made by meson; move it away and run again" >&2; exit 1
  fi
  [ -e build ] && echo "quickstart: build/ is not a usable build tree (interrupted run?); configuring it again"
  rm -rf build
  meson setup build "${new_opts[@]}"
fi

if [ "$mode" = demo ]; then
  ninja -C build tools/kindred/kindred
  exec build/tools/kindred/kindred demo
fi
ninja -C build

meson test -C build --print-errorlogs

# The bindings are tested against an installed copy of the library, as users get it:
# install into a staging directory, and make its kindred.pc name where it really is.
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
meson install -C build --destdir "$stage" --no-rebuild --quiet >/dev/null
prefix="$stage$(meson introspect build --buildoptions | python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]=="prefix"][0])')"
sed -i "s|^prefix=.*|prefix=$prefix|" "$(find "$prefix" -name kindred.pc)"
bash bindings/run_tests.sh "$prefix"
