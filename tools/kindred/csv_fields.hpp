// Splitting one CSV line into cells, and strict conversion of a cell to a number.
#ifndef KINDRED_CLI_CSV_FIELDS_HPP
#define KINDRED_CLI_CSV_FIELDS_HPP

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kindred_cli {

// Splits on `delimiter` (comma, tab or semicolon); surrounding spaces are
// trimmed and a cell in double quotes may hold delimiters ("" inside quotes is
// one quote). `where` locates the line for the error about an unterminated quote.
std::vector<std::string> split_csv_line(const std::string &line, const std::string &where, char delimiter = ',');

// The whole cell must be a finite number (no trailing text, no nan / inf).
bool parse_finite_double(const std::string &cell, double &value);
// The same on the characters [begin, end), without copying them.
bool parse_finite_double(const char *begin, const char *end, double &value);
// Whether a word is written in hexadecimal ("0x10", "-0X1p3"), which strtod
// would read: the command line and the data files take decimal numbers only.
bool is_hexadecimal(const std::string &word);
// A word as one CSV cell: quoted when it holds a comma, a quote, a line break
// or surrounding spaces, which split_csv_line would otherwise change.
std::string csv_cell(const std::string &word);

// The whole cell must be an integer.
bool parse_integer(const std::string &cell, int64_t &value);

}  // namespace kindred_cli

#endif
