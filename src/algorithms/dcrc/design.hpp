// The design matrix of DCRC's multinomial logistic model (Pei et al., section
// III-A): every point augmented to [x^T, 1]^T so that each row w_k of W
// carries its bias, optionally standardised (zero mean, unit deviation per
// feature, as the paper's experiments do), and the class probabilities of
// eq. (6) computed from it with one GEMM and log-sum-exp.
#ifndef KINDRED_ALGORITHMS_DCRC_DESIGN_HPP
#define KINDRED_ALGORITHMS_DCRC_DESIGN_HPP

#include <cstdint>
#include <vector>

#include "core/collective.hpp"
#include "core/data_view.hpp"

namespace kindred {
namespace dcrc {

struct Design {
    int64_t n = 0, d = 0;           // cols() = d + 1
    std::vector<double> xa;         // row-major n x (d + 1), last column 1
    std::vector<double> mean, scale;  // d each; 0 and 1 when not standardised

    int64_t cols() const { return d + 1; }
    // The first d columns as a DataView (the points the model sees), for the
    // k-means initialisation.
    DataView features() const;
};

// ranks: data is this rank's rows of a sharded fit (whole chunks); the mean
// and deviation are chunk sums over all the ranks' points (core/collective.hpp).
Design make_design(const DataView &data, const Collective &ranks, bool standardize);
// One process.
inline Design make_design(const DataView &data, bool standardize) {
    return make_design(data, Collective(data.n()), standardize);
}

// W (K x (d+1)) learned on the standardised features, expressed on the raw
// ones: w_kj / s_j, and bias b_k - sum_j w_kj m_j / s_j. Identity when the
// design was not standardised.
std::vector<double> raw_feature_weights(const Design &design, const std::vector<double> &w, int64_t k);

// Eq. (6): log P(y = k | x_i; W) for rows [0, n) of xa (row-major n x cols),
// W row-major k x cols. logp is n x k. Z = Xa W^T by GEMM, then log-sum-exp per row.
// When p is not null it receives the probabilities too (from the same exponentials).
void log_probabilities(const double *xa, int64_t n, int64_t cols, const double *w, int64_t k, double *logp,
                       double *p = nullptr);

// Eq. (6) for new points given as a DataView of dimension d (dense or sparse),
// with raw-feature weights (k x (d+1)): the argmax class of each point, blockwise.
void predict_classes(const DataView &data, const double *w, int64_t k, int32_t *labels);

// P(y | x) for new points (n x k), blockwise.
void predict_probabilities(const DataView &data, const double *w, int64_t k, double *p);

}  // namespace dcrc
}  // namespace kindred

#endif
