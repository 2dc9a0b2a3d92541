// `kindred demo`: the bundled iris data clustered without side information
// (kmeans) and by a method that uses pairs, with pairs sampled from the true
// species. The pairs method is found in the registry, so the demo shows the
// best one the library has.
#include <algorithm>
#include <cstdio>
#include <iostream>

#include "bundled_data.hpp"
#include "cli_error.hpp"
#include "command.hpp"
#include "csv_reader.hpp"
#include "dataset.hpp"
#include "eval_protocol.hpp"
#include "options_from_registry.hpp"
#include "progress_line.hpp"

namespace kindred_cli {

namespace {

// The first algorithm that uses pairs, preferring the ones whose papers
// evaluate on iris with sampled pairs; "" when the library has none.
std::string pairs_algorithm() {
    const std::vector<std::string> names = algorithm_names();
    for (const char *preferred : {"mpckmeans", "pckmeans", "rdpmeans"})
        if (std::find(names.begin(), names.end(), preferred) != names.end() && (algorithm_uses(preferred) & KINDRED_USES_PAIRS))
            return preferred;
    for (const std::string &name : names)
        if (algorithm_uses(name) & KINDRED_USES_PAIRS) return name;
    return "";
}

std::string cell(const std::vector<double> &values) {
    const Stat s = stat_of(values);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f +- %.3f", s.mean, s.std);
    return buf;
}

void print_row(const Dataset &data, const std::string &algorithm, const SideSampling &sampling, int64_t repeats,
               const std::vector<Flag> &seed_flags, ProgressLine &progress) {
    EvalSettings settings;
    settings.algorithm = algorithm;
    settings.sampling = sampling;
    settings.repeats = repeats;
    settings.option_flags = seed_flags;
    char line[256];
    try {
        const EvalReport r = run_eval(data, settings, progress);
        std::string side = sampling.any() ? text(stat_of(r.pairs).mean, " pairs") : "none";
        if (sampling.any() && sampling.noise > 0) side += text(", noise ", sampling.noise);
        std::snprintf(line, sizeof line, "%-11s %-20s %-16s %-16s %-16s %5.1f\n", algorithm.c_str(), side.c_str(),
                      cell(r.nmi).c_str(), cell(r.ari).c_str(), cell(r.f_measure).c_str(), stat_of(r.clusters).mean);
        std::cout << line << std::flush;
    } catch (const CliError &e) {
        progress.clear();
        std::cout << algorithm << ": failed: " << e.what() << "\n";
    }
}

int run_demo(Arguments &args) {
    args.expect_positionals("demo", 0);
    const std::string path = args.take("data").value_or("");
    SideSampling sampling;
    sampling.pairs_count = args.take_int("pairs-count", 0, INT64_MAX).value_or(100);
    const double noise = args.take_double("noise", 0.0, 1.0).value_or(0.1);
    const int64_t repeats = args.take_int("repeats", 1, 100000).value_or(5);
    std::vector<Flag> seed_flags;
    if (auto seed = args.take("seed")) seed_flags.push_back(Flag{"seed", *seed});
    args.expect_nothing_else("demo", 0);

    DataRequest request;
    request.path = path;
    request.labels_required = true;
    const Dataset data = path.empty() ? parse_csv_data(kBundledIrisCsv, "iris (bundled)", "label", true) : load_dataset(request);

    const std::string constrained = pairs_algorithm();
    std::cout << "kindred demo: " << data.source << ", " << data.n << " points, " << data.d << " features, " << data.classes()
              << " classes\n"
              << "Scores against the true classes, mean +- std over " << repeats << " repeats (seeds "
              << (seed_flags.empty() ? "from 0" : "from " + seed_flags.front().value) << "); k = number of classes.\n"
              << "Pairs are sampled from the true classes (must-link if same class, cannot-link otherwise);\n"
              << "the last row flips a share of the answers, as a person sometimes answers wrongly.\n\n";
    std::printf("%-11s %-20s %-16s %-16s %-16s %s\n", "method", "side information", "NMI", "ARI", "F-measure", "clusters");
    std::fflush(stdout);

    ProgressLine progress;
    const SideSampling none;
    print_row(data, "kmeans", none, repeats, seed_flags, progress);
    if (!constrained.empty()) {
        print_row(data, constrained, none, repeats, seed_flags, progress);
        print_row(data, constrained, sampling, repeats, seed_flags, progress);
        // The same number of pairs with a share of wrong answers, as people give them.
        SideSampling noisy = sampling;
        noisy.noise = noise;
        if (noise > 0) print_row(data, constrained, noisy, repeats, seed_flags, progress);
        std::cout << "\nTry it on your data: kindred eval " << constrained << " --data X.csv --pairs-count "
                  << sampling.pairs_count << " --repeats " << repeats << "\n";
    } else {
        print_row(data, "dpmeans", none, repeats, seed_flags, progress);
        std::cout << "\nNo algorithm of this build uses pairs yet (mpckmeans, pckmeans, rdpmeans are planned);\n"
                     "kmeans is compared with dpmeans, both without side information.\n";
    }
    std::cout << "`kindred algorithms` lists every method; `kindred help eval` explains the protocol.\n";
    return 0;
}

}  // namespace

const Command &cmd_demo() {
    static const Command c{"demo", "kindred demo [--pairs-count N] [--noise P] [--repeats S] [--seed N] [--data X.csv]",
                           "a bundled data set (iris), clustered with and without sampled side information",
                           "  --pairs-count N        pairs sampled for the constrained method (default 100)\n"
                           "  --noise P              the last row flips each answer with probability P (default 0.1; 0: no such row)\n"
                           "  --repeats S            repeats with seeds seed, seed+1, ... (default 5)\n"
                           "  --seed N               first seed (default: the algorithms' default)\n"
                           "  --data FILE            another CSV with a `label` column instead of the bundled iris\n",
                           run_demo};
    return c;
}

}  // namespace kindred_cli
