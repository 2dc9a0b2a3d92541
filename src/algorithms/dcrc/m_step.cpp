#include "algorithms/dcrc/m_step.hpp"

#include <lbfgs.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/error.hpp"
#include "core/parallel.hpp"
#include "linalg/blas.hpp"
#include "linalg/lbfgs_minimize.hpp"

namespace kindred {
namespace dcrc {

namespace {

// Rows per GEMM of the objective: blocks small enough that OpenBLAS takes
// its small-matrix kernels (no packing of the n x (d+1) design into its
// buffers at every evaluation) and that a block stays in cache.
constexpr int64_t kGemmRows = 512;

// Sum of log(v) over factors v in [1, 2^31) (the softmax denominators, at
// most K < 2^31): their product, renormalised with frexp every 32 factors
// (32 x 31 bits stay below the largest double), and one log at the end,
// instead of one log per factor.
class LogOfProduct {
public:
    void add(double v) {
        product_ *= v;
        if (++count_ == 32) {
            int e = 0;
            product_ = std::frexp(product_, &e);
            exponent_ += e;
            count_ = 0;
        }
    }
    double value() const { return std::log(product_) + static_cast<double>(exponent_) * kLn2; }

private:
    static constexpr double kLn2 = 0.69314718055994530942;
    double product_ = 1.0;
    int64_t exponent_ = 0;
    int count_ = 0;
};

// The per-row pass of objective_and_gradient over rows [begin, end) of one
// chunk: P, t, s, dJ/dZ of the likelihood and U-entropy terms, and the
// chunk's sums. KC > 0 is K known at compile time (loops over clusters
// unrolled, column sums in registers), 0 a K known at run time; the
// arithmetic and its order are the same either way.
struct RowPass {
    int64_t k;
    const int64_t *target_of;
    const double *targets;
    double target_weight, tau_u;
    double *zs, *p, *g, *s, *sums;
};

template <int KC>
void row_pass(const RowPass &r, int64_t chunk, int64_t begin, int64_t end) {
    const int64_t k = KC > 0 ? KC : r.k;
    double *cs = r.sums + chunk * (k + 2);
    double fit = 0.0, entropy_u = 0.0;
    LogOfProduct log_s_fit, log_s_u;
    // Column sums in a local array (registers for a small K known at compile
    // time), copied out at the end: the same additions in the same order.
    double colsum_local[KC > 0 ? KC : 1];
    double *colsum = KC > 0 ? colsum_local : cs + 2;
    std::fill(colsum, colsum + k, 0.0);
    for (int64_t i = begin; i < end; ++i) {
        // Eq. (6) with log-sum-exp: with t = z - max_k z and s = sum_k exp(t_k),
        // p = exp(t) / s and log p = t - log s. log p itself is not needed here:
        // every term below needs only t and, summed over the rows, log s.
        double *t = r.zs + i * k, *pi = r.p + i * k, *gi = r.g + i * k;
        const double m = *std::max_element(t, t + k);
        double s = 0.0;
        for (int64_t c = 0; c < k; ++c) {
            t[c] -= m;
            s += (pi[c] = std::exp(t[c]));
        }
        r.s[i] = s;
        const double inv = 1.0 / s;
        for (int64_t c = 0; c < k; ++c) {
            pi[c] *= inv;
            colsum[c] += pi[c];
        }
        if (r.target_of[i] >= 0) {
            // Likelihood part: target_weight * sum_k q_ik log p_ik
            // = target_weight (sum_k q_ik t_ik - log s_i) (the q_i sum to 1); its
            // gradient with respect to z_i = W x_i is target_weight (Q_i - P_i).
            const double *q = r.targets + r.target_of[i] * k;
            double qt = 0.0;
            for (int64_t c = 0; c < k; ++c) {
                qt += q[c] * t[c];
                gi[c] = r.target_weight * (q[c] - pi[c]);
            }
            fit += qt;
            log_s_fit.add(s);
        } else if (r.tau_u > 0.0) {
            // -tau H(Y_U | X_U): d/dz_jm = tau/|U| p_jm (log p_jm - sum_k p_jk log p_jk)
            // (the second line of the gradient in section IV-B), where log s cancels:
            // log p_jm - sum_k p_jk log p_jk = t_jm - sum_k p_jk t_jk.
            double pt = 0.0;
            for (int64_t c = 0; c < k; ++c) pt += pi[c] * t[c];
            entropy_u -= pt;
            log_s_u.add(s);
            for (int64_t c = 0; c < k; ++c) gi[c] = r.tau_u * pi[c] * (t[c] - pt);
        } else {
            std::fill(gi, gi + k, 0.0);
        }
    }
    if (KC > 0) std::copy(colsum, colsum + k, cs + 2);
    // sum_i log s_i, once per chunk: fit -= it, H = -sum p log p += it.
    cs[0] = fit - log_s_fit.value();
    cs[1] = entropy_u + log_s_u.value();
}

}  // namespace

double objective_and_gradient(const MStepProblem &pb, const double *w, double *grad, MStepWorkspace &ws) {
    const Design &des = *pb.design;
    const int64_t n = des.n, k = pb.k, cols = des.cols(), d = des.d;
    const Collective ranks = Collective::or_single(pb.ranks, n);
    const int64_t n_total = ranks.n_total();
    const std::vector<int64_t> &target_of = *pb.target_of;
    double *zs = ws.t.data(), *p = ws.p.data(), *g = ws.g.data(), *srow = ws.s.data();
    // Z = Xa W^T, by GEMMs of kGemmRows rows from this thread (see below); the
    // per-row work below in chunks.
    for (int64_t b = 0; b < n; b += kGemmRows)
        linalg::gemm(false, true, std::min(kGemmRows, n - b), k, cols, 1.0, des.xa.data() + b * cols, cols, w, cols,
                     0.0, zs + b * k, k);

    const double tau_u = pb.u_count > 0 ? pb.tau / static_cast<double>(pb.u_count) : 0.0;
    const int64_t stride = k + 2;
    double *sums = ws.chunk_sums.data();

    RowPass rows{k, target_of.data(), pb.targets, pb.target_weight, tau_u, zs, p, g, srow, sums};
    parallel_chunks(pb.threads, n, kRowChunk, [&](int64_t chunk, int64_t begin, int64_t end) {
        switch (k) {  // the common small K with their loops unrolled
            case 2: row_pass<2>(rows, chunk, begin, end); break;
            case 3: row_pass<3>(rows, chunk, begin, end); break;
            case 4: row_pass<4>(rows, chunk, begin, end); break;
            case 5: row_pass<5>(rows, chunk, begin, end); break;
            case 6: row_pass<6>(rows, chunk, begin, end); break;
            case 8: row_pass<8>(rows, chunk, begin, end); break;
            default: row_pass<0>(rows, chunk, begin, end); break;
        }
    });
    // Every rank's row-chunk sums, by global chunk (kRowChunksPerChunk row
    // chunks of `stride` values each): row chunk g of all the points is at
    // g x stride, as in one process, where this is the workspace itself.
    const std::vector<double> all = ranks.all_chunks(ws.chunk_sums, kRowChunksPerChunk * stride);
    const int64_t chunks = chunk_count(n_total, kRowChunk);
    double fit = 0.0, entropy_u = 0.0;
    double *log_phat = ws.log_phat.data();
    std::fill(log_phat, log_phat + k, 0.0);
    for (int64_t c = 0; c < chunks; ++c) {  // chunk order: the same sums for any threads and ranks
        fit += all[c * stride];
        entropy_u += all[c * stride + 1];
        for (int64_t j = 0; j < k; ++j) log_phat[j] += all[c * stride + 2 + j];
    }
    double objective = pb.target_weight * fit - tau_u * entropy_u;

    if (pb.balance && pb.tau > 0.0) {
        // +tau H(p-hat): d/dz_nm = -tau/N p_nm (log p-hat_m - sum_k p_nk log p-hat_k)
        // (third line of the gradient). p-hat is floored at 1e-300 so that an
        // empty cluster gives a finite log (deviation for numerical safety).
        double h = 0.0;
        for (int64_t c = 0; c < k; ++c) {
            const double phat = std::max(log_phat[c] / static_cast<double>(n_total), 1e-300);
            log_phat[c] = std::log(phat);
            h -= phat * log_phat[c];
        }
        objective += pb.tau * h;
        const double tau_n = pb.tau / static_cast<double>(n_total);
        parallel_chunks(pb.threads, n, kRowChunk, [&](int64_t, int64_t begin, int64_t end) {
            for (int64_t i = begin; i < end; ++i) {
                const double *pi = p + i * k;
                double avg = 0.0;
                for (int64_t c = 0; c < k; ++c) avg += pi[c] * log_phat[c];
                for (int64_t c = 0; c < k; ++c) g[i * k + c] -= tau_n * pi[c] * (log_phat[c] - avg);
            }
        });
    }

    // -lambda R(W), R = sum_k |w~_k|^2 without the biases.
    double r = 0.0;
    for (int64_t c = 0; c < k; ++c)
        for (int64_t j = 0; j < d; ++j) r += w[c * cols + j] * w[c * cols + j];
    objective -= pb.lambda * r;

    if (grad) {
        // dJ/dW = G^T Xa - 2 lambda W~ (first line of the gradient), G = dJ/dZ (n x k):
        // G^T Xa of each global chunk from 0 (GEMMs of kGemmRows rows, a
        // divisor of the chunk), the chunks added in order over the ranks.
        static_assert(Collective::kChunk % kGemmRows == 0, "a global chunk is whole GEMM blocks");
        const int64_t width = k * cols;
        std::vector<double> &part = ws.grad_chunks;  // assign keeps its capacity: no allocation after the first call
        part.assign(static_cast<size_t>(chunk_count(n, Collective::kChunk) * width), 0.0);
        for (int64_t b = 0; b < n; b += kGemmRows)
            linalg::gemm(true, false, k, cols, std::min(kGemmRows, n - b), 1.0, g + b * k, k, des.xa.data() + b * cols,
                         cols, 1.0, part.data() + (b / Collective::kChunk) * width, cols);
        const std::vector<double> sum = ranks.sum_chunks(part, width);
        std::copy(sum.begin(), sum.end(), grad);
        for (int64_t c = 0; c < k; ++c)
            for (int64_t j = 0; j < d; ++j) grad[c * cols + j] -= 2.0 * pb.lambda * w[c * cols + j];
    }
    return objective;
}

void last_log_probabilities(const MStepWorkspace &ws, int64_t k, const std::vector<int64_t> &rows, double *logp) {
    for (size_t r = 0; r < rows.size(); ++r) {
        const int64_t i = rows[r];
        const double log_s = std::log(ws.s[i]);
        for (int64_t c = 0; c < k; ++c) logp[static_cast<int64_t>(r) * k + c] = ws.t[i * k + c] - log_s;
    }
}

LbfgsOutcome maximize(const MStepProblem &pb, std::vector<double> &w, int64_t max_iter, MStepWorkspace &ws) {
    const int nvar = linalg::blas_int(static_cast<int64_t>(w.size()), "dcrc: number of weights");
    linalg::blas_int(pb.design->n * pb.k, "dcrc: n x k");
    LbfgsOutcome out;
    // The last point evaluated and J there: when L-BFGS returns that point
    // (the usual case), J is known without another evaluation.
    std::vector<double> last_x;
    double last_j = 0.0;
    // liblbfgs minimises: f = -J, g = -dJ/dW.
    const linalg::LbfgsRun run = linalg::lbfgs_minimize(nvar, w.data(), max_iter, [&](const double *x, double *g) {
        ++out.evaluations;
        const double j = objective_and_gradient(pb, x, g, ws);
        last_x.assign(x, x + nvar);
        last_j = j;
        for (int v = 0; v < nvar; ++v) g[v] = -g[v];
        return -j;
    }, "dcrc");
    const int status = run.status;
    if (status == LBFGSERR_UNKNOWNERROR || status == LBFGSERR_LOGICERROR || status == LBFGSERR_INCORRECT_TMINMAX ||
        (status >= LBFGSERR_INVALID_N && status <= LBFGSERR_INVALID_ORTHANTWISE_END))
        fail(KINDRED_E_INTERNAL, "dcrc: L-BFGS refused its parameters (liblbfgs status ", status, ")");
    out.status = status;
    out.iterations = run.iterations;
    // J at the returned point: that of the last evaluation when it was there
    // (objective_and_gradient is deterministic: the same value bit for bit),
    // else (a line search that failed and reverted to the previous point; fx
    // is then the last trial's) evaluated again.
    const bool at_last = last_x.size() == w.size() &&
                         std::memcmp(w.data(), last_x.data(), w.size() * sizeof(double)) == 0;
    out.objective = at_last ? last_j : objective_and_gradient(pb, w.data(), nullptr, ws);
    return out;
}

}  // namespace dcrc
}  // namespace kindred
