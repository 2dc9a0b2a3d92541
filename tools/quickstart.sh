#!/usr/bin/env bash
# The README's Quick start, for a fresh Debian 12 machine (as root, or with sudo):
#   bash tools/quickstart.sh demo   install what is missing, build, run `kindred demo`
#   bash tools/quickstart.sh test   install what is missing, build, run every test
# Packages come from Debian's archive only; nothing is downloaded from elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-}
case "$mode" in demo|test) ;; *) echo "usage: bash tools/quickstart.sh demo|test" >&2; exit 2 ;; esac

# What building needs, and what the tests add (why each is there: README.md, "Dependencies").
build_pkgs=(meson ninja-build pkg-config g++ python3 libopenblas-dev liblapacke-dev liblbfgs-dev)
test_pkgs=(libcmocka-dev doxygen python3-numpy python3-sklearn python3-pytest python3-cffi
           r-base-dev r-cran-testthat)
# clang and its runtimes (libFuzzer, sanitizers): the fuzzing build of .ci/run (tests/fuzz).
test_pkgs+=(clang libclang-rt-14-dev)
# The CLI's pictures rendered to PNG, `kindred ask` through a pseudo-terminal, the Python binding's plots.
test_pkgs+=(librsvg2-bin python3-pil tmux python3-matplotlib)
pkgs=("${build_pkgs[@]}")
[ "$mode" = test ] && pkgs+=("${test_pkgs[@]}")
# cargo for the Rust binding: Debian's, unless a Rust toolchain is already there.
[ "$mode" = test ] && ! command -v cargo >/dev/null 2>&1 && pkgs+=(cargo)

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  echo "installing: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [ -d build ]; then meson setup --reconfigure build >/dev/null; else meson setup build; fi
ninja -C build

if [ "$mode" = demo ]; then
  exec build/tools/kindred/kindred demo
fi

meson test -C build --print-errorlogs

# The bindings are tested against an installed copy of the library, as users get it:
# install into a staging directory, and make its kindred.pc name where it really is.
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
meson install -C build --destdir "$stage" --no-rebuild --quiet >/dev/null
prefix="$stage$(meson introspect build --buildoptions | python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]=="prefix"][0])')"
sed -i "s|^prefix=.*|prefix=$prefix|" "$(find "$prefix" -name kindred.pc)"
bash bindings/run_tests.sh "$prefix"
