// `kindred sample --data X.csv --pairs-count N --seed S --out P.csv`: side
// information drawn from the label column, written as a pairs (or triplets) file.
#include <iostream>

#include "cli_error.hpp"
#include "command.hpp"
#include "dataset.hpp"
#include "handles.hpp"
#include "sampling_flags.hpp"
#include "side_files.hpp"

namespace kindred_cli {

namespace {

int run_sample(Arguments &args) {
    args.expect_positionals("sample", 0);
    const DataRequest request = take_data_flags(args, "sample", true);
    const SideSampling s = take_sampling_flags(args);
    const uint64_t seed = static_cast<uint64_t>(args.take_int("seed", 0, INT64_MAX).value_or(0));
    const std::string out_path = args.take("out").value_or("-");
    args.expect_nothing_else("sample", 0);
    const bool pairs = s.pairs_count >= 0 || s.pairs_rate >= 0;
    if (!pairs && s.triplets_count < 0) usage_error("sample needs --pairs-count N, --pairs-rate R or --triplets-count N");
    if (pairs && s.triplets_count >= 0) usage_error("sample writes one kind at a time: pairs or triplets, not both");

    const Dataset data = load_dataset(request);
    SidePtr side = new_side(data.n);
    if (pairs) {
        check(kindred_sample_pairs(side.get(), data.labels.data(), data.n, s.pairs_count, s.pairs_count >= 0 ? 0.0 : s.pairs_rate,
                                   s.noise, seed),
              "sampling pairs from " + data.source);
        write_pairs_csv(out_path, side.get(), &data);
    } else {
        check(kindred_sample_triplets(side.get(), data.labels.data(), data.n, s.triplets_count, s.noise, seed),
              "sampling triplets from " + data.source);
        write_triplets_csv(out_path, side.get(), &data);
    }
    if (out_path != "-") {
        int64_t count_pairs = 0, count_triplets = 0;
        check(kindred_side_counts(side.get(), nullptr, &count_pairs, &count_triplets, nullptr), "side information");
        std::cout << (pairs ? count_pairs : count_triplets) << (pairs ? " pairs" : " triplets") << " written to " << out_path << "\n";
    }
    return 0;
}

}  // namespace

const Command &cmd_sample() {
    static const std::string details =
        std::string(kDataFlagsHelp) + kSamplingFlagsHelp +
        "  --seed S               random seed (default 0); equal seeds give equal samples\n"
        "  --out FILE             where to write CSV i,j,value (pairs: +1 same class, -1 different) or\n"
        "                         a,b,c,answer (triplets); default: standard output\n";
    static const Command c{"sample",
                           "kindred sample --data X.csv --pairs-count N | --pairs-rate R | --triplets-count N [--noise P] --seed S --out P.csv",
                           "draw pairs (or triplets) from the label column into a side-information file", details.c_str(),
                           run_sample};
    return c;
}

}  // namespace kindred_cli
