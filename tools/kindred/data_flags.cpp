// --data, --label-column and --labels, read the same way by every command.
#include "command.hpp"
#include "dataset.hpp"

namespace kindred_cli {

const char *const kDataFlagsHelp =
    "  --data FILE            points: CSV with a header (numeric columns), or Matrix Market .mtx\n"
    "  --label-column NAME    the ground-truth column of a CSV (default: label); never a feature\n"
    "  --labels FILE          ground truth for .mtx data: one label per line\n";

DataRequest take_data_flags(Arguments &args, const char *command, bool labels_required) {
    DataRequest r;
    r.path = args.take_required("data", command);
    if (auto column = args.take("label-column")) {
        r.label_column = *column;
        r.label_column_given = true;
    }
    if (auto labels = args.take("labels")) r.labels_path = *labels;
    r.labels_required = labels_required;
    return r;
}

}  // namespace kindred_cli
