#include "arguments.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "cli_error.hpp"
#include "csv_fields.hpp"

namespace kindred_cli {

namespace {

// Flags that never take a value.
bool is_switch(const std::string &name) { return name == "json" || name == "help" || name == "no-header"; }

}  // namespace

Arguments Arguments::parse(int argc, char **argv, int first) {
    Arguments a;
    for (int k = first; k < argc; ++k) {
        const std::string word = argv[k];
        if (word.size() < 3 || word.compare(0, 2, "--") != 0) {
            a.positionals_.push_back(word);
            continue;
        }
        Flag f;
        const size_t eq = word.find('=');
        if (eq != std::string::npos) {
            f.name = word.substr(2, eq - 2);
            f.value = word.substr(eq + 1);
            if (is_switch(f.name)) usage_error("flag --", f.name, " takes no value");
        } else {
            f.name = word.substr(2);
            // A flag followed by nothing or by another flag has an empty
            // value: an error for every flag that needs one (value()), and
            // "true" for a bool option of the algorithm (--standardize).
            if (!is_switch(f.name) && k + 1 < argc) {
                const std::string next = argv[k + 1];
                if (!(next.size() > 2 && next.compare(0, 2, "--") == 0)) {
                    f.value = next;
                    ++k;
                }
            }
        }
        for (const Flag &seen : a.flags_)
            if (seen.name == f.name) usage_error("flag --", f.name, " is given twice");
        a.flags_.push_back(f);
    }
    return a;
}

bool Arguments::take_switch(const std::string &name) {
    for (size_t k = 0; k < flags_.size(); ++k)
        if (flags_[k].name == name) {
            flags_.erase(flags_.begin() + static_cast<long>(k));
            return true;
        }
    return false;
}

std::optional<std::string> Arguments::take(const std::string &name) {
    for (size_t k = 0; k < flags_.size(); ++k)
        if (flags_[k].name == name) {
            std::string value = flags_[k].value;
            flags_.erase(flags_.begin() + static_cast<long>(k));
            if (value.empty()) usage_error("flag --", name, " needs a value");
            return value;
        }
    return std::nullopt;
}

std::string Arguments::take_required(const std::string &name, const std::string &command) {
    std::optional<std::string> v = take(name);
    if (!v) usage_error(command, " needs --", name, " (see `kindred help ", command, "`)");
    return *v;
}

std::optional<int64_t> Arguments::take_int(const std::string &name, int64_t lo, int64_t hi) {
    std::optional<std::string> v = take(name);
    if (!v) return std::nullopt;
    return parse_int_arg(*v, "--" + name, lo, hi);
}

std::optional<double> Arguments::take_double(const std::string &name, double lo, double hi) {
    std::optional<std::string> v = take(name);
    if (!v) return std::nullopt;
    return parse_double_arg(*v, "--" + name, lo, hi);
}

void Arguments::expect_positionals(const std::string &command, size_t max_positionals) const {
    if (positionals_.size() > max_positionals)
        usage_error("unexpected argument '", positionals_[max_positionals], "' for `kindred ", command, "`");
}

void Arguments::expect_nothing_else(const std::string &command, size_t max_positionals) const {
    expect_positionals(command, max_positionals);
    if (!flags_.empty())
        usage_error("unknown flag --", flags_.front().name, " for `kindred ", command, "` (see `kindred help ", command, "`)");
}

int64_t parse_int_arg(const std::string &word, const std::string &what, int64_t lo, int64_t hi) {
    const char *begin = word.c_str();
    char *end = nullptr;
    errno = 0;
    const long long v = std::strtoll(begin, &end, 10);
    if (word.empty() || end == begin || *end != '\0' || errno == ERANGE)
        usage_error(what, " must be an integer; got '", word, "'");
    if (v < lo || v > hi) usage_error(what, " must be in [", lo, ", ", hi, "]; got ", v);
    return static_cast<int64_t>(v);
}

double parse_double_arg(const std::string &word, const std::string &what, double lo, double hi) {
    const char *begin = word.c_str();
    char *end = nullptr;
    errno = 0;
    const double v = std::strtod(begin, &end);
    if (word.empty() || end == begin || *end != '\0' || errno == ERANGE || !std::isfinite(v) || is_hexadecimal(word))
        usage_error(what, " must be a number; got '", word, "'");
    if (v < lo || v > hi) usage_error(what, " must be in [", lo, ", ", hi, "]; got ", v);
    return v;
}

}  // namespace kindred_cli
