#include "active/pair_queries.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <utility>

#include "core/error.hpp"
#include "core/rng.hpp"

namespace kindred {
namespace active {
namespace {

enum class Placement { Joined, AllCannot, Unresolved, OutOfBudget };

constexpr int kNoBudget = 2;

class Session {
public:
    Session(const DataView &data, int64_t budget, uint64_t seed, const Oracle &oracle)
        : data_(data), budget_(budget), rng_(seed), oracle_(oracle), hood_of_(static_cast<size_t>(data.n()), -1),
          excluded_(static_cast<size_t>(data.n()), 0), row_(static_cast<size_t>(data.d())),
          x_sqnorm_(static_cast<size_t>(data.n())) {
        for (int64_t i = 0; i < data.n(); ++i) x_sqnorm_[i] = data.row_sqnorm(i);
    }

    Answers &answers() { return ans_; }
    Rng &rng() { return rng_; }
    bool budget_left() const { return ans_.queries < budget_; }
    int64_t hoods() const { return static_cast<int64_t>(members_.size()); }
    bool placed(int64_t x) const { return hood_of_[x] >= 0; }
    bool excluded(int64_t x) const { return excluded_[x] != 0; }
    void exclude(int64_t x) { excluded_[x] = 1; }

    // The oracle's answer about (i, j): asked at most once; kNoBudget when
    // the pair is new and the budget is spent.
    int ask(int64_t i, int64_t j) {
        const std::pair<int64_t, int64_t> key(std::min(i, j), std::max(i, j));
        const auto seen = asked_.find(key);
        if (seen != asked_.end()) return seen->second;
        if (!budget_left()) return kNoBudget;
        const int a = oracle_(key.first, key.second);
        ++ans_.queries;
        if (a != 1 && a != -1 && a != 0)
            fail(KINDRED_E_INVALID, "active selection: the oracle answered ", a, " for the pair (", key.first, ", ",
                 key.second, "); answers must be +1 (same), -1 (different) or 0 (don't know)");
        asked_.emplace(key, a);
        if (a == 0) ++ans_.dont_know;
        else record(key.first, key.second, a);
        return a;
    }

    void record(int64_t i, int64_t j, int value) {
        ans_.i.push_back(i);
        ans_.j.push_back(j);
        ans_.value.push_back(static_cast<double>(value));
    }

    void new_hood(int64_t x) {
        members_.emplace_back();
        sums_.emplace_back(static_cast<size_t>(data_.d()), 0.0);
        join(static_cast<int64_t>(members_.size()) - 1, x);
    }

    void join(int64_t p, int64_t x) {
        members_[p].push_back(x);
        data_.add_row(x, 1.0, sums_[p].data());
        hood_of_[x] = static_cast<int32_t>(p);
        ans_.neighbourhoods = hoods();
    }

    // Neighbourhoods by increasing |x - centroid|^2 (figure 3.5, step 2b).
    std::vector<int64_t> hoods_by_distance(int64_t x) const {
        std::vector<double> dist(members_.size());
        for (size_t p = 0; p < members_.size(); ++p) {
            const double c = static_cast<double>(members_[p].size());
            double cc = 0.0;
            for (double v : sums_[p]) cc += (v / c) * (v / c);
            dist[p] = x_sqnorm_[x] - 2.0 * data_.dot_row(x, sums_[p].data()) / c + cc;
        }
        std::vector<int64_t> order(members_.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return dist[a] < dist[b]; });
        return order;
    }

    // Query x against the neighbourhoods in order of distance until a
    // must-link. A don't-know moves on to another member of the same
    // neighbourhood. With infer_last (Consolidate, all K neighbourhoods
    // known), a point cannot-linked to all but one joins the last one
    // without a query, and that inferred must-link is recorded.
    Placement place(int64_t x, bool infer_last) {
        const std::vector<int64_t> order = hoods_by_distance(x);
        int64_t cannot = 0;
        bool unresolved = false;
        for (size_t idx = 0; idx < order.size(); ++idx) {
            const int64_t p = order[idx];
            if (infer_last && idx + 1 == order.size() && cannot == static_cast<int64_t>(order.size()) - 1) {
                record(std::min(x, members_[p][0]), std::max(x, members_[p][0]), 1);
                join(p, x);
                return Placement::Joined;
            }
            bool answered = false;
            for (size_t m = 0; m < members_[p].size() && !answered; ++m) {
                const int a = ask(x, members_[p][m]);
                if (a == kNoBudget) return Placement::OutOfBudget;
                if (a == 1) {
                    join(p, x);
                    return Placement::Joined;
                }
                if (a == -1) {
                    ++cannot;
                    answered = true;
                }
            }
            if (!answered) unresolved = true;
        }
        return unresolved ? Placement::Unresolved : Placement::AllCannot;
    }

    // Squared distance of every point to x, folded into the running minimum.
    void absorb(int64_t x, std::vector<double> &mind) {
        data_.copy_row(x, row_.data());
        double xx = 0.0;
        for (double v : row_) xx += v * v;
        for (int64_t i = 0; i < data_.n(); ++i)
            mind[i] = std::min(mind[i], std::max(0.0, x_sqnorm_[i] - 2.0 * data_.dot_row(i, row_.data()) + xx));
    }

private:
    const DataView &data_;
    int64_t budget_;
    Rng rng_;
    const Oracle &oracle_;
    Answers ans_;
    std::map<std::pair<int64_t, int64_t>, int> asked_;
    std::vector<std::vector<int64_t>> members_;
    std::vector<std::vector<double>> sums_;
    std::vector<int32_t> hood_of_;
    std::vector<char> excluded_;
    std::vector<double> row_, x_sqnorm_;
};

// Figure 3.4: farthest-first traversal; a point cannot-linked to every
// neighbourhood starts a new one. Stops at k neighbourhoods (k > 0), when the
// budget is spent, or when no point is left.
void explore(Session &s, int64_t n, int64_t k) {
    std::vector<double> mind(static_cast<size_t>(n), std::numeric_limits<double>::infinity());
    const int64_t first = s.rng().below(n);
    s.new_hood(first);
    s.absorb(first, mind);
    while ((k < 0 || s.hoods() < k) && s.budget_left()) {
        int64_t x = -1;
        for (int64_t i = 0; i < n; ++i)
            if (!s.placed(i) && !s.excluded(i) && (x < 0 || mind[i] > mind[x])) x = i;
        if (x < 0) break;
        const Placement r = s.place(x, false);
        if (r == Placement::OutOfBudget) break;
        if (r == Placement::AllCannot) s.new_hood(x);
        if (r == Placement::Unresolved) {
            s.exclude(x);
            continue;
        }
        s.absorb(x, mind);
    }
}

// Figure 3.5: random points, queried against the neighbourhoods nearest first.
void consolidate(Session &s, int64_t n) {
    std::vector<int64_t> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    s.rng().shuffle(order);
    for (int64_t x : order) {
        if (!s.budget_left()) break;
        if (s.placed(x) || s.excluded(x)) continue;
        const Placement r = s.place(x, true);
        if (r == Placement::OutOfBudget) break;
        // Cannot-linked to all K (a noisy oracle) or only don't-knows: leave x out.
        if (r != Placement::Joined) s.exclude(x);
    }
}

void random_pairs(Session &s, int64_t n) {
    const double all = 0.5 * static_cast<double>(n) * static_cast<double>(n - 1);
    int64_t tried = 0;
    while (s.budget_left() && static_cast<double>(s.answers().queries) < all && tried < 64 * (n + 1) + 64 * s.answers().queries) {
        const int64_t i = s.rng().below(n), j = s.rng().below(n);
        ++tried;
        if (i == j) continue;
        s.ask(i, j);
    }
}

}  // namespace

const OptionTable &options() {
    // Options hold doubles: 2^53 - 1 is the largest integer every value below which is exact.
    constexpr int64_t kMaxExact = 9007199254740991LL;
    static const OptionTable table = [] {
        OptionTable t;
        t.push_back(OptionSpec::choice("strategy", "explore-consolidate", "explore-consolidate|explore|random",
                                       "explore-consolidate (Basu et al. 3.4), explore only, or uniformly random pairs"));
        t.push_back(OptionSpec::integer("k", -1, -1, kMaxExact,
                                        "number of clusters, or -1 when unknown (then only Explore runs); not 0"));
        t.push_back(OptionSpec::integer("budget", 0, 0, kMaxExact, "maximum number of oracle calls"));
        t.push_back(OptionSpec::integer("seed", 0, 0, kMaxExact,
                                        "random seed (first point of Explore, order of Consolidate, random pairs)"));
        return t;
    }();
    return table;
}

Answers select_pairs(const OptionValues &settings, const DataView &data, const Oracle &oracle) {
    return select_pairs(settings.get_choice("strategy"), data, settings.get_int("k"), settings.get_int("budget"),
                        static_cast<uint64_t>(settings.get_int("seed")), oracle);
}

Answers select_pairs(const std::string &strategy, const DataView &data, int64_t k, int64_t budget, uint64_t seed,
                     const Oracle &oracle) {
    const int64_t n = data.n();
    const OptionSpec &strategies = *find_option(options(), "strategy");
    if (!strategies.is_choice(strategy))
        fail(KINDRED_E_NOT_FOUND, "active selection: unknown strategy '", strategy, "'; known: ", strategies.choices);
    if (k == 0 || k < -1) fail(KINDRED_E_INVALID, "active selection: k must be >= 1, or -1 when unknown; got ", k);
    if (k > n) fail(KINDRED_E_DIMENSION, "active selection: k = ", k, " is larger than the number of points n = ", n);
    if (budget < 0) fail(KINDRED_E_INVALID, "active selection: budget must be >= 0; got ", budget);
    Session s(data, budget, seed, oracle);
    if (n < 2 || budget == 0) return s.answers();
    if (strategy == "random") {
        random_pairs(s, n);
    } else {
        explore(s, n, strategy == "explore" ? -1 : k);
        if (strategy == "explore-consolidate" && k > 0 && s.hoods() >= k) consolidate(s, n);
    }
    return s.answers();
}

}  // namespace active
}  // namespace kindred
