// Constraint propagation (Basu et al., section 3.3.5, applied throughout the
// fit rather than only at initialisation): must-links are transitive, so a
// set of points joined by must-links is one group ("unit"), and a
// cannot-link between two points separates their whole units.
//
// Two ways to form the units:
//   transitive  the connected components of the must-link graph (the paper's
//               closure); a cannot-link inside a component is a contradiction
//               (counted, and fatal only for the hard method copkmeans).
//   robust      the default: greedy agglomeration on the signed constraint
//               graph. Every point starts alone; the two groups whose net
//               evidence (sum of must-link values minus cannot-link weights
//               between them) is largest are merged, as long as it is
//               positive. Groups then grow from the answers that agree most;
//               one wrong must-link between two groups that already carry
//               cannot-links between them is outvoted instead of gluing two
//               classes together, and a wrong cannot-link inside a group held
//               by several must-links is outvoted too. With clean answers and
//               no contradiction it gives exactly the transitive components.
//
// Between units, what is left is net cannot-link evidence: weight(U, V) =
// sum of |cannot-link values| minus must-link values between U and V (> 0).
// Cost: O(nnz log nnz) (a heap of candidate merges; neighbour lists merged
// small into large).
#ifndef KINDRED_CORE_CONSTRAINT_PROPAGATION_HPP
#define KINDRED_CORE_CONSTRAINT_PROPAGATION_HPP

#include <cstdint>
#include <vector>

namespace kindred {

struct Pair;  // core/side_info.hpp

enum class Propagation { Transitive, Robust };

struct PropagatedConstraints {
    int64_t n = 0;
    // unit[i]: the unit of point i, numbered 0, 1, ... in order of smallest member.
    std::vector<int64_t> unit;
    std::vector<int64_t> unit_size;
    // Net cannot-link weight between units (CSR over units, symmetric; each
    // row sorted by neighbour unit).
    std::vector<int64_t> cl_ptr, cl_unit;
    std::vector<double> cl_weight;
    // Pairs whose answer the units contradict: a cannot-link inside a unit,
    // a must-link between two units.
    int64_t contradicted_pairs = 0;

    int64_t unit_count() const { return static_cast<int64_t>(unit_size.size()); }
    int64_t largest_unit() const;
};

// The units of n points under the pairs (i < j, value > 0 must-link, < 0 cannot-link).
PropagatedConstraints propagate_constraints(int64_t n, const std::vector<Pair> &pairs, Propagation mode);

}  // namespace kindred

#endif
