#include "text_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <vector>

#include "cli_error.hpp"
#include "core/atomic_file.hpp"

namespace kindred_cli {

namespace {

// The whole of `file` in one string, read in large blocks (a stringstream
// copy cost a quarter of the time of reading a large CSV).
void read_all(std::FILE *file, const std::string &name, std::string &text) {
    std::vector<char> block(1 << 20);
    size_t got = 0;
    while ((got = std::fread(block.data(), 1, block.size(), file)) > 0) text.append(block.data(), got);
    if (std::ferror(file)) runtime_error("cannot read ", name, ": ", std::strerror(errno));
}

}  // namespace

std::string input_name(const std::string &path) { return path == "-" ? "standard input" : path; }

std::string read_text_file(const std::string &path) {
    std::string text;
    if (path == "-") {
        read_all(stdin, input_name(path), text);
    } else {
        // A directory opens as a stream but reads as nothing ("empty file" would mislead).
        std::error_code ignored;
        if (std::filesystem::is_directory(path, ignored)) runtime_error("cannot read ", path, ": it is a directory");
        std::FILE *file = std::fopen(path.c_str(), "rb");
        if (!file) runtime_error("cannot open ", path, ": ", std::strerror(errno));
        std::error_code size_error;
        const auto size = std::filesystem::file_size(path, size_error);
        if (!size_error) text.reserve(static_cast<size_t>(size));
        try {
            read_all(file, path, text);
        } catch (...) {
            std::fclose(file);
            throw;
        }
        std::fclose(file);
    }
    // A UTF-8 byte-order mark (spreadsheet exports) is not part of the first
    // line: left in, it made the first row of a header-less pairs file look
    // like a header, which was then skipped.
    if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);
    // A NUL byte ended numbers early ("2\0junk" read as 2) and cut messages short.
    const size_t nul = text.find('\0');
    if (nul != std::string::npos)
        runtime_error(input_name(path), ": NUL byte at byte offset ", nul, "; a text file (CSV, Matrix Market) is expected");
    return text;
}

void write_text_file(const std::string &path, const std::string &content) {
    if (path == "-") {
        std::cout << content << std::flush;
        return;
    }
    // The library's writer (compiled into this program too): an existing
    // output file is replaced whole or not at all.
    const std::string failed = kindred::write_file_atomically(path, content.data(), content.size());
    if (!failed.empty()) runtime_error(failed);
}

void append_text_file(const std::string &path, const std::string &content) {
    std::FILE *file = std::fopen(path.c_str(), "ab");
    if (!file) runtime_error("cannot write ", path, ": ", std::strerror(errno));
    const bool written = std::fwrite(content.data(), 1, content.size(), file) == content.size();
    const bool closed = std::fclose(file) == 0;
    if (!written || !closed) runtime_error("cannot write ", path, ": ", std::strerror(errno));
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
