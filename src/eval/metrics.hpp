// Agreement between two labelings, from their (sparse) contingency table:
// O(n) to build it, O(number of non-empty cells + k1 + k2) to score it.
#ifndef KINDRED_EVAL_METRICS_HPP
#define KINDRED_EVAL_METRICS_HPP

#include <cstdint>
#include <string>
#include <vector>

namespace kindred {
namespace eval {

struct Contingency {
    int64_t n = 0;
    std::vector<int64_t> row_sums;  // per class of `truth`
    std::vector<int64_t> col_sums;  // per cluster of `predicted`
    struct Cell {
        int64_t row, col, count;
    };
    std::vector<Cell> cells;  // the non-zero cells, sorted by (row, col)
    // Pair counts: pairs together in both, in truth, in predicted; all pairs.
    double pairs_both() const;
    double pairs_truth() const;
    double pairs_predicted() const;
    double pairs_all() const;
};

Contingency contingency(const int32_t *truth, const int32_t *predicted, int64_t n);

double mutual_information(const Contingency &c);  // nats
double nmi(const Contingency &c);                 // arithmetic-mean normalisation
double ari(const Contingency &c);
double pairwise_precision(const Contingency &c);
double pairwise_recall(const Contingency &c);
double pairwise_f_measure(const Contingency &c);
double purity(const Contingency &c);
double rand_index(const Contingency &c);

// The names kindred_metric() knows, in order.
const std::vector<std::string> &metric_names();
// Throw KINDRED_E_NOT_FOUND for an unknown name.
void require_metric(const std::string &name);
double metric_by_name(const std::string &name, const Contingency &c);

}  // namespace eval
}  // namespace kindred

#endif
