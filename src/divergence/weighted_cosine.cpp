// Parameterised cosine distance with diagonal weights a = diag(A):
// d_cosA(x, y) = 1 - x^T A y / (|x|_A |y|_A)   (Basu et al., eq. 3.17),
// phi = d_cosA (section 3.3.3.2), phi_max = 1 (2 when the data has negative
// entries, where the cosine can be negative), no normaliser, objective (3.18).
// On several ranks the sums over the points (centroids, gradient) are one
// pass over the ranks in index order and the pairs read their gathered end
// rows (divergence/pair_end_rows.hpp): the bits of one process.
//
// The passes over the points that run in every iteration (the distances,
// the centroids, the metric step's objective and gradient) read float64
// row-major data in place rather than through the CSR copy: half the bytes
// and no column indices. They then also add the terms of the zero entries,
// each +-0: x + (+-0) is x, and a sum that starts at +0 stays +0 until its
// first non-zero term, so the values are those of the CSR loops, bit for bit.
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

// One dense row as a run of entries, indexed like SparseRow (column p is entry p).
struct DenseRow {
    const double *values;
    int64_t nnz;
};
inline int64_t column(const DenseRow &, int64_t p) { return p; }
inline int64_t column(const SparseRow &r, int64_t p) { return r.indices[p]; }

// Two doubles in one register (GCC / Clang vector extension: element-wise
// products and sums, each rounded as the scalar ones).
typedef double Pair2 __attribute__((vector_size(16)));
// Pairs of centres whose sums point_center_all keeps in registers together
// (8 centres: 4 accumulators and their products fit the 16 vector registers
// of x86-64; not tuned).
constexpr int64_t kPairs = 4;

// s[t] = sum_p x_p w[m_p * P + t] for t < P, added in the order of the entries.
template <int64_t P, typename Row>
void pair_sums(const Row &x, const Pair2 *w, Pair2 *s) {
    Pair2 acc[P];
    for (int64_t t = 0; t < P; ++t) acc[t] = Pair2{0.0, 0.0};
    for (int64_t p = 0; p < x.nnz; ++p) {
        const Pair2 v = Pair2{x.values[p], x.values[p]};
        const Pair2 *wm = w + column(x, p) * P;
        for (int64_t t = 0; t < P; ++t) acc[t] += v * wm[t];
    }
    for (int64_t t = 0; t < P; ++t) s[t] = acc[t];
}

class WeightedCosine final : public WeightedDistortion {
public:
    WeightedCosine(const DataView &data, int threads, const char *algorithm, int64_t first_row)
        : WeightedDistortion(DistortionKind::Cosine, data.n(), data.d()), data_(data), x_(data), threads_(threads),
          dense_(data.is_dense() && !data.as_dense().is_f32() && data.as_dense().row_major),
          rows_(dense_ ? data.as_dense() : DenseView()) {
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
    // only asks for assigned_distortion or for the rows (point_center_all,
    // point_center_blocks), which compute them in their own pass over the
    // rows (one pass per candidate instead of two).
    //
    // The metric step asks for the gradient at its A, tries candidates and,
    // when none is accepted, sets that A back: the norms of the A of the
    // last gradient are kept until then, so that going back costs no pass.
    void set_params(const std::vector<double> &a) override {
        if (a == a_) return;
        gradient_fresh_ = false;
        const bool back = previous_fresh_ && a == previous_a_;
        if (back || keep_current_) {
            std::swap(previous_a_, a_);
            std::swap(previous_norm_, norm_);
            std::swap(previous_fresh_, norms_fresh_);
            keep_current_ = false;
        }
        if (!back) {
            a_ = a;
            norms_fresh_ = false;
        }
        norms(ends_.sparse(), end_norm_);
    }

    // phi_max depends on whether any point has a negative entry: any rank's.
    void set_ranks(const Collective *ranks) override {
        WeightedDistortion::set_ranks(ranks);
        gradient_fresh_ = false;
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
        // sum_i x_i / |x_i|_A per cluster, then the counts (sparse_cluster_sums's
        // additions in its order, from the rows each_row reads)
        const std::vector<double> &norm = x_norms();
        std::vector<double> state(static_cast<size_t>(k * d_ + k), 0.0);
        pass_over_points(state.data(), state.size(), [&](double *sums) {
            double *counts = sums + k * d_;
            each_row(0, n_, [&](int64_t i, const auto &x) {
                const int32_t h = labels[i];
                if (h < 0 || h >= k) return;
                counts[h] += 1.0;
                double *sum = sums + h * d_;
                for (int64_t p = 0; p < x.nnz; ++p) sum[column(x, p)] += x.values[p] / norm[i];
            });
        });
        centers.resize(static_cast<size_t>(k * d_));
        for (int64_t h = 0; h < k; ++h)
            if (state[k * d_ + h] > 0.0)
                std::copy(state.begin() + h * d_, state.begin() + (h + 1) * d_, centers.begin() + h * d_);
    }

    // The rows of distance_rows, in chunks over the threads.
    void point_center_all(const double *centers, int64_t k, double *out) const override {
        const CenterWeights w = center_weights(centers, k);
        const bool fresh = norms_known();
        parallel_chunks(threads_, n_, kRowChunk,
                        [&](int64_t, int64_t lo, int64_t hi) { distance_rows(w, k, fresh, lo, hi, out + lo * k); });
        norms_fresh_ = true;
    }

    // The same rows a block at a time (kRowChunk rows a thread), handed to
    // after_rows while in cache: the n x k matrix is never written (work is
    // not used, see blocks_need_work).
    void point_center_blocks(const double *centers, int64_t k, double *,
                             const std::function<void(int64_t, int64_t, const double *)> &after_rows) const override {
        const CenterWeights w = center_weights(centers, k);
        const bool fresh = norms_known();
        const int64_t block_rows = std::min(n_, kRowChunk * std::max(threads_, 1));
        std::vector<double> block(static_cast<size_t>(block_rows * k));
        for (int64_t begin = 0; begin < n_; begin += block_rows) {
            const int64_t end = std::min(n_, begin + block_rows);
            parallel_chunks(threads_, end - begin, kRowChunk, [&](int64_t, int64_t lo, int64_t hi) {
                distance_rows(w, k, fresh, begin + lo, begin + hi, block.data() + lo * k);
            });
            after_rows(begin, end, block.data());
        }
        norms_fresh_ = true;
    }

    bool blocks_need_work() const override { return false; }

    // The metric step's line search evaluates this for every candidate A:
    // only the assigned centre's term of each row, O(nnz) instead of the
    // O(nnz k) rows of point_center_all and their n x k write (work is not
    // touched). The bits are point_center_all's for that column (the same
    // products added in the same order, then 1 - s / |x|_A), summed in index
    // order as the base class does. Stale |x_i|_A (a new A) are computed in
    // the same pass, with norms()'s additions, and kept.
    //
    // With |x_i|_A known (the metric step's objective at the current A,
    // which it follows with gradient() for the same labels and centres) the
    // points' terms of the gradient are summed in the same pass, with
    // gradient()'s operations in its order, and kept for it.
    double assigned_distortion(const double *centers, int64_t k, const int32_t *labels, double *) const override {
        std::vector<double> w(static_cast<size_t>(k * d_), 0.0);  // row h: a_m mu_hm / |mu_h|_A
        for (int64_t h = 0; h < k; ++h) {
            const double nm = a_norm(centers + h * d_);
            if (nm <= 0.0) continue;
            for (int64_t m = 0; m < d_; ++m) w[h * d_ + m] = a_[m] * centers[h * d_ + m] / nm;
        }
        const bool fresh = norms_fresh_;
        if (!fresh) norm_.resize(static_cast<size_t>(n_));
        const std::vector<double> mu_norm = center_norms(centers, k);
        // J, then (with fresh norms) the gradient's d + k sums
        std::vector<double> state(fresh ? static_cast<size_t>(1 + d_ + k) : 1, 0.0);
        pass_over_points(state.data(), state.size(), [&](double *sum) {
            each_row(0, n_, [&](int64_t i, const auto &x) {
                const double *wh = w.data() + static_cast<int64_t>(labels[i]) * d_;
                double s = 0.0, q = 0.0;
                for (int64_t p = 0; p < x.nnz; ++p) {
                    const double v = x.values[p];
                    const int64_t m = column(x, p);
                    s += v * wh[m];
                    if (!fresh) q += a_[m] * v * v;
                }
                if (!fresh) norm_[i] = std::sqrt(q);
                *sum += 1.0 - s / norm_[i];
                if (fresh) add_gradient_terms(i, x, labels[i], centers, mu_norm, sum + 1, sum + 1 + d_);
            });
        });
        norms_fresh_ = true;
        gradient_fresh_ = fresh;
        if (fresh) {
            gradient_sums_.assign(state.begin() + 1, state.end());
            gradient_labels_.assign(labels, labels + n_);
            gradient_centers_.assign(centers, centers + k * d_);
        }
        return state[0];
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

    double regulariser(bool prior, double s) const override { return rayleigh_prior_of_weights(a_, prior, s); }

    // (3.28) with the derivative of (3.17): for s = x^T A y / (|x|_A |y|_A),
    // ds/da_m = x_m y_m / (|x|_A |y|_A) - s/2 (x_m^2 / |x|_A^2 + y_m^2 / |y|_A^2)
    // and d(d_cosA)/da_m = -ds/da_m. ((3.29) prints ds/da_m.)
    void gradient(const GradientInput &in, std::vector<double> &g) const override {
        const std::vector<double> mu_norm = center_norms(in.centers, in.k);
        // The points' terms of g (d), then the sums of the similarities per
        // cluster (k): from assigned_distortion's pass when it had these
        // labels, centres and A.
        std::vector<double> state;
        if (gradient_fresh_ && gradient_centers_.size() == static_cast<size_t>(in.k * d_) &&
            std::equal(gradient_centers_.begin(), gradient_centers_.end(), in.centers) &&
            std::equal(gradient_labels_.begin(), gradient_labels_.end(), in.labels)) {
            state = gradient_sums_;
        } else {
            state.assign(static_cast<size_t>(d_ + in.k), 0.0);
            x_norms();
            pass_over_points(state.data(), state.size(), [&](double *gs) {
                each_row(0, n_, [&](int64_t i, const auto &x) {
                    add_gradient_terms(i, x, in.labels[i], in.centers, mu_norm, gs, gs + d_);
                });
            });
        }
        keep_current_ = true;
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
    // w_hm = a_m mu_hm / |mu_h|_A for pairs of centres in one vector (Pair2),
    // grouped kPairs pairs at a time: [pair group][m][pair] (0 for a centre
    // of norm 0).
    struct CenterWeights {
        std::vector<Pair2> w;
        int64_t pairs;
    };

    CenterWeights center_weights(const double *centers, int64_t k) const {
        const int64_t pairs = (k + 1) / 2;
        std::vector<Pair2> w(static_cast<size_t>(d_ * pairs), Pair2{0.0, 0.0});
        std::vector<double> nm(static_cast<size_t>(k));
        for (int64_t h = 0; h < k; ++h) nm[h] = a_norm(centers + h * d_);
        for (int64_t g = 0; g < pairs; g += kPairs) {
            const int64_t width = std::min(kPairs, pairs - g);
            for (int64_t t = g; t < g + width; ++t)
                for (int64_t c = 0; c < 2 && 2 * t + c < k; ++c) {
                    const int64_t h = 2 * t + c;
                    if (nm[h] <= 0.0) continue;
                    for (int64_t m = 0; m < d_; ++m)
                        w[g * d_ + m * width + (t - g)][c] = a_[m] * centers[h * d_ + m] / nm[h];
                }
        }
        return CenterWeights{std::move(w), pairs};
    }

    // d_cosA(x_i, mu_h) = 1 - s_h / |x_i|_A for the rows [lo, hi), written
    // to out (k values a row, row-major, from row lo). s_h = sum_m x_m w_hm
    // for up to kPairs pairs of centres at a time, the sums held in
    // registers across the row: each s_h is still the sum over the row's
    // entries in column order, so the bits do not depend on the grouping.
    // With stale |x_i|_A (fresh false) they are computed here first, with
    // norms()'s additions, into norm_.
    void distance_rows(const CenterWeights &cw, int64_t k, bool fresh, int64_t lo, int64_t hi, double *out) const {
        const int64_t pairs = cw.pairs;
        const Pair2 *w = cw.w.data();
        const std::vector<double> &norm = norm_;
        each_row(lo, hi, [&](int64_t i, const auto &x) {
            if (!fresh) {
                double q = 0.0;
                for (int64_t p = 0; p < x.nnz; ++p) q += a_[column(x, p)] * x.values[p] * x.values[p];
                norm_[i] = std::sqrt(q);
            }
            double *row = out + (i - lo) * k;
            for (int64_t g = 0; g < pairs; g += kPairs) {
                Pair2 s[kPairs];
                const int64_t width = std::min(kPairs, pairs - g);
                switch (width) {
                case 1: pair_sums<1>(x, w + g * d_, s); break;
                case 2: pair_sums<2>(x, w + g * d_, s); break;
                case 3: pair_sums<3>(x, w + g * d_, s); break;
                default: pair_sums<kPairs>(x, w + g * d_, s); break;
                }
                // (two quotients a division instruction, each rounded as the scalar one)
                const Pair2 nx = Pair2{norm[i], norm[i]};
                for (int64_t t = 0; t < width; ++t) {
                    const Pair2 v = Pair2{1.0, 1.0} - s[t] / nx;
                    const int64_t h = 2 * (g + t);
                    row[h] = v[0];
                    if (h + 1 < k) row[h + 1] = v[1];
                }
            }
        });
    }

    // Whether |x_i|_A are known; if not, norm_ is sized for the pass that computes them.
    bool norms_known() const {
        if (!norms_fresh_) norm_.resize(static_cast<size_t>(n_));
        return norms_fresh_;
    }

    double a_norm(const double *v) const {
        double s = 0.0;
        for (int64_t m = 0; m < d_; ++m) s += a_[m] * v[m] * v[m];
        return std::sqrt(s);
    }

    std::vector<double> center_norms(const double *centers, int64_t k) const {
        std::vector<double> mu_norm(static_cast<size_t>(k));
        for (int64_t h = 0; h < k; ++h) mu_norm[h] = a_norm(centers + h * d_);
        return mu_norm;
    }

    // f(i, row) for the rows [lo, hi) of the points in index order: the
    // caller's float64 row-major array in place, else the CSR copy.
    template <typename F>
    void each_row(int64_t lo, int64_t hi, F f) const {
        if (dense_) {
            for (int64_t i = lo; i < hi; ++i) f(i, DenseRow{rows_.row_ptr(i), d_});
        } else {
            for (int64_t i = lo; i < hi; ++i) f(i, x_.row(i));
        }
    }

    // Point i's terms of the gradient (norm_ fresh): gs[m] (d) and the
    // similarity to its centre h, added to s_sum[h].
    template <typename Row>
    void add_gradient_terms(int64_t i, const Row &x, int32_t h, const double *centers,
                            const std::vector<double> &mu_norm, double *gs, double *s_sum) const {
        const double *mu = centers + static_cast<int64_t>(h) * d_;
        if (mu_norm[h] <= 0.0) return;
        double dot = 0.0;
        for (int64_t p = 0; p < x.nnz; ++p) dot += a_[column(x, p)] * x.values[p] * mu[column(x, p)];
        const double nx = norm_[i], s = dot / (nx * mu_norm[h]);
        s_sum[h] += s;
        for (int64_t p = 0; p < x.nnz; ++p) {
            const double v = x.values[p];
            const int64_t m = column(x, p);
            gs[m] += -v * mu[m] / (nx * mu_norm[h]) + 0.5 * s * v * v / (nx * nx);
        }
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
    bool dense_;      // the points are float64 row-major: rows_ reads them in place
    DenseView rows_;  // (empty otherwise)
    bool has_negative_ = false;
    mutable std::vector<double> norm_;  // |x_i|_A for a_ when norms_fresh_ (x_norms)
    mutable bool norms_fresh_ = false;
    std::vector<double> previous_a_;  // the A before the last change, and its norms if they were known
    mutable std::vector<double> previous_norm_;
    mutable bool previous_fresh_ = false;
    mutable bool keep_current_ = false;  // gradient() was asked at a_: keep its norms when A changes
    // The gradient's point sums from assigned_distortion, for these labels and centres and a_.
    mutable bool gradient_fresh_ = false;
    mutable std::vector<double> gradient_sums_, gradient_centers_;
    mutable std::vector<int32_t> gradient_labels_;
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
