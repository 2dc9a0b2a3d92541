#include "active_oracle.hpp"

#include "cli_error.hpp"

namespace kindred_cli {

const char *const kActiveStrategies = "explore-consolidate|explore|random";

namespace {

struct LabelOracle {
    const std::vector<int32_t> *labels;
    double noise;
    uint64_t seed;
    ActiveOutcome outcome;
};

// A hash of (seed, i, j) in [0, 1): the same pair always gets the same flip.
double pair_uniform(uint64_t seed, int64_t i, int64_t j) {
    uint64_t z = seed ^ (static_cast<uint64_t>(i) * 0x9E3779B97F4A7C15ULL) ^ (static_cast<uint64_t>(j) * 0xC2B2AE3D27D4EB4FULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) * (1.0 / 9007199254740992.0);
}

int answer(void *user, int64_t i, int64_t j) {
    LabelOracle *o = static_cast<LabelOracle *>(user);
    ++o->outcome.queries;
    const int32_t a = (*o->labels)[i], b = (*o->labels)[j];
    if (a < 0 || b < 0) {
        ++o->outcome.dont_know;
        return 0;
    }
    int same = a == b ? 1 : -1;
    if (o->noise > 0 && pair_uniform(o->seed, i, j) < o->noise) same = -same;
    ++(same > 0 ? o->outcome.must : o->outcome.cannot);
    return same;
}

}  // namespace

ActiveOutcome select_pairs_from_labels(kindred_side *side, const Dataset &data, const std::vector<int32_t> &labels,
                                       const ActiveQuery &query) {
    if (data.sparse)
        usage_error("active selection needs dense (CSV) data; ", data.source, " is sparse");
    LabelOracle oracle{&labels, query.noise, query.seed ^ 0xA5A5A5A5ULL, ActiveOutcome{}};
    check(kindred_active_select(query.strategy.c_str(), data.dense.data(), data.n, data.d, KINDRED_ROW_MAJOR, data.d,
                                query.k, query.budget, query.seed, answer, &oracle, side),
          "active selection (" + query.strategy + ") on " + data.source);
    return oracle.outcome;
}

}  // namespace kindred_cli
