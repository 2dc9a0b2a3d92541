// `kindred fit ALGORITHM --data X.csv ...`: one fit, its labels, its model file.
#include <iostream>

#include "cli_error.hpp"
#include "command.hpp"
#include "dataset.hpp"
#include "json_writer.hpp"
#include "label_files.hpp"
#include "model_runs.hpp"
#include "options_from_registry.hpp"
#include "progress_line.hpp"
#include "side_files.hpp"
#include "side_flags.hpp"

namespace kindred_cli {

namespace {

JsonObject option_values(const kindred_model *model, const std::string &algorithm) {
    JsonObject options;
    for (const OptionInfo &o : algorithm_options(algorithm)) {
        const std::string value = current_option(model, o.name);
        if (value.empty()) options.add_null(o.name);
        else options.add(o.name, value);
    }
    return options;
}

int run_fit(Arguments &args) {
    if (args.positionals().empty()) usage_error("fit needs an algorithm: kindred fit ALGORITHM --data X.csv (see `kindred algorithms`)");
    const std::string algorithm = args.positionals().front();
    require_algorithm(algorithm);
    args.expect_positionals("fit", 1);

    const DataRequest request = take_data_flags(args, "fit", false);
    const SideFiles side_files = take_side_flags(args);
    const std::string out_path = args.take("out").value_or("");
    const std::string model_path = args.take("model").value_or("");
    const bool json = args.take_switch("json");
    const bool verbose = args.take_switch("verbose");

    // Options first: a typo in a flag is reported before any file is read.
    ModelPtr model = new_model(algorithm);
    apply_option_flags(model.get(), args.remaining());

    const Dataset data = load_dataset(request);
    SidePtr side;
    if (side_files.any()) {
        side = read_side_files(side_files, data);
        note_unused_side(algorithm, side_files, "kindred");
    }

    ProgressLine progress(verbose);
    progress.attach(model.get(), algorithm);
    const FitSummary fit = fit_model(model.get(), data, side.get());
    progress.clear();

    if (!out_path.empty()) write_cluster_csv(out_path, fitted_labels(model.get(), data.n), data);
    if (!model_path.empty()) check(kindred_model_save(model.get(), model_path.c_str()), "saving the model to " + model_path);

    if (json) {
        JsonObject o = fit_report(algorithm, fit);
        o.add("data", data.source)
            .add("n", data.n)
            .add("d", data.d)
            .add("options", option_values(model.get(), algorithm));
        std::cout << o.str() << "\n";
        return 0;
    }
    std::cout << algorithm << " on " << data.source << ": " << data.n << " points, " << data.d << " features\n"
              << fit_line(fit) << "\n";
    if (!out_path.empty()) std::cout << "labels written to " << out_path << "\n";
    if (!model_path.empty()) std::cout << "model saved to " << model_path << "\n";
    if (out_path.empty() && model_path.empty()) std::cout << "(--out FILE writes the labels, --model FILE saves the model)\n";
    return 0;
}

}  // namespace

const Command &cmd_fit() {
    static const std::string details =
        std::string(kDataFlagsHelp) + kSideFlagsHelp +
        "  --OPTION VALUE         any option of the algorithm (`kindred help ALGORITHM`), e.g. --k 3\n"
        "  --seed N, --threads N  the seed and thread count options every algorithm has\n"
        "  --out FILE             write the labels, CSV with one column `cluster`\n"
        "  --model FILE           save the fitted model (read it back with `kindred predict`)\n"
        "  --verbose              also print the library's info messages on stderr (what tuning tried and chose)\n"
        "  --json                 print {\"algorithm\", \"clusters\", \"iterations\", \"converged\",\n"
        "                         \"objective\", \"seconds\", \"chosen\", \"data\", \"n\", \"d\", \"options\"}\n"
        "                         (chosen: {NAME: value} of what the fit chose from the side information\n"
        "                         itself because it was left unset, e.g. lambda, weight, propagation;\n"
        "                         a number that is not finite, such as xi_max inf, is written null)\n";
    static const Command c{"fit",
                           "kindred fit ALGORITHM --data X.csv [--pairs P.csv] [--triplets T.csv] [--partial-labels L.csv]\n"
                           "            [--OPTION VALUE ...] [--seed N] [--threads N] [--out labels.csv] [--model m.kdm] [--json] [--verbose]",
                           "cluster the points (the label column, if any, is not used)", details.c_str(), run_fit};
    return c;
}

}  // namespace kindred_cli
