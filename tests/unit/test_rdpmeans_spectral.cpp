// The spectral initialiser of RDP-means (section 4.7): the eigenvectors of
// K + xi_1 E+ - xi_2 E- above lambda, rounded by k-means.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <vector>

// Before cmocka.h, whose fail() macro would clash with kindred::fail.
#include "algorithms/algorithm.hpp"
#include "algorithms/rdpmeans/spectral.hpp"
#include "core/error.hpp"
#include "core/rng.hpp"
#include "core/side_info.hpp"

extern "C" {
#include <cmocka.h>
}

namespace {

// Three tight blobs of `per` points around 10 e_1, 10 e_2, 10 e_3.
std::vector<double> three_blobs(int64_t per) {
    kindred::Rng rng(7);
    std::vector<double> x;
    for (int c = 0; c < 3; ++c)
        for (int64_t i = 0; i < per; ++i)
            for (int j = 0; j < 3; ++j) x.push_back((j == c ? 10.0 : 0.0) + 0.1 * rng.normal());
    return x;
}

}  // namespace

namespace kindred {
const AlgorithmSpec &rdpmeans_spec();
}

static std::vector<int32_t> run(const std::vector<double> &x, int64_t n, const kindred::SideInfo *side, double lambda,
                                double xi) {
    kindred::DenseView v;
    v.x = x.data();
    v.n = n;
    v.d = v.ld = 3;
    const kindred::DataView data = kindred::DataView::dense(v);
    kindred::OptionValues opts(&kindred::rdpmeans_spec().options);
    opts.set_number("seed", 3);
    kindred::Progress progress;
    kindred::Log log;
    const kindred::FitContext ctx{data, side, opts, progress, log, 1};
    return kindred::spectral_initial_labels(ctx, lambda, xi, xi, 5);
}

static void recovers_three_blobs(void **state) {
    (void)state;
    const int64_t per = 20, n = 3 * per;
    const std::vector<double> x = three_blobs(per);
    // Each blob adds an eigenvalue of about per * 100 = 2000 to K = X X^T.
    const std::vector<int32_t> z = run(x, n, nullptr, 100.0, 0.0);
    for (int c = 0; c < 3; ++c)
        for (int64_t i = 1; i < per; ++i) assert_int_equal(z[c * per + i], z[c * per]);
    assert_int_not_equal(z[0], z[per]);
    assert_int_not_equal(z[0], z[2 * per]);
    assert_int_not_equal(z[per], z[2 * per]);
}

static void lambda_above_every_eigenvalue_gives_one_cluster(void **state) {
    (void)state;
    const std::vector<double> x = three_blobs(10);
    const std::vector<int32_t> z = run(x, 30, nullptr, 1e6, 0.0);
    for (int32_t v : z) assert_int_equal(v, 0);
}

static void may_links_join_two_blobs(void **state) {
    (void)state;
    // Blobs 0 and 1 (10 points each) fully may-linked with xi = 100. K has
    // an eigenvalue of about 10 * 100 = 1000 per blob along its indicator;
    // xi (J - I) on the 20 linked points adds 19 xi along their joint
    // indicator and -xi along the difference of the two blobs: eigenvalues
    // about 2900 (blobs 0 + 1), 1000 (blob 2), 900 (0 against 1), then <= 0.
    // With lambda = 950 two eigenvectors remain: blobs 0 + 1, and blob 2.
    const int64_t per = 10, n = 3 * per;
    const std::vector<double> x = three_blobs(per);
    kindred::SideInfo side(n);
    std::vector<int64_t> a, b;
    std::vector<double> v;
    for (int64_t i = 0; i < 2 * per; ++i)
        for (int64_t j = i + 1; j < 2 * per; ++j) {
            a.push_back(i);
            b.push_back(j);
            v.push_back(1.0);
        }
    side.add_pairs(a.data(), b.data(), v.data(), static_cast<int64_t>(a.size()));
    const std::vector<int32_t> z = run(x, n, &side, 950.0, 100.0);
    for (int64_t i = 1; i < 2 * per; ++i) assert_int_equal(z[i], z[0]);
    for (int64_t i = 2 * per + 1; i < n; ++i) assert_int_equal(z[i], z[2 * per]);
    assert_int_not_equal(z[0], z[2 * per]);
}

static void refuses_too_many_points(void **state) {
    (void)state;
    const int64_t n = kindred::kSpectralMaxPoints + 1;
    std::vector<double> x(static_cast<size_t>(n * 3), 1.0);
    try {
        run(x, n, nullptr, 1.0, 0.0);
        fail_msg("no error for n above the limit");
    } catch (const kindred::Error &e) {
        assert_int_equal(e.code(), KINDRED_E_INVALID);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(recovers_three_blobs),
        cmocka_unit_test(lambda_above_every_eigenvalue_gives_one_cluster),
        cmocka_unit_test(may_links_join_two_blobs),
        cmocka_unit_test(refuses_too_many_points),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
