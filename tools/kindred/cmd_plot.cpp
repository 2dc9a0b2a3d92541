// `kindred plot --model m.kdm --data X.csv [--pairs P.csv] --out clusters.svg`:
// the points of the data coloured by the model's clusters, on their first two
// principal components or on two chosen columns.
#include <cstdio>
#include <iostream>

#include "cli_error.hpp"
#include "command.hpp"
#include "dataset.hpp"
#include "handles.hpp"
#include "model_runs.hpp"
#include "options_from_registry.hpp"
#include "plot_clusters.hpp"
#include "principal_components.hpp"
#include "side_files.hpp"
#include "text_file.hpp"

namespace kindred_cli {

namespace {

std::vector<double> column_values(const Dataset &data, const std::string &name, const char *flag) {
    int64_t at_column = -1;
    for (size_t c = 0; c < data.columns.size(); ++c)
        if (data.columns[c] == name) at_column = static_cast<int64_t>(c);
    if (at_column < 0) usage_error(flag, " ", name, ": not a feature column of ", data.source);
    std::vector<double> v(static_cast<size_t>(data.n));
    for (int64_t i = 0; i < data.n; ++i) v[i] = data.dense[static_cast<size_t>(i * data.d + at_column)];
    return v;
}

std::string percent(double share) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f%%", 100 * share);
    return buf;
}

int run_plot(Arguments &args) {
    args.expect_positionals("plot", 0);
    const std::string model_path = args.take_required("model", "plot");
    const DataRequest request = take_data_flags(args, "plot", false);
    SideFiles side_files;
    side_files.pairs = args.take("pairs").value_or("");
    const std::string out_path = args.take_required("out", "plot");
    const std::optional<std::string> x_column = args.take("x"), y_column = args.take("y");
    if (x_column.has_value() != y_column.has_value()) usage_error("give both --x COLUMN and --y COLUMN, or neither");

    kindred_model *raw = nullptr;
    check(kindred_model_load(&raw, model_path.c_str()), "cannot load the model " + model_path);
    ModelPtr model(raw);
    apply_option_flags(model.get(), args.remaining());

    const Dataset data = load_dataset(request);
    if (data.sparse) usage_error("plot needs dense (CSV) data; ", data.source, " is sparse");
    ClusterPicture picture;
    picture.labels = predict_labels(model.get(), data);
    picture.title = std::string(kindred_model_algorithm(model.get())) + " clusters of " + data.source;
    if (x_column) {
        picture.x = column_values(data, *x_column, "--x");
        picture.y = column_values(data, *y_column, "--y");
        picture.x_title = *x_column;
        picture.y_title = *y_column;
    } else {
        Projection p = principal_components(data.dense, data.n, data.d);
        picture.x = std::move(p.x);
        picture.y = std::move(p.y);
        picture.x_title = "first principal component (" + percent(p.explained[0]) + " of the variance)";
        picture.y_title = "second principal component (" + percent(p.explained[1]) + ")";
    }
    if (side_files.any()) picture.pairs = side_pairs(read_side_files(side_files, data).get());

    Violations broken;
    write_text_file(out_path, clusters_svg(picture, broken));
    std::cout << data.n << " points";
    if (!picture.pairs.i.empty())
        std::cout << "; of " << picture.pairs.i.size() << " pairs, " << broken.must << " must-links and " << broken.cannot
                  << " cannot-links are broken (drawn as lines)";
    std::cout << "; written to " << out_path << "\n";
    return 0;
}

}  // namespace

const Command &cmd_plot() {
    static const std::string details =
        "  --model FILE           a model saved by `kindred fit ... --model FILE`\n" + std::string(kDataFlagsHelp) +
        "  --pairs FILE           must-link / cannot-link pairs (CSV i,j,value): those the clustering\n"
        "                         breaks are drawn as lines (solid: must-link, dashed: cannot-link)\n"
        "  --x COLUMN, --y COLUMN two feature columns as the axes (default: the first two principal\n"
        "                         components of the features)\n"
        "  --out FILE             the picture, SVG\n";
    static const Command c{"plot", "kindred plot --model m.kdm --data X.csv [--pairs P.csv] [--x COL --y COL] --out clusters.svg",
                           "draw the clusters of a saved model on the data, as an SVG picture", details.c_str(), run_plot};
    return c;
}

}  // namespace kindred_cli
