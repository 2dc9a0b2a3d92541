#include "algorithms/tcs/regularizers.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "core/error.hpp"

namespace kindred {
namespace tcs {
namespace {
// Dykstra-like splitting for the l1 prox: enough inner steps for a relative
// change below 1e-10 in practice; each costs one eigendecomposition.
constexpr int kDykstraMaxSteps = 200;
constexpr double kDykstraTol = 1e-10;

double soft(double v, double t) { return v > t ? v - t : (v < -t ? v + t : 0.0); }
}  // namespace

Regularizer parse_regularizer(const std::string &name) {
    if (name == "frobenius-identity") return Regularizer::FrobeniusIdentity;
    if (name == "frobenius") return Regularizer::Frobenius;
    if (name == "nuclear") return Regularizer::Nuclear;
    if (name == "logdet") return Regularizer::LogDet;
    if (name == "l1-identity") return Regularizer::L1Identity;
    fail(KINDRED_E_INVALID, "tcs: unknown regularizer '", name, "'; known: ", regularizer_choices());
}

const char *regularizer_choices() { return "frobenius-identity|frobenius|nuclear|logdet|l1-identity"; }

bool is_smooth(Regularizer r) { return r == Regularizer::FrobeniusIdentity || r == Regularizer::Frobenius; }

double smooth_value_grad(Regularizer r, double gamma, const double *a, int64_t d, double *grad) {
    if (!is_smooth(r)) return 0.0;
    const bool identity = r == Regularizer::FrobeniusIdentity;
    double s = 0.0;
    for (int64_t i = 0; i < d; ++i)
        for (int64_t j = 0; j < d; ++j) {
            const double e = a[i * d + j] - (identity && i == j ? 1.0 : 0.0);
            s += e * e;
            if (grad) grad[i * d + j] += 2.0 * gamma * e;
        }
    return gamma * s;
}

double smooth_value(Regularizer r, double gamma, const double *a, int64_t d) {
    return smooth_value_grad(r, gamma, a, d, nullptr);
}

ProxStep::ProxStep(Regularizer r, double gamma, int64_t d)
    : r_(r), gamma_(gamma), d_(d), eig_(d), values_(static_cast<size_t>(d)) {}

double ProxStep::project(std::vector<double> &v) {
    const auto t0 = std::chrono::steady_clock::now();
    linalg::project_psd(eig_, v.data(), 0.0);
    eigen_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return 0.0;
}

double ProxStep::apply(std::vector<double> &v, double t) {
    const int64_t d = d_;
    const double tau = t * gamma_;
    if (is_smooth(r_)) return project(v);
    if (r_ == Regularizer::Nuclear || r_ == Regularizer::LogDet) {
        const auto t0 = std::chrono::steady_clock::now();
        eig_.compute(v.data());
        double g = 0.0;
        for (int64_t j = 0; j < d; ++j) {
            const double l = eig_.values()[j];
            if (r_ == Regularizer::Nuclear) {
                values_[j] = std::max(l - tau, 0.0);  // soft-thresholding on the PSD cone
                g += values_[j];
            } else {
                // Positive root of a^2 - (l - tau) a - tau = 0; written to avoid cancellation when l - tau < 0.
                const double b = l - tau, disc = std::sqrt(b * b + 4.0 * tau);
                double a = b >= 0.0 ? 0.5 * (b + disc) : (disc - b > 0.0 ? 2.0 * tau / (disc - b) : 0.0);
                if (tau == 0.0) a = std::max(l, 0.0);
                values_[j] = a;
                g += a > 0.0 ? a - std::log(a) : std::numeric_limits<double>::infinity();
            }
        }
        linalg::rebuild_from_eigen(eig_, values_, v.data());
        eigen_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return gamma_ * g;
    }
    // l1-identity: Dykstra-like proximal algorithm for prox_{f + g}(v) with
    // f = indicator(PSD) and g = tau ||. - I||_1 (Bauschke & Combettes 2008):
    //   y = prox_g(x + p); p += x - y; x' = prox_f(y + q); q += y - x'.
    // x stays PSD; it converges to the exact prox of the sum.
    x_ = v;
    p_.assign(v.size(), 0.0);
    q_.assign(v.size(), 0.0);
    y_.resize(v.size());
    tmp_.resize(v.size());
    for (int step = 0; step < kDykstraMaxSteps; ++step) {
        for (int64_t i = 0; i < d; ++i)
            for (int64_t j = 0; j < d; ++j) {
                const int64_t e = i * d + j;
                const double off = i == j ? 1.0 : 0.0;
                const double z = x_[e] + p_[e];
                y_[e] = off + soft(z - off, tau);
                p_[e] = z - y_[e];
            }
        for (size_t e = 0; e < tmp_.size(); ++e) tmp_[e] = y_[e] + q_[e];
        project(tmp_);
        double change = 0.0, size = 0.0;
        for (size_t e = 0; e < tmp_.size(); ++e) {
            q_[e] = y_[e] + q_[e] - tmp_[e];
            change += (tmp_[e] - x_[e]) * (tmp_[e] - x_[e]);
            size += tmp_[e] * tmp_[e];
        }
        x_.swap(tmp_);
        if (change <= kDykstraTol * kDykstraTol * std::max(1.0, size)) break;
    }
    v = x_;
    double g = 0.0;
    for (int64_t i = 0; i < d; ++i)
        for (int64_t j = 0; j < d; ++j) g += std::fabs(v[i * d + j] - (i == j ? 1.0 : 0.0));
    return gamma_ * g;
}

}  // namespace tcs
}  // namespace kindred
