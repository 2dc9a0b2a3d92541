// DCRC's constraint model and variational E-step (Pei et al., sections III-A
// and IV-A): the answer distribution P(l_t | Y_t) of Table I with noise
// epsilon, the compatibilities Q~(l_t | y_i = k) of Table II, and the
// mean-field update of eq. (13) (eq. (14) for hard constraints, epsilon = 0)
// over the constrained points I.
#ifndef KINDRED_ALGORITHMS_DCRC_MEAN_FIELD_HPP
#define KINDRED_ALGORITHMS_DCRC_MEAN_FIELD_HPP

#include <cstdint>
#include <vector>

#include "core/side_info.hpp"

namespace kindred {
namespace dcrc {

// Table II for one triplet seen from its point at `position` (0 = t1, 1 = t2,
// 2 = t3): out[k] = Q~(l_t = answer | y_i = k), the probability under q of the
// other two points that the answer is the one eq. (1) gives. qa, qb are the
// distributions of the other two points in triplet order (for position 1:
// q(y_t1), q(y_t3)).
void table2_compatibility(int position, int32_t answer, const double *qa, const double *qb, int64_t k, double *out);

// Probability under q1 q2 q3 that eq. (1) gives `answer` (the joint version of
// Table II, used for the expected constraint log-likelihood).
double answer_probability(int32_t answer, const double *q1, const double *q2, const double *q3, int64_t k);

struct MeanFieldOutcome {
    int64_t sweeps = 0;
    bool converged = false;
    double max_change = 0.0;  // of the last sweep
};

class MeanField {
public:
    MeanField(const std::vector<Triplet> &triplets, int64_t n, int64_t k);

    int64_t constrained_count() const { return static_cast<int64_t>(points_.size()); }
    int64_t triplet_count() const { return static_cast<int64_t>(triplets_.size()); }
    // I: the distinct points in some triplet, ascending; slot s holds points()[s].
    const std::vector<int64_t> &points() const { return points_; }
    // Slot of point i in I, or -1 when i is in U (in no triplet).
    const std::vector<int64_t> &slot_of() const { return slot_of_; }

    // q := P(y | x; W) on I (the starting point of the first E-step); logp:
    // |I| x k log P(y | x; W), row s for the point of slot s.
    void start_from(const double *logp, std::vector<double> &q) const;

    // F(y_i = k) = sum over the triplets t containing i of Q~(l_t | y_i = k) (eq. (13)).
    void compatibility(int64_t slot, const double *q, double *f) const;

    // Mean-field sweeps over I in ascending order, each q(y_i) replaced by eq.
    // (13) (epsilon > 0) or eq. (14) (epsilon == 0), until the largest change of
    // any q in a sweep is <= tol or max_sweeps. logp: |I| x k log P(y | x; W),
    // by slot (in a sharded fit, gathered from the ranks that hold the points);
    // q: |I| x k, updated in place. A point none of whose triplet partners has
    // changed since its last update is skipped: its update would give the same
    // q bit for bit (it depends on logp and on the others' q only).
    MeanFieldOutcome run(const double *logp, double epsilon, int64_t max_sweeps, double tol,
                         std::vector<double> &q) const;

    // sum_t E_Q[log P(l_t | Y_t)] under Table I (epsilon > 0).
    double expected_log_likelihood(const std::vector<double> &q, double epsilon) const;

private:
    // One triplet seen from one of its points.
    struct Edge {
        int64_t other_a, other_b;  // slots of the other two points, in triplet order
        int32_t position, answer;  // of the point in the triplet (0..2); the answer
    };
    // New q of slot `slot` (k values into `next`) from the others' q.
    void update_one(int64_t slot, const double *logp_i, double log_alpha, bool hard, const double *q, double *f,
                    double *next) const;

    std::vector<Triplet> triplets_;  // indices replaced by slots
    int64_t k_;
    std::vector<int64_t> points_, slot_of_;
    std::vector<int64_t> edge_ptr_;  // CSR over slots
    std::vector<Edge> edges_;
};

}  // namespace dcrc
}  // namespace kindred

#endif
