// The last step shared by tcs-gm and tcs-vmf: the labelled points keep their
// class ids; the unlabelled ones are clustered into k new clusters by a
// mixture in the transformed space; the model keeps the centres and ids of both.
#ifndef KINDRED_ALGORITHMS_TCS_KNOWN_AND_NEW_CLUSTERS_HPP
#define KINDRED_ALGORITHMS_TCS_KNOWN_AND_NEW_CLUSTERS_HPP

#include <cstdint>
#include <vector>

#include "algorithms/algorithm.hpp"
#include "algorithms/tcs/mixtures.hpp"
#include "algorithms/tcs/working_data.hpp"

namespace kindred {
namespace tcs {

// z: the n transformed points of this rank (n x p, row-major; all the
// points in one process), rows [ranks.first_row(), + n) of all; known_centers:
// the labelled classes' centres in that space (cls.k() x p). Sets r.labels
// (of the n rows), r.clusters and the arrays "centers", "cluster_ids" and
// (when there are unlabelled points) "mixture_log_likelihood". In a sharded
// fit the unlabelled rows are first moved so that each rank holds whole
// chunks of the sequence of unlabelled points (core/whole_chunks.hpp): the
// mixture then makes the sums of the single-process mixture on that sequence.
void cluster_known_and_new(const FitContext &ctx, const LabelledClasses &cls, const std::vector<double> &z, int64_t n,
                           int64_t p, int64_t k, std::vector<double> known_centers, MixtureFn mixture,
                           const Collective &ranks, FitResult &r);

}  // namespace tcs
}  // namespace kindred

#endif
