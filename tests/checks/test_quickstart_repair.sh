#!/bin/sh
# tools/quickstart.sh's handling of build/ after an interrupted run, with meson, ninja and the
# package tools replaced by stubs that record how they are called (so no package is installed and
# nothing is built). Usage: test_quickstart_repair.sh QUICKSTART_SH
set -u
quickstart=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/kindred-qs.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $1"; failures=$((failures + 1)); }

mkdir -p "$work/bin"
# every package is "installed"; meson setup makes a build tree, unless MESON_SETUP_FAILS; a
# reconfigure fails when RECONFIGURE_FAILS; ninja makes a kindred program that says it ran.
cat > "$work/bin/dpkg-query" <<'S'
#!/bin/sh
printf 'install ok installed'
S
cat > "$work/bin/meson" <<'S'
#!/bin/sh
echo "meson $*" >> "$LOG"
case "$1 $2" in
  "setup --reconfigure") [ -z "${RECONFIGURE_FAILS:-}" ] || exit 1; exit 0 ;;
  "setup build") mkdir -p build/meson-private build/meson-logs && : > build/meson-private/coredata.dat ;;
  test*) exit 3 ;;  # the test mode stops here: only its configuration is under test
esac
S
cat > "$work/bin/ninja" <<'S'
#!/bin/sh
echo "ninja $*" >> "$LOG"
mkdir -p build/tools/kindred
printf '#!/bin/sh\necho "kindred $*"\n' > build/tools/kindred/kindred
chmod +x build/tools/kindred/kindred
S
chmod +x "$work/bin/"*

run() {  # run MODE in a fresh copy of the tree layout; $tree/build prepared by the caller
  LOG="$tree/log" PATH="$work/bin:$PATH" bash "$tree/tools/quickstart.sh" "$1" > "$tree/out" 2>&1
}
new_tree() {
  tree="$work/tree$1"
  mkdir -p "$tree/tools"
  cp "$quickstart" "$tree/tools/quickstart.sh"
  : > "$tree/log"
}

# 1. no build/: configured without the test suite, and the demo runs
new_tree 1
run demo || fail "demo without build/: $(cat "$tree/out")"
grep -q "meson setup build -Dtests=disabled" "$tree/log" || fail "demo: not configured with -Dtests=disabled: $(cat "$tree/log")"
grep -q "kindred demo" "$tree/out" || fail "demo did not run kindred demo"

# 2. what an interrupted `meson setup` leaves (logs, no coredata): configured again
new_tree 2
mkdir -p "$tree/build/meson-logs" "$tree/build/meson-private"
run demo || fail "demo after an interrupted setup: $(cat "$tree/out")"
grep -q "not a usable build tree" "$tree/out" || fail "no word about the broken build/"
grep -q "meson setup build -Dtests=disabled" "$tree/log" || fail "the broken build/ was not configured again"

# 3. a build tree whose reconfigure fails: made again
new_tree 3
mkdir -p "$tree/build/meson-private" && : > "$tree/build/meson-private/coredata.dat"
RECONFIGURE_FAILS=1 run demo || fail "demo after a failing reconfigure: $(cat "$tree/out")"
grep -q "meson setup build -Dtests=disabled" "$tree/log" || fail "a failing reconfigure did not lead to a new setup"

# 4. a valid tree is kept (reconfigured, not wiped), in either mode
new_tree 4
mkdir -p "$tree/build/meson-private" && : > "$tree/build/meson-private/coredata.dat" && : > "$tree/build/keep"
run demo || fail "demo on a valid tree: $(cat "$tree/out")"
[ -e "$tree/build/keep" ] || fail "a valid build/ was wiped"
grep -q "meson setup --reconfigure build$" "$tree/log" || fail "demo: no plain reconfigure: $(cat "$tree/log")"
run test
grep -q "meson setup --reconfigure build -Dtests=enabled" "$tree/log" || fail "test: tests not asked for: $(cat "$tree/log")"
[ -e "$tree/build/keep" ] || fail "the test mode wiped a valid build/"

# 5. a build/ that meson did not make is left alone, with a message
new_tree 5
mkdir -p "$tree/build" && echo mine > "$tree/build/notes.txt"
if run demo; then fail "a foreign build/ was accepted"; fi
grep -q "not made by meson" "$tree/out" || fail "no message about the foreign build/: $(cat "$tree/out")"
[ -e "$tree/build/notes.txt" ] || fail "a foreign build/ was removed"

# 6. the test mode on a new tree asks for the tests
new_tree 6
run test
grep -q "meson setup build -Dtests=enabled" "$tree/log" || fail "test: new tree without -Dtests=enabled: $(cat "$tree/log")"

[ "$failures" -eq 0 ] && echo "ok: quickstart.sh configures, repairs and keeps build/ as it should"
exit "$failures"
