#include "eval/sampling.hpp"

#include <cmath>
#include <vector>

#include "core/error.hpp"
#include "core/rng.hpp"

namespace kindred {
namespace eval {
namespace {

std::vector<int64_t> labelled_points(const SideInfo &side, const int32_t *labels, int64_t n) {
    if (!labels) fail(KINDRED_E_INVALID, "sampling: labels must not be NULL");
    if (n != side.n()) fail(KINDRED_E_DIMENSION, "sampling: ", n, " labels for side information about ", side.n(), " points");
    std::vector<int64_t> pts;
    for (int64_t i = 0; i < n; ++i)
        if (labels[i] >= 0) pts.push_back(i);
    return pts;
}

void check_probability(double p, const char *what) {
    if (!(p >= 0.0 && p <= 1.0)) fail(KINDRED_E_INVALID, "sampling: ", what, " must be in [0, 1], got ", p);
}

// The pair with index t in the row-wise enumeration (0,1), (0,2), ..., (1,2), ...
// of m items.
void decode_pair(int64_t t, int64_t m, int64_t &a, int64_t &b) {
    // Row a starts at S(a) = a m - a (a + 1) / 2; solve S(a) <= t, then fix rounding.
    const double md = static_cast<double>(m);
    int64_t r = static_cast<int64_t>(std::floor(md - 0.5 - std::sqrt((md - 0.5) * (md - 0.5) - 2.0 * static_cast<double>(t))));
    auto start = [m](int64_t row) { return row * m - row * (row + 1) / 2; };
    if (r < 0) r = 0;
    while (r > 0 && start(r) > t) --r;
    while (start(r + 1) <= t) ++r;
    a = r;
    b = t - start(r) + r + 1;
}

// A set of non-negative indices, at most `capacity` of them: open
// addressing with linear probing in a table of a power of two of at least
// twice that many slots (-1: empty). It replaces a node-based hash set that
// took about 50 bytes and an allocation an index: at 1e7 pairs a tenth of
// building a sampled store (bench/side_store_bench, docs/performance.md).
class DistinctIndices {
public:
    explicit DistinctIndices(int64_t capacity) {
        size_t slots = 16;
        while (slots < 2 * static_cast<size_t>(capacity)) slots *= 2;
        slot_.assign(slots, -1);
        mask_ = slots - 1;
    }
    // Adds v; false when it was already there.
    bool insert(int64_t v) {
        for (size_t s = mix(static_cast<uint64_t>(v)) & mask_;; s = (s + 1) & mask_) {
            if (slot_[s] == v) return false;
            if (slot_[s] < 0) {
                slot_[s] = v;
                return true;
            }
        }
    }

private:
    static size_t mix(uint64_t z) {  // the finaliser of splitmix64
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return static_cast<size_t>(z ^ (z >> 31));
    }
    std::vector<int64_t> slot_;
    size_t mask_ = 0;
};

}  // namespace

void sample_pairs(SideInfo &side, const int32_t *labels, int64_t n, int64_t count, double rate, double noise,
                  uint64_t seed) {
    std::vector<int64_t> pts = labelled_points(side, labels, n);
    check_probability(noise, "noise");
    const int64_t m = static_cast<int64_t>(pts.size());
    const int64_t total = m * (m - 1) / 2;
    if (count < 0) {
        check_probability(rate, "rate");
        count = static_cast<int64_t>(std::llround(rate * static_cast<double>(total)));
    }
    if (count > total)
        fail(KINDRED_E_INVALID, "sampling: ", count, " pairs asked but only ", total, " distinct pairs of labelled points exist");
    Rng rng(seed);
    // Floyd's algorithm: `count` distinct indices of [0, total), in an order
    // fixed by the seed (the vector, not the set, gives the order).
    std::vector<int64_t> order;
    order.reserve(static_cast<size_t>(count));
    {
        DistinctIndices chosen(count);
        for (int64_t j = total - count; j < total; ++j) {
            const int64_t t = rng.below(j + 1);
            const int64_t pick = chosen.insert(t) ? t : j;
            if (pick == j) chosen.insert(j);
            order.push_back(pick);
        }
    }  // the set (16 to 32 bytes a pair) released before the pairs are built,
       // so that the peak of a sampling is the larger of the two steps
    std::vector<int64_t> is(order.size()), js(order.size());
    std::vector<double> vs(order.size());
    for (size_t e = 0; e < order.size(); ++e) {
        int64_t a, b;
        decode_pair(order[e], m, a, b);
        is[e] = pts[a];
        js[e] = pts[b];
        double v = labels[is[e]] == labels[js[e]] ? 1.0 : -1.0;
        if (rng.uniform() < noise) v = -v;
        vs[e] = v;
    }
    // Not read again: released (8 bytes a pair and 8 a labelled point) before
    // the store is rebuilt, the peak of a sampling.
    std::vector<int64_t>().swap(order);
    std::vector<int64_t>().swap(pts);
    side.add_pairs(is.data(), js.data(), vs.data(), static_cast<int64_t>(is.size()));
}

void sample_triplets(SideInfo &side, const int32_t *labels, int64_t n, int64_t count, double noise, uint64_t seed) {
    const std::vector<int64_t> pts = labelled_points(side, labels, n);
    check_probability(noise, "noise");
    if (count < 0) fail(KINDRED_E_INVALID, "sampling: triplet count must be >= 0, got ", count);
    const int64_t m = static_cast<int64_t>(pts.size());
    if (count > 0 && m < 3) fail(KINDRED_E_INVALID, "sampling: triplets need at least 3 labelled points, have ", m);
    Rng rng(seed);
    std::vector<int64_t> as, bs, cs;
    std::vector<int32_t> ans;
    // Reserved first: an impossible count fails at once (KINDRED_E_NOMEM)
    // instead of drawing until memory runs out.
    as.reserve(static_cast<size_t>(count));
    bs.reserve(static_cast<size_t>(count));
    cs.reserve(static_cast<size_t>(count));
    ans.reserve(static_cast<size_t>(count));
    for (int64_t e = 0; e < count; ++e) {
        int64_t a = pts[rng.below(m)], b, c;
        do { b = pts[rng.below(m)]; } while (b == a);
        do { c = pts[rng.below(m)]; } while (c == a || c == b);
        // Eq. (1): yes if a shares b's class and not c's, no if the reverse, else don't know.
        int32_t answer = 0;
        if (labels[a] == labels[b] && labels[a] != labels[c]) answer = 1;
        if (labels[a] == labels[c] && labels[a] != labels[b]) answer = -1;
        if (answer != 0 && rng.uniform() < noise) answer = -answer;
        as.push_back(a); bs.push_back(b); cs.push_back(c); ans.push_back(answer);
    }
    side.add_triplets(as.data(), bs.data(), cs.data(), ans.data(), count);
}

}  // namespace eval
}  // namespace kindred
