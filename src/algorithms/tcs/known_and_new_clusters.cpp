#include "algorithms/tcs/known_and_new_clusters.hpp"

#include <algorithm>

#include "core/whole_chunks.hpp"

namespace kindred {
namespace tcs {

void cluster_known_and_new(const FitContext &ctx, const LabelledClasses &cls, const std::vector<double> &z, int64_t n,
                           int64_t p, int64_t k, std::vector<double> known_centers, MixtureFn mixture,
                           const Collective &ranks, FitResult &r) {
    const int64_t big_k = cls.k();
    const int64_t n_u = static_cast<int64_t>(cls.unlabelled.size());
    const int64_t first = n > 0 ? ranks.first_row() : 0;
    std::vector<double> centers = std::move(known_centers);
    std::vector<double> ids(cls.class_ids.begin(), cls.class_ids.end());
    const int32_t first_new = cls.class_ids.back() + 1;
    r.labels.assign(static_cast<size_t>(n), -1);
    // This rank's labelled points, then its unlabelled ones: positions [u0, u1)
    // of the (ascending) lists, contiguous since its rows are.
    const auto in_rows = [&](const std::vector<int64_t> &list) {
        return std::make_pair(std::lower_bound(list.begin(), list.end(), first) - list.begin(),
                              std::lower_bound(list.begin(), list.end(), first + n) - list.begin());
    };
    const auto labelled = in_rows(cls.labelled);
    for (auto q = labelled.first; q < labelled.second; ++q)
        r.labels[cls.labelled[q] - first] = cls.class_ids[cls.class_of[q]];
    int64_t new_clusters = 0;
    if (n_u > 0) {
        const auto mine = in_rows(cls.unlabelled);
        const int64_t u0 = mine.first, u1 = mine.second;
        std::vector<double> zu(static_cast<size_t>((u1 - u0) * p));
        for (int64_t q = u0; q < u1; ++q) {
            const int64_t i = cls.unlabelled[q] - first;
            std::copy(z.begin() + i * p, z.begin() + (i + 1) * p, zu.begin() + (q - u0) * p);
        }
        const WholeChunks held = to_whole_chunks(ranks, std::move(zu), u0, u1 - u0, p, n_u);
        const Collective sub = ranks.over(held.first, held.n, n_u);
        const MixtureFit mix = mixture(held.values, held.n, p, mixture_settings(ctx.options, k), ctx, &sub);
        const std::vector<int32_t> labels = labels_of_piece(ranks, held, mix.labels);
        for (int64_t q = u0; q < u1; ++q) r.labels[cls.unlabelled[q] - first] = first_new + labels[q - u0];
        centers.insert(centers.end(), mix.means.begin(), mix.means.end());
        for (int64_t c = 0; c < k; ++c) ids.push_back(static_cast<double>(first_new + c));
        new_clusters = k;
        r.set_array("mixture_log_likelihood", 1, 1, {mix.log_likelihood});
    }
    r.clusters = big_k + new_clusters;
    r.set_array("centers", big_k + new_clusters, p, centers);
    r.set_array("cluster_ids", big_k + new_clusters, 1, ids);
}

}  // namespace tcs
}  // namespace kindred
