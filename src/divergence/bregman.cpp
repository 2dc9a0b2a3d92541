#include "divergence/bregman.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "core/label_sums.hpp"
#include "core/parallel.hpp"
#include "linalg/blas.hpp"
#include "linalg/dense_rows.hpp"
#include "linalg/distances.hpp"

namespace kindred {
namespace divergence {

const char *const kBregmanChoices = "euclidean|kl|idiv";

namespace {

// The chunk of the sums is the ranks' (Collective::kChunk), so that a
// sharded rdpmeans adds its clusters up as one process does. (It was 8192
// rows before rdpmeans was sharded: results moved in the last bits for fits
// of more than 8192 points, recorded in docs/algorithms/rdpmeans-tvclust.md.)
constexpr int64_t kSumChunk = Collective::kChunk;

// Deterministic sums of w_i * x_i (k x d) and of w_i (k) per label, in the
// order fixed by kSumChunk (label_sums); the caller turns them into means.
// ranks: those of a sharded fit (data, labels, weight: this rank's rows,
// whole chunks), or null: each chunk's sums from the rank holding it, added
// in chunk order, which are label_sums's additions in one process.
void weighted_label_sums(const DataView &data, const int32_t *labels, const std::vector<double> *weight, int64_t k,
                         int threads, const Collective *ranks, std::vector<double> &sums, std::vector<double> &wsum,
                         std::vector<int64_t> &counts) {
    if (!ranks || ranks->single()) {
        label_sums(data, labels, weight ? weight->data() : nullptr, k, kSumChunk, threads, sums, &wsum, counts);
        return;
    }
    const int64_t n = data.n(), d = data.d(), chunks = chunk_count(n, kSumChunk), width = k * d + 2 * k;
    std::vector<double> partial(static_cast<size_t>(chunks * width), 0.0), chunk_sums, chunk_w;
    std::vector<int64_t> chunk_counts;
    for (int64_t c = 0; c < chunks; ++c) {
        const int64_t lo = c * kSumChunk, hi = std::min(n, lo + kSumChunk);
        label_sums(row_range(data, lo, hi), labels + lo, weight ? weight->data() + lo : nullptr, k, kSumChunk, threads,
                   chunk_sums, &chunk_w, chunk_counts);
        double *at = partial.data() + c * width;
        std::copy(chunk_sums.begin(), chunk_sums.end(), at);
        std::copy(chunk_w.begin(), chunk_w.end(), at + k * d);
        for (int64_t l = 0; l < k; ++l) at[k * d + k + l] = static_cast<double>(chunk_counts[l]);
    }
    const std::vector<double> total = ranks->sum_chunks(partial, width);
    sums.assign(total.begin(), total.begin() + k * d);
    wsum.assign(total.begin() + k * d, total.begin() + k * d + k);
    counts.resize(static_cast<size_t>(k));
    for (int64_t l = 0; l < k; ++l) counts[l] = static_cast<int64_t>(total[k * d + k + l]);  // exact below 2^53
}

// out[(i - begin) * k + c] = <x_i, m_c> for k rows m of d values: one GEMM
// for dense data (as linalg::sq_distances), the non-zeros for CSR.
void raw_dots(const DataView &x, int64_t begin, int64_t end, const double *m, int64_t k, double *out) {
    const int64_t rows = end - begin, d = x.d();
    if (x.is_dense()) {
        std::vector<double> scratch;
        const linalg::RowsF64 r = linalg::rows_f64(x.as_dense(), begin, end, scratch);
        linalg::gemm(!r.row_major, true, rows, k, d, 1.0, r.x, r.ld, m, d, 0.0, out, k);
        return;
    }
    const CsrView &s = x.as_csr();
    std::fill(out, out + rows * k, 0.0);
    for (int64_t i = begin; i < end; ++i) {
        double *row = out + (i - begin) * k;
        for (int64_t e = s.indptr[i]; e < s.indptr[i + 1]; ++e) {
            const double w = s.values[e];
            const double *col = m + s.indices[e];
            for (int64_t c = 0; c < k; ++c) row[c] += w * col[c * d];
        }
    }
}

class SquaredEuclidean final : public Bregman {
public:
    explicit SquaredEuclidean(const DataView &data) : Bregman(data), x_sqnorm_(linalg::row_sqnorms(data)) {}

    void distances(int64_t begin, int64_t end, const double *centers, int64_t k, double *out) override {
        const std::vector<double> c_sq = linalg::center_sqnorms(centers, k, d());
        linalg::sq_distances(data_, begin, end, centers, c_sq.data(), k, x_sqnorm_.data(), out);
    }
    void raw_distances(int64_t begin, int64_t end, const double *centers, int64_t k, double *out,
                       FinishTerms &terms) override {
        terms.center = linalg::center_sqnorms(centers, k, d());
        terms.row = x_sqnorm_.data();
        linalg::minus_two_cross(data_, begin, end, centers, k, out);
    }
    double distance(int64_t i, const double *center) const override {
        double c_sq = 0.0;
        for (int64_t j = 0; j < d(); ++j) c_sq += center[j] * center[j];
        return std::max(0.0, x_sqnorm_[i] - 2.0 * data_.dot_row(i, center) + c_sq);
    }
    double total_divergence(const int32_t *labels, const double *centers, int64_t k) const override {
        const std::vector<double> c_sq = linalg::center_sqnorms(centers, k, d());
        double total = 0.0;
        for (int64_t i = 0; i < data_.n(); ++i) {
            const int32_t l = labels[i];
            total += std::max(0.0, x_sqnorm_[i] - 2.0 * data_.dot_row(i, centers + l * d()) + c_sq[l]);
        }
        return total;
    }
    double center_divergence(const double *a, const double *b) const override {
        double total = 0.0;
        for (int64_t j = 0; j < d(); ++j) total += (a[j] - b[j]) * (a[j] - b[j]);
        return total;
    }
    void point(int64_t i, double *out) const override { data_.copy_row(i, out); }
    void cluster_sums(const int32_t *labels, int64_t k, int threads, std::vector<double> &sums,
                      std::vector<int64_t> &counts, const Collective *ranks) const override {
        std::vector<double> wsum;
        weighted_label_sums(data_, labels, nullptr, k, threads, ranks, sums, wsum, counts);
    }

private:
    std::vector<double> x_sqnorm_;
};

// kl and idiv: x~_i = (x_i + s) / z_i with z_i = sum(x_i) + d s (kl) or 1 (idiv).
//   sum_j x~_ij log mu_cj = (<x_i, log mu_c> + s L_c) / z_i,  L_c = sum_j log mu_cj
//   h_i = sum_j x~_ij log x~_ij is computed once per fit from the non-zeros.
class SmoothedCounts final : public Bregman {
public:
    SmoothedCounts(const DataView &data, double smoothing, bool normalise)
        : Bregman(data), s_(smoothing), normalise_(normalise) {
        const int64_t n = data.n(), dd = d();
        z_.resize(static_cast<size_t>(n));
        mass_.resize(static_cast<size_t>(n));
        entropy_.resize(static_cast<size_t>(n));
        std::vector<double> row(static_cast<size_t>(dd));
        for (int64_t i = 0; i < n; ++i) {
            data.copy_row(i, row.data());
            double total = 0.0;
            for (int64_t j = 0; j < dd; ++j) {
                if (row[j] < 0.0)
                    fail(KINDRED_E_INVALID, "divergence ", normalise ? "kl" : "idiv",
                         ": counts must be >= 0, got ", row[j], " at row ", i, ", column ", j);
                total += row[j];
            }
            const double z = normalise ? total + static_cast<double>(dd) * s_ : 1.0;
            double h = 0.0;
            for (int64_t j = 0; j < dd; ++j) {
                const double t = (row[j] + s_) / z;
                h += t * std::log(t);
            }
            z_[i] = z;
            mass_[i] = (total + static_cast<double>(dd) * s_) / z;  // sum_j x~_ij
            entropy_[i] = h;
        }
    }

    void distances(int64_t begin, int64_t end, const double *centers, int64_t k, double *out) override {
        const int64_t dd = d();
        log_mu_.resize(static_cast<size_t>(k * dd));
        std::vector<double> sum_log(static_cast<size_t>(k), 0.0), sum_mu(static_cast<size_t>(k), 0.0);
        for (int64_t c = 0; c < k; ++c)
            for (int64_t j = 0; j < dd; ++j) {
                const double mu = centers[c * dd + j];
                log_mu_[c * dd + j] = safe_log(mu);
                sum_log[c] += log_mu_[c * dd + j];
                sum_mu[c] += mu;
            }
        raw_dots(data_, begin, end, log_mu_.data(), k, out);
        for (int64_t i = begin; i < end; ++i) {
            double *row = out + (i - begin) * k;
            for (int64_t c = 0; c < k; ++c) {
                const double cross = (row[c] + s_ * sum_log[c]) / z_[i];
                double v = entropy_[i] - cross;
                if (!normalise_) v += sum_mu[c] - mass_[i];
                row[c] = std::max(0.0, v);
            }
        }
    }
    double distance(int64_t i, const double *center) const override {
        const int64_t dd = d();
        one_log_.resize(static_cast<size_t>(dd));
        double sum_log = 0.0, sum_mu = 0.0;
        for (int64_t j = 0; j < dd; ++j) {
            one_log_[j] = safe_log(center[j]);
            sum_log += one_log_[j];
            sum_mu += center[j];
        }
        double v = entropy_[i] - (data_.dot_row(i, one_log_.data()) + s_ * sum_log) / z_[i];
        if (!normalise_) v += sum_mu - mass_[i];
        return std::max(0.0, v);
    }
    double total_divergence(const int32_t *labels, const double *centers, int64_t k) const override {
        const int64_t dd = d();
        std::vector<double> lm(static_cast<size_t>(k * dd)), sum_log(static_cast<size_t>(k), 0.0),
            sum_mu(static_cast<size_t>(k), 0.0);
        for (int64_t c = 0; c < k; ++c)
            for (int64_t j = 0; j < dd; ++j) {
                lm[c * dd + j] = safe_log(centers[c * dd + j]);
                sum_log[c] += lm[c * dd + j];
                sum_mu[c] += centers[c * dd + j];
            }
        double total = 0.0;
        for (int64_t i = 0; i < data_.n(); ++i) {
            const int32_t l = labels[i];
            double v = entropy_[i] - (data_.dot_row(i, lm.data() + l * dd) + s_ * sum_log[l]) / z_[i];
            if (!normalise_) v += sum_mu[l] - mass_[i];
            total += std::max(0.0, v);
        }
        return total;
    }
    // sum_j a_j log(a_j / b_j), plus sum_j (b_j - a_j) for idiv (zero for
    // kl, whose centres sum to 1).
    double center_divergence(const double *a, const double *b) const override {
        double total = 0.0;
        for (int64_t j = 0; j < d(); ++j) {
            total += a[j] * (safe_log(a[j]) - safe_log(b[j]));
            if (!normalise_) total += b[j] - a[j];
        }
        return std::max(0.0, total);
    }
    void point(int64_t i, double *out) const override {
        data_.copy_row(i, out);
        for (int64_t j = 0; j < d(); ++j) out[j] = (out[j] + s_) / z_[i];
    }
    // sum of x~_i = sum_i x_i / z_i + s sum_i 1 / z_i
    void cluster_sums(const int32_t *labels, int64_t k, int threads, std::vector<double> &sums,
                      std::vector<int64_t> &counts, const Collective *ranks) const override {
        std::vector<double> inv_z(z_.size()), wsum;
        for (size_t i = 0; i < z_.size(); ++i) inv_z[i] = 1.0 / z_[i];
        weighted_label_sums(data_, labels, &inv_z, k, threads, ranks, sums, wsum, counts);
        for (int64_t c = 0; c < k; ++c)
            for (int64_t j = 0; j < d(); ++j) sums[c * d() + j] += s_ * wsum[c];
    }

private:
    // Centres built by cluster_means are > 0; a caller's centre with a zero
    // coordinate would give log 0: it is floored (documented deviation).
    static double safe_log(double mu) { return std::log(std::max(mu, 1e-300)); }

    double s_;
    bool normalise_;
    std::vector<double> z_, mass_, entropy_, log_mu_;
    mutable std::vector<double> one_log_;  // scratch of distance(): one object per fit, one thread
};

}  // namespace

void means_from_sums(const std::vector<double> &sums, const std::vector<int64_t> &counts, int64_t d,
                     std::vector<double> &centers) {
    centers.assign(sums.size(), 0.0);
    for (size_t c = 0; c < counts.size(); ++c)
        if (counts[c] > 0)
            for (int64_t j = 0; j < d; ++j) centers[c * d + j] = sums[c * d + j] / static_cast<double>(counts[c]);
}

void Bregman::cluster_means(const int32_t *labels, int64_t k, int threads, std::vector<double> &centers,
                            std::vector<int64_t> &counts, const Collective *ranks) const {
    std::vector<double> sums;
    cluster_sums(labels, k, threads, sums, counts, ranks);
    means_from_sums(sums, counts, d(), centers);
}

std::unique_ptr<Bregman> make_bregman(const std::string &name, const DataView &data, double smoothing) {
    if (name == "euclidean") return std::make_unique<SquaredEuclidean>(data);
    if (name == "kl" || name == "idiv") {
        if (!(smoothing > 0.0) || !std::isfinite(smoothing))
            fail(KINDRED_E_INVALID, "divergence ", name, ": smoothing must be > 0 and finite, got ", smoothing);
        return std::make_unique<SmoothedCounts>(data, smoothing, name == "kl");
    }
    fail(KINDRED_E_INVALID, "unknown divergence '", name, "'; known: ", kBregmanChoices);
}

double farthest_first_lambda(Bregman &div, int64_t k) {
    const DataView &data = div.data();
    const int64_t n = data.n(), d = data.d();
    if (k < 1) fail(KINDRED_E_INVALID, "farthest-first: k must be >= 1, got ", k);
    std::vector<int32_t> all(static_cast<size_t>(n), 0);
    std::vector<double> centre;
    std::vector<int64_t> counts;
    div.cluster_means(all.data(), 1, 1, centre, counts);
    std::vector<double> closest(static_cast<size_t>(n), std::numeric_limits<double>::infinity());
    double pick = 0.0;
    for (int64_t c = 0; c < k; ++c) {
        int64_t far = 0;
        for (int64_t i = 0; i < n; ++i) {
            closest[i] = std::min(closest[i], div.distance(i, centre.data()));
            if (closest[i] > closest[far]) far = i;
        }
        pick = closest[far];
        centre.resize(static_cast<size_t>(d));
        div.point(far, centre.data());
    }
    return pick;
}

}  // namespace divergence
}  // namespace kindred
