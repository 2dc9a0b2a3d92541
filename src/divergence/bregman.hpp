// Bregman divergences D_phi(x, mu) for the k-means-type methods (Banerjee et
// al. 2005, "Clustering with Bregman divergences", Table 1; used by RDP-means,
// Khashabi et al. section 4.1). Every Bregman divergence shares the two facts
// these methods need: the best representative of a set of points is their
// arithmetic mean (in the divergence's mean space), and point-to-centre
// divergences of a block of points are one matrix product plus per-row and
// per-centre terms. So one interface serves k-means, DP-means and RDP-means:
//
//   "euclidean"  phi(x) = |x|^2           D = |x - mu|^2 (dense or CSR)
//   "kl"         multinomial: x is a row of counts, mapped to the probability
//                vector x~ = (x + s) / (sum(x) + d s) (Laplace smoothing s,
//                0.3 by default as in the paper's section 5.3);
//                D = KL(x~ || mu) = sum_j x~_j log(x~_j / mu_j)
//   "idiv"       Poisson / generalised I-divergence on x~ = x + s (no
//                normalisation): D = sum_j x~_j log(x~_j / mu_j) - x~_j + mu_j
//
// The smoothed rows are never materialised: for CSR counts a row's terms are
// computed from its non-zeros plus closed forms for the zeros, so the cost is
// O(nnz k) per pass, as for the Euclidean case.
//
// The view is borrowed: a Bregman object lives for one fit.
#ifndef KINDRED_DIVERGENCE_BREGMAN_HPP
#define KINDRED_DIVERGENCE_BREGMAN_HPP

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/collective.hpp"
#include "core/data_view.hpp"

namespace kindred {
namespace divergence {

// The names accepted by make_bregman(), as an option's choice list.
extern const char *const kBregmanChoices;  // "euclidean|kl|idiv"

class Bregman {
public:
    virtual ~Bregman() = default;
    const DataView &data() const { return data_; }
    int64_t d() const { return data_.d(); }

    // out[(i - begin) * k + c] = D(x_i, mu_c) for i in [begin, end); centres
    // are k rows of d values (row-major) in the mean space. Uses the object's
    // scratch: not safe to call from two threads at once.
    virtual void distances(int64_t begin, int64_t end, const double *centers, int64_t k, double *out) = 0;
    // distances() in two steps, for a caller that reads every row once
    // anyway and finishes it there (RDP-means's bound test): where the
    // divergence allows it, out gets the raw rows of linalg::minus_two_cross
    // and terms what linalg::finish_sq_row needs to make them the values of
    // distances(), bit for bit (terms.row indexed by point, terms.center by
    // centre); elsewhere out gets distances() and terms.row is null.
    struct FinishTerms {
        const double *row = nullptr;
        std::vector<double> center;
    };
    virtual void raw_distances(int64_t begin, int64_t end, const double *centers, int64_t k, double *out,
                               FinishTerms &terms) {
        distances(begin, end, centers, k, out);
        terms.row = nullptr;
    }
    // D(x_i, mu) for one centre.
    virtual double distance(int64_t i, const double *center) const = 0;
    // sum_i D(x_i, mu_{labels[i]}) over all points (labels in [0, k)), with the
    // per-centre terms computed once: O(n d) dense, O(nnz + n) CSR.
    virtual double total_divergence(const int32_t *labels, const double *centers, int64_t k) const = 0;
    // D(a, b) between two vectors of the mean space (centres). With it, the
    // divergences of a cluster's points to its mean mu follow from those to
    // any other centre c (Banerjee et al. 2005, Proposition 1):
    //     sum_i D(x_i, c) = sum_i D(x_i, mu) + n D(mu, c).
    virtual double center_divergence(const double *a, const double *b) const = 0;
    // The point x_i in the mean space (the centre of a cluster holding only x_i).
    virtual void point(int64_t i, double *out) const = 0;
    // centres (k x d) = mean of the mapped points of each label in [0, k);
    // counts[c] = their number (a centre of an empty cluster is left 0).
    // Chunked with fixed boundaries (Collective::kChunk rows): identical for
    // any number of threads, and with ranks (those of a sharded fit, whose
    // rows data holds; null: one process) for any split. Collective.
    void cluster_means(const int32_t *labels, int64_t k, int threads, std::vector<double> &centers,
                       std::vector<int64_t> &counts, const Collective *ranks = nullptr) const;
    // sums (k x d) = sum of the mapped points of each label (point()), so
    // that sums[c] / counts[c] is cluster_means' centre, bit for bit. Chunked
    // as cluster_means.
    virtual void cluster_sums(const int32_t *labels, int64_t k, int threads, std::vector<double> &sums,
                              std::vector<int64_t> &counts, const Collective *ranks = nullptr) const = 0;

protected:
    explicit Bregman(const DataView &data) : data_(data) {}
    const DataView &data_;
};

// centres (k x d) = sums[c] / counts[c] for the clusters with points (0
// for the others): the division of Bregman::cluster_means, for callers that
// keep the sums themselves.
void means_from_sums(const std::vector<double> &sums, const std::vector<int64_t> &counts, int64_t d,
                     std::vector<double> &centers);

// name: "euclidean", "kl" or "idiv"; smoothing: Laplace smoothing for kl and
// idiv (> 0). Throws KINDRED_E_INVALID for an unknown name, a smoothing <= 0,
// or (kl, idiv) a negative entry, naming row and column.
std::unique_ptr<Bregman> make_bregman(const std::string &name, const DataView &data, double smoothing);

// The k-th farthest-first heuristic of Kulis & Jordan under divergence D:
// first centre the mean of all points, each next one the point farthest (in D)
// from the centres so far; returns the divergence at which the k-th centre
// was picked. For "euclidean" it equals kindred::farthest_first_lambda.
double farthest_first_lambda(Bregman &div, int64_t k);

}  // namespace divergence
}  // namespace kindred

#endif
