// libFuzzer harness: a small fit driven by the input. It chooses the
// algorithm, n, d, layout and leading dimension, the values (raw doubles, NaN
// and infinities included, or small integers), pairs, triplets and partial
// labels (indices in or out of range), threads and seed; then fits, and on
// success reads labels and arrays, predicts and transforms the same points.
#include <cstdint>
#include <vector>

#include "fuzz_bytes.hpp"
#include "kindred.h"

using kindred_fuzz::check_status;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    kindred_fuzz::Bytes in(data, size);
    const char *algorithm = kindred_algorithm_name(in.in(0, kindred_algorithm_count() - 1));
    const int64_t n = in.in(1, 40), d = in.in(1, 4);
    const bool row_major = in.in(0, 1) == 0;
    const int64_t ld = (row_major ? d : n) + in.in(0, 1);
    const bool raw = in.in(0, 7) == 0;  // mostly valid values, sometimes any bits
    std::vector<double> x(static_cast<size_t>(row_major ? n * ld : d * ld));
    for (double &v : x) v = raw ? in.raw_double() : static_cast<double>(in.in(-8, 8));

    kindred_side *side = nullptr;
    check_status(kindred_side_new(&side, n));
    const int64_t pairs = in.in(0, 8), triplets = in.in(0, 4);
    std::vector<int64_t> i, j, a, b, c;
    std::vector<double> v;
    std::vector<int32_t> answer;
    for (int64_t e = 0; e < pairs; ++e) {
        i.push_back(in.in(-1, n));
        j.push_back(in.in(-1, n));
        v.push_back(static_cast<double>(in.in(-2, 2)));
    }
    for (int64_t e = 0; e < triplets; ++e) {
        a.push_back(in.in(0, n));
        b.push_back(in.in(0, n));
        c.push_back(in.in(0, n));
        answer.push_back(static_cast<int32_t>(in.in(-1, 1)));
    }
    check_status(kindred_side_add_pairs(side, i.data(), j.data(), v.data(), pairs));
    check_status(kindred_side_add_triplets(side, a.data(), b.data(), c.data(), answer.data(), triplets));
    if (in.in(0, 1)) {
        std::vector<int32_t> labels(static_cast<size_t>(n));
        for (int32_t &l : labels) l = static_cast<int32_t>(in.in(-1, 3));
        check_status(kindred_side_set_partial_labels(side, labels.data(), n));
    }

    kindred_model *m = nullptr;
    check_status(kindred_model_new(&m, algorithm));
    check_status(kindred_model_set_int(m, "threads", in.in(1, 2)));
    check_status(kindred_model_set_int(m, "seed", in.in(0, 1000)));
    if (in.in(0, 1)) check_status(kindred_model_set_int(m, "k", in.in(1, 6)));
    const kindred_layout layout = row_major ? KINDRED_ROW_MAJOR : KINDRED_COL_MAJOR;
    const kindred_status fitted = kindred_model_fit_dense(m, x.data(), n, d, layout, ld, side);
    check_status(fitted);
    if (fitted == KINDRED_OK) {
        std::vector<int32_t> labels(static_cast<size_t>(n));
        check_status(kindred_model_labels(m, labels.data(), n));
        kindred_fuzz::read_arrays(m, INT64_MAX);
        check_status(kindred_model_predict_dense(m, x.data(), n, d, layout, ld, labels.data(), n));
        int64_t dim = 0;
        if (kindred_model_transform_dim(m, &dim) == KINDRED_OK) {
            std::vector<double> out(static_cast<size_t>(n * dim));
            check_status(kindred_model_transform_dense(m, x.data(), n, d, layout, ld, out.data(), n * dim));
        }
    }
    kindred_model_free(m);
    kindred_side_free(side);
    return 0;
}
