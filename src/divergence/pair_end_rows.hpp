// The rows of the ends of the pairs of a sharded fit (core/collective.hpp),
// gathered once per fit so that phi and the pairs' part of the metric update
// read them by global index on every rank alike. Shared by the weighted
// distortions: the Euclidean ones read the dense rows, cosine and idiv the
// same rows without their zeros (SparseRows), which is how their own rows
// are stored, so a pair's sums see the same non-zeros in the same order.
#ifndef KINDRED_DIVERGENCE_PAIR_END_ROWS_HPP
#define KINDRED_DIVERGENCE_PAIR_END_ROWS_HPP

#include <cstdint>
#include <vector>

#include "core/collective.hpp"
#include "core/data_view.hpp"
#include "divergence/weighted_distortion_impl.hpp"

namespace kindred {
namespace divergence {

class PairEndRows {
public:
    // Collective: the rows of every end of pairs, from the ranks holding them
    // (local: this rank's rows); sparse: kept without their zeros as well.
    void gather(const Collective &ranks, const DataView &local, const std::vector<PairConstraint> &pairs,
                bool sparse = false);
    // The position of global row i among the gathered ends (KINDRED_E_INTERNAL if it is not one).
    int64_t position(int64_t i) const;
    // The gathered rows, ends x d, row-major, in the order of position().
    const std::vector<double> &rows() const { return rows_; }
    int64_t count() const { return static_cast<int64_t>(ends_.size()); }
    // The same rows without their zeros (gathered with sparse).
    const SparseRows &sparse() const { return sparse_; }

private:
    std::vector<int64_t> ends_;  // sorted, distinct global rows
    std::vector<double> rows_;
    SparseRows sparse_;
};

}  // namespace divergence
}  // namespace kindred

#endif
