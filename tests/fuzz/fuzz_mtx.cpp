// libFuzzer harness: the CLI's Matrix Market reader on arbitrary text, and a
// k-means fit of what it returns (CSR straight from the reader). The reader
// returns consistent CSR or throws the program's own error; the library takes
// the CSR or refuses it with a documented code.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "cli_error.hpp"
#include "fuzz_bytes.hpp"
#include "kindred.h"
#include "mtx_reader.hpp"

namespace {

// The rows the size line announces (the first line after the banner that is
// neither blank nor a comment), or 0 when there is none to read.
unsigned long long announced_rows(const std::string &text) {
    size_t at = text.find('\n');
    while (at != std::string::npos && at + 1 < text.size()) {
        const size_t start = at + 1, end = text.find('\n', start);
        const std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
        const size_t first = line.find_first_not_of(" \t\r");
        if (first != std::string::npos && line[first] != '%') return std::strtoull(line.c_str() + first, nullptr, 10);
        at = end;
    }
    return 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string text(reinterpret_cast<const char *>(data), size);
    // The reader holds 8 bytes of row offsets per announced row and refuses
    // more rows than the machine's memory holds (a CLI test checks that);
    // between that and libFuzzer's 2 GiB limit the allocation is legitimate,
    // so such sizes are not run here.
    if (announced_rows(text) > 10000000ULL) return 0;
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
