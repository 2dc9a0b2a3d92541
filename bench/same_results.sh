#!/bin/bash
# Are two builds' results the same, bit for bit? For a change meant to make
# the library faster or smaller without changing what it computes.
#
# usage: bench/same_results.sh KINDRED_BEFORE KINDRED_AFTER [WORKDIR]
#
# Draws pairs and triplets from the label column of the data sets in data/
# (two files of each per set, fixed seeds, with KINDRED_BEFORE), then fits
# pckmeans (three propagations), mpckmeans (diagonal, full, transitive,
# point-wise), copkmeans, rdpmeans, tvclust and dcrc with a fixed seed with
# each program, and compares the label and model files byte for byte and the
# printed summaries with the elapsed time and the paths masked. Prints the
# files that differ; exits 1 if any does, 0 if none. A fit that fails (for
# example copkmeans on infeasible pairs) is compared by its message.
set -u
if [ $# -lt 2 ]; then
    echo "usage: $0 KINDRED_BEFORE KINDRED_AFTER [WORKDIR]" >&2
    exit 2
fi
before=$1
after=$2
work=${3:-$(mktemp -d)}
data_dir=$(cd "$(dirname "$0")/../data" && pwd)
mkdir -p "$work/side" "$work/before" "$work/after"

sets="iris wine ecoli letters_ijl_10pct ionosphere"
for ds in $sets; do
    for s in 1 2; do
        "$before" sample --data "$data_dir/$ds.csv" --pairs-count 200 --seed $s --out "$work/side/$ds.$s.pairs.csv" >/dev/null
        "$before" sample --data "$data_dir/$ds.csv" --triplets-count 200 --seed $s --out "$work/side/$ds.$s.triplets.csv" >/dev/null
    done
done

# fit_all PROGRAM OUTDIR: every fit of the list above, for every set and side-information file.
fit_all() {
    local program=$1 out=$2
    for ds in $sets; do
        for s in 1 2; do
            local pairs="$work/side/$ds.$s.pairs.csv"
            one() {
                local name=$1
                shift
                "$program" fit "$@" --data "$data_dir/$ds.csv" --seed 7 --out "$out/$ds.$s.$name.labels" \
                    --model "$out/$ds.$s.$name.model" >"$out/$ds.$s.$name.stdout" 2>&1
            }
            one pck pckmeans --k 3 --pairs "$pairs"
            one pck-off pckmeans --k 3 --pairs "$pairs" --propagation off
            one pck-transitive pckmeans --k 3 --pairs "$pairs" --propagation transitive
            one mpck-diag mpckmeans --k 3 --pairs "$pairs" --distortion euclidean-diag
            one mpck-full mpckmeans --k 3 --pairs "$pairs" --distortion euclidean-full
            one mpck-transitive mpckmeans --k 3 --pairs "$pairs" --propagation transitive --distortion euclidean-diag
            one mpck-off mpckmeans --k 3 --pairs "$pairs" --propagation off
            one mpck-cosine mpckmeans --k 3 --pairs "$pairs" --distortion cosine
            one cop copkmeans --k 3 --pairs "$pairs"
            one rdp rdpmeans --k 3 --pairs "$pairs"
            one rdp-chosen rdpmeans --pairs "$pairs"
            one tv tvclust --pairs "$pairs" --iterations 40 --burn_in 10
            one dcrc dcrc --k 3 --triplets "$work/side/$ds.$s.triplets.csv"
        done
    done
}
fit_all "$before" "$work/before"
fit_all "$after" "$work/after"

# The summaries print the elapsed seconds and the paths of the two directories.
mask() { sed -E -e 's/[0-9.]+(e-?[0-9]+)? s([;,]|$)/T s\2/g' -e "s#$work/(before|after)#OUT#g" "$1"; }
differ=0
count=0
for f in "$work"/before/*; do
    name=$(basename "$f")
    count=$((count + 1))
    case $name in
    *.stdout) same=$(cmp -s <(mask "$f") <(mask "$work/after/$name") && echo 1) ;;
    *) same=$(cmp -s "$f" "$work/after/$name" && echo 1) ;;
    esac
    if [ -z "$same" ]; then
        echo "differs: $name"
        differ=$((differ + 1))
    fi
done
echo "$count files compared in $work, $differ differ"
[ $differ -eq 0 ]
