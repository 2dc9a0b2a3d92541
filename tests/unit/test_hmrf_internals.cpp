// Internals of HMRF-KMeans (Basu et al., section 3.3): the gradients of the
// learned distortions (3.25 - 3.29) against central finite differences of
// the objective terms they differentiate, for every distortion, with and
// without the Rayleigh prior; the PSD projection with its eigenvalue floor
// keeps log det A finite; the closed-form Euclidean update is a stationary
// point; the full scatter matches the residuals far from the origin; ICM
// never increases J_obj.
// The kindred headers come before cmocka.h, whose fail() macro would clash.
#include <algorithm>
#include <cmath>
#include <vector>

#include "algorithms/mpckmeans/hmrf.hpp"
#include "core/rng.hpp"
#include "divergence/weighted_distortion.hpp"
#include "linalg/psd_projection.hpp"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
extern "C" {
#include <cmocka.h>
}

using namespace kindred;
using divergence::DistortionKind;

namespace {

struct Problem {
    int64_t n = 40, d = 5, k = 3;
    std::vector<double> x;
    std::vector<int32_t> labels;
    std::vector<double> centers;
    std::vector<divergence::PairConstraint> pairs;
    std::vector<double> coef;
    double phimax_coef = 0.0;
    DataView view;
};

Problem make_problem(uint64_t seed) {
    Problem p;
    Rng rng(seed);
    p.x.resize(p.n * p.d);
    for (double &v : p.x) v = 0.05 + rng.uniform();  // positive: valid for every distortion
    for (int64_t i = 0; i < p.n; ++i)
        if (i % 7 == 0) p.x[i * p.d + 2] = 0.0;  // some zeros (sparsity for cosine / idiv)
    p.labels.resize(p.n);
    for (int64_t i = 0; i < p.n; ++i) p.labels[i] = static_cast<int32_t>(i % p.k);
    p.centers.resize(p.k * p.d);
    for (double &v : p.centers) v = 0.2 + rng.uniform();
    for (int q = 0; q < 12; ++q) {
        const int64_t i = rng.below(p.n), j = (i + 1 + rng.below(p.n - 1)) % p.n;
        p.pairs.push_back({i, j, 0.5 + rng.uniform(), q % 2 == 0});
        p.coef.push_back(q % 3 == 0 ? 0.0 : (q % 2 == 0 ? 1.0 : -1.0) * p.pairs.back().w);
        if (p.coef.back() < 0) p.phimax_coef += p.pairs.back().w;
    }
    DenseView v;
    v.x = p.x.data();
    v.n = p.n;
    v.d = p.d;
    v.ld = p.d;
    p.view = DataView::dense(v);
    return p;
}

// The quantity whose gradient WeightedDistortion::gradient returns:
// sum_i d(x_i, mu(i)) + sum_p c_p phi_p + c_max phi_max + regulariser.
double terms(const divergence::WeightedDistortion &dist, const Problem &p, bool prior) {
    std::vector<double> dm(p.n * p.k);
    dist.point_center_all(p.centers.data(), p.k, dm.data());
    double j = 0.0;
    for (int64_t i = 0; i < p.n; ++i) j += dm[i * p.k + p.labels[i]];
    for (size_t q = 0; q < p.pairs.size(); ++q) j += p.coef[q] * dist.phi(p.pairs[q].i, p.pairs[q].j);
    j += p.phimax_coef * dist.phi_max(p.pairs);
    return j + dist.regulariser(prior, 1.3);
}

std::vector<double> start_params(const divergence::WeightedDistortion &dist, Rng &rng) {
    std::vector<double> a = dist.identity();
    const int64_t d = dist.d();
    if (dist.full_matrix()) {
        // A = I + 0.3 B B^T: positive definite, not diagonal.
        std::vector<double> b(d * d);
        for (double &v : b) v = rng.uniform() - 0.5;
        for (int64_t r = 0; r < d; ++r)
            for (int64_t c = 0; c < d; ++c) {
                double s = 0.0;
                for (int64_t t = 0; t < d; ++t) s += b[r * d + t] * b[c * d + t];
                a[r * d + c] += 0.3 * s;
            }
    } else {
        for (double &v : a) v = 0.5 + rng.uniform();
    }
    return a;
}

void check_gradient(DistortionKind kind, divergence::PhiMaxRule rule) {
    Problem p = make_problem(3);
    auto dist = divergence::make_distortion(kind, p.view, 1, rule, 0.05, "test");
    Rng rng(11);
    const std::vector<double> a = start_params(*dist, rng);
    for (int prior = 0; prior < 2; ++prior) {
        dist->set_params(a);
        divergence::GradientInput in{p.labels.data(), p.centers.data(), p.k, &p.pairs, &p.coef, p.phimax_coef,
                                     prior != 0, 1.3};
        std::vector<double> g;
        dist->gradient(in, g);
        assert_int_equal(static_cast<int64_t>(g.size()), dist->param_count());
        for (int64_t v = 0; v < dist->param_count(); ++v) {
            const double h = 1e-6 * std::max(1.0, std::fabs(a[v]));
            std::vector<double> up(a), down(a);
            up[v] += h;
            down[v] -= h;
            dist->set_params(up);
            const double jp = terms(*dist, p, prior != 0);
            dist->set_params(down);
            const double jm = terms(*dist, p, prior != 0);
            const double fd = (jp - jm) / (2.0 * h);
            if (std::fabs(fd - g[v]) > 1e-5 * (1.0 + std::fabs(fd))) {
                print_error("%s prior=%d parameter %d: gradient %.10g, finite difference %.10g\n",
                            divergence::distortion_name(kind), prior, static_cast<int>(v), g[v], fd);
                fail();
            }
        }
    }
}

void gradients_match_finite_differences(void **) {
    check_gradient(DistortionKind::EuclideanFull, divergence::PhiMaxRule::Sum);
    check_gradient(DistortionKind::EuclideanFull, divergence::PhiMaxRule::Max);
    check_gradient(DistortionKind::EuclideanDiag, divergence::PhiMaxRule::Sum);
    check_gradient(DistortionKind::EuclideanDiag, divergence::PhiMaxRule::Max);
    check_gradient(DistortionKind::Cosine, divergence::PhiMaxRule::Sum);
    check_gradient(DistortionKind::IDivergence, divergence::PhiMaxRule::Sum);
}

// Known answer: diag(-1, 2) rotated by 45 degrees, projected with floor 0.5,
// has eigenvalues (0.5, 2) and log det = log 1.
void psd_projection_floor_keeps_log_det_finite(void **) {
    Problem p = make_problem(5);
    p.d = 2;
    p.x.assign(p.n * 2, 1.0);
    for (int64_t i = 0; i < p.n; ++i) p.x[i * 2] = static_cast<double>(i);
    DenseView v;
    v.x = p.x.data();
    v.n = p.n;
    v.d = 2;
    v.ld = 2;
    auto dist = divergence::make_distortion(DistortionKind::EuclideanFull, DataView::dense(v), 1,
                                            divergence::PhiMaxRule::Sum, 0.0, "test");
    // R diag(-1, 2) R^T with R the rotation by 45 degrees.
    std::vector<double> a = {0.5, 1.5, 1.5, 0.5};
    // Floor relative to the mean eigenvalue after clipping: trace = 1, mean 0.5 -> floor = 0.5 * 1.0.
    dist->project(a, 1.0);
    linalg::SymmetricEigen eig(2);
    eig.compute(a.data());
    assert_true(std::fabs(eig.values()[0] - 0.5) < 1e-12);
    assert_true(std::fabs(eig.values()[1] - 2.0) < 1e-12);
    dist->set_params(a);
    const double r = dist->regulariser(false, 1.0);  // -n log det A = -n log 1
    assert_true(std::isfinite(r));
    assert_true(std::fabs(r) < 1e-9);
    // A singular matrix is floored too: log det stays finite.
    std::vector<double> z = {1.0, 0.0, 0.0, 0.0};
    dist->project(z, 1e-6);
    dist->set_params(z);
    assert_true(std::isfinite(dist->regulariser(true, 1.0)));
}

// The closed form (Bilenko et al. 2004) zeroes the gradient (no prior for a
// full A; with the prior for diagonal weights, where it is exact).
void closed_form_is_stationary(void **) {
    Problem p = make_problem(9);
    // Only must-link violations: the linear part is PSD and the closed form exact.
    for (size_t q = 0; q < p.pairs.size(); ++q) p.coef[q] = p.pairs[q].must ? p.pairs[q].w : 0.0;
    p.phimax_coef = 0.0;
    const DistortionKind kinds[] = {DistortionKind::EuclideanFull, DistortionKind::EuclideanDiag};
    for (DistortionKind kind : kinds)
        for (int prior = 0; prior < 2; ++prior) {
            if (kind == DistortionKind::EuclideanFull && prior) continue;
            auto dist = divergence::make_distortion(kind, p.view, 1, divergence::PhiMaxRule::Sum, 0.0, "test");
            divergence::GradientInput in{p.labels.data(), p.centers.data(), p.k, &p.pairs, &p.coef, 0.0, prior != 0, 1.3};
            std::vector<double> a, g;
            assert_true(dist->closed_form(in, 1e-12, a));
            dist->set_params(a);
            dist->gradient(in, g);
            double gmax = 0.0, amax = 0.0;
            for (size_t v = 0; v < g.size(); ++v) {
                gmax = std::max(gmax, std::fabs(g[v]));
                amax = std::max(amax, std::fabs(a[v]));
            }
            // Scale: the gradient's terms are of size n / a.
            assert_true(gmax < 1e-7 * static_cast<double>(p.n) / std::max(amax, 1e-300) + 1e-9);
        }
}

// ICM moves a point only when its share of J_obj (3.22) decreases, so J never rises.
// The full scatter is assembled from the Gram matrix of the centred points
// and the cluster sums (weighted_euclidean.cpp); far from the origin, where
// sum_i x_i x_i^T minus the clusters' terms would lose every digit, it must
// still match the residuals summed directly, for the clusters' means and for
// other centres.
void full_scatter_matches_residuals_far_from_origin(void **) {
    Problem p = make_problem(5);
    for (double &v : p.x) v += 1e6;
    auto dist = divergence::make_distortion(DistortionKind::EuclideanFull, p.view, 1, divergence::PhiMaxRule::Max, 0.05,
                                            "test");
    std::vector<double> means;
    dist->centroids(p.labels.data(), p.k, means);
    std::vector<double> shifted(means);
    for (size_t v = 0; v < shifted.size(); ++v) shifted[v] += 0.3 - 0.1 * static_cast<double>(v % 5);
    for (const std::vector<double> *centers : {&means, &shifted}) {
        std::vector<double> s;
        assert_true(dist->assigned_scatter(centers->data(), p.k, p.labels.data(), s));
        assert_int_equal(static_cast<int64_t>(s.size()), p.d * p.d);
        std::vector<double> direct(p.d * p.d, 0.0);
        for (int64_t i = 0; i < p.n; ++i) {
            const double *mu = centers->data() + p.labels[i] * p.d;
            for (int64_t r = 0; r < p.d; ++r)
                for (int64_t c = 0; c < p.d; ++c)
                    direct[r * p.d + c] += (p.x[i * p.d + r] - mu[r]) * (p.x[i * p.d + c] - mu[c]);
        }
        double scale = 0.0;
        for (double v : direct) scale = std::max(scale, std::fabs(v));
        for (int64_t v = 0; v < p.d * p.d; ++v) {
            if (std::fabs(s[v] - direct[v]) > 1e-9 * scale) {
                print_error("entry %d: scatter %.17g, residuals %.17g\n", static_cast<int>(v), s[v], direct[v]);
                fail();
            }
            assert_true(s[v] == s[(v % p.d) * p.d + v / p.d]);  // exactly symmetric
        }
    }
}

void icm_never_increases_objective(void **) {
    for (uint64_t seed = 1; seed <= 5; ++seed) {
        Problem p = make_problem(seed);
        auto dist = divergence::make_distortion(DistortionKind::EuclideanDiag, p.view, 1, divergence::PhiMaxRule::Max,
                                                0.0, "test");
        SideInfo side(p.n);
        Rng rng(seed + 100);
        std::vector<int64_t> pi, pj;
        std::vector<double> pv;
        for (int q = 0; q < 60; ++q) {
            const int64_t i = rng.below(p.n), j = (i + 1 + rng.below(p.n - 1)) % p.n;
            pi.push_back(i);
            pj.push_back(j);
            pv.push_back(rng.uniform() < 0.5 ? 1.0 + rng.uniform() : -1.0 - rng.uniform());
        }
        side.add_pairs(pi.data(), pj.data(), pv.data(), static_cast<int64_t>(pi.size()));
        hmrf::Config cfg;
        cfg.k = p.k;
        cfg.learn_metric = false;
        const hmrf::Constraints cons(&side, p.n, true, 1.0);
        const hmrf::Potentials pot = hmrf::potentials(*dist, cons, false);
        std::vector<double> dm(p.n * p.k);
        dist->point_center_all(p.centers.data(), p.k, dm.data());
        std::vector<int32_t> labels(p.labels);
        const double before = hmrf::objective(*dist, cons, pot, dm, p.k, labels.data(), cfg);
        Rng icm(seed);
        const int64_t moves = hmrf::icm_assign(dm, p.k, cons, pot, 1000, icm, labels);
        const double after = hmrf::objective(*dist, cons, pot, dm, p.k, labels.data(), cfg);
        assert_true(moves > 0);
        assert_true(after <= before);
        // A local minimum: one more ICM run moves nothing.
        assert_int_equal(hmrf::icm_assign(dm, p.k, cons, pot, 1000, icm, labels), 0);
    }
}

}  // namespace

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gradients_match_finite_differences),
        cmocka_unit_test(psd_projection_floor_keeps_log_det_finite),
        cmocka_unit_test(closed_form_is_stationary),
        cmocka_unit_test(full_scatter_matches_residuals_far_from_origin),
        cmocka_unit_test(icm_never_increases_objective),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
