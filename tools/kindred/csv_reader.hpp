// Data CSV: an optional header row, then one row per point. The cells are
// separated by commas, tabs or semicolons. Every column is a numeric feature
// except the label column (named `label`, or by --label-column), whose words
// are mapped to ids in order of first appearance, the ID column
// (--id-column), which names the points, and the columns left out by
// --columns / --drop.
#ifndef KINDRED_CLI_CSV_READER_HPP
#define KINDRED_CLI_CSV_READER_HPP

#include <string>
#include <vector>

#include "dataset.hpp"

namespace kindred_cli {

struct CsvRequest {
    std::string source;  // names the text in messages ("iris.csv:12:3: ...")
    std::string label_column = "label";
    bool label_column_required = false;  // the label column must exist
    char delimiter = 0;                  // 0 = detect (csv_dialect.hpp)
    bool no_header = false;              // else detected
    std::string id_column;               // "" = none
    std::vector<std::string> columns;    // the features, when not empty
    std::vector<std::string> drop;       // columns that are not features
    std::vector<std::string> show;       // columns kept as text to show the points to a person
};

Dataset parse_csv_data(const std::string &text, const CsvRequest &request);

// The defaults of CsvRequest with a label column (the bundled demo data).
Dataset parse_csv_data(const std::string &text, const std::string &source,
                       const std::string &label_column, bool label_column_required);

}  // namespace kindred_cli

#endif
