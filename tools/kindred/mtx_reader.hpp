// Matrix Market coordinate files (sparse counts, e.g. documents x terms) -> CSR.
#ifndef KINDRED_CLI_MTX_READER_HPP
#define KINDRED_CLI_MTX_READER_HPP

#include <string>

#include "dataset.hpp"

namespace kindred_cli {

// Accepts `%%MatrixMarket matrix coordinate real|integer|pattern general|symmetric`.
// Rows are points; entries may come in any order; duplicates are summed.
Dataset read_matrix_market(const std::string &text, const std::string &source);

}  // namespace kindred_cli

#endif
