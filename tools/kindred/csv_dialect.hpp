// How a CSV file is written: which character separates its cells (comma, tab
// or semicolon) and whether its first row names the columns. Both are guessed
// from the text unless the user says (--delimiter, --no-header).
#ifndef KINDRED_CLI_CSV_DIALECT_HPP
#define KINDRED_CLI_CSV_DIALECT_HPP

#include <string>
#include <vector>

namespace kindred_cli {

// The delimiter named by --delimiter: "," / "comma", "tab" / "\t", ";" / "semicolon".
char delimiter_from_flag(const std::string &word);

// The delimiter of `text`, from its first lines: the candidate found the same
// non-zero number of times (outside quotes) on every one of them, tab first,
// then semicolon, then comma (a semicolon file may use decimal commas); else
// the candidate most frequent on the first line; a comma when none occurs.
char detect_delimiter(const std::string &text);

// "comma", "tab", "semicolon", for messages.
const char *delimiter_name(char delimiter);

// Whether `first` is a header row: every cell of it is a word, or some column
// holds a word there and a number in `second` (the first data row). Without a
// second row: whether any cell of `first` is not a number. A file of numbers only has no header, so
// that its first point is never taken for column names.
bool looks_like_header(const std::vector<std::string> &first, const std::vector<std::string> *second);

}  // namespace kindred_cli

#endif
