// How the kindred program fails: one exception type carrying the exit code,
// caught once in main(). Exit codes are part of the interface (documented in
// `kindred help`): 2 = the command line is wrong, 1 = the work failed.
#ifndef KINDRED_CLI_ERROR_HPP
#define KINDRED_CLI_ERROR_HPP

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include "kindred.h"

namespace kindred_cli {

enum ExitCode {
    kExitOk = 0,
    kExitRuntime = 1,  // a file could not be read or is malformed, the library failed
    kExitUsage = 2     // unknown command / algorithm / flag / option, bad or missing flag value
};

class CliError : public std::runtime_error {
public:
    CliError(int exit_code, const std::string &message)
        : std::runtime_error(message), exit_code_(exit_code) {}
    int exit_code() const noexcept { return exit_code_; }

private:
    int exit_code_;
};

template <typename... Args>
std::string text(Args &&...args) {
    std::ostringstream out;
    out.precision(12);
    (out << ... << std::forward<Args>(args));
    return out.str();
}

template <typename... Args>
[[noreturn]] void usage_error(Args &&...args) {
    throw CliError(kExitUsage, text(std::forward<Args>(args)...));
}

template <typename... Args>
[[noreturn]] void runtime_error(Args &&...args) {
    throw CliError(kExitRuntime, text(std::forward<Args>(args)...));
}

// Turns a failed library call into a runtime error showing kindred_last_error().
inline void check(kindred_status status, const std::string &context) {
    if (status == KINDRED_OK) return;
    runtime_error(context, ": ", kindred_last_error(), " (", kindred_status_string(status), ")");
}

// A message located in a file, as compilers print them: "FILE:LINE:COLUMN: what".
inline std::string at(const std::string &file, int64_t line, int64_t column = 0) {
    std::string where = file + ":" + std::to_string(line);
    if (column > 0) where += ":" + std::to_string(column);
    return where;
}

}  // namespace kindred_cli

#endif
