// Active selection of pairwise constraints (Explore / Consolidate).
#include "active/pair_queries.hpp"
#include "capi/data_args.hpp"
#include "capi/guard.hpp"
#include "core/side_info.hpp"

namespace kindred {
namespace capi {
SideInfo *side_info(kindred_side *side);
}
}  // namespace kindred

using namespace kindred;

extern "C" {

kindred_status kindred_active_select(const char *strategy, const double *x, int64_t n, int64_t d, int layout,
                                     int64_t ld, int64_t k, int64_t budget, uint64_t seed, kindred_oracle_fn oracle,
                                     void *user, kindred_side *out_side) {
    return capi::guarded([&] {
        capi::require_pointer(strategy, "strategy");
        capi::require_pointer(out_side, "out_side");
        if (!oracle) fail(KINDRED_E_INVALID, "oracle must not be NULL");
        const DataView data = capi::dense_arg(x, n, d, layout, ld);
        SideInfo &side = *capi::side_info(out_side);
        if (side.n() != n)
            fail(KINDRED_E_DIMENSION, "active selection: out_side is about n = ", side.n(), " points, the data has n = ", n);
        const active::Answers got = active::select_pairs(
            strategy, data, k, budget, seed, [&](int64_t i, int64_t j) { return oracle(user, i, j); });
        // Added only now, so that a failed selection leaves the side unchanged.
        if (!got.i.empty())
            side.add_pairs(got.i.data(), got.j.data(), got.value.data(), static_cast<int64_t>(got.i.size()));
    });
}

}  // extern "C"
