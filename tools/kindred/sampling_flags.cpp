#include "sampling_flags.hpp"

#include <cstdint>

#include "cli_error.hpp"

namespace kindred_cli {

const char *const kSamplingFlagsHelp =
    "  --pairs-rate R         sample a fraction R of all n(n-1)/2 pairs (as the RDP-means paper does)\n"
    "  --pairs-count N        or sample N distinct pairs\n"
    "  --triplets-count N     sample N triplets (may be combined with pairs)\n"
    "  --noise P              flip each sampled answer with probability P (default 0)\n";

SideSampling take_sampling_flags(Arguments &args) {
    SideSampling s;
    if (auto rate = args.take_double("pairs-rate", 0.0, 1.0)) s.pairs_rate = *rate;
    if (auto count = args.take_int("pairs-count", 0, INT64_MAX)) s.pairs_count = *count;
    if (s.pairs_rate >= 0 && s.pairs_count >= 0) usage_error("give --pairs-rate or --pairs-count, not both");
    if (auto count = args.take_int("triplets-count", 0, INT64_MAX)) s.triplets_count = *count;
    if (auto noise = args.take_double("noise", 0.0, 1.0)) {
        if (!s.any()) usage_error("--noise needs --pairs-rate, --pairs-count or --triplets-count");
        s.noise = *noise;
    }
    return s;
}

}  // namespace kindred_cli
