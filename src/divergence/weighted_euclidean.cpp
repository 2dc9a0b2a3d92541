// Parameterised squared Euclidean distance d_A(x, y) = (x - y)^T A (x - y)
// (Basu et al., eq. 3.15), with a full PSD matrix A or a diagonal one.
// No transformed copy of the points is kept: d_A(x, c) = x^T A x -
// 2 x^T (A c) + c^T A c, the cross term by GEMM (linalg/distances.hpp) on the
// points as they are against the k rows A c (a o c for a diagonal A), the
// first term after each update of A in the first distances' pass, block by
// block before the block's GEMM (for a full A a GEMM of the block by A, then
// a dot product per row, the block in cache). Before, a
// full A transformed all the points, X' = X V Lambda^{1/2}, into an n x d
// copy written and read at every update.
#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/parallel.hpp"
#include "divergence/pair_end_rows.hpp"
#include "divergence/weighted_distortion_impl.hpp"
#include "linalg/blas.hpp"
#include "linalg/distances.hpp"
#include "linalg/psd_projection.hpp"

namespace kindred {
namespace divergence {
namespace {

constexpr int64_t kBlockRows = 4096;
constexpr int64_t kSubRows = 128;  // a sub-block of 128 x k values stays in L1 between its two readings

class WeightedEuclidean final : public WeightedDistortion {
public:
    WeightedEuclidean(bool full, const DataView &data, int threads, PhiMaxRule rule)
        : WeightedDistortion(full ? DistortionKind::EuclideanFull : DistortionKind::EuclideanDiag, data.n(), data.d()),
          data_(data), threads_(threads), rule_(rule), eig_(full ? data.d() : 1), work_eig_(full ? data.d() : 1) {
        // Contiguous row-major float64 points are read where they are; other
        // layouts (strided, column-major, float32, CSR) are copied once.
        const DenseView *dense = data.is_dense() ? &data.as_dense() : nullptr;
        if (dense && !dense->is_f32() && dense->row_major && dense->ld == d_) {
            x0_ = dense->x;
        } else {
            x0_copy_.resize(static_cast<size_t>(n_ * d_));
            for (int64_t i = 0; i < n_; ++i) data.copy_row(i, x0_copy_.data() + i * d_);
            x0_ = x0_copy_.data();
        }
        set_params(identity());
    }

    // The points in the space of A^{1/2} (X M for a full A) and their squared
    // norms (x^T A x) are what the distances read; they are rebuilt when a
    // distance is next asked for, not at every set_params: the metric step
    // tries candidate As through assigned_scatter, which does not need them.
    void set_params(const std::vector<double> &a) override {
        a_ = a;
        log_det_ = 0.0;
        if (full_matrix()) {
            eig_.compute(a_.data());
            lambda_ = eig_.values();
            for (double &l : lambda_) {
                if (!(l > 0.0)) fail(KINDRED_E_NUMERICAL, "weighted Euclidean: the metric A is not positive definite "
                                                            "(eigenvalue ", l, ")");
                log_det_ += std::log(l);
            }
            // The symmetric part of A, the matrix whose eigenvalues these are
            // (SymmetricEigen symmetrises): the distances read it, so that they
            // are those of A^{1/2} = V Lambda^{1/2} V^T even for an A that is
            // symmetric only up to rounding (or a finite difference); for a
            // symmetric A it is A, bit for bit.
            a_sym_.resize(a_.size());
            for (int64_t r = 0; r < d_; ++r)
                for (int64_t c = 0; c < d_; ++c) a_sym_[r * d_ + c] = 0.5 * (a_[r * d_ + c] + a_[c * d_ + r]);
        } else {
            sqrt_a_.resize(d_);
            for (int64_t m = 0; m < d_; ++m) {
                if (!(a_[m] > 0.0)) fail(KINDRED_E_NUMERICAL, "weighted Euclidean: weight ", m, " is not positive (", a_[m], ")");
                sqrt_a_[m] = std::sqrt(a_[m]);
                log_det_ += std::log(a_[m]);
            }
        }
        scaled_ = false;
    }

    bool assigned_scatter(const double *centers, int64_t k, const int32_t *labels,
                          std::vector<double> &scatter) const override {
        residual_scatter(centers, k, labels, scatter);
        return true;
    }

    void centroids(const int32_t *labels, int64_t k, std::vector<double> &centers) const override {
        mean_centroids(data_, labels, k, threads_, centers, ranks_);
    }

    void point_center_all(const double *centers, int64_t k, double *out) const override {
        blocks(centers, k, [&](int64_t begin, int64_t) { return out + begin * k; }, [](int64_t, int64_t, const double *) {});
    }

    // Blocks of a few hundred KB, so that after_rows reads them from cache;
    // the n x k matrix is never written.
    void point_center_blocks(const double *centers, int64_t k, double *,
                             const std::function<void(int64_t, int64_t, const double *)> &after_rows) const override {
        std::vector<double> block(static_cast<size_t>(std::min(n_, kBlockRows) * k));
        blocks(centers, k, [&](int64_t, int64_t) { return block.data(); }, after_rows);
    }

    bool blocks_need_work() const override { return false; }

    // The GEMM's blocks as they come (see the base class); the finishing
    // below is left to the caller.
    bool point_center_cross_blocks(const double *centers, int64_t k, const CrossBlock &after) const override {
        std::vector<double> block(static_cast<size_t>(std::min(n_, kBlockRows) * k));
        cross_blocks(centers, k, [&](int64_t, int64_t) { return block.data(); },
                     [&](int64_t begin, int64_t end, double *cross, const double *c_sq) {
                         after(begin, end, cross, xt_sqnorm_.data(), c_sq);
                     });
        return true;
    }

    // (a - b)^T A (a - b) in O(d^2) without scratch: phi calls it for every
    // pair at every candidate A of the point-wise metric step, where two
    // vectors allocated per call (and a 1 x d x d GEMM) cost more than the sum.
    // Clamped at 0 against rounding, as the distances are.
    double center_distance(const double *a, const double *b) const override {
        double s = 0.0;
        if (!full_matrix()) {
            for (int64_t m = 0; m < d_; ++m) {
                const double t = (a[m] - b[m]) * sqrt_a_[m];
                s += t * t;
            }
            return s;
        }
        for (int64_t r = 0; r < d_; ++r) {
            const double *row = a_sym_.data() + r * d_;
            double t = 0.0;
            for (int64_t c = 0; c < d_; ++c) t += row[c] * (a[c] - b[c]);
            s += (a[r] - b[r]) * t;
        }
        return std::max(0.0, s);
    }

    // G is a sum over all the ranks' rows: computed anew for new ranks.
    void set_ranks(const Collective *ranks) override {
        WeightedDistortion::set_ranks(ranks);
        gram_.clear();
    }

    void gather_pair_ends(const std::vector<PairConstraint> &pairs) override {
        if (ranks_) ends_.gather(*ranks_, data_, pairs);
    }

    // d_A of the two rows themselves (point(): in one process as on the
    // ranks, where x0_ holds this rank's rows only).
    double phi(int64_t i, int64_t j) const override {
        const double *a = point(i), *b = point(j);
        if (full_matrix()) return center_distance(a, b);
        double s = 0.0;
        for (int64_t m = 0; m < d_; ++m) s += a_[m] * (a[m] - b[m]) * (a[m] - b[m]);
        return s;
    }

    // Section 3.3.3.1: phi_max = sum over C_CL of d_A (Sum), or the largest one (Max).
    double phi_max(const std::vector<PairConstraint> &pairs) const override {
        return phi_max_of(pairs, [&](size_t q) { return phi(pairs[q].i, pairs[q].j); });
    }

    double phi_max_known(const std::vector<PairConstraint> &pairs, const std::vector<double> &phi) const override {
        return phi_max_of(pairs, [&](size_t q) { return phi[q]; });
    }

    // -n log det A (3.16) + Rayleigh prior on the diagonal entries (3.26).
    double regulariser(bool prior, double s) const override {
        double r = -n_points() * log_det_;
        if (prior)
            for (int64_t m = 0; m < d_; ++m) r += rayleigh_neg_log(diag(m), s);
        return r;
    }

    void gradient(const GradientInput &in, std::vector<double> &g) const override {
        linear_part(in, g);
        // d(-n log det A)/dA = -n A^{-1}. We differentiate with respect to the
        // matrix entries (the same convention as the outer products of
        // (3.25)), not the symmetric form 2A^{-1} - diag(A^{-1}) of (3.27).
        if (full_matrix()) {
            std::vector<double> inv(d_);
            for (int64_t c = 0; c < d_; ++c) inv[c] = 1.0 / lambda_[c];
            std::vector<double> ainv(static_cast<size_t>(d_ * d_));
            linalg::rebuild_from_eigen(eig_, inv, ainv.data());
            for (int64_t v = 0; v < d_ * d_; ++v) g[v] -= n_points() * ainv[v];
        } else {
            for (int64_t m = 0; m < d_; ++m) g[m] -= n_points() / a_[m];
        }
        if (in.prior)
            for (int64_t m = 0; m < d_; ++m) g[diag_index(m)] += rayleigh_neg_log_grad(diag(m), in.rayleigh_s);
    }

    void project(std::vector<double> &a, double rel_floor) const override {
        if (full_matrix()) {
            double trace = 0.0;
            for (int64_t m = 0; m < d_; ++m) trace += a[m * d_ + m];
            const double floor = std::max(1e-300, rel_floor * std::max(trace, 0.0) / static_cast<double>(d_));
            linalg::project_psd(work_eig_, a.data(), floor);
        } else {
            floor_weights(a, rel_floor);
        }
    }

    // Bilenko et al. (2004): with the terms linear in A collected in G,
    // J = tr(A G) - n log det A is minimised by A = n G^{-1} (full) or
    // a_m = n / G_m (diagonal); with the Rayleigh prior on a diagonal weight,
    // a G - (n + 1) log a + a^2 / (2 s^2) is minimised by the positive root
    // of a^2 / s^2 + G a - (n + 1) = 0.
    bool closed_form(const GradientInput &in, double rel_floor, std::vector<double> &out) const override {
        std::vector<double> g;
        linear_part(in, g);
        const double nn = n_points();
        if (full_matrix()) {
            work_eig_.compute(g.data());
            std::vector<double> vals = work_eig_.values();
            double mean = 0.0;
            for (double v : vals) mean += std::max(v, 0.0);
            mean /= static_cast<double>(d_);
            const double floor = std::max(1e-300, rel_floor * mean);
            for (double &v : vals) v = nn / std::max(v, floor);
            out.assign(static_cast<size_t>(d_ * d_), 0.0);
            linalg::rebuild_from_eigen(work_eig_, vals, out.data());
            project(out, rel_floor);
        } else {
            double mean = 0.0;
            for (double v : g) mean += std::max(v, 0.0);
            mean /= static_cast<double>(d_);
            const double floor = std::max(1e-300, rel_floor * mean);
            out.resize(d_);
            for (int64_t m = 0; m < d_; ++m) {
                const double gm = std::max(g[m], floor);
                if (in.prior) {
                    const double s2 = in.rayleigh_s * in.rayleigh_s;
                    out[m] = 0.5 * s2 * (-gm + std::sqrt(gm * gm + 4.0 * (nn + 1.0) / s2));
                } else {
                    out[m] = nn / gm;
                }
            }
            floor_weights(out, rel_floor);
        }
        return true;
    }

private:
    double diag(int64_t m) const { return a_[diag_index(m)]; }

    // sum_i (x_i - mu(i))(x_i - mu(i))^T, the full matrix or only its
    // diagonal. The full one, with x~ = x - g and mu~ = mu - g for the global
    // mean g (the same S for any g), is
    //   S = G - sum_h (t_h u_h^T + u_h t_h^T - n_h u_h u_h^T),
    //   G = sum_i x~_i x~_i^T, t_h = sum_{i in h} x~_i, u_h = mu~_h,
    // so that an update costs one O(n d) pass for the t_h (and the counts
    // n_h) instead of an O(n d^2) SYRK of the residuals: G does not depend on
    // the labels and is computed once per fit. Precision: centring on g
    // keeps G's rounding relative to the total scatter about the mean (not
    // to sum_i x_i x_i^T, which a large mean would make huge), and an error
    // e in a centre only adds n_h e e^T (the t_h are sums of centred points,
    // not n_h g subtracted from raw sums). What remains is the cancellation
    // of the between-cluster scatter: relative error ~ eps (total scatter /
    // within-cluster scatter).
    void residual_scatter(const double *centers, int64_t k, const int32_t *labels, std::vector<double> &g) const {
        g.assign(static_cast<size_t>(param_count()), 0.0);
        if (full_matrix()) {
            ensure_gram();
            // t_h and n_h: one running sum per cluster in index order (over
            // the ranks, each adds its rows in turn: the additions of one process).
            const int64_t stride = d_ + 1;
            std::vector<double> t(static_cast<size_t>(k * stride), 0.0);
            const auto add_rows = [&](double *s) {
                for (int64_t i = 0; i < n_; ++i) {
                    const int64_t h = labels[i];
                    if (h < 0 || h >= k) continue;
                    double *th = s + h * stride;
                    const double *x = x0_ + i * d_;
                    for (int64_t m = 0; m < d_; ++m) th[m] += x[m] - global_mean_[m];
                    th[d_] += 1.0;
                }
            };
            pass_over_points(t.data(), t.size(), add_rows);
            std::vector<double> u(static_cast<size_t>(k * d_));
            for (int64_t h = 0; h < k; ++h)
                for (int64_t m = 0; m < d_; ++m) u[h * d_ + m] = centers[h * d_ + m] - global_mean_[m];
            // The lower triangle, mirrored: S stays exactly symmetric.
            for (int64_t r = 0; r < d_; ++r)
                for (int64_t c = 0; c <= r; ++c) {
                    double v = gram_[r * d_ + c];
                    for (int64_t h = 0; h < k; ++h) {
                        const double *th = t.data() + h * stride, *uh = u.data() + h * d_;
                        v -= th[r] * uh[c] + uh[r] * th[c] - th[d_] * uh[r] * uh[c];
                    }
                    g[r * d_ + c] = g[c * d_ + r] = v;
                }
        } else {
            // One running sum per coordinate in index order: over the ranks,
            // each adds its rows in turn, the additions of one process.
            const auto add_rows = [&](double *s) {
                for (int64_t i = 0; i < n_; ++i) {
                    const double *mu = centers + static_cast<int64_t>(labels[i]) * d_;
                    for (int64_t m = 0; m < d_; ++m) {
                        const double t = x0_[i * d_ + m] - mu[m];
                        s[m] += t * t;
                    }
                }
            };
            pass_over_points(g.data(), g.size(), add_rows);
        }
    }

    // G = sum_i (x_i - g)(x_i - g)^T over all the points, g their mean: one
    // SYRK per global chunk of rows, the chunks' matrices added in chunk
    // order (Collective::sum_chunks): the same calls and additions in one
    // process and on any ranks, whose rows are whole chunks. Once per fit.
    void ensure_gram() const {
        if (!gram_.empty()) return;
        const std::vector<int32_t> one(static_cast<size_t>(n_), 0);
        global_mean_.assign(static_cast<size_t>(d_), 0.0);
        mean_centroids(data_, one.data(), 1, threads_, global_mean_, ranks_);
        const Collective ranks = Collective::or_single(ranks_, n_);
        const int64_t dd = d_ * d_, chunk = Collective::kChunk;
        std::vector<double> partial(static_cast<size_t>(chunk_count(n_, chunk) * dd), 0.0);
        std::vector<double> r(static_cast<size_t>(std::min(n_, chunk) * d_));
        for (int64_t begin = 0; begin < n_; begin += chunk) {
            const int64_t end = std::min(n_, begin + chunk);
            for (int64_t i = begin; i < end; ++i)
                for (int64_t m = 0; m < d_; ++m) r[(i - begin) * d_ + m] = x0_[i * d_ + m] - global_mean_[m];
            linalg::syrk_ata(end - begin, d_, 1.0, r.data(), d_, 0.0, partial.data() + (begin / chunk) * dd);
        }
        gram_ = ranks.sum_chunks(partial, dd);
    }

    // The squared norms x^T A x of rows [begin, end) (at most kBlockRows), into
    // xt_sqnorm_; ax: kBlockRows x d scratch (full A). Rows are independent: a
    // rank's rows, or a block's, get the values of one pass over all of them.
    void sqnorm_rows(int64_t begin, int64_t end, std::vector<double> &ax) const {
        if (full_matrix()) {
            // x^T A x = x . (A x): the block's rows times A by GEMM, then one
            // dot product per row while the block is in cache.
            ax.resize(static_cast<size_t>(std::min(n_, kBlockRows) * d_));
            linalg::gemm(false, false, end - begin, d_, d_, 1.0, x0_ + begin * d_, d_, a_sym_.data(), d_, 0.0,
                         ax.data(), d_);
            for (int64_t i = begin; i < end; ++i) {
                const double *x = x0_ + i * d_, *y = ax.data() + (i - begin) * d_;
                double s = 0.0;
                for (int64_t m = 0; m < d_; ++m) s += x[m] * y[m];
                xt_sqnorm_[i] = s;
            }
        } else {
            for (int64_t i = begin; i < end; ++i) {
                const double *x = x0_ + i * d_;
                double s = 0.0;
                for (int64_t m = 0; m < d_; ++m) s += a_[m] * x[m] * x[m];
                xt_sqnorm_[i] = s;
            }
        }
    }

    template <typename Phi>
    double phi_max_of(const std::vector<PairConstraint> &pairs, Phi phi_of) const {
        double sum = 0.0, mx = 0.0;
        for (size_t q = 0; q < pairs.size(); ++q) {
            if (pairs[q].must) continue;
            const double v = phi_of(q);
            sum += v;
            mx = std::max(mx, v);
        }
        return rule_ == PhiMaxRule::Sum ? sum : mx;
    }

    // -2 x_i^T A c_h, kBlockRows rows at a time, into where(begin, end);
    // then visit(begin, end, block, c_h^T A c_h). The points are read as
    // they are, so the centres carry all of A: the rows A c_h.
    // x^T A x is new after each update of A (scaled_ false): then each block's
    // norms are computed here, while its rows are in cache for the GEMM, instead
    // of in a pass of their own over the n x d points before the first block.
    template <typename Where, typename Visit>
    void cross_blocks(const double *centers, int64_t k, Where where, Visit visit) const {
        const bool fresh = !scaled_;
        std::vector<double> ax;
        if (fresh) {
            // The GEMM of the distances reads the points as they are.
            DenseView v;
            v.n = n_;
            v.d = d_;
            v.ld = d_;
            v.x = x0_;
            xt_view_ = DataView::dense(v);
            xt_sqnorm_.resize(static_cast<size_t>(n_));
        }
        std::vector<double> ct(static_cast<size_t>(k * d_));
        std::vector<double> c_sq(static_cast<size_t>(k), 0.0);
        if (full_matrix()) {
            linalg::gemm(false, false, k, d_, d_, 1.0, centers, d_, a_sym_.data(), d_, 0.0, ct.data(), d_);
            for (int64_t r = 0; r < k; ++r)
                for (int64_t m = 0; m < d_; ++m) c_sq[r] += centers[r * d_ + m] * ct[r * d_ + m];
        } else {
            // a o c = a^{1/2} o (a^{1/2} o c).
            scale_by_sqrt_a(centers, k, ct.data());
            c_sq = linalg::center_sqnorms(ct.data(), k, d_);
            for (int64_t r = 0; r < k; ++r)
                for (int64_t m = 0; m < d_; ++m) ct[r * d_ + m] *= sqrt_a_[m];
        }
        for (int64_t begin = 0; begin < n_; begin += kBlockRows) {
            const int64_t end = std::min(n_, begin + kBlockRows);
            double *out = where(begin, end);
            if (fresh) sqnorm_rows(begin, end, ax);
            linalg::minus_two_cross(xt_view_, begin, end, ct.data(), k, out);
            visit(begin, end, out, c_sq.data());
        }
        scaled_ = true;
    }

    // Distances to the centres, kBlockRows rows at a time, into where(begin, end).
    template <typename Where, typename After>
    void blocks(const double *centers, int64_t k, Where where, After after_rows) const {
        cross_blocks(centers, k, where, [&](int64_t begin, int64_t end, double *out, const double *c_sq) {
            // |x|^2 + |c|^2 - 2 x.c (the sums of linalg::sq_distances, in its
            // order), kSubRows rows at a time, each handed to after_rows while
            // it is still in L1 (one pass over the block instead of two).
            for (int64_t sub = begin; sub < end; sub += kSubRows) {
                const int64_t sub_end = std::min(end, sub + kSubRows);
                double *rows = out + (sub - begin) * k;
                for (int64_t i = sub; i < sub_end; ++i) {
                    double *row = rows + (i - sub) * k;
                    const double xn = xt_sqnorm_[i];
                    for (int64_t c = 0; c < k; ++c) row[c] = finished_distance(row[c], xn, c_sq[c]);
                }
                after_rows(sub, sub_end, rows);
            }
        });
    }
    // Row i of all the points (an end of a pair, on several ranks: gathered by gather_pair_ends).
    const double *point(int64_t i) const {
        return ranks_ ? ends_.rows().data() + ends_.position(i) * d_ : x0_ + i * d_;
    }
    int64_t diag_index(int64_t m) const { return full_matrix() ? m * d_ + m : m; }

    // rows (k of them, d values each) scaled by a^{1/2} (diagonal A).
    void scale_by_sqrt_a(const double *rows, int64_t k, double *out) const {
        for (int64_t r = 0; r < k; ++r)
            for (int64_t m = 0; m < d_; ++m) out[r * d_ + m] = rows[r * d_ + m] * sqrt_a_[m];
    }

    // G = sum_i (x_i - mu(i))(x_i - mu(i))^T + sum_p c_p (x_i - x_j)(x_i - x_j)^T,
    // c_p = dJ/dphi_p plus the share of dJ/dphi_max (3.25): the full matrix
    // by SYRK, or only its diagonal.
    void linear_part(const GradientInput &in, std::vector<double> &g) const {
        const std::vector<PairConstraint> &pairs = *in.pairs;
        std::vector<double> coef(*in.pair_coef);
        if (in.phimax_coef != 0.0) {
            if (rule_ == PhiMaxRule::Sum) {
                for (size_t p = 0; p < pairs.size(); ++p)
                    if (!pairs[p].must) coef[p] += in.phimax_coef;
            } else {
                int64_t arg = -1;
                double mx = -1.0;
                for (size_t p = 0; p < pairs.size(); ++p) {
                    if (pairs[p].must) continue;
                    const double v = phi(pairs[p].i, pairs[p].j);
                    if (v > mx) { mx = v; arg = static_cast<int64_t>(p); }
                }
                if (arg >= 0) coef[arg] += in.phimax_coef;
            }
        }
        if (in.scatter)
            g = *in.scatter;
        else
            residual_scatter(in.centers, in.k, in.labels, g);
        if (full_matrix()) {
            for (int sign = 1; sign >= -1; sign -= 2) {
                std::vector<double> rows;
                int64_t count = 0;
                for (size_t p = 0; p < pairs.size(); ++p) {
                    if (coef[p] * sign <= 0.0) continue;
                    const double s = std::sqrt(std::fabs(coef[p]));
                    const double *a = point(pairs[p].i), *b = point(pairs[p].j);
                    for (int64_t m = 0; m < d_; ++m) rows.push_back(s * (a[m] - b[m]));
                    ++count;
                }
                if (count > 0) linalg::syrk_ata(count, d_, static_cast<double>(sign), rows.data(), d_, 1.0, g.data());
            }
        } else {
            for (size_t p = 0; p < pairs.size(); ++p) {
                if (coef[p] == 0.0) continue;
                const double *a = point(pairs[p].i), *b = point(pairs[p].j);
                for (int64_t m = 0; m < d_; ++m) {
                    const double t = a[m] - b[m];
                    g[m] += coef[p] * t * t;
                }
            }
        }
    }

    const DataView &data_;
    int threads_;
    PhiMaxRule rule_;
    linalg::SymmetricEigen eig_;  // of A, refreshed by set_params
    mutable linalg::SymmetricEigen work_eig_;  // scratch for projections and the closed form
    const double *x0_ = nullptr;  // the points, n x d row-major: the caller's or x0_copy_
    std::vector<double> x0_copy_, lambda_, sqrt_a_, a_sym_;
    PairEndRows ends_;  // sharded: the rows of the ends of the pairs
    // The squared norms x^T A x and a view of the points the GEMM reads (x0_):
    // a cache of set_params' A, rebuilt by cross_blocks when stale.
    mutable std::vector<double> xt_sqnorm_;
    // Full A: the global mean and the Gram matrix of the centred points
    // (residual_scatter), computed once per fit by ensure_gram.
    mutable std::vector<double> global_mean_, gram_;
    mutable DataView xt_view_;
    mutable bool scaled_ = false;
    double log_det_ = 0.0;
};

}  // namespace

std::unique_ptr<WeightedDistortion> make_euclidean(bool full, const DataView &data, int threads, PhiMaxRule rule) {
    return std::unique_ptr<WeightedDistortion>(new WeightedEuclidean(full, data, threads, rule));
}

}  // namespace divergence
}  // namespace kindred
