// The option setters, getter and introspection of the C API, written once for
// every handle that holds an OptionValues (kindred_model,
// kindred_active_options), so that all of them check and report alike.
#ifndef KINDRED_CAPI_OPTION_ARGS_HPP
#define KINDRED_CAPI_OPTION_ARGS_HPP

#include <cstddef>
#include <cstdint>

#include "core/options.hpp"
#include "kindred.h"

namespace kindred {
namespace capi {

// kindred_*_set_int: refuses a value that a double does not hold exactly.
void set_int_option(OptionValues &values, const char *name, int64_t value);
void set_double_option(OptionValues &values, const char *name, double value);
void set_string_option(OptionValues &values, const char *name, const char *value);
// kindred_*_option: the text form into a caller buffer of `capacity` bytes
// (KINDRED_E_BUFFER_TOO_SMALL, naming the size needed, when it does not fit).
void copy_option_text(const OptionValues &values, const char *name, char *buffer, size_t capacity);
// kindred_*_option_info: the stable option at `index` of `table`; `owner`
// names the table in the message of an index out of range.
void describe_option(const OptionTable &table, const char *owner, int64_t index, const char **name,
                     kindred_option_type *type, const char **default_value, const char **range, const char **doc);

}  // namespace capi
}  // namespace kindred

#endif
