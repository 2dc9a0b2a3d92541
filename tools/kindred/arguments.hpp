// The command line after the command word: positional words and flags.
// Flags are `--name value` or `--name=value`; a few (`--json`, `--help`) take
// no value. Each command takes the flags it knows; whatever is left must be
// options of the algorithm (options_from_registry.hpp) or is an error.
#ifndef KINDRED_CLI_ARGUMENTS_HPP
#define KINDRED_CLI_ARGUMENTS_HPP

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kindred_cli {

struct Flag {
    std::string name;  // without the leading "--"
    std::string value;
};

class Arguments {
public:
    // Parses argv[first, argc). Throws a usage error for a flag without its value
    // or a flag given twice.
    static Arguments parse(int argc, char **argv, int first);

    const std::vector<std::string> &positionals() const { return positionals_; }

    // Each take_* removes the flag it returns, so that leftovers can be checked.
    bool take_switch(const std::string &name);
    std::optional<std::string> take(const std::string &name);
    std::string take_required(const std::string &name, const std::string &command);
    std::optional<int64_t> take_int(const std::string &name, int64_t lo, int64_t hi);
    std::optional<double> take_double(const std::string &name, double lo, double hi);

    // Flags not taken yet, in command-line order.
    const std::vector<Flag> &remaining() const { return flags_; }
    // Usage error if more than max_positionals words were given.
    void expect_positionals(const std::string &command, size_t max_positionals) const;
    // Usage error if any flag is left or more than max_positionals words were given.
    void expect_nothing_else(const std::string &command, size_t max_positionals) const;

private:
    std::vector<std::string> positionals_;
    std::vector<Flag> flags_;
};

// Strict conversions of a whole word; `what` names it in the error message.
int64_t parse_int_arg(const std::string &word, const std::string &what, int64_t lo, int64_t hi);
double parse_double_arg(const std::string &word, const std::string &what, double lo, double hi);

}  // namespace kindred_cli

#endif
