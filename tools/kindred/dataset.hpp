// The points a command works on (dense row-major or CSR), with the ground-truth
// labels when the file has them. Readers fill it; commands hand it to the library.
#ifndef KINDRED_CLI_DATASET_HPP
#define KINDRED_CLI_DATASET_HPP

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace kindred_cli {

struct Dataset {
    std::string source;  // file name, for messages and reports
    int64_t n = 0, d = 0;
    std::vector<std::string> columns;  // feature names (dense CSV only)

    bool sparse = false;
    std::vector<double> dense;  // n x d, row-major, when !sparse
    std::vector<int64_t> indptr, indices;  // CSR, when sparse
    std::vector<double> values;

    std::vector<int32_t> labels;  // ground truth ids 0.., empty when unknown
    std::vector<std::string> label_names;  // id -> the label as written in the file

    // --id-column: each point's name, unique, and the column's name; empty when not given.
    std::string id_column;
    std::vector<std::string> ids;
    std::unordered_map<std::string, int64_t> row_of_id;

    // `kindred ask --show`: these columns' cells as written, n x shown_columns.size(), row-major.
    std::vector<std::string> shown_columns, shown_cells;

    bool has_labels() const { return !labels.empty(); }
    bool has_ids() const { return !ids.empty(); }
    // How messages and output files name point `row`: its ID, or its 0-based row number.
    std::string point_name(int64_t row) const { return has_ids() ? ids[static_cast<size_t>(row)] : std::to_string(row); }
    int64_t classes() const { return static_cast<int64_t>(label_names.size()); }
};

// Maps label words to ids 0, 1, ... in order of first appearance.
class LabelCoder {
public:
    int32_t id(const std::string &word);
    const std::vector<std::string> &names() const { return names_; }

private:
    std::unordered_map<std::string, int32_t> ids_;
    std::vector<std::string> names_;
};

// What a command needs from --data / --label-column / --labels and the CSV flags.
struct DataRequest {
    std::string path;  // "-" = standard input (CSV)
    std::string label_column = "label";
    bool label_column_given = false;  // --label-column: it must exist
    char delimiter = 0;               // --delimiter; 0 = detect
    bool no_header = false;           // --no-header: the first row is data; columns are named 1, 2, ...
    std::string id_column;            // --id-column NAME
    std::vector<std::string> columns, drop;  // --columns A,B / --drop A,B
    std::vector<std::string> show;           // kindred ask --show A,B
    std::string labels_path;          // --labels FILE (one label per line), for .mtx data
    bool labels_required = false;     // eval and sample need ground truth
};

// Reads CSV, or Matrix Market when the name ends in .mtx.
Dataset load_dataset(const DataRequest &request);

// The rows `rows` of a data set (labels included), in that order.
Dataset subset_rows(const Dataset &data, const std::vector<int64_t> &rows);

}  // namespace kindred_cli

#endif
