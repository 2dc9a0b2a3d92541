// Whole-file reading and writing, and a line cursor that knows line numbers.
// Every reader of this program goes through here, so that "cannot open" and
// "empty file" read the same everywhere.
#ifndef KINDRED_CLI_TEXT_FILE_HPP
#define KINDRED_CLI_TEXT_FILE_HPP

#include <cstdint>
#include <string>

namespace kindred_cli {

// Reads a whole file ("-" = standard input); a runtime error naming the file
// when it cannot be read.
std::string read_text_file(const std::string &path);
// How messages name a path: "standard input" for "-".
std::string input_name(const std::string &path);

// Writes `content` to `path`, or to standard output when path is "-".
void write_text_file(const std::string &path, const std::string &content);

// Appends `content` to `path` (created if missing) and flushes it to the
// system at once, so that it survives the program being interrupted.
void append_text_file(const std::string &path, const std::string &content);

// Iterates over the lines of a text (LF or CRLF), numbering them from 1.
class LineCursor {
public:
    explicit LineCursor(const std::string &text) : text_(text) {}
    // Next line without its terminator; false at the end.
    bool next(std::string &line);
    // Next line that is not blank (only spaces / tabs); false at the end.
    bool next_nonblank(std::string &line);
    int64_t line_number() const { return line_number_; }

private:
    const std::string &text_;
    size_t pos_ = 0;
    int64_t line_number_ = 0;
};

bool is_blank(const std::string &line);

}  // namespace kindred_cli

#endif
