// Per cluster of the NIW likelihood, the quadratic form
//     r_j = (y_j - mu)^T Psi^{-1} (y_j - mu)
// of every point j, kept through the cluster's rank-one changes.
//
// A point joining or leaving changes the cluster by
//     mu' = mu + beta v,   Psi' = Psi + sigma v v^T,   v = x - mu
// (add: beta = 1/(kappa+1), sigma = kappa/(kappa+1); remove: beta = -1/(kappa-1),
// sigma = -kappa/(kappa-1); kappa before the change). With p = Psi^{-1} v,
// gamma = v^T p and t = p^T (y - mu), Sherman-Morrison gives the new form
//     r' = r - 2 beta t + beta^2 gamma - sigma (t - beta gamma)^2 / (1 + sigma gamma),
// so bringing r_j up to date costs one dot product p . y_j per change, O(d),
// where computing it afresh is a triangular solve, O(d^2). The sampler asks
// every cluster about every point once per sweep and a cluster changes a few
// times per sweep once the chain has settled, so most forms are updated, not
// solved. A form is solved afresh (by the caller) when it has never been, when
// more changes are pending than the log keeps, after reset() (the cluster was
// emptied, or a change was too ill-conditioned to apply), and on a schedule
// that bounds the rounding of long chains of updates (NiwGaussian::refresh).
#ifndef KINDRED_ALGORITHMS_TVCLUST_QUADRATIC_FORMS_HPP
#define KINDRED_ALGORITHMS_TVCLUST_QUADRATIC_FORMS_HPP

#include <cstdint>
#include <vector>

namespace kindred {
namespace tvclust {

class QuadraticForms {
public:
    // n points in d dimensions; the last `capacity` changes are kept.
    QuadraticForms(int64_t n, int64_t d, int64_t capacity);

    // Every form becomes stale (must be solved afresh).
    void reset();
    // Logs a change; the caller then fills p (d values) through the pointer.
    double *push_change(double beta, double sigma, double gamma, double pmu);
    // r_j brought up to date from its stored value (y: the centred point j);
    // false if it must be solved afresh instead.
    bool current(int64_t j, const double *y, double &r);
    // Stores a freshly solved r_j (valid for the cluster as it is now).
    void store(int64_t j, double r);

private:
    void renumber_if_needed();
    struct Change {
        double beta, sigma, gamma, pmu, inv_denominator;  // 1 / (1 + sigma gamma)
    };
    int64_t d_, capacity_;
    uint32_t now_ = 1;         // sequence number of the cluster's current state
    uint32_t valid_from_ = 1;  // forms stored before this state cannot be updated
    std::vector<double> r_;
    std::vector<uint32_t> seq_;  // state each r_j is for; 0: never solved
    std::vector<Change> log_;    // ring of the last capacity_ changes, by sequence number
    std::vector<double> p_;      // their p vectors, d each
};

}  // namespace tvclust
}  // namespace kindred

#endif
