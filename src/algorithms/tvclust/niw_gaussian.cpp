#include "algorithms/tvclust/niw_gaussian.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "algorithms/centroid/steps.hpp"
#include "core/error.hpp"
#include "core/parallel.hpp"
#include "linalg/blas.hpp"
#include "linalg/log_gamma.hpp"

namespace kindred {
namespace tvclust {

namespace {

constexpr double kPi = 3.14159265358979323846;
// Right-hand sides per triangular solve (the scratch block is d x kChunk).
constexpr int64_t kChunk = 256;
// A form that cannot be updated is solved afresh with the next kWindow - 1
// points (one BLAS call instead of kWindow solves of one vector).
constexpr int64_t kWindow = 64;
// Every form is solved afresh at least once every kFreshEvery sweeps (a
// residue class of the points per sweep), so that the rounding of its
// updates cannot pile up over a long chain.
constexpr int64_t kFreshEvery = 16;

// Changes kept per cluster: an update costs about d per pending change, a
// fresh solve about d^2 / 2 (faster per operation, being BLAS): beyond about
// d / 4 pending changes solving is the cheaper.
int64_t change_capacity(int64_t d) { return std::min<int64_t>(64, std::max<int64_t>(4, d / 4)); }

// log of the multivariate gamma function Gamma_d(a).
double log_multigamma(double a, int64_t d) {
    double v = 0.25 * static_cast<double>(d * (d - 1)) * std::log(kPi);
    for (int64_t j = 0; j < d; ++j) v += log_gamma(a - 0.5 * static_cast<double>(j));
    return v;
}

}  // namespace

NiwPrior default_niw_prior(const DataView &data, double kappa_0, double nu_0, double cov_scale,
                           const Collective *ranks) {
    const int64_t n = data.n(), d = data.d();
    NiwPrior p;
    p.kappa_0 = kappa_0;
    p.nu_0 = nu_0 > 0 ? nu_0 : static_cast<double>(d) + 2.0;
    p.mu_0.assign(static_cast<size_t>(d), 0.0);
    std::vector<double> row(static_cast<size_t>(d)), var(static_cast<size_t>(d), 0.0);
    double count = static_cast<double>(n);
    if (ranks && !ranks->single()) {
        count = static_cast<double>(ranks->n_total());
        // Two passes of chunk sums over all the ranks' rows (the mean, then the squared deviations).
        const int64_t chunk = Collective::kChunk;
        p.mu_0 = global_mean(data, ranks);
        std::vector<double> partial(static_cast<size_t>(chunk_count(n, chunk) * d), 0.0);
        for (int64_t i = 0; i < n; ++i) {
            data.copy_row(i, row.data());
            double *at = partial.data() + (i / chunk) * d;
            for (int64_t j = 0; j < d; ++j) at[j] += (row[j] - p.mu_0[j]) * (row[j] - p.mu_0[j]);
        }
        var = ranks->sum_chunks(partial, d);
    } else {
        for (int64_t i = 0; i < n; ++i) data.add_row(i, 1.0, p.mu_0.data());
        for (double &m : p.mu_0) m /= static_cast<double>(n);
        for (int64_t i = 0; i < n; ++i) {
            data.copy_row(i, row.data());
            for (int64_t j = 0; j < d; ++j) var[j] += (row[j] - p.mu_0[j]) * (row[j] - p.mu_0[j]);
        }
    }
    double largest = 0.0;
    for (double &v : var) largest = std::max(largest, v /= count);
    const double floor = 1e-9 * std::max(1.0, largest);
    p.psi_0.assign(static_cast<size_t>(d * d), 0.0);
    for (int64_t j = 0; j < d; ++j) p.psi_0[j * d + j] = cov_scale * std::max(var[j], floor);
    return p;
}

NiwGaussian::NiwGaussian(const DataView &data, const NiwPrior &prior)
    : data_(data), prior_(prior), d_(data.d()), centre_(prior.mu_0) {
    if (!(prior_.nu_0 > static_cast<double>(d_) - 1.0))
        fail(KINDRED_E_INVALID, "tvclust: nu_0 must be > d - 1 = ", d_ - 1, ", got ", prior_.nu_0);
    if (!(prior_.kappa_0 > 0.0)) fail(KINDRED_E_INVALID, "tvclust: kappa_0 must be > 0, got ", prior_.kappa_0);
    empty_.sum.assign(static_cast<size_t>(d_), 0.0);
    empty_.scatter.assign(static_cast<size_t>(d_ * d_), 0.0);
    refactor(empty_);
    y_.resize(static_cast<size_t>(d_));
    v_.resize(static_cast<size_t>(d_));
    rhs_.resize(static_cast<size_t>(d_ * kChunk));
    log_pi_ = std::log(kPi);
    // The prior predictive of every point: the empty slot never changes.
    const int64_t n = data.n();
    prior_predictive_.resize(static_cast<size_t>(n));
    solve_points(empty_, 0, 1, n, prior_predictive_.data());
    for (int64_t j = 0; j < n; ++j) prior_predictive_[j] = student_t(0, empty_.logdet, prior_predictive_[j]);
}

void NiwGaussian::reserve_slots(int64_t count) {
    while (static_cast<int64_t>(slots_.size()) < count) slots_.push_back(empty_);
    while (forms_.size() < slots_.size()) forms_.emplace_back(data_.n(), d_, change_capacity(d_));
}

void NiwGaussian::load_point(int64_t i) {
    if (loaded_ == i) return;
    data_.copy_row(i, y_.data());
    for (int64_t j = 0; j < d_; ++j) y_[j] -= centre_[j];
    loaded_ = i;
}

void NiwGaussian::mean_of(const Slot &s, double *mu) const {
    const double kappa = prior_.kappa_0 + static_cast<double>(s.n);
    for (int64_t j = 0; j < d_; ++j) mu[j] = s.sum[j] / kappa;  // mu_0 = 0 after centring
}

void NiwGaussian::set_derived(Slot &s) const {
    s.mean.resize(static_cast<size_t>(d_));
    s.inv_diag.resize(static_cast<size_t>(d_));
    mean_of(s, s.mean.data());
    double logdet = 0.0;
    for (int64_t j = 0; j < d_; ++j) {
        const double ljj = s.chol[j * d_ + j];
        s.inv_diag[j] = 1.0 / ljj;
        logdet += 2.0 * std::log(ljj);
    }
    s.logdet = logdet;
}

// Psi_n = Psi_0 + S - sum sum^T / kappa_n (centred points, mu_0 = 0); only
// the lower part is formed, which is all the factorisation reads.
void NiwGaussian::refactor(Slot &s) const {
    const double kappa = prior_.kappa_0 + static_cast<double>(s.n);
    s.chol.assign(static_cast<size_t>(d_ * d_), 0.0);
    for (int64_t b = 0; b < d_; ++b)
        for (int64_t a = b; a < d_; ++a)
            s.chol[b * d_ + a] = prior_.psi_0[a * d_ + b] + s.scatter[b * d_ + a] - s.sum[a] * s.sum[b] / kappa;
    if (!cholesky_lower(s.chol.data(), d_))
        fail(KINDRED_E_NUMERICAL, "tvclust: the posterior scale matrix of a cluster is not positive definite "
                                  "(Psi_0 too small for the data's scale?)");
    set_derived(s);
}

void NiwGaussian::add_outer(Slot &s, double sign) const {
    for (int64_t b = 0; b < d_; ++b) {
        s.sum[b] += sign * y_[b];
        const double yb = sign * y_[b];
        double *col = s.scatter.data() + b * d_;
        for (int64_t a = b; a < d_; ++a) col[a] += y_[a] * yb;
    }
}

// The change a move makes to the quadratic forms of the other points
// (quadratic_forms.hpp): p = Psi_n^{-1} v, gamma = v^T p, by a forward and a
// back substitution with the factor before the move. A downdate whose
// denominator 1 + sigma gamma (a ratio of determinants) is nearly 0 would
// amplify rounding: the forms are then solved afresh instead.
void NiwGaussian::log_change(int64_t slot, double beta, double sigma) {
    const Slot &s = slots_[slot];
    QuadraticForms &forms = forms_[slot];
    for (int64_t j = 0; j < d_; ++j) v_[j] = y_[j] - s.mean[j];
    const double gamma = forward_solve_norm2(s.chol.data(), s.inv_diag.data(), v_.data(), d_);
    if (!(1.0 + sigma * gamma > 1e-6)) {
        forms.reset();
        return;
    }
    backward_solve(s.chol.data(), s.inv_diag.data(), v_.data(), d_);
    double pmu = 0.0;
    for (int64_t j = 0; j < d_; ++j) pmu += v_[j] * s.mean[j];
    double *p = forms.push_change(beta, sigma, gamma, pmu);
    std::copy(v_.begin(), v_.end(), p);
}

void NiwGaussian::add(int64_t slot, int64_t i) {
    load_point(i);
    Slot &s = slots_[slot];
    const double kappa = prior_.kappa_0 + static_cast<double>(s.n);
    log_change(slot, 1.0 / (kappa + 1.0), kappa / (kappa + 1.0));
    const double w = std::sqrt(kappa / (kappa + 1.0));
    for (int64_t j = 0; j < d_; ++j) v_[j] = w * (y_[j] - s.mean[j]);
    cholesky_rank_one(s.chol.data(), v_.data(), d_, 1.0);  // an update cannot fail
    ++s.n;
    add_outer(s, 1.0);
    set_derived(s);
    s.dirty = true;
}

void NiwGaussian::remove(int64_t slot, int64_t i) {
    load_point(i);
    Slot &s = slots_[slot];
    const double kappa = prior_.kappa_0 + static_cast<double>(s.n);  // includes x_i
    if (s.n > 1) log_change(slot, -1.0 / (kappa - 1.0), -kappa / (kappa - 1.0));
    // Psi_{n-1} = Psi_n - kappa_n / kappa_{n-1} (x - mu_n)(x - mu_n)^T
    const double w = std::sqrt(kappa / (kappa - 1.0));
    for (int64_t j = 0; j < d_; ++j) v_[j] = w * (y_[j] - s.mean[j]);
    const bool ok = cholesky_rank_one(s.chol.data(), v_.data(), d_, -1.0);
    --s.n;
    add_outer(s, -1.0);
    if (s.n == 0) {
        s = empty_;  // exact prior state, no rounding left behind
        forms_[slot].reset();
    } else if (!ok) {
        refactor(s);  // a downdate lost definiteness to rounding: rebuild from the sums
    } else {
        set_derived(s);
        s.dirty = true;
    }
}

// Multivariate Student-t log density (Murphy 2007, eq. 258): with
// dof = nu_n - d + 1 and scale c Psi_n, c = (kappa_n + 1) / (kappa_n dof),
//   lgamma((dof + d)/2) - lgamma(dof/2) - d/2 log(dof pi) - d/2 log c - 1/2 log|Psi_n|
//   - (dof + d)/2 log(1 + r / (c dof)),
// the first four terms a function of n alone.
double NiwGaussian::student_t(int64_t n, double logdet, double r) {
    const double kappa = prior_.kappa_0 + static_cast<double>(n);
    const double dof = prior_.nu_0 + static_cast<double>(n) - static_cast<double>(d_) + 1.0;
    const double dd = static_cast<double>(d_);
    if (static_cast<int64_t>(t_const_.size()) <= n)
        t_const_.resize(static_cast<size_t>(n + 1), std::numeric_limits<double>::quiet_NaN());
    double &head = t_const_[n];
    if (std::isnan(head)) {
        const double c = (kappa + 1.0) / (kappa * dof);
        head = log_gamma(0.5 * (dof + dd)) - log_gamma(0.5 * dof) - 0.5 * dd * (std::log(dof) + log_pi_) -
               0.5 * dd * std::log(c);
    }
    return head - 0.5 * logdet - 0.5 * (dof + dd) * std::log1p(r * kappa / (kappa + 1.0));
}

double NiwGaussian::solve_norm2(const Slot &s) {
    for (int64_t j = 0; j < d_; ++j) v_[j] = y_[j] - s.mean[j];
    return forward_solve_norm2(s.chol.data(), s.inv_diag.data(), v_.data(), d_);
}

void NiwGaussian::solve_points(const Slot &s, int64_t first, int64_t stride, int64_t m, double *out) {
    for (int64_t c = 0; c < m; c += kChunk) {
        const int64_t mc = std::min(kChunk, m - c);
        for (int64_t j = 0; j < mc; ++j) {
            double *u = rhs_.data() + j * d_;
            data_.copy_row(first + (c + j) * stride, u);
            for (int64_t a = 0; a < d_; ++a) u[a] = (u[a] - centre_[a]) - s.mean[a];
        }
        linalg::trsm_lower(d_, mc, s.chol.data(), rhs_.data());
        for (int64_t j = 0; j < mc; ++j) {
            const double *z = rhs_.data() + j * d_;
            double q = 0.0;
            for (int64_t a = 0; a < d_; ++a) q += z[a] * z[a];
            out[c + j] = q;
        }
    }
}

double NiwGaussian::quadratic_form(int64_t slot, int64_t i) {
    load_point(i);
    QuadraticForms &forms = forms_[slot];
    double r;
    if (forms.current(i, y_.data(), r)) return r;
    const int64_t m = std::min(kWindow, data_.n() - i);
    double fresh[kWindow];
    solve_points(slots_[slot], i, 1, m, fresh);
    for (int64_t j = 0; j < m; ++j) forms.store(i + j, fresh[j]);
    return fresh[0];
}

double NiwGaussian::log_predictive(int64_t slot, int64_t i) {
    if (slot < 0) return prior_predictive_[i];
    return student_t(slots_[slot].n, slots_[slot].logdet, quadratic_form(slot, i));
}

// With u = x - mu_n, r = u^T Psi_n^{-1} u and w = kappa_n / kappa_{n-1}, the
// cluster without x has mu_{n-1} = mu_n - (w - 1) u, so x - mu_{n-1} = w u, and
// Psi_{n-1} = Psi_n - w u u^T. The determinant lemma gives
// |Psi_{n-1}| = |Psi_n| g with g = 1 - w r, and Sherman-Morrison
// u^T Psi_{n-1}^{-1} u = r / g: the predictive needs the one solve against L_n.
// g is a ratio of determinants, in (0, 1]; when it is so small that its
// rounding would matter, the slot without x is rebuilt from its sums instead.
double NiwGaussian::log_predictive_without(int64_t slot, int64_t i) {
    const Slot &s = slots_[slot];
    const double kappa = prior_.kappa_0 + static_cast<double>(s.n);
    const double w = kappa / (kappa - 1.0);
    const double r = quadratic_form(slot, i);
    const double g = 1.0 - w * r;
    if (g > 1e-6) return student_t(s.n - 1, s.logdet + std::log(g), w * w * r / g);
    load_point(i);
    scratch_.n = s.n;
    scratch_.sum = s.sum;
    scratch_.scatter = s.scatter;
    --scratch_.n;
    add_outer(scratch_, -1.0);
    refactor(scratch_);
    return student_t(scratch_.n, scratch_.logdet, solve_norm2(scratch_));
}

// log p(X) = -n d/2 log pi + log Gamma_d(nu_n/2) - log Gamma_d(nu_0/2)
//            + nu_0/2 log|Psi_0| - nu_n/2 log|Psi_n| + d/2 (log kappa_0 - log kappa_n)   (Murphy 2007, eq. 266)
double NiwGaussian::log_marginal(int64_t slot) const {
    const Slot &s = slots_[slot];
    if (s.n == 0) return 0.0;
    const double n = static_cast<double>(s.n), dd = static_cast<double>(d_);
    const double kappa = prior_.kappa_0 + n, nu = prior_.nu_0 + n;
    return -0.5 * n * dd * log_pi_ + log_multigamma(0.5 * nu, d_) - log_multigamma(0.5 * prior_.nu_0, d_) +
           0.5 * prior_.nu_0 * empty_.logdet - 0.5 * nu * s.logdet + 0.5 * dd * (std::log(prior_.kappa_0) - std::log(kappa));
}

// Only the slots that moved are refactored: an unchanged slot has no new
// rounding to undo. Then one residue class of the points (mod kFreshEvery) has
// its quadratic forms solved afresh in every cluster.
void NiwGaussian::refresh() {
    const int64_t n = data_.n();
    const int64_t phase = sweeps_++ % kFreshEvery;
    const int64_t m = phase < n ? (n - phase + kFreshEvery - 1) / kFreshEvery : 0;
    std::vector<double> &fresh = rhs_fresh_;
    fresh.resize(static_cast<size_t>(m));
    for (size_t slot = 0; slot < slots_.size(); ++slot) {
        Slot &s = slots_[slot];
        if (s.n == 0) continue;
        if (s.dirty) {
            refactor(s);
            s.dirty = false;
        }
        solve_points(s, phase, kFreshEvery, m, fresh.data());
        for (int64_t j = 0; j < m; ++j) forms_[slot].store(phase + j * kFreshEvery, fresh[j]);
    }
}

void NiwGaussian::add_stats(int64_t i, double *out) {
    load_point(i);
    out[0] += 1.0;
    for (int64_t b = 0; b < d_; ++b) {
        out[1 + b] += y_[b];
        double *col = out + 1 + d_ + b * d_;
        for (int64_t a = b; a < d_; ++a) col[a] += y_[a] * y_[b];
    }
}

// The slot's factor and derived state come from the sums (refactor), and its
// quadratic forms are all stale: the slot is a new cluster to this rank.
void NiwGaussian::load_stats(int64_t slot, const double *stats) {
    Slot &s = slots_[slot];
    forms_[slot].reset();
    s.n = static_cast<int64_t>(stats[0]);
    if (s.n == 0) {
        s = empty_;
        return;
    }
    s.sum.assign(stats + 1, stats + 1 + d_);
    s.scatter.assign(stats + 1 + d_, stats + 1 + d_ + d_ * d_);
    refactor(s);
    s.dirty = false;
}

}  // namespace tvclust
}  // namespace kindred
