#include "json_writer.hpp"

#include <cmath>
#include <cstdio>

namespace kindred_cli {

std::string json_string(const std::string &s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    return out + "\"";
}

std::string json_number(double v) {
    if (!std::isfinite(v)) return "null";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.15g", v);
    return buf;
}

JsonObject &JsonObject::add(const std::string &key, const std::string &value) {
    members_.push_back(Member{key, json_string(value), {}, false});
    return *this;
}
JsonObject &JsonObject::add(const std::string &key, const char *value) { return add(key, std::string(value)); }
JsonObject &JsonObject::add(const std::string &key, double value) {
    members_.push_back(Member{key, json_number(value), {}, false});
    return *this;
}
JsonObject &JsonObject::add(const std::string &key, int64_t value) {
    members_.push_back(Member{key, std::to_string(value), {}, false});
    return *this;
}
JsonObject &JsonObject::add_bool(const std::string &key, bool value) {
    members_.push_back(Member{key, value ? "true" : "false", {}, false});
    return *this;
}
JsonObject &JsonObject::add_null(const std::string &key) {
    members_.push_back(Member{key, "null", {}, false});
    return *this;
}
JsonObject &JsonObject::add(const std::string &key, const JsonObject &value) {
    members_.push_back(Member{key, "", {value}, true});
    return *this;
}
JsonObject &JsonObject::add(const std::string &key, const std::vector<std::string> &values) {
    std::string list = "[";
    for (size_t k = 0; k < values.size(); ++k) list += (k ? ", " : "") + json_string(values[k]);
    members_.push_back(Member{key, list + "]", {}, false});
    return *this;
}

JsonObject &JsonObject::add(const std::string &key, const std::vector<double> &values) {
    std::string list = "[";
    for (size_t k = 0; k < values.size(); ++k) list += (k ? ", " : "") + json_number(values[k]);
    members_.push_back(Member{key, list + "]", {}, false});
    return *this;
}

std::string JsonObject::render(int indent, int depth) const {
    if (members_.empty()) return "{}";
    const std::string pad = indent ? "\n" + std::string(static_cast<size_t>(indent * (depth + 1)), ' ') : "";
    const std::string close = indent ? "\n" + std::string(static_cast<size_t>(indent * depth), ' ') : "";
    // Small objects of scalars (mean / std) stay on one line.
    bool flat = depth > 0;
    for (const Member &m : members_) flat = flat && !m.is_object;
    std::string out = "{";
    for (size_t k = 0; k < members_.size(); ++k) {
        const Member &m = members_[k];
        out += k ? "," : "";
        out += flat ? (k ? " " : "") : pad;
        out += json_string(m.key) + ": ";
        out += m.is_object ? m.object.front().render(indent, depth + 1) : m.scalar;
    }
    return out + (flat ? "" : close) + "}";
}

std::string JsonObject::str(int indent) const { return render(indent, 0); }

}  // namespace kindred_cli
