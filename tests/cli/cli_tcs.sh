#!/bin/sh
# TCS-GM and TCS-VM through the command-line program: partial labels from a
# file (`fit --partial-labels`), the model's predict on the training points,
# `eval --reveal-classes` (JSON), and the bad-input messages (no partial
# labels; a single revealed class).
# usage: cli_tcs.sh KINDRED DATA_DIR
set -eu
kindred=$1
data=$2/iris.csv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# iris is sorted by class: label the first two classes, leave the third unlabelled.
awk 'NR == 1 { print "label"; next } { print (NR <= 51 ? 0 : (NR <= 101 ? 1 : -1)) }' "$data" > "$tmp/partial.csv"
for alg in tcs-gm tcs-vmf; do
    "$kindred" fit $alg --data "$data" --partial-labels "$tmp/partial.csv" --k 1 --out "$tmp/a.csv" \
        --model "$tmp/m.kdm" --json > "$tmp/fit.json"
    grep -q "\"algorithm\": \"$alg\"" "$tmp/fit.json" || fail "$alg: fit --json"
    [ "$(wc -l < "$tmp/a.csv")" -eq 151 ] || fail "$alg: 150 labels expected"
    # labelled points keep their class; the new cluster is numbered 2.
    [ "$(sed -n 2p "$tmp/a.csv")" = "0" ] || fail "$alg: first point should keep class 0"
    [ "$(sed -n 151p "$tmp/a.csv")" = "2" ] || fail "$alg: unlabelled point should be in new cluster 2"
    "$kindred" predict --model "$tmp/m.kdm" --data "$data" --out "$tmp/p.csv" >/dev/null
    agree=$(paste -d, "$tmp/a.csv" "$tmp/p.csv" | awk -F, 'NR > 1 && $1 == $2 { n++ } END { print n + 0 }')
    [ "$agree" -ge 140 ] || fail "$alg: predict agrees with the fit on only $agree of 150 points"
done

"$kindred" eval tcs-gm --data "$2/wine.csv" --reveal-classes 2 --repeats 2 --json > "$tmp/eval.json"
grep -q '"nmi"' "$tmp/eval.json" || fail "eval --json has no nmi"
grep -q '"reveal_classes": 2' "$tmp/eval.json" || fail "eval --json has no reveal_classes"

if "$kindred" fit tcs-gm --data "$data" --k 2 2> "$tmp/err"; then fail "tcs-gm without partial labels accepted"; fi
grep -q "partial labels" "$tmp/err" || fail "message without partial labels: $(cat "$tmp/err")"
if "$kindred" eval tcs-gm --data "$data" --reveal-classes 1 2> "$tmp/err"; then fail "a single revealed class accepted"; fi
grep -q "one class" "$tmp/err" || fail "message for a single class: $(cat "$tmp/err")"
if "$kindred" fit tcs-gm --data "$data" --partial-labels "$tmp/partial.csv" --gamma -1 2> "$tmp/err"; then fail "gamma -1 accepted"; fi
grep -q "gamma" "$tmp/err" || fail "message for gamma < 0"
echo "ok"
