#include "ask_terminal.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iostream>

#include "cli_error.hpp"

namespace kindred_cli {

namespace {

constexpr size_t kFeaturesShown = 6;

std::string describe(const Dataset &data, int64_t row) {
    std::string out = data.point_name(row);
    if (!data.shown_columns.empty()) {
        const size_t w = data.shown_columns.size();
        for (size_t c = 0; c < w; ++c)
            out += "  " + data.shown_columns[c] + ": " + data.shown_cells[static_cast<size_t>(row) * w + c];
        return out;
    }
    for (size_t c = 0; c < data.columns.size() && c < kFeaturesShown; ++c)
        out += "  " + data.columns[c] + "=" + text(data.dense[static_cast<size_t>(row * data.d) + c]);
    if (data.columns.size() > kFeaturesShown) out += "  ...";
    return out;
}

std::string lowered(const std::string &s) {
    std::string out;
    for (char c : s)
        if (c != ' ' && c != '\t' && c != '\r') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

}  // namespace

Reply ask_person(const Dataset &data, const std::string &header, const std::vector<int64_t> &points,
                 const std::vector<std::string> &tags, const std::string &question,
                 const std::vector<std::string> &yes_words, const std::vector<std::string> &no_words,
                 const std::string &choices) {
    std::cout << "\n" << header << "\n";
    for (size_t k = 0; k < points.size(); ++k) std::cout << "  " << tags[k] << "  " << describe(data, points[k]) << "\n";
    for (;;) {
        std::cout << question << " " << choices << " > " << std::flush;
        std::string line;
        if (!std::getline(std::cin, line)) {
            std::cout << "\n";
            return Reply::kQuit;
        }
        const std::string word = lowered(line);
        if (std::find(yes_words.begin(), yes_words.end(), word) != yes_words.end()) return Reply::kYes;
        if (std::find(no_words.begin(), no_words.end(), word) != no_words.end()) return Reply::kNo;
        if (word == "k" || word == "?" || word == "dontknow" || word == "don'tknow") return Reply::kDontKnow;
        if (word == "u" || word == "undo") return Reply::kUndo;
        if (word == "q" || word == "quit") return Reply::kQuit;
        std::cout << "(answer with one of the letters in brackets)\n";
    }
}

}  // namespace kindred_cli
