#include "algorithms/tvclust/niw_gaussian.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace kindred {
namespace tvclust {

namespace {

constexpr double kPi = 3.14159265358979323846;

// log of the multivariate gamma function Gamma_d(a).
double log_multigamma(double a, int64_t d) {
    double v = 0.25 * static_cast<double>(d * (d - 1)) * std::log(kPi);
    for (int64_t j = 0; j < d; ++j) v += std::lgamma(a - 0.5 * static_cast<double>(j));
    return v;
}

double logdet_from_chol(const std::vector<double> &l, int64_t d) {
    double v = 0.0;
    for (int64_t j = 0; j < d; ++j) v += 2.0 * std::log(l[j * d + j]);
    return v;
}

}  // namespace

bool cholesky_lower(double *a, int64_t d) {
    for (int64_t j = 0; j < d; ++j) {
        double diag = a[j * d + j];
        for (int64_t k = 0; k < j; ++k) diag -= a[j * d + k] * a[j * d + k];
        if (!(diag > 0.0)) return false;
        const double ljj = std::sqrt(diag);
        a[j * d + j] = ljj;
        for (int64_t i = j + 1; i < d; ++i) {
            double s = a[i * d + j];
            for (int64_t k = 0; k < j; ++k) s -= a[i * d + k] * a[j * d + k];
            a[i * d + j] = s / ljj;
        }
        for (int64_t k = j + 1; k < d; ++k) a[j * d + k] = 0.0;  // keep the upper part zero
    }
    return true;
}

bool cholesky_rank_one(double *l, double *v, int64_t d, double sign) {
    for (int64_t k = 0; k < d; ++k) {
        const double lkk = l[k * d + k];
        const double r2 = lkk * lkk + sign * v[k] * v[k];
        if (!(r2 > 0.0)) return false;
        const double r = std::sqrt(r2);
        const double c = r / lkk, s = v[k] / lkk;
        l[k * d + k] = r;
        for (int64_t i = k + 1; i < d; ++i) {
            l[i * d + k] = (l[i * d + k] + sign * s * v[i]) / c;
            v[i] = c * v[i] - s * l[i * d + k];
        }
    }
    return true;
}

NiwPrior default_niw_prior(const DataView &data, double kappa_0, double nu_0, double cov_scale) {
    const int64_t n = data.n(), d = data.d();
    NiwPrior p;
    p.kappa_0 = kappa_0;
    p.nu_0 = nu_0 > 0 ? nu_0 : static_cast<double>(d) + 2.0;
    p.mu_0.assign(static_cast<size_t>(d), 0.0);
    std::vector<double> row(static_cast<size_t>(d)), var(static_cast<size_t>(d), 0.0);
    for (int64_t i = 0; i < n; ++i) data.add_row(i, 1.0, p.mu_0.data());
    for (double &m : p.mu_0) m /= static_cast<double>(n);
    for (int64_t i = 0; i < n; ++i) {
        data.copy_row(i, row.data());
        for (int64_t j = 0; j < d; ++j) var[j] += (row[j] - p.mu_0[j]) * (row[j] - p.mu_0[j]);
    }
    double largest = 0.0;
    for (double &v : var) largest = std::max(largest, v /= static_cast<double>(n));
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
    mu_.resize(static_cast<size_t>(d_));
    log_pi_ = std::log(kPi);
}

void NiwGaussian::reserve_slots(int64_t count) {
    while (static_cast<int64_t>(slots_.size()) < count) slots_.push_back(empty_);
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

// Psi_n = Psi_0 + S - sum sum^T / kappa_n (centred points, mu_0 = 0).
void NiwGaussian::refactor(Slot &s) const {
    const double kappa = prior_.kappa_0 + static_cast<double>(s.n);
    s.chol.resize(static_cast<size_t>(d_ * d_));
    for (int64_t a = 0; a < d_; ++a)
        for (int64_t b = 0; b < d_; ++b)
            s.chol[a * d_ + b] = prior_.psi_0[a * d_ + b] + s.scatter[a * d_ + b] - s.sum[a] * s.sum[b] / kappa;
    if (!cholesky_lower(s.chol.data(), d_))
        fail(KINDRED_E_NUMERICAL, "tvclust: the posterior scale matrix of a cluster is not positive definite "
                                  "(Psi_0 too small for the data's scale?)");
    s.logdet = logdet_from_chol(s.chol, d_);
}

void NiwGaussian::add(int64_t slot, int64_t i) {
    load_point(i);
    Slot &s = slots_[slot];
    const double kappa = prior_.kappa_0 + static_cast<double>(s.n);
    mean_of(s, mu_.data());
    const double w = std::sqrt(kappa / (kappa + 1.0));
    for (int64_t j = 0; j < d_; ++j) v_[j] = w * (y_[j] - mu_[j]);
    cholesky_rank_one(s.chol.data(), v_.data(), d_, 1.0);  // an update cannot fail
    ++s.n;
    for (int64_t a = 0; a < d_; ++a) {
        s.sum[a] += y_[a];
        for (int64_t b = 0; b < d_; ++b) s.scatter[a * d_ + b] += y_[a] * y_[b];
    }
    s.logdet = logdet_from_chol(s.chol, d_);
}

void NiwGaussian::remove(int64_t slot, int64_t i) {
    load_point(i);
    Slot &s = slots_[slot];
    const double kappa = prior_.kappa_0 + static_cast<double>(s.n);  // includes x_i
    mean_of(s, mu_.data());
    // Psi_{n-1} = Psi_n - kappa_n / kappa_{n-1} (x - mu_n)(x - mu_n)^T
    const double w = std::sqrt(kappa / (kappa - 1.0));
    for (int64_t j = 0; j < d_; ++j) v_[j] = w * (y_[j] - mu_[j]);
    const bool ok = cholesky_rank_one(s.chol.data(), v_.data(), d_, -1.0);
    --s.n;
    for (int64_t a = 0; a < d_; ++a) {
        s.sum[a] -= y_[a];
        for (int64_t b = 0; b < d_; ++b) s.scatter[a * d_ + b] -= y_[a] * y_[b];
    }
    if (s.n == 0) {
        s = empty_;  // exact prior state, no rounding left behind
    } else if (!ok) {
        refactor(s);  // a downdate lost definiteness to rounding: rebuild from the sums
    } else {
        s.logdet = logdet_from_chol(s.chol, d_);
    }
}

// Multivariate Student-t log density (Murphy 2007, eq. 258).
double NiwGaussian::log_predictive(int64_t slot, int64_t i) {
    load_point(i);
    const Slot &s = slot < 0 ? empty_ : slots_[slot];
    const double kappa = prior_.kappa_0 + static_cast<double>(s.n);
    const double nu = prior_.nu_0 + static_cast<double>(s.n);
    const double dof = nu - static_cast<double>(d_) + 1.0;
    const double c = (kappa + 1.0) / (kappa * dof);  // scale = c Psi_n
    mean_of(s, mu_.data());
    // z = L^{-1} (y - mu): forward substitution.
    double q = 0.0;
    for (int64_t a = 0; a < d_; ++a) {
        double t = y_[a] - mu_[a];
        for (int64_t b = 0; b < a; ++b) t -= s.chol[a * d_ + b] * v_[b];
        v_[a] = t / s.chol[a * d_ + a];
        q += v_[a] * v_[a];
    }
    q /= c;
    const double dd = static_cast<double>(d_);
    return std::lgamma(0.5 * (dof + dd)) - std::lgamma(0.5 * dof) - 0.5 * dd * (std::log(dof) + log_pi_) -
           0.5 * (dd * std::log(c) + s.logdet) - 0.5 * (dof + dd) * std::log1p(q / dof);
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

void NiwGaussian::refresh() {
    for (Slot &s : slots_)
        if (s.n > 0) refactor(s);
}

void NiwGaussian::posterior_mean(int64_t slot, double *out) const {
    mean_of(slots_[slot], out);
    for (int64_t j = 0; j < d_; ++j) out[j] += centre_[j];
}

}  // namespace tvclust
}  // namespace kindred
