#include "options_from_registry.hpp"

#include <algorithm>

#include "cli_error.hpp"
#include "json_writer.hpp"

namespace kindred_cli {

namespace {

const char *type_name(kindred_option_type type) {
    switch (type) {
    case KINDRED_OPTION_INT: return "integer";
    case KINDRED_OPTION_DOUBLE: return "real";
    case KINDRED_OPTION_BOOL: return "bool";
    case KINDRED_OPTION_CHOICE: return "choice";
    default: return "?";
    }
}

std::string join(const std::vector<std::string> &words, const char *sep) {
    std::string out;
    for (size_t k = 0; k < words.size(); ++k) out += (k ? sep : "") + words[k];
    return out;
}

std::string pad(const std::string &s, size_t width) { return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' '); }

// The option name a flag means: itself, or with '-' read as '_' (--max-iter).
std::string option_name_for(const std::string &algorithm, const std::string &flag) {
    if (has_option(algorithm, flag)) return flag;
    std::string underscored = flag;
    std::replace(underscored.begin(), underscored.end(), '-', '_');
    return underscored;
}

}  // namespace

std::vector<std::string> algorithm_names() {
    std::vector<std::string> names;
    const int64_t count = kindred_algorithm_count();
    for (int64_t k = 0; k < count; ++k)
        if (const char *name = kindred_algorithm_name(k)) names.push_back(name);
    return names;
}

void require_algorithm(const std::string &algorithm) {
    const std::vector<std::string> names = algorithm_names();
    if (std::find(names.begin(), names.end(), algorithm) == names.end())
        usage_error("unknown algorithm '", algorithm, "'; known: ", join(names, ", "));
}

std::vector<OptionInfo> algorithm_options(const std::string &algorithm) {
    require_algorithm(algorithm);
    int64_t count = 0;
    check(kindred_option_count(algorithm.c_str(), &count), "options of " + algorithm);
    std::vector<OptionInfo> options;
    for (int64_t k = 0; k < count; ++k) {
        const char *name = nullptr, *def = nullptr, *range = nullptr, *doc = nullptr;
        OptionInfo info;
        check(kindred_option_info(algorithm.c_str(), k, &name, &info.type, &def, &range, &doc), "options of " + algorithm);
        info.name = name;
        info.default_value = def;
        info.range = range;
        info.doc = doc;
        options.push_back(info);
    }
    return options;
}

bool has_option(const std::string &algorithm, const std::string &name) {
    for (const OptionInfo &o : algorithm_options(algorithm))
        if (o.name == name) return true;
    return false;
}

int algorithm_uses(const std::string &algorithm) {
    require_algorithm(algorithm);
    int flags = 0;
    check(kindred_algorithm_uses(algorithm.c_str(), &flags), algorithm);
    return flags;
}

std::string uses_text(int flags) {
    std::vector<std::string> parts;
    if (flags & KINDRED_USES_PAIRS) parts.push_back("pairs");
    if (flags & KINDRED_USES_TRIPLETS) parts.push_back("triplets");
    if (flags & KINDRED_USES_PARTIAL_LABELS) parts.push_back("partial labels");
    std::string out = parts.empty() ? "no side information" : join(parts, ", ");
    if (flags & KINDRED_USES_SPARSE) out += "; accepts sparse (.mtx) data";
    if (flags & KINDRED_USES_NO_K) out += "; finds the number of clusters itself";
    return out;
}

std::set<std::string> apply_option_flags(kindred_model *model, const std::vector<Flag> &flags) {
    const std::string algorithm = kindred_model_algorithm(model);
    std::set<std::string> set_names;
    for (const Flag &f : flags) {
        const std::string name = option_name_for(algorithm, f.name);
        std::string value = f.value;
        if (value.empty()) {
            // A bool option given alone means true; any other needs its value.
            for (const OptionInfo &o : algorithm_options(algorithm))
                if (o.name == name && o.type == KINDRED_OPTION_BOOL) value = "true";
            if (value.empty() && has_option(algorithm, name)) usage_error("flag --", f.name, " needs a value");
        }
        const kindred_status s = kindred_model_set_string(model, name.c_str(), value.c_str());
        if (s == KINDRED_E_NOT_FOUND)
            usage_error("unknown flag --", f.name, ": ", kindred_last_error(), " (see `kindred help ", algorithm, "`)");
        if (s != KINDRED_OK) usage_error("--", f.name, ": ", kindred_last_error());
        if (!set_names.insert(name).second) usage_error("option ", name, " is given twice");
    }
    return set_names;
}

std::string current_option(const kindred_model *model, const std::string &name) {
    char buffer[256];
    check(kindred_model_option(model, name.c_str(), buffer, sizeof buffer), "option " + name);
    return buffer;
}

std::string algorithm_help(const std::string &algorithm) {
    const std::vector<OptionInfo> options = algorithm_options(algorithm);
    const char *summary = "";
    check(kindred_algorithm_summary(algorithm.c_str(), &summary), algorithm);
    std::string out = algorithm + ": " + summary + "\n";
    out += "uses: " + uses_text(algorithm_uses(algorithm)) + "\n\n";
    out += "options (give them to fit / eval as --NAME VALUE; '-' may stand for '_'):\n";
    size_t width = 8;
    for (const OptionInfo &o : options) width = std::max(width, o.name.size() + 4);
    out += "  " + pad("name", width) + pad("type", 9) + pad("default", 12) + pad("range", 22) + "description\n";
    bool has_k = false;
    for (const OptionInfo &o : options) {
        has_k = has_k || o.name == "k";
        out += "  " + pad("--" + o.name, width) + pad(type_name(o.type), 9) +
               pad(o.default_value.empty() ? "(unset)" : o.default_value, 12) + pad(o.range, 22) + o.doc + "\n";
    }
    if (has_k)
        out += "\nkindred eval sets k to the number of classes of the label column (minus the classes\n"
               "revealed by --reveal-classes) unless --k is given.\n";
    // The example names the side information the algorithm reads, so that it
    // runs as shown (tcs-gm / tcs-vmf fail without partial labels).
    const int uses = algorithm_uses(algorithm);
    std::string side;
    if (uses & KINDRED_USES_PAIRS) side += " --pairs pairs.csv";
    if (uses & KINDRED_USES_TRIPLETS) side += " --triplets triplets.csv";
    if (uses & KINDRED_USES_PARTIAL_LABELS) side += " --partial-labels known.csv";
    out += "\nexample: kindred fit " + algorithm + " --data points.csv" + side + (has_k ? " --k 3" : "") +
           " --seed 1 --out labels.csv\n";
    return out;
}

std::string algorithm_list() {
    std::string out;
    for (const std::string &name : algorithm_names()) {
        const char *summary = "";
        check(kindred_algorithm_summary(name.c_str(), &summary), name);
        std::vector<std::string> option_names;
        for (const OptionInfo &o : algorithm_options(name)) option_names.push_back(o.name);
        out += name + "\n    " + summary + "\n    uses: " + uses_text(algorithm_uses(name)) +
               "\n    options: " + join(option_names, ", ") + "\n";
    }
    out += "\n`kindred help ALGORITHM` shows an algorithm's options with defaults and ranges.\n";
    return out;
}

std::string algorithm_list_json() {
    JsonObject algorithms;
    for (const std::string &name : algorithm_names()) {
        const char *summary = "";
        check(kindred_algorithm_summary(name.c_str(), &summary), name);
        const int uses = algorithm_uses(name);
        std::vector<std::string> side;
        if (uses & KINDRED_USES_PAIRS) side.push_back("pairs");
        if (uses & KINDRED_USES_TRIPLETS) side.push_back("triplets");
        if (uses & KINDRED_USES_PARTIAL_LABELS) side.push_back("partial_labels");
        JsonObject options;
        for (const OptionInfo &o : algorithm_options(name)) {
            JsonObject option;
            option.add("type", type_name(o.type)).add("range", o.range).add("doc", o.doc);
            if (o.default_value.empty()) option.add_null("default");
            else option.add("default", o.default_value);
            options.add(o.name, option);
        }
        JsonObject algorithm;
        algorithm.add("summary", summary)
            .add("side_information", side)
            .add_bool("sparse", (uses & KINDRED_USES_SPARSE) != 0)
            .add_bool("finds_k", (uses & KINDRED_USES_NO_K) != 0)
            .add("options", options);
        algorithms.add(name, algorithm);
    }
    JsonObject root;
    root.add("version", kindred_version()).add("algorithms", algorithms);
    return root.str() + "\n";
}

}  // namespace kindred_cli
