#include "text_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli_error.hpp"

namespace kindred_cli {

std::string read_text_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) runtime_error("cannot open ", path, ": ", std::strerror(errno));
    std::ostringstream content;
    content << in.rdbuf();
    if (in.bad()) runtime_error("cannot read ", path);
    return content.str();
}

void write_text_file(const std::string &path, const std::string &content) {
    if (path == "-") {
        std::cout << content << std::flush;
        return;
    }
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) runtime_error("cannot write ", path, ": ", std::strerror(errno));
    out << content;
    out.close();
    if (!out) runtime_error("cannot write ", path, ": ", std::strerror(errno));
}

bool LineCursor::next(std::string &line) {
    if (pos_ >= text_.size()) return false;
    size_t end = text_.find('\n', pos_);
    if (end == std::string::npos) end = text_.size();
    size_t stop = end;
    if (stop > pos_ && text_[stop - 1] == '\r') --stop;
    line.assign(text_, pos_, stop - pos_);
    pos_ = end + 1;
    ++line_number_;
    return true;
}

bool LineCursor::next_nonblank(std::string &line) {
    while (next(line))
        if (!is_blank(line)) return true;
    return false;
}

bool is_blank(const std::string &line) { return line.find_first_not_of(" \t") == std::string::npos; }

}  // namespace kindred_cli
