// Label files: ground truth for Matrix Market data (one label per line) and
// the output of fit / predict (CSV with one column `cluster`).
#ifndef KINDRED_CLI_LABEL_FILES_HPP
#define KINDRED_CLI_LABEL_FILES_HPP

#include <cstdint>
#include <string>
#include <vector>

#include "dataset.hpp"

namespace kindred_cli {

// Reads one label per non-blank line (any word; ids by first appearance) into
// data.labels / data.label_names; the count must equal data.n.
void attach_label_lines(Dataset &data, const std::string &path);

// Writes "cluster\n" then one label per line to `path` ("-" = standard output);
// when `data` has IDs, "ID,cluster" (the ID column's name) and each point's ID.
void write_cluster_csv(const std::string &path, const std::vector<int32_t> &labels, const Dataset &data);

}  // namespace kindred_cli

#endif
