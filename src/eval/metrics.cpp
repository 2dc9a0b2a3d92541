#include "eval/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "core/error.hpp"

namespace kindred {
namespace eval {
namespace {

// Compact ids 0..k-1 in order of first appearance.
std::vector<int64_t> compact(const int32_t *labels, int64_t n, int64_t &k) {
    std::unordered_map<int32_t, int64_t> id;
    std::vector<int64_t> out(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
        auto it = id.find(labels[i]);
        if (it == id.end()) it = id.emplace(labels[i], static_cast<int64_t>(id.size())).first;
        out[i] = it->second;
    }
    k = static_cast<int64_t>(id.size());
    return out;
}

double choose2(double x) { return x * (x - 1.0) / 2.0; }

double entropy(const std::vector<int64_t> &sums, double n) {
    double h = 0.0;
    for (int64_t s : sums)
        if (s > 0) h -= (s / n) * std::log(s / n);
    return h;
}

}  // namespace

Contingency contingency(const int32_t *truth, const int32_t *predicted, int64_t n) {
    Contingency c;
    c.n = n;
    int64_t k1 = 0, k2 = 0;
    const std::vector<int64_t> a = compact(truth, n, k1);
    const std::vector<int64_t> b = compact(predicted, n, k2);
    c.row_sums.assign(k1, 0);
    c.col_sums.assign(k2, 0);
    std::unordered_map<int64_t, int64_t> cell;
    for (int64_t i = 0; i < n; ++i) {
        ++c.row_sums[a[i]];
        ++c.col_sums[b[i]];
        ++cell[a[i] * k2 + b[i]];
    }
    c.cells.reserve(cell.size());
    for (const auto &kv : cell) c.cells.push_back({kv.first / k2, kv.first % k2, kv.second});
    // A fixed order, so that sums do not depend on the hash table's.
    std::sort(c.cells.begin(), c.cells.end(), [](const Contingency::Cell &x, const Contingency::Cell &y) {
        return x.row != y.row ? x.row < y.row : x.col < y.col;
    });
    return c;
}

double Contingency::pairs_both() const {
    double s = 0.0;
    for (const Cell &v : cells) s += choose2(static_cast<double>(v.count));
    return s;
}
double Contingency::pairs_truth() const {
    double s = 0.0;
    for (int64_t v : row_sums) s += choose2(static_cast<double>(v));
    return s;
}
double Contingency::pairs_predicted() const {
    double s = 0.0;
    for (int64_t v : col_sums) s += choose2(static_cast<double>(v));
    return s;
}
double Contingency::pairs_all() const { return choose2(static_cast<double>(n)); }

double mutual_information(const Contingency &c) {
    // MI = sum_ij (n_ij / n) log(n n_ij / (a_i b_j)).
    const double n = static_cast<double>(c.n);
    double mi = 0.0;
    for (const auto &v : c.cells) {
        const double nij = static_cast<double>(v.count);
        mi += (nij / n) * (std::log(nij) + std::log(n) - std::log(static_cast<double>(c.row_sums[v.row])) -
                           std::log(static_cast<double>(c.col_sums[v.col])));
    }
    return std::max(0.0, mi);
}

double nmi(const Contingency &c) {
    const double n = static_cast<double>(c.n);
    const double h1 = entropy(c.row_sums, n), h2 = entropy(c.col_sums, n);
    if (c.row_sums.size() == c.col_sums.size() && (c.row_sums.size() == 1 || c.row_sums.size() == static_cast<size_t>(c.n)))
        return 1.0;  // both trivial in the same way: perfect agreement
    const double norm = 0.5 * (h1 + h2);
    if (norm <= 0.0) return 1.0;
    return std::min(1.0, mutual_information(c) / norm);
}

double ari(const Contingency &c) {
    // Pair-confusion form: tp, fp, fn, tn over unordered pairs.
    const double tp = c.pairs_both();
    const double fp = c.pairs_predicted() - tp;
    const double fn = c.pairs_truth() - tp;
    const double tn = c.pairs_all() - tp - fp - fn;
    if (fn == 0.0 && fp == 0.0) return 1.0;
    return 2.0 * (tp * tn - fn * fp) / ((tp + fn) * (fn + tn) + (tp + fp) * (fp + tn));
}

double pairwise_precision(const Contingency &c) {
    const double pred = c.pairs_predicted();
    return pred > 0.0 ? c.pairs_both() / pred : (c.pairs_truth() > 0.0 ? 0.0 : 1.0);
}

double pairwise_recall(const Contingency &c) {
    const double truth = c.pairs_truth();
    return truth > 0.0 ? c.pairs_both() / truth : (c.pairs_predicted() > 0.0 ? 0.0 : 1.0);
}

double pairwise_f_measure(const Contingency &c) {
    const double p = pairwise_precision(c), r = pairwise_recall(c);
    return p + r > 0.0 ? 2.0 * p * r / (p + r) : 0.0;
}

double purity(const Contingency &c) {
    // Each predicted cluster counts the points of its majority class.
    std::vector<int64_t> best(c.col_sums.size(), 0);
    for (const auto &v : c.cells) best[v.col] = std::max(best[v.col], v.count);
    int64_t s = 0;
    for (int64_t b : best) s += b;
    return static_cast<double>(s) / static_cast<double>(c.n);
}

double rand_index(const Contingency &c) {
    const double all = c.pairs_all();
    if (all == 0.0) return 1.0;
    const double tp = c.pairs_both();
    const double tn = all - c.pairs_truth() - c.pairs_predicted() + tp;
    return (tp + tn) / all;
}

const std::vector<std::string> &metric_names() {
    static const std::vector<std::string> names = {"nmi", "ari", "f-measure", "precision", "recall", "purity", "rand", "mi"};
    return names;
}

void require_metric(const std::string &name) {
    for (const auto &m : metric_names())
        if (m == name) return;
    std::string names;
    for (const auto &m : metric_names()) names += (names.empty() ? "" : ", ") + m;
    fail(KINDRED_E_NOT_FOUND, "unknown metric '", name, "'; known: ", names);
}

double metric_by_name(const std::string &name, const Contingency &c) {
    require_metric(name);
    if (name == "nmi") return nmi(c);
    if (name == "ari") return ari(c);
    if (name == "f-measure") return pairwise_f_measure(c);
    if (name == "precision") return pairwise_precision(c);
    if (name == "recall") return pairwise_recall(c);
    if (name == "purity") return purity(c);
    if (name == "rand") return rand_index(c);
    return mutual_information(c);  // "mi", the last name
}

}  // namespace eval
}  // namespace kindred
