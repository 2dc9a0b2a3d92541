// The TVClust Gibbs sampler against the EXACT posterior over partitions,
// computed by enumerating every partition of n = 6 points (203 of them) with
// formulas written independently here: the Chinese restaurant prior, the
// Normal-Inverse-Wishart marginal in its "scatter about the sample mean" form
// (Murphy 2007, eqs. 250-254, 266; the library uses the rank-one updated
// Cholesky form), the Dirichlet-multinomial marginal, and the random graph of
// eq. (8). The empirical distribution of the sampled partitions must be within
// a total-variation distance of the exact one; as a control, the same samples
// must be far from a posterior with a deliberate error (links counted twice),
// which shows the test can fail. With Beta priors on p, q and a Gamma prior on
// alpha, the exact marginal over partitions integrates them out (Beta
// functions in closed form, alpha by quadrature).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
extern "C" {
#include <cmocka.h>
}

#include <cmath>
#include <array>
#include <functional>
#include <map>
#include <vector>

#include "algorithms/tvclust/dirichlet_multinomial.hpp"
#include "algorithms/tvclust/gibbs.hpp"
#include "algorithms/tvclust/niw_gaussian.hpp"
#include "core/rng.hpp"
#include "core/side_info.hpp"

using namespace kindred;
using Partition = std::vector<int32_t>;

namespace {

const double kPi = 3.14159265358979323846;

// All partitions of n points as restricted growth strings (labels by first appearance).
void enumerate(int64_t n, Partition &cur, int32_t next, std::vector<Partition> &out) {
    if (static_cast<int64_t>(cur.size()) == n) {
        out.push_back(cur);
        return;
    }
    for (int32_t l = 0; l <= next; ++l) {
        cur.push_back(l);
        enumerate(n, cur, l == next ? next + 1 : next, out);
        cur.pop_back();
    }
}

int32_t cluster_count(const Partition &z) {
    int32_t k = 0;
    for (int32_t l : z) k = std::max(k, l + 1);
    return k;
}

double log_crp(const Partition &z, double alpha) {
    const int32_t k = cluster_count(z);
    std::vector<int> size(k, 0);
    for (int32_t l : z) ++size[l];
    double v = k * std::log(alpha) + std::lgamma(alpha) - std::lgamma(alpha + static_cast<double>(z.size()));
    for (int s : size) v += std::lgamma(static_cast<double>(s));
    return v;
}

struct Counts {
    double mw = 0, nw = 0, ma = 0, na = 0;  // may within, may-not within, may across, may-not across
};
Counts pair_counts(const Partition &z, const std::vector<Pair> &pairs) {
    Counts c;
    for (const Pair &p : pairs) {
        const bool within = z[p.i] == z[p.j];
        if (p.value > 0) (within ? c.mw : c.ma) += p.value;
        else (within ? c.nw : c.na) -= p.value;
    }
    return c;
}

double log_graph(const Partition &z, const std::vector<Pair> &pairs, double p, double q, double link_power = 1.0) {
    const Counts c = pair_counts(z, pairs);
    return link_power * (c.mw * std::log(p) + c.nw * std::log(1 - p) + c.ma * std::log(1 - q) + c.na * std::log(q));
}

double log_beta_fn(double a, double b) { return std::lgamma(a) + std::lgamma(b) - std::lgamma(a + b); }

// NIW marginal of 2-d points, direct form.
double log_niw_marginal_2d(const std::vector<std::array<double, 2>> &pts, const tvclust::NiwPrior &pr) {
    const double n = static_cast<double>(pts.size());
    double mean[2] = {0, 0};
    for (auto &p : pts) { mean[0] += p[0] / n; mean[1] += p[1] / n; }
    double psi[4] = {pr.psi_0[0], pr.psi_0[1], pr.psi_0[2], pr.psi_0[3]};
    for (auto &p : pts)
        for (int a = 0; a < 2; ++a)
            for (int b = 0; b < 2; ++b) psi[a * 2 + b] += (p[a] - mean[a]) * (p[b] - mean[b]);
    const double w = pr.kappa_0 * n / (pr.kappa_0 + n);
    for (int a = 0; a < 2; ++a)
        for (int b = 0; b < 2; ++b) psi[a * 2 + b] += w * (mean[a] - pr.mu_0[a]) * (mean[b] - pr.mu_0[b]);
    auto det = [](const double *m) { return m[0] * m[3] - m[1] * m[2]; };
    auto lmg = [](double a) { return 0.5 * std::log(kPi) + std::lgamma(a) + std::lgamma(a - 0.5); };
    const double kn = pr.kappa_0 + n, nn = pr.nu_0 + n;
    return -n * std::log(kPi) + lmg(nn / 2) - lmg(pr.nu_0 / 2) + pr.nu_0 / 2 * std::log(det(pr.psi_0.data())) -
           nn / 2 * std::log(det(psi)) + std::log(pr.kappa_0 / kn);
}

double log_data_gaussian(const Partition &z, const std::vector<double> &x, const tvclust::NiwPrior &pr) {
    double v = 0;
    for (int32_t k = 0; k < cluster_count(z); ++k) {
        std::vector<std::array<double, 2>> pts;
        for (size_t i = 0; i < z.size(); ++i)
            if (z[i] == k) pts.push_back({x[2 * i], x[2 * i + 1]});
        v += log_niw_marginal_2d(pts, pr);
    }
    return v;
}

double log_data_multinomial(const Partition &z, const std::vector<double> &x, int64_t d, double beta) {
    double v = 0;
    for (int32_t k = 0; k < cluster_count(z); ++k) {
        std::vector<double> c(d, 0.0);
        double total = 0;
        for (size_t i = 0; i < z.size(); ++i)
            if (z[i] == k)
                for (int64_t j = 0; j < d; ++j) { c[j] += x[i * d + j]; total += x[i * d + j]; }
        v += std::lgamma(d * beta) - std::lgamma(d * beta + total);
        for (int64_t j = 0; j < d; ++j) v += std::lgamma(beta + c[j]) - std::lgamma(beta);
    }
    return v;
}

std::map<Partition, double> normalise(const std::vector<Partition> &all, const std::function<double(const Partition &)> &logp) {
    std::vector<double> lp;
    double top = -INFINITY;
    for (auto &z : all) { lp.push_back(logp(z)); top = std::max(top, lp.back()); }
    double s = 0;
    for (double &v : lp) s += (v = std::exp(v - top));
    std::map<Partition, double> out;
    for (size_t t = 0; t < all.size(); ++t) out[all[t]] = lp[t] / s;
    return out;
}

double total_variation(const std::map<Partition, double> &exact, const std::map<Partition, double> &empirical) {
    double tv = 0;
    for (auto &e : exact) {
        auto it = empirical.find(e.first);
        tv += std::fabs(e.second - (it == empirical.end() ? 0.0 : it->second));
    }
    for (auto &e : empirical)
        if (!exact.count(e.first)) tv += e.second;
    return tv / 2;
}

std::map<Partition, double> run_chain(tvclust::GibbsSampler &s, int64_t sweeps, int64_t burn,
                                      const std::function<void(const tvclust::GibbsSampler &)> &check = nullptr) {
    std::map<Partition, double> freq;
    for (int64_t t = 0; t < burn + sweeps; ++t) {
        s.sweep();
        if (t < burn) continue;
        freq[s.partition()] += 1.0 / static_cast<double>(sweeps);
        if (check && t % 997 == 0) check(s);
    }
    return freq;
}

const int64_t kN = 6;
// Two loose groups and a point between them: the posterior is spread over many partitions.
const std::vector<double> kPoints = {0.0, 0.1, 0.4, -0.3, 0.2, 0.5, 1.6, 1.2, 2.1, 1.5, 1.0, 0.7};

SideInfo make_side() {
    SideInfo side(kN);
    const int64_t a[5] = {0, 2, 1, 0, 3};
    const int64_t b[5] = {1, 3, 4, 5, 5};
    const double v[5] = {1, -1, 1, -1, 2};  // the last: a pair seen twice
    side.add_pairs(a, b, v, 5);
    return side;
}

tvclust::NiwPrior test_prior() {
    tvclust::NiwPrior pr;
    pr.kappa_0 = 0.5;
    pr.nu_0 = 3.5;
    pr.mu_0 = {0.5, 0.6};
    pr.psi_0 = {0.6, 0.15, 0.15, 0.5};
    return pr;
}

DataView view_of(const std::vector<double> &x, int64_t n, int64_t d) {
    DenseView v{x.data(), n, d, d, true};
    return DataView::dense(v);
}

}  // namespace

// Fixed p, q, alpha: the stationary distribution is
// CRP(z | alpha) prod_k p(X_k) p(E | z, p, q).
static void gaussian_sampler_matches_exact_posterior(void **) {
    const SideInfo side = make_side();
    const DataView data = view_of(kPoints, kN, 2);
    const tvclust::NiwPrior pr = test_prior();
    std::vector<Partition> all;
    Partition cur;
    enumerate(kN, cur, 0, all);
    assert_int_equal(all.size(), 203);
    const double alpha = 0.8, p = 0.8, q = 0.7;
    auto exact_log = [&](const Partition &z) {
        return log_crp(z, alpha) + log_data_gaussian(z, kPoints, pr) + log_graph(z, side.pairs(), p, q);
    };
    const auto exact = normalise(all, exact_log);
    const auto wrong = normalise(all, [&](const Partition &z) {
        return log_crp(z, alpha) + log_data_gaussian(z, kPoints, pr) + log_graph(z, side.pairs(), p, q, 2.0);
    });

    tvclust::NiwGaussian lik(data, pr);
    tvclust::GraphPrior g;
    g.p = p;
    g.q = q;
    tvclust::ConcentrationPrior c;
    c.alpha = alpha;
    tvclust::GibbsSampler sampler(lik, &side.adjacency(), kN, g, c, Rng(1));
    // The log joint is the exact one (no constant left out for the Gaussian).
    const auto freq = run_chain(sampler, 200000, 100, [&](const tvclust::GibbsSampler &s) {
        assert_true(std::fabs(s.log_joint() - exact_log(s.partition())) < 1e-8);
    });
    const double tv = total_variation(exact, freq), tv_wrong = total_variation(wrong, freq);
    double top = 0;
    for (auto &e : exact) top = std::max(top, e.second);
    print_message("gaussian: TV to exact %.4f, to the wrong posterior %.4f; %zu partitions visited, largest mass %.3f\n",
                  tv, tv_wrong, freq.size(), top);
    assert_true(tv < 0.02);
    assert_true(tv_wrong > 0.06);
}

// Beta priors on p and q and a Gamma prior on alpha, all resampled: the
// marginal over partitions is
//   int CRP(z | alpha) Gamma(alpha) d alpha * prod_k p(X_k)
//   * B(p_a + mw, p_b + nw) / B(p_a, p_b) * B(q_a + na, q_b + ma) / B(q_a, q_b).
static void resampled_hyperparameters_match_exact_marginal(void **) {
    const SideInfo side = make_side();
    const DataView data = view_of(kPoints, kN, 2);
    const tvclust::NiwPrior pr = test_prior();
    std::vector<Partition> all;
    Partition cur;
    enumerate(kN, cur, 0, all);
    tvclust::GraphPrior g;
    g.resample = true;
    g.p_a = 4; g.p_b = 1.5; g.q_a = 3; g.q_b = 1;
    tvclust::ConcentrationPrior c;
    c.resample = true;
    c.shape = 2; c.rate = 1.5;
    // log int_0^inf Gamma(alpha; shape, rate) alpha^K Gamma(alpha) / Gamma(alpha + n) d alpha, by the midpoint rule
    // on alpha = e^u (the integrand is smooth in u).
    std::vector<double> log_alpha_term(kN + 1);
    for (int k = 1; k <= kN; ++k) {
        double s = 0;
        const double du = 0.001;
        for (double u = -20 + du / 2; u < 6; u += du) {
            const double a = std::exp(u);
            const double lg = c.shape * std::log(c.rate) - std::lgamma(c.shape) + (c.shape - 1) * std::log(a) - c.rate * a;
            s += std::exp(lg + k * std::log(a) + std::lgamma(a) - std::lgamma(a + kN)) * a * du;
        }
        log_alpha_term[k] = std::log(s);
    }
    const auto exact = normalise(all, [&](const Partition &z) {
        const int32_t k = cluster_count(z);
        double lcrp_sizes = 0;
        std::vector<int> size(k, 0);
        for (int32_t l : z) ++size[l];
        for (int s : size) lcrp_sizes += std::lgamma(static_cast<double>(s));
        const Counts n = pair_counts(z, side.pairs());
        return log_alpha_term[k] + lcrp_sizes + log_data_gaussian(z, kPoints, pr) +
               log_beta_fn(g.p_a + n.mw, g.p_b + n.nw) - log_beta_fn(g.p_a, g.p_b) +
               log_beta_fn(g.q_a + n.na, g.q_b + n.ma) - log_beta_fn(g.q_a, g.q_b);
    });
    tvclust::NiwGaussian lik(data, pr);
    tvclust::GibbsSampler sampler(lik, &side.adjacency(), kN, g, c, Rng(2));
    const auto freq = run_chain(sampler, 200000, 100);
    const double tv = total_variation(exact, freq);
    print_message("resampled p, q, alpha: TV to exact %.4f\n", tv);
    assert_true(tv < 0.025);
}

// Multinomial counts with a Dirichlet base measure.
static void multinomial_sampler_matches_exact_posterior(void **) {
    const int64_t d = 3;
    const std::vector<double> x = {4, 1, 0, 3, 2, 1, 0, 1, 5, 1, 0, 3, 2, 2, 2, 5, 0, 1};
    const SideInfo side = make_side();
    const DataView data = view_of(x, kN, d);
    std::vector<Partition> all;
    Partition cur;
    enumerate(kN, cur, 0, all);
    const double alpha = 1.3, p = 0.75, q = 0.85, beta = 0.7;
    auto exact_log = [&](const Partition &z) {
        return log_crp(z, alpha) + log_data_multinomial(z, x, d, beta) + log_graph(z, side.pairs(), p, q);
    };
    const auto exact = normalise(all, exact_log);
    tvclust::DirichletMultinomial lik(data, beta);
    tvclust::GraphPrior g;
    g.p = p;
    g.q = q;
    tvclust::ConcentrationPrior c;
    c.alpha = alpha;
    tvclust::GibbsSampler sampler(lik, &side.adjacency(), kN, g, c, Rng(3));
    const auto freq = run_chain(sampler, 200000, 100, [&](const tvclust::GibbsSampler &s) {
        assert_true(std::fabs(s.log_joint() - exact_log(s.partition())) < 1e-8);
    });
    const double tv = total_variation(exact, freq);
    print_message("multinomial: TV to exact %.4f\n", tv);
    assert_true(tv < 0.02);
}

// Rank-one updates and downdates of the Cholesky factor agree with a fresh factorisation.
static void cholesky_rank_one_matches_refactorisation(void **) {
    Rng rng(5);
    const int64_t d = 5;
    std::vector<double> a(d * d, 0.0);
    for (int64_t i = 0; i < d; ++i) a[i * d + i] = 2.0 + i;
    std::vector<double> l = a;
    assert_true(tvclust::cholesky_lower(l.data(), d));
    std::vector<std::vector<double>> added;
    for (int t = 0; t < 20; ++t) {
        std::vector<double> v(d);
        for (double &e : v) e = rng.normal();
        added.push_back(v);
        for (int64_t i = 0; i < d; ++i)
            for (int64_t j = 0; j < d; ++j) a[i * d + j] += v[i] * v[j];
        assert_true(tvclust::cholesky_rank_one(l.data(), v.data(), d, 1.0));
    }
    for (int t = 0; t < 15; ++t) {
        std::vector<double> v = added[t];
        for (int64_t i = 0; i < d; ++i)
            for (int64_t j = 0; j < d; ++j) a[i * d + j] -= v[i] * v[j];
        assert_true(tvclust::cholesky_rank_one(l.data(), v.data(), d, -1.0));
    }
    std::vector<double> fresh = a;
    assert_true(tvclust::cholesky_lower(fresh.data(), d));
    for (int64_t v = 0; v < d * d; ++v) assert_true(std::fabs(fresh[v] - l[v]) < 1e-10);
    // Downdating what was never added fails cleanly.
    std::vector<double> big(d, 100.0);
    assert_false(tvclust::cholesky_rank_one(l.data(), big.data(), d, -1.0));
}

int main() {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cholesky_rank_one_matches_refactorisation),
        cmocka_unit_test(gaussian_sampler_matches_exact_posterior),
        cmocka_unit_test(resampled_hyperparameters_match_exact_marginal),
        cmocka_unit_test(multinomial_sampler_matches_exact_posterior),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
