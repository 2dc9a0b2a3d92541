#include "active_oracle.hpp"

#include <algorithm>

#include "cli_error.hpp"

namespace kindred_cli {

namespace {

// The "strategy" entry of the library's table of active-selection options.
void strategy_option(const char **range, const char **default_value) {
    int64_t count = 0;
    check(kindred_active_option_count(&count), "active-selection options");
    for (int64_t k = 0; k < count; ++k) {
        const char *name = nullptr;
        check(kindred_active_option_info(k, &name, nullptr, default_value, range, nullptr), "active-selection options");
        if (std::string(name) == "strategy") return;
    }
    runtime_error("the library has no active-selection option 'strategy'");
}

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

std::string active_strategies() {
    const char *range = nullptr, *def = nullptr;
    strategy_option(&range, &def);
    return range;
}

std::string default_active_strategy() {
    const char *range = nullptr, *def = nullptr;
    strategy_option(&range, &def);
    return def;
}

bool is_active_strategy(const std::string &word) {
    const std::string list = "|" + active_strategies() + "|";
    return !word.empty() && word.find('|') == std::string::npos && list.find("|" + word + "|") != std::string::npos;
}

std::string active_strategies_help() {
    const std::string list = active_strategies(), def = default_active_strategy();
    std::string text;
    size_t begin = 0;
    while (begin <= list.size()) {
        const size_t end = std::min(list.find('|', begin), list.size());
        const std::string word = list.substr(begin, end - begin);
        if (!text.empty()) text += end == list.size() ? " or " : ", ";
        text += word + (word == def ? " (default)" : "");
        begin = end + 1;
    }
    return text;
}

ActiveOptionsPtr active_options(const std::string &strategy, int64_t k, int64_t budget, uint64_t seed) {
    kindred_active_options *raw = nullptr;
    check(kindred_active_options_new(&raw), "active selection");
    ActiveOptionsPtr options(raw);
    check(kindred_active_options_set_string(raw, "strategy", strategy.c_str()), "active selection: strategy");
    check(kindred_active_options_set_int(raw, "k", k), "active selection: k");
    check(kindred_active_options_set_int(raw, "budget", budget), "active selection: budget");
    check(kindred_active_options_set_int(raw, "seed", static_cast<int64_t>(seed)), "active selection: seed");
    return options;
}

ActiveOutcome select_pairs_from_labels(kindred_side *side, const Dataset &data, const std::vector<int32_t> &labels,
                                       const ActiveQuery &query) {
    if (data.sparse)
        usage_error("active selection needs dense (CSV) data; ", data.source, " is sparse");
    LabelOracle oracle{&labels, query.noise, query.seed ^ 0xA5A5A5A5ULL, ActiveOutcome{}};
    const ActiveOptionsPtr options = active_options(query.strategy, query.k, query.budget, query.seed);
    check(kindred_active_select(options.get(), data.dense.data(), data.n, data.d, KINDRED_ROW_MAJOR, data.d, answer,
                                &oracle, side),
          "active selection (" + query.strategy + ") on " + data.source);
    return oracle.outcome;
}

}  // namespace kindred_cli
