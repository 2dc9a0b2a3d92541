#include "algorithms/tcs/known_and_new_clusters.hpp"

#include <algorithm>

namespace kindred {
namespace tcs {

void cluster_known_and_new(const FitContext &ctx, const LabelledClasses &cls, const std::vector<double> &z, int64_t n,
                           int64_t p, int64_t k, std::vector<double> known_centers, MixtureFn mixture, FitResult &r) {
    const int64_t big_k = cls.k();
    const int64_t n_u = static_cast<int64_t>(cls.unlabelled.size());
    std::vector<double> centers = std::move(known_centers);
    std::vector<double> ids(cls.class_ids.begin(), cls.class_ids.end());
    const int32_t first_new = cls.class_ids.back() + 1;
    r.labels.assign(static_cast<size_t>(n), -1);
    for (size_t q = 0; q < cls.labelled.size(); ++q) r.labels[cls.labelled[q]] = cls.class_ids[cls.class_of[q]];
    int64_t new_clusters = 0;
    if (n_u > 0) {
        std::vector<double> zu(static_cast<size_t>(n_u * p));
        for (int64_t q = 0; q < n_u; ++q)
            std::copy(z.begin() + cls.unlabelled[q] * p, z.begin() + (cls.unlabelled[q] + 1) * p, zu.begin() + q * p);
        const MixtureFit mix = mixture(zu, n_u, p, mixture_settings(ctx.options, k), ctx);
        for (int64_t q = 0; q < n_u; ++q) r.labels[cls.unlabelled[q]] = first_new + mix.labels[q];
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
