// libFuzzer harness: options by name and value. The input picks an algorithm,
// then a sequence of settings, each by a name from the algorithm's table or
// by arbitrary bytes, through the string, integer or double setter; then reads
// every option back, caps the integer counts (see cap_counts) and fits a small
// fixed data set. Every refusal must be a documented code with a message; a
// fit may fail, never crash.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "fuzz_bytes.hpp"
#include "kindred.h"

using kindred_fuzz::check_status;

namespace {

// Two separated groups of 12 points in 2-D, with pairs, triplets and partial
// labels, so that every algorithm has what it needs.
struct Fixture {
    std::vector<double> x;
    kindred_side *side = nullptr;
    Fixture() {
        for (int p = 0; p < 24; ++p) {
            x.push_back((p < 12 ? 0.0 : 5.0) + 0.1 * (p % 5));
            x.push_back((p < 12 ? 0.0 : 5.0) + 0.1 * (p % 3));
        }
        if (kindred_side_new(&side, 24) != KINDRED_OK) __builtin_trap();
        const int64_t i[4] = {0, 12, 0, 3}, j[4] = {1, 13, 12, 20};
        const double v[4] = {1, 1, -1, -1};
        const int64_t a[2] = {0, 12}, b[2] = {1, 13}, c[2] = {12, 0};
        const int32_t answer[2] = {1, 1};
        std::vector<int32_t> labels(24, -1);
        labels[0] = 0;
        labels[12] = 1;
        if (kindred_side_add_pairs(side, i, j, v, 4) != KINDRED_OK ||
            kindred_side_add_triplets(side, a, b, c, answer, 2) != KINDRED_OK ||
            kindred_side_set_partial_labels(side, labels.data(), 24) != KINDRED_OK)
            __builtin_trap();
    }
};

std::string option_name(kindred_fuzz::Bytes &in, const char *algorithm, int64_t count) {
    if (count > 0 && in.in(0, 3) != 0) {
        const char *name = nullptr, *def = nullptr, *range = nullptr, *doc = nullptr;
        kindred_option_type type = KINDRED_OPTION_INT;
        if (kindred_option_info(algorithm, in.in(0, count - 1), &name, &type, &def, &range, &doc) != KINDRED_OK)
            __builtin_trap();
        return name;
    }
    return in.text(24);  // any bytes, NUL and non-ASCII included
}

// Legal counts multiply: 1e8 iterations times 1e5 restarts is a valid
// setting that runs for days, not a fault. Before the fit every integer
// option but the seed is brought down to at most kMaxCount, so that one
// input's fit stays well under libFuzzer's timeout whatever it set.
constexpr int64_t kMaxCount = 24;

void cap_counts(kindred_model *m, const char *algorithm, int64_t count) {
    for (int64_t o = 0; o < count; ++o) {
        const char *name = nullptr, *def = nullptr, *range = nullptr, *doc = nullptr;
        kindred_option_type type = KINDRED_OPTION_INT;
        if (kindred_option_info(algorithm, o, &name, &type, &def, &range, &doc) != KINDRED_OK)
            __builtin_trap();
        if (type != KINDRED_OPTION_INT || std::string(name) == "seed") continue;
        char value[64];
        if (kindred_model_option(m, name, value, sizeof value) != KINDRED_OK) __builtin_trap();
        // A refusal (a rule between two options) leaves the fit to refuse too.
        if (std::strtoll(value, nullptr, 10) > kMaxCount)
            check_status(kindred_model_set_int(m, name, kMaxCount));
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static Fixture fixture;  // read-only after construction
    kindred_fuzz::Bytes in(data, size);
    const char *algorithm = kindred_algorithm_name(in.in(0, kindred_algorithm_count() - 1));
    int64_t count = 0;
    check_status(kindred_option_count(algorithm, &count));
    kindred_model *m = nullptr;
    check_status(kindred_model_new(&m, algorithm));
    check_status(kindred_model_set_int(m, "threads", 1));
    std::vector<std::string> names;
    for (int setting = 0; setting < 8 && in.left() > 0; ++setting) {
        names.push_back(option_name(in, algorithm, count));
        const char *name = names.back().c_str();
        switch (in.in(0, 2)) {
        case 0: {
            const std::string value = in.text(24);
            check_status(kindred_model_set_string(m, name, value.c_str()));
            break;
        }
        case 1:
            check_status(kindred_model_set_int(m, name, static_cast<int64_t>(in.u64(8))));
            break;
        default:
            check_status(kindred_model_set_double(m, name, in.raw_double()));
        }
    }
    char buffer[64];
    for (const std::string &name : names)
        check_status(kindred_model_option(m, name.c_str(), buffer, static_cast<size_t>(in.in(0, 64))));
    cap_counts(m, algorithm, count);
    check_status(kindred_model_fit_dense(m, fixture.x.data(), 24, 2, KINDRED_ROW_MAJOR, 2, fixture.side));
    kindred_model_free(m);
    return 0;
}
