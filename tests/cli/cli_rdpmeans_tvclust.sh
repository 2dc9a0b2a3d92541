#!/bin/sh
# RDP-means and TVClust through the command-line program: `kindred sample`
# writes noisy pairs, `kindred fit rdpmeans|tvclust --pairs` reads them
# (JSON summary, one label per point, save -> predict), `kindred eval` with
# sampled noisy pairs reports JSON, and bad options exit non-zero with a
# message naming the option.
# usage: cli_rdpmeans_tvclust.sh KINDRED DATA_DIR
set -eu
kindred=$1
data=$2/iris.csv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$kindred" sample --data "$data" --pairs-count 300 --noise 0.05 --seed 3 --out "$tmp/p.csv" >/dev/null
[ "$(wc -l < "$tmp/p.csv")" -eq 301 ] || fail "300 pairs expected"

"$kindred" fit rdpmeans --data "$data" --k 3 --pairs "$tmp/p.csv" --out "$tmp/r.csv" --model "$tmp/r.kdm" --json > "$tmp/r.json"
grep -q '"algorithm": "rdpmeans"' "$tmp/r.json" || fail "fit rdpmeans --json"
grep -q '"converged": true' "$tmp/r.json" || fail "rdpmeans did not meet its stopping rule on iris"
[ "$(wc -l < "$tmp/r.csv")" -eq 151 ] || fail "150 labels expected"
"$kindred" predict --model "$tmp/r.kdm" --data "$data" --out "$tmp/rp.csv" >/dev/null
[ "$(wc -l < "$tmp/rp.csv")" -eq 151 ] || fail "rdpmeans predict: 150 labels expected"

"$kindred" fit tvclust --data "$data" --pairs "$tmp/p.csv" --iterations 40 --burn_in 10 --out "$tmp/t.csv" --model "$tmp/t.kdm" --json > "$tmp/t.json"
grep -q '"algorithm": "tvclust"' "$tmp/t.json" || fail "fit tvclust --json"
[ "$(wc -l < "$tmp/t.csv")" -eq 151 ] || fail "150 labels expected"
"$kindred" predict --model "$tmp/t.kdm" --data "$data" --out "$tmp/tp.csv" >/dev/null

for run in "rdpmeans" "tvclust --iterations 30 --burn_in 5"; do
    # shellcheck disable=SC2086
    "$kindred" eval $run --data "$data" --pairs-rate 0.03 --noise 0.1 --repeats 2 --json > "$tmp/e.json"
    grep -q '"f_measure"' "$tmp/e.json" || fail "eval $run --json has no f_measure"
    grep -q '"clusters"' "$tmp/e.json" || fail "eval $run --json has no clusters"
done

if "$kindred" fit rdpmeans --data "$data" --lambda 0 2> "$tmp/err"; then fail "lambda 0 accepted"; fi
grep -q "lambda" "$tmp/err" || fail "message for lambda 0: $(cat "$tmp/err")"
if "$kindred" fit rdpmeans --data "$data" --k 3 --xi_rate 0.5 2> "$tmp/err"; then fail "xi_rate 0.5 accepted"; fi
grep -q "xi_rate" "$tmp/err" || fail "message for xi_rate: $(cat "$tmp/err")"
if "$kindred" fit rdpmeans --data "$data" 2> "$tmp/err"; then fail "neither lambda nor k accepted"; fi
grep -q "lambda" "$tmp/err" || fail "message without lambda and k: $(cat "$tmp/err")"
if "$kindred" fit tvclust --data "$data" --p 1.5 2> "$tmp/err"; then fail "p 1.5 accepted"; fi
grep -q "'p'" "$tmp/err" || grep -q " p " "$tmp/err" || fail "message for p: $(cat "$tmp/err")"
if "$kindred" fit tvclust --data "$data" --iterations 10 --burn_in 10 2> "$tmp/err"; then fail "burn_in = iterations accepted"; fi
grep -q "burn_in" "$tmp/err" || fail "message for burn_in: $(cat "$tmp/err")"
echo "cli_rdpmeans_tvclust: ok"
