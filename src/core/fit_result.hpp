// What a fit leaves in a model: labels, summary numbers and named arrays
// ("centers", "memberships", "objective_trace", a learned "metric", ...).
// Everything predict / transform need is stored here, so that save / load
// is the same for every algorithm.
#ifndef KINDRED_CORE_FIT_RESULT_HPP
#define KINDRED_CORE_FIT_RESULT_HPP

#include <cstdint>
#include <string>
#include <vector>

namespace kindred {

struct NamedArray {
    std::string name;
    int64_t rows = 0, cols = 0;
    std::vector<double> values;  // row-major
};

struct FitResult {
    int64_t n = 0, d = 0;
    int64_t clusters = 0;
    int64_t iterations = 0;
    bool converged = false;
    double objective = 0.0;
    std::vector<int32_t> labels;
    std::vector<NamedArray> arrays;

    // Adds (or replaces) an array of the given shape, zero-filled.
    NamedArray &add_array(const std::string &name, int64_t rows, int64_t cols);
    void set_array(const std::string &name, int64_t rows, int64_t cols, const std::vector<double> &values);
    const NamedArray *find(const std::string &name) const;
    // Throws KINDRED_E_NOT_FOUND listing the arrays held.
    const NamedArray &get(const std::string &name) const;
    // As get(), and checks the shape (-1 = any): a loaded model passed the
    // checksum but a file edited by hand may still disagree with itself.
    // Throws KINDRED_E_CORRUPT naming the array on a mismatch.
    const NamedArray &get(const std::string &name, int64_t rows, int64_t cols) const;
};

}  // namespace kindred

#endif
