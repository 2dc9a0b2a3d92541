// libFuzzer harness: kindred_model_load on arbitrary bytes. A file that loads
// must then answer every getter and predict without a crash; one that does
// not must be refused with a documented code and a message.
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_bytes.hpp"
#include "kindred.h"

using kindred_fuzz::check_status;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    kindred_fuzz::MemoryFile file(data, size);
    kindred_model *m = nullptr;
    const kindred_status loaded = kindred_model_load(&m, file.path().c_str());
    check_status(loaded);
    if (loaded != KINDRED_OK) {
        if (m) __builtin_trap();  // a failed load hands out no handle
        return 0;
    }
    int64_t n = 0, d = 0, clusters = 0, iterations = 0;
    int converged = 0;
    double objective = 0;
    check_status(kindred_model_summary(m, &n, &d, &clusters, &iterations, &converged, &objective));
    std::vector<int32_t> labels(static_cast<size_t>(n));
    check_status(kindred_model_labels(m, labels.data(), n));
    kindred_fuzz::read_arrays(m, 1 << 20);  // the loader checked the shapes; huge ones are not copied
    // New points of the model's dimension, when that is small: predict and
    // transform must cope with whatever state the file described.
    if (d <= 64) {
        std::vector<double> x(static_cast<size_t>(3 * d));
        for (size_t k = 0; k < x.size(); ++k) x[k] = static_cast<double>(k % 7) - 3.0;
        int32_t predicted[3];
        check_status(kindred_model_predict_dense(m, x.data(), 3, d, KINDRED_ROW_MAJOR, d, predicted, 3));
        int64_t dim = 0;
        if (kindred_model_transform_dim(m, &dim) == KINDRED_OK && dim <= 64) {
            std::vector<double> out(static_cast<size_t>(3 * dim));
            check_status(kindred_model_transform_dense(m, x.data(), 3, d, KINDRED_ROW_MAJOR, d, out.data(), 3 * dim));
        }
    }
    kindred_model_free(m);
    return 0;
}
