#!/usr/bin/env bash
# The Debian packages, built and used as a user gets them (run by .ci/run, as root on a Debian 12
# machine; it installs what packaging needs):
#   1. dpkg-buildpackage -us -uc -b on a copy of the tree (DEB_BUILD_OPTIONS=nocheck: CI runs the
#      test suite in its own step), and lintian, which must report no error;
#   2. the packaged library against the ABI baseline (tools/check_abi.sh, with the -dbgsym debug
#      information);
#   3. the .debs installed on this machine with apt; the README's C example compiled with
#      pkg-config, linked dynamically and statically, and run; `kindred demo` run from /usr/bin; the
#      Python module imported from python3-kindred, finding the system library;
#   4. the packages removed again (unless --keep).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
keep=0; [ "${1:-}" = --keep ] && keep=1

# What packaging needs beyond the build itself (the Build-Depends of debian/control).
pkg_tools=(dpkg-dev debhelper dh-python fakeroot lintian abigail-tools binutils
           meson ninja-build pkg-config python3 g++ libopenblas-dev liblapacke-dev liblbfgs-dev)
missing=()
for p in "${pkg_tools[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=900 "${missing[@]}"
fi

work=$(mktemp -d /tmp/kindred-deb.XXXXXX)
installed=()
cleanup() {
  if [ "$keep" = 0 ] && [ ${#installed[@]} -gt 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq "${installed[@]}" >/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

step() { echo; echo "=== $1"; }

step "dpkg-buildpackage"
src="$work/kindred-0.1.0"
mkdir -p "$src"
# the tracked files (and new ones not ignored): never a build directory
if git -C "$here" rev-parse --git-dir >/dev/null 2>&1; then
  (cd "$here" && git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$src")
else  # a tree without git (a copied release): everything but what builds leave
  tar -C "$here" --exclude=./build --exclude='./build-*' --exclude=.git -cf - . | tar -C "$src" -xf -
fi
(cd "$src" && DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" DEB_BUILD_PROFILES=nocheck dpkg-buildpackage -us -uc -b) > "$work/build.log" 2>&1 \
  || { tail -60 "$work/build.log"; echo "dpkg-buildpackage failed (log above)" >&2; exit 1; }
grep -E "^dpkg-(gensymbols|shlibdeps)|warning" "$work/build.log" | grep -v "^dpkg-buildpackage" | head -20 || true
ls "$work"/*.deb

step "lintian"
lintian --fail-on error --info --tag-display-limit 0 "$work"/*.changes

step "ABI of the packaged library against abi/libkindred.so.0.abi"
mkdir -p "$work/lib" "$work/dbg"
dpkg-deb -x "$work"/libkindred0_*.deb "$work/lib"
dbgsym=$(ls "$work"/libkindred0-dbgsym_*.*deb)
dpkg-deb -x "$dbgsym" "$work/dbg"
bash "$here/tools/check_abi.sh" "$(ls "$work"/lib/usr/lib/*/libkindred.so.0.*)" "$work/dbg/usr/lib/debug"

step "install the packages"
for deb in "$work"/*.deb; do
  case "$deb" in *-dbgsym_*) continue ;; esac
  installed+=("$(dpkg-deb -f "$deb" Package)")
done
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=900 \
  $(ls "$work"/*.deb | grep -v -- -dbgsym_)
dpkg -L kindred libkindred-dev | grep -E "bin/kindred$|man1/kindred.1|kindred.h$|kindred.pc$|libkindred.a$|api-guide"

step "the README's C example, with pkg-config (dynamic, then static)"
cd "$work"
cc -Wall -o example "$here/docs/examples/quickstart.c" $(pkg-config --cflags --libs kindred)
./example
readelf -d example | grep -q "NEEDED.*libkindred.so.0" || { echo "example does not use the shared library" >&2; exit 1; }
cc -Wall -o example-static "$here/docs/examples/quickstart.c" $(pkg-config --cflags kindred) \
  -Wl,--as-needed -Wl,-Bstatic -lkindred -Wl,-Bdynamic $(pkg-config --static --libs kindred)
./example-static
if readelf -d example-static | grep -q "NEEDED.*libkindred"; then
  echo "example-static still needs libkindred.so" >&2; exit 1
fi
cmp <(./example) <(./example-static)

step "kindred demo from /usr/bin"
[ "$(command -v kindred)" = /usr/bin/kindred ] || { echo "kindred is not /usr/bin/kindred: $(command -v kindred)" >&2; exit 1; }
(cd / && env -u KINDRED_LIB -u KINDRED_PREFIX /usr/bin/kindred demo)
man -w kindred >/dev/null 2>&1 || [ -e /usr/share/man/man1/kindred.1.gz ]

step "the Python module from python3-kindred"
(cd / && env -u KINDRED_LIB -u KINDRED_PREFIX -u PYTHONPATH /usr/bin/python3 - <<'PY'
import numpy as np, kindred
assert kindred.library_path in ("libkindred.so.0",) or kindred.library_path.startswith("/usr/lib/"), kindred.library_path
X = np.array([[0.0, 0.1], [0.2, 0.0], [5.0, 5.1], [5.2, 4.9], [9.0, 9.1], [9.2, 8.8]])
m = kindred.PCKMeans(k=3, seed=1).fit(X, ml=[(0, 1)], cl=[(2, 4)])
print("python3-kindred:", kindred.__version__, kindred.library_path, m.labels_)
PY
)
echo; echo "test_debian_packages: all passed"
