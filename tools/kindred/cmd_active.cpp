// `kindred active STRATEGY|ALGORITHM --data X.csv --budget Q [--out P.csv]`:
// active selection of pairs (Explore / Consolidate of Basu et al., section
// 3.4), the oracle answering from the label column. With a strategy name the
// chosen pairs are written out; with an algorithm name they are also used to
// fit that algorithm, which is scored against the labels.
#include <iostream>

#include "active_oracle.hpp"
#include "cli_error.hpp"
#include "command.hpp"
#include "dataset.hpp"
#include "handles.hpp"
#include "json_writer.hpp"
#include "model_runs.hpp"
#include "options_from_registry.hpp"
#include "side_files.hpp"

namespace kindred_cli {

namespace {

double score(const char *metric, const std::vector<int32_t> &truth, const std::vector<int32_t> &predicted) {
    double v = 0;
    check(kindred_metric(metric, truth.data(), predicted.data(), static_cast<int64_t>(truth.size()), &v), metric);
    return v;
}

int run_active(Arguments &args) {
    if (args.positionals().empty())
        usage_error("active needs a strategy (", active_strategies(), ") or an algorithm to fit with the chosen pairs");
    const std::string word = args.positionals().front();
    args.expect_positionals("active", 1);
    const bool fit = !is_active_strategy(word);
    if (fit) require_algorithm(word);

    const DataRequest request = take_data_flags(args, "active", true);
    ActiveQuery q;
    q.strategy = fit ? args.take("strategy").value_or(default_active_strategy()) : word;
    if (!is_active_strategy(q.strategy))
        usage_error("--strategy must be one of ", active_strategies(), ", not '", q.strategy, "'");
    q.budget = args.take_int("budget", 0, INT64_MAX).value_or(-1);
    if (q.budget < 0) usage_error("active needs --budget Q (the number of questions to the oracle)");
    const std::optional<int64_t> k_flag = args.take_int("k", -1, INT32_MAX);
    q.noise = args.take_double("noise", 0.0, 1.0).value_or(0.0);
    q.seed = static_cast<uint64_t>(args.take_int("seed", 0, INT64_MAX).value_or(0));
    const std::optional<std::string> out_path = args.take("out");
    const bool json = args.take_switch("json");
    const std::vector<Flag> option_flags = args.remaining();
    if (!fit) args.expect_nothing_else("active", 1);

    const Dataset data = load_dataset(request);
    q.k = k_flag.value_or(data.classes());
    if (q.k == 0) usage_error("--k must be >= 1, or -1 when unknown");
    SidePtr side = new_side(data.n);
    const ActiveOutcome got = select_pairs_from_labels(side.get(), data, data.labels, q);
    int64_t pairs = 0;
    check(kindred_side_counts(side.get(), nullptr, &pairs, nullptr, nullptr), "side information");
    if (out_path) write_pairs_csv(*out_path, side.get(), &data);

    JsonObject o;
    o.add("strategy", q.strategy).add("data", data.source).add("n", data.n).add("budget", q.budget)
        .add("k", q.k).add("queries", got.queries).add("dont_know", got.dont_know)
        .add("must_links", got.must).add("cannot_links", got.cannot).add("pairs", pairs);
    if (fit) {
        ModelPtr model = new_model(word);
        const std::set<std::string> given = apply_option_flags(model.get(), option_flags);
        if (has_option(word, "k") && given.count("k") == 0 && q.k > 0)
            check(kindred_model_set_int(model.get(), "k", q.k), "setting k");
        if (given.count("seed") == 0) check(kindred_model_set_int(model.get(), "seed", static_cast<int64_t>(q.seed)), "seed");
        const FitSummary s = fit_model(model.get(), data, side.get());
        const std::vector<int32_t> labels = fitted_labels(model.get(), data.n);
        o.add("algorithm", word).add("nmi", score("nmi", data.labels, labels)).add("ari", score("ari", data.labels, labels))
            .add("f_measure", score("f-measure", data.labels, labels)).add("clusters", s.clusters).add("seconds", s.seconds);
        if (!json)
            std::cout << word << " with " << pairs << " pairs chosen by " << q.strategy << " (" << got.queries
                      << " queries): NMI " << score("nmi", data.labels, labels) << ", ARI "
                      << score("ari", data.labels, labels) << "\n";
    } else if (!json && out_path && *out_path != "-") {
        std::cout << pairs << " pairs (" << got.must << " must-links, " << got.cannot << " cannot-links answered, "
                  << got.dont_know << " don't know, " << got.queries << " queries) written to " << *out_path << "\n";
    } else if (!json && !out_path) {
        write_pairs_csv("-", side.get(), &data);
    }
    if (json) std::cout << o.str() << "\n";
    return 0;
}

}  // namespace

const Command &cmd_active() {
    static const std::string details =
        std::string(kDataFlagsHelp) +
        "  --budget Q             number of questions the oracle (the label column) answers\n"
        "  --k K                  number of clusters for Explore / Consolidate (default: the number of\n"
        "                         classes); -1 = unknown: Explore only\n"
        "  --strategy S           with an ALGORITHM: " + active_strategies_help() + "\n"
        "  --noise P              flip each answer with probability P (default 0)\n"
        "  --seed S               random seed (default 0)\n"
        "  --out FILE             write the pairs as CSV i,j,value (+1 same, -1 different); a strategy\n"
        "                         without --out prints them on standard output\n"
        "  --json                 print {\"strategy\", \"queries\", \"must_links\", \"cannot_links\", \"pairs\",\n"
        "                         and with an ALGORITHM \"nmi\", \"ari\", \"f_measure\", ...}\n"
        "  --OPTION VALUE         options of ALGORITHM (see `kindred help ALGORITHM`)\n";
    static const std::string synopsis =
        "kindred active " + active_strategies() + " --data X.csv --budget Q [--k K] [--out P.csv]\n"
        "       kindred active ALGORITHM --data X.csv --budget Q [--strategy S] [--OPTION VALUE ...] [--json]";
    static const Command c{"active", synopsis.c_str(),
                           "choose pairs to ask about (Explore / Consolidate), answered from the label column",
                           details.c_str(), run_active};
    return c;
}

}  // namespace kindred_cli
