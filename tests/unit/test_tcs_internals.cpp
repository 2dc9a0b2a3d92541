// Internals of TCS-GM (Gopal & Yang 2014): the OPT1 gradient against central
// finite differences; the GEMM-assembled gradient against the literal
// N*K outer-product loop; each proximal operator against its definition
// (PSD, and no feasible perturbation lowers 1/2||A - V||^2 + t g(A)); known
// answers of the spectral proxes; the learned A is PSD and the MFISTA
// objective trace never increases, for every regulariser; a warm start along
// the gamma grid reaches the cold start's optimum; the truncated SVD
// recovers the row space of a low-rank matrix.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
extern "C" {
#include <cmocka.h>
}

#include <algorithm>
#include <cmath>
#include <vector>

#include "algorithms/tcs/gm_objective.hpp"
#include "algorithms/tcs/learn_metric.hpp"
#include "algorithms/tcs/regularizers.hpp"
#include "algorithms/tcs/vmf_objective.hpp"
#include "core/rng.hpp"
#include "linalg/psd_projection.hpp"
#include "linalg/truncated_svd.hpp"

using namespace kindred;
using namespace kindred::tcs;

namespace {

struct Labelled {
    int64_t n, d, k;
    std::vector<double> x;
    std::vector<int32_t> t;
};

Labelled make_labelled(uint64_t seed, int64_t n, int64_t d, int64_t k) {
    Rng rng(seed);
    Labelled s{n, d, k, std::vector<double>(static_cast<size_t>(n * d)), std::vector<int32_t>(static_cast<size_t>(n))};
    std::vector<double> centre(static_cast<size_t>(k * d));
    for (double &v : centre) v = 2.0 * rng.normal();
    for (int64_t i = 0; i < n; ++i) {
        s.t[i] = static_cast<int32_t>(i % k);
        for (int64_t j = 0; j < d; ++j) s.x[i * d + j] = centre[s.t[i] * d + j] + (j == 0 ? 3.0 : 1.0) * rng.normal();
    }
    return s;
}

std::vector<double> random_symmetric(Rng &rng, int64_t d, double scale, bool plus_identity) {
    std::vector<double> a(static_cast<size_t>(d * d));
    for (int64_t i = 0; i < d; ++i)
        for (int64_t j = 0; j <= i; ++j) a[i * d + j] = a[j * d + i] = scale * rng.normal() + (plus_identity && i == j ? 1.0 : 0.0);
    return a;
}

double min_eigenvalue(const std::vector<double> &a, int64_t d) {
    linalg::SymmetricEigen eig(d);
    eig.compute(a.data());
    return eig.values()[0];
}

const Regularizer kAll[] = {Regularizer::FrobeniusIdentity, Regularizer::Frobenius, Regularizer::Nuclear,
                            Regularizer::LogDet, Regularizer::L1Identity};

}  // namespace

static void gradient_matches_finite_differences(void **) {
    const Labelled s = make_labelled(3, 40, 4, 3);
    GmObjective f(s.x.data(), s.n, s.d, s.t.data(), s.k);
    Rng rng(5);
    const int64_t d = s.d;
    std::vector<double> a = random_symmetric(rng, d, 0.2, true), g(static_cast<size_t>(d * d));
    f.value_grad(a.data(), g.data());
    const double h = 1e-6;
    for (int64_t r = 0; r < d; ++r)
        for (int64_t c = 0; c < d; ++c) {
            // Directional derivative along the symmetric unit E_rc + E_cr (grad is symmetric).
            std::vector<double> ap(a), am(a);
            ap[r * d + c] += h; am[r * d + c] -= h;
            if (r != c) { ap[c * d + r] += h; am[c * d + r] -= h; }
            const double fd = (f.value(ap.data()) - f.value(am.data())) / (2 * h);
            const double an = r == c ? g[r * d + c] : g[r * d + c] + g[c * d + r];
            assert_true(std::fabs(fd - an) <= 1e-6 * std::max(1.0, std::fabs(an)));
        }
}

static void gemm_gradient_equals_naive_loop(void **) {
    for (uint64_t seed = 1; seed <= 3; ++seed) {
        const Labelled s = make_labelled(seed, 60, 5, 4);
        GmObjective f(s.x.data(), s.n, s.d, s.t.data(), s.k);
        Rng rng(seed + 10);
        const int64_t d = s.d;
        std::vector<double> a = random_symmetric(rng, d, 0.3, true);
        std::vector<double> g1(static_cast<size_t>(d * d)), g2(g1);
        const double v1 = f.value_grad(a.data(), g1.data());
        const double v2 = f.value_grad_naive(a.data(), g2.data());
        assert_true(std::fabs(v1 - v2) <= 1e-10 * std::max(1.0, std::fabs(v2)));
        double scale = 0.0;
        for (double v : g2) scale = std::max(scale, std::fabs(v));
        for (size_t e = 0; e < g1.size(); ++e) assert_true(std::fabs(g1[e] - g2[e]) <= 1e-10 * std::max(1.0, scale));
    }
}

// 1/2 ||A - V||^2 + g(A) with g the value the prox returns for A (recomputed with step 0 on a copy).
static double prox_objective(Regularizer r, double gamma, int64_t d, const std::vector<double> &a,
                             const std::vector<double> &v, double t) {
    ProxStep p(r, gamma, d);
    std::vector<double> copy(a);
    const double g = p.apply(copy, 0.0);  // step 0: a (PSD) is returned unchanged, with g(a)
    double s = 0.0;
    for (size_t e = 0; e < a.size(); ++e) s += 0.5 * (a[e] - v[e]) * (a[e] - v[e]);
    return s + t * g;
}

static void each_prox_satisfies_its_definition(void **) {
    const int64_t d = 5;
    Rng rng(7);
    for (Regularizer r : kAll) {
        const double gamma = 0.7, t = 0.5;
        for (int trial = 0; trial < 3; ++trial) {
            const std::vector<double> v = random_symmetric(rng, d, 1.0, true);
            ProxStep prox(r, gamma, d);
            std::vector<double> a(v);
            prox.apply(a, t);
            assert_true(min_eigenvalue(a, d) >= -1e-9);
            const double best = prox_objective(r, gamma, d, a, v, t);
            assert_true(std::isfinite(best));
            linalg::SymmetricEigen eig(d);
            for (int q = 0; q < 30; ++q) {
                const double eps = q < 15 ? 1e-3 : 1e-1;
                std::vector<double> e = random_symmetric(rng, d, eps, false);
                std::vector<double> b(a);
                for (size_t i = 0; i < b.size(); ++i) b[i] += e[i];
                linalg::project_psd(eig, b.data(), r == Regularizer::LogDet ? 1e-9 : 0.0);
                const double other = prox_objective(r, gamma, d, b, v, t);
                assert_true(best <= other + 1e-8);
            }
        }
    }
}

static void spectral_proxes_known_answers(void **) {
    const int64_t d = 3;
    const std::vector<double> v = {3, 0, 0, 0, 1, 0, 0, 0, -2};
    {
        ProxStep p(Regularizer::Nuclear, 1.0, d);
        std::vector<double> a(v);
        p.apply(a, 1.5);  // soft-threshold by 1.5 then clip: diag(1.5, 0, 0)
        assert_true(std::fabs(a[0] - 1.5) < 1e-12 && std::fabs(a[4]) < 1e-12 && std::fabs(a[8]) < 1e-12);
    }
    {
        ProxStep p(Regularizer::LogDet, 1.0, d);
        std::vector<double> a(v);
        p.apply(a, 1.0);  // a^2 - (l - 1) a - 1 = 0: l = 3 -> 1 + sqrt 2; l = 1 -> 1; l = -2 -> (-3 + sqrt 13) / 2
        assert_true(std::fabs(a[0] - (1 + std::sqrt(2.0))) < 1e-12);
        assert_true(std::fabs(a[4] - 1.0) < 1e-12);
        assert_true(std::fabs(a[8] - 0.5 * (-3 + std::sqrt(13.0))) < 1e-12);
    }
    {
        ProxStep p(Regularizer::FrobeniusIdentity, 1.0, d);
        std::vector<double> a(v);
        p.apply(a, 1.0);  // plain PSD projection: diag(3, 1, 0)
        assert_true(std::fabs(a[0] - 3) < 1e-12 && std::fabs(a[4] - 1) < 1e-12 && std::fabs(a[8]) < 1e-12);
    }
}

static void learned_metric_is_psd_and_objective_never_increases(void **) {
    const Labelled s = make_labelled(11, 90, 4, 3);
    for (Regularizer r : kAll) {
        FistaSettings fs;
        fs.max_iter = 60;
        fs.tol = 0.0;
        MetricRun run = learn_metric(s.x.data(), s.n, s.d, s.t.data(), s.k, r, 0.05, fs, nullptr);
        assert_true(run.fista.iterations >= 1);
        assert_true(min_eigenvalue(run.fista.a, s.d) >= -1e-9);
        for (double v : run.fista.a) assert_true(std::isfinite(v));
        for (size_t i = 1; i < run.fista.trace.size(); ++i) assert_true(run.fista.trace[i] <= run.fista.trace[i - 1] + 1e-12);
        // It moved: the learned objective is below the one at A = I.
        assert_true(run.fista.trace.back() < run.fista.trace.front() || run.fista.trace.size() == 1);
    }
}

// The continuation of the gamma grid (tcs-gm warm-starts each FISTA solve from
// the A of the previous, larger gamma): the problem is convex, so the warm start
// reaches the optimum of the cold start from A = I (same objective, same A up
// to the tolerance), in fewer iterations over the grid.
static void warm_start_reaches_the_cold_optimum(void **) {
    const Labelled s = make_labelled(5, 300, 5, 4);
    FistaSettings fs;
    fs.max_iter = 5000;
    fs.tol = 1e-13;
    std::vector<double> state;
    int64_t warm_iterations = 0, cold_iterations = 0;
    for (double gamma : {1.0, 0.1, 0.01, 0.001}) {
        const MetricRun cold = learn_metric(s.x.data(), s.n, s.d, s.t.data(), s.k, Regularizer::FrobeniusIdentity,
                                            gamma, fs, nullptr);
        const MetricRun warm = learn_metric(s.x.data(), s.n, s.d, s.t.data(), s.k, Regularizer::FrobeniusIdentity,
                                            gamma, fs, nullptr, state.empty() ? nullptr : &state);
        assert_true(std::fabs(warm.fista.objective - cold.fista.objective) <= 1e-9 * std::fabs(cold.fista.objective));
        double diff = 0.0, size = 0.0;
        for (size_t e = 0; e < cold.fista.a.size(); ++e) {
            diff += (warm.fista.a[e] - cold.fista.a[e]) * (warm.fista.a[e] - cold.fista.a[e]);
            size += cold.fista.a[e] * cold.fista.a[e];
        }
        assert_true(std::sqrt(diff / size) < 1e-3);
        assert_true(min_eigenvalue(warm.fista.a, s.d) >= -1e-9);
        warm_iterations += warm.fista.iterations;
        cold_iterations += cold.fista.iterations;
        state = warm.fista.a;
    }
    print_message("iterations over the grid: warm %lld, cold %lld\n", (long long)warm_iterations, (long long)cold_iterations);
    assert_true(warm_iterations < cold_iterations);
}

static void truncated_svd_finds_row_space(void **) {
    // x = u w^T with rank 3 in d = 40: the basis spans w's columns.
    const int64_t n = 100, d = 40, r = 3;
    Rng rng(2);
    std::vector<double> u(static_cast<size_t>(n * r)), w(static_cast<size_t>(d * r)), x(static_cast<size_t>(n * d), 0.0);
    for (double &v : u) v = rng.normal();
    for (double &v : w) v = rng.normal();
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < d; ++j)
            for (int64_t c = 0; c < r; ++c) x[i * d + j] += u[i * r + c] * w[j * r + c];
    DenseView v;
    v.x = x.data(); v.n = n; v.d = d; v.ld = d; v.row_major = true;
    const DataView data = DataView::dense(v);
    Rng srng(4);
    linalg::TruncatedSvd svd = linalg::truncated_svd(data, 5, srng);
    // |x V|_F^2 = |x|_F^2 (all energy captured); columns 4 and 5 are beyond the rank: zero, not NaN.
    std::vector<double> proj(static_cast<size_t>(n * 5));
    linalg::project_rows(data, svd, proj.data());
    double e1 = 0.0, e2 = 0.0;
    for (double t : x) e1 += t * t;
    for (double t : proj) e2 += t * t;
    assert_true(std::fabs(e1 - e2) <= 1e-8 * e1);
    for (double t : svd.basis) assert_true(std::isfinite(t));
    assert_true(svd.singular_values[0] >= svd.singular_values[1] && svd.singular_values[1] >= svd.singular_values[2]);
    assert_true(svd.singular_values[4] == 0.0);
}

static void vmf_gradient_matches_finite_differences(void **) {
    const Labelled s = make_labelled(21, 50, 4, 3);
    VmfObjective f(s.x.data(), s.n, s.d, s.t.data(), s.k, 0.05);
    Rng rng(8);
    const int64_t d = s.d;
    std::vector<double> l(static_cast<size_t>(d * d)), g(l.size());
    for (int64_t r = 0; r < d; ++r)
        for (int64_t c = 0; c < d; ++c) l[r * d + c] = (r == c ? 1.0 : 0.0) + 0.3 * rng.normal();
    f.update_means(l.data());
    assert_true(f.kappa() > 0.0);
    for (int64_t c = 0; c < s.k; ++c) {
        double norm = 0.0;
        for (int64_t j = 0; j < d; ++j) norm += f.means()[c * d + j] * f.means()[c * d + j];
        assert_true(std::fabs(norm - 1.0) < 1e-12);
    }
    f.value_grad(l.data(), g.data());
    const double h = 1e-6;
    for (size_t e = 0; e < l.size(); ++e) {  // L is not symmetric: every entry on its own
        std::vector<double> lp(l), lm(l);
        lp[e] += h;
        lm[e] -= h;
        const double fd = (f.value_grad(lp.data(), nullptr) - f.value_grad(lm.data(), nullptr)) / (2 * h);
        assert_true(std::fabs(fd - g[e]) <= 1e-6 * std::max(1.0, std::fabs(g[e])));
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gradient_matches_finite_differences),
        cmocka_unit_test(gemm_gradient_equals_naive_loop),
        cmocka_unit_test(each_prox_satisfies_its_definition),
        cmocka_unit_test(spectral_proxes_known_answers),
        cmocka_unit_test(learned_metric_is_psd_and_objective_never_increases),
        cmocka_unit_test(warm_start_reaches_the_cold_optimum),
        cmocka_unit_test(truncated_svd_finds_row_space),
        cmocka_unit_test(vmf_gradient_matches_finite_differences),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
