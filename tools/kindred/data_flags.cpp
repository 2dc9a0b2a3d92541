// --data, --label-column, --labels and the CSV flags, read the same way by every command.
#include "cli_error.hpp"
#include "command.hpp"
#include "csv_dialect.hpp"
#include "dataset.hpp"

namespace kindred_cli {

const char *const kDataFlagsHelp =
    "  --data FILE            points: CSV (comma, tab or semicolon; header row detected), or Matrix\n"
    "                         Market .mtx; - reads CSV from standard input\n"
    "  --label-column NAME    the ground-truth column of a CSV (default: label); never a feature\n"
    "  --labels FILE          ground truth for .mtx data: one label per line\n"
    "  --id-column NAME       the column naming the points: never a feature, written into the labels\n"
    "                         files, and used instead of row numbers in pairs / triplets / partial labels\n"
    "  --columns A,B,...      the feature columns (default: every other column)\n"
    "  --drop A,B,...         columns that are not features (text columns, for instance)\n"
    "  --delimiter C          comma, tab or semicolon (default: detected)\n"
    "  --no-header            the first row is a point; columns are then named 1, 2, ...\n";

std::vector<std::string> column_list(const std::string &flag, const std::string &value) {
    std::vector<std::string> names;
    size_t begin = 0;
    for (;;) {
        const size_t comma = value.find(',', begin);
        const std::string name = value.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin);
        if (name.empty()) usage_error("--", flag, " '", value, "': an empty column name (names are separated by commas)");
        names.push_back(name);
        if (comma == std::string::npos) return names;
        begin = comma + 1;
    }
}

DataRequest take_data_flags(Arguments &args, const char *command, bool labels_required) {
    DataRequest r;
    r.path = args.take_required("data", command);
    if (auto column = args.take("label-column")) {
        r.label_column = *column;
        r.label_column_given = true;
    }
    if (auto labels = args.take("labels")) r.labels_path = *labels;
    r.labels_required = labels_required;
    if (auto delimiter = args.take("delimiter")) r.delimiter = delimiter_from_flag(*delimiter);
    r.no_header = args.take_switch("no-header");
    r.id_column = args.take("id-column").value_or("");
    if (auto columns = args.take("columns")) r.columns = column_list("columns", *columns);
    if (auto drop = args.take("drop")) r.drop = column_list("drop", *drop);
    if (!r.columns.empty() && !r.drop.empty()) usage_error("give --columns or --drop, not both");
    return r;
}

}  // namespace kindred_cli
