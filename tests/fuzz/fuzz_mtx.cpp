// libFuzzer harness: the CLI's Matrix Market reader on arbitrary text, and a
// k-means fit of what it returns (CSR straight from the reader). The reader
// returns consistent CSR or throws the program's own error; the library takes
// the CSR or refuses it with a documented code.
#include <cstdint>
#include <string>

#include "cli_error.hpp"
#include "fuzz_bytes.hpp"
#include "kindred.h"
#include "mtx_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string text(reinterpret_cast<const char *>(data), size);
    kindred_cli::Dataset set;
    try {
        set = kindred_cli::read_matrix_market(text, "fuzz.mtx");
    } catch (const kindred_cli::CliError &e) {
        if (e.what()[0] == '\0') __builtin_trap();
        return 0;
    }
    if (!set.sparse || set.indptr.size() != static_cast<size_t>(set.n + 1)) __builtin_trap();
    if (set.indices.size() != set.values.size() || set.indptr.back() != static_cast<int64_t>(set.indices.size()))
        __builtin_trap();
    // The reader is the subject; keep fits small. A size line may announce
    // any number of columns with no entries, and a fit needs d-long dense
    // centres: in a normal build an impossible d is KINDRED_E_NOMEM (operator
    // new throws, the boundary guard maps it), but under ASan operator new
    // aborts instead of throwing, so such fits are not run here.
    if (set.n > 2000 || set.d > 100000) return 0;
    kindred_model *m = nullptr;
    kindred_fuzz::check_status(kindred_model_new(&m, "kmeans"));
    kindred_fuzz::check_status(kindred_model_set_int(m, "k", 2));
    kindred_fuzz::check_status(kindred_model_set_int(m, "threads", 1));
    kindred_fuzz::check_status(kindred_model_fit_csr(m, set.n, set.d, set.indptr.data(), set.indices.data(),
                                                     set.values.data(), nullptr));
    kindred_model_free(m);
    return 0;
}
