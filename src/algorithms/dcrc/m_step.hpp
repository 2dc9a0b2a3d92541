// DCRC's M-step (Pei et al., section IV-B): the objective J(W) and its
// gradient, maximised by L-BFGS (liblbfgs). The same objective with one-hot
// targets on every point and tau = 0 is the logistic classifier that
// section IV-C trains on the k-means labels for the initialisation.
#ifndef KINDRED_ALGORITHMS_DCRC_M_STEP_HPP
#define KINDRED_ALGORITHMS_DCRC_M_STEP_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

#include "algorithms/dcrc/design.hpp"
#include "core/collective.hpp"

namespace kindred {
namespace dcrc {

// J(W) = target_weight * sum_{i in I} sum_k q_ik log p_ik - lambda R(W)
//        + tau [H(p-hat) (only with balance) - H(Y_U | X_U; W)],
// R(W) = sum_k |w~_k|^2 (biases excluded), H(Y_U | X_U) = mean entropy of
// P(y | x_j) over the points j in U, p-hat_k = mean_n p_nk.
// In DCRC, I are the constrained points, target_weight = 1 / M and targets = Q.
// In a sharded fit (core/collective.hpp) the design holds this rank's rows
// (whole global chunks) and every sum over the points (the chunk sums below,
// the gradient G^T Xa) is combined over the ranks in global chunk order, so
// that J and dJ/dW are the same bits on every rank and in one process, and
// every rank's L-BFGS takes the same steps.
struct MStepProblem {
    const Design *design = nullptr;
    const Collective *ranks = nullptr;  // the ranks of a sharded fit; null: one process (n_total = design->n)
    int64_t k = 0;
    int64_t u_count = 0;  // |U| over all the points (the rows with target_of < 0 on every rank)
    const std::vector<int64_t> *target_of = nullptr;  // design->n entries: row of `targets`, or -1 for a point of U
    const double *targets = nullptr;                  // rows of k probabilities (each summing to 1)
    double target_weight = 0.0;
    double tau = 0.0;
    bool balance = false;
    double lambda = 0.0;
    int threads = 1;  // the library's own threads for the per-point loops (results do not depend on it)
};

// Rows per chunk of the per-point loops: fixed, so that partial sums (reduced
// in chunk order) are the same for any number of threads. A divisor of
// Collective::kChunk: a rank's chunks of kRowChunk rows are then global ones,
// and all the ranks' partial sums, laid out by global chunk, are added in the
// same order as in one process.
constexpr int64_t kRowChunk = 2048;
static_assert(Collective::kChunk % kRowChunk == 0, "a global chunk is whole row chunks");
constexpr int64_t kRowChunksPerChunk = Collective::kChunk / kRowChunk;

// Scratch of one fit (n x k three times, and per-chunk partial sums), so that
// evaluations do not allocate.
class MStepWorkspace {
public:
    MStepWorkspace(int64_t n, int64_t k)
        : t(static_cast<size_t>(n * k)), p(t.size()), g(t.size()), s(static_cast<size_t>(n)),
          log_phat(static_cast<size_t>(k)),
          chunk_sums(static_cast<size_t>(((n + Collective::kChunk - 1) / Collective::kChunk) * kRowChunksPerChunk * (k + 2)),
                     0.0) {}
    // At the W of the last evaluation: t = z - max_k z (n x k, z = W x_i),
    // P (n x k), dJ/dZ (n x k), s = sum_k exp(t_k) per row (log p = t - log s).
    std::vector<double> t, p, g, s;
    std::vector<double> log_phat;
    // per row chunk: fit, entropy of U, then k column sums of P; padded to
    // whole global chunks (the row chunks past the last row stay 0 and are not read)
    std::vector<double> chunk_sums;
    // G^T Xa per global chunk (k x cols each), sized at the first evaluation with a gradient
    std::vector<double> grad_chunks;
};

// Returns J(W); grad (k x cols) receives dJ/dW (section IV-B; may be null).
double objective_and_gradient(const MStepProblem &problem, const double *w, double *grad, MStepWorkspace &ws);

// log P(y | x_i; W) = t_i - log s_i for the given rows (local indices) into
// logp, row r for rows[r] (rows.size() x k), from the workspace of the last
// evaluation: after maximize() that is the W it returned.
void last_log_probabilities(const MStepWorkspace &ws, int64_t k, const std::vector<int64_t> &rows, double *logp);

struct LbfgsOutcome {
    double objective = 0.0;  // J at the returned W
    int64_t iterations = 0;
    int64_t evaluations = 0;
    int status = 0;          // liblbfgs return code (for the log)
};

// Maximises J from W (k x cols, updated in place) with at most max_iter
// L-BFGS iterations; ws is left at the returned W. Line-search failures keep
// the best W found (liblbfgs reverts to the last accepted point); only
// out-of-memory is an error.
LbfgsOutcome maximize(const MStepProblem &problem, std::vector<double> &w, int64_t max_iter, MStepWorkspace &ws);

}  // namespace dcrc
}  // namespace kindred

#endif
