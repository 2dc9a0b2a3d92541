// `kindred predict --model m.kdm --data X.csv --out labels.csv`: label new
// points with a saved model.
#include <iostream>

#include "cli_error.hpp"
#include "command.hpp"
#include "dataset.hpp"
#include "handles.hpp"
#include "label_files.hpp"
#include "model_runs.hpp"
#include "options_from_registry.hpp"

namespace kindred_cli {

namespace {

int run_predict(Arguments &args) {
    args.expect_positionals("predict", 0);
    const std::string model_path = args.take_required("model", "predict");
    const DataRequest request = take_data_flags(args, "predict", false);
    const std::string out_path = args.take("out").value_or("-");

    kindred_model *raw = nullptr;
    check(kindred_model_load(&raw, model_path.c_str()), "cannot load the model " + model_path);
    ModelPtr model(raw);
    // Options such as --threads may be changed for prediction.
    apply_option_flags(model.get(), args.remaining());

    const Dataset data = load_dataset(request);
    write_cluster_csv(out_path, predict_labels(model.get(), data), data);
    if (out_path != "-")
        std::cout << kindred_model_algorithm(model.get()) << " model " << model_path << ": " << data.n << " points of "
                  << data.source << " labelled, written to " << out_path << "\n";
    return 0;
}

}  // namespace

const Command &cmd_predict() {
    static const std::string details =
        "  --model FILE           a model saved by `kindred fit ... --model FILE`\n" + std::string(kDataFlagsHelp) +
        "                         (the data must have the columns the model was fitted on, in that order)\n"
        "  --out FILE             write the labels, CSV with one column `cluster` (default: standard output)\n"
        "  --threads N            (or any option of the model's algorithm)\n";
    static const Command c{"predict", "kindred predict --model m.kdm --data X.csv [--out labels.csv]",
                           "assign new points to the clusters of a saved model", details.c_str(), run_predict};
    return c;
}

}  // namespace kindred_cli
