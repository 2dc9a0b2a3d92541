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

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace kindred {

struct Pair;  // core/side_info.hpp

enum class Propagation { Transitive, Robust };

// Values in [0, bound] (point indices, unit ids, unit sizes): 32-bit when
// the bound allows it, chosen once when the array is sized (as Adjacency's
// neighbours), 64-bit otherwise, since the library takes int64 sizes. With
// n pairs the robust units' ids and sizes were 8 + 7 bytes a point, kept by
// the store and read through every fit.
class IndexVector {
public:
    static bool narrow_for(int64_t bound) { return bound <= std::numeric_limits<int32_t>::max(); }
    void assign(size_t size, int64_t bound, int64_t value) {
        std::vector<int32_t>().swap(narrow_);
        std::vector<int64_t>().swap(wide_);
        if (narrow_for(bound)) narrow_.assign(size, static_cast<int32_t>(value));
        else wide_.assign(size, value);
    }
    // (An empty wide array means the narrow one: with no entries neither is read.)
    int64_t operator[](int64_t i) const {
        return wide_.empty() ? static_cast<int64_t>(narrow_[static_cast<size_t>(i)]) : wide_[static_cast<size_t>(i)];
    }
    void set(int64_t i, int64_t value) {
        if (wide_.empty()) narrow_[static_cast<size_t>(i)] = static_cast<int32_t>(value);
        else wide_[static_cast<size_t>(i)] = value;
    }
    size_t size() const { return wide_.empty() ? narrow_.size() : wide_.size(); }

private:
    std::vector<int32_t> narrow_;
    std::vector<int64_t> wide_;
};

struct PropagatedConstraints {
    int64_t n = 0;
    // unit[i]: the unit of point i, numbered 0, 1, ... in order of smallest member.
    IndexVector unit;
    IndexVector unit_size;
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
