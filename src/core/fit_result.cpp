#include "core/fit_result.hpp"

#include "core/error.hpp"

namespace kindred {

NamedArray &FitResult::add_array(const std::string &name, int64_t rows, int64_t cols) {
    for (auto &a : arrays)
        if (a.name == name) {
            a.rows = rows; a.cols = cols;
            a.values.assign(static_cast<size_t>(rows * cols), 0.0);
            return a;
        }
    arrays.push_back({name, rows, cols, std::vector<double>(static_cast<size_t>(rows * cols), 0.0)});
    return arrays.back();
}

void FitResult::set_array(const std::string &name, int64_t rows, int64_t cols, const std::vector<double> &values) {
    if (static_cast<int64_t>(values.size()) != rows * cols)
        fail(KINDRED_E_INTERNAL, "array '", name, "' has ", values.size(), " values for shape ", rows, " x ", cols);
    add_array(name, rows, cols).values = values;
}

const NamedArray *FitResult::find(const std::string &name) const {
    for (const auto &a : arrays)
        if (a.name == name) return &a;
    return nullptr;
}

const NamedArray &FitResult::get(const std::string &name) const {
    if (const NamedArray *a = find(name)) return *a;
    std::string names;
    for (const auto &a : arrays) names += (names.empty() ? "" : ", ") + a.name;
    fail(KINDRED_E_NOT_FOUND, "the model has no array '", name, "'; it has: ", names.empty() ? "none" : names);
}

const NamedArray &FitResult::get(const std::string &name, int64_t rows, int64_t cols) const {
    const NamedArray &a = get(name);
    // "Any" number of rows still means at least one (no predict works from 0
    // centres); only a loaded, corrupt or crafted model file can break these.
    if ((rows >= 0 && a.rows != rows) || (rows < 0 && a.rows < 1) || (cols >= 0 && a.cols != cols) ||
        static_cast<int64_t>(a.values.size()) != a.rows * a.cols)
        fail(KINDRED_E_CORRUPT, "the model's array '", name, "' is ", a.rows, " x ", a.cols, "; expected ",
             rows >= 0 ? cat(rows) : std::string("at least 1"), " x ", cols >= 0 ? cat(cols) : std::string("any"));
    return a;
}

}  // namespace kindred
