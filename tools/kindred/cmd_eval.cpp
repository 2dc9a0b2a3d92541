// `kindred eval ALGORITHM --data X.csv ...`: sample side information from the
// label column, fit, and report NMI / ARI / F-measure / seconds / clusters
// as mean and std over repeats.
#include <cstdio>
#include <iostream>

#include "active_oracle.hpp"
#include "cli_error.hpp"
#include "command.hpp"
#include "csv_fields.hpp"
#include "dataset.hpp"
#include "eval_curve.hpp"
#include "eval_protocol.hpp"
#include "json_writer.hpp"
#include "options_from_registry.hpp"
#include "progress_line.hpp"
#include "sampling_flags.hpp"

namespace kindred_cli {

namespace {

JsonObject stat_json(const std::vector<double> &values) {
    const Stat s = stat_of(values);
    JsonObject o;
    o.add("mean", s.mean).add("std", s.std).add("values", values);
    return o;
}

std::string row(const char *name, const std::vector<double> &values, const char *format) {
    const Stat s = stat_of(values);
    char buf[128];
    std::snprintf(buf, sizeof buf, format, name, s.mean, s.std);
    return buf;
}

int run_eval_command(Arguments &args) {
    if (wants_curve(args)) return run_eval_curve(args);
    if (args.positionals().empty()) usage_error("eval needs an algorithm: kindred eval ALGORITHM --data X.csv (see `kindred algorithms`)");
    EvalSettings settings;
    settings.algorithm = args.positionals().front();
    require_algorithm(settings.algorithm);
    args.expect_positionals("eval", 1);

    const DataRequest request = take_data_flags(args, "eval", true);
    settings.sampling = take_sampling_flags(args);
    settings.repeats = args.take_int("repeats", 1, 1000000).value_or(1);
    settings.reveal_classes = args.take_int("reveal-classes", 0, INT32_MAX).value_or(0);
    const bool json = args.take_switch("json");
    const bool verbose = args.take_switch("verbose");
    settings.active = args.take("active").value_or("");
    if (!settings.active.empty() && !is_active_strategy(settings.active))
        usage_error("--active must be one of ", active_strategies(), ", not '", settings.active, "'");
    if (!settings.active.empty() && settings.sampling.pairs_count < 0)
        usage_error("--active needs --pairs-count N (the number of questions to the oracle)");
    settings.option_flags = args.remaining();

    const int uses = algorithm_uses(settings.algorithm);
    const bool samples_pairs = settings.sampling.pairs_count >= 0 || settings.sampling.pairs_rate >= 0;
    if (samples_pairs && !(uses & KINDRED_USES_PAIRS))
        std::cerr << "kindred: note: " << settings.algorithm << " does not use pairs; the sampled pairs are ignored\n";
    if (settings.sampling.triplets_count >= 0 && !(uses & KINDRED_USES_TRIPLETS))
        std::cerr << "kindred: note: " << settings.algorithm << " does not use triplets; the sampled triplets are ignored\n";

    const Dataset data = load_dataset(request);
    ProgressLine progress(verbose);
    const EvalReport r = run_eval(data, settings, progress);
    std::string side = describe_sampling(settings.sampling, settings.reveal_classes);
    if (!settings.active.empty()) side += " (oracle queries chosen by " + settings.active + ")";

    if (json) {
        JsonObject o;
        o.add("algorithm", r.algorithm)
            .add("data", r.data)
            .add("n", r.n)
            .add("repeats", r.repeats)
            .add("nmi", stat_json(r.nmi))
            .add("ari", stat_json(r.ari))
            .add("f_measure", stat_json(r.f_measure))
            .add("seconds", stat_json(r.seconds))
            .add("clusters", stat_json(r.clusters))
            .add("d", r.d)
            .add("classes", r.classes)
            .add("scored", r.scored)
            .add("seed", static_cast<int64_t>(r.seed))
            .add("side_information", side)
            .add("pairs", stat_json(r.pairs))
            .add("triplets", stat_json(r.triplets))
            .add("labelled", stat_json(r.labelled))
            .add("noise", settings.sampling.noise)
            .add("reveal_classes", settings.reveal_classes);
        double k = 0;
        if (r.k.empty()) o.add_null("k");
        else if (parse_finite_double(r.k, k)) o.add("k", static_cast<int64_t>(k));
        else o.add("k", r.k);
        o.add_bool("k_from_classes", r.k_from_classes);
        JsonObject chosen;
        for (const auto &c : r.chosen) chosen.add(c.first, stat_json(c.second));
        o.add("chosen", chosen);
        std::cout << o.str() << "\n";
        return 0;
    }
    std::cout << r.algorithm << " on " << r.data << ": " << r.n << " points, " << r.d << " features, " << r.classes << " classes";
    if (!r.k.empty()) std::cout << "; k = " << r.k << (r.k_from_classes ? " (from the classes)" : "");
    std::cout << "\nside information: " << side << "\n";
    std::cout << r.repeats << (r.repeats == 1 ? " repeat" : " repeats") << ", seed" << (r.repeats == 1 ? " " : "s ") << r.seed;
    if (r.repeats > 1) std::cout << ".." << r.seed + static_cast<uint64_t>(r.repeats - 1);
    std::cout << "; " << r.scored << " points scored\n\n";
    std::cout << "              mean       std\n";
    std::cout << row("NMI", r.nmi, "%-10s %9.4f %9.4f\n") << row("ARI", r.ari, "%-10s %9.4f %9.4f\n")
              << row("F-measure", r.f_measure, "%-10s %9.4f %9.4f\n") << row("seconds", r.seconds, "%-10s %9.4f %9.4f\n")
              << row("clusters", r.clusters, "%-10s %9.2f %9.2f\n");
    if (!r.chosen.empty()) std::cout << "\nchosen from the side information (mean, std over the repeats that chose it):\n";
    for (const auto &c : r.chosen) std::cout << row(c.first.c_str(), c.second, "%-14s %9.4g %9.4g\n");
    return 0;
}

}  // namespace

const Command &cmd_eval() {
    static const std::string details =
        std::string(kDataFlagsHelp) + kSamplingFlagsHelp +
        "  --reveal-classes N     TCS protocol: the points of N random classes are given as partial labels,\n"
        "                         the others are unlabelled; k = classes - N and only the unlabelled points\n"
        "                         are scored. A method that cannot use partial labels ignores the labelled\n"
        "                         points (clusters the unlabelled ones only), unless pairs / triplets are\n"
        "                         also sampled: those are then drawn among the labelled points only.\n"
        "  --active STRATEGY      choose the --pairs-count N pairs by active selection instead of at random:\n"
        "                         " + active_strategies() + " (Explore / Consolidate: Basu et al. 3.4,\n"
        "                         k = classes); the label column answers (dense data only)\n"
        "  --repeats S            repeat S times with seeds seed, seed+1, ... (sampling and fit; default 1)\n"
        "  --seed N               the first seed (default: the algorithm's default seed)\n"
        "  --OPTION VALUE         any option of the algorithm. If it has an option k and --k is not given,\n"
        "                         k is set to the number of classes in the label column (minus revealed ones),\n"
        "                         except for the algorithms that find the number of clusters themselves.\n"
        "  --standardize          z-score each feature before the fit (the common option standardize)\n"
        "  --verbose              also print the library's info messages on stderr (what tuning tried and chose)\n"
        "  --json                 print {\"algorithm\", \"data\", \"n\", \"repeats\", \"nmi\": {\"mean\", \"std\", \"values\"},\n"
        "                         \"ari\", \"f_measure\", \"seconds\", \"clusters\", ..., \"chosen\": {NAME: {\"mean\", ...}}}\n"
        "                         (chosen: the values the fits chose from the side information themselves,\n"
        "                         e.g. lambda, weight, propagation; the model's results chosen_NAME)\n"
        "std is the sample standard deviation over repeats (n - 1 denominator; 0 for one repeat).\n" +
        std::string(kEvalCurveHelp);
    static const Command c{"eval",
                           "kindred eval ALGORITHM --data X.csv [--pairs-rate R | --pairs-count N] [--triplets-count N]\n"
                           "            [--noise P] [--reveal-classes N] [--repeats S] [--OPTION VALUE ...] [--json] [--verbose]\n"
                           "       kindred eval ALGORITHM [ALGORITHM ...] --data X.csv --curve N1,N2,... [--plot curve.svg]",
                           "sample side information from the label column, fit, and report NMI / ARI / F-measure / seconds",
                           details.c_str(), run_eval_command};
    return c;
}

}  // namespace kindred_cli
