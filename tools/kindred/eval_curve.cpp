#include "eval_curve.hpp"

#include <cstdio>
#include <iostream>

#include "cli_error.hpp"
#include "command.hpp"
#include "dataset.hpp"
#include "eval_protocol.hpp"
#include "json_writer.hpp"
#include "options_from_registry.hpp"
#include "plot_curve.hpp"
#include "progress_line.hpp"
#include "text_file.hpp"

namespace kindred_cli {

const char *const kEvalCurveHelp =
    "  --curve N1,N2,...      a learning curve: evaluate with N1, N2, ... sampled constraints (pairs for\n"
    "                         an algorithm that uses pairs, else triplets; none for one that uses neither),\n"
    "                         for each ALGORITHM given (kindred eval A B C --curve ...)\n"
    "  --plot FILE            with --curve: draw NMI, ARI and F-measure against the number of\n"
    "                         constraints, mean and one std over repeats, as SVG\n";

namespace {

std::vector<int64_t> parse_counts(const std::string &value) {
    std::vector<int64_t> counts;
    size_t begin = 0;
    for (;;) {
        const size_t comma = value.find(',', begin);
        const std::string word = value.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin);
        counts.push_back(parse_int_arg(word, "--curve", 0, INT32_MAX));
        if (!counts.empty() && counts.size() > 1 && counts.back() <= counts[counts.size() - 2])
            usage_error("--curve ", value, ": the counts must increase");
        if (comma == std::string::npos) return counts;
        begin = comma + 1;
    }
}

// The sampling of one point of the curve: `count` constraints of the kind the algorithm uses.
SideSampling sampling_for(const std::string &algorithm, int64_t count, double noise) {
    SideSampling s;
    const int uses = algorithm_uses(algorithm);
    if (uses & KINDRED_USES_PAIRS) s.pairs_count = count;
    else if (uses & KINDRED_USES_TRIPLETS) s.triplets_count = count;
    if (s.any()) s.noise = noise;
    return s;
}

JsonObject series_json(const std::vector<double> &mean, const std::vector<double> &std) {
    JsonObject o;
    o.add("mean", mean).add("std", std);
    return o;
}

}  // namespace

bool wants_curve(const Arguments &args) {
    for (const Flag &f : args.remaining())
        if (f.name == "curve") return true;
    return false;
}

int run_eval_curve(Arguments &args) {
    if (args.positionals().empty()) usage_error("eval needs an algorithm: kindred eval ALGORITHM [...] --curve N1,N2,...");
    const std::vector<std::string> algorithms = args.positionals();
    for (const std::string &a : algorithms) require_algorithm(a);
    const std::vector<int64_t> counts = parse_counts(*args.take("curve"));
    const DataRequest request = take_data_flags(args, "eval", true);
    const std::string plot_path = args.take("plot").value_or("");
    const int64_t repeats = args.take_int("repeats", 1, 1000000).value_or(1);
    const double noise = args.take_double("noise", 0.0, 1.0).value_or(0.0);
    const bool json = args.take_switch("json");
    for (const char *flag : {"pairs-count", "pairs-rate", "triplets-count", "reveal-classes", "active"})
        if (args.take(flag)) usage_error("--", flag, " cannot be combined with --curve (which sets the number of constraints)");
    const std::vector<Flag> option_flags = args.remaining();

    const Dataset data = load_dataset(request);
    CurvePicture picture;
    picture.counts = counts;
    picture.title = "quality against side information on " + data.source + " (" + std::to_string(repeats) +
                    (repeats == 1 ? " repeat)" : " repeats)");
    picture.x_title = "number of constraints";
    ProgressLine progress;
    JsonObject per_algorithm;
    if (!json) std::printf("%-12s %-11s %17s %17s %17s\n", "constraints", "algorithm", "NMI", "ARI", "F-measure");
    for (const std::string &algorithm : algorithms) {
        CurveLine line;
        line.algorithm = algorithm;
        line.mean.assign(3, {});
        line.std.assign(3, {});
        for (int64_t count : counts) {
            EvalSettings settings;
            settings.algorithm = algorithm;
            settings.option_flags = option_flags;
            settings.repeats = repeats;
            settings.sampling = sampling_for(algorithm, count, noise);
            const EvalReport r = run_eval(data, settings, progress);
            const std::vector<double> *measures[3] = {&r.nmi, &r.ari, &r.f_measure};
            for (int m = 0; m < 3; ++m) {
                const Stat s = stat_of(*measures[m]);
                line.mean[m].push_back(s.mean);
                line.std[m].push_back(s.std);
            }
            if (!json)
                std::printf("%-12lld %-11s %8.4f +- %6.4f %8.4f +- %6.4f %8.4f +- %6.4f\n", static_cast<long long>(count),
                            algorithm.c_str(), line.mean[0].back(), line.std[0].back(), line.mean[1].back(),
                            line.std[1].back(), line.mean[2].back(), line.std[2].back());
        }
        JsonObject o;
        o.add("nmi", series_json(line.mean[0], line.std[0]))
            .add("ari", series_json(line.mean[1], line.std[1]))
            .add("f_measure", series_json(line.mean[2], line.std[2]));
        per_algorithm.add(algorithm, o);
        picture.lines.push_back(std::move(line));
    }
    if (!plot_path.empty()) write_text_file(plot_path, curve_svg(picture));
    if (json) {
        JsonObject o;
        std::vector<double> as_numbers(counts.begin(), counts.end());
        o.add("data", data.source).add("n", data.n).add("repeats", repeats).add("curve", as_numbers).add("algorithms", per_algorithm);
        std::cout << o.str() << "\n";
    } else {
        std::cout << "mean +- std over " << repeats << (repeats == 1 ? " repeat" : " repeats");
        if (!plot_path.empty()) std::cout << "; picture written to " << plot_path;
        std::cout << "\n";
    }
    return 0;
}

}  // namespace kindred_cli
