#!/bin/sh
# DCRC through the command-line program: `kindred sample` writes triplets,
# `kindred fit dcrc --triplets` reads them (numeric and yes/no/dnk answers
# give the same labels), `kindred eval dcrc --triplets-count` reports JSON,
# and bad triplets / options exit non-zero with a message.
# usage: cli_dcrc.sh KINDRED DATA_DIR
set -eu
kindred=$1
data=$2/iris.csv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$kindred" sample --data "$data" --triplets-count 60 --seed 3 --out "$tmp/t.csv" >/dev/null
[ "$(head -1 "$tmp/t.csv")" = "a,b,c,answer" ] || fail "triplet file header"
[ "$(wc -l < "$tmp/t.csv")" -eq 61 ] || fail "60 triplets expected"

"$kindred" fit dcrc --data "$data" --k 3 --triplets "$tmp/t.csv" --out "$tmp/a.csv" --model "$tmp/m.kdm" --json > "$tmp/fit.json"
grep -q '"algorithm": "dcrc"' "$tmp/fit.json" || fail "fit --json"
[ "$(wc -l < "$tmp/a.csv")" -eq 151 ] || fail "150 labels expected"
"$kindred" predict --model "$tmp/m.kdm" --data "$data" --out "$tmp/p.csv" >/dev/null
cmp -s "$tmp/a.csv" "$tmp/p.csv" || fail "predict on the training points differs from the fitted labels"

sed 's/,1$/,yes/; s/,-1$/,no/; s/,0$/,dnk/' "$tmp/t.csv" > "$tmp/w.csv"
"$kindred" fit dcrc --data "$data" --k 3 --triplets "$tmp/w.csv" --out "$tmp/b.csv" >/dev/null
cmp -s "$tmp/a.csv" "$tmp/b.csv" || fail "yes/no/dnk answers differ from 1/-1/0"

"$kindred" eval dcrc --data "$data" --triplets-count 45 --repeats 2 --json > "$tmp/eval.json"
grep -q '"f_measure"' "$tmp/eval.json" || fail "eval --json has no f_measure"
grep -q '"triplets"' "$tmp/eval.json" || fail "eval --json has no triplet count"

printf 'a,b,c,answer\n1,1,2,1\n' > "$tmp/rep.csv"
if "$kindred" fit dcrc --data "$data" --k 3 --triplets "$tmp/rep.csv" 2> "$tmp/err"; then fail "repeated index accepted"; fi
grep -q "three different points" "$tmp/err" || fail "message for a repeated index: $(cat "$tmp/err")"
printf 'a,b,c,answer\n1,3,2,2\n' > "$tmp/ans.csv"
if "$kindred" fit dcrc --data "$data" --k 3 --triplets "$tmp/ans.csv" 2> "$tmp/err"; then fail "answer 2 accepted"; fi
grep -q "answer" "$tmp/err" || fail "message for a bad answer: $(cat "$tmp/err")"
if "$kindred" fit dcrc --data "$data" --k 3 --epsilon 0.7 2> "$tmp/err"; then fail "epsilon 0.7 accepted"; fi
grep -q "epsilon" "$tmp/err" || fail "message for epsilon"
if "$kindred" fit dcrc --data "$data" --k 1 2> "$tmp/err"; then fail "k = 1 accepted"; fi
# No triplets at all: plain discriminative clustering, allowed.
"$kindred" fit dcrc --data "$data" --k 3 --out "$tmp/c.csv" >/dev/null
echo "ok"
