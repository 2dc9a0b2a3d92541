#!/bin/sh
# Build and test the four bindings against a built or installed libkindred.
#
#   bindings/run_tests.sh BUILD_DIR       a meson build directory (library in BUILD_DIR/src)
#   bindings/run_tests.sh PREFIX          an install prefix (after `meson install`)
#   bindings/run_tests.sh                 whatever `pkg-config kindred` finds
#
# Runs: the header/binding signature checks (Python cdef, Rust kindred-sys, Julia ccalls and the
# checker's own test), the README examples (and that the README shows them as they are), pytest,
# the Python binding's fit_shard under mpirun (openmpi-bin, python3-mpi4py),
# cargo test / run / doc --offline --locked with each cargo here (Debian's and a newer one),
# R CMD build + R CMD check --as-cran (+ testthat), and Julia's own tests when a `julia` program
# exists. Exits non-zero if anything fails.
# Environment: KINDRED_SKIP_R=1 skips the R package (when R is not installed); PYTHON (default
# /usr/bin/python3, which has numpy); KINDRED_CLI overrides the command-line program used by the
# Python test that compares results with it.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
PYTHON=${PYTHON:-/usr/bin/python3}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kindred-bindings.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
FAILED=""

fail() { FAILED="$FAILED
  $1"; echo "*** FAILED: $1"; }
step() { echo; echo "=== $1"; }

# ---- where the library is -------------------------------------------------------------------
TARGET=${1:-}
if [ -n "$TARGET" ] && [ -e "$TARGET/src/libkindred.so.0" ]; then
  BUILD=$(cd "$TARGET" && pwd)
  LIBDIR="$BUILD/src"
  HEADER="$REPO/include/kindred.h"
  CLI="$BUILD/tools/kindred/kindred"
  export KINDRED_LIB="$LIBDIR" KINDRED_INCLUDE="$REPO/include"
  unset KINDRED_PREFIX || true
elif [ -n "$TARGET" ]; then
  PREFIX=$(cd "$TARGET" && pwd)
  LIBDIR=""
  for d in "$PREFIX"/lib "$PREFIX"/lib64 "$PREFIX"/lib/*-linux-gnu*; do
    if [ -e "$d/libkindred.so.0" ]; then LIBDIR="$d"; break; fi
  done
  if [ -z "$LIBDIR" ]; then echo "run_tests.sh: no libkindred.so.0 under $PREFIX" >&2; exit 2; fi
  HEADER="$PREFIX/include/kindred.h"
  CLI="$PREFIX/bin/kindred"
  # the bindings find it the way users' machines do: through pkg-config
  export PKG_CONFIG_PATH="$LIBDIR/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
  unset KINDRED_LIB KINDRED_INCLUDE KINDRED_PREFIX || true
else
  LIBDIR=$(pkg-config --variable=libdir kindred) || { echo "run_tests.sh: pkg-config cannot find kindred" >&2; exit 2; }
  unset KINDRED_LIB KINDRED_INCLUDE KINDRED_PREFIX || true
  HEADER="$(pkg-config --variable=includedir kindred)/kindred.h"
  CLI=$(command -v kindred || true)
fi
LIB="$LIBDIR/libkindred.so.0"
export LD_LIBRARY_PATH="$LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export KINDRED_HEADER="$HEADER" KINDRED_TEST_DATA="$REPO/data"
if [ -z "${KINDRED_CLI:-}" ] && [ -n "$CLI" ] && [ -x "$CLI" ]; then export KINDRED_CLI="$CLI"; fi
if [ -z "${KINDRED_CLI:-}" ]; then
  fail "no kindred program next to the library: the Python test comparing results with the CLI cannot run"
  export KINDRED_CLI=""   # the test then skips instead of looking elsewhere
fi
echo "library: $LIB"
echo "header:  $HEADER"
echo "cli:     ${KINDRED_CLI:-none}"
cd "$REPO" || exit 2

# ---- signatures: every binding against the header --------------------------------------------
step "signatures: Python cdef, Rust kindred-sys, Julia ccalls"
python3 "$HERE/python/tools/gen_cdef.py" --check "$HEADER" || fail "Python cdef differs from $HEADER"
python3 "$HERE/rust/check_sys.py" "$HEADER" --lib "$LIB" || fail "kindred-sys differs from $HEADER"
python3 "$HERE/rust/test_check_sys.py" || fail "the kindred-sys checker's own test"
python3 "$HERE/julia/check_ccalls.py" --header "$HEADER" --lib "$LIB" \
  "$HERE/julia/src" "$HERE/julia/test" "$HERE/julia/example.jl" || fail "Julia ccalls differ from $HEADER"
python3 "$HERE/julia/test_check_ccalls.py" || fail "the Julia ccall checker's own test"

step "README shows the examples exactly as they are in the tree"
python3 - "$HERE/README.md" "$REPO" <<'EOF' || fail "bindings/README.md examples differ from the example files"
import re, sys
text = open(sys.argv[1]).read()
blocks = re.findall(r"<!-- example: (\S+) -->\n```\w*\n(.*?)```", text, flags=re.S)
bad = [path for path, code in blocks if open(sys.argv[2] + "/" + path).read() != code]
if len(blocks) != 4 or bad:
    sys.exit("README examples: %d found, differing: %s" % (len(blocks), bad))
print("ok: the 4 README examples match their files")
EOF

# ---- Python ---------------------------------------------------------------------------------
step "Python: pytest"
PYTHONPATH="$HERE/python" "$PYTHON" -m pytest -q -p no:cacheprovider "$HERE/python/tests" || fail "Python tests"
step "Python: README example"
PYTHONPATH="$HERE/python" "$PYTHON" "$HERE/python/example.py" || fail "Python README example"
# Clusterer.fit_shard over mpi4py, 3 ranks, against this library (tests/mpi runs 1..4 against the build).
step "Python: fit_shard under mpirun -np 3"
if command -v mpirun >/dev/null 2>&1; then
  OVERSUBSCRIBE=""
  mpirun --version 2>/dev/null | grep -q "Open MPI" && OVERSUBSCRIBE=--oversubscribe
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1 PYTHONPATH="$HERE/python" \
    timeout 300 mpirun $OVERSUBSCRIBE -np 3 "$PYTHON" "$HERE/python/tests/mpi_fit_shard.py" || fail "Python fit_shard under mpirun"
else
  fail "mpirun not found (apt-get install openmpi-bin python3-mpi4py): the Python binding's MPI test cannot run"
fi

# ---- Rust -----------------------------------------------------------------------------------
# With every cargo here: Debian 12's own (/usr/bin/cargo, Rust 1.63) and a newer one first on PATH
# (rustup), when they differ. --locked: the committed Cargo.lock must be one that each can read
# and none needs to rewrite (Debian's cargo reads lock files up to version 3).
# (The paths themselves: rustup's proxies decide what to run from the name they are called by.)
CARGOS=$(command -v cargo 2>/dev/null || true)
if [ -x /usr/bin/cargo ] && [ "$CARGOS" != /usr/bin/cargo ]; then CARGOS="$CARGOS /usr/bin/cargo"; fi
[ -n "$CARGOS" ] || fail "cargo not found"
for CARGO in $CARGOS; do
  step "Rust ($("$CARGO" --version)): cargo test --offline --locked"
  export CARGO_TARGET_DIR="$WORK/rust-target-$(echo "$CARGO" | tr / _)"
  # Debian's cargo is a plain program; rustup's proxy needs its own folder on PATH to find rustc.
  RPATH=$(dirname "$CARGO"):$PATH
  (cd "$HERE/rust" && PATH=$RPATH "$CARGO" test --offline --locked) || fail "Rust tests ($CARGO)"
  step "Rust ($CARGO): README example, cargo doc --offline"
  (cd "$HERE/rust" && PATH=$RPATH "$CARGO" run --offline --locked --example quickstart) || fail "Rust README example ($CARGO)"
  (cd "$HERE/rust" && PATH=$RPATH "$CARGO" doc --offline --locked --no-deps) || fail "Rust docs ($CARGO)"
done

# ---- R --------------------------------------------------------------------------------------
if [ "${KINDRED_SKIP_R:-0}" = 1 ]; then
  echo; echo "=== R: skipped (KINDRED_SKIP_R=1)"
elif ! command -v R >/dev/null 2>&1; then
  fail "R not found (apt-get install -y r-base-dev r-cran-testthat, or KINDRED_SKIP_R=1)"
else
  step "R: R CMD build + R CMD check (testthat)"
  MANUAL=""
  command -v pdflatex >/dev/null 2>&1 || MANUAL="--no-manual"
  (cd "$WORK" && R CMD build "$HERE/r" >build.log 2>&1) || { cat "$WORK/build.log"; fail "R CMD build"; }
  if [ -f "$WORK"/kindred_*.tar.gz ]; then
    # --as-cran, as CRAN would check it; its "incoming" part asks CRAN's servers, which this
    # machine cannot reach, so that part alone is off.
    (cd "$WORK" && _R_CHECK_FORCE_SUGGESTS_=false _R_CHECK_CRAN_INCOMING_=false \
       R CMD check --as-cran $MANUAL kindred_*.tar.gz >check.log 2>&1)
    cat "$WORK/check.log"
    # No ERROR, and no WARNING but those that only say a tool is missing here (checkbashisms, from
    # devscripts with its 47 dependencies, is not installed for that one check).
    python3 - "$WORK/check.log" <<'PY' || fail "R CMD check (errors or warnings)"
import re, sys
log = open(sys.argv[1], encoding="utf-8", errors="replace").read()
if not re.search(r"^Status:", log, re.M):
    sys.exit("R CMD check did not finish")
bad = []
for block in re.split(r"^(?=\* )", log, flags=re.M):
    if re.search(r"\.\.\. (ERROR|WARNING)", block):
        if re.search(r"\.\.\. WARNING", block) and re.search(r"needs the '[\w-]+' (script|program)", block):
            print("allowed (a tool missing here): " + " ".join(block.split()))
        else:
            bad.append(block.strip())
if re.search(r"^Status:.*ERROR", log, re.M) and not bad:
    bad.append("an ERROR (see above)")
if bad:
    sys.exit("R CMD check:\n" + "\n".join(bad))
print("ok: R CMD check --as-cran: no error, no warning but missing tools")
PY
    step "R: README example"
    mkdir -p "$WORK/rlib"
    R CMD INSTALL --no-test-load -l "$WORK/rlib" "$WORK"/kindred_*.tar.gz >"$WORK/install.log" 2>&1 \
      || { cat "$WORK/install.log"; fail "R CMD INSTALL"; }
    R_LIBS="$WORK/rlib" Rscript "$HERE/r/example.R" || fail "R README example"
  fi
fi

# ---- Julia ----------------------------------------------------------------------------------
if command -v julia >/dev/null 2>&1; then
  step "Julia: Pkg.test and README example"
  julia --project="$HERE/julia" -e 'using Pkg; Pkg.test()' || fail "Julia tests"
  julia --project="$HERE/julia" "$HERE/julia/example.jl" || fail "Julia README example"
else
  echo; echo "=== Julia: no julia program here; checked by signature only (above)"
fi

echo
if [ -n "$FAILED" ]; then
  echo "run_tests.sh: FAILED:$FAILED"
  exit 1
fi
echo "run_tests.sh: all binding tests passed"
