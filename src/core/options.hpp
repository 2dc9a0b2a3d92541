// The option registry: each algorithm declares one table of OptionSpec (name,
// type, default, range, doc). That table is the single source for the C API
// checks, the introspection functions, the CLI flags, the bindings and the
// docs. OptionValues holds one model's current settings, checked against it.
#ifndef KINDRED_CORE_OPTIONS_HPP
#define KINDRED_CORE_OPTIONS_HPP

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "kindred.h"

namespace kindred {

enum class OptionType { Int = KINDRED_OPTION_INT, Double = KINDRED_OPTION_DOUBLE, Bool = KINDRED_OPTION_BOOL, Choice = KINDRED_OPTION_CHOICE };

constexpr double kInf = std::numeric_limits<double>::infinity();

struct OptionSpec {
    std::string name;
    OptionType type = OptionType::Double;
    std::string default_text;  // "" = unset by default
    double lo = -kInf, hi = kInf;
    bool lo_open = false, hi_open = false;
    std::string choices;  // "a|b|c" for Choice
    std::string doc;
    std::string range_text;  // derived by finish()

    // Builders, so that a table reads as one line per option.
    static OptionSpec integer(const char *name, int64_t def, int64_t lo, int64_t hi, const char *doc);
    static OptionSpec real(const char *name, double def, double lo, double hi, const char *doc);
    static OptionSpec boolean(const char *name, bool def, const char *doc);
    static OptionSpec choice(const char *name, const char *def, const char *choices, const char *doc);
    // Modifiers.
    OptionSpec &open_low() { lo_open = true; return finish(); }
    OptionSpec &open_high() { hi_open = true; return finish(); }
    OptionSpec &unset() { default_text.clear(); return *this; }
    OptionSpec &finish();

    bool in_range(double v) const;
    bool is_choice(const std::string &word) const;
};

using OptionTable = std::vector<OptionSpec>;

// The options every algorithm has (seed, threads), appended to each table.
void append_common_options(OptionTable &table);

class OptionValues {
public:
    OptionValues() = default;
    explicit OptionValues(const OptionTable *table);

    const OptionTable &table() const { return *table_; }
    // Setters validate against the table; they throw Error with
    // KINDRED_E_UNKNOWN_OPTION or KINDRED_E_INVALID and a message naming the option.
    void set_number(const std::string &name, double value);
    void set_text(const std::string &name, const std::string &text);

    bool is_set(const std::string &name) const;
    int64_t get_int(const std::string &name) const;
    double get_double(const std::string &name) const;
    bool get_bool(const std::string &name) const;
    const std::string &get_choice(const std::string &name) const;
    // Text form of the current value ("" when unset).
    std::string text(const std::string &name) const;

    // For save / load: every option in text form, in table order.
    std::vector<std::string> all_texts() const;

private:
    struct Value {
        bool set = false;
        double number = 0.0;
        std::string word;
    };
    int64_t index_of(const std::string &name) const;  // throws UNKNOWN_OPTION
    const Value &checked(const std::string &name, OptionType a, OptionType b) const;

    const OptionTable *table_ = nullptr;
    std::vector<Value> values_;
};

// Writes a number the way the registry prints defaults ("10", "0.001", "inf").
std::string format_number(double v);

}  // namespace kindred

#endif
