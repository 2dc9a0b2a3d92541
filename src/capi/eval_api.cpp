// Metrics and sampling of side information from labels.
#include "capi/data_args.hpp"
#include "capi/guard.hpp"
#include "eval/metrics.hpp"
#include "eval/sampling.hpp"

namespace kindred {
namespace capi {
SideInfo *side_info(kindred_side *side);
}
}  // namespace kindred

using namespace kindred;

extern "C" {

kindred_status kindred_metric(const char *metric, const int32_t *truth, const int32_t *predicted, int64_t n,
                              double *value) {
    return capi::guarded([&] {
        capi::require_pointer(metric, "metric");
        capi::require_pointer(truth, "truth");
        capi::require_pointer(predicted, "predicted");
        capi::require_pointer(value, "value");
        if (n <= 0) fail(KINDRED_E_INVALID, "metric: n must be > 0, got ", n);
        capi::require_array_count(n, 2 * sizeof(int32_t), "metric: n");
        eval::require_metric(metric);  // an unknown name fails before the O(n) work
        *value = eval::metric_by_name(metric, eval::contingency(truth, predicted, n));
    });
}

int64_t kindred_metric_count(void) {
    capi::clear_error();
    return static_cast<int64_t>(eval::metric_names().size());
}

const char *kindred_metric_name(int64_t index) {
    capi::clear_error();
    const auto &names = eval::metric_names();
    if (index < 0 || index >= static_cast<int64_t>(names.size())) return nullptr;
    return names[index].c_str();
}

kindred_status kindred_sample_pairs(kindred_side *side, const int32_t *labels, int64_t n, int64_t count, double rate,
                                    double noise, uint64_t seed) {
    return capi::guarded([&] {
        capi::require_pointer(side, "side");
        if (count < -1) fail(KINDRED_E_INVALID, "sampling: count must be >= 0, or -1 to use the rate; got ", count);
        eval::sample_pairs(*capi::side_info(side), labels, n, count, rate, noise, seed);
    });
}

kindred_status kindred_sample_triplets(kindred_side *side, const int32_t *labels, int64_t n, int64_t count,
                                       double noise, uint64_t seed) {
    return capi::guarded([&] {
        capi::require_pointer(side, "side");
        eval::sample_triplets(*capi::side_info(side), labels, n, count, noise, seed);
    });
}

}  // extern "C"
