#include "csv_fields.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "cli_error.hpp"

namespace kindred_cli {

namespace {

std::string trim(const std::string &s) {
    const size_t b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return "";
    const size_t e = s.find_last_not_of(" \t");
    return s.substr(b, e - b + 1);
}

}  // namespace

std::vector<std::string> split_csv_line(const std::string &line, const std::string &where) {
    std::vector<std::string> cells;
    std::string cell;
    bool quoted = false, was_quoted = false;
    for (size_t k = 0; k < line.size(); ++k) {
        const char c = line[k];
        if (quoted) {
            if (c == '"' && k + 1 < line.size() && line[k + 1] == '"') {
                cell += '"';
                ++k;
            } else if (c == '"') {
                quoted = false;
            } else {
                cell += c;
            }
        } else if (c == '"' && trim(cell).empty()) {
            quoted = was_quoted = true;
            cell.clear();
        } else if (c == ',') {
            cells.push_back(was_quoted ? cell : trim(cell));
            cell.clear();
            was_quoted = false;
        } else {
            cell += c;
        }
    }
    if (quoted) runtime_error(where, ": unterminated quote");
    cells.push_back(was_quoted ? cell : trim(cell));
    return cells;
}

bool is_hexadecimal(const std::string &word) {
    const size_t digits = word.find_first_not_of("+-");
    return digits != std::string::npos && digits + 1 < word.size() && word[digits] == '0' &&
           (word[digits + 1] == 'x' || word[digits + 1] == 'X');
}

bool parse_finite_double(const std::string &cell, double &value) {
    // Decimal only: strtod also reads hexadecimal ("0x10" is 16).
    if (cell.empty() || is_hexadecimal(cell)) return false;
    const char *begin = cell.c_str();
    char *end = nullptr;
    value = std::strtod(begin, &end);
    // Overflow gives inf and is refused; underflow to a denormal or 0 is accepted.
    // The whole cell must be read: a NUL byte inside it (a binary file) is no end.
    return end != begin && end == begin + cell.size() && std::isfinite(value);
}

bool parse_integer(const std::string &cell, int64_t &value) {
    if (cell.empty()) return false;
    const char *begin = cell.c_str();
    char *end = nullptr;
    errno = 0;
    const long long v = std::strtoll(begin, &end, 10);
    if (end == begin || end != begin + cell.size() || errno == ERANGE) return false;
    value = static_cast<int64_t>(v);
    return true;
}

}  // namespace kindred_cli
