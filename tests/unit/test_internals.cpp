// Internals of the core with known answers: the random generator (a pinned
// stream and the moments of its variates), the PSD projection of a known
// matrix, the closure of a small constraint graph in SideInfo, option
// validation against its table, and format_number round trips.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "algorithms/centroid/bounded_nearest.hpp"
#include "algorithms/centroid/steps.hpp"
#include "algorithms/pair_cross_validation.hpp"
#include "core/collective.hpp"
#include "core/error.hpp"
#include "core/label_sums.hpp"
#include "core/options.hpp"
#include "core/rng.hpp"
#include "core/side_info.hpp"
#include "linalg/distances.hpp"
#include "linalg/psd_projection.hpp"
#include "linalg/small_k_cross.hpp"

// cmocka last: it defines a macro fail() that would shadow kindred::fail.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
extern "C" {
#include <cmocka.h>
}
#include "thread_comm.h"

using kindred::Error;
using kindred::OptionSpec;
using kindred::OptionTable;
using kindred::OptionValues;
using kindred::Rng;
using kindred::SideInfo;

namespace {

// Runs f and returns the code of the kindred::Error it throws (KINDRED_OK if none).
template <typename F>
kindred_status code_of(F &&f) {
    try {
        f();
    } catch (const Error &e) {
        return e.code();
    }
    return KINDRED_OK;
}

// ---------------------------------------------------------------- Rng

void rng_stream_is_pinned(void **) {
    // xoshiro256** seeded by splitmix64, computed independently of the library:
    // models and samples must stay reproducible across versions and platforms.
    Rng zero(0), answer(42);
    assert_true(zero.next_u64() == 0x99ec5f36cb75f2b4ULL);
    assert_true(zero.next_u64() == 0xbf6e1f784956452aULL);
    assert_true(zero.next_u64() == 0x1a5f849d4933e6e0ULL);
    assert_true(answer.next_u64() == 0x15780b2e0c2ec716ULL);
    assert_true(answer.next_u64() == 0x6104d9866d113a7eULL);
}

void rng_same_seed_same_stream(void **) {
    Rng a(12345), b(12345), c(12346);
    int differ = 0;
    for (int k = 0; k < 1000; ++k) {
        const uint64_t x = a.next_u64();
        assert_true(x == b.next_u64());
        differ += x != c.next_u64();
    }
    assert_true(differ > 990);
    // derive() depends on the seed and the stream only, and does not advance the parent.
    Rng p(7), q(7);
    p.next_u64();
    Rng d1 = p.derive(3), d2 = q.derive(3), d3 = q.derive(4);
    const uint64_t v1 = d1.next_u64();
    assert_true(v1 == d2.next_u64());
    assert_true(v1 != d3.next_u64());
    Rng fresh(7);
    fresh.next_u64();
    assert_true(p.next_u64() == fresh.next_u64());
}

void rng_below_is_in_range_and_uniform(void **) {
    Rng rng(1);
    const int64_t bounds[] = {1, 2, 3, 7, 1000, int64_t(1) << 40, INT64_MAX};
    for (int64_t n : bounds)
        for (int k = 0; k < 2000; ++k) {
            const int64_t v = rng.below(n);
            assert_true(v >= 0 && v < n);
        }
    // Chi-square over 10 cells, 100000 draws: 9 degrees of freedom, P(> 33) < 1e-4.
    const int cells = 10, draws = 100000;
    std::vector<int> count(cells, 0);
    for (int k = 0; k < draws; ++k) ++count[rng.below(cells)];
    double chi2 = 0.0;
    for (int c : count) chi2 += (c - draws / cells) * (c - draws / cells) / double(draws / cells);
    assert_true(chi2 < 33.0);
    // A bound of 3 * 2^61: each half is hit half of the time (a plain modulo
    // reduction of 64 random bits would give the lower half 9/16).
    const int64_t big = int64_t(3) << 61;
    int upper = 0;
    for (int k = 0; k < 30000; ++k) upper += rng.below(big) >= big / 2;
    assert_true(std::fabs(upper / 30000.0 - 0.5) < 0.02);
    for (int k = 0; k < 10000; ++k) {
        const double u = rng.uniform();
        assert_true(u >= 0.0 && u < 1.0);
    }
}

void moments(const std::vector<double> &v, double &mean, double &var) {
    mean = 0.0;
    for (double x : v) mean += x;
    mean /= double(v.size());
    var = 0.0;
    for (double x : v) var += (x - mean) * (x - mean);
    var /= double(v.size() - 1);
}

void rng_normal_gamma_beta_moments(void **) {
    Rng rng(2);
    const int draws = 200000;
    std::vector<double> v(draws);
    double mean = 0, var = 0;
    for (double &x : v) x = rng.normal();
    moments(v, mean, var);
    assert_true(std::fabs(mean) < 0.012);       // sd of the mean 0.0022
    assert_true(std::fabs(var - 1.0) < 0.02);   // sd of the variance 0.0032
    // Gamma(shape, 1): mean = variance = shape; below 1 the boost path is used.
    for (double shape : {0.3, 1.0, 2.5, 20.0}) {
        for (double &x : v) x = rng.gamma(shape);
        assert_true(*std::min_element(v.begin(), v.end()) > 0.0);
        moments(v, mean, var);
        const double sd_mean = std::sqrt(shape / draws);
        assert_true(std::fabs(mean - shape) < 6 * sd_mean);
        assert_true(std::fabs(var - shape) < 0.05 * shape);
    }
    // Beta(a, b): mean a / (a + b).
    for (double &x : v) x = rng.beta(2.0, 5.0);
    moments(v, mean, var);
    assert_true(std::fabs(mean - 2.0 / 7.0) < 0.003);
    assert_true(std::fabs(var - 10.0 / (49.0 * 8.0)) < 0.001);
}

void rng_categorical_and_shuffle(void **) {
    Rng rng(3);
    const double w[4] = {1.0, 0.0, 3.0, 0.0};
    int count[4] = {0, 0, 0, 0};
    for (int k = 0; k < 40000; ++k) ++count[rng.categorical(w, 4)];
    assert_int_equal(count[1], 0);
    assert_int_equal(count[3], 0);
    assert_true(std::fabs(count[2] / 40000.0 - 0.75) < 0.015);
    std::vector<int> v(50);
    for (int k = 0; k < 50; ++k) v[k] = k;
    rng.shuffle(v);
    std::vector<int> sorted(v);
    std::sort(sorted.begin(), sorted.end());
    for (int k = 0; k < 50; ++k) assert_int_equal(sorted[k], k);
    int moved = 0;
    for (int k = 0; k < 50; ++k) moved += v[k] != k;
    assert_true(moved > 30);
}

// ---------------------------------------------------------------- PSD projection

void psd_projection_of_a_rotated_diagonal(void **) {
    // A = R diag(3, -1) R^T with R the rotation by theta; its projection onto
    // the PSD cone keeps the eigenvalue 3 only: 3 u u^T, u = (cos, sin).
    const double theta = 0.6, c = std::cos(theta), s = std::sin(theta);
    double a[4] = {3 * c * c - s * s, 3 * c * s + c * s, 3 * c * s + c * s, 3 * s * s - c * c};
    kindred::linalg::SymmetricEigen eig(2);
    eig.compute(a);
    assert_true(std::fabs(eig.values()[0] + 1.0) < 1e-12);
    assert_true(std::fabs(eig.values()[1] - 3.0) < 1e-12);
    kindred::linalg::project_psd(eig, a, 0.0);
    const double expected[4] = {3 * c * c, 3 * c * s, 3 * c * s, 3 * s * s};
    for (int k = 0; k < 4; ++k) assert_true(std::fabs(a[k] - expected[k]) < 1e-12);
    // Already PSD: unchanged. With a floor of 1: eigenvalue -1 (and 0.5) raised to 1.
    double b[9] = {2, 0, 0, 0, 0.5, 0, 0, 0, -1};
    kindred::linalg::SymmetricEigen eig3(3);
    double psd[9];
    std::memcpy(psd, b, sizeof b);
    psd[8] = 4;
    double copy[9];
    std::memcpy(copy, psd, sizeof psd);
    kindred::linalg::project_psd(eig3, psd, 0.0);
    for (int k = 0; k < 9; ++k) assert_true(std::fabs(psd[k] - copy[k]) < 1e-12);
    kindred::linalg::project_psd(eig3, b, 1.0);
    const double floored[9] = {2, 0, 0, 0, 1, 0, 0, 0, 1};
    for (int k = 0; k < 9; ++k) assert_true(std::fabs(b[k] - floored[k]) < 1e-12);
    // A non-symmetric input is symmetrised first: [[1, 4], [0, 1]] -> [[1, 2], [2, 1]],
    // eigenvalues 3 and -1, projection 3/2 [[1, 1], [1, 1]].
    double n[4] = {1, 4, 0, 1};
    kindred::linalg::project_psd(eig, n, 0.0);
    for (int k = 0; k < 4; ++k) assert_true(std::fabs(n[k] - 1.5) < 1e-12);
}

// ---------------------------------------------------------------- SideInfo

// The adjacency's neighbours are 32-bit below 2^31 rows and 64-bit from
// there on (a store that large is not built here: the choice itself).
void adjacency_neighbours_widen_past_32_bits(void **) {
    const int64_t big = (int64_t(1) << 31) + 5;
    kindred::Adjacency narrow, wide;
    const int64_t most = (int64_t(1) << 31) - 1;  // INT32_MAX rows: neighbours up to INT32_MAX - 1
    narrow.resize_entries(most, 2);
    narrow.set_neighbor(0, 7);
    narrow.set_neighbor(1, most - 1);
    assert_true(narrow.neighbor(0) == 7 && narrow.neighbor(1) == most - 1);
    assert_true(kindred::Adjacency::narrow_for((int64_t(1) << 31) - 1));
    assert_false(kindred::Adjacency::narrow_for(int64_t(1) << 31));
    wide.value = {1.0, -2.0};
    wide.resize_entries(big + 1, 2);
    wide.set_neighbor(0, big);
    wide.set_neighbor(1, 3);
    assert_true(wide.neighbor(0) == big && wide.neighbor(1) == 3);
    assert_true(wide.value[0] == 1.0 && wide.value[1] == -2.0);  // kept by the resize
}

// The propagated units' ids and sizes likewise: 32-bit while every value
// (at most n) fits, 64-bit past that.
void unit_ids_widen_past_32_bits(void **) {
    const int64_t most = (int64_t(1) << 31) - 1, big = (int64_t(1) << 31) + 5;
    assert_true(kindred::IndexVector::narrow_for(most));
    assert_false(kindred::IndexVector::narrow_for(most + 1));
    kindred::IndexVector narrow, wide;
    narrow.assign(3, most, 0);
    narrow.set(1, most);
    narrow.set(2, narrow[1] - 1);
    assert_true(narrow.size() == 3 && narrow[0] == 0 && narrow[1] == most && narrow[2] == most - 1);
    wide.assign(2, big, -1);
    wide.set(0, big);
    assert_true(wide.size() == 2 && wide[0] == big && wide[1] == -1);
}

void side_info_closure_of_a_small_graph(void **) {
    // Must-links 0-1, 1-2, 4-5, 5-6, 6-4 (a cycle), cannot-links 2-4, 0-2 (inside).
    SideInfo s(8);
    const int64_t i[7] = {0, 2, 5, 5, 4, 4, 0}, j[7] = {1, 1, 4, 6, 6, 2, 2};
    const double v[7] = {1, 1, 1, 1, 1, -1, -1};
    s.add_pairs(i, j, v, 7);
    const std::vector<int64_t> expected = {0, 0, 0, 1, 2, 2, 2, 3};
    assert_true(s.component() == expected);
    assert_int_equal(s.component_count(), 4);
    assert_int_equal(s.inconsistent().size(), 1);
    assert_int_equal(s.inconsistent()[0].i, 0);
    assert_int_equal(s.inconsistent()[0].j, 2);
    // Symmetric CSR adjacency: every pair appears from both ends with its value.
    const kindred::Adjacency &adj = s.adjacency();
    assert_int_equal(adj.indptr.size(), 9);
    assert_int_equal(adj.indptr[8], 14);
    for (const kindred::Pair &p : s.pairs()) {
        for (int end = 0; end < 2; ++end) {
            const int64_t from = end ? p.j : p.i, to = end ? p.i : p.j;
            bool found = false;
            for (int64_t e = adj.indptr[from]; e < adj.indptr[from + 1]; ++e)
                found |= adj.neighbor(e) == to && adj.value[e] == p.value;
            assert_true(found);
        }
    }
    assert_int_equal(adj.indptr[3] - adj.indptr[2], 3);  // 2: neighbours 1, 4, 0
    // A row's entries follow pairs() order (neighbours ascending): consumers
    // such as the HMRF constraints and the link counts rely on it.
    for (int64_t p = 0; p < 8; ++p)
        for (int64_t e = adj.indptr[p]; e < adj.indptr[p + 1]; ++e)
            if (e > adj.indptr[p]) assert_true(adj.neighbor(e - 1) < adj.neighbor(e));
    // Errors carry their codes; a failed batch changes nothing.
    const int64_t bad_i[2] = {3, 9}, bad_j[2] = {7, 0};
    assert_int_equal(code_of([&] { s.add_pairs(bad_i, bad_j, v, 2); }), KINDRED_E_INDEX);
    assert_int_equal(s.pairs().size(), 7);
    assert_int_equal(code_of([] { SideInfo empty(0); }), KINDRED_E_INVALID);
}

void disjoint_sets(void **) {
    kindred::DisjointSets sets(6);
    sets.unite(0, 1);
    sets.unite(2, 3);
    sets.unite(1, 3);
    sets.unite(3, 3);
    assert_int_equal(sets.find(0), sets.find(2));
    assert_int_not_equal(sets.find(0), sets.find(4));
    assert_int_not_equal(sets.find(4), sets.find(5));
}

// ---------------------------------------------------------------- choosing lambda from the pairs

// The mean square over the folds that gives a candidate of mean `score`
// the standard error `se` (calibrated_choice: se^2 = (square - score^2) / 2
// over kindred::kPairFolds = 3 folds).
double square_for(double score, double se) { return score * score + 2.0 * se * se; }

void calibrated_choice_by_hand(void **) {
    using kindred::calibrated_choice;
    assert_int_equal(kindred::kPairFolds, 3);
    // Best 0.70 (index 1) with standard error 0.01: 0.695 (index 2) is within
    // it, 0.60 and 0.50 are not. Of 1 and 2, 2 puts 0.45 of the held-out
    // pairs together against 0.5 must-links (ratio 0.9), 1 only 0.2 (0.4).
    std::vector<double> score = {0.60, 0.70, 0.695, 0.50};
    std::vector<double> square;
    for (double s : score) square.push_back(square_for(s, 0.01));
    std::vector<double> together = {1.0, 0.2, 0.45, 0.1};
    assert_int_equal(calibrated_choice(score, square, together, 0.5, 0), 2);
    // Ratios count both ways: 0.2 is as far from 0.1 as 0.05 is (ties: the earlier).
    together = {1.0, 0.2, 0.05, 0.1};
    assert_int_equal(calibrated_choice(score, square, together, 0.1, 0), 1);
    together = {1.0, 0.05, 0.2, 0.1};
    assert_int_equal(calibrated_choice(score, square, together, 0.1, 0), 1);
    // Held-out pairs of one kind only: the first candidate within the error.
    assert_int_equal(calibrated_choice(score, square, together, 0.0, 0), 1);
    assert_int_equal(calibrated_choice(score, square, together, 1.0, 0), 1);
    // A wider error (0.2) takes every candidate in: the best-calibrated wins.
    square.clear();
    for (double s : score) square.push_back(square_for(s, 0.2));
    together = {0.5, 0.2, 0.45, 0.1};
    assert_int_equal(calibrated_choice(score, square, together, 0.5, 0), 0);
    // Edge 1: candidate 0 takes part only when candidate 1 scores above every
    // later one. Here it does (0.80 > 0.70 > 0.60), so 0 (0.90) is the best.
    score = {0.90, 0.80, 0.70, 0.60};
    square.clear();
    for (double s : score) square.push_back(square_for(s, 0.001));
    together = {0.5, 0.4, 0.3, 0.2};
    assert_int_equal(calibrated_choice(score, square, together, 0.4, 1), 0);
    // Not rising at the edge (0.85 after 0.80): candidate 0 is left out, and
    // the best of the others is 2.
    score = {0.90, 0.80, 0.85, 0.60};
    square.clear();
    for (double s : score) square.push_back(square_for(s, 0.001));
    assert_int_equal(calibrated_choice(score, square, together, 0.5, 1), 2);
    // A tie at the edge is not rising either.
    score = {0.90, 0.80, 0.80, 0.60};
    square.clear();
    for (double s : score) square.push_back(square_for(s, 0.0));
    assert_int_equal(calibrated_choice(score, square, together, 0.5, 1), 2);  // flat top {1, 2}: its middle
    // A flat top: every candidate scores exactly the same with no spread over
    // the folds: the middle one, whatever the shares.
    score.assign(5, 0.7);
    square.assign(5, 0.49);
    together = {1.0, 0.8, 0.6, 0.4, 0.2};
    assert_int_equal(calibrated_choice(score, square, together, 0.5, 0), 2);
}

// ---------------------------------------------------------------- options

OptionTable test_table() {
    OptionTable t = {
        OptionSpec::integer("k", 3, 1, 10, "clusters"),
        OptionSpec::real("lambda", 0, 0, kindred::kInf, "penalty").open_low().unset(),
        OptionSpec::real("rate", 0.5, 0, 1, "a rate").open_high(),
        OptionSpec::boolean("verbose", false, "talk"),
        OptionSpec::choice("metric", "euclidean", "euclidean|cosine", "distance"),
    };
    kindred::append_common_options(t);
    return t;
}

void option_ranges_and_validation(void **) {
    const OptionTable table = test_table();
    assert_string_equal(table[0].range_text.c_str(), "[1, 10]");
    assert_string_equal(table[1].range_text.c_str(), "(0, inf]");
    assert_string_equal(table[2].range_text.c_str(), "[0, 1)");
    assert_string_equal(table[3].range_text.c_str(), "0|1");
    assert_string_equal(table[4].range_text.c_str(), "euclidean|cosine");
    assert_string_equal(table[1].default_text.c_str(), "");
    OptionValues o(&table);
    // Defaults.
    assert_int_equal(o.get_int("k"), 3);
    assert_false(o.is_set("lambda"));
    assert_string_equal(o.text("lambda").c_str(), "");
    assert_true(o.get_double("rate") == 0.5);
    assert_false(o.get_bool("verbose"));
    assert_string_equal(o.get_choice("metric").c_str(), "euclidean");
    assert_int_equal(o.get_int("seed"), 0);
    // Closed and open bounds.
    assert_int_equal(code_of([&] { o.set_number("k", 0); }), KINDRED_E_INVALID);
    assert_int_equal(code_of([&] { o.set_number("k", 11); }), KINDRED_E_INVALID);
    assert_int_equal(code_of([&] { o.set_number("k", 2.5); }), KINDRED_E_INVALID);
    assert_int_equal(code_of([&] { o.set_number("k", 10); }), KINDRED_OK);
    assert_int_equal(code_of([&] { o.set_number("lambda", 0.0); }), KINDRED_E_INVALID);
    assert_int_equal(code_of([&] { o.set_number("lambda", 1e-300); }), KINDRED_OK);
    assert_true(o.is_set("lambda"));
    assert_int_equal(code_of([&] { o.set_number("lambda", kindred::kInf); }), KINDRED_OK);
    assert_int_equal(code_of([&] { o.set_number("rate", 1.0); }), KINDRED_E_INVALID);
    assert_int_equal(code_of([&] { o.set_number("rate", 0.0); }), KINDRED_OK);
    assert_int_equal(code_of([&] { o.set_number("rate", NAN); }), KINDRED_E_INVALID);
    assert_int_equal(code_of([&] { o.set_number("verbose", 2); }), KINDRED_E_INVALID);
    assert_int_equal(code_of([&] { o.set_number("metric", 1); }), KINDRED_E_INVALID);
    assert_int_equal(code_of([&] { o.set_number("nosuch", 1); }), KINDRED_E_NOT_FOUND);
    assert_int_equal(code_of([&] { o.get_int("nosuch"); }), KINDRED_E_NOT_FOUND);
    // Text forms.
    o.set_text("k", "7");
    assert_int_equal(o.get_int("k"), 7);
    o.set_text("verbose", "yes");
    assert_true(o.get_bool("verbose"));
    o.set_text("verbose", "off");
    assert_false(o.get_bool("verbose"));
    o.set_text("metric", "cosine");
    assert_string_equal(o.text("metric").c_str(), "cosine");
    assert_int_equal(code_of([&] { o.set_text("metric", "cos"); }), KINDRED_E_INVALID);
    assert_int_equal(code_of([&] { o.set_text("metric", "cosine|euclidean"); }), KINDRED_E_INVALID);
    assert_int_equal(code_of([&] { o.set_text("metric", ""); }), KINDRED_E_INVALID);
    assert_int_equal(code_of([&] { o.set_text("k", "7x"); }), KINDRED_E_INVALID);
    assert_int_equal(code_of([&] { o.set_text("k", ""); }), KINDRED_E_INVALID);
    assert_int_equal(code_of([&] { o.set_text("lambda", "1e999"); }), KINDRED_E_INVALID);
    assert_int_equal(code_of([&] { o.set_text("verbose", "maybe"); }), KINDRED_E_INVALID);
    assert_int_equal(o.get_int("k"), 7);  // failed sets leave the value
    o.set_text("lambda", "0.25");
    assert_string_equal(o.text("lambda").c_str(), "0.25");
    // Reading with the wrong type or an unset value is a bug in the algorithm: INTERNAL.
    OptionValues fresh(&table);
    assert_int_equal(code_of([&] { fresh.get_double("lambda"); }), KINDRED_E_INTERNAL);
    assert_int_equal(code_of([&] { fresh.get_choice("k"); }), KINDRED_E_INTERNAL);
    const std::vector<std::string> texts = fresh.all_texts();
    assert_int_equal(texts.size(), table.size());
    assert_string_equal(texts[0].c_str(), "3");
    // Every default of the table is valid for its own option.
    for (const OptionSpec &s : table)
        if (!s.default_text.empty()) assert_int_equal(code_of([&] { fresh.set_text(s.name, s.default_text); }), KINDRED_OK);
}

void format_number_round_trips(void **) {
    using kindred::format_number;
    assert_string_equal(format_number(10).c_str(), "10");
    assert_string_equal(format_number(0.001).c_str(), "0.001");
    assert_string_equal(format_number(1e-4).c_str(), "0.0001");
    assert_string_equal(format_number(-3).c_str(), "-3");
    assert_string_equal(format_number(kindred::kInf).c_str(), "inf");
    assert_string_equal(format_number(-kindred::kInf).c_str(), "-inf");
    assert_string_equal(format_number(0.1).c_str(), "0.1");
    std::vector<double> values = {1.0 / 3.0, 2.0 / 3.0, 0.1 + 0.2, 1e15, 1e15 + 1, 9007199254740993.0, 1e300,
                                  -1e-300, 4.9e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
                                  double(INT64_MAX), -123456.789};
    Rng rng(4);
    for (int k = 0; k < 5000; ++k) {
        // Random bit patterns: every finite double must read back exactly.
        uint64_t bits = rng.next_u64();
        double v;
        std::memcpy(&v, &bits, sizeof v);
        if (std::isfinite(v)) values.push_back(v);
        values.push_back((rng.uniform() - 0.5) * std::pow(10.0, double(rng.below(40)) - 20));
    }
    for (double v : values) {
        const std::string text = format_number(v);
        assert_true(std::strtod(text.c_str(), nullptr) == v);
    }
}

// ---------------------------------------------------------------- row_min

// The rule linalg::row_min documents, one entry at a time: four lanes
// started at v[0]; lane t keeps "v[c] < lo ? v[c] : lo" for the entries
// c = t mod 4 of the whole groups of four, lane 0 also the rest; then the
// lanes merged in order by the same rule.
double row_min_by_lanes(const double *v, int64_t m) {
    double lo[4] = {v[0], v[0], v[0], v[0]};
    int64_t c = 0;
    for (; c + 4 <= m; c += 4)
        for (int t = 0; t < 4; ++t) lo[t] = v[c + t] < lo[t] ? v[c + t] : lo[t];
    for (; c < m; ++c) lo[0] = v[c] < lo[0] ? v[c] : lo[0];
    double smallest = lo[0];
    for (int t = 1; t < 4; ++t) smallest = lo[t] < smallest ? lo[t] : smallest;
    return smallest;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// The vector form gives the rule's value bit for bit (signs of zeros and
// NaN included) and, without NaN at v[0], the smallest non-NaN entry.
void row_min_follows_its_lanes(void **) {
    Rng rng(11);
    const double specials[] = {0.0, -0.0, kindred::kInf, -kindred::kInf, std::nan(""), 1.0, -1.0};
    for (int trial = 0; trial < 4000; ++trial) {
        const int64_t m = 1 + static_cast<int64_t>(rng.below(70));
        std::vector<double> v(static_cast<size_t>(m));
        for (double &x : v) {
            // Few distinct values, so that ties and zeros of both signs meet.
            x = rng.below(4) == 0 ? specials[rng.below(7)] : static_cast<double>(rng.below(9)) - 4.0;
        }
        if (trial % 3 == 0) v[0] = std::nan("");
        const double got = kindred::linalg::row_min(v.data(), m);
        assert_true(same_bits(got, row_min_by_lanes(v.data(), m)));
        if (std::isnan(v[0])) {
            assert_true(std::isnan(got));
        } else {
            double smallest = v[0];
            for (const double x : v)
                if (x < smallest) smallest = x;
            assert_true(got == smallest);
        }
    }
}

// The small-k kernel's value is -2 times the sum over j in index order of
// x_j c_j, bit for bit (its header's rule), each step a product and an add
// or, where the build fuses them, one fused multiply-add: for float64 and float32 rows,
// row- and column-major, any k up to kMaxK (whole and partial tiles), an
// odd number of rows picked out of order.
void small_k_cross_sums_in_index_order(void **) {
    Rng rng(5);
    const int64_t n = 41;
    for (const int64_t d : {int64_t(1), int64_t(7), int64_t(16)})
        for (int64_t k = 1; k <= kindred::linalg::CentreTiles::kMaxK; ++k)
            for (int layout = 0; layout < 3; ++layout) {
                std::vector<double> x(static_cast<size_t>(n * d)), stored(x.size()), c(static_cast<size_t>(k * d));
                std::vector<float> stored_f32(x.size());
                for (int64_t i = 0; i < n; ++i)
                    for (int64_t j = 0; j < d; ++j) {
                        const double v = static_cast<float>(rng.normal());
                        x[i * d + j] = v;
                        const int64_t e = layout == 1 ? i + j * n : i * d + j;
                        stored[e] = v;
                        stored_f32[e] = static_cast<float>(v);
                    }
                for (double &v : c) v = rng.normal();
                kindred::DenseView view;
                view.n = n;
                view.d = d;
                view.ld = layout == 1 ? n : d;
                view.row_major = layout != 1;
                if (layout == 2)
                    view.xf = stored_f32.data();
                else
                    view.x = stored.data();
                std::vector<int64_t> rows;
                for (int64_t i = n - 1; i >= 0; i -= 2) rows.push_back(i);
                const int64_t m = static_cast<int64_t>(rows.size());
                const kindred::linalg::CentreTiles tiles(c.data(), k, d);
                std::vector<double> out(static_cast<size_t>(m * k));
                kindred::linalg::small_k_cross(view, rows.data(), m, tiles, out.data());
                for (int64_t r = 0; r < m; ++r)
                    for (int64_t cc = 0; cc < k; ++cc) {
                        double sum = 0.0, fused = 0.0;
                        for (int64_t j = 0; j < d; ++j) {
                            const double product = x[rows[r] * d + j] * c[cc * d + j];
                            sum += product;
                            fused = std::fma(x[rows[r] * d + j], c[cc * d + j], fused);
                        }
                        assert_true(same_bits(out[r * k + cc], -2.0 * sum) || same_bits(out[r * k + cc], -2.0 * fused));
                    }
            }
}

// ---------------------------------------------------------------- label_sums

// The additions label_sums documents, written plainly: per chunk of `chunk`
// rows one block of partial sums from 0, the blocks added in chunk order.
void reference_label_sums(const kindred::DataView &data, const std::vector<int32_t> &labels, const double *weight,
                          int64_t k, int64_t chunk, std::vector<double> &sums, std::vector<double> &wsum) {
    const int64_t n = data.n(), d = data.d();
    sums.assign(static_cast<size_t>(k * d), 0.0);
    wsum.assign(static_cast<size_t>(k), 0.0);
    for (int64_t lo = 0; lo < n; lo += chunk) {
        std::vector<double> part(static_cast<size_t>(k * d), 0.0), part_w(static_cast<size_t>(k), 0.0);
        for (int64_t i = lo; i < std::min(n, lo + chunk); ++i) {
            const int32_t l = labels[i];
            if (l < 0 || l >= k) continue;
            const double w = weight ? weight[i] : 1.0;
            data.add_row(i, w, part.data() + l * d);
            part_w[l] += w;
        }
        for (int64_t v = 0; v < k * d; ++v) sums[v] += part[v];
        for (int64_t l = 0; l < k; ++l) wsum[l] += part_w[l];
    }
}

// Both ways of label_sums (blocks per chunk for few labels, the counting
// sort for many: issue 23) give the reference's bits, dense and CSR,
// weighted or not, on 1 and 2 threads.
void label_sums_same_bits_both_ways(void **) {
    const int64_t chunk = 64, n = 5 * chunk + 17, d = 6;
    Rng rng(11);
    std::vector<double> x(static_cast<size_t>(n * d)), weight(static_cast<size_t>(n));
    std::vector<int64_t> indptr(1, 0), indices;
    std::vector<double> values;
    for (int64_t i = 0; i < n; ++i) {
        weight[i] = 0.1 + rng.uniform();
        for (int64_t j = 0; j < d; ++j) {
            // Magnitudes over many orders, so that the order of additions shows in the bits.
            const double v = rng.uniform() < 0.4 ? 0.0 : (rng.uniform() - 0.3) * std::pow(10.0, rng.below(12) - 6.0);
            x[i * d + j] = v;
            if (v != 0.0) {
                indices.push_back(j);
                values.push_back(v);
            }
        }
        indptr.push_back(static_cast<int64_t>(indices.size()));
    }
    kindred::DenseView dense;
    dense.x = x.data();
    dense.n = n;
    dense.d = dense.ld = d;
    kindred::CsrView csr;
    csr.indptr = indptr.data();
    csr.indices = indices.data();
    csr.values = values.data();
    csr.n = n;
    csr.d = d;
    const kindred::DataView views[2] = {kindred::DataView::dense(dense), kindred::DataView::csr(csr)};
    // k = 2: blocks per chunk; k = n: the counting sort (4 x n x d > the stored values).
    for (const int64_t k : {int64_t(2), n}) {
        std::vector<int32_t> labels(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) labels[i] = static_cast<int32_t>(rng.below(k + 1)) - 1;  // some -1
        for (const kindred::DataView &data : views)
            for (const double *w : {static_cast<const double *>(nullptr), static_cast<const double *>(weight.data())}) {
                std::vector<double> ref, ref_w;
                reference_label_sums(data, labels, w, k, chunk, ref, ref_w);
                for (int threads : {1, 2}) {
                    std::vector<double> sums, wsum;
                    std::vector<int64_t> counts;
                    kindred::label_sums(data, labels.data(), w, k, chunk, threads, sums, &wsum, counts);
                    assert_int_equal(sums.size(), ref.size());
                    assert_memory_equal(sums.data(), ref.data(), sums.size() * sizeof(double));
                    assert_memory_equal(wsum.data(), ref_w.data(), wsum.size() * sizeof(double));
                    int64_t counted = 0;
                    for (int64_t c : counts) counted += c;
                    assert_int_equal(counted, std::count_if(labels.begin(), labels.end(), [](int32_t l) { return l >= 0; }));
                }
            }
    }
}

// Hamerly's bounds skip points, never change a label: along Lloyd runs
// (centres = the means of the labels), the bounded step gives the labels of
// the plain blocked step at every iteration, and the same distances up to
// rounding, for row-major, column-major, float32 and CSR points, one and two
// threads, k = 1, 3 and 12 (some clusters then empty and kept in place).
void bounded_nearest_gives_the_plain_labels(void **) {
    const int64_t n = 3000, d = 5;
    kindred::Rng rng(11);
    std::vector<double> rows(static_cast<size_t>(n * d)), cols(static_cast<size_t>(n * d));
    std::vector<float> rows_f32(static_cast<size_t>(n * d));
    std::vector<int64_t> indptr(1, 0), indices;
    std::vector<double> values;
    for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < d; ++j) {
            const double v = static_cast<float>((j == i % d ? 3.0 * static_cast<double>(i % 4) : 0.0) + rng.normal());
            rows[i * d + j] = v;
            cols[j * n + i] = v;
            rows_f32[i * d + j] = static_cast<float>(v);
            if (j % 2 == 0 || i % 3 == 0) {
                indices.push_back(j);
                values.push_back(v);
            }
        }
        indptr.push_back(static_cast<int64_t>(indices.size()));
    }
    kindred::DenseView row_view, col_view, f32_view;
    row_view.x = rows.data();
    row_view.n = n;
    row_view.d = row_view.ld = d;
    col_view = row_view;
    col_view.x = cols.data();
    col_view.ld = n;
    col_view.row_major = false;
    f32_view = row_view;
    f32_view.x = nullptr;
    f32_view.xf = rows_f32.data();
    kindred::CsrView csr;
    csr.indptr = indptr.data();
    csr.indices = indices.data();
    csr.values = values.data();
    csr.n = n;
    csr.d = d;
    const kindred::DataView views[4] = {kindred::DataView::dense(row_view), kindred::DataView::dense(col_view),
                                        kindred::DataView::dense(f32_view), kindred::DataView::csr(csr)};
    int64_t skipped = 0;
    for (const kindred::DataView &data : views)
        for (const int64_t k : {int64_t(1), int64_t(3), int64_t(12)})
            for (int threads : {1, 2}) {
                kindred::NearestCenter plain(data, threads);
                kindred::BoundedNearest bounded(data, threads, plain.x_sqnorm());
                std::vector<double> centers(static_cast<size_t>(k * d));
                for (int64_t c = 0; c < k; ++c) data.copy_row(c * 97 % n, centers.data() + c * d);
                std::vector<int32_t> expected(static_cast<size_t>(n)), got(static_cast<size_t>(n), 0);
                std::vector<double> expected_dist(static_cast<size_t>(n)), got_dist(static_cast<size_t>(n));
                for (int it = 0; it < 12; ++it) {
                    plain.assign(centers.data(), k, expected.data(), expected_dist.data());
                    // Every other iteration without distances: the bounds alone.
                    bounded.assign(centers.data(), k, got.data(), it % 2 ? nullptr : got_dist.data());
                    assert_memory_equal(got.data(), expected.data(), static_cast<size_t>(n) * sizeof(int32_t));
                    if (it % 2 == 0)
                        for (int64_t i = 0; i < n; ++i)
                            assert_true(std::fabs(got_dist[i] - expected_dist[i]) <= 1e-9 * (1.0 + expected_dist[i]));
                    if (it > 0) skipped += n - bounded.recomputed();
                    std::vector<double> sums;
                    std::vector<int64_t> counts;
                    kindred::cluster_sums(data, expected.data(), k, threads, sums, counts);
                    for (int64_t c = 0; c < k; ++c)
                        for (int64_t j = 0; j < d; ++j)
                            if (counts[c] > 0) centers[c * d + j] = sums[c * d + j] / static_cast<double>(counts[c]);
                }
            }
    assert_true(skipped > 0);  // the bounds did skip points (the test is not of the plain step twice)
}


// The sharded cluster_sums over ranks that are threads (tests/common/thread_comm.h):
// the bits of cluster_sums in one process, both with few labels (a k x d
// block per global chunk, gathered) and with more labels than n / chunks (the
// records of the labels each chunk holds: the must-link units of PCKMeans and
// MPCK-means, whose blocks grew as n^2). Three chunks and a partial one,
// labels -1 (skipped) included, split over 2 and 3 ranks at chunk boundaries.
void sharded_cluster_sums_are_the_single_process_sums(void **) {
    const int64_t chunk = kindred::Collective::kChunk, n = 3 * chunk + 1234, d = 3;
    std::vector<double> x(static_cast<size_t>(n * d));
    kindred::Rng rng(11);
    for (double &v : x) v = rng.normal() * 1e3 + 0.1;
    const kindred::DataView data = kindred::DataView::dense(kindred::DenseView{x.data(), n, d, d, true});
    for (const int64_t k : {int64_t(7), int64_t(40000)}) {
        assert_true((k > n / 3) == (k == 40000));  // the second k takes the records' way
        std::vector<int32_t> labels(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) labels[i] = i % 17 == 0 ? -1 : static_cast<int32_t>(rng.below(k));
        std::vector<double> expected;
        std::vector<int64_t> expected_counts;
        kindred::cluster_sums(data, labels.data(), k, 1, expected, expected_counts);
        for (const int p : {2, 3}) {
            thread_world w;
            thread_world_init(&w, p);
            std::vector<std::vector<double>> sums(static_cast<size_t>(p));
            std::vector<std::vector<int64_t>> counts(static_cast<size_t>(p));
            std::vector<std::thread> ranks;
            std::vector<thread_rank> links(static_cast<size_t>(p));
            std::vector<kindred_comm> comms(static_cast<size_t>(p));
            for (int r = 0; r < p; ++r) {
                thread_comm(&w, r, &links[r], &comms[r]);
                // Rank r holds chunks [r, r + 1), the last rank the rest (with 3 ranks: 1, 1, 2 chunks).
                const int64_t first = r * chunk, last = r == p - 1 ? n : (r + 1) * chunk;
                ranks.emplace_back([&, r, first, last] {
                    const kindred::Collective collective(comms[r], first, last - first, n);
                    kindred::cluster_sums(kindred::DataView::dense(kindred::DenseView{x.data() + first * d, last - first, d, d, true}),
                                          collective, labels.data() + first, k, 1, sums[r], counts[r]);
                });
            }
            for (std::thread &t : ranks) t.join();
            thread_world_destroy(&w);
            for (int r = 0; r < p; ++r) {
                assert_memory_equal(sums[r].data(), expected.data(), expected.size() * sizeof(double));
                assert_memory_equal(counts[r].data(), expected_counts.data(), expected_counts.size() * sizeof(int64_t));
            }
        }
    }
}

}  // namespace

int main() {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bounded_nearest_gives_the_plain_labels),
        cmocka_unit_test(rng_stream_is_pinned),
        cmocka_unit_test(rng_same_seed_same_stream),
        cmocka_unit_test(rng_below_is_in_range_and_uniform),
        cmocka_unit_test(rng_normal_gamma_beta_moments),
        cmocka_unit_test(rng_categorical_and_shuffle),
        cmocka_unit_test(psd_projection_of_a_rotated_diagonal),
        cmocka_unit_test(adjacency_neighbours_widen_past_32_bits),
        cmocka_unit_test(unit_ids_widen_past_32_bits),
        cmocka_unit_test(side_info_closure_of_a_small_graph),
        cmocka_unit_test(disjoint_sets),
        cmocka_unit_test(calibrated_choice_by_hand),
        cmocka_unit_test(option_ranges_and_validation),
        cmocka_unit_test(format_number_round_trips),
        cmocka_unit_test(row_min_follows_its_lanes),
        cmocka_unit_test(small_k_cross_sums_in_index_order),
        cmocka_unit_test(label_sums_same_bits_both_ways),
        cmocka_unit_test(sharded_cluster_sums_are_the_single_process_sums),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
