#include "core/rank_totals.hpp"

#include <algorithm>
#include <cstring>

namespace kindred {

int64_t total_over_ranks(const Collective &ranks, int64_t mine) {
    if (ranks.single()) return mine;
    int64_t total = 0;
    for (const std::vector<char> &part : ranks.gather(&mine, sizeof mine)) {
        int64_t v = 0;
        std::memcpy(&v, part.data(), sizeof v);
        total += v;
    }
    return total;
}

double largest_over_ranks(const Collective &ranks, double mine) {
    if (ranks.single()) return mine;
    double largest = mine;
    for (const std::vector<char> &part : ranks.gather(&mine, sizeof mine)) {
        double v = 0.0;
        std::memcpy(&v, part.data(), sizeof v);
        largest = std::max(largest, v);
    }
    return largest;
}

}  // namespace kindred
