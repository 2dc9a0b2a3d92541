// Internals of DCRC: the M-step gradient of section IV-B against central
// finite differences of J (with and without the balance term, with targets
// on some points and entropy on the others); Table II against a brute-force
// enumeration of eq. (1); one mean-field update against the closed form
// exp(E_{Q\i}[log P(L | Y)] + log P(y_i | x_i)) / Z computed by enumeration
// under Table I (eq. (11)-(13)); the hard update of eq. (14); the raw-feature
// weights give the same probabilities as the standardised ones; the mean
// field's skipped updates against plain sweeps.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
extern "C" {
#include <cmocka.h>
}

#include <cmath>
#include <vector>

#include "algorithms/dcrc/design.hpp"
#include "algorithms/dcrc/m_step.hpp"
#include "algorithms/dcrc/mean_field.hpp"
#include "core/rng.hpp"
#include "core/side_info.hpp"

using kindred::DataView;
using kindred::DenseView;
using kindred::Rng;
using kindred::Triplet;
namespace dc = kindred::dcrc;

namespace {

std::vector<double> random_points(int64_t n, int64_t d, Rng &rng) {
    std::vector<double> x(static_cast<size_t>(n * d));
    for (double &v : x) v = 3.0 * rng.normal() + 1.0;
    return x;
}

DataView view(const std::vector<double> &x, int64_t n, int64_t d) {
    DenseView v;
    v.x = x.data();
    v.n = n;
    v.d = d;
    v.ld = d;
    v.row_major = true;
    return DataView::dense(v);
}

std::vector<double> random_distribution(int64_t k, Rng &rng) {
    std::vector<double> q(static_cast<size_t>(k));
    double s = 0.0;
    for (double &v : q) s += (v = rng.uniform() + 0.05);
    for (double &v : q) v /= s;
    return q;
}

// Eq. (1).
int32_t answer_of(int64_t y1, int64_t y2, int64_t y3) {
    if (y1 == y2 && y1 != y3) return 1;
    if (y1 == y3 && y1 != y2) return -1;
    return 0;
}

// Soft targets (random distributions) on every `every`-th point, the others
// in U; target_of / targets must outlive the returned problem.
dc::MStepProblem problem_with_targets(const dc::Design &des, int64_t k, int64_t every, Rng &rng,
                                      std::vector<int64_t> &target_of, std::vector<double> &targets) {
    const int64_t n = des.n;
    target_of.assign(static_cast<size_t>(n), -1);
    targets.clear();
    for (int64_t i = 0; i < n; i += every) {
        target_of[i] = static_cast<int64_t>(targets.size()) / k;
        const std::vector<double> q = random_distribution(k, rng);
        targets.insert(targets.end(), q.begin(), q.end());
    }
    dc::MStepProblem pb;
    pb.design = &des;
    pb.k = k;
    pb.target_of = &target_of;
    pb.targets = targets.data();
    for (int64_t i = 0; i < n; ++i) pb.u_count += target_of[i] < 0;
    return pb;
}

}  // namespace

// K = 4 takes the M-step's per-row pass unrolled for a compile-time K, K = 7
// the one for any K: both are checked.
static void gradient_matches_finite_differences(void **) {
    Rng rng(3);
    const int64_t n = 40, d = 3;
    const std::vector<double> x = random_points(n, d, rng);
    for (int variant = 0; variant < 6; ++variant) {
        const int64_t k = variant < 3 ? 4 : 7;
        const dc::Design des = dc::make_design(view(x, n, d), variant % 3 != 2);
        // Targets on every third point, the others in U.
        std::vector<int64_t> target_of;
        std::vector<double> targets;
        dc::MStepProblem pb = problem_with_targets(des, k, 3, rng, target_of, targets);
        pb.target_weight = 1.0 / 7.0;
        pb.tau = 0.8;
        pb.balance = variant % 3 != 1;
        pb.lambda = 0.3;
        dc::MStepWorkspace ws(n, k);
        std::vector<double> w(static_cast<size_t>(k * des.cols()));
        for (double &v : w) v = 0.5 * rng.normal();
        std::vector<double> grad(w.size());
        dc::objective_and_gradient(pb, w.data(), grad.data(), ws);
        double worst = 0.0;
        for (size_t v = 0; v < w.size(); ++v) {
            const double h = 1e-6, keep = w[v];
            w[v] = keep + h;
            const double up = dc::objective_and_gradient(pb, w.data(), nullptr, ws);
            w[v] = keep - h;
            const double down = dc::objective_and_gradient(pb, w.data(), nullptr, ws);
            w[v] = keep;
            const double fd = (up - down) / (2.0 * h);
            worst = std::max(worst, std::fabs(fd - grad[v]) / (1e-4 + std::fabs(fd)));
        }
        print_message("variant %d: largest relative gradient error %.2e\n", variant, worst);
        assert_true(worst < 1e-5);
    }
}

// The per-point loops run in fixed chunks reduced in chunk order: objective
// and gradient are bitwise the same for 1 and 3 threads (n spans 3 chunks).
static void objective_same_for_any_threads(void **) {
    Rng rng(4);
    const int64_t n = 5000, d = 3, k = 3;
    const std::vector<double> x = random_points(n, d, rng);
    const dc::Design des = dc::make_design(view(x, n, d), true);
    std::vector<int64_t> target_of;
    std::vector<double> targets;
    dc::MStepProblem pb = problem_with_targets(des, k, 4, rng, target_of, targets);
    pb.target_weight = 0.01;
    pb.tau = 1.0;
    pb.balance = true;
    pb.lambda = 0.1;
    dc::MStepWorkspace ws(n, k);
    std::vector<double> w(static_cast<size_t>(k * des.cols()));
    for (double &v : w) v = rng.normal();
    std::vector<double> g1(w.size()), g3(w.size());
    pb.threads = 1;
    const double j1 = dc::objective_and_gradient(pb, w.data(), g1.data(), ws);
    pb.threads = 3;
    const double j3 = dc::objective_and_gradient(pb, w.data(), g3.data(), ws);
    assert_true(j1 == j3);
    for (size_t v = 0; v < w.size(); ++v) assert_true(g1[v] == g3[v]);
}

static void table2_matches_enumeration(void **) {
    Rng rng(5);
    for (int64_t k = 2; k <= 5; ++k)
        for (int32_t answer = -1; answer <= 1; ++answer)
            for (int pos = 0; pos < 3; ++pos) {
                const std::vector<double> qa = random_distribution(k, rng), qb = random_distribution(k, rng);
                std::vector<double> got(static_cast<size_t>(k));
                dc::table2_compatibility(pos, answer, qa.data(), qb.data(), k, got.data());
                for (int64_t yi = 0; yi < k; ++yi) {
                    // Q~(l_t | y_i): the mass of the assignments of the other two
                    // points (in triplet order) for which eq. (1) gives l_t.
                    double want = 0.0;
                    for (int64_t ya = 0; ya < k; ++ya)
                        for (int64_t yb = 0; yb < k; ++yb) {
                            int64_t y[3];
                            y[pos] = yi;
                            y[pos == 0 ? 1 : 0] = ya;
                            y[pos == 2 ? 1 : 2] = yb;
                            if (answer_of(y[0], y[1], y[2]) == answer) want += qa[ya] * qb[yb];
                        }
                    assert_true(std::fabs(got[yi] - want) < 1e-14);
                }
            }
}

// Two triplets sharing point 0; one mean-field sweep from q = P. The first
// point updated (slot 0) must equal eq. (11) evaluated by enumeration over
// the other points with the Table I probabilities; the second (slot 1, which
// sees the updated slot 0) likewise.
static void mean_field_update_matches_closed_form(void **) {
    Rng rng(9);
    const int64_t n = 5, k = 3;
    const double epsilon = 0.2;
    const std::vector<Triplet> triplets = {{0, 1, 2, 1}, {3, 0, 4, 0}};
    std::vector<double> logp(static_cast<size_t>(n * k));
    for (int64_t i = 0; i < n; ++i) {
        const std::vector<double> p = random_distribution(k, rng);
        for (int64_t c = 0; c < k; ++c) logp[i * k + c] = std::log(p[c]);
    }
    const dc::MeanField mf(triplets, n, k);
    assert_int_equal(mf.constrained_count(), 5);
    std::vector<double> q;
    mf.start_from(logp.data(), q);
    std::vector<double> expected_q = q;  // replays the sweep by enumeration
    auto table1 = [&](int32_t observed, int64_t y1, int64_t y2, int64_t y3) {
        return answer_of(y1, y2, y3) == observed ? 1.0 - epsilon : epsilon / 2.0;
    };
    for (int64_t i = 0; i < 2; ++i) {
        std::vector<double> logq(static_cast<size_t>(k));
        for (int64_t yi = 0; yi < k; ++yi) {
            double e = 0.0;  // sum_t E_{Q(Y_It \ i)}[log P(l_t | Y_t)]
            for (const Triplet &t : triplets) {
                const int64_t idx[3] = {t.a, t.b, t.c};
                int pos = -1;
                for (int p = 0; p < 3; ++p)
                    if (idx[p] == i) pos = p;
                if (pos < 0) continue;
                for (int64_t y0 = 0; y0 < k; ++y0)
                    for (int64_t y1 = 0; y1 < k; ++y1)
                        for (int64_t y2 = 0; y2 < k; ++y2) {
                            const int64_t y[3] = {y0, y1, y2};
                            if (y[pos] != yi) continue;
                            double weight = 1.0;
                            for (int p = 0; p < 3; ++p)
                                if (p != pos) weight *= expected_q[idx[p] * k + y[p]];
                            e += weight * std::log(table1(t.answer, y0, y1, y2));
                        }
            }
            logq[yi] = e + logp[i * k + yi];
        }
        double z = 0.0;
        for (double v : logq) z += std::exp(v);
        for (int64_t c = 0; c < k; ++c) expected_q[i * k + c] = std::exp(logq[c]) / z;
    }
    mf.run(logp.data(), epsilon, 1, 0.0, q);
    for (int64_t i = 0; i < 2; ++i)
        for (int64_t c = 0; c < k; ++c) assert_true(std::fabs(q[i * k + c] - expected_q[i * k + c]) < 1e-12);
}

// Eq. (14): with epsilon = 0 the update keeps P(y_i | x_i) on the labels of
// maximal F only. One triplet "0 is closer to 1 than to 2", points 1 and 2
// certain of clusters 0 and 1: point 0 must go to cluster 0 whatever P says.
static void hard_update_keeps_max_compatible_labels(void **) {
    const int64_t n = 3, k = 3;
    const std::vector<Triplet> triplets = {{0, 1, 2, 1}};
    std::vector<double> logp = {std::log(0.1), std::log(0.6), std::log(0.3), 0, -50, -50, -50, 0, -50};
    const dc::MeanField mf(triplets, n, k);
    std::vector<double> q = {0.1, 0.6, 0.3, 1, 0, 0, 0, 1, 0};
    mf.run(logp.data(), 0.0, 1, 0.0, q);
    assert_true(std::fabs(q[0] - 1.0) < 1e-12);
    assert_true(q[1] == 0.0 && q[2] == 0.0);
    // A don't-know answer: F is largest for cluster 2 (neither 1's nor 2's).
    const std::vector<Triplet> dnk = {{0, 1, 2, 0}};
    const dc::MeanField mf2(dnk, n, k);
    q = {0.1, 0.6, 0.3, 1, 0, 0, 0, 1, 0};
    mf2.run(logp.data(), 0.0, 1, 0.0, q);
    assert_true(std::fabs(q[2] - 1.0) < 1e-12);
}

// Plain mean-field sweeps (every point of I updated in every sweep, eq. (13))
// from the public compatibility(); returns the sweeps run.
int64_t plain_sweeps(const dc::MeanField &mf, const std::vector<double> &logp, int64_t k, double epsilon,
                     int64_t max_sweeps, double tol, std::vector<double> &q) {
    const double log_alpha = std::log(2.0 * (1.0 - epsilon) / epsilon);
    std::vector<double> f(static_cast<size_t>(k)), e(static_cast<size_t>(k));
    for (int64_t sweep = 1; sweep <= max_sweeps; ++sweep) {
        double change = 0.0;
        for (int64_t s = 0; s < mf.constrained_count(); ++s) {
            mf.compatibility(s, q.data(), f.data());
            const double *lp = logp.data() + mf.points()[s] * k;
            double m = -INFINITY, z = 0.0;
            for (int64_t c = 0; c < k; ++c) m = std::max(m, e[c] = f[c] * log_alpha + lp[c]);
            for (int64_t c = 0; c < k; ++c) z += (e[c] = std::exp(e[c] - m));
            const double inv = 1.0 / z;
            for (int64_t c = 0; c < k; ++c) {
                change = std::max(change, std::fabs(e[c] * inv - q[s * k + c]));
                q[s * k + c] = e[c] * inv;
            }
        }
        if (change <= tol) return sweep;
    }
    return max_sweeps;
}

// MeanField::run skips the points whose partners did not change (or, with
// tol > 0, changed too little to move them by 1% of tol). With tol = 0 that
// must give plain sweeps bit for bit; with tol = 1e-7 both must converge, to
// the same q within 1e-5. 50 random triplets on 60 points share points, so
// that changes propagate along chains.
static void mean_field_skipping_matches_plain_sweeps(void **) {
    Rng rng(21);
    const int64_t n = 60, k = 4;
    const double epsilon = 0.1;
    std::vector<Triplet> triplets;
    for (int64_t t = 0; t < 50; ++t) {
        const int64_t a = rng.below(n);
        int64_t b = rng.below(n), c = rng.below(n);
        while (b == a) b = rng.below(n);
        while (c == a || c == b) c = rng.below(n);
        triplets.push_back({a, b, c, static_cast<int32_t>(rng.below(3)) - 1});
    }
    std::vector<double> logp(static_cast<size_t>(n * k));
    for (int64_t i = 0; i < n; ++i) {
        const std::vector<double> p = random_distribution(k, rng);
        for (int64_t c = 0; c < k; ++c) logp[i * k + c] = std::log(p[c]);
    }
    const dc::MeanField mf(triplets, n, k);
    // The mean field reads log P by slot of I (plain_sweeps by point).
    std::vector<double> logp_i;
    for (const int64_t i : mf.points()) logp_i.insert(logp_i.end(), logp.begin() + i * k, logp.begin() + (i + 1) * k);
    std::vector<double> q0;
    mf.start_from(logp_i.data(), q0);
    for (int64_t sweeps : {1, 2, 7, 80}) {
        std::vector<double> q = q0, ref = q0;
        mf.run(logp_i.data(), epsilon, sweeps, 0.0, q);
        plain_sweeps(mf, logp, k, epsilon, sweeps, 0.0, ref);
        for (size_t v = 0; v < q.size(); ++v) assert_true(q[v] == ref[v]);
    }
    std::vector<double> q = q0, ref = q0;
    const dc::MeanFieldOutcome out = mf.run(logp_i.data(), epsilon, 500, 1e-7, q);
    const int64_t ref_sweeps = plain_sweeps(mf, logp, k, epsilon, 500, 1e-7, ref);
    print_message("mean field: %lld sweeps with skipping, %lld plain\n", static_cast<long long>(out.sweeps),
                  static_cast<long long>(ref_sweeps));
    assert_true(out.converged);
    assert_true(ref_sweeps < 500);
    double worst = 0.0;
    for (size_t v = 0; v < q.size(); ++v) worst = std::max(worst, std::fabs(q[v] - ref[v]));
    print_message("mean field: largest difference with plain sweeps %.2e\n", worst);
    assert_true(worst < 1e-5);
}

static void raw_weights_give_the_same_probabilities(void **) {
    Rng rng(11);
    const int64_t n = 25, d = 4, k = 3;
    const std::vector<double> x = random_points(n, d, rng);
    const dc::Design std_des = dc::make_design(view(x, n, d), true);
    const dc::Design raw_des = dc::make_design(view(x, n, d), false);
    std::vector<double> w(static_cast<size_t>(k * (d + 1)));
    for (double &v : w) v = rng.normal();
    const std::vector<double> raw = dc::raw_feature_weights(std_des, w, k);
    std::vector<double> a(static_cast<size_t>(n * k)), b(a.size()), p(a.size());
    dc::log_probabilities(std_des.xa.data(), n, d + 1, w.data(), k, a.data());
    dc::log_probabilities(raw_des.xa.data(), n, d + 1, raw.data(), k, b.data());
    dc::predict_probabilities(view(x, n, d), raw.data(), k, p.data());
    for (size_t v = 0; v < a.size(); ++v) {
        assert_true(std::fabs(a[v] - b[v]) < 1e-10);
        assert_true(std::fabs(std::exp(a[v]) - p[v]) < 1e-10);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gradient_matches_finite_differences),
        cmocka_unit_test(objective_same_for_any_threads),
        cmocka_unit_test(table2_matches_enumeration),
        cmocka_unit_test(mean_field_update_matches_closed_form),
        cmocka_unit_test(hard_update_keeps_max_compatible_labels),
        cmocka_unit_test(mean_field_skipping_matches_plain_sweeps),
        cmocka_unit_test(raw_weights_give_the_same_probabilities),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
