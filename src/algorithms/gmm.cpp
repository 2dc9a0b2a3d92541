// Gaussian mixture by EM. covariance = "shared-spherical" (one variance for
// every cluster and dimension: the "GM" baseline of the TCS paper, default),
// "spherical", "diagonal" or "full". Initialisation: k-means++ centres, hard
// nearest-centre responsibilities, one M-step. E-step in log space with
// log-sum-exp. Stops when the mean log-likelihood per point changes by less
// than tol, or at max_iter. reg_covar is added to every variance / diagonal,
// as common implementations do, so that a collapsed cluster cannot give an
// infinite likelihood. The objective is the total log-likelihood (higher is better).
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "algorithms/centroid/steps.hpp"
#include "core/error.hpp"
#include "core/parallel.hpp"
#include "linalg/blas.hpp"
#include "linalg/distances.hpp"

namespace kindred {
namespace {

constexpr double kLog2Pi = 1.8378770664093454835606594728112;

enum class Cov { SharedSpherical, Spherical, Diagonal, Full };

Cov parse_cov(const std::string &s) {
    if (s == "shared-spherical") return Cov::SharedSpherical;
    if (s == "spherical") return Cov::Spherical;
    if (s == "diagonal") return Cov::Diagonal;
    return Cov::Full;
}

// Parameters: weights (k), means (k x d), variances: 1 value (shared), k
// (spherical), k x d (diagonal) or k x d x d (full).
struct Params {
    int64_t k = 0, d = 0;
    Cov cov = Cov::SharedSpherical;
    std::vector<double> weights, means, var;
};

// log pi_c + log N(x_i | mu_c, Sigma_c) for all points, row-major n x k.
void log_joint(const Params &p, const DataView &data, const std::vector<double> &x_sqnorm, std::vector<double> &out) {
    const int64_t n = data.n(), k = p.k, d = p.d;
    out.resize(static_cast<size_t>(n * k));
    if (p.cov == Cov::SharedSpherical || p.cov == Cov::Spherical) {
        const std::vector<double> c_sq = linalg::center_sqnorms(p.means.data(), k, d);
        // One GEMM per chunk of rows: the calls a rank of a sharded fit makes on its chunks.
        for (int64_t lo = 0; lo < n; lo += Collective::kChunk) {
            const int64_t hi = std::min(n, lo + Collective::kChunk);
            linalg::sq_distances(data, lo, hi, p.means.data(), c_sq.data(), k, x_sqnorm.data(), out.data() + lo * k);
        }
        for (int64_t c = 0; c < k; ++c) {
            const double v = p.cov == Cov::SharedSpherical ? p.var[0] : p.var[c];
            const double base = std::log(p.weights[c]) - 0.5 * d * (kLog2Pi + std::log(v));
            for (int64_t i = 0; i < n; ++i) out[i * k + c] = base - 0.5 * out[i * k + c] / v;
        }
        return;
    }
    std::vector<double> row(d), diff(d);
    if (p.cov == Cov::Diagonal) {
        for (int64_t c = 0; c < k; ++c) {
            const double *mu = p.means.data() + c * d, *v = p.var.data() + c * d;
            double base = std::log(p.weights[c]) - 0.5 * d * kLog2Pi;
            for (int64_t j = 0; j < d; ++j) base -= 0.5 * std::log(v[j]);
            for (int64_t i = 0; i < n; ++i) {
                data.copy_row(i, row.data());
                double s = 0.0;
                for (int64_t j = 0; j < d; ++j) s += (row[j] - mu[j]) * (row[j] - mu[j]) / v[j];
                out[i * k + c] = base - 0.5 * s;
            }
        }
        return;
    }
    // Full: Cholesky factor L of each Sigma_c, Mahalanobis term |L^{-1}(x - mu)|^2.
    std::vector<double> chol(static_cast<size_t>(d * d));
    for (int64_t c = 0; c < k; ++c) {
        std::copy(p.var.begin() + c * d * d, p.var.begin() + (c + 1) * d * d, chol.begin());
        const int info = LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', linalg::blas_int(d, "d"), chol.data(), static_cast<int>(d));
        if (info != 0) fail(KINDRED_E_NUMERICAL, "gmm: covariance of cluster ", c, " is not positive definite; raise reg_covar");
        double logdet = 0.0;
        for (int64_t j = 0; j < d; ++j) logdet += 2.0 * std::log(chol[j * d + j]);
        const double base = std::log(p.weights[c]) - 0.5 * (d * kLog2Pi + logdet);
        const double *mu = p.means.data() + c * d;
        for (int64_t i = 0; i < n; ++i) {
            data.copy_row(i, row.data());
            double s = 0.0;
            for (int64_t r = 0; r < d; ++r) {  // forward substitution
                double v = row[r] - mu[r];
                for (int64_t q = 0; q < r; ++q) v -= chol[r * d + q] * diff[q];
                diff[r] = v / chol[r * d + r];
                s += diff[r] * diff[r];
            }
            out[i * k + c] = base - 0.5 * s;
        }
    }
}

// Turns log joints into responsibilities in place; returns the log-likelihood
// of all ranks' points (chunk sums, core/collective.hpp).
double normalise(std::vector<double> &lj, int64_t n, int64_t k, const Collective &ranks) {
    std::vector<double> ll(static_cast<size_t>(chunk_count(n, Collective::kChunk)), 0.0);
    for (int64_t i = 0; i < n; ++i) {
        double *row = lj.data() + i * k;
        const double m = *std::max_element(row, row + k);
        double s = 0.0;
        for (int64_t c = 0; c < k; ++c) s += std::exp(row[c] - m);
        const double lse = m + std::log(s);
        ll[i / Collective::kChunk] += lse;
        for (int64_t c = 0; c < k; ++c) row[c] = std::exp(row[c] - lse);
    }
    return ranks.sum_chunks(ll, 1)[0];
}

// The M-step over all ranks' points: every sum over the points is a chunk
// sum (core/collective.hpp), so that the parameters are the same bits for
// any split of the rows, and in one process.
void m_step(const DataView &data, const std::vector<double> &x_sqnorm, const std::vector<double> &resp, double reg,
            const Collective &ranks, Params &p) {
    const int64_t n = data.n(), k = p.k, d = p.d, chunks = chunk_count(n, Collective::kChunk);
    const double n_total = static_cast<double>(ranks.n_total());
    // Per chunk: n_c (k values), then sum_i r_ic x_i (k x d).
    const int64_t width = k + k * d;
    std::vector<double> part(static_cast<size_t>(chunks * width), 0.0);
    for (int64_t i = 0; i < n; ++i) {
        double *nk = part.data() + (i / Collective::kChunk) * width, *means = nk + k;
        for (int64_t c = 0; c < k; ++c) {
            const double r = resp[i * k + c];
            nk[c] += r;
            if (r != 0.0) data.add_row(i, r, means + c * d);
        }
    }
    const std::vector<double> sums = ranks.sum_chunks(part, width);
    std::vector<double> nk(sums.begin(), sums.begin() + k);
    p.means.assign(sums.begin() + k, sums.end());
    const double tiny = 10.0 * std::numeric_limits<double>::epsilon();
    p.weights.resize(k);
    for (int64_t c = 0; c < k; ++c) {
        nk[c] += tiny;  // an empty component keeps a finite mean
        p.weights[c] = nk[c] / (n_total + k * tiny);
        for (int64_t j = 0; j < d; ++j) p.means[c * d + j] /= nk[c];
    }
    std::vector<double> row(d);
    if (p.cov == Cov::SharedSpherical || p.cov == Cov::Spherical) {
        // sum_i r_ic |x_i - mu_c|^2 = sum_i r_ic |x_i|^2 - n_c |mu_c|^2.
        std::vector<double> part_s(static_cast<size_t>(chunks * k), 0.0);
        for (int64_t i = 0; i < n; ++i)
            for (int64_t c = 0; c < k; ++c) part_s[(i / Collective::kChunk) * k + c] += resp[i * k + c] * x_sqnorm[i];
        std::vector<double> s = ranks.sum_chunks(part_s, k);
        const std::vector<double> c_sq = linalg::center_sqnorms(p.means.data(), k, d);
        for (int64_t c = 0; c < k; ++c) s[c] = std::max(0.0, s[c] - nk[c] * c_sq[c]);
        if (p.cov == Cov::SharedSpherical) {
            double total = 0.0;
            for (double v : s) total += v;
            p.var.assign(1, total / (n_total * static_cast<double>(d)) + reg);
        } else {
            p.var.resize(k);
            for (int64_t c = 0; c < k; ++c) p.var[c] = s[c] / (nk[c] * d) + reg;
        }
        return;
    }
    if (p.cov == Cov::Diagonal) {
        std::vector<double> part_v(static_cast<size_t>(chunks * k * d), 0.0);
        for (int64_t i = 0; i < n; ++i) {
            data.copy_row(i, row.data());
            double *v = part_v.data() + (i / Collective::kChunk) * k * d;
            for (int64_t c = 0; c < k; ++c) {
                const double r = resp[i * k + c];
                for (int64_t j = 0; j < d; ++j) {
                    const double diff = row[j] - p.means[c * d + j];
                    v[c * d + j] += r * diff * diff;
                }
            }
        }
        p.var = ranks.sum_chunks(part_v, k * d);
        for (int64_t c = 0; c < k; ++c)
            for (int64_t j = 0; j < d; ++j) p.var[c * d + j] = p.var[c * d + j] / nk[c] + reg;
        return;
    }
    // Full covariance: weighted centred rows, then SYRK per cluster and chunk.
    std::vector<double> part_v(static_cast<size_t>(chunks * k * d * d), 0.0);
    std::vector<double> centred(static_cast<size_t>(std::min(n, Collective::kChunk) * d));
    for (int64_t ch = 0; ch < chunks; ++ch) {
        const int64_t lo = ch * Collective::kChunk, hi = std::min(n, lo + Collective::kChunk);
        for (int64_t c = 0; c < k; ++c) {
            for (int64_t i = lo; i < hi; ++i) {
                data.copy_row(i, row.data());
                const double w = std::sqrt(resp[i * k + c]);
                for (int64_t j = 0; j < d; ++j) centred[(i - lo) * d + j] = w * (row[j] - p.means[c * d + j]);
            }
            linalg::syrk_ata(hi - lo, d, 1.0, centred.data(), d, 0.0, part_v.data() + (ch * k + c) * d * d);
        }
    }
    p.var = ranks.sum_chunks(part_v, k * d * d);
    for (int64_t c = 0; c < k; ++c) {
        double *sigma = p.var.data() + c * d * d;
        for (int64_t v = 0; v < d * d; ++v) sigma[v] /= nk[c];
        for (int64_t j = 0; j < d; ++j) sigma[j * d + j] += reg;
    }
}

void store(const Params &p, FitResult &r) {
    r.set_array("centers", p.k, p.d, p.means);
    r.set_array("weights", p.k, 1, p.weights);
    const int64_t rows = p.cov == Cov::SharedSpherical ? 1 : p.k;
    r.set_array("variances", rows, static_cast<int64_t>(p.var.size()) / rows, p.var);
}

Params load(const FitResult &r, const OptionValues &o) {
    Params p;
    p.cov = parse_cov(o.get_choice("covariance"));
    const NamedArray &c = r.get("centers", -1, r.d);
    p.k = c.rows;
    p.d = c.cols;
    p.means = c.values;
    p.weights = r.get("weights", p.k, 1).values;
    const int64_t var_rows = p.cov == Cov::SharedSpherical ? 1 : p.k;
    const int64_t var_cols = p.cov == Cov::Full ? p.d * p.d : (p.cov == Cov::Diagonal ? p.d : 1);
    p.var = r.get("variances", var_rows, var_cols).values;
    return p;
}

FitResult fit_gmm(const FitContext &ctx) {
    const DataView &data = ctx.data;
    require_dense(data, "gmm");
    const Collective ranks = Collective::or_single(ctx.collective, data.n());
    const int64_t n = data.n(), d = data.d();
    const int64_t k = ctx.options.get_int("k");
    if (k > ranks.n_total())
        fail(KINDRED_E_DIMENSION, "gmm: k = ", k, " is larger than the number of points n = ", ranks.n_total());
    const int64_t max_iter = ctx.options.get_int("max_iter"), n_init = ctx.options.get_int("n_init");
    const double tol = ctx.options.get_double("tol"), reg = ctx.options.get_double("reg_covar");
    const Cov cov = parse_cov(ctx.options.get_choice("covariance"));
    const Rng base(static_cast<uint64_t>(ctx.options.get_int("seed")));
    NearestCenter nearest(data, ctx.threads);
    const std::vector<double> &x_sqnorm = nearest.x_sqnorm();

    FitResult best;
    double best_ll = -std::numeric_limits<double>::infinity();
    std::vector<double> best_resp;
    for (int64_t r = 0; r < n_init; ++r) {
        Rng rng = base.derive(static_cast<uint64_t>(r));
        Params p;
        p.k = k; p.d = d; p.cov = cov;
        std::vector<double> centers = kmeanspp_centers(data, k, rng, x_sqnorm, ctx.threads, &ranks);
        std::vector<int32_t> lab(n);
        nearest.assign(centers.data(), k, lab.data(), nullptr);
        std::vector<double> resp(static_cast<size_t>(n * k), 0.0);
        for (int64_t i = 0; i < n; ++i) resp[i * k + lab[i]] = 1.0;
        m_step(data, x_sqnorm, resp, reg, ranks, p);
        std::vector<double> trace;
        double ll_prev = -std::numeric_limits<double>::infinity(), ll = ll_prev;
        bool converged = false;
        int64_t it = 0;
        while (it < max_iter) {
            ++it;
            log_joint(p, data, x_sqnorm, resp);
            ll = normalise(resp, n, k, ranks);
            trace.push_back(ll);
            ranks.agree([&] { ctx.progress.report(it, ll, "gmm: EM iteration"); });  // a cancel on one rank stops all
            if (std::fabs(ll - ll_prev) / static_cast<double>(ranks.n_total()) < tol) {
                converged = true;
                break;
            }
            ll_prev = ll;
            m_step(data, x_sqnorm, resp, reg, ranks, p);
        }
        if (!std::isfinite(ll)) fail(KINDRED_E_NUMERICAL, "gmm: the log-likelihood is not finite; raise reg_covar");
        if (ll > best_ll) {
            best_ll = ll;
            best = FitResult();
            best.iterations = it;
            best.converged = converged;
            best.objective = ll;
            store(p, best);
            best.set_array("objective_trace", static_cast<int64_t>(trace.size()), 1, trace);
            best_resp.swap(resp);
        }
    }
    best.clusters = k;
    best.labels.resize(n);
    for (int64_t i = 0; i < n; ++i) {
        const double *row = best_resp.data() + i * k;
        best.labels[i] = static_cast<int32_t>(std::max_element(row, row + k) - row);
    }
    // The soft memberships of the fitted points; a rank of a sharded fit
    // keeps only its labels (kindred_model_predict_proba_dense gives the
    // memberships of any rows).
    if (ranks.single()) best.set_array("memberships", n, k, best_resp);
    return best;
}

// log p(x_i, component c) of the new points (n x k) under the fitted model.
std::vector<double> new_points_log_joint(const PredictContext &ctx, const Params &p) {
    std::vector<double> lj;
    log_joint(p, ctx.data, linalg::row_sqnorms(ctx.data), lj);
    return lj;
}

void predict_gmm(const PredictContext &ctx, int32_t *labels) {
    const Params p = load(ctx.model, ctx.options);
    const std::vector<double> lj = new_points_log_joint(ctx, p);
    for (int64_t i = 0; i < ctx.data.n(); ++i) {
        const double *row = lj.data() + i * p.k;
        labels[i] = static_cast<int32_t>(std::max_element(row, row + p.k) - row);
    }
}

// Posterior probabilities of the components for new points: the E-step's responsibilities.
void predict_proba_gmm(const PredictContext &ctx, double *out) {
    const Params p = load(ctx.model, ctx.options);
    std::vector<double> lj = new_points_log_joint(ctx, p);
    normalise(lj, ctx.data.n(), p.k, Collective(ctx.data.n()));
    std::copy(lj.begin(), lj.end(), out);
}

OptionTable gmm_options() {
    return with_common_options({
        OptionSpec::clusters(8, "number of mixture components"),
        OptionSpec::choice("covariance", "shared-spherical", "shared-spherical|spherical|diagonal|full",
                           "covariance model: one variance for all, one per component, diagonal, or full"),
        OptionSpec::restarts(1, "k-means++ restarts; the highest log-likelihood is kept"),
        OptionSpec::max_iterations(100, "maximum EM iterations per restart"),
        OptionSpec::tolerance(1e-3, "stop when the mean log-likelihood per point changes less than this"),
        OptionSpec::real("reg_covar", 1e-6, 0, kInf, "added to every variance (diagonal) for numerical safety").open_high(),
    });
}

}  // namespace

const AlgorithmSpec &gmm_spec() {
    static const AlgorithmSpec spec{"gmm",
                                    "Gaussian mixture by EM (shared spherical, spherical, diagonal or full covariance)",
                                    KINDRED_USES_SHARDS, gmm_options(), fit_gmm, predict_gmm, nullptr, nullptr,
                                    predict_proba_gmm};
    return spec;
}

}  // namespace kindred
