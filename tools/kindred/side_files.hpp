// Side-information files: pairs CSV `i,j,value`, triplets CSV `a,b,c,answer`
// (answer yes/no/dnk or 1/-1/0), partial labels CSV with one column `label`
// (-1 or empty = unknown). Indices are 0-based point numbers. A header row is
// optional for pairs and triplets (recognised by its first cell not being a number).
#ifndef KINDRED_CLI_SIDE_FILES_HPP
#define KINDRED_CLI_SIDE_FILES_HPP

#include <cstdint>
#include <string>

#include "handles.hpp"

namespace kindred_cli {

struct SideFiles {
    std::string pairs, triplets, partial_labels;  // empty = not given
    bool any() const { return !pairs.empty() || !triplets.empty() || !partial_labels.empty(); }
};

// Reads the given files into a new side-information handle about n points.
// Indices are checked against n here, so that messages name file, line and column.
SidePtr read_side_files(const SideFiles &files, int64_t n);

// Writes the handle's pairs (sorted, i < j) as CSV with header `i,j,value`.
void write_pairs_csv(const std::string &path, const kindred_side *side);
// Writes the handle's triplets as CSV with header `a,b,c,answer` (answer 1/-1/0).
void write_triplets_csv(const std::string &path, const kindred_side *side);

}  // namespace kindred_cli

#endif
