#include "principal_components.hpp"

#include <cmath>

namespace kindred_cli {

namespace {

constexpr int kMaxSteps = 300;
constexpr double kTolerance = 1e-10;

double dot(const std::vector<double> &a, const std::vector<double> &b) {
    double s = 0;
    for (size_t k = 0; k < a.size(); ++k) s += a[k] * b[k];
    return s;
}

// out = X^T X v, for the centred X.
void gram_times(const std::vector<double> &points, const std::vector<double> &mean, int64_t n, int64_t d,
                const std::vector<double> &v, std::vector<double> &out) {
    std::fill(out.begin(), out.end(), 0.0);
    for (int64_t i = 0; i < n; ++i) {
        const double *row = &points[static_cast<size_t>(i * d)];
        double t = 0;
        for (int64_t c = 0; c < d; ++c) t += (row[c] - mean[c]) * v[c];
        for (int64_t c = 0; c < d; ++c) out[c] += (row[c] - mean[c]) * t;
    }
}

// The leading eigenvector of X^T X orthogonal to `against` (empty: none), and its eigenvalue.
std::vector<double> leading_vector(const std::vector<double> &points, const std::vector<double> &mean, int64_t n,
                                   int64_t d, const std::vector<double> &against, double &eigenvalue) {
    std::vector<double> v(static_cast<size_t>(d)), next(static_cast<size_t>(d));
    // A fixed start that is not orthogonal to any axis.
    for (int64_t c = 0; c < d; ++c) v[c] = 1.0 + 0.1 * static_cast<double>(c);
    eigenvalue = 0;
    for (int step = 0; step < kMaxSteps; ++step) {
        if (!against.empty()) {
            const double p = dot(v, against);
            for (int64_t c = 0; c < d; ++c) v[c] -= p * against[c];
        }
        const double norm = std::sqrt(dot(v, v));
        if (norm == 0) break;
        for (double &x : v) x /= norm;
        gram_times(points, mean, n, d, v, next);
        const double lambda = dot(v, next);
        const bool settled = std::abs(lambda - eigenvalue) <= kTolerance * std::abs(lambda);
        eigenvalue = lambda;
        v.swap(next);
        if (settled) break;
    }
    if (!against.empty()) {
        const double p = dot(v, against);
        for (int64_t c = 0; c < d; ++c) v[c] -= p * against[c];
    }
    const double norm = std::sqrt(dot(v, v));
    if (norm > 0)
        for (double &x : v) x /= norm;
    size_t largest = 0;
    for (size_t c = 1; c < v.size(); ++c)
        if (std::abs(v[c]) > std::abs(v[largest])) largest = c;
    if (!v.empty() && v[largest] < 0)
        for (double &x : v) x = -x;
    return v;
}

}  // namespace

Projection principal_components(const std::vector<double> &points, int64_t n, int64_t d) {
    std::vector<double> mean(static_cast<size_t>(d), 0.0);
    for (int64_t i = 0; i < n; ++i)
        for (int64_t c = 0; c < d; ++c) mean[c] += points[static_cast<size_t>(i * d + c)];
    for (double &m : mean) m /= static_cast<double>(n);
    double total = 0;
    for (int64_t i = 0; i < n; ++i)
        for (int64_t c = 0; c < d; ++c) {
            const double t = points[static_cast<size_t>(i * d + c)] - mean[c];
            total += t * t;
        }
    Projection p;
    double l1 = 0, l2 = 0;
    const std::vector<double> v1 = leading_vector(points, mean, n, d, {}, l1);
    const std::vector<double> v2 = d > 1 ? leading_vector(points, mean, n, d, v1, l2) : std::vector<double>(1, 0.0);
    if (total > 0) {
        p.explained[0] = l1 / total;
        p.explained[1] = l2 / total;
    }
    p.x.resize(static_cast<size_t>(n));
    p.y.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
        double a = 0, b = 0;
        for (int64_t c = 0; c < d; ++c) {
            const double t = points[static_cast<size_t>(i * d + c)] - mean[c];
            a += t * v1[c];
            b += t * v2[c];
        }
        p.x[i] = a;
        p.y[i] = b;
    }
    return p;
}

}  // namespace kindred_cli
