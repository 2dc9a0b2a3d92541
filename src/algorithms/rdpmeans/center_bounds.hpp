// Distance bounds that let an RDP-means pass skip the divergences of points
// that provably keep their clusters (squared Euclidean divergence only: the
// bounds rest on the triangle inequality, as in Hamerly's accelerated
// k-means). Per point i, with a its cluster:
//     upper_i >= |x_i - c_a|,     lower_i <= min_{k != a} |x_i - c_k|,
// over the centres c of the coming pass. A pass that computed point i's row
// sets them from it (set_from_row); after the centres move, each centre's
// shift widens them (drift): upper_i += |mu_a - c_a|, lower_i -= the largest
// shift (Euclidean distances, not squared).
//
// Point i keeps a in the coming pass, whatever its link terms, when
//     lower_i^2 - upper_i^2 > xi S_i + eps    and    upper_i^2 + xi S_i < lambda - eps
// (S_i: LinkCountCache::link_bound, the bound on |g_ia| + |g_ik|): then every
// other cluster's augmented distance exceeds a's, and a's stays below lambda,
// so no cluster is opened. eps = 1e-9 (|x_i|^2 + max_k |c_k|^2 + xi S_i +
// lambda) covers the rounding of the divergences the full pass would compute
// (|x|^2 + |c|^2 - 2 x.c, whose error scales with |x|^2 + |c|^2, not with the
// divergence) and of the bounds themselves, with orders of magnitude to
// spare. A centre opened during a pass is not covered by the bounds, so a
// pass skips nothing after it, and the bounds stay invalid until a pass
// computes every row without opening one.
#ifndef KINDRED_ALGORITHMS_RDPMEANS_CENTER_BOUNDS_HPP
#define KINDRED_ALGORITHMS_RDPMEANS_CENTER_BOUNDS_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kindred {

class CenterBounds {
public:
    explicit CenterBounds(int64_t n) : upper_(static_cast<size_t>(n), 0.0), lower_(static_cast<size_t>(n), 0.0) {}

    bool valid() const { return valid_; }
    void invalidate() { valid_ = false; }
    // The bounds of every point were set by the last pass, and no centre was
    // opened in it: valid once the drift of its centre update is applied.
    void validate() { valid_ = true; }

    // Whether point i keeps its cluster in the coming pass (see the top).
    // x_sq: |x_i|^2; c_sq_max: the largest |c_k|^2 of the pass; t = xi S_i.
    bool keeps(int64_t i, double x_sq, double c_sq_max, double t, double lambda) const {
        const double u2 = upper_[i] * upper_[i], l2 = lower_[i] * lower_[i];
        const double eps = 1e-9 * (x_sq + c_sq_max + t + lambda);
        return l2 - u2 > t + eps && u2 + t < lambda - eps;
    }
    // From point i's row of squared distances to the k0 centres of the pass,
    // after it chose cluster a (a >= k0: a centre opened at x_i, at distance
    // 0). The row is read (its entry a changed and put back).
    void set_from_row(int64_t i, double *row, int64_t k0, int64_t a);
    double upper(int64_t i) const { return upper_[i]; }
    double lower(int64_t i) const { return lower_[i]; }
    // The centres moved: shift[k] = |mu_k - c_k| for the clusters after the
    // update (labels already renamed), largest = the largest of them.
    void drift(const int32_t *labels, const std::vector<double> &shift, double largest);

private:
    std::vector<double> upper_, lower_;
    bool valid_ = false;
};

}  // namespace kindred

#endif
