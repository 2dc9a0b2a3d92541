// Parameterised cosine distance with diagonal weights a = diag(A):
// d_cosA(x, y) = 1 - x^T A y / (|x|_A |y|_A)   (Basu et al., eq. 3.17),
// phi = d_cosA (section 3.3.3.2), phi_max = 1 (2 when the data has negative
// entries, where the cosine can be negative), no normaliser, objective (3.18).
// On several ranks the sums over the points (centroids, gradient) are one
// pass over the ranks in index order and the pairs read their gathered end
// rows (divergence/pair_end_rows.hpp): the bits of one process.
#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/parallel.hpp"
#include "core/rank_totals.hpp"
#include "divergence/pair_end_rows.hpp"
#include "divergence/weighted_distortion_impl.hpp"

namespace kindred {
namespace divergence {
namespace {

constexpr int64_t kRowChunk = 512;

class WeightedCosine final : public WeightedDistortion {
public:
    WeightedCosine(const DataView &data, int threads, const char *algorithm, int64_t first_row)
        : WeightedDistortion(DistortionKind::Cosine, data.n(), data.d()), data_(data), x_(data), threads_(threads) {
        for (int64_t i = 0; i < n_; ++i) {
            double s = 0.0;
            for (int64_t p = x_.indptr[i]; p < x_.indptr[i + 1]; ++p) s += x_.values[p] * x_.values[p];
            if (!(s > 0.0))
                fail(KINDRED_E_INVALID, algorithm, ": row ", first_row + i, " is a zero vector; the cosine distortion is undefined for it "
                     "(drop the row or use distortion 'idiv' or 'euclidean-diag')");
        }
        for (double v : x_.values) has_negative_ = has_negative_ || v < 0.0;
        set_params(identity());
    }

    // |x_i|_A of the points are computed when next read (x_norms), not
    // here: the metric step's line search sets every candidate A and then
    // only asks for assigned_distortion, which computes them in its own pass
    // over the rows (one pass per candidate instead of two).
    void set_params(const std::vector<double> &a) override {
        a_ = a;
        norms_fresh_ = false;
        norms(ends_.sparse(), end_norm_);
    }

    // phi_max depends on whether any point has a negative entry: any rank's.
    void set_ranks(const Collective *ranks) override {
        WeightedDistortion::set_ranks(ranks);
        if (ranks) has_negative_ = total_over_ranks(*ranks, has_negative_ ? 1 : 0) > 0;
    }

    void gather_pair_ends(const std::vector<PairConstraint> &pairs) override {
        if (!ranks_) return;
        ends_.gather(*ranks_, data_, pairs, true);
        norms(ends_.sparse(), end_norm_);
    }

    // The minimiser of sum_{i in X_h} d_cosA(x_i, mu) is mu proportional to
    // sum x_i / |x_i|_A (Cauchy-Schwarz in the A inner product). Equation
    // (3.24) sums the raw x_i; both agree when the rows have equal A-norms.
    void centroids(const int32_t *labels, int64_t k, std::vector<double> &centers) const override {
        const std::vector<double> state = sparse_cluster_sums(x_, labels, k, x_norms().data(), ranks_);
        centers.resize(static_cast<size_t>(k * d_));
        for (int64_t h = 0; h < k; ++h)
            if (state[k * d_ + h] > 0.0)
                std::copy(state.begin() + h * d_, state.begin() + (h + 1) * d_, centers.begin() + h * d_);
    }

    void point_center_all(const double *centers, int64_t k, double *out) const override {
        // w[m * k + h] = a_m mu_hm / |mu_h|_A: one pass over the non-zeros per point.
        std::vector<double> w(static_cast<size_t>(d_ * k), 0.0);
        for (int64_t h = 0; h < k; ++h) {
            const double nm = a_norm(centers + h * d_);
            if (nm <= 0.0) continue;
            for (int64_t m = 0; m < d_; ++m) w[m * k + h] = a_[m] * centers[h * d_ + m] / nm;
        }
        const std::vector<double> &norm = x_norms();
        parallel_chunks(threads_, n_, kRowChunk, [&](int64_t, int64_t lo, int64_t hi) {
            for (int64_t i = lo; i < hi; ++i) {
                double *row = out + i * k;
                std::fill(row, row + k, 0.0);
                for (int64_t p = x_.indptr[i]; p < x_.indptr[i + 1]; ++p) {
                    const double v = x_.values[p];
                    const double *wm = w.data() + x_.indices[p] * k;
                    for (int64_t h = 0; h < k; ++h) row[h] += v * wm[h];
                }
                for (int64_t h = 0; h < k; ++h) row[h] = 1.0 - row[h] / norm[i];
            }
        });
    }

    // The metric step's line search evaluates this for every candidate A:
    // only the assigned centre's term of each row, O(nnz) instead of the
    // O(nnz k) rows of point_center_all and their n x k write (work is not
    // touched). The bits are point_center_all's for that column (the same
    // products added in the same order, then 1 - s / |x|_A), summed in index
    // order as the base class does. Stale |x_i|_A (a new A) are computed in
    // the same pass, with norms()'s additions, and kept.
    double assigned_distortion(const double *centers, int64_t k, const int32_t *labels, double *) const override {
        std::vector<double> w(static_cast<size_t>(k * d_), 0.0);  // row h: a_m mu_hm / |mu_h|_A
        for (int64_t h = 0; h < k; ++h) {
            const double nm = a_norm(centers + h * d_);
            if (nm <= 0.0) continue;
            for (int64_t m = 0; m < d_; ++m) w[h * d_ + m] = a_[m] * centers[h * d_ + m] / nm;
        }
        const bool fresh = norms_fresh_;
        norm_.resize(static_cast<size_t>(n_));
        double j = 0.0;
        pass_over_points(&j, 1, [&](double *sum) {
            for (int64_t i = 0; i < n_; ++i) {
                const double *wh = w.data() + static_cast<int64_t>(labels[i]) * d_;
                double s = 0.0, q = 0.0;
                for (int64_t p = x_.indptr[i]; p < x_.indptr[i + 1]; ++p) {
                    const double v = x_.values[p];
                    const int64_t m = x_.indices[p];
                    s += v * wh[m];
                    if (!fresh) q += a_[m] * v * v;
                }
                if (!fresh) norm_[i] = std::sqrt(q);
                *sum += 1.0 - s / norm_[i];
            }
        });
        norms_fresh_ = true;
        return j;
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
        std::vector<double> mu_norm(in.k);
        for (int64_t h = 0; h < in.k; ++h) mu_norm[h] = a_norm(in.centers + h * d_);
        // The points' terms of g (d), then the sums of the similarities per cluster (k).
        std::vector<double> state(static_cast<size_t>(d_ + in.k), 0.0);
        const std::vector<double> &norm = x_norms();
        pass_over_points(state.data(), state.size(), [&](double *gs) {
            double *s_sum = gs + d_;
            for (int64_t i = 0; i < n_; ++i) {
                const int32_t h = in.labels[i];
                const double *mu = in.centers + static_cast<int64_t>(h) * d_;
                if (mu_norm[h] <= 0.0) continue;
                double dot = 0.0;
                for (int64_t p = x_.indptr[i]; p < x_.indptr[i + 1]; ++p)
                    dot += a_[x_.indices[p]] * x_.values[p] * mu[x_.indices[p]];
                const double nx = norm[i], s = dot / (nx * mu_norm[h]);
                s_sum[h] += s;
                for (int64_t p = x_.indptr[i]; p < x_.indptr[i + 1]; ++p) {
                    const double v = x_.values[p];
                    const int64_t m = x_.indices[p];
                    gs[m] += -v * mu[m] / (nx * mu_norm[h]) + 0.5 * s * v * v / (nx * nx);
                }
            }
        });
        g.assign(state.begin(), state.begin() + d_);
        const double *s_sum = state.data() + d_;
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
            const SparseRow xi = row(i), xj = row(j);
            const double s = similarity(i, j), ni = norm_of(i), nj = norm_of(j);
            for (int64_t p = 0; p < xi.nnz; ++p) g[xi.indices[p]] += c * 0.5 * s * xi.values[p] * xi.values[p] / (ni * ni);
            for (int64_t p = 0; p < xj.nnz; ++p) g[xj.indices[p]] += c * 0.5 * s * xj.values[p] * xj.values[p] / (nj * nj);
            merge(xi, xj, [&](int64_t m, double vi, double vj) { g[m] -= c * vi * vj / (ni * nj); });
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

    // |x|_A of every row of rows.
    void norms(const SparseRows &rows, std::vector<double> &out) const {
        out.resize(static_cast<size_t>(rows.n));
        for (int64_t i = 0; i < rows.n; ++i) {
            double s = 0.0;
            for (int64_t p = rows.indptr[i]; p < rows.indptr[i + 1]; ++p)
                s += a_[rows.indices[p]] * rows.values[p] * rows.values[p];
            out[i] = std::sqrt(s);
        }
    }

    // Point i (global) and its |x_i|_A: this process's row, or on several
    // ranks the gathered end of a pair.
    SparseRow row(int64_t i) const { return ranks_ ? ends_.sparse().row(ends_.position(i)) : x_.row(i); }
    double norm_of(int64_t i) const { return ranks_ ? end_norm_[ends_.position(i)] : x_norms()[i]; }

    const std::vector<double> &x_norms() const {
        if (!norms_fresh_) {
            norms(x_, norm_);
            norms_fresh_ = true;
        }
        return norm_;
    }

    // f(m, x_m, y_m) for the columns where both rows are non-zero.
    template <typename F>
    static void merge(const SparseRow &x, const SparseRow &y, F f) {
        int64_t p = 0, q = 0;
        while (p < x.nnz && q < y.nnz) {
            if (x.indices[p] < y.indices[q]) ++p;
            else if (y.indices[q] < x.indices[p]) ++q;
            else { f(x.indices[p], x.values[p], y.values[q]); ++p; ++q; }
        }
    }

    double similarity(int64_t i, int64_t j) const {
        double s = 0.0;
        merge(row(i), row(j), [&](int64_t m, double xi, double xj) { s += a_[m] * xi * xj; });
        return s / (norm_of(i) * norm_of(j));
    }

    const DataView &data_;
    SparseRows x_;
    int threads_;
    bool has_negative_ = false;
    mutable std::vector<double> norm_;  // |x_i|_A for a_ when norms_fresh_ (x_norms)
    mutable bool norms_fresh_ = false;
    PairEndRows ends_;  // sharded: the rows of the ends of the pairs
    std::vector<double> end_norm_;
};

}  // namespace

std::unique_ptr<WeightedDistortion> make_cosine(const DataView &data, int threads, const char *algorithm,
                                                int64_t first_row) {
    return std::unique_ptr<WeightedDistortion>(new WeightedCosine(data, threads, algorithm, first_row));
}

}  // namespace divergence
}  // namespace kindred
