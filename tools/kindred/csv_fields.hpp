// Splitting one CSV line into cells, and strict conversion of a cell to a number.
#ifndef KINDRED_CLI_CSV_FIELDS_HPP
#define KINDRED_CLI_CSV_FIELDS_HPP

#include <cstdint>
#include <string>
#include <vector>

namespace kindred_cli {

// Splits on commas; surrounding spaces are trimmed and a cell in double quotes
// may hold commas ("" inside quotes is one quote). `where` locates the line
// for the error about an unterminated quote.
std::vector<std::string> split_csv_line(const std::string &line, const std::string &where);

// The whole cell must be a finite number (no trailing text, no nan / inf).
bool parse_finite_double(const std::string &cell, double &value);
// Whether a word is written in hexadecimal ("0x10", "-0X1p3"), which strtod
// would read: the command line and the data files take decimal numbers only.
bool is_hexadecimal(const std::string &word);
// The whole cell must be an integer.
bool parse_integer(const std::string &cell, int64_t &value);

}  // namespace kindred_cli

#endif
