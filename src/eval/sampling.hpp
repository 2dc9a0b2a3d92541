// Side information drawn from a label vector, for experiments: pairs (the
// RDP-means protocol: a count or a rate of all pairs, answers flipped with a
// noise probability) and triplets labelled by eq. (1) of the DCRC paper.
#ifndef KINDRED_EVAL_SAMPLING_HPP
#define KINDRED_EVAL_SAMPLING_HPP

#include <cstdint>

#include "core/side_info.hpp"

namespace kindred {
namespace eval {

// count < 0: use rate * (number of labelled pairs), rounded.
void sample_pairs(SideInfo &side, const int32_t *labels, int64_t n, int64_t count, double rate, double noise,
                  uint64_t seed);
void sample_triplets(SideInfo &side, const int32_t *labels, int64_t n, int64_t count, double noise, uint64_t seed);

}  // namespace eval
}  // namespace kindred

#endif
