// Side-information files: pairs CSV `i,j,value`, triplets CSV `a,b,c,answer`
// (answer yes/no/dnk or 1/-1/0), partial labels CSV with one column `label`
// (-1 or empty = unknown). Points are 0-based row numbers; when the data has
// an ID column they are its IDs instead, and partial labels are then a CSV
// `ID,label` listing the labelled points only (any words as labels). Cells are
// separated by commas, tabs or semicolons (detected). A header row is optional
// for pairs and triplets (recognised by its first cell not being a point).
#ifndef KINDRED_CLI_SIDE_FILES_HPP
#define KINDRED_CLI_SIDE_FILES_HPP

#include <cstdint>
#include <string>
#include <vector>

#include "dataset.hpp"
#include "handles.hpp"

namespace kindred_cli {

struct SideFiles {
    std::string pairs, triplets, partial_labels;  // empty = not given
    bool any() const { return !pairs.empty() || !triplets.empty() || !partial_labels.empty(); }
};

// Reads the given files into a new side-information handle about the points
// of `data`. Points are checked here (row numbers against data.n, IDs against
// data's IDs), so that messages name file, line and column.
SidePtr read_side_files(const SideFiles &files, const Dataset &data);

// The pairs a handle holds (sorted, i < j).
struct PairList {
    std::vector<int64_t> i, j;
    std::vector<double> value;  // > 0 must-link, < 0 cannot-link
};
PairList side_pairs(const kindred_side *side);

// The rows of a pairs CSV in file order (0 values included), points checked against `data`.
PairList read_pairs_csv(const std::string &path, const Dataset &data);

// One row of a pairs CSV, the points named as write_pairs_csv names them.
std::string pair_row(const Dataset &data, int64_t i, int64_t j, double value);

// Writes the handle's pairs (sorted, i < j) as CSV with header `i,j,value`;
// the points by their IDs when `names` has IDs.
void write_pairs_csv(const std::string &path, const kindred_side *side, const Dataset *names = nullptr);
// Writes the handle's triplets as CSV with header `a,b,c,answer` (answer 1/-1/0);
// the points by their IDs when `names` has IDs.
void write_triplets_csv(const std::string &path, const kindred_side *side, const Dataset *names = nullptr);

}  // namespace kindred_cli

#endif
