// Multinomial likelihood for counts with the conjugate symmetric Dirichlet
// base measure G0 = Dir(beta, ..., beta) (Khashabi et al. section 3.1: "the
// multinomial distribution ... the base measure is often chosen to be a
// Dirichlet distribution"), collapsed. With c_k the summed counts of cluster
// k, C_k their total, D the dimension and N_i = sum_j x_ij:
//   log p(x_i | k) = lgamma(D beta + C_k) - lgamma(D beta + C_k + N_i)
//                    + sum_{j: x_ij > 0} [lgamma(beta + c_kj + x_ij) - lgamma(beta + c_kj)]
//   log p(X_k)     = lgamma(D beta) - lgamma(D beta + C_k) + sum_j [lgamma(beta + c_kj) - lgamma(beta)]
// Both leave out the multinomial coefficient prod_i N_i! / prod_j x_ij!, a
// constant of the data that cancels between clusters and partitions. A
// predictive costs O(non-zeros of x_i): the sampler works on CSR counts as
// well as on dense ones (a dense input is compressed once).
#ifndef KINDRED_ALGORITHMS_TVCLUST_DIRICHLET_MULTINOMIAL_HPP
#define KINDRED_ALGORITHMS_TVCLUST_DIRICHLET_MULTINOMIAL_HPP

#include <cstdint>
#include <vector>

#include "algorithms/tvclust/cluster_likelihood.hpp"
#include "core/data_view.hpp"

namespace kindred {
namespace tvclust {

class DirichletMultinomial final : public ClusterLikelihood {
public:
    // Throws KINDRED_E_INVALID on a negative count (naming row and column) or beta <= 0.
    DirichletMultinomial(const DataView &data, double beta);

    void reserve_slots(int64_t count) override;
    void add(int64_t slot, int64_t i) override;
    void remove(int64_t slot, int64_t i) override;
    double log_predictive(int64_t slot, int64_t i) override;
    double log_predictive_without(int64_t slot, int64_t i) override;
    double log_marginal(int64_t slot) const override;
    // (1, N_i, x_i): the count of points, their total and summed counts.
    int64_t stats_width() const override { return 2 + d_; }
    void add_stats(int64_t i, double *out) override;
    void load_stats(int64_t slot, const double *stats) override;

private:
    void move(int64_t slot, int64_t i, double sign);
    struct Slot;
    double predictive(const Slot *s, double total, int64_t i, double own) const;

    int64_t d_;
    double beta_;
    std::vector<int64_t> indptr_, index_;
    std::vector<double> value_, row_total_;
    struct Slot {
        int64_t n = 0;
        double total = 0;
        std::vector<double> counts;
    };
    std::vector<Slot> slots_;
};

}  // namespace tvclust
}  // namespace kindred

#endif
