// Data CSV: a header row, then one row per point. Every column is a numeric
// feature except the label column (named `label`, or by --label-column), whose
// words are mapped to ids in order of first appearance.
#ifndef KINDRED_CLI_CSV_READER_HPP
#define KINDRED_CLI_CSV_READER_HPP

#include <string>

#include "dataset.hpp"

namespace kindred_cli {

// `source` names the text in messages ("iris.csv:12:3: ..."). When
// `label_column_required` the label column must exist.
Dataset parse_csv_data(const std::string &text, const std::string &source,
                       const std::string &label_column, bool label_column_required);

}  // namespace kindred_cli

#endif
