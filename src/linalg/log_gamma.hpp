// log |Gamma(x)| without touching global state. std::lgamma (C's lgamma)
// stores the sign of Gamma(x) in the global `signgam`, so two fits on two
// threads (or the ranks of a sharded fit run as threads) race on it: a data
// race by the C++ memory model, which ThreadSanitizer reports. lgamma_r
// returns the sign through a local instead; every caller here wants
// log |Gamma| only.
#ifndef KINDRED_LINALG_LOG_GAMMA_HPP
#define KINDRED_LINALG_LOG_GAMMA_HPP

#include <cmath>

namespace kindred {

inline double log_gamma(double x) {
#if defined(__GLIBC__) || defined(__APPLE__) || defined(__FreeBSD__)
    int sign = 0;
    return ::lgamma_r(x, &sign);
#else
    return std::lgamma(x);  // C runtimes without lgamma_r keep the sign per thread or not at all
#endif
}

}  // namespace kindred

#endif
