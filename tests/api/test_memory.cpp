// Each algorithm's memory against what docs/reliability.md states. This
// executable counts the bytes the library holds through operator new (its own
// replacement, which the shared library's allocations resolve to) and records
// the peak during a fit. For every algorithm the documented bytes per point,
// a d + b k + c (+ e p for the points' side information), is checked against
// the measured growth of the peak between n and 2n points: the largest term of
// every formula is linear in n at the sizes a user runs.
//
// `test_memory --table` prints the measured peaks (the figures of the doc:
// d and k doubled, pairs per point doubled).
#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

extern "C" {
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
}

#include "kindred.h"
#include "replaced_operator_new.hpp"

namespace {

std::atomic<long long> live{0}, peak{0};

}  // namespace

void *test_allocate(std::size_t size) {
    void *p = std::malloc(size ? size : 1);
    if (!p) return nullptr;
    const long long now = live += static_cast<long long>(malloc_usable_size(p));
    long long seen = peak.load();
    while (now > seen && !peak.compare_exchange_weak(seen, now)) {
    }
    return p;
}

// Not inlined into operator delete, where GCC would take the free() for a
// mismatch with operator new (it cannot see that new comes from malloc here).
__attribute__((noinline)) void test_release(void *p) {
    if (!p) return;
    live -= static_cast<long long>(malloc_usable_size(p));
    std::free(p);
}

namespace {

constexpr int64_t kD = 8, kK = 8;

// What docs/reliability.md ("Memory") states: the bytes a fit holds per
// point at d = 8, k = 8 and 2 pairs per point, and per pair for the methods
// that keep structures per pair (the side-information store is apart).
struct Documented {
    const char *algorithm;
    double per_point, per_pair;
};

const Documented kDocumented[] = {
    {"kmeans", 172, 0},   {"dpmeans", 15, 0},  {"gmm", 204, 0},     {"copkmeans", 363, 40},
    {"pckmeans", 657, 181}, {"mpckmeans", 675, 181}, {"tcs-gm", 407, 0}, {"tcs-vmf", 472, 0},
    {"dcrc", 598, 0},     {"rdpmeans", 128, 32}, {"tvclust", 136, 0},
};

struct Inputs {
    std::vector<double> x;
    std::vector<int32_t> truth;
    kindred_side *side = nullptr;
};

// Separated blobs of k groups; 2 pairs, 1 triplet per point and every 20th point labelled.
Inputs make_inputs(int64_t n, int64_t d, int64_t k, int64_t pairs_per_point = 2) {
    Inputs in;
    uint64_t state = 12345;
    auto next = [&] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<double>(state >> 11) * (1.0 / 9007199254740992.0);
    };
    for (int64_t p = 0; p < n; ++p) {
        const int32_t c = static_cast<int32_t>(p % k);
        in.truth.push_back(c);
        for (int64_t j = 0; j < d; ++j) in.x.push_back((j == c % d ? 10.0 * (1 + c / d) : 0.0) + next());
    }
    if (kindred_side_new(&in.side, n) != KINDRED_OK ||
        kindred_sample_pairs(in.side, in.truth.data(), n, pairs_per_point * n, 0.0, 0.0, 1) != KINDRED_OK ||
        kindred_sample_triplets(in.side, in.truth.data(), n, n, 0.0, 1) != KINDRED_OK)
        std::abort();
    std::vector<int32_t> partial(static_cast<size_t>(n), -1);
    for (int64_t p = 0; p < n; p += 20) partial[static_cast<size_t>(p)] = in.truth[static_cast<size_t>(p)];
    if (kindred_side_set_partial_labels(in.side, partial.data(), n) != KINDRED_OK) std::abort();
    return in;
}

// Peak bytes held by the library during one fit, above what it held before.
long long fit_peak(const char *algorithm, const Inputs &in, int64_t n, int64_t d, int64_t k) {
    kindred_model *m = nullptr;
    if (kindred_model_new(&m, algorithm) != KINDRED_OK) std::abort();
    kindred_model_set_int(m, "k", k);
    kindred_model_set_int(m, "threads", 1);
    kindred_model_set_int(m, "max_iter", 5);
    const long long before = live.load();
    peak = before;
    const kindred_status status = kindred_model_fit_dense(m, in.x.data(), n, d, KINDRED_ROW_MAJOR, d, in.side);
    const long long used = peak.load() - before;
    if (status != KINDRED_OK) {
        std::fprintf(stderr, "%s: %s\n", algorithm, kindred_last_error());
        std::abort();
    }
    kindred_model_free(m);
    return used;
}

// Within 20 %, or a few bytes for the smallest figures (the iterations a
// fit takes, and so its short-lived buffers, vary a little with n).
void expect_close(const char *algorithm, const char *what, double measured, double documented) {
    const double slack = std::max(0.2 * documented, 6.0);
    print_message("%-10s %-9s measured %7.1f bytes, documented %5.0f\n", algorithm, what, measured, documented);
    if (std::fabs(measured - documented) > slack)
        fail_msg("%s: %s measured %.1f bytes, docs/reliability.md says %.0f", algorithm, what, measured, documented);
}

// The largest term of every fit is n times its bytes per point (and the pairs
// times their bytes): the peak's growth from n to 2n points, and from 2 to 4
// pairs per point, must match the documented figures.
void growth_matches_the_documented_bytes(void **) {
    constexpr int64_t n = 4000;
    assert_int_equal(kindred_algorithm_count(), sizeof kDocumented / sizeof kDocumented[0]);
    for (const Documented &doc : kDocumented) {
        Inputs small = make_inputs(n, kD, kK), large = make_inputs(2 * n, kD, kK);
        const double per_point =
            static_cast<double>(fit_peak(doc.algorithm, large, 2 * n, kD, kK) - fit_peak(doc.algorithm, small, n, kD, kK)) / n;
        expect_close(doc.algorithm, "per point", per_point, doc.per_point);
        if (doc.per_pair > 0) {
            Inputs more = make_inputs(2 * n, kD, kK, 4);
            const double per_pair =
                static_cast<double>(fit_peak(doc.algorithm, more, 2 * n, kD, kK) - fit_peak(doc.algorithm, large, 2 * n, kD, kK)) /
                (2.0 * 2 * n);
            expect_close(doc.algorithm, "per pair", per_pair, doc.per_pair);
            kindred_side_free(more.side);
        }
        kindred_side_free(small.side);
        kindred_side_free(large.side);
    }
}

// The side-information store (kept while the handle lives): bytes per point,
// per distinct pair and per triplet, as docs/reliability.md states them.
long long side_bytes(int64_t n, int64_t pairs, int64_t triplets) {
    std::vector<int64_t> i, j, a, b, c;
    std::vector<double> v;
    std::vector<int32_t> answer;
    for (int64_t e = 0; e < pairs; ++e) {  // distinct pairs (e, e + 1 + e / n) with e < n
        i.push_back(e % n);
        j.push_back((e % n + 1 + e / n) % n);
        v.push_back(e % 3 ? 1.0 : -1.0);
    }
    for (int64_t e = 0; e < triplets; ++e) {
        a.push_back(e % n);
        b.push_back((e + 1) % n);
        c.push_back((e + 2) % n);
        answer.push_back(1);
    }
    const long long before = live.load();
    kindred_side *s = nullptr;
    assert_int_equal(kindred_side_new(&s, n), KINDRED_OK);
    assert_int_equal(kindred_side_add_pairs(s, i.data(), j.data(), v.data(), pairs), KINDRED_OK);
    assert_int_equal(kindred_side_add_triplets(s, a.data(), b.data(), c.data(), answer.data(), triplets), KINDRED_OK);
    const long long used = live.load() - before;
    kindred_side_free(s);
    return used;
}

void side_store_matches_the_documented_bytes(void **) {
    constexpr int64_t n = 20000;
    const double base = static_cast<double>(side_bytes(n, 0, 0));
    expect_close("side", "per point", base / n, 32);
    expect_close("side", "per pair", (static_cast<double>(side_bytes(n, 2 * n, 0)) - base) / (2 * n), 56);
    expect_close("side", "per triplet", (static_cast<double>(side_bytes(n, 0, 2 * n)) - base) / (2 * n), 32);
}

}  // namespace

int main(int argc, char **argv) {
    if (argc == 2 && std::strcmp(argv[1], "--table") == 0) {
        const int64_t sizes[][4] = {{4000, 8, 8, 2}, {8000, 8, 8, 2}, {8000, 16, 8, 2}, {8000, 8, 16, 2}, {8000, 8, 8, 4}};
        std::printf("%-10s", "algorithm");
        for (auto &s : sizes) std::printf("  n=%ld,d=%ld,k=%ld,p=%ld", (long)s[0], (long)s[1], (long)s[2], (long)s[3]);
        std::printf("\n");
        for (int64_t a = 0; a < kindred_algorithm_count(); ++a) {
            const char *algorithm = kindred_algorithm_name(a);
            std::printf("%-10s", algorithm);
            for (auto &s : sizes) {
                Inputs in = make_inputs(s[0], s[1], s[2], s[3]);
                std::printf("  %20.0f", static_cast<double>(fit_peak(algorithm, in, s[0], s[1], s[2])));
                kindred_side_free(in.side);
            }
            std::printf("\n");
        }
        return 0;
    }
    const CMUnitTest tests[] = {
        cmocka_unit_test(growth_matches_the_documented_bytes),
        cmocka_unit_test(side_store_matches_the_documented_bytes),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
