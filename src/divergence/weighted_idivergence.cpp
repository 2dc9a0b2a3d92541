// Parameterised I-divergence with diagonal weights (Basu et al., 3.19):
// d_IA(x, mu) = sum_m a_m (x_m log(x_m / mu_m) - x_m + mu_m), for
// non-negative data; constraint potential: the weighted I-divergence to the
// mean d_IMA (3.20), phi_max = sum_m a_m (section 3.3.3.3), objective (3.21).
// Centroids are smoothed as in (3.23) so that no centre coordinate is 0.
// On several ranks the sums over the points (centroids, gradient) are one
// pass over the ranks in index order and the pairs read their gathered end
// rows (divergence/pair_end_rows.hpp): the bits of one process.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "core/parallel.hpp"
#include "divergence/pair_end_rows.hpp"
#include "divergence/weighted_distortion_impl.hpp"

namespace kindred {
namespace divergence {
namespace {

constexpr int64_t kRowChunk = 512;

// x log(2x / (x + y)) + y log(2y / (x + y)), with 0 log 0 = 0: one component of (3.20).
inline double to_mean(double x, double y) {
    const double s = x + y;
    double r = 0.0;
    if (x > 0.0) r += x * std::log(2.0 * x / s);
    if (y > 0.0) r += y * std::log(2.0 * y / s);
    return r;
}

class WeightedIDivergence final : public WeightedDistortion {
public:
    WeightedIDivergence(const DataView &data, int threads, double smoothing, const char *algorithm, int64_t first_row)
        : WeightedDistortion(DistortionKind::IDivergence, data.n(), data.d()), data_(data), x_(data), threads_(threads),
          alpha_(smoothing) {
        for (int64_t i = 0; i < n_; ++i)
            for (int64_t p = x_.indptr[i]; p < x_.indptr[i + 1]; ++p)
                if (x_.values[p] < 0.0)
                    fail(KINDRED_E_INVALID, algorithm, ": the I-divergence needs non-negative data; row ", first_row + i, ", column ",
                         x_.indices[p], " is ", x_.values[p]);
        set_params(identity());
    }

    void set_params(const std::vector<double> &a) override {
        a_ = a;
        // row_term_i = sum_m a_m (x_m log x_m - x_m) over the non-zeros.
        row_term_.assign(n_, 0.0);
        for (int64_t i = 0; i < n_; ++i)
            for (int64_t p = x_.indptr[i]; p < x_.indptr[i + 1]; ++p) {
                const double v = x_.values[p];
                if (v > 0.0) row_term_[i] += a_[x_.indices[p]] * (v * std::log(v) - v);
            }
    }

    // (3.23): mu_h = (mean of X_h + alpha/d 1) / (1 + alpha). The paper
    // writes alpha/n; we use alpha/d (d = number of features), the reading
    // under which a centroid of distributions stays a distribution.
    void centroids(const int32_t *labels, int64_t k, std::vector<double> &centers) const override {
        const std::vector<double> state = sparse_cluster_sums(x_, labels, k, nullptr, ranks_);
        const double *counts = state.data() + k * d_;
        centers.resize(static_cast<size_t>(k * d_));
        const double u = alpha_ / static_cast<double>(d_);
        for (int64_t h = 0; h < k; ++h) {
            if (counts[h] == 0.0) continue;
            for (int64_t m = 0; m < d_; ++m) centers[h * d_ + m] = (state[h * d_ + m] / counts[h] + u) / (1.0 + alpha_);
        }
    }

    void gather_pair_ends(const std::vector<PairConstraint> &pairs) override {
        if (ranks_) ends_.gather(*ranks_, data_, pairs, true);
    }

    void point_center_all(const double *centers, int64_t k, double *out) const override {
        // d_IA(x_i, mu_h) = row_term_i - sum_{m in nz(x_i)} a_m x_m log mu_hm + sum_m a_m mu_hm.
        std::vector<double> alog(static_cast<size_t>(d_ * k)), mass(k, 0.0);
        for (int64_t h = 0; h < k; ++h)
            for (int64_t m = 0; m < d_; ++m) {
                const double mu = centers[h * d_ + m];
                alog[m * k + h] = a_[m] * (mu > 0.0 ? std::log(mu) : -std::numeric_limits<double>::infinity());
                mass[h] += a_[m] * mu;
            }
        parallel_chunks(threads_, n_, kRowChunk, [&](int64_t, int64_t lo, int64_t hi) {
            for (int64_t i = lo; i < hi; ++i) {
                double *row = out + i * k;
                for (int64_t h = 0; h < k; ++h) row[h] = row_term_[i] + mass[h];
                for (int64_t p = x_.indptr[i]; p < x_.indptr[i + 1]; ++p) {
                    const double v = x_.values[p];
                    if (v <= 0.0) continue;
                    const double *lm = alog.data() + x_.indices[p] * k;
                    for (int64_t h = 0; h < k; ++h) row[h] -= v * lm[h];
                }
                // Rounding can make a tiny divergence negative; it is >= 0 in exact arithmetic.
                for (int64_t h = 0; h < k; ++h) row[h] = std::max(row[h], 0.0);
            }
        });
    }

    double center_distance(const double *a, const double *b) const override {
        double s = 0.0;
        for (int64_t m = 0; m < d_; ++m) s += a_[m] * to_mean(a[m], b[m]);
        return s;
    }

    double phi(int64_t i, int64_t j) const override {
        double s = 0.0;
        visit_union(row(i), row(j), [&](int64_t m, double xi, double xj) { s += a_[m] * to_mean(xi, xj); });
        return s;
    }

    double phi_max(const std::vector<PairConstraint> &) const override {
        double s = 0.0;
        for (double v : a_) s += v;
        return s;
    }

    double regulariser(bool prior, double s) const override { return rayleigh_prior_of_weights(a_, prior, s); }

    // (3.28) with the derivatives (3.29): d d_IA/da_m = x_m log(x_m / mu_m) - x_m + mu_m,
    // d d_IMA/da_m = one component of (3.20), d phi_max/da_m = 1.
    void gradient(const GradientInput &in, std::vector<double> &g) const override {
        // The points' terms of g (d), then the clusters' counts (k; exact as doubles).
        std::vector<double> state(static_cast<size_t>(d_ + in.k), 0.0);
        pass_over_points(state.data(), state.size(), [&](double *gs) {
            double *counts = gs + d_;
            for (int64_t i = 0; i < n_; ++i) {
                const int32_t h = in.labels[i];
                counts[h] += 1.0;
                const double *mu = in.centers + static_cast<int64_t>(h) * d_;
                for (int64_t p = x_.indptr[i]; p < x_.indptr[i + 1]; ++p) {
                    const double v = x_.values[p];
                    const int64_t m = x_.indices[p];
                    if (v > 0.0) gs[m] += v * std::log(v / mu[m]) - v;
                }
            }
        });
        g.assign(state.begin(), state.begin() + d_);
        const double *counts = state.data() + d_;
        for (int64_t h = 0; h < in.k; ++h) {
            if (counts[h] == 0.0) continue;
            for (int64_t m = 0; m < d_; ++m) g[m] += counts[h] * in.centers[h * d_ + m];
        }
        const std::vector<PairConstraint> &pairs = *in.pairs;
        for (size_t q = 0; q < pairs.size(); ++q) {
            const double c = (*in.pair_coef)[q];
            if (c == 0.0) continue;
            visit_union(row(pairs[q].i), row(pairs[q].j), [&](int64_t m, double xi, double xj) { g[m] += c * to_mean(xi, xj); });
        }
        if (in.phimax_coef != 0.0)
            for (int64_t m = 0; m < d_; ++m) g[m] += in.phimax_coef;
        if (in.prior)
            for (int64_t m = 0; m < d_; ++m) g[m] += rayleigh_neg_log_grad(a_[m], in.rayleigh_s);
    }

    void project(std::vector<double> &a, double rel_floor) const override { floor_weights(a, rel_floor); }

private:
    // Point i (global): this process's row, or on several ranks the gathered end of a pair.
    SparseRow row(int64_t i) const { return ranks_ ? ends_.sparse().row(ends_.position(i)) : x_.row(i); }

    // f(m, x_m, y_m) for every column where either row is non-zero.
    template <typename F>
    static void visit_union(const SparseRow &x, const SparseRow &y, F f) {
        int64_t p = 0, q = 0;
        while (p < x.nnz || q < y.nnz) {
            if (q >= y.nnz || (p < x.nnz && x.indices[p] < y.indices[q])) { f(x.indices[p], x.values[p], 0.0); ++p; }
            else if (p >= x.nnz || y.indices[q] < x.indices[p]) { f(y.indices[q], 0.0, y.values[q]); ++q; }
            else { f(x.indices[p], x.values[p], y.values[q]); ++p; ++q; }
        }
    }

    const DataView &data_;
    SparseRows x_;
    int threads_;
    double alpha_;
    std::vector<double> row_term_;
    PairEndRows ends_;  // sharded: the rows of the ends of the pairs
};

}  // namespace

std::unique_ptr<WeightedDistortion> make_idivergence(const DataView &data, int threads, double smoothing,
                                                     const char *algorithm, int64_t first_row) {
    return std::unique_ptr<WeightedDistortion>(new WeightedIDivergence(data, threads, smoothing, algorithm, first_row));
}

}  // namespace divergence
}  // namespace kindred
