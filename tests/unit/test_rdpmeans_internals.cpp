// Internals of RDP-means / TVClust: the link counts f_ki, s_ik (eq. 12)
// gathered from the adjacency equal a brute-force recount over the pair list
// for random labels; pair totals likewise; the Bregman layer's blocked
// divergences equal the direct formulas (dense, column-major and CSR); the
// farthest-first heuristic under "euclidean" equals the core one; the row
// kernels of the pass give the same values in their SSE2 and AVX2 forms.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
extern "C" {
#include <cmocka.h>
}

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <vector>

#include "algorithms/centroid/steps.hpp"
#include "algorithms/rdpmeans/link_count_cache.hpp"
#include "algorithms/link_counts.hpp"
#include "algorithms/rdpmeans/center_bounds.hpp"
#include "algorithms/rdpmeans/rows.hpp"
#include "algorithms/rdpmeans/stable.hpp"
#include "core/rng.hpp"
#include "core/side_info.hpp"
#include "divergence/bregman.hpp"
#include "linalg/distances.hpp"

using namespace kindred;

static void link_counts_equal_brute_force(void **) {
    Rng rng(42);
    const int64_t n = 200;
    for (int trial = 0; trial < 5; ++trial) {
        SideInfo side(n);
        std::vector<int64_t> a, b;
        std::vector<double> v;
        for (int e = 0; e < 900; ++e) {
            int64_t i = rng.below(n), j = rng.below(n);
            if (i == j) continue;
            a.push_back(i);
            b.push_back(j);
            v.push_back(rng.uniform() < 0.5 ? 1.0 : -1.0 * (1 + rng.below(3)));
        }
        side.add_pairs(a.data(), b.data(), v.data(), static_cast<int64_t>(a.size()));
        const int32_t K = 3 + trial * 4;
        std::vector<int32_t> labels(n);
        for (auto &l : labels) l = static_cast<int32_t>(rng.below(K + 1)) - 1;  // some -1
        LinkCounts links(&side.adjacency());
        for (int64_t i = 0; i < n; ++i) {
            links.gather(i, labels.data());
            std::map<int32_t, std::pair<double, double>> brute;
            for (const Pair &p : side.pairs()) {
                int64_t other = p.i == i ? p.j : p.j == i ? p.i : -1;
                if (other < 0 || labels[other] < 0) continue;
                auto &fs = brute[labels[other]];
                (p.value > 0 ? fs.first : fs.second) += std::fabs(p.value);
            }
            for (int32_t k = 0; k < K + 2; ++k) {
                const auto it = brute.find(k);
                const double f = it == brute.end() ? 0.0 : it->second.first;
                const double s = it == brute.end() ? 0.0 : it->second.second;
                assert_true(links.may(k) == f);
                assert_true(links.may_not(k) == s);
            }
            assert_int_equal(links.touched().size(), brute.size());
        }
        // Pair totals (each pair once), labels < 0 count as their own value.
        for (auto &l : labels) if (l < 0) l = 0;
        LinkCounts::PairTotals t = links.pair_totals(labels.data());
        double mw = 0, nw = 0, ma = 0, na = 0;
        for (const Pair &p : side.pairs()) {
            const bool within = labels[p.i] == labels[p.j];
            if (p.value > 0) (within ? mw : ma) += p.value;
            else (within ? nw : na) -= p.value;
        }
        assert_true(t.may_within == mw && t.may_not_within == nw && t.may_across == ma && t.may_not_across == na);
    }
}

static void no_side_information_gives_zero_counts(void **) {
    LinkCounts links(nullptr);
    std::vector<int32_t> labels(4, 0);
    links.gather(2, labels.data());
    assert_true(links.touched().empty());
    assert_true(links.may(0) == 0.0 && links.may_not(5) == 0.0);
}

// The cached link terms g_ik = w_may_not s_ik - w_may f_ki equal a fresh
// gather after any sequence of moves (in place and untracked,
// mixed), relabellings of a compacted label space and invalidations: exactly with
// integer pair values and weights, to rounding otherwise; every cluster once.
// With small and large integer terms, real terms, and cluster ids beyond
// 2^16.
// count draws of a pair of distinct points of [0, n) with value +w (may-link,
// probability 0.4) or -w, w = weight(), added to side.
template <typename Weight>
static void add_random_pairs(SideInfo &side, Rng &rng, int64_t n, int count, Weight weight) {
    std::vector<int64_t> a, b;
    std::vector<double> v;
    for (int e = 0; e < count; ++e) {
        const int64_t i = rng.below(n), j = rng.below(n);
        if (i == j) continue;
        a.push_back(i);
        b.push_back(j);
        const double w = weight();
        v.push_back(rng.uniform() < 0.4 ? w : -w);
    }
    side.add_pairs(a.data(), b.data(), v.data(), static_cast<int64_t>(a.size()));
}

// The label space compacted as RDP-means does after a pass: new_id[c] for
// each of the K old ids (-1: no member), the labels renamed; returns the
// number of ids kept.
static int32_t compact_labels(std::vector<int32_t> &labels, int32_t K, std::vector<int32_t> &new_id) {
    std::vector<int64_t> count(K, 0);
    for (int32_t l : labels) ++count[l];
    new_id.assign(K, -1);
    int32_t kept = 0;
    for (int32_t c = 0; c < K; ++c)
        if (count[c] > 0) new_id[c] = kept++;
    for (auto &l : labels) l = new_id[l];
    return kept;
}

static void link_count_cache_equals_gather(void **) {
    Rng rng(11);
    const int64_t n = 300;
    for (int trial = 0; trial < 8; ++trial) {
        // 0 small integer terms, 1 other terms, 2 large integer terms, 3 many clusters
        const int mode = trial % 4;
        const bool integer = mode != 1;
        const double scale = mode == 2 ? 5000.0 : 1.0;
        SideInfo side(n);
        add_random_pairs(side, rng, n, 1500, [&] {
            return integer ? scale * static_cast<double>(1 + rng.below(3)) : 0.1 + rng.uniform();
        });
        const double w_may = integer ? 2.0 : 0.7, w_may_not = integer ? 1.0 : 1.3;
        int32_t K = mode == 3 ? 65534 : 4 + trial;
        std::vector<int32_t> labels(n);
        for (auto &l : labels) l = static_cast<int32_t>(rng.below(K));
        LinkCountCache cache(&side.adjacency(), n, w_may, w_may_not);
        // The cache's copy of the labels from the start, or from the first
        // labels_changed or relabel on (then it reads the labels given).
        if (trial < 4) cache.labels_changed(labels.data(), K);
        LinkCounts gather(&side.adjacency());
        int64_t cancelled = 0;  // clusters whose terms cancel (a slot with g = 0): the case must occur
        auto check = [&](int64_t i) {
            const LinkCountCache::Slots slots = cache.slots(i, labels.data());
            gather.gather(i, labels.data());
            // A slot for every cluster with a neighbour (g = 0 where the
            // terms cancel).
            int64_t expected_slots = 0;
            for (int32_t k : gather.touched()) {
                const double expect = w_may_not * gather.may_not(k) - w_may * gather.may(k);
                if (integer && expect == 0.0) ++cancelled;
                ++expected_slots;
                int found = 0;
                for (int64_t p = 0; p < slots.size; ++p)
                    if (slots.cluster(p) == k) {
                        ++found;
                        if (integer) assert_true(slots.term(p) == expect);
                        else assert_true(std::fabs(slots.term(p) - expect) < 1e-12 * (1 + std::fabs(expect)));
                        assert_true(slots.cost_of(k) == slots.term(p));
                    }
                assert_int_equal(found, 1);
            }
            assert_int_equal(slots.size, expected_slots);
            assert_true(slots.cost_of(K + 5) == 0.0);
            // The dense form: every cluster's g, 0 where i has no neighbour
            // or its terms cancel.
            assert_true(cache.integer_terms() == integer);
            if (integer) {
                std::vector<int32_t> acc(static_cast<size_t>(K) + 1, 0);
                cache.add_integer_terms(i, labels.data(), acc.data());
                for (int32_t k = 0; k <= K; ++k) assert_true(static_cast<double>(acc[k]) == slots.cost_of(k));
            }
        };
        for (int step = 0; step < 4000; ++step) {
            const int64_t i = rng.below(n);
            const double r = rng.uniform();
            if (r < 0.45) {
                check(i);
            } else if (r < 0.95) {
                // Untracked for runs of steps (moves leave the neighbours
                // alone, every read gathers), as a pass would.
                if (rng.uniform() < 0.02) cache.set_untracked(!cache.untracked());
                // K: a new cluster (in mode 3 often, so that the ids pass 2^16)
                const bool near_top = mode == 3 && rng.uniform() < 0.5;
                const int32_t to = static_cast<int32_t>(near_top ? K - 2 + rng.below(3) : rng.below(K + 1));
                // moved() returns g_to - g_from of a fresh gather (from the
                // slots, or summed from the labels for a stale point; or, as
                // a pass does for a point that read its links, the change it
                // is given, here from the point's slots).
                double own_change = 0.0;
                const bool give_change = rng.uniform() < 0.5;
                if (give_change) {
                    const LinkCountCache::Slots own = cache.slots(i, labels.data());
                    own_change = own.cost_of(to) - own.cost_of(labels[i]);
                }
                gather.gather(i, labels.data());
                const double g_to = w_may_not * gather.may_not(to) - w_may * gather.may(to);
                const double g_from = w_may_not * gather.may_not(labels[i]) - w_may * gather.may(labels[i]);
                if (to == K) ++K;
                const int32_t from = labels[i];
                labels[i] = to;
                const double delta = cache.moved(i, labels.data(), from, to, give_change ? &own_change : nullptr);
                if (from == to) assert_true(delta == 0.0);
                else if (integer) assert_true(delta == g_to - g_from);
                else assert_true(std::fabs(delta - (g_to - g_from)) < 1e-12 * (1 + std::fabs(g_to) + std::fabs(g_from)));
            } else if (r < 0.99 && (mode != 3 || step >= 2000)) {  // mode 3: large ids for half the steps
                // Compact the label space (as RDP-means after a pass).
                std::vector<int32_t> new_id;
                const int32_t kept = compact_labels(labels, K, new_id);
                cache.relabel(new_id.data(), labels.data(), kept);
                K = kept;
            } else {
                for (auto &l : labels) l = static_cast<int32_t>(rng.below(K));
                cache.labels_changed(labels.data(), K);
            }
        }
        for (int64_t i = 0; i < n; ++i) check(i);
        cache.set_untracked(!cache.untracked());
        for (int64_t i = 0; i < n; ++i) check(i);
        if (integer) assert_true(cancelled > 0);
        assert_true(cache.pair_cost(2.0) == -2.0 * w_may && cache.pair_cost(-2.0) == 2.0 * w_may_not);
    }
    LinkCountCache none(nullptr, 5, 1.0, 1.0);
    std::vector<int32_t> labels(5, 0);
    assert_int_equal(none.slots(3, labels.data()).size, 0);
    assert_true(none.moved(3, labels.data(), 0, 1) == 0.0);
}

static double direct_kl(const double *x, const double *mu, int64_t d, double s, bool normalise) {
    double total = 0;
    for (int64_t j = 0; j < d; ++j) total += x[j];
    const double z = normalise ? total + d * s : 1.0;
    double v = 0;
    for (int64_t j = 0; j < d; ++j) {
        const double t = (x[j] + s) / z;
        v += t * std::log(t / mu[j]);
        if (!normalise) v += mu[j] - t;
    }
    return v;
}

// The first index of the smallest augmented distance D_k + xi g_k, as the
// pass computes it, and that distance.
static int64_t augmented_argmin(const std::vector<double> &D, const std::vector<double> &g, double xi, double &best) {
    int64_t l = 0;
    best = D[0] + xi * g[0];
    for (size_t k = 1; k < D.size(); ++k) {
        const double a = D[k] + xi * g[k];
        if (a < best) {
            best = a;
            l = static_cast<int64_t>(k);
        }
    }
    return l;
}

// The certificate of a stable pass (stable.hpp): for every xi' up to
// xi + delta the first minimum of D + xi' g stays l and stays <= lambda; it
// is not vacuous (just beyond a finite delta the decision does change in most
// cases); ties give no certificate; the row is left as it was found.
static void stable_certificate_holds_and_is_tight(void **) {
    Rng rng(5);
    int finite = 0, tight = 0, infinite = 0, refused = 0;
    for (int trial = 0; trial < 4000; ++trial) {
        const int64_t K = 2 + static_cast<int64_t>(rng.below(11));
        std::vector<double> D(K), g(K, 0.0);
        for (auto &v : D) v = trial % 5 == 0 ? std::floor(4.0 * rng.uniform()) : 10.0 * rng.uniform();  // ties in 1/5
        std::vector<LinkCountCache::Slot> slot;
        std::vector<double> saved;
        for (int64_t k = 0; k < K; ++k)
            if (rng.uniform() < 0.6) {
                const int32_t term = static_cast<int32_t>(rng.below(11)) - 5;
                if (term == 0) continue;
                g[k] = term;
                slot.push_back(LinkCountCache::Slot{static_cast<int32_t>(k), 1, static_cast<double>(term)});
                saved.push_back(D[k]);
            }
        const double xi = 0.01 + 2.0 * rng.uniform(), lambda = 1.0 + 20.0 * rng.uniform();
        std::vector<double> row(K);
        for (int64_t k = 0; k < K; ++k) row[k] = D[k] + xi * g[k];
        double a_l;
        const int64_t l = augmented_argmin(D, g, xi, a_l);
        if (a_l > lambda) continue;
        const LinkCountCache::Slots slots{slot.data(), static_cast<int64_t>(slot.size())};
        StableCertificate cert;
        const std::vector<double> before = row;
        certify_point(slots, saved.data(), row.data(), K, l, a_l, lambda, xi, cert);
        for (int64_t k = 0; k < K; ++k) assert_true(row[k] == before[k]);
        const double delta = cert.delta();
        if (delta < 0) {
            ++refused;
            continue;
        }
        const double reach[] = {0.0, 0.1, 0.5, 0.9, 0.999999};
        const double far[] = {1.0, 10.0, 1000.0};
        for (int t = 0; t < (std::isinf(delta) ? 3 : 5); ++t) {
            const double x = std::isinf(delta) ? xi * far[t] + xi : xi + delta * reach[t];
            double a;
            assert_int_equal(augmented_argmin(D, g, x, a), l);
            assert_true(a <= lambda);
        }
        // A competitor with the same slope only ends the certificate where
        // the growing margin (1e-12 xi' |g|) reaches its gap: far away.
        if (std::isinf(delta) || delta > 1e6) {
            ++infinite;
            continue;
        }
        ++finite;
        double a;
        const int64_t l2 = augmented_argmin(D, g, xi + delta * 1.01, a);
        if (l2 != l || a > lambda) ++tight;
    }
    assert_true(finite > 500 && infinite > 100 && refused > 50);
    assert_int_equal(tight, finite);
}

// The center bounds stay bounds through several moves of the centres (each
// followed by drift: upper >= the distance to the own centre, lower <= the
// distance to the nearest other) and are exact right after set_from_row; keeps() never
// holds for a point whose augmented distances (any link terms within +-S/2
// per cluster) would send it elsewhere or open a cluster.
static void center_bounds_hold(void **) {
    kindred::Rng rng(99);
    const int64_t n = 400, d = 3, k = 5;
    std::vector<double> x(n * d), c(k * d);
    for (auto &v : x) v = 4.0 * rng.uniform();
    for (auto &v : c) v = 4.0 * rng.uniform();
    auto dist2 = [&](int64_t i, int64_t cl) {
        double s = 0.0;
        for (int64_t j = 0; j < d; ++j) s += (x[i * d + j] - c[cl * d + j]) * (x[i * d + j] - c[cl * d + j]);
        return s;
    };
    std::vector<int32_t> label(n);
    kindred::CenterBounds bounds(n);
    std::vector<double> row(k);
    for (int64_t i = 0; i < n; ++i) {
        for (int64_t cl = 0; cl < k; ++cl) row[cl] = dist2(i, cl);
        // Mostly the nearest cluster, sometimes any (a point the links keep elsewhere).
        label[i] = static_cast<int32_t>(std::min_element(row.begin(), row.end()) - row.begin());
        if (rng.uniform() < 0.2) label[i] = static_cast<int32_t>(rng.below(k));
        bounds.set_from_row(i, row.data(), k, label[i]);
        for (int64_t cl = 0; cl < k; ++cl) assert_true(row[cl] == dist2(i, cl));  // the row is put back
        double other = 1e300;  // exact right after: the distance to the nearest other centre
        for (int64_t cl = 0; cl < k; ++cl)
            if (cl != label[i]) other = std::min(other, row[cl]);
        assert_true(bounds.upper(i) == std::sqrt(row[label[i]]) && bounds.lower(i) == std::sqrt(other));
    }
    int64_t kept = 0, tested = 0;
    for (int step = 0; step < 6; ++step) {
        // Move every centre by a random shift, of a size that varies by centre.
        std::vector<double> shift(k);
        double largest = 0.0;
        for (int64_t cl = 0; cl < k; ++cl) {
            double s2 = 0.0;
            for (int64_t j = 0; j < d; ++j) {
                const double delta = 0.01 * (cl + 1) * (rng.uniform() - 0.5);
                c[cl * d + j] += delta;
                s2 += delta * delta;
            }
            shift[cl] = std::sqrt(s2);
            largest = std::max(largest, shift[cl]);
        }
        bounds.drift(label.data(), shift, largest);
        for (int64_t i = 0; i < n; ++i) {
            double other = 1e300;
            for (int64_t cl = 0; cl < k; ++cl)
                if (cl != label[i]) other = std::min(other, dist2(i, cl));
            assert_true(bounds.upper(i) >= std::sqrt(dist2(i, label[i])) * (1.0 - 1e-12));
            assert_true(bounds.lower(i) <= std::sqrt(other) * (1.0 + 1e-12));
        }
        for (int64_t i = 0; i < n; ++i) {
            const double t = 0.05 * rng.uniform(), lambda = 2.0 + 10.0 * rng.uniform();
            double x_sq = 0.0, c_sq_max = 0.0;
            for (int64_t j = 0; j < d; ++j) x_sq += x[i * d + j] * x[i * d + j];
            for (int64_t cl = 0; cl < k; ++cl) {
                double s = 0.0;
                for (int64_t j = 0; j < d; ++j) s += c[cl * d + j] * c[cl * d + j];
                c_sq_max = std::max(c_sq_max, s);
            }
            ++tested;
            if (!bounds.keeps(i, x_sq, c_sq_max, t, lambda)) continue;
            ++kept;
            // Worst case of the links: +t/2 on its own cluster, -t/2 on the others.
            const double own = dist2(i, label[i]) + 0.5 * t;
            assert_true(own < lambda);
            for (int64_t cl = 0; cl < k; ++cl)
                if (cl != label[i]) assert_true(dist2(i, cl) - 0.5 * t > own);
        }
    }
    assert_true(kept > tested / 10 && kept < tested);  // the test is not vacuous either way
}

static void bregman_blocks_equal_direct_formulas(void **) {
    Rng rng(7);
    const int64_t n = 37, d = 5, k = 4;
    std::vector<double> x(n * d), xt(n * d);
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < d; ++j) {
            const double v = rng.uniform() < 0.4 ? 0.0 : static_cast<double>(rng.below(7));
            x[i * d + j] = v;
            xt[j * n + i] = v;
        }
    std::vector<int64_t> indptr(1, 0), indices;
    std::vector<double> values;
    for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < d; ++j)
            if (x[i * d + j] != 0) { indices.push_back(j); values.push_back(x[i * d + j]); }
        indptr.push_back(static_cast<int64_t>(indices.size()));
    }
    DenseView rm{x.data(), n, d, d, true}, cm{xt.data(), n, d, n, false};
    CsrView cs{indptr.data(), indices.data(), values.data(), n, d};
    const DataView views[3] = {DataView::dense(rm), DataView::dense(cm), DataView::csr(cs)};
    std::vector<int32_t> labels(n);
    for (int64_t i = 0; i < n; ++i) labels[i] = static_cast<int32_t>(i % k);
    for (const char *name : {"euclidean", "kl", "idiv"}) {
        std::vector<double> first_centers;
        for (const DataView &view : views) {
            auto div = divergence::make_bregman(name, view, 0.3);
            std::vector<double> centers;
            std::vector<int64_t> counts;
            div->cluster_means(labels.data(), k, 2, centers, counts);
            if (first_centers.empty()) first_centers = centers;
            for (size_t v = 0; v < centers.size(); ++v) assert_true(std::fabs(centers[v] - first_centers[v]) < 1e-12);
            std::vector<double> block(n * k);
            div->distances(0, n, centers.data(), k, block.data());
            for (int64_t i = 0; i < n; ++i)
                for (int64_t c = 0; c < k; ++c) {
                    double expect;
                    if (std::string(name) == "euclidean") {
                        expect = 0;
                        for (int64_t j = 0; j < d; ++j) expect += std::pow(x[i * d + j] - centers[c * d + j], 2);
                    } else {
                        expect = direct_kl(&x[i * d], &centers[c * d], d, 0.3, std::string(name) == "kl");
                    }
                    assert_true(std::fabs(block[i * k + c] - expect) < 1e-9 * (1 + expect));
                    assert_true(std::fabs(div->distance(i, &centers[c * d]) - expect) < 1e-9 * (1 + expect));
                }
            // A point is at divergence 0 from itself.
            std::vector<double> p(d);
            div->point(3, p.data());
            assert_true(div->distance(3, p.data()) < 1e-12);
        }
    }
    auto e = divergence::make_bregman("euclidean", views[0], 0.3);
    for (int64_t kk = 1; kk <= 5; ++kk) {
        const double a = divergence::farthest_first_lambda(*e, kk), b = farthest_first_lambda(views[0], kk);
        assert_true(std::fabs(a - b) <= 1e-9 * b);
    }
}


// The row kernels of an RDP-means pass (rows.hpp). Rows with many
// ties, zeros of both signs, infinities and (for the forms that must agree
// bit for bit) NaN; lengths 1-70.
static bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

static double random_entry(Rng &rng, bool with_nan) {
    const int64_t kind = rng.below(40);
    if (kind == 0) return 0.0;
    if (kind == 1) return -0.0;
    if (kind == 2) return std::numeric_limits<double>::infinity();
    if (kind == 3 && with_nan) return std::numeric_limits<double>::quiet_NaN();
    if (kind < 20) return static_cast<double>(rng.below(6)) * 0.5;  // ties
    return rng.uniform() * 4.0;
}

static void row_kernels_agree(void **) {
    Rng rng(7);
    for (int trial = 0; trial < 4000; ++trial) {
        const int64_t k0 = 1 + rng.below(70);
        const bool with_nan = trial % 4 == 3;
        std::vector<double> row(static_cast<size_t>(k0));
        std::vector<int32_t> acc(static_cast<size_t>(k0));
        for (auto &v : row) v = random_entry(rng, with_nan);
        for (auto &g : acc) g = static_cast<int32_t>(rng.below(9)) - 4 + (trial % 8 == 5 ? 123 : 0);  // to 127
        const double xi = rng.below(3) == 0 ? 0.0 : rng.uniform() * 2.0;
        // The dense choice: the first minimum of row + xi acc, as the scan
        // "a[c] < best" finds it (without NaN, where the scan is the rule).
        std::vector<double> a(static_cast<size_t>(k0));
        double best_value = 0.0;
        const int64_t best = rows::dense_argmin(row.data(), acc.data(), xi, k0, a.data(), best_value);
        if (!with_nan) {
            int64_t scan = 0;
            for (int64_t c = 0; c < k0; ++c) {
                assert_true(same_bits(a[c], row[c] + xi * static_cast<double>(acc[c])));
                if (a[c] < a[scan]) scan = c;
            }
            assert_int_equal(best, scan);
            assert_true(best_value == a[scan]);
        }
    }
    // The bound test on rows whose bound decides some points and not others.
    int64_t decided_total = 0, undecided_total = 0;
    for (int trial = 0; trial < 300; ++trial) {
        const int64_t k0 = 1 + rng.below(130), rows_n = 1 + rng.below(40);
        const bool with_nan = trial % 5 == 4;
        std::vector<double> block(static_cast<size_t>(rows_n * k0)), bound(static_cast<size_t>(rows_n));
        for (auto &v : block) v = rng.below(8) == 0 ? random_entry(rng, with_nan) : 1.0 + rng.uniform() * 8.0;
        for (auto &s : bound) s = rng.below(4) == 0 ? 0.0 : static_cast<double>(rng.below(30));
        const double xi = rng.uniform() * 0.3, lambda = 2.0 + rng.uniform() * 10.0;
        const bool no_bounds = trial % 7 == 0;  // no side information: every t is 0
        int64_t decided = 0;
        // What the test promises where it decides.
        for (int64_t r = 0; r < rows_n; ++r) {
            int64_t b = -1;
            double d_b = 0.0;
            const double *row = block.data() + r * k0;
            const double t = xi * (no_bounds ? 0.0 : bound[r]);
            if (rows::decided_fast(row, k0, t, lambda, b, d_b)) {
                ++decided;
                // b is the first minimum, every other centre is farther
                // by more than t, and d_b + t < lambda.
                double smallest = 0.0;
                assert_int_equal(rows::first_argmin(row, k0, smallest), b);
                assert_true(same_bits(d_b, smallest));
                for (int64_t c = 0; c < k0; ++c)
                    if (c != b && !std::isnan(row[c])) assert_true(row[c] - d_b > t);  // NaN: never a choice
                assert_true(d_b + t < lambda);
            }
        }
        decided_total += decided;
        undecided_total += rows_n - decided;
    }
    // Both outcomes were exercised.
    assert_true(decided_total > 500);
    assert_true(undecided_total > 500);
}

int main() {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(link_counts_equal_brute_force),
        cmocka_unit_test(no_side_information_gives_zero_counts),
        cmocka_unit_test(link_count_cache_equals_gather),
        cmocka_unit_test(stable_certificate_holds_and_is_tight),
        cmocka_unit_test(bregman_blocks_equal_direct_formulas),
        cmocka_unit_test(center_bounds_hold),
        cmocka_unit_test(row_kernels_agree),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
