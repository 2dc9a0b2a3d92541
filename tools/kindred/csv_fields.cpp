#include "csv_fields.hpp"

#include <cerrno>
#include <charconv>
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

std::vector<std::string> split_csv_line(const std::string &line, const std::string &where, char delimiter) {
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
        } else if (c == delimiter) {
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

std::string csv_cell(const std::string &word) {
    const bool plain = word.find_first_of(",;\t\"\r\n") == std::string::npos && trim(word) == word;
    if (plain) return word;
    std::string out = "\"";
    for (char c : word) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

bool is_hexadecimal(const std::string &word) {
    const size_t digits = word.find_first_not_of("+-");
    return digits != std::string::npos && digits + 1 < word.size() && word[digits] == '0' &&
           (word[digits + 1] == 'x' || word[digits + 1] == 'X');
}

bool parse_finite_double(const std::string &cell, double &value) {
    return parse_finite_double(cell.data(), cell.data() + cell.size(), value);
}

bool parse_finite_double(const char *begin, const char *end, double &value) {
    // std::from_chars reads decimal only (strtod also read "0x10" as 16), needs
    // no terminating NUL and is several times faster than strtod, which was
    // most of the time of reading a large CSV. It refuses a leading '+'.
    if (begin != end && *begin == '+' && end - begin > 1 && begin[1] != '-' && begin[1] != '+') ++begin;
    if (begin == end) return false;
    const std::from_chars_result r = std::from_chars(begin, end, value, std::chars_format::general);
    if (r.ec == std::errc::result_out_of_range && r.ptr == end) {
        // Overflow is refused below; underflow to a denormal or 0 is accepted,
        // as strtod gives it (from_chars reports both as out of range).
        const std::string copy(begin, end);
        value = std::strtod(copy.c_str(), nullptr);
    } else if (r.ec != std::errc()) {
        return false;
    }
    return r.ptr == end && std::isfinite(value);
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
