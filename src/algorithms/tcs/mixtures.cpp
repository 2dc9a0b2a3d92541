#include "algorithms/tcs/mixtures.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "algorithms/centroid/steps.hpp"
#include "core/error.hpp"
#include "core/parallel.hpp"
#include "linalg/blas.hpp"
#include "linalg/log_gamma.hpp"

namespace kindred {

const AlgorithmSpec &gmm_spec();

namespace tcs {

void append_mixture_options(OptionTable &t) {
    t.push_back(OptionSpec::clusters(8, "number of clusters among the unlabelled points"));
    t.push_back(OptionSpec::restarts(10, "k-means++ restarts of the mixture; the highest likelihood is kept"));
    t.push_back(OptionSpec::integer("em_max_iter", 100, 1, 100000000, "maximum EM iterations of the mixture per restart"));
    t.push_back(OptionSpec::real("em_tol", 1e-3, 0, kInf, "EM stops when the mean log-likelihood per point changes less than this"));
}

MixtureSettings mixture_settings(const OptionValues &o, int64_t k) {
    MixtureSettings s;
    s.k = k;
    s.n_init = o.get_int("n_init");
    s.max_iter = o.get_int("em_max_iter");
    s.tol = o.get_double("em_tol");
    s.seed = static_cast<uint64_t>(o.get_int("seed"));
    return s;
}

MixtureFit gaussian_mixture(const std::vector<double> &z, int64_t n, int64_t p, const MixtureSettings &s,
                            const FitContext &ctx, const Collective *ranks) {
    const AlgorithmSpec &gmm = gmm_spec();
    OptionValues o(&gmm.options);
    o.set_number("k", static_cast<double>(s.k));
    o.set_text("covariance", "shared-spherical");
    o.set_number("n_init", static_cast<double>(s.n_init));
    o.set_number("max_iter", static_cast<double>(s.max_iter));
    o.set_number("tol", s.tol);
    o.set_number("reg_covar", s.reg_covar);
    o.set_number("seed", static_cast<double>(s.seed));
    o.set_number("threads", ctx.threads);
    const DataView data = DataView::dense(DenseView::rows(z.data(), n, p));
    // gmm's fit is exactly sharded (its sums are chunk sums over the ranks).
    FitContext sub{data, nullptr, o, ctx.progress, ctx.log, ctx.threads, ranks};
    FitResult r = gmm.fit(sub);
    MixtureFit out;
    out.labels = std::move(r.labels);
    out.means = r.get("centers").values;
    out.log_likelihood = r.objective;
    out.iterations = r.iterations;
    return out;
}

double vmf_concentration(double rbar, int64_t p) {
    const double r = std::min(std::max(rbar, 0.0), 1.0 - 1e-12);
    return r * (static_cast<double>(p) - r * r) / (1.0 - r * r);
}

double vmf_log_normaliser(double kappa, int64_t p) {
    const double nu = 0.5 * static_cast<double>(p) - 1.0;
    const double log2pi = std::log(2.0 * M_PI);
    if (kappa <= 0.0) {
        // Uniform density on the sphere: 1 / area = Gamma(p/2) / (2 pi^{p/2}).
        return log_gamma(0.5 * p) - std::log(2.0) - 0.5 * p * std::log(M_PI);
    }
    double log_i;
    if (nu < 0.5) {
        // p <= 2: I_0 / I_{-1/2}-like orders; the large-argument form is enough to rank restarts.
        log_i = kappa - 0.5 * std::log(2.0 * M_PI * kappa);
    } else {
        const double x = kappa / nu, root = std::sqrt(1.0 + x * x);
        const double eta = root + std::log(x / (1.0 + root));
        log_i = -0.5 * std::log(2.0 * M_PI * nu) + nu * eta - 0.5 * std::log(root);
    }
    return nu * std::log(kappa) - 0.5 * p * log2pi - log_i;
}

MixtureFit vmf_mixture(const std::vector<double> &z, int64_t n, int64_t p, const MixtureSettings &s,
                       const FitContext &ctx, const Collective *collective) {
    const Collective ranks = Collective::or_single(collective, n);
    const int64_t k = s.k, chunks = chunk_count(n, Collective::kChunk);
    const double n_total = static_cast<double>(ranks.n_total());
    const DataView data = DataView::dense(DenseView::rows(z.data(), n, p));
    NearestCenter nearest(data, ctx.threads);
    const Rng base(s.seed);
    MixtureFit best;
    best.log_likelihood = -std::numeric_limits<double>::infinity();
    std::vector<double> resp(static_cast<size_t>(n * k)), dots(static_cast<size_t>(n * k));
    // Per chunk: the weights' sums (k), then R_k = sum_i r_ik z_i (k x p); and the chunk's log-likelihood.
    const int64_t width = k + k * p;
    std::vector<double> part(static_cast<size_t>(chunks * width)), block(static_cast<size_t>(k * p));
    std::vector<double> ll_part(static_cast<size_t>(chunks));
    for (int64_t r = 0; r < s.n_init; ++r) {
        Rng rng = base.derive(static_cast<uint64_t>(r));
        std::vector<double> mu = kmeanspp_centers(data, k, rng, nearest.x_sqnorm(), 1, &ranks);
        std::vector<int32_t> lab(static_cast<size_t>(n));
        nearest.assign(mu.data(), k, lab.data(), nullptr);
        std::fill(resp.begin(), resp.end(), 0.0);
        for (int64_t i = 0; i < n; ++i) resp[i * k + lab[i]] = 1.0;
        std::vector<double> weights(static_cast<size_t>(k));
        double kappa = 0.0, ll = -std::numeric_limits<double>::infinity(), ll_prev = ll;
        int64_t it = 0;
        for (;;) {
            // M-step (Banerjee et al. 2005, section 4.1): mu_k = R_k / |R_k|, one kappa from rbar.
            // One GEMM per chunk of rows (the calls a rank of a sharded fit makes), chunk sums added in chunk order.
            for (int64_t ch = 0; ch < chunks; ++ch) {
                const int64_t lo = ch * Collective::kChunk, hi = std::min(n, lo + Collective::kChunk);
                double *out = part.data() + ch * width;
                linalg::gemm(true, false, k, p, hi - lo, 1.0, resp.data() + lo * k, k, z.data() + lo * p, p, 0.0,
                             block.data(), p);
                std::copy(block.begin(), block.end(), out + k);
                for (int64_t c = 0; c < k; ++c) {
                    double w = 0.0;
                    for (int64_t i = lo; i < hi; ++i) w += resp[i * k + c];
                    out[c] = w;
                }
            }
            const std::vector<double> sums = ranks.sum_chunks(part, width);
            double rsum = 0.0;
            for (int64_t c = 0; c < k; ++c) {
                weights[c] = (sums[c] + 1e-10) / (n_total + k * 1e-10);
                const double *rc = sums.data() + k + c * p;
                double norm = 0.0;
                for (int64_t j = 0; j < p; ++j) norm += rc[j] * rc[j];
                norm = std::sqrt(norm);
                rsum += norm;
                for (int64_t j = 0; j < p; ++j) mu[c * p + j] = norm > 0.0 ? rc[j] / norm : 0.0;
            }
            kappa = vmf_concentration(rsum / n_total, p);
            if (it >= s.max_iter) break;
            ++it;
            // E-step in log space: log pi_k + kappa mu_k^T z_i (the shared C_p(kappa) cancels).
            const double log_c = vmf_log_normaliser(kappa, p);
            std::fill(ll_part.begin(), ll_part.end(), 0.0);
            for (int64_t ch = 0; ch < chunks; ++ch) {
                const int64_t lo = ch * Collective::kChunk, hi = std::min(n, lo + Collective::kChunk);
                linalg::gemm(false, true, hi - lo, k, p, 1.0, z.data() + lo * p, p, mu.data(), p, 0.0,
                             dots.data() + lo * k, k);
                for (int64_t i = lo; i < hi; ++i) {
                    double *row = resp.data() + i * k;
                    const double *dr = dots.data() + i * k;
                    double top = -std::numeric_limits<double>::infinity();
                    for (int64_t c = 0; c < k; ++c) top = std::max(top, row[c] = std::log(weights[c]) + kappa * dr[c]);
                    double sum = 0.0;
                    for (int64_t c = 0; c < k; ++c) sum += (row[c] = std::exp(row[c] - top));
                    for (int64_t c = 0; c < k; ++c) row[c] /= sum;
                    ll_part[ch] += top + std::log(sum) + log_c;
                }
            }
            ll = ranks.sum_chunks(ll_part, 1)[0];
            // A cancel on one rank stops all.
            ranks.agree([&] { ctx.progress.report(it, ll, "tcs-vmf: vMF mixture EM iteration"); });
            if (std::fabs(ll - ll_prev) / n_total < s.tol) break;
            ll_prev = ll;
        }
        if (!std::isfinite(ll)) fail(KINDRED_E_NUMERICAL, "tcs-vmf: the vMF mixture log-likelihood is not finite");
        if (ll > best.log_likelihood) {
            best.log_likelihood = ll;
            best.means = mu;
            best.iterations = it;
            best.labels.resize(static_cast<size_t>(n));
            for (int64_t i = 0; i < n; ++i) {
                const double *row = resp.data() + i * k;
                best.labels[i] = static_cast<int32_t>(std::max_element(row, row + k) - row);
            }
        }
    }
    return best;
}

}  // namespace tcs
}  // namespace kindred
