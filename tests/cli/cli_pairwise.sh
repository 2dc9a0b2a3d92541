#!/bin/sh
# Pairwise methods and active selection through the command-line program:
# `kindred sample` -> `kindred fit copkmeans|pckmeans|mpckmeans --pairs`,
# fit -> save -> predict for mpckmeans, `kindred active` (pairs file within the
# budget, with an algorithm: JSON with NMI), `kindred eval --active`, and bad
# input (unknown strategy, --active without --pairs-count, infeasible copkmeans).
# usage: cli_pairwise.sh KINDRED DATA_DIR
set -eu
kindred=$1
data=$2/iris.csv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$kindred" sample --data "$data" --pairs-count 40 --seed 2 --out "$tmp/p.csv" >/dev/null
for a in pckmeans mpckmeans; do
  "$kindred" fit $a --data "$data" --k 3 --pairs "$tmp/p.csv" --out "$tmp/$a.csv" --json > "$tmp/$a.json"
  grep -q "\"algorithm\": \"$a\"" "$tmp/$a.json" || fail "fit $a --json"
  [ "$(wc -l < "$tmp/$a.csv")" -eq 151 ] || fail "$a: 150 labels expected"
done
"$kindred" fit mpckmeans --data "$data" --k 3 --pairs "$tmp/p.csv" --distortion euclidean-full --out "$tmp/f.csv" --model "$tmp/m.kdm" >/dev/null
"$kindred" predict --model "$tmp/m.kdm" --data "$data" --out "$tmp/g.csv" >/dev/null
[ "$(wc -l < "$tmp/g.csv")" -eq 151 ] || fail "predict: 150 labels expected"

"$kindred" active explore-consolidate --data "$data" --budget 30 --seed 1 --out "$tmp/a.csv" >/dev/null
[ "$(head -1 "$tmp/a.csv")" = "i,j,value" ] || fail "active: pairs file header"
rows=$(($(wc -l < "$tmp/a.csv") - 1))
[ "$rows" -ge 25 ] && [ "$rows" -le 32 ] || fail "active: $rows pairs for a budget of 30 queries (+ inferred)"
"$kindred" fit copkmeans --data "$data" --k 3 --pairs "$tmp/a.csv" --out "$tmp/c.csv" >/dev/null || fail "copkmeans with exact pairs"

"$kindred" active mpckmeans --data "$data" --budget 40 --json > "$tmp/am.json"
grep -q '"nmi"' "$tmp/am.json" || fail "active ALGORITHM --json has no nmi"
grep -q '"queries": 40' "$tmp/am.json" || fail "active: 40 queries expected"

"$kindred" eval mpckmeans --data "$data" --pairs-count 30 --active explore-consolidate --repeats 2 --json > "$tmp/e.json"
grep -q 'chosen by explore-consolidate' "$tmp/e.json" || fail "eval --active not reported"

# Bad input: usage errors exit 2, runtime errors 1, each with a message.
if "$kindred" active nonsense --data "$data" --budget 3 2> "$tmp/err"; then fail "unknown strategy accepted"; fi
grep -q "unknown algorithm 'nonsense'" "$tmp/err" || fail "unknown strategy message"
if "$kindred" active explore --data "$data" 2> "$tmp/err"; then fail "missing --budget accepted"; fi
grep -q -- "--budget" "$tmp/err" || fail "missing --budget message"
if "$kindred" eval mpckmeans --data "$data" --active explore 2> "$tmp/err"; then fail "--active without --pairs-count accepted"; fi
grep -q -- "--pairs-count" "$tmp/err" || fail "--active message"
printf 'i,j,value\n0,1,-1\n0,2,-1\n1,2,-1\n' > "$tmp/bad.csv"
set +e
"$kindred" fit copkmeans --data "$data" --k 2 --pairs "$tmp/bad.csv" 2> "$tmp/err"
status=$?
set -e
[ "$status" -ne 0 ] || fail "infeasible copkmeans accepted"
grep -q "cannot be placed" "$tmp/err" || fail "copkmeans infeasibility message"
echo "cli_pairwise: ok"
