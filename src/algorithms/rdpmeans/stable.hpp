// Passes of RDP-means (Khashabi et al., Algorithm 1) that provably change
// nothing. The paper's stopping rule asks for stable_iterations (20) passes
// in a row in which no assignment changes, while xi keeps growing
// (section 4.5). After a pass in which nothing moved, the centres (means of
// unchanged clusters) and every point's link terms g_ik are the same in the
// next pass; only xi differs. Point i's augmented distances are then linear
// in xi:
//     a_k(xi') = D_ik + xi' g_ik,
// and its cluster l stays the first minimum, and below lambda, for every
// xi' in [xi, xi + delta] as long as every gap
//     a_k(xi') - a_l(xi') = (a_k - a_l) + (xi' - xi) (g_k - g_l),  k != l,
// and lambda - a_l(xi') stays positive. A StableCertificate gathers these
// bounds over all points of such a pass: while xi stays within it, the next
// passes would reproduce the last one exactly, and need not be computed.
//
// Rounding: each gap must exceed 1e-12 (|D_k| + |D_l| + xi' (|g_k| + |g_l|)),
// ten thousand times the rounding error of the pass's own sums, so that the
// computed comparisons of a repeat agree with the exact ones; a gap that does
// not (a tie, say) leaves no certificate.
#ifndef KINDRED_ALGORITHMS_RDPMEANS_STABLE_HPP
#define KINDRED_ALGORITHMS_RDPMEANS_STABLE_HPP

#include <cstdint>
#include <limits>

#include "algorithms/rdpmeans/link_count_cache.hpp"

namespace kindred {

class StableCertificate {
public:
    // The largest delta (>= 0, possibly infinite) for which the bounds hold,
    // or < 0 when some gap is not positive. One division, at the end.
    double delta() const { return failed_ ? -kInf : has_bound_ ? p_ / q_ : kInf; }
    // One competitor of a point's cluster l at this xi: the gap a_k - a_l, its
    // slope g_k - g_l in xi, and the magnitudes |D_k| + |D_l| and
    // |g_k| + |g_l| for the margin. (Opening a cluster: gap lambda - a_l,
    // slope -g_l.)
    void bound(double gap, double slope, double size, double slope_size, double xi) {
        const double p = gap - kMargin * (size + xi * slope_size);
        const double q = kMargin * slope_size - slope;  // the gap shrinks by q per unit of xi
        if (!(p > 0.0)) failed_ = true;
        else if (q > 0.0 && (!has_bound_ || p * q_ < p_ * q)) {  // p / q < p_ / q_
            p_ = p;
            q_ = q;
            has_bound_ = true;
        }
    }

private:
    static constexpr double kMargin = 1e-12;
    static constexpr double kInf = std::numeric_limits<double>::infinity();
    bool failed_ = false, has_bound_ = false;
    double p_ = 0.0, q_ = 1.0;
};

// The bounds of one point assigned to l, whose augmented distance a_l <=
// lambda: row holds its augmented distances to the k0 centres (D plus xi g
// at the slots' clusters; saved[p] is the divergence under slot p). row is
// used as scratch and left as it was found.
void certify_point(const LinkCountCache::Slots &slots, const double *saved, double *row, int64_t k0, int64_t l,
                   double a_l, double lambda, double xi, StableCertificate &cert);

}  // namespace kindred

#endif
