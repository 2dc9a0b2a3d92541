#include "csv_dialect.hpp"

#include "cli_error.hpp"
#include "csv_fields.hpp"

namespace kindred_cli {

namespace {

constexpr char kCandidates[] = {'\t', ';', ','};  // in order of preference
constexpr int kLinesLooked = 20;

int count_outside_quotes(const std::string &text, size_t begin, size_t end, char c) {
    int count = 0;
    bool quoted = false;
    for (size_t k = begin; k < end; ++k) {
        if (text[k] == '"') quoted = !quoted;
        else if (!quoted && text[k] == c) ++count;
    }
    return count;
}

}  // namespace

char delimiter_from_flag(const std::string &word) {
    if (word == "," || word == "comma") return ',';
    if (word == "tab" || word == "\t" || word == "\\t") return '\t';
    if (word == ";" || word == "semicolon") return ';';
    usage_error("--delimiter must be comma (,), tab or semicolon (;), not '", word, "'");
}

const char *delimiter_name(char delimiter) {
    return delimiter == '\t' ? "tab" : delimiter == ';' ? "semicolon" : "comma";
}

char detect_delimiter(const std::string &text) {
    int counts[3][kLinesLooked] = {};
    int lines = 0;
    size_t pos = 0;
    while (pos < text.size() && lines < kLinesLooked) {
        size_t end = text.find('\n', pos);
        if (end == std::string::npos) end = text.size();
        if (text.find_first_not_of(" \t\r", pos) < end) {  // not a blank line
            for (int c = 0; c < 3; ++c) counts[c][lines] = count_outside_quotes(text, pos, end, kCandidates[c]);
            ++lines;
        }
        pos = end + 1;
    }
    if (lines == 0) return ',';
    for (int c = 0; c < 3; ++c) {
        bool same = counts[c][0] > 0;
        for (int l = 1; l < lines && same; ++l) same = counts[c][l] == counts[c][0];
        if (same) return kCandidates[c];
    }
    int best = 2;
    for (int c = 0; c < 3; ++c)
        if (counts[c][0] > counts[best][0]) best = c;
    return kCandidates[best];
}

bool looks_like_header(const std::vector<std::string> &first, const std::vector<std::string> *second) {
    double ignored = 0;
    bool all_words = true;
    for (const std::string &cell : first) all_words = all_words && !cell.empty() && !parse_finite_double(cell, ignored);
    if (all_words) return true;
    for (size_t c = 0; c < first.size(); ++c) {
        if (parse_finite_double(first[c], ignored)) continue;
        if (!second) return true;
        if (c < second->size() && parse_finite_double((*second)[c], ignored)) return true;
    }
    return false;
}

}  // namespace kindred_cli
