#include "core/options.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "core/error.hpp"

namespace kindred {

std::string format_number(double v) {
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    if (v == std::floor(v) && std::fabs(v) <= 9007199254740992.0) return cat(static_cast<int64_t>(v));
    // Shortest of 15 or 17 significant digits that reads back exactly.
    std::ostringstream out;
    out.precision(15);
    out << v;
    if (std::strtod(out.str().c_str(), nullptr) == v) return out.str();
    out.str("");
    out.precision(17);
    out << v;
    return out.str();
}

OptionSpec OptionSpec::integer(const char *name, int64_t def, int64_t lo, int64_t hi, const char *doc) {
    OptionSpec s;
    s.name = name; s.type = OptionType::Int; s.default_text = cat(def);
    s.lo = static_cast<double>(lo); s.hi = static_cast<double>(hi); s.doc = doc;
    s.finish();
    return s;
}

OptionSpec OptionSpec::real(const char *name, double def, double lo, double hi, const char *doc) {
    OptionSpec s;
    s.name = name; s.type = OptionType::Double; s.default_text = format_number(def);
    s.lo = lo; s.hi = hi; s.doc = doc;
    s.finish();
    return s;
}

OptionSpec OptionSpec::boolean(const char *name, bool def, const char *doc) {
    OptionSpec s;
    s.name = name; s.type = OptionType::Bool; s.default_text = def ? "1" : "0";
    s.lo = 0; s.hi = 1; s.doc = doc;
    s.finish();
    return s;
}

OptionSpec OptionSpec::choice(const char *name, const char *def, const char *choices, const char *doc) {
    OptionSpec s;
    s.name = name; s.type = OptionType::Choice; s.default_text = def;
    s.choices = choices; s.doc = doc;
    s.finish();
    return s;
}

OptionSpec &OptionSpec::finish() {
    if (type == OptionType::Choice) {
        range_text = choices;
    } else if (type == OptionType::Bool) {
        range_text = "0|1";
    } else {
        range_text = cat(lo_open ? "(" : "[", format_number(lo), ", ", format_number(hi), hi_open ? ")" : "]");
    }
    return *this;
}

bool OptionSpec::in_range(double v) const {
    if (std::isnan(v)) return false;
    if (lo_open ? !(v > lo) : !(v >= lo)) return false;
    if (hi_open ? !(v < hi) : !(v <= hi)) return false;
    if ((type == OptionType::Int || type == OptionType::Bool) && v != std::floor(v)) return false;
    return true;
}

bool OptionSpec::is_choice(const std::string &word) const {
    size_t start = 0;
    while (start <= choices.size()) {
        size_t bar = choices.find('|', start);
        if (bar == std::string::npos) bar = choices.size();
        if (choices.compare(start, bar - start, word) == 0 && bar - start == word.size()) return true;
        start = bar + 1;
    }
    return false;
}

std::vector<const OptionSpec *> stable_options(const OptionTable &table) {
    std::vector<const OptionSpec *> out;
    for (const OptionSpec &s : table)
        if (s.is_stable()) out.push_back(&s);
    return out;
}

const OptionSpec *find_option(const OptionTable &table, const std::string &name) {
    for (const OptionSpec &s : table)
        if (s.name == name) return &s;
    return nullptr;
}

OptionSpec OptionSpec::clusters(int64_t def, const char *doc, int64_t lo) {
    return integer("k", def, lo, INT32_MAX, doc);
}

OptionSpec OptionSpec::max_iterations(int64_t def, const char *doc) {
    return integer("max_iter", def, 1, 100000000, doc);
}

OptionSpec OptionSpec::restarts(int64_t def, const char *doc) { return integer("n_init", def, 1, 100000, doc); }

OptionSpec OptionSpec::tolerance(double def, const char *doc) { return real("tol", def, 0, kInf, doc); }

OptionTable with_common_options(OptionTable table) {
    append_common_options(table);
    return table;
}

void append_common_options(OptionTable &table) {
    // Options hold doubles: 2^53 - 1 is the largest seed every value of which is exact.
    const OptionSpec common[] = {
        OptionSpec::integer("seed", 0, 0, 9007199254740991LL, "seed of the random generator; equal seeds give equal results"),
        OptionSpec::integer("threads", 0, 0, 1024, "threads of the library's own loops (0 = all cores); results do not depend on it"),
        OptionSpec::boolean("standardize", false,
                            "z-score each feature before the fit (a constant feature becomes 0; dense data only); the "
                            "model keeps the scaling and predict / transform apply it"),
    };
    // A table may declare a common option itself, with its own default and
    // text (dcrc standardizes by default); it is then not added twice.
    for (const OptionSpec &s : common)
        if (!find_option(table, s.name)) table.push_back(s);
}

OptionValues::OptionValues(const OptionTable *table) : table_(table), values_(table->size()) {
    for (size_t k = 0; k < table->size(); ++k) {
        const OptionSpec &s = (*table)[k];
        if (!s.default_text.empty()) set_text(s.name, s.default_text);
    }
}

int64_t OptionValues::index_of(const std::string &name) const {
    if (const OptionSpec *s = find_option(*table_, name)) return s - table_->data();
    // The message guides a user, so it lists what the documentation lists:
    // the stable options.
    std::string names;
    for (const OptionSpec *s : stable_options(*table_)) names += (names.empty() ? "" : ", ") + s->name;
    fail(KINDRED_E_NOT_FOUND, "unknown option '", name, "'; valid options: ", names);
}

void OptionValues::set_number(const std::string &name, double value) {
    const int64_t k = index_of(name);
    const OptionSpec &s = (*table_)[k];
    if (s.type == OptionType::Choice)
        fail(KINDRED_E_INVALID, "option '", name, "' takes one of ", s.choices, ", not a number");
    if (!s.in_range(value)) {
        const char *what = s.type == OptionType::Double ? "a number" : (s.type == OptionType::Bool ? "0 or 1" : "an integer");
        fail(KINDRED_E_INVALID, "option '", name, "' must be ", what, " in ", s.range_text, "; got ", format_number(value));
    }
    values_[k].set = true;
    values_[k].number = value;
}

void OptionValues::set_text(const std::string &name, const std::string &text) {
    const int64_t k = index_of(name);
    const OptionSpec &s = (*table_)[k];
    if (s.type == OptionType::Choice) {
        if (!s.is_choice(text))
            fail(KINDRED_E_INVALID, "option '", name, "' must be one of ", s.choices, "; got '", text, "'");
        values_[k].set = true;
        values_[k].word = text;
        return;
    }
    if (s.type == OptionType::Bool) {
        if (text == "1" || text == "true" || text == "yes" || text == "on") return set_number(name, 1);
        if (text == "0" || text == "false" || text == "no" || text == "off") return set_number(name, 0);
        fail(KINDRED_E_INVALID, "option '", name, "' must be 0 or 1 (or true / false); got '", text, "'");
    }
    const char *begin = text.c_str();
    char *end = nullptr;
    errno = 0;
    const double v = std::strtod(begin, &end);
    // The whole text must be the number: strtod skips leading spaces (" 3" was
    // taken, "3 " refused) and stops at a NUL inside the string. Decimal
    // only: strtod also reads hexadecimal ("0x10" is 16), which no option
    // documents and a typo could produce.
    const size_t digits = text.find_first_not_of("+-");
    const bool hexadecimal = digits != std::string::npos && digits + 1 < text.size() && text[digits] == '0' &&
                             (text[digits + 1] == 'x' || text[digits + 1] == 'X');
    if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])) || end != begin + text.size() ||
        hexadecimal)
        fail(KINDRED_E_INVALID, "option '", name, "' must be a number in ", s.range_text, "; got '", text, "'");
    // ERANGE on overflow only ("1e400"); an underflow ("1e-400", a denormal)
    // is a number that the range check judges, not a non-number.
    if (errno == ERANGE && std::isinf(v))
        fail(KINDRED_E_INVALID, "option '", name, "': '", text, "' is too large for a double; the range is ", s.range_text);
    set_number(name, v);
}

bool OptionValues::is_set(const std::string &name) const { return values_[index_of(name)].set; }

const OptionValues::Value &OptionValues::checked(const std::string &name, OptionType a, OptionType b) const {
    const int64_t k = index_of(name);
    const OptionSpec &s = (*table_)[k];
    if (s.type != a && s.type != b) fail(KINDRED_E_INTERNAL, "option '", name, "' read with the wrong type");
    if (!values_[k].set) fail(KINDRED_E_INTERNAL, "option '", name, "' read while unset");
    return values_[k];
}

int64_t OptionValues::get_int(const std::string &name) const {
    return static_cast<int64_t>(checked(name, OptionType::Int, OptionType::Bool).number);
}
double OptionValues::get_double(const std::string &name) const {
    return checked(name, OptionType::Double, OptionType::Int).number;
}
bool OptionValues::get_bool(const std::string &name) const {
    return checked(name, OptionType::Bool, OptionType::Bool).number != 0.0;
}
const std::string &OptionValues::get_choice(const std::string &name) const {
    return checked(name, OptionType::Choice, OptionType::Choice).word;
}

std::string OptionValues::text(const std::string &name) const {
    const int64_t k = index_of(name);
    const Value &v = values_[k];
    if (!v.set) return "";
    if ((*table_)[k].type == OptionType::Choice) return v.word;
    return format_number(v.number);
}

std::vector<std::string> OptionValues::all_texts() const {
    std::vector<std::string> out;
    for (const auto &s : *table_) out.push_back(text(s.name));
    return out;
}

}  // namespace kindred
