// Parameterised cosine distance with diagonal weights a = diag(A):
// d_cosA(x, y) = 1 - x^T A y / (|x|_A |y|_A)   (Basu et al., eq. 3.17),
// phi = d_cosA (section 3.3.3.2), phi_max = 1 (2 when the data has negative
// entries, where the cosine can be negative), no normaliser, objective (3.18).
#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/parallel.hpp"
#include "divergence/weighted_distortion_impl.hpp"

namespace kindred {
namespace divergence {
namespace {

constexpr int64_t kRowChunk = 512;

class WeightedCosine final : public WeightedDistortion {
public:
    WeightedCosine(const DataView &data, int threads, const char *algorithm)
        : WeightedDistortion(DistortionKind::Cosine, data.n(), data.d()), x_(data), threads_(threads) {
        for (int64_t i = 0; i < n_; ++i) {
            double s = 0.0;
            for (int64_t p = x_.indptr[i]; p < x_.indptr[i + 1]; ++p) s += x_.values[p] * x_.values[p];
            if (!(s > 0.0))
                fail(KINDRED_E_INVALID, algorithm, ": row ", i, " is a zero vector; the cosine distortion is undefined for it "
                     "(drop the row or use distortion 'idiv' or 'euclidean-diag')");
        }
        for (double v : x_.values) has_negative_ = has_negative_ || v < 0.0;
        set_params(identity());
    }

    void set_params(const std::vector<double> &a) override {
        a_ = a;
        norm_.resize(n_);
        for (int64_t i = 0; i < n_; ++i) {
            double s = 0.0;
            for (int64_t p = x_.indptr[i]; p < x_.indptr[i + 1]; ++p) s += a_[x_.indices[p]] * x_.values[p] * x_.values[p];
            norm_[i] = std::sqrt(s);
        }
    }

    // The minimiser of sum_{i in X_h} d_cosA(x_i, mu) is mu proportional to
    // sum x_i / |x_i|_A (Cauchy-Schwarz in the A inner product). Equation
    // (3.24) sums the raw x_i; both agree when the rows have equal A-norms.
    void centroids(const int32_t *labels, int64_t k, std::vector<double> &centers) const override {
        std::vector<double> sums(static_cast<size_t>(k * d_), 0.0);
        std::vector<int64_t> counts(k, 0);
        for (int64_t i = 0; i < n_; ++i) {
            const int32_t h = labels[i];
            if (h < 0 || h >= k) continue;
            ++counts[h];
            for (int64_t p = x_.indptr[i]; p < x_.indptr[i + 1]; ++p) sums[h * d_ + x_.indices[p]] += x_.values[p] / norm_[i];
        }
        centers.resize(static_cast<size_t>(k * d_));
        for (int64_t h = 0; h < k; ++h)
            if (counts[h] > 0) std::copy(sums.begin() + h * d_, sums.begin() + (h + 1) * d_, centers.begin() + h * d_);
    }

    void point_center_all(const double *centers, int64_t k, double *out) const override {
        // w[m * k + h] = a_m mu_hm / |mu_h|_A: one pass over the non-zeros per point.
        std::vector<double> w(static_cast<size_t>(d_ * k), 0.0);
        for (int64_t h = 0; h < k; ++h) {
            const double nm = a_norm(centers + h * d_);
            if (nm <= 0.0) continue;
            for (int64_t m = 0; m < d_; ++m) w[m * k + h] = a_[m] * centers[h * d_ + m] / nm;
        }
        parallel_chunks(threads_, n_, kRowChunk, [&](int64_t, int64_t lo, int64_t hi) {
            for (int64_t i = lo; i < hi; ++i) {
                double *row = out + i * k;
                std::fill(row, row + k, 0.0);
                for (int64_t p = x_.indptr[i]; p < x_.indptr[i + 1]; ++p) {
                    const double v = x_.values[p];
                    const double *wm = w.data() + x_.indices[p] * k;
                    for (int64_t h = 0; h < k; ++h) row[h] += v * wm[h];
                }
                for (int64_t h = 0; h < k; ++h) row[h] = 1.0 - row[h] / norm_[i];
            }
        });
    }

    double center_distance(const double *a, const double *b) const override {
        const double na = a_norm(a), nb = a_norm(b);
        if (na <= 0.0 || nb <= 0.0) return 1.0;
        double s = 0.0;
        for (int64_t m = 0; m < d_; ++m) s += a_[m] * a[m] * b[m];
        return 1.0 - s / (na * nb);
    }

    double phi(int64_t i, int64_t j) const override { return 1.0 - similarity(i, j); }

    double phi_max(const std::vector<PairConstraint> &) const override { return has_negative_ ? 2.0 : 1.0; }

    double regulariser(bool prior, double s) const override {
        double r = 0.0;
        if (prior)
            for (double v : a_) r += rayleigh_neg_log(v, s);
        return r;
    }

    // (3.28) with the derivative of (3.17): for s = x^T A y / (|x|_A |y|_A),
    // ds/da_m = x_m y_m / (|x|_A |y|_A) - s/2 (x_m^2 / |x|_A^2 + y_m^2 / |y|_A^2)
    // and d(d_cosA)/da_m = -ds/da_m. ((3.29) prints ds/da_m.)
    void gradient(const GradientInput &in, std::vector<double> &g) const override {
        g.assign(static_cast<size_t>(d_), 0.0);
        std::vector<double> mu_norm(in.k), s_sum(in.k, 0.0);
        for (int64_t h = 0; h < in.k; ++h) mu_norm[h] = a_norm(in.centers + h * d_);
        for (int64_t i = 0; i < n_; ++i) {
            const int32_t h = in.labels[i];
            const double *mu = in.centers + static_cast<int64_t>(h) * d_;
            if (mu_norm[h] <= 0.0) continue;
            double dot = 0.0;
            for (int64_t p = x_.indptr[i]; p < x_.indptr[i + 1]; ++p) dot += a_[x_.indices[p]] * x_.values[p] * mu[x_.indices[p]];
            const double nx = norm_[i], s = dot / (nx * mu_norm[h]);
            s_sum[h] += s;
            for (int64_t p = x_.indptr[i]; p < x_.indptr[i + 1]; ++p) {
                const double v = x_.values[p];
                const int64_t m = x_.indices[p];
                g[m] += -v * mu[m] / (nx * mu_norm[h]) + 0.5 * s * v * v / (nx * nx);
            }
        }
        for (int64_t h = 0; h < in.k; ++h) {
            if (mu_norm[h] <= 0.0 || s_sum[h] == 0.0) continue;
            const double *mu = in.centers + h * d_;
            const double c = 0.5 * s_sum[h] / (mu_norm[h] * mu_norm[h]);
            for (int64_t m = 0; m < d_; ++m) g[m] += c * mu[m] * mu[m];
        }
        const std::vector<PairConstraint> &pairs = *in.pairs;
        for (size_t q = 0; q < pairs.size(); ++q) {
            const double c = (*in.pair_coef)[q];
            if (c == 0.0) continue;
            const int64_t i = pairs[q].i, j = pairs[q].j;
            const double s = similarity(i, j), ni = norm_[i], nj = norm_[j];
            for (int64_t p = x_.indptr[i]; p < x_.indptr[i + 1]; ++p)
                g[x_.indices[p]] += c * 0.5 * s * x_.values[p] * x_.values[p] / (ni * ni);
            for (int64_t p = x_.indptr[j]; p < x_.indptr[j + 1]; ++p)
                g[x_.indices[p]] += c * 0.5 * s * x_.values[p] * x_.values[p] / (nj * nj);
            merge(i, j, [&](int64_t m, double xi, double xj) { g[m] -= c * xi * xj / (ni * nj); });
        }
        // phi_max is a constant: no term.
        if (in.prior)
            for (int64_t m = 0; m < d_; ++m) g[m] += rayleigh_neg_log_grad(a_[m], in.rayleigh_s);
    }

    void project(std::vector<double> &a, double rel_floor) const override { floor_weights(a, rel_floor); }

private:
    double a_norm(const double *v) const {
        double s = 0.0;
        for (int64_t m = 0; m < d_; ++m) s += a_[m] * v[m] * v[m];
        return std::sqrt(s);
    }

    // f(m, x_im, x_jm) for the columns where both rows are non-zero (rows sorted).
    template <typename F>
    void merge(int64_t i, int64_t j, F f) const {
        int64_t p = x_.indptr[i], q = x_.indptr[j];
        const int64_t pe = x_.indptr[i + 1], qe = x_.indptr[j + 1];
        while (p < pe && q < qe) {
            if (x_.indices[p] < x_.indices[q]) ++p;
            else if (x_.indices[q] < x_.indices[p]) ++q;
            else { f(x_.indices[p], x_.values[p], x_.values[q]); ++p; ++q; }
        }
    }

    double similarity(int64_t i, int64_t j) const {
        double s = 0.0;
        merge(i, j, [&](int64_t m, double xi, double xj) { s += a_[m] * xi * xj; });
        return s / (norm_[i] * norm_[j]);
    }

    SparseRows x_;
    int threads_;
    bool has_negative_ = false;
    std::vector<double> norm_;
};

}  // namespace

std::unique_ptr<WeightedDistortion> make_cosine(const DataView &data, int threads, const char *algorithm) {
    return std::unique_ptr<WeightedDistortion>(new WeightedCosine(data, threads, algorithm));
}

}  // namespace divergence
}  // namespace kindred
