// kindred_side: the handle is the core SideInfo itself.
#include <algorithm>

#include "capi/data_args.hpp"
#include "capi/guard.hpp"
#include "core/side_info.hpp"

struct kindred_side {
    kindred::SideInfo info;
    explicit kindred_side(int64_t n) : info(n) {}
};

using namespace kindred;

namespace {
// What the store keeps per point at the least: adjacency offsets, component
// ids, the union-find's parents and sizes, a root table and fill cursors
// (8 bytes each).
constexpr int64_t kSideBytesPerPoint = 48;
}  // namespace

extern "C" {

kindred_status kindred_side_new(kindred_side **out, int64_t n) {
    return capi::guarded([&] {
        capi::require_pointer(out, "out");
        *out = nullptr;
        // Refused before SideInfo computes n + 1 (the adjacency offsets) or
        // sizes any array: near INT64_MAX that arithmetic overflows.
        capi::require_allocatable(n, kSideBytesPerPoint, "side information: n");
        *out = new kindred_side(n);
    });
}

void kindred_side_free(kindred_side *side) { delete side; }

kindred_status kindred_side_add_pairs(kindred_side *side, const int64_t *i, const int64_t *j, const double *value,
                                      int64_t count) {
    return capi::guarded([&] {
        capi::require_pointer(side, "side");
        capi::require_array_count(count, 2 * sizeof(int64_t) + sizeof(double), "pairs: count");
        side->info.add_pairs(i, j, value, count);
    });
}

kindred_status kindred_side_add_triplets(kindred_side *side, const int64_t *a, const int64_t *b, const int64_t *c,
                                         const int32_t *answer, int64_t count) {
    return capi::guarded([&] {
        capi::require_pointer(side, "side");
        capi::require_array_count(count, 3 * sizeof(int64_t) + sizeof(int32_t), "triplets: count");
        side->info.add_triplets(a, b, c, answer, count);
    });
}

kindred_status kindred_side_set_partial_labels(kindred_side *side, const int32_t *labels, int64_t n) {
    return capi::guarded([&] {
        capi::require_pointer(side, "side");
        side->info.set_partial_labels(labels, n);
    });
}

kindred_status kindred_side_counts(const kindred_side *side, int64_t *n, int64_t *pairs, int64_t *triplets,
                                   int64_t *labelled) {
    return capi::guarded([&] {
        capi::require_pointer(side, "side");
        if (n) *n = side->info.n();
        if (pairs) *pairs = static_cast<int64_t>(side->info.pairs().size());
        if (triplets) *triplets = static_cast<int64_t>(side->info.triplets().size());
        if (labelled) *labelled = side->info.labelled_count();
    });
}

kindred_status kindred_side_pairs(const kindred_side *side, int64_t *i, int64_t *j, double *value,
                                      int64_t capacity) {
    return capi::guarded([&] {
        capi::require_pointer(side, "side");
        const auto &p = side->info.pairs();
        capi::require_capacity(capacity, static_cast<int64_t>(p.size()), "pairs");
        if (p.empty()) return;
        capi::require_pointer(i, "i");
        capi::require_pointer(j, "j");
        capi::require_pointer(value, "value");
        for (size_t e = 0; e < p.size(); ++e) {
            i[e] = p[e].i;
            j[e] = p[e].j;
            value[e] = p[e].value;
        }
    });
}

kindred_status kindred_side_triplets(const kindred_side *side, int64_t *a, int64_t *b, int64_t *c,
                                         int32_t *answer, int64_t capacity) {
    return capi::guarded([&] {
        capi::require_pointer(side, "side");
        const auto &t = side->info.triplets();
        capi::require_capacity(capacity, static_cast<int64_t>(t.size()), "triplets");
        if (t.empty()) return;
        capi::require_pointer(a, "a");
        capi::require_pointer(b, "b");
        capi::require_pointer(c, "c");
        capi::require_pointer(answer, "answer");
        for (size_t e = 0; e < t.size(); ++e) {
            a[e] = t[e].a;
            b[e] = t[e].b;
            c[e] = t[e].c;
            answer[e] = t[e].answer;
        }
    });
}

kindred_status kindred_side_components(const kindred_side *side, int64_t *component, int64_t n, int64_t *count) {
    return capi::guarded([&] {
        capi::require_pointer(side, "side");
        if (component) {
            capi::require_capacity(n, side->info.n(), "components");
            std::copy(side->info.component().begin(), side->info.component().end(), component);
        }
        if (count) *count = side->info.component_count();
    });
}

kindred_status kindred_side_check_consistent(const kindred_side *side) {
    return capi::guarded([&] {
        capi::require_pointer(side, "side");
        const auto &bad = side->info.inconsistent();
        if (!bad.empty())
            fail(KINDRED_E_INFEASIBLE, "cannot-link (", bad[0].i, ", ", bad[0].j,
                 ") joins two points of one must-link component (", bad.size(), " such cannot-links in all)");
    });
}

}  // extern "C"

namespace kindred {
namespace capi {
const SideInfo *side_info(const kindred_side *side) { return side ? &side->info : nullptr; }
SideInfo *side_info(kindred_side *side) { return side ? &side->info : nullptr; }
}  // namespace capi
}  // namespace kindred
