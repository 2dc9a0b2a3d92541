// A small writer for the one-object JSON documents that `fit --json` and
// `eval --json` print. Keys keep their insertion order; non-finite numbers
// are written as null (JSON has no NaN).
#ifndef KINDRED_CLI_JSON_WRITER_HPP
#define KINDRED_CLI_JSON_WRITER_HPP

#include <cstdint>
#include <string>
#include <vector>

namespace kindred_cli {

class JsonObject {
public:
    JsonObject &add(const std::string &key, const std::string &value);
    JsonObject &add(const std::string &key, const char *value);
    JsonObject &add(const std::string &key, double value);
    JsonObject &add(const std::string &key, int64_t value);
    JsonObject &add(const std::string &key, int value) { return add(key, static_cast<int64_t>(value)); }
    JsonObject &add_bool(const std::string &key, bool value);
    JsonObject &add_null(const std::string &key);
    JsonObject &add(const std::string &key, const JsonObject &value);
    JsonObject &add(const std::string &key, const std::vector<std::string> &values);
    JsonObject &add(const std::string &key, const std::vector<double> &values);

    // `indent` spaces per level; 0 writes one line.
    std::string str(int indent = 2) const;

private:
    std::string render(int indent, int depth) const;
    struct Member {
        std::string key;
        std::string scalar;             // already encoded, when !is_object
        std::vector<JsonObject> object; // one element when is_object
        bool is_object = false;
    };
    std::vector<Member> members_;
};

std::string json_string(const std::string &s);
std::string json_number(double v);

}  // namespace kindred_cli

#endif
