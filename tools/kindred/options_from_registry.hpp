// Algorithm options on the command line, generated from the library's option
// registry (kindred_option_count / kindred_option_info): nothing here knows any
// algorithm or option by name, except that every algorithm has `seed` and
// `threads` and that eval fills in `k`.
#ifndef KINDRED_CLI_OPTIONS_FROM_REGISTRY_HPP
#define KINDRED_CLI_OPTIONS_FROM_REGISTRY_HPP

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "arguments.hpp"
#include "kindred.h"

namespace kindred_cli {

struct OptionInfo {
    std::string name;
    kindred_option_type type = KINDRED_OPTION_INT;
    std::string default_value, range, doc;
};

// Usage error naming the known algorithms when `algorithm` is not one.
void require_algorithm(const std::string &algorithm);
std::vector<std::string> algorithm_names();
std::vector<OptionInfo> algorithm_options(const std::string &algorithm);
bool has_option(const std::string &algorithm, const std::string &name);
int algorithm_uses(const std::string &algorithm);
// "pairs, triplets" etc. for the ::kindred_uses flags; "no side information" when none.
std::string uses_text(int flags);

// Sets every leftover flag `--NAME VALUE` as option NAME of the model with
// kindred_model_set_string. `--max-iter` is accepted for `max_iter`. An
// unknown option or a bad value is a usage error showing kindred_last_error().
// Returns the names of the options that were set.
std::set<std::string> apply_option_flags(kindred_model *model, const std::vector<Flag> &flags);

// The model's current value of an option, in text form ("" when unset).
std::string current_option(const kindred_model *model, const std::string &name);

// `kindred help ALGORITHM`: summary, side information used, option table.
std::string algorithm_help(const std::string &algorithm);
// `kindred algorithms`: one block per algorithm.
std::string algorithm_list();
// `kindred algorithms --json`: {"version", "algorithms": {NAME: {"summary",
// "side_information", "sparse", "finds_k", "options": {NAME: {"type", "range", "doc", "default"}}}}}.
std::string algorithm_list_json();

}  // namespace kindred_cli

#endif
