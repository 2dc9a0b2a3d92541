#include "capi/option_args.hpp"

#include <cstring>
#include <string>
#include <vector>

#include "capi/guard.hpp"

namespace kindred {
namespace capi {

void set_int_option(OptionValues &values, const char *name, int64_t value) {
    require_pointer(name, "option name");
    const double v = static_cast<double>(value);
    // Near INT64_MAX, v rounds up to 2^63, whose conversion back is undefined: test it first.
    if (v >= 0x1p63 || static_cast<int64_t>(v) != value) fail(KINDRED_E_INVALID, "option '", name, "': ", value, " is too large");
    values.set_number(name, v);
}

void set_double_option(OptionValues &values, const char *name, double value) {
    require_pointer(name, "option name");
    values.set_number(name, value);
}

void set_string_option(OptionValues &values, const char *name, const char *value) {
    require_pointer(name, "option name");
    require_pointer(value, "option value");
    values.set_text(name, value);
}

void copy_option_text(const OptionValues &values, const char *name, char *buffer, size_t capacity) {
    require_pointer(name, "option name");
    require_pointer(buffer, "buffer");
    const std::string text = values.text(name);
    if (capacity < text.size() + 1)
        fail(KINDRED_E_BUFFER_TOO_SMALL, "option '", name, "': buffer of ", capacity, " bytes is too small; ",
             text.size() + 1, " needed");
    std::memcpy(buffer, text.c_str(), text.size() + 1);
}

void describe_option(const OptionTable &table, const char *owner, int64_t index, const char **name,
                     kindred_option_type *type, const char **default_value, const char **range, const char **doc) {
    const std::vector<const OptionSpec *> listed = stable_options(table);
    if (index < 0 || index >= static_cast<int64_t>(listed.size()))
        fail(KINDRED_E_INDEX, "option index ", index, " out of range: ", owner, " has ", listed.size(), " options");
    const OptionSpec &s = *listed[static_cast<size_t>(index)];
    if (name) *name = s.name.c_str();
    if (type) *type = static_cast<kindred_option_type>(s.type);
    if (default_value) *default_value = s.default_text.c_str();
    if (range) *range = s.range_text.c_str();
    if (doc) *doc = s.doc.c_str();
}

}  // namespace capi
}  // namespace kindred
