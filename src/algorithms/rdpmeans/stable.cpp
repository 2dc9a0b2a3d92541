#include "algorithms/rdpmeans/stable.hpp"

#include <cmath>

namespace kindred {

void certify_point(const LinkCountCache::Slots &slots, const double *saved, double *row, int64_t k0, int64_t l,
                   double a_l, double lambda, double xi, StableCertificate &cert) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    double g_l = 0.0, d_l = row[l];  // l's link term and divergence
    for (int64_t p = 0; p < slots.size; ++p)
        if (slots.cluster(p) == l) {
            g_l = slots.term(p);
            d_l = saved[p];
        }
    d_l = std::fabs(d_l);
    const double s_l = std::fabs(g_l);
    // Opening a cluster: lambda - a_l(xi') = (lambda - a_l) - (xi' - xi) g_l.
    cert.bound(lambda - a_l, -g_l, d_l + std::fabs(lambda), s_l, xi);
    // The clusters with link terms: a_k is in the row.
    for (int64_t p = 0; p < slots.size; ++p) {
        const int64_t k = slots.cluster(p);
        if (k == l) continue;
        const double g_k = slots.term(p);
        cert.bound(row[k] - a_l, g_k - g_l, std::fabs(saved[p]) + d_l, std::fabs(g_k) + s_l, xi);
    }
    // The others (g_k = 0): every bound grows with D_k, so the smallest D_k
    // decides; it is found with l and the linked clusters masked.
    const double kept_l = row[l];
    row[l] = kInf;
    for (int64_t p = 0; p < slots.size; ++p) row[slots.cluster(p)] = kInf;
    double nearest = kInf;
    for (int64_t c = 0; c < k0; ++c) nearest = row[c] < nearest ? row[c] : nearest;
    for (int64_t p = 0; p < slots.size; ++p) {
        const int64_t k = slots.cluster(p);
        row[k] = saved[p] + xi * slots.term(p);  // as the pass computed it
    }
    row[l] = kept_l;
    if (nearest < kInf) cert.bound(nearest - a_l, -g_l, std::fabs(nearest) + d_l, s_l, xi);
}

}  // namespace kindred
