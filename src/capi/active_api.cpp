// Active selection of pairwise constraints (Explore / Consolidate), its
// options handle and their introspection.
#include "active/pair_queries.hpp"
#include "capi/data_args.hpp"
#include "capi/guard.hpp"
#include "capi/option_args.hpp"
#include "core/side_info.hpp"

namespace kindred {
namespace capi {
SideInfo *side_info(kindred_side *side);
}
}  // namespace kindred

// The settings of one selection, checked against the one table of active::options().
struct kindred_active_options {
    kindred::OptionValues values{&kindred::active::options()};
};

using namespace kindred;

extern "C" {

kindred_status kindred_active_options_new(kindred_active_options **out) {
    return capi::guarded([&] {
        capi::require_pointer(out, "out");
        *out = nullptr;
        *out = new kindred_active_options();
    });
}

void kindred_active_options_free(kindred_active_options *options) { delete options; }

kindred_status kindred_active_options_set_int(kindred_active_options *options, const char *name, int64_t value) {
    return capi::guarded([&] { capi::set_int_option(capi::require_pointer(options, "options")->values, name, value); });
}

kindred_status kindred_active_options_set_double(kindred_active_options *options, const char *name, double value) {
    return capi::guarded([&] { capi::set_double_option(capi::require_pointer(options, "options")->values, name, value); });
}

kindred_status kindred_active_options_set_string(kindred_active_options *options, const char *name, const char *value) {
    return capi::guarded([&] { capi::set_string_option(capi::require_pointer(options, "options")->values, name, value); });
}

kindred_status kindred_active_options_option(const kindred_active_options *options, const char *name, char *buffer,
                                             size_t capacity) {
    return capi::guarded([&] { capi::copy_option_text(capi::require_pointer(options, "options")->values, name, buffer, capacity); });
}

kindred_status kindred_active_option_count(int64_t *count) {
    return capi::guarded([&] {
        capi::require_pointer(count, "count");
        *count = static_cast<int64_t>(stable_options(active::options()).size());
    });
}

kindred_status kindred_active_option_info(int64_t index, const char **name, kindred_option_type *type,
                                          const char **default_value, const char **range, const char **doc) {
    return capi::guarded([&] {
        capi::describe_option(active::options(), "active selection", index, name, type, default_value, range, doc);
    });
}

kindred_status kindred_active_select(const kindred_active_options *options, const double *x, int64_t n, int64_t d,
                                     kindred_layout layout, int64_t ld, kindred_oracle_fn oracle, void *user,
                                     kindred_side *out_side) {
    return capi::guarded([&] {
        capi::require_pointer(options, "options");
        capi::require_pointer(out_side, "out_side");
        if (!oracle) fail(KINDRED_E_INVALID, "oracle must not be NULL");
        const DataView data = capi::dense_arg(x, n, d, layout, ld);
        SideInfo &side = *capi::side_info(out_side);
        if (side.n() != n)
            fail(KINDRED_E_DIMENSION, "active selection: out_side is about n = ", side.n(), " points, the data has n = ", n);
        const active::Answers got =
            active::select_pairs(options->values, data, [&](int64_t i, int64_t j) { return oracle(user, i, j); });
        // Added only now, so that a failed selection leaves the side unchanged.
        if (!got.i.empty())
            side.add_pairs(got.i.data(), got.j.data(), got.value.data(), static_cast<int64_t>(got.i.size()));
    });
}

}  // extern "C"
