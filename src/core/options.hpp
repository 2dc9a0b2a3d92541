// The option registry: each algorithm declares one table of OptionSpec (name,
// type, default, range, doc, tier). That table is the single source for the C
// API checks, the introspection functions, the CLI flags, the bindings and the
// docs. OptionValues holds one model's current settings, checked against it.
//
// The tier: a stable option is part of the released interface (enumerated by
// kindred_option_count / kindred_option_info, hence in the CLI help, the
// bindings' keyword arguments and docs/options.md, and recorded in model
// files). An internal option (a switch for tests and benchmarks, which may
// change or go in any release) is set and read by name like any other, but is
// never enumerated and never written to a model file (zstd keeps its
// experimental parameters apart in the same way).
#ifndef KINDRED_CORE_OPTIONS_HPP
#define KINDRED_CORE_OPTIONS_HPP

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "kindred.h"

namespace kindred {

enum class OptionType { Int = KINDRED_OPTION_INT, Double = KINDRED_OPTION_DOUBLE, Bool = KINDRED_OPTION_BOOL, Choice = KINDRED_OPTION_CHOICE };
enum class OptionTier { Stable, Internal };

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
    OptionTier tier = OptionTier::Stable;

    // Builders, so that a table reads as one line per option.
    static OptionSpec integer(const char *name, int64_t def, int64_t lo, int64_t hi, const char *doc);
    static OptionSpec real(const char *name, double def, double lo, double hi, const char *doc);
    static OptionSpec boolean(const char *name, bool def, const char *doc);
    static OptionSpec choice(const char *name, const char *def, const char *choices, const char *doc);
    // The options several algorithms share, each name and range declared
    // once; the default and the text stay the algorithm's, since what is
    // counted or compared differs from one method to the next.
    static OptionSpec clusters(int64_t def, const char *doc, int64_t lo = 1);  // "k", [lo, 2^31 - 1]
    static OptionSpec max_iterations(int64_t def, const char *doc);          // "max_iter", [1, 1e8]
    static OptionSpec restarts(int64_t def, const char *doc);                // "n_init", [1, 1e5]
    static OptionSpec tolerance(double def, const char *doc);                // "tol", [0, inf]
    // Modifiers.
    OptionSpec &open_low() { lo_open = true; return finish(); }
    OptionSpec &open_high() { hi_open = true; return finish(); }
    OptionSpec &unset() { default_text.clear(); return *this; }
    OptionSpec &internal() { tier = OptionTier::Internal; return *this; }
    OptionSpec &finish();

    bool in_range(double v) const;
    bool is_choice(const std::string &word) const;
    bool is_stable() const { return tier == OptionTier::Stable; }
};

using OptionTable = std::vector<OptionSpec>;

// The stable options of a table, in table order: what introspection lists and
// what a model file records.
std::vector<const OptionSpec *> stable_options(const OptionTable &table);
// The option of that name, of either tier; nullptr when the table has none.
const OptionSpec *find_option(const OptionTable &table, const std::string &name);

// The options every algorithm has (seed, threads, standardize), appended to each table.
void append_common_options(OptionTable &table);
// table with the common options appended: an algorithm's table reads
// `return with_common_options({ ... });`.
OptionTable with_common_options(OptionTable table);

class OptionValues {
public:
    OptionValues() = default;
    explicit OptionValues(const OptionTable *table);

    const OptionTable &table() const { return *table_; }
    // Setters validate against the table; they throw Error with
    // KINDRED_E_NOT_FOUND or KINDRED_E_INVALID and a message naming the option.
    void set_number(const std::string &name, double value);
    void set_text(const std::string &name, const std::string &text);

    bool is_set(const std::string &name) const;
    int64_t get_int(const std::string &name) const;
    double get_double(const std::string &name) const;
    bool get_bool(const std::string &name) const;
    const std::string &get_choice(const std::string &name) const;
    // Text form of the current value ("" when unset).
    std::string text(const std::string &name) const;

    // Every option of both tiers in text form, in table order (the model file
    // records only the stable ones: kindred_model_save).
    std::vector<std::string> all_texts() const;

private:
    struct Value {
        bool set = false;
        double number = 0.0;
        std::string word;
    };
    int64_t index_of(const std::string &name) const;  // throws NOT_FOUND
    const Value &checked(const std::string &name, OptionType a, OptionType b) const;

    const OptionTable *table_ = nullptr;
    std::vector<Value> values_;
};

// Writes a number the way the registry prints defaults ("10", "0.001", "inf").
std::string format_number(double v);

}  // namespace kindred

#endif
