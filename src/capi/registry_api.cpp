// Introspection of algorithms and their option tables. Only the stable tier
// is enumerated (core/options.hpp): internal options stay out of everything
// built from these functions (CLI help, bindings, docs/options.md).
#include "algorithms/registry.hpp"
#include "capi/guard.hpp"
#include "capi/option_args.hpp"

using namespace kindred;

extern "C" {

int64_t kindred_algorithm_count(void) {
    capi::clear_error();
    return static_cast<int64_t>(all_algorithms().size());
}

const char *kindred_algorithm_name(int64_t index) {
    capi::clear_error();
    const auto &list = all_algorithms();
    if (index < 0 || index >= static_cast<int64_t>(list.size())) return nullptr;
    return list[index]->name.c_str();
}

kindred_status kindred_algorithm_summary(const char *algorithm, const char **summary) {
    return capi::guarded([&] {
        capi::require_pointer(algorithm, "algorithm");
        capi::require_pointer(summary, "summary");
        *summary = get_algorithm(algorithm).summary.c_str();
    });
}

kindred_status kindred_algorithm_uses(const char *algorithm, int *flags) {
    return capi::guarded([&] {
        capi::require_pointer(algorithm, "algorithm");
        capi::require_pointer(flags, "flags");
        // What a fitted model offers beyond labels follows from the spec's hooks, so no table
        // repeats it.
        const AlgorithmSpec &spec = get_algorithm(algorithm);
        *flags = spec.uses | (spec.transform ? KINDRED_USES_TRANSFORM : 0) | (spec.predict_proba ? KINDRED_USES_SOFT : 0);
    });
}

kindred_status kindred_option_count(const char *algorithm, int64_t *count) {
    return capi::guarded([&] {
        capi::require_pointer(algorithm, "algorithm");
        capi::require_pointer(count, "count");
        *count = static_cast<int64_t>(stable_options(get_algorithm(algorithm).options).size());
    });
}

kindred_status kindred_option_info(const char *algorithm, int64_t index, const char **name, kindred_option_type *type,
                                   const char **default_value, const char **range, const char **doc) {
    return capi::guarded([&] {
        capi::require_pointer(algorithm, "algorithm");
        capi::describe_option(get_algorithm(algorithm).options, algorithm, index, name, type, default_value, range, doc);
    });
}

}  // extern "C"
